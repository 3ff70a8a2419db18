package cache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A configuration's frames are digested the moment they fill a chunk
// exactly, not one Add later.
func TestConfigDigestsAChunkOnceFull(t *testing.T) {
	var c Config
	// name length (1) + name (1) + uvarint of 65531 (3) + the value.
	c.Add("v", bytes.Repeat([]byte("x"), configChunk-5))
	if len(c.buf) != 0 {
		t.Fatalf("a full chunk is still gathered: %d bytes", len(c.buf))
	}
	var whole Config
	whole.Add("v", bytes.Repeat([]byte("x"), configChunk-5))
	whole.AddString("tail", "t")
	c.AddString("tail", "t")
	if c.Digest() != whole.Digest() {
		t.Fatal("digesting a chunk early changed the digest")
	}
}

// The journal's grammar admits a record of any lengths, an empty key or
// an empty value included, and one that ends the journal exactly.
func TestDecodeLogReadsRecordsOfAnyLength(t *testing.T) {
	key := [32]byte{7}
	tests := []struct {
		name string
		recs [][2]string
	}{
		{"empty key and value", [][2]string{{"", ""}}},
		{"empty key", [][2]string{{"", "v"}}},
		{"empty value", [][2]string{{"k", ""}}},
		{"empty value then another", [][2]string{{"a", ""}, {"b", "vb"}}},
		{"an empty record last", [][2]string{{"a", "va"}, {"", ""}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var data []byte
			for _, r := range tc.recs {
				data = logRecord(data, key, []byte(r[0]), []byte(r[1]))
			}
			m, n, clean := decodeLog(data, key)
			if n != len(data) || !clean {
				t.Fatalf("read %d of %d bytes, clean %v", n, len(data), clean)
			}
			if len(m) != len(tc.recs) {
				t.Fatalf("%d entries, want %d", len(m), len(tc.recs))
			}
			for _, r := range tc.recs {
				if v, ok := m[r[0]]; !ok || string(v) != r[1] {
					t.Errorf("entry %q = %q %v, want %q", r[0], v, ok, r[1])
				}
			}
		})
	}
}

// A table of no entries, and one whose single entry has an empty key and
// value (records with no heap), are whole tables of the layout.
func TestDecodeAcceptsTablesWithoutAHeap(t *testing.T) {
	key := [32]byte{1, 2}
	for _, es := range [][]entry{nil, {{k: nil, v: nil}}} {
		v, ok := decode(encode(key, es), key)
		if !ok {
			t.Fatalf("a table of %d entries without a heap is refused", len(es))
		}
		if v.n != len(es) {
			t.Fatalf("%d entries read, want %d", v.n, len(es))
		}
		if len(es) == 1 {
			if i, val, ok := v.find(nil); !ok || i != 0 || len(val) != 0 {
				t.Fatalf("the empty key is not found: %d %q %v", i, val, ok)
			}
		}
	}
}

// journaled answers whether the table file is as it was and the table
// has a journal beside it (stores appended), or was written whole.
func journaled(t *testing.T, name string, before []byte) bool {
	t.Helper()
	after, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	_, jerr := os.Stat(name + logExt)
	kept := bytes.Equal(after, before)
	if kept != (jerr == nil) {
		t.Fatalf("table file unchanged %v, journal present %v", kept, jerr == nil)
	}
	return kept
}

// seed writes a whole table of one entry and answers its file and bytes.
func seed(t *testing.T, dir string) (string, []byte) {
	t.Helper()
	s := store(t, dir, "abc123")
	tb := s.Table("G", nil)
	tb.Put("base", "b", []byte("v"))
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	name, err := tb.file()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return name, data
}

