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
//     judged (spelled out, not digested); its value is opaque bytes (the
//     gate package encodes findings).
//   - A table lives in one file, written whole to a temporary file and
//     renamed over the old one, so a reader sees the old table or the new
//     one, never a mix; concurrent writers race to the rename and the last
//     one wins with a whole table. A file that does not parse, names
//     another key or fails its checksum is discarded, never trusted. A
//     later run's few new entries are appended to the table's journal
//     beside it instead, each record checksummed with the table key; a
//     load reads the records that check.
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
	"hash"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gate-sdk/gates/internal/fmap"
)

// Bounds of the store.
const (
	MaxTableBytes = 16 << 20
	MaxTables     = 16
)

// magic opens every table file; its version changes with the layout.
const magic = "gates-verdicts 2\n"

// ext ends every table file's name; a table file of an earlier layout
// (another ".v<n>") is removed by the next flush.
const ext = ".v2"

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
// Add is length-framed, so no two different sequences digest alike. The
// frames gather in a small buffer that is digested whenever it fills: a
// set key over 20,000 files keeps no copy of what it digests, and the
// digest is fed in large writes. The zero Config is ready to use.
type Config struct {
	h   hash.Hash
	buf []byte
}

// configChunk is how much a Config gathers before digesting it.
const configChunk = 64 << 10

// Add appends one named input.
func (c *Config) Add(name string, value []byte) {
	c.frame(name, len(value))
	c.buf = append(c.buf, value...)
	c.spill()
}

// AddString appends one named string input.
func (c *Config) AddString(name, value string) {
	c.frame(name, len(value))
	c.buf = append(c.buf, value...)
	c.spill()
}

// frame appends an input's name and its value's length.
func (c *Config) frame(name string, size int) {
	c.buf = binary.AppendUvarint(c.buf, uint64(len(name)))
	c.buf = append(c.buf, name...)
	c.buf = binary.AppendUvarint(c.buf, uint64(size))
}

// spill digests the gathered frames once they fill a chunk.
func (c *Config) spill() {
	if len(c.buf) >= configChunk {
		c.flush()
	}
}

func (c *Config) flush() {
	if c.h == nil {
		c.h = sha256.New()
	}
	c.h.Write(c.buf)
	c.buf = c.buf[:0]
}

// Digest answers the hex SHA-256 of what was added (more may follow).
func (c *Config) Digest() string {
	c.flush()
	return hex.EncodeToString(c.h.Sum(nil))
}

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
		k.AddString("config", config.Digest())
	}
	k.flush()
	var key [32]byte
	copy(key[:], k.h.Sum(nil))
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tables[key]; ok {
		return t
	}
	t := &Table{store: s, key: key, id: id, puts: map[string][]byte{}}
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
	created := false
	for _, t := range tables {
		fresh, err := t.flush()
		if err != nil {
			errs = append(errs, err)
		}
		created = created || fresh
	}
	// Only a new table file can push the directory past its bound, so a
	// run that rewrote tables already there lists nothing.
	if created {
		if err := s.evict(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Table is one gate's verdicts under one configuration. Safe for
// concurrent use; a lookup of an entry the file holds takes no lock.
type Table struct {
	store *Store
	key   [32]byte

	loadOnce sync.Once
	old      view          // the file's entries, empty when none or discarded
	oldUsed  []atomic.Bool // which of them this run looked up

	mu   sync.Mutex
	puts map[string][]byte // entries stored this run, by key
	// logged holds the entries of the table's journal (appended by runs
	// since the file was last written whole), by key; logBytes is the
	// journal's length, logClean whether every byte of it parsed.
	logged   atomic.Pointer[map[string][]byte]
	logBytes int
	logClean bool
	dirty    bool
	existed  bool // the table's file was there when it was loaded (or written since)
	// complete: this run judged a whole tree into the table (MarkComplete);
	// Flush then names it the gate's latest complete table.
	complete bool
	id       string
	hits     atomic.Int64
	misses   atomic.Int64
	hint     atomic.Int64 // the record the last hit found
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
		out = append(out, Stat{Gate: t.id, Hits: int(t.hits.Load()), Misses: int(t.misses.Load())})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Gate < out[j].Gate })
	return out
}

