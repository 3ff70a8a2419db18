package cache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func store(t *testing.T, dir, stamp string) *Store {
	t.Helper()
	s := Open(stamp, func() (string, error) { return dir, nil })
	if s == nil {
		t.Fatalf("stamp %q disabled the store", stamp)
	}
	return s
}

func cfg(kv ...string) *Config {
	var c Config
	for i := 0; i+1 < len(kv); i += 2 {
		c.AddString(kv[i], kv[i+1])
	}
	return &c
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := store(t, dir, "abc123")
	tb := s.Table("TREE-TERMS", cfg("pattern-bytes", "x\n"))
	if _, ok := tb.Get("a.md", "b1"); ok {
		t.Fatal("a fresh table hit")
	}
	tb.Put("a.md", "b1", []byte("verdict"))
	tb.Put("c.md", "b2", nil)
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	tb2 := store(t, dir, "abc123").Table("TREE-TERMS", cfg("pattern-bytes", "x\n"))
	if v, ok := tb2.Get("a.md", "b1"); !ok || string(v) != "verdict" {
		t.Fatalf("warm get = %q, %v", v, ok)
	}
	if v, ok := tb2.Get("c.md", "b2"); !ok || len(v) != 0 {
		t.Fatalf("empty verdict = %q, %v", v, ok)
	}
	if _, ok := tb2.Get("a.md", ""); ok {
		t.Fatal("an empty blob id hit")
	}
}

// Each input of the key, changed, names another table.
func TestKeyInputsInvalidate(t *testing.T) {
	dir := t.TempDir()
	s := store(t, dir, "abc123")
	s.Table("TREE-TERMS", cfg("knob", "1")).Put("a.md", "b1", []byte("v"))
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, stamp, gate, knob, path, blob string
	}{
		{"source stamp", "def456", "TREE-TERMS", "1", "a.md", "b1"},
		{"gate id", "abc123", "PORTABILITY-FLOOR", "1", "a.md", "b1"},
		{"configuration", "abc123", "TREE-TERMS", "2", "a.md", "b1"},
		{"blob", "abc123", "TREE-TERMS", "1", "a.md", "b2"},
		{"path", "abc123", "TREE-TERMS", "1", "b.md", "b1"},
	} {
		tb := store(t, dir, c.stamp).Table(c.gate, cfg("knob", c.knob))
		if _, ok := tb.Get(c.path, c.blob); ok {
			t.Errorf("%s changed: still a hit", c.name)
		}
	}
	if _, ok := store(t, dir, "abc123").Table("TREE-TERMS", cfg("knob", "1")).Get("a.md", "b1"); !ok {
		t.Error("the unchanged key missed")
	}
}

// Framing: ("ab","c") and ("a","bc") never digest alike.
func TestConfigFraming(t *testing.T) {
	dir := t.TempDir()
	s := store(t, dir, "abc123")
	s.Table("G", cfg("ab", "c")).Put("p", "b", []byte("v"))
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if _, ok := store(t, dir, "abc123").Table("G", cfg("a", "bc")).Get("p", "b"); ok {
		t.Fatal("differently framed configurations shared a table")
	}
}

func TestDisabledStamps(t *testing.T) {
	for _, st := range []string{"", "dev", "unknown"} {
		s := Open(st, func() (string, error) { return t.TempDir(), nil })
		if s != nil {
			t.Errorf("stamp %q kept a cache", st)
		}
		// A nil store and its nil tables are inert.
		tb := s.Table("G", nil)
		tb.Put("p", "b", []byte("v"))
		if _, ok := tb.Get("p", "b"); ok {
			t.Errorf("stamp %q: a disabled table hit", st)
		}
		if err := s.Flush(); err != nil {
			t.Error(err)
		}
	}
}

func onlyTable(t *testing.T, dir string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
	if len(m) != 1 {
		t.Fatalf("tables: %v", m)
	}
	return m[0]
}