// putRun stores n entries named prefix<i> in a new run and flushes.
func putRun(t *testing.T, dir, prefix string, n int, value []byte) {
	t.Helper()
	s := store(t, dir, "abc123")
	tb := s.Table("G", nil)
	for i := 0; i < n; i++ {
		tb.Put(fmt.Sprintf("%s%04d", prefix, i), "b", value)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
}

// The journal holds up to maxLogEntries entries, those of earlier runs
// counted; one more and the table is written whole.
func TestJournalEntryBound(t *testing.T) {
	t.Run("exactly the bound", func(t *testing.T) {
		dir := t.TempDir()
		name, before := seed(t, dir)
		putRun(t, dir, "p", maxLogEntries, []byte("v"))
		if !journaled(t, name, before) {
			t.Fatal("a run of exactly maxLogEntries stores rewrote the table")
		}
	})
	t.Run("earlier runs count", func(t *testing.T) {
		dir := t.TempDir()
		name, before := seed(t, dir)
		putRun(t, dir, "p", maxLogEntries/2+1, []byte("v"))
		if !journaled(t, name, before) {
			t.Fatal("the first run's stores rewrote the table")
		}
		putRun(t, dir, "q", maxLogEntries/2+1, []byte("v"))
		if journaled(t, name, before) {
			t.Fatal("a journal past its entry bound was appended to")
		}
		tb := store(t, dir, "abc123").Table("G", nil)
		for _, k := range []string{"base", "p0000", "q0000"} {
			if _, ok := tb.Get(k, "b"); !ok {
				t.Errorf("%s lost in the whole write", k)
			}
		}
	})
}

// The journal grows to maxLogBytes exactly, earlier runs' bytes counted;
// a byte more and the table is written whole.
func TestJournalByteBound(t *testing.T) {
	// One record: 12 bytes of framing, the key ("big" NUL "b") and the value.
	keyLen := len(entryKey(nil, "big", "b"))
	value := func(total int) []byte { return bytes.Repeat([]byte("v"), total-12-keyLen) }
	t.Run("exactly the bound", func(t *testing.T) {
		dir := t.TempDir()
		name, before := seed(t, dir)
		s := store(t, dir, "abc123")
		s.Table("G", nil).Put("big", "b", value(maxLogBytes))
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		if !journaled(t, name, before) {
			t.Fatal("a journal of exactly maxLogBytes was refused")
		}
	})
	t.Run("earlier runs count", func(t *testing.T) {
		dir := t.TempDir()
		name, before := seed(t, dir)
		s := store(t, dir, "abc123")
		s.Table("G", nil).Put("big", "b", value(maxLogBytes-100))
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		if !journaled(t, name, before) {
			t.Fatal("the first run's store rewrote the table")
		}
		s = store(t, dir, "abc123")
		s.Table("G", nil).Put("small", "b", bytes.Repeat([]byte("w"), 200))
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		if journaled(t, name, before) {
			t.Fatal("a journal past its byte bound was appended to")
		}
	})
}

// A journal that cannot be appended to fails the flush; one that cannot
// be removed after a whole write does too.
func TestFlushAnswersJournalFailures(t *testing.T) {
	t.Run("append", func(t *testing.T) {
		dir := t.TempDir()
		name, _ := seed(t, dir)
		s := store(t, dir, "abc123")
		s.Table("G", nil).Put("x", "b", []byte("v")) // loads: no journal yet
		if err := os.Mkdir(name+logExt, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(); err == nil {
			t.Fatal("a journal that is a directory was appended to without an error")
		}
	})
	t.Run("remove", func(t *testing.T) {
		dir := t.TempDir()
		name, _ := seed(t, dir)
		// A directory with an entry: no remove takes it.
		if err := os.MkdirAll(filepath.Join(name+logExt, "held"), 0o755); err != nil {
			t.Fatal(err)
		}
		s := store(t, dir, "abc123")
		s.Table("G", nil).Put("x", "b", []byte("v"))
		// The journal did not map (a directory), so the table is written
		// whole and the journal must go.
		if err := s.Flush(); err == nil {
			t.Fatal("a journal left behind a whole write without an error")
		}
	})
}

// A completed run's marker is written after a journal append and after a
// whole write that removed the journal.
func TestCompletionAfterEitherWrite(t *testing.T) {
	for _, whole := range []bool{false, true} {
		t.Run(fmt.Sprintf("whole=%v", whole), func(t *testing.T) {
			dir := t.TempDir()
			name, before := seed(t, dir)
			putRun(t, dir, "p", 1, []byte("v")) // leaves a journal
			n := 1
			if whole {
				n = maxLogEntries // past the journal's bound with the one there
			}
			s := store(t, dir, "abc123")
			tb := s.Table("G", nil)
			for i := 0; i < n; i++ {
				tb.Put(fmt.Sprintf("x%04d", i), "b", []byte("v"))
			}
			tb.MarkComplete()
			if err := s.Flush(); err != nil {
				t.Fatal(err)
			}
			if journaled(t, name, before) == whole {
				t.Fatalf("whole write %v not taken", whole)
			}
			data, err := os.ReadFile(filepath.Join(dir, completeName("G")))
			if err != nil {
				t.Fatalf("no completion marker: %v", err)
			}
			if strings.TrimSpace(string(data)) == "" {
				t.Fatal("an empty completion marker")
			}
			if store(t, dir, "other").Table("G", nil).Superseded() != true {
				t.Fatal("the completed table does not supersede another binary's")
			}
		})
	}
}

// A marker that already names the table is left as it is, not rewritten.
func TestCompletionMarkerNotRewritten(t *testing.T) {
	dir := t.TempDir()
	s := store(t, dir, "abc123")
	tb := s.Table("G", nil)
	tb.Put("a", "b", []byte("v"))
	tb.MarkComplete()
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, completeName("G"))
	before, err := os.Stat(marker)
	if err != nil {
		t.Fatal(err)
	}
	s = store(t, dir, "abc123")
	s.Table("G", nil).MarkComplete()
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(marker)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Fatal("a marker already naming the table was written again")
	}
}

