// Package cache is the blob-keyed result cache: per-file verdicts of the
// gates that judge each file on its own, kept between runs under the git
// directory so a warm run skips reading and matching what it judged before.
//
// The contract:
//
//   - A Table is one gate under one effective configuration. Its key is a
//     digest of the binary's source stamp, the gate's stable id and the
//     configuration bytes the rule hands over (resolved knob values, the
//     bytes of every pattern or list file, its operands). Any of them
//     changed names another table, so a stale verdict is never served.
//   - An entry is keyed by the path and the blob id of the exact bytes
//     judged; its value is opaque bytes (the gate package encodes
//     findings).
//   - A table lives in one file, written whole to a temporary file and
//     renamed over the old one, so a reader sees the old table or the new
//     one, never a mix; concurrent writers race to the rename and the last
//     one wins with a whole table. A file that does not parse, names
//     another key or fails its checksum is discarded, never trusted.
//   - Size is bounded: a table holds at most MaxTableBytes (entries looked
//     up or stored this run first, older ones carried while room remains),
//     and the directory keeps at most MaxTables tables, the least recently
//     written removed first.
//   - A store whose source stamp cannot identify the build ("dev", or
//     empty) is disabled: a developer's changed code would otherwise reuse
//     its predecessor's verdicts.
//
// The package starts no process and walks no tree.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Bounds of the store.
const (
	MaxTableBytes = 8 << 20
	MaxTables     = 16
)

// magic opens every table file; its version changes with the layout.
const magic = "gates-verdicts 1\n"

// SubDir is the store's directory under the repository's common git dir.
const SubDir = "gates-cache"

// Store is the cache of one process. A nil *Store is a disabled cache:
// every method is safe on it and misses.
type Store struct {
	stamp string
	dir   func() (string, error)

	mu     sync.Mutex
	tables map[[32]byte]*Table
}

// Disabled reports whether a build stamped so keeps no cache: a stamp that
// does not identify the build's sources.
func Disabled(stamp string) bool {
	return stamp == "" || stamp == "dev" || stamp == "unknown"
}

// Open answers the store of a build stamped stamp, its files under the
// directory dir answers (called once, on first need); nil when the stamp
// disables the cache.
func Open(stamp string, dir func() (string, error)) *Store {
	// assertion A: a build whose stamp names no sources caches nothing.
	if Disabled(stamp) {
		return nil
	}
	return &Store{stamp: stamp, dir: dir, tables: map[[32]byte]*Table{}}
}

// Config accumulates the effective configuration of one gate run. Each
// Add is length-framed, so no two different sequences digest alike.
type Config struct{ buf bytes.Buffer }

// Add appends one named input.
func (c *Config) Add(name string, value []byte) {
	var n [binary.MaxVarintLen64]byte
	c.buf.Write(n[:binary.PutUvarint(n[:], uint64(len(name)))])
	c.buf.WriteString(name)
	c.buf.Write(n[:binary.PutUvarint(n[:], uint64(len(value)))])
	c.buf.Write(value)
}

// Digest answers the hex SHA-256 of what was added.
func (c *Config) Digest() string {
	sum := sha256.Sum256(c.buf.Bytes())
	return hex.EncodeToString(sum[:])
}

// AddString appends one named string input.
func (c *Config) AddString(name, value string) { c.Add(name, []byte(value)) }

// Table answers the table of gate id under config, loading its file on
// first need. Tables are shared: two runs of one gate under one
// configuration in a process read and fill the same table.
func (s *Store) Table(id string, config *Config) *Table {
	if s == nil {
		return nil
	}
	// assertion B: the key digests the stamp, the gate's id and its
	// effective configuration.
	var k Config
	k.AddString("stamp", s.stamp)
	k.AddString("gate", id)
	if config != nil {
		k.Add("config", config.buf.Bytes())
	}
	key := sha256.Sum256(k.buf.Bytes())
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tables[key]; ok {
		return t
	}
	t := &Table{store: s, key: key, id: id, used: map[[32]byte][]byte{}}
	s.tables[key] = t
	return t
}