// entryKey spells an entry's key: the path, a NUL (which no path holds),
// the blob id. Keys sort by path first, so a tree's lookups, made in index
// order, fall on neighbouring records.
func entryKey(buf []byte, path, blob string) []byte {
	b := append(buf[:0], path...)
	b = append(b, 0)
	return append(b, blob...)
}

// Get answers the value stored for path at blob. A blob id of "" is never
// cached (the caller could not vouch for the bytes). The answer aliases the
// table and must not be modified.
func (t *Table) Get(path, blob string) ([]byte, bool) {
	if t == nil || blob == "" {
		return nil, false
	}
	v, ok := t.Peek(path, blob)
	t.Tally(ok)
	return v, ok
}

// Peek is Get without counting: for a caller that decides afterwards
// whether the value served (a kept listing that may prove stale), and
// reports it with Tally.
func (t *Table) Peek(path, blob string) ([]byte, bool) {
	if t == nil || blob == "" {
		return nil, false
	}
	t.loadOnce.Do(t.load)
	var buf [256]byte
	k := entryKey(buf[:0], path, blob)
	// A journal's entry is newer than the file's of the same key.
	if m := t.logged.Load(); m != nil {
		if v, ok := (*m)[string(k)]; ok {
			return v, true
		}
	}
	// Lookups come in path order, so the last hit is a close guess.
	if i, v, ok := t.old.findNear(k, int(t.hint.Load())); ok {
		t.hint.Store(int64(i))
		if !t.oldUsed[i].Load() {
			t.oldUsed[i].Store(true)
		}
		return v, true
	}
	t.mu.Lock()
	v, ok := t.puts[string(k)]
	t.mu.Unlock()
	return v, ok
}

// Tally counts one lookup a Peek's caller judged: a hit when the value
// served, a miss when it was absent or of no use.
func (t *Table) Tally(hit bool) {
	if t == nil {
		return
	}
	if hit {
		t.hits.Add(1)
	} else {
		t.misses.Add(1)
	}
}

// Put stores value for path at blob.
func (t *Table) Put(path, blob string, value []byte) {
	if t == nil || blob == "" {
		return
	}
	t.loadOnce.Do(t.load)
	k := string(entryKey(nil, path, blob))
	t.mu.Lock()
	defer t.mu.Unlock()
	t.puts[k] = append([]byte(nil), value...)
	t.dirty = true
}

func (t *Table) file() (string, error) {
	dir, err := t.store.dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, hex.EncodeToString(t.key[:16])+ext), nil
}

// load reads the table's file; anything short of a whole, matching,
// checksummed table is discarded.
func (t *Table) load() {
	name, err := t.file()
	if err != nil {
		return
	}
	// assertion N: a table and its journal are mapped, not copied (see
	// package fmap), and the mapping is kept for the process: the view
	// and the journal's entries are slices of it. Every write replaces a
	// table by rename and only appends to a journal, so the mapped bytes
	// stay the opened file's.
	data, _, stamp, err := fmap.MapStamp(name)
	if err != nil {
		return
	}
	t.existed = true
	// assertion C: a corrupt or foreign table is discarded, never trusted.
	if v, ok := decodeChecked(name, data, stamp, t.key); ok {
		t.old = v
		t.oldUsed = make([]atomic.Bool, v.n)
		// assertion M: the journal's records are read while each checks;
		// the first that does not ends it.
		if j, _, err := fmap.Map(name + logExt); err == nil {
			var m map[string][]byte
			m, t.logBytes, t.logClean = decodeLog(j, t.key)
			t.logged.Store(&m)
		} else {
			t.logClean = errors.Is(err, os.ErrNotExist)
		}
	}
}

// logExt ends the name of a table's journal, beside its file: the
// entries later runs stored, appended instead of the whole table written
// again. It ends in no ".v<digits>", so eviction never takes it for a
// table file of another layout.
const logExt = ".log"

// Journal bounds: past either, the next flush writes the table whole
// (its entries and the journal's) and removes the journal.
// assertion P: every load decodes the whole journal, so these bound what
// a run reads beyond the table's own mapped pages, however many runs
// appended before it.
const (
	maxLogEntries = 64
	maxLogBytes   = 64 << 10
)