func TestCorruptDiscarded(t *testing.T) {
	corrupt := map[string]func([]byte) []byte{
		"flipped byte":  func(b []byte) []byte { b[len(magic)+40] ^= 1; return b },
		"truncated":     func(b []byte) []byte { return b[:len(b)-5] },
		"empty":         func([]byte) []byte { return nil },
		"other version": func(b []byte) []byte { return append([]byte("gates-verdicts 9\n"), b[len(magic):]...) },
		"garbage":       func([]byte) []byte { return bytes.Repeat([]byte{0xff}, 200) },
	}
	for name, mangle := range corrupt {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			s := store(t, dir, "abc123")
			s.Table("G", nil).Put("p", "b", []byte("v"))
			if err := s.Flush(); err != nil {
				t.Fatal(err)
			}
			f := onlyTable(t, dir)
			data, _ := os.ReadFile(f)
			if err := os.WriteFile(f, mangle(data), 0o644); err != nil {
				t.Fatal(err)
			}
			s2 := store(t, dir, "abc123")
			tb := s2.Table("G", nil)
			if _, ok := tb.Get("p", "b"); ok {
				t.Fatal("a corrupt table was trusted")
			}
			// The next write replaces it with a whole table.
			tb.Put("p", "b", []byte("w"))
			if err := s2.Flush(); err != nil {
				t.Fatal(err)
			}
			if v, ok := store(t, dir, "abc123").Table("G", nil).Get("p", "b"); !ok || string(v) != "w" {
				t.Fatalf("after rewrite: %q %v", v, ok)
			}
		})
	}
}

// A table file copied under another table's name is foreign: its key
// inside does not match.
func TestForeignDiscarded(t *testing.T) {
	dir := t.TempDir()
	s := store(t, dir, "abc123")
	s.Table("G", cfg("k", "1")).Put("p", "b", []byte("v"))
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(onlyTable(t, dir))
	other := store(t, dir, "abc123").Table("G", cfg("k", "2"))
	name, _ := other.file()
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := other.Get("p", "b"); ok {
		t.Fatal("a foreign table was trusted")
	}
}

// Concurrent writers of one table: every flush renames a whole table, so
// the survivor decodes and holds one writer's entries entire.
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	const writers, entries = 8, 200
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			s := Open("abc123", func() (string, error) { return dir, nil })
			tb := s.Table("G", nil)
			for i := 0; i < entries; i++ {
				tb.Put(fmt.Sprintf("f%d", i), "b", []byte(fmt.Sprintf("w%d", w)))
			}
			errs <- s.Flush()
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	tb := store(t, dir, "abc123").Table("G", nil)
	first, ok := tb.Get("f0", "b")
	if !ok {
		t.Fatal("no whole table survived")
	}
	for i := 0; i < entries; i++ {
		v, ok := tb.Get(fmt.Sprintf("f%d", i), "b")
		if !ok || !bytes.Equal(v, first) {
			t.Fatalf("entry %d = %q %v: a mix of writers", i, v, ok)
		}
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(tmp) != 0 {
		t.Fatalf("temporary files left: %v", tmp)
	}
}

func TestSizeBounded(t *testing.T) {
	var es []entry
	big := bytes.Repeat([]byte("x"), 1<<20)
	for i := 0; i < 20; i++ {
		es = append(es, entry{entryKey(nil, fmt.Sprintf("%02d", i), "b"), big, i%2 == 1})
	}
	data := encode([32]byte{}, es)
	if len(data) > MaxTableBytes {
		t.Fatalf("table of %d bytes exceeds %d", len(data), MaxTableBytes)
	}
	v, ok := decode(data, [32]byte{})
	if !ok || v.n == 0 || v.n >= 20 {
		t.Fatalf("bounded table: %d entries, ok %v", v.n, ok)
	}
	// This run's entries (the odd ones) were kept before any carried one.
	for i := 0; i < 20; i += 2 {
		if _, _, found := v.find(entryKey(nil, fmt.Sprintf("%02d", i+1), "b")); !found {
			if _, _, carried := v.find(entryKey(nil, fmt.Sprintf("%02d", i), "b")); carried {
				t.Fatalf("a carried entry was kept while this run's entry %d was dropped", i+1)
			}
		}
	}
}