// Flush writes every table that changed this run. Errors are answered,
// never fatal to a verdict: a cache that cannot be written only costs the
// next run its speed.
func (s *Store) Flush() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	tables := make([]*Table, 0, len(s.tables))
	for _, t := range s.tables {
		tables = append(tables, t)
	}
	s.mu.Unlock()
	var errs []error
	for _, t := range tables {
		if err := t.flush(); err != nil {
			errs = append(errs, err)
		}
	}
	if len(tables) > 0 {
		if err := s.evict(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Table is one gate's verdicts under one configuration. Safe for
// concurrent use.
type Table struct {
	store *Store
	key   [32]byte

	loadOnce sync.Once
	old      map[[32]byte][]byte // the file's entries, nil when none or discarded

	mu     sync.Mutex
	used   map[[32]byte][]byte // entries read or written this run
	dirty  bool
	id     string
	hits   int
	misses int
}

// Stat is one table's use this run.
type Stat struct {
	Gate         string
	Hits, Misses int
}

// Stats answers each table's hits and misses this run, by gate id.
func (s *Store) Stats() []Stat {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Stat
	for _, t := range s.tables {
		t.mu.Lock()
		out = append(out, Stat{Gate: t.id, Hits: t.hits, Misses: t.misses})
		t.mu.Unlock()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Gate < out[j].Gate })
	return out
}

func entryKey(path, blob string) [32]byte {
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write([]byte(blob))
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// Get answers the value stored for path at blob. A blob id of "" is never
// cached (the caller could not vouch for the bytes).
func (t *Table) Get(path, blob string) ([]byte, bool) {
	if t == nil || blob == "" {
		return nil, false
	}
	t.loadOnce.Do(t.load)
	k := entryKey(path, blob)
	t.mu.Lock()
	defer t.mu.Unlock()
	if v, ok := t.used[k]; ok {
		t.hits++
		return v, true
	}
	v, ok := t.old[k]
	if ok {
		t.used[k] = v
		t.hits++
	} else {
		t.misses++
	}
	return v, ok
}

// Put stores value for path at blob.
func (t *Table) Put(path, blob string, value []byte) {
	if t == nil || blob == "" {
		return
	}
	t.loadOnce.Do(t.load)
	k := entryKey(path, blob)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.used[k] = append([]byte(nil), value...)
	t.dirty = true
}

func (t *Table) file() (string, error) {
	dir, err := t.store.dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, hex.EncodeToString(t.key[:16])+".v1"), nil
}

// load reads the table's file; anything short of a whole, matching,
// checksummed table is discarded.
func (t *Table) load() {
	name, err := t.file()
	if err != nil {
		return
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return
	}
	// assertion C: a corrupt or foreign table is discarded, never trusted.
	t.old, _ = decode(data, t.key)
}

// decode parses a table file written under key.
func decode(data []byte, key [32]byte) (map[[32]byte][]byte, bool) {
	if len(data) < len(magic)+32+32 || string(data[:len(magic)]) != magic {
		return nil, false
	}
	body, sum := data[:len(data)-32], data[len(data)-32:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, false
	}
	rest := body[len(magic):]
	if !bytes.Equal(rest[:32], key[:]) {
		return nil, false
	}
	rest = rest[32:]
	out := map[[32]byte][]byte{}
	for len(rest) > 0 {
		if len(rest) < 32 {
			return nil, false
		}
		var k [32]byte
		copy(k[:], rest[:32])
		rest = rest[32:]
		n, w := binary.Uvarint(rest)
		if w <= 0 || uint64(len(rest)-w) < n {
			return nil, false
		}
		out[k] = rest[w : w+int(n) : w+int(n)]
		rest = rest[w+int(n):]
	}
	return out, true
}

// encode lays the entries out: this run's first (in key order, so the
// bytes are deterministic), then carried ones while the bound allows.
func encode(key [32]byte, used, old map[[32]byte][]byte) []byte {
	var b bytes.Buffer
	b.WriteString(magic)
	b.Write(key[:])
	put := func(m map[[32]byte][]byte, skip map[[32]byte][]byte) {
		keys := make([][32]byte, 0, len(m))
		for k := range m {
			if _, dup := skip[k]; !dup {
				keys = append(keys, k)
			}
		}
		sort.Slice(keys, func(i, j int) bool { return bytes.Compare(keys[i][:], keys[j][:]) < 0 })
		var n [binary.MaxVarintLen64]byte
		for _, k := range keys {
			v := m[k]
			if b.Len()+32+len(n)+len(v)+32 > MaxTableBytes {
				return
			}
			b.Write(k[:])
			b.Write(n[:binary.PutUvarint(n[:], uint64(len(v)))])
			b.Write(v)
		}
	}
	// assertion D: a table is size-bounded; this run's entries come first.
	put(used, nil)
	put(old, used)
	sum := sha256.Sum256(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
}

// flush writes the table when this run stored anything new.
func (t *Table) flush() error {
	t.mu.Lock()
	dirty := t.dirty
	var data []byte
	if dirty {
		data = encode(t.key, t.used, t.old)
		t.dirty = false
	}
	t.mu.Unlock()
	if !dirty {
		return nil
	}
	name, err := t.file()
	if err != nil {
		return err
	}
	return writeAtomic(name, data)
}

// writeAtomic writes data to a temporary file beside name and renames it
// over name.
func writeAtomic(name string, data []byte) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// assertion E: written whole to a temporary file, then renamed.
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp)
		return errors.Join(werr, cerr)
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// evict keeps the MaxTables most recently written tables and removes
// temporary files a killed writer left behind long ago.
func (s *Store) evict() error {
	dir, err := s.dir()
	if err != nil {
		return err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	type table struct {
		name string
		mod  int64
	}
	var tables []table
	for _, e := range ents {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if strings.HasSuffix(e.Name(), ".v1") {
			tables = append(tables, table{e.Name(), info.ModTime().UnixNano()})
		}
	}
	if len(tables) <= MaxTables {
		return nil
	}
	sort.Slice(tables, func(i, j int) bool { return tables[i].mod > tables[j].mod })
	var errs []error
	for _, t := range tables[MaxTables:] {
		if err := os.Remove(filepath.Join(dir, t.name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