// journalRead answers how many journal records and bytes a fresh load of
// table G reads (what every run pays before its first lookup).
func journalRead(t *testing.T, dir string) (int, int) {
	t.Helper()
	tb := store(t, dir, "abc123").Table("G", nil)
	tb.loadOnce.Do(tb.load)
	n := 0
	if m := tb.logged.Load(); m != nil {
		n = len(*m)
	}
	return n, tb.logBytes
}

// assertion P: a long session of runs, each storing one new entry (an
// Edit's whole-set result under a new tree digest), reads no more journal
// at its 200th run than the bound allows, where an unbounded journal
// would read 200 records; and every entry of every run is still served,
// across each compaction.
func TestJournalReadStaysBoundedOverALongSession(t *testing.T) {
	dir := t.TempDir()
	seed(t, dir)
	value := bytes.Repeat([]byte("f"), 190) // about one Edit's record
	// What a load may read of a journal, whatever came before it: 64
	// records (about 13 KB at this record's size).
	const readBound = 64
	var at5, most int
	for run := 1; run <= 200; run++ {
		s := store(t, dir, "abc123")
		s.Table("G", nil).Put(fmt.Sprintf("digest-%04d", run), "b", append(value, byte(run)))
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		n, b := journalRead(t, dir)
		if n > readBound || b > maxLogBytes {
			t.Fatalf("run %d: a load reads %d journal records (%d bytes), past %d", run, n, b, readBound)
		}
		if run == 5 {
			at5 = n
		}
		most = max(most, n)
	}
	t.Logf("journal records a load reads: %d at run 5, at most %d over 200 runs", at5, most)
	tb := store(t, dir, "abc123").Table("G", nil)
	for run := 1; run <= 200; run++ {
		v, ok := tb.Get(fmt.Sprintf("digest-%04d", run), "b")
		if !ok || !bytes.Equal(v, append(value, byte(run))) {
			t.Fatalf("run %d's entry lost or changed after the compactions: %v", run, ok)
		}
	}
}