// logRecord appends one journal record: the key's and the value's
// lengths (4 bytes each, big-endian), the key, the value, and the CRC-32C
// of the table key and everything of the record before it, so a record
// written for another table, or torn, never checks.
func logRecord(b []byte, key [32]byte, k, v []byte) []byte {
	start := len(b)
	b = binary.BigEndian.AppendUint32(b, uint32(len(k)))
	b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
	b = append(b, k...)
	b = append(b, v...)
	sum := crc32.Update(crc32.Checksum(key[:], castagnoli), castagnoli, b[start:])
	return binary.BigEndian.AppendUint32(b, sum)
}

// decodeLog reads journal records up to the first that does not check:
// the entries, the bytes they span and whether they span all of data.
func decodeLog(data []byte, key [32]byte) (map[string][]byte, int, bool) {
	m := map[string][]byte{}
	off := 0
	for len(data)-off >= 12 {
		kl := int(binary.BigEndian.Uint32(data[off:]))
		vl := int(binary.BigEndian.Uint32(data[off+4:]))
		end := off + 8 + kl + vl
		if kl < 0 || vl < 0 || end < off || end+4 > len(data) || end+4 < 0 {
			break
		}
		sum := crc32.Update(crc32.Checksum(key[:], castagnoli), castagnoli, data[off:end])
		if sum != binary.BigEndian.Uint32(data[end:]) {
			break
		}
		k := data[off+8 : off+8+kl]
		m[string(k)] = data[off+8+kl : end : end]
		off = end + 4
	}
	return m, off, off == len(data)
}

// The layout of a table file, in order: magic; the table key (32 bytes);
// the entry count n (4 bytes, big-endian); n index records of recordSize
// bytes, strictly ascending by entry key (the key's offset and length in
// the heap, then the value's, 4 bytes each, big-endian); the heap of keys
// and values; the CRC-32C of everything before it. A lookup is a binary
// search over the records in the file's own bytes, so loading a table
// decodes nothing and holds no pointer per entry.
const recordSize = 4 * 4

// view is a decoded table: its records and heap, both slices of the file's
// bytes.
type view struct {
	n       int
	records []byte
	heap    []byte
}

func (v view) span(i, field int) []byte {
	r := v.records[i*recordSize+field*8:]
	off, n := binary.BigEndian.Uint32(r), binary.BigEndian.Uint32(r[4:])
	return v.heap[off : off+n : off+n]
}

func (v view) key(i int) []byte   { return v.span(i, 0) }
func (v view) value(i int) []byte { return v.span(i, 1) }

// find answers the index and value of the entry keyed k.
func (v view) find(k []byte) (int, []byte, bool) { return v.search(k, 0, v.n) }