func TestEvictOldTables(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < MaxTables+4; i++ {
		s := store(t, dir, "abc123")
		s.Table("G", cfg("k", fmt.Sprint(i))).Put("p", "b", nil)
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*"+ext)); len(m) != MaxTables {
		t.Fatalf("%d tables kept, want %d", len(m), MaxTables)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(encode([32]byte{}, []entry{{entryKey(nil, "p", "b"), []byte("v"), true}, {entryKey(nil, "q", "b"), nil, false}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, ok := decode(data, [32]byte{})
		if !ok {
			if v.n != 0 {
				t.Fatal("a refused table answered entries")
			}
			return
		}
		// A table that decodes answers every entry it holds, by key.
		for i := 0; i < v.n; i++ {
			if j, val, found := v.find(v.key(i)); !found || j != i || !bytes.Equal(val, v.value(i)) {
				t.Fatalf("entry %d not found by its key", i)
			}
			for _, h := range []int{-1, 0, i - 1, i + 1, v.n / 2, v.n - 1, v.n} {
				if j, _, found := v.findNear(v.key(i), h); !found || j != i {
					t.Fatalf("entry %d not found from record %d", i, h)
				}
			}
		}
	})
}

// Many entries round-trip through the binary search, the ones looked up
// this run are kept first under the bound, and an earlier layout's file
// is removed by the next flush.
func TestManyEntriesAndOldLayout(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "0123abcd.v1"), []byte("gates-verdicts 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := store(t, dir, "abc123")
	tb := s.Table("G", nil)
	for i := 0; i < 5000; i++ {
		tb.Put(fmt.Sprintf("d/f%05d", i), fmt.Sprintf("%040d", i), []byte(fmt.Sprint(i%7)))
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "0123abcd.v1")); !os.IsNotExist(err) {
		t.Fatalf("the earlier layout's table survived: %v", err)
	}
	s2 := store(t, dir, "abc123")
	tb2 := s2.Table("G", nil)
	for i := 0; i < 5000; i++ {
		v, ok := tb2.Get(fmt.Sprintf("d/f%05d", i), fmt.Sprintf("%040d", i))
		if !ok || string(v) != fmt.Sprint(i%7) {
			t.Fatalf("entry %d = %q %v", i, v, ok)
		}
	}
	if _, ok := tb2.Get("d/f00001", fmt.Sprintf("%040d", 2)); ok {
		t.Fatal("a path hit under another file's blob")
	}
	if st := s2.Stats(); len(st) != 1 || st[0].Hits != 5000 || st[0].Misses != 1 {
		t.Fatalf("stats: %+v", st)
	}
}

// A digest does not depend on where the gathering buffer spilled: the
// same frames added in pieces large and small digest alike, and moving a
// byte across a frame boundary changes it.
func TestConfigDigestIndependentOfChunking(t *testing.T) {
	big := bytes.Repeat([]byte("x"), configChunk+17)
	var a, b Config
	a.Add("blob", big)
	a.AddString("path", "p")
	for i := 0; i < 3; i++ {
		b.Add("blob", big[:0])
	}
	var c Config
	c.Add("blob", big)
	c.AddString("path", "p")
	if a.Digest() != c.Digest() {
		t.Fatal("one sequence digested two ways")
	}
	var d Config
	d.Add("blob", big[:len(big)-1])
	d.AddString("path", "xp")
	if d.Digest() == c.Digest() {
		t.Fatal("a byte moved across a frame boundary digested alike")
	}
	if b.Digest() == a.Digest() {
		t.Fatal("different sequences digested alike")
	}
}

// findNear answers what find answers from any starting record, for keys
// present and absent alike.
func TestFindNearAgreesWithFind(t *testing.T) {
	var es []entry
	for i := 0; i < 300; i += 3 {
		es = append(es, entry{entryKey(nil, fmt.Sprintf("d/f%04d", i), "b"), []byte(fmt.Sprint(i)), true})
	}
	v, ok := decode(encode([32]byte{}, es), [32]byte{})
	if !ok {
		t.Fatal("table does not decode")
	}
	for i := -1; i < 302; i++ {
		k := entryKey(nil, fmt.Sprintf("d/f%04d", i), "b")
		wi, wv, wok := v.find(k)
		for h := -2; h <= v.n+1; h++ {
			gi, gv, gok := v.findNear(k, h)
			if gok != wok || gi != wi || !bytes.Equal(gv, wv) {
				t.Fatalf("key %d from record %d: (%d %q %v), find says (%d %q %v)", i, h, gi, gv, gok, wi, wv, wok)
			}
		}
	}
}

// A store merges into the file's entries: a new key joins them in order,
// a stored key replaces the file's value, and every other entry is carried.
func TestStoresMergeIntoTheTable(t *testing.T) {
	dir := t.TempDir()
	s := store(t, dir, "abc123")
	tb := s.Table("G", nil)
	for _, p := range []string{"a", "c", "e"} {
		tb.Put(p, "b", []byte("old-"+p))
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	s2 := store(t, dir, "abc123")
	tb2 := s2.Table("G", nil)
	tb2.Put("c", "b", []byte("new-c"))
	tb2.Put("d", "b", []byte("new-d"))
	tb2.Put("0", "b", []byte("new-0"))
	if err := s2.Flush(); err != nil {
		t.Fatal(err)
	}
	tb3 := store(t, dir, "abc123").Table("G", nil)
	for p, want := range map[string]string{"0": "new-0", "a": "old-a", "c": "new-c", "d": "new-d", "e": "old-e"} {
		if v, ok := tb3.Get(p, "b"); !ok || string(v) != want {
			t.Errorf("%s = %q %v, want %q", p, v, ok, want)
		}
	}
	if n := len(tb3.merged()); n != 5 {
		t.Fatalf("%d entries, want 5", n)
	}
}

// assertion K: a table marked complete becomes its gate's latest; a table
// under other inputs is then superseded, and none is before any whole run.
func TestCompleteSupersedes(t *testing.T) {
	dir := t.TempDir()
	cfg := func(v string) *Config {
		var c Config
		c.AddString("pattern", v)
		return &c
	}
	s := store(t, dir, "s1")
	old := s.Table("TREE-TERMS", cfg("a"))
	if old.Superseded() {
		t.Fatal("superseded before any whole judgement")
	}
	old.Put("doc.md", "blob1", []byte("v"))
	old.MarkComplete()
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	s = store(t, dir, "s1")
	if s.Table("TREE-TERMS", cfg("a")).Superseded() {
		t.Fatal("the latest complete table is superseded")
	}
	if !s.Table("TREE-TERMS", cfg("b")).Superseded() {
		t.Fatal("a changed rule input is not superseded")
	}
	if !store(t, dir, "s2").Table("TREE-TERMS", cfg("a")).Superseded() {
		t.Fatal("another binary is not superseded")
	}
	if s.Table("OTHER", cfg("b")).Superseded() {
		t.Fatal("another gate's completion supersedes")
	}
	// A table written without completion leaves the latest as it was; a
	// completed one takes over, with no new entry needed.
	nb := s.Table("TREE-TERMS", cfg("b"))
	nb.Put("new.md", "blob2", []byte("v"))
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if !store(t, dir, "s1").Table("TREE-TERMS", cfg("b")).Superseded() {
		t.Fatal("a partial table became the latest")
	}
	s = store(t, dir, "s1")
	s.Table("TREE-TERMS", cfg("b")).MarkComplete()
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	s = store(t, dir, "s1")
	if s.Table("TREE-TERMS", cfg("b")).Superseded() || !s.Table("TREE-TERMS", cfg("a")).Superseded() {
		t.Fatal("the completed table did not take over")
	}
	// The marker survives eviction, which lists table files only.
	if _, err := os.Stat(filepath.Join(dir, "TREE-TERMS.complete")); err != nil {
		t.Fatal(err)
	}
}

// A file's stamp changes with its size or modification time, and holds
// while neither does; a directory or a missing file has none.
func TestFileStamp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "tool")
	if err := os.WriteFile(p, []byte("one"), 0o755); err != nil {
		t.Fatal(err)
	}
	a, ok := FileStamp(p)
	if b, _ := FileStamp(p); !ok || a != b {
		t.Fatalf("stamp unstable or missing: %q %q %v", a, b, ok)
	}
	when := time.Unix(1700000000, 0)
	os.Chtimes(p, when, when)
	b, _ := FileStamp(p)
	if b == a {
		t.Fatal("a new modification time keeps the stamp")
	}
	os.WriteFile(p, []byte("two!"), 0o755)
	os.Chtimes(p, when, when)
	if c, _ := FileStamp(p); c == b {
		t.Fatal("a new size keeps the stamp")
	}
	if _, ok := FileStamp(dir); ok {
		t.Fatal("a directory has a stamp")
	}
	if _, ok := FileStamp(filepath.Join(dir, "none")); ok {
		t.Fatal("a missing file has a stamp")
	}
}