// A journal's shortcut is exact or refused: over a table with a journal,
// a load serves exactly the entries a whole table of the same stores
// serves, whatever became of the journal between runs; a journal cut
// short or damaged serves the records before the damage and no other, a
// journal of another table serves none, and the next flush writes the
// table whole.
func TestJournalStatesAgreeWithAWholeTable(t *testing.T) {
	keys := []string{"a", "b", "c", "d"}
	build := func(t *testing.T) (string, string) {
		dir := t.TempDir()
		name, _ := seed(t, dir)
		for i, k := range keys {
			s := store(t, dir, "abc123")
			s.Table("G", nil).Put(k, "b", []byte(fmt.Sprintf("v%d", i)))
			if err := s.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		return dir, name
	}
	serves := func(t *testing.T, dir string) map[string]string {
		t.Helper()
		tb := store(t, dir, "abc123").Table("G", nil)
		out := map[string]string{}
		for _, k := range append([]string{"base"}, keys...) {
			if v, ok := tb.Get(k, "b"); ok {
				out[k] = string(v)
			}
		}
		return out
	}
	whole := map[string]string{"base": "v", "a": "v0", "b": "v1", "c": "v2", "d": "v3"}
	eq := func(t *testing.T, got, want map[string]string) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("served %v, want %v", got, want)
		}
	}
	t.Run("intact", func(t *testing.T) {
		dir, _ := build(t)
		eq(t, serves(t, dir), whole)
	})
	t.Run("compacted mid-session", func(t *testing.T) {
		dir, name := build(t)
		// A run past the bound writes the table whole and drops the journal.
		s := store(t, dir, "abc123")
		for i := 0; i < maxLogEntries; i++ {
			s.Table("G", nil).Put(fmt.Sprintf("z%04d", i), "b", []byte("z"))
		}
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(name + logExt); err == nil {
			t.Fatal("the journal survived the whole write")
		}
		eq(t, serves(t, dir), whole)
	})
	for _, tc := range []struct {
		name  string
		spoil func(j []byte) []byte
		want  map[string]string
		whole bool // the next store writes the table whole
	}{
		{"truncated in the last record", func(j []byte) []byte { return j[:len(j)-3] }, map[string]string{"base": "v", "a": "v0", "b": "v1", "c": "v2"}, true},
		// An empty journal parses whole: the next store appends to it.
		{"truncated to nothing", func(j []byte) []byte { return nil }, map[string]string{"base": "v"}, false},
		{"a byte of the second record flipped", func(j []byte) []byte {
			rec := len(j) / len(keys) // the four records are of one length
			j[rec+9] ^= 0xff
			return j
		}, map[string]string{"base": "v", "a": "v0"}, true},
		{"another table's records", func(j []byte) []byte {
			return logRecord(nil, [32]byte{9}, entryKey(nil, "a", "b"), []byte("forged"))
		}, map[string]string{"base": "v"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, name := build(t)
			j, err := os.ReadFile(name + logExt)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name+logExt, tc.spoil(j), 0o600); err != nil {
				t.Fatal(err)
			}
			eq(t, serves(t, dir), tc.want)
			// A journal that did not parse is never appended to.
			before, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			putRun(t, dir, "n", 1, []byte("v"))
			if journaled(t, name, before) == tc.whole {
				t.Fatalf("whole write %v not taken", tc.whole)
			}
			want := map[string]string{"n0000": "v"}
			for k, v := range tc.want {
				want[k] = v
			}
			tb := store(t, dir, "abc123").Table("G", nil)
			for _, k := range append([]string{"base", "n0000"}, keys...) {
				v, ok := tb.Get(k, "b")
				if w, in := want[k]; ok != in || ok && string(v) != w {
					t.Fatalf("after the next store, %s = %q %v, want %q %v", k, v, ok, w, in)
				}
			}
		})
	}
}