// search is a binary search for k among records [lo, hi).
func (v view) search(k []byte, lo, hi int) (int, []byte, bool) {
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(v.key(m), k); {
		case c == 0:
			return m, v.value(m), true
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return 0, nil, false
}

// findNear is find starting from record h: it gallops from there toward
// k (1, 2, 4, ... records) and searches the last stride, so a lookup near
// the previous one compares a few keys instead of a whole search's worth.
func (v view) findNear(k []byte, h int) (int, []byte, bool) {
	if h < 0 || h >= v.n {
		return v.find(k)
	}
	lo, hi := 0, v.n // the entry, if present, is in [lo, hi)
	switch c := bytes.Compare(v.key(h), k); {
	case c == 0:
		return h, v.value(h), true
	case c < 0:
		lo = h + 1
		for step := 1; ; step *= 2 {
			next := h + step
			if next >= v.n {
				break
			}
			if bytes.Compare(v.key(next), k) >= 0 {
				hi = next + 1
				break
			}
			lo = next + 1
		}
	default:
		hi = h
		for step := 1; ; step *= 2 {
			next := h - step
			if next < 0 {
				break
			}
			if bytes.Compare(v.key(next), k) <= 0 {
				lo = next
				break
			}
			hi = next
		}
	}
	return v.search(k, lo, hi)
}

// decode checks a table file written under key and answers its view: the
// magic, the checksum, the key, the count against the length, every key
// and value inside the heap, and the records strictly ascending (so a
// search finds what is there and an entry appears once).
func decode(data []byte, key [32]byte) (view, bool) {
	v, ok := decodeHead(data, key)
	if !ok {
		return view{}, false
	}
	body, sum := data[:len(data)-4], data[len(data)-4:]
	if crc32.Checksum(body, castagnoli) != binary.BigEndian.Uint32(sum) {
		return view{}, false
	}
	for i := 0; i < v.n; i++ {
		for field := 0; field < 2; field++ {
			r := v.records[i*recordSize+field*8:]
			off, l := uint64(binary.BigEndian.Uint32(r)), uint64(binary.BigEndian.Uint32(r[4:]))
			if off+l > uint64(len(v.heap)) {
				return view{}, false
			}
		}
		if i > 0 && bytes.Compare(v.key(i-1), v.key(i)) >= 0 {
			return view{}, false
		}
	}
	return v, true
}

// decodeHead checks what every load of a table file checks, the file
// already checked whole included (see decodeChecked): the magic, the key,
// the count against the length; and answers its view.
func decodeHead(data []byte, key [32]byte) (view, bool) {
	head := len(magic) + 32 + 4
	if len(data) < head+4 || string(data[:len(magic)]) != magic {
		return view{}, false
	}
	body := data[:len(data)-4]
	if !bytes.Equal(body[len(magic):len(magic)+32], key[:]) {
		return view{}, false
	}
	n := uint64(binary.BigEndian.Uint32(body[len(magic)+32:]))
	if n*recordSize > uint64(len(body)-head) {
		return view{}, false
	}
	return view{n: int(n), records: body[head : head+int(n)*recordSize], heap: body[head+int(n)*recordSize:]}, true
}

// Checked-table records (assertion O): beside a table file of at least
// checkedMin bytes, <table>.ok names the file that last passed decode's
// checks whole.
const (
	okExt      = ".ok"
	checkedMin = 64 << 10
)

// checkedAge is how much older than now a table file's modification and
// change times must be before a record vouches for it: a file written
// again in place within its time stamps' grain would show the same stamp.
// (A variable so a test need not wait it out.)
var checkedAge = 2 * time.Second

// decodeChecked is decode for the table file name, mapped as data with
// the identity stamp (fmap.MapStamp). A file whose identity, checksum
// trailer and key a record names as checked whole is checked only as
// decodeHead checks; any other is checked whole, and recorded when it
// passes and is old enough.
func decodeChecked(name string, data []byte, stamp string, key [32]byte) (view, bool) {
	// assertion O: a record stands for one file's identity and bytes'
	// checksum under one key; anything else is decoded in full.
	rec := ""
	if stamp != "" && len(data) >= checkedMin {
		rec = stamp + " " + hex.EncodeToString(data[len(data)-4:]) + " " + hex.EncodeToString(key[:]) + "\n"
	}
	if rec != "" {
		if got, err := readSmall(name + okExt); err == nil && got == rec {
			return decodeHead(data, key)
		}
	}
	v, ok := decode(data, key)
	if ok && rec != "" && fmap.StampBefore(stamp, time.Now().Add(-checkedAge)) {
		// Best effort: a record not written costs the next load the
		// whole check, no more.
		_ = writeAtomic(name+okExt, []byte(rec))
	}
	return v, ok
}

// readSmall answers a record file's text (at most 1 KiB read).
func readSmall(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var buf [1024]byte
	n, err := io.ReadFull(f, buf[:])
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", err
	}
	return string(buf[:n]), nil
}

// entry is one key and value bound for a table file; used marks an entry
// this run looked up or stored.
type entry struct {
	k, v []byte
	used bool
}