// assertion M: a later run's few stores are appended to the table's
// journal (the table file untouched) and served by the next run; a torn
// or foreign journal serves only the records that check, and the next
// flush writes the table whole and removes the journal.
func TestStoresAppendToAJournal(t *testing.T) {
	dir := t.TempDir()
	s := store(t, dir, "abc123")
	tb := s.Table("G", nil)
	for _, p := range []string{"a", "c", "e"} {
		tb.Put(p, "b", []byte("old-"+p))
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	name, err := tb.file()
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	s2 := store(t, dir, "abc123")
	tb2 := s2.Table("G", nil)
	tb2.Put("c", "b", []byte("new-c"))
	tb2.Put("d", "b", []byte("new-d"))
	if err := s2.Flush(); err != nil {
		t.Fatal(err)
	}
	if after, err := os.ReadFile(name); err != nil || !bytes.Equal(after, before) {
		t.Fatalf("the table file was rewritten for two stores (%v)", err)
	}
	if _, err := os.Stat(name + logExt); err != nil {
		t.Fatalf("no journal: %v", err)
	}
	tb3 := store(t, dir, "abc123").Table("G", nil)
	for p, want := range map[string]string{"a": "old-a", "c": "new-c", "d": "new-d", "e": "old-e"} {
		if v, ok := tb3.Get(p, "b"); !ok || string(v) != want {
			t.Errorf("%s = %q %v, want %q", p, v, ok, want)
		}
	}
	// Torn: the last record loses a byte; the one before it still serves.
	log, err := os.ReadFile(name + logExt)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name+logExt, log[:len(log)-1], 0o600); err != nil {
		t.Fatal(err)
	}
	s4 := store(t, dir, "abc123")
	tb4 := s4.Table("G", nil)
	if v, ok := tb4.Get("c", "b"); !ok || string(v) != "new-c" {
		t.Fatalf("the record before the torn one: %q %v", v, ok)
	}
	if v, ok := tb4.Get("d", "b"); ok {
		t.Fatalf("a torn record served %q", v)
	}
	tb4.Put("f", "b", []byte("new-f"))
	if err := s4.Flush(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(name + logExt); !os.IsNotExist(err) {
		t.Fatalf("the journal outlived a whole write: %v", err)
	}
	tb5 := store(t, dir, "abc123").Table("G", nil)
	for p, want := range map[string]string{"a": "old-a", "c": "new-c", "e": "old-e", "f": "new-f"} {
		if v, ok := tb5.Get(p, "b"); !ok || string(v) != want {
			t.Errorf("after the whole write %s = %q %v, want %q", p, v, ok, want)
		}
	}
	// Foreign: another table's journal placed beside this one checks
	// nowhere.
	other := store(t, dir, "abc123").Table("H", nil)
	other.Put("x", "b", []byte("x"))
	other.flush()
	if err := os.WriteFile(name+logExt, logRecord(nil, other.key, entryKey(nil, "a", "b"), []byte("forged")), 0o600); err != nil {
		t.Fatal(err)
	}
	if v, ok := store(t, dir, "abc123").Table("G", nil).Get("a", "b"); !ok || string(v) != "old-a" {
		t.Fatalf("a foreign journal record served: %q %v", v, ok)
	}
}