// encode lays a table out from entries in strictly ascending key order.
// When they do not all fit the bound, this run's (used) are kept first and
// carried ones after while room remains; the records stay in key order,
// so the bytes are deterministic.
func encode(key [32]byte, entries []entry) []byte {
	size := len(magic) + 32 + 4 + 4
	total := size
	for _, e := range entries {
		total += recordSize + len(e.k) + len(e.v)
	}
	keep := entries
	if total > MaxTableBytes {
		// assertion D: a table is size-bounded; this run's entries come first.
		take := make([]bool, len(entries))
		room := MaxTableBytes - size
	fill:
		for _, used := range []bool{true, false} {
			for i, e := range entries {
				if e.used != used {
					continue
				}
				n := recordSize + len(e.k) + len(e.v)
				if n > room {
					break fill
				}
				room -= n
				take[i] = true
			}
		}
		keep = nil
		for i, e := range entries {
			if take[i] {
				keep = append(keep, e)
			}
		}
		size = MaxTableBytes - room
	} else {
		size = total
	}
	b := make([]byte, 0, size)
	b = append(b, magic...)
	b = append(b, key[:]...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(keep)))
	off := 0
	for _, e := range keep {
		for _, field := range [][]byte{e.k, e.v} {
			b = binary.BigEndian.AppendUint32(b, uint32(off))
			b = binary.BigEndian.AppendUint32(b, uint32(len(field)))
			off += len(field)
		}
	}
	for _, e := range keep {
		b = append(b, e.k...)
		b = append(b, e.v...)
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// merged answers the table's entries for the next file in key order: the
// file's, in the order it holds them, with this run's stores merged in (a
// store replaces a file entry of the same key). Only the few stores are
// sorted.
func (t *Table) merged() []entry {
	puts := make([]entry, 0, len(t.puts))
	for k, v := range t.puts {
		puts = append(puts, entry{[]byte(k), v, true})
	}
	var logged map[string][]byte
	if m := t.logged.Load(); m != nil {
		logged = *m
	}
	for k, v := range logged {
		if _, ok := t.puts[k]; !ok {
			puts = append(puts, entry{[]byte(k), v, false})
		}
	}
	sort.Slice(puts, func(i, j int) bool { return bytes.Compare(puts[i].k, puts[j].k) < 0 })
	out := make([]entry, 0, t.old.n+len(puts))
	i := 0
	for _, p := range puts {
		for ; i < t.old.n; i++ {
			c := bytes.Compare(t.old.key(i), p.k)
			if c > 0 {
				break
			}
			if c < 0 {
				out = append(out, entry{t.old.key(i), t.old.value(i), t.oldUsed[i].Load()})
			} else {
				i++ // replaced by the store
				break
			}
		}
		out = append(out, p)
	}
	for ; i < t.old.n; i++ {
		out = append(out, entry{t.old.key(i), t.old.value(i), t.oldUsed[i].Load()})
	}
	return out
}

// castagnoli is the checksum's polynomial: the CPU computes CRC-32C in
// hardware, so checking a table costs a fraction of reading it. The
// checksum guards against a damaged file, not a hostile one: whoever can
// write the git directory can write the index itself.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// completeExt ends the name of the file naming a gate's latest complete
// table (<gate id>.complete, holding the table's hex key). It is no table
// file: eviction never lists it.
const completeExt = ".complete"

// MarkComplete records that this run judged every file of a whole tree
// into the table under its key (no file left unjudged): Flush then names
// it the gate's latest complete table.
func (t *Table) MarkComplete() {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.complete = true
	t.mu.Unlock()
}

// Superseded reports whether another table of the same gate, under other
// inputs (another binary, another configuration), is the gate's latest
// complete one: the gate last judged a whole tree here under those, and
// not yet under these. False when no table of the gate was ever complete
// here (a first run, a cleared cache) or when this table is the latest.
func (t *Table) Superseded() bool {
	if t == nil {
		return false
	}
	dir, err := t.store.dir()
	if err != nil {
		return false
	}
	// assertion K: only a complete table under other inputs supersedes.
	data, err := os.ReadFile(filepath.Join(dir, completeName(t.id)))
	if err != nil {
		return false
	}
	got := strings.TrimSpace(string(data))
	return got != "" && got != hex.EncodeToString(t.key[:])
}

// completeName is the file naming gate id's latest complete table; an id
// is an upper token (gate.ID), never a path.
func completeName(id string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, id) + completeExt
}

// flush writes the table when this run stored anything new.
// It answers whether the file it wrote is a new one (none was there when
// the table was loaded).
func (t *Table) flush() (bool, error) {
	t.mu.Lock()
	dirty := t.dirty
	var data, rec []byte
	if dirty {
		// assertion M: a table its file holds, whose journal parsed whole
		// and stays in bounds, has this run's stores appended to the
		// journal; any other is written whole and its journal removed.
		logged := map[string][]byte{}
		if m := t.logged.Load(); m != nil {
			logged = *m
		}
		if t.old.n > 0 && t.logClean && len(logged)+len(t.puts) <= maxLogEntries {
			keys := make([]string, 0, len(t.puts))
			for k := range t.puts {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				rec = logRecord(rec, t.key, []byte(k), t.puts[k])
			}
			if t.logBytes+len(rec) > maxLogBytes {
				rec = nil
			}
		}
		if rec != nil {
			// A new map: a lookup may be reading the one it replaces.
			next := make(map[string][]byte, len(logged)+len(t.puts))
			for k, v := range logged {
				next[k] = v
			}
			for k, v := range t.puts {
				next[k] = v
			}
			t.logged.Store(&next)
			t.logBytes += len(rec)
			t.puts = map[string][]byte{}
		} else {
			data = encode(t.key, t.merged())
		}
		t.dirty = false
	}
	fresh := dirty && !t.existed
	t.existed = t.existed || dirty
	complete := t.complete
	t.complete = false
	t.mu.Unlock()
	if dirty {
		name, err := t.file()
		if err != nil {
			return fresh, err
		}
		if rec != nil {
			if err := appendLog(name+logExt, rec); err != nil {
				return fresh, err
			}
		} else {
			if err := writeAtomic(name, data); err != nil {
				return fresh, err
			}
			if err := os.Remove(name + logExt); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fresh, err
			}
		}
	}
	if complete {
		dir, err := t.store.dir()
		if err != nil {
			return fresh, err
		}
		p := filepath.Join(dir, completeName(t.id))
		key := hex.EncodeToString(t.key[:])
		if cur, err := os.ReadFile(p); err != nil || strings.TrimSpace(string(cur)) != key {
			return fresh, writeAtomic(p, []byte(key+"\n"))
		}
	}
	return fresh, nil
}

// appendLog appends records to a journal in one write. A torn write
// leaves a record that does not check; the next load stops there, and the
// next flush, seeing bytes that did not parse, writes the table whole.
func appendLog(name string, rec []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(rec)
	return errors.Join(werr, f.Close())
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
// removeFile is os.Remove; a test swaps it to make an eviction fail,
// which no file a root-run test can make does.
var removeFile = os.Remove

func (s *Store) evict() error {
	dir, err := s.dir()
	if err != nil {
		return err
	}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil // nothing was ever written: nothing to evict
	}
	if err != nil {
		return err
	}
	type table struct {
		name string
		mod  int64
	}
	var tables []table
	var stale []string
	for _, e := range ents {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		name := e.Name()
		if strings.HasSuffix(name, ext) {
			tables = append(tables, table{name, info.ModTime().UnixNano()})
		} else if i := strings.LastIndex(name, ".v"); i > 0 && !strings.HasPrefix(name, ".") && allDigits(name[i+2:]) {
			stale = append(stale, name)
		}
	}
	sort.Slice(tables, func(i, j int) bool { return tables[i].mod > tables[j].mod })
	for len(tables) > MaxTables {
		stale = append(stale, tables[len(tables)-1].name)
		tables = tables[:len(tables)-1]
	}
	kept := map[string]bool{}
	for _, t := range tables {
		kept[t.name] = true
	}
	for _, e := range ents {
		// A journal and a checked-table record go with their table.
		if name := e.Name(); strings.HasSuffix(name, ext+logExt) && !kept[strings.TrimSuffix(name, logExt)] {
			stale = append(stale, name)
		} else if strings.HasSuffix(name, ext+okExt) && !kept[strings.TrimSuffix(name, okExt)] {
			stale = append(stale, name)
		}
	}
	var errs []error
	for _, name := range stale {
		if err := removeFile(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// FileStamp answers a regular file's identity as a key part: its path,
// size, modification time (nanoseconds) and mode, length-framed. A
// program's answer (a tool's release) is kept under it, so an unchanged
// binary is stat'ed, not run, and one replaced by an install (a new
// modification time or size) is asked again.
func FileStamp(path string) (string, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	var k Config
	k.AddString("path", path)
	k.AddString("size", strconv.FormatInt(fi.Size(), 10))
	k.AddString("mtime", strconv.FormatInt(fi.ModTime().UnixNano(), 10))
	k.AddString("mode", strconv.FormatUint(uint64(fi.Mode()), 8))
	return k.Digest(), true
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
