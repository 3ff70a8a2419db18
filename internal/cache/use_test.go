package cache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Peek serves what Get serves without counting it; the caller's Tally
// counts the lookup as it judged it. A nil table and an empty blob id
// serve nothing.
func TestPeekServesAndTallyCounts(t *testing.T) {
	dir := t.TempDir()
	s := store(t, dir, "abc123")
	s.Table("G", nil).Put("kept", "b1", []byte("from-file"))
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	s2 := store(t, dir, "abc123")
	tb := s2.Table("G", nil)
	tb.Put("new", "b2", []byte("this-run"))
	for _, c := range []struct {
		path, blob, want string
		ok               bool
	}{
		{"kept", "b1", "from-file", true},
		{"new", "b2", "this-run", true},
		{"kept", "b2", "", false},
		{"kept", "", "", false},
	} {
		v, ok := tb.Peek(c.path, c.blob)
		if ok != c.ok || string(v) != c.want {
			t.Errorf("Peek(%q, %q) = %q %v, want %q %v", c.path, c.blob, v, ok, c.want, c.ok)
		}
	}
	if st := s2.Stats(); len(st) != 1 || st[0].Hits != 0 || st[0].Misses != 0 {
		t.Fatalf("Peek counted: %+v", st)
	}
	tb.Tally(true)
	tb.Tally(true)
	tb.Tally(false)
	if st := s2.Stats(); st[0].Hits != 2 || st[0].Misses != 1 {
		t.Fatalf("after two hits and a miss tallied: %+v", st)
	}
	var none *Table
	none.Tally(true)
	if v, ok := none.Peek("kept", "b1"); ok {
		t.Fatalf("a nil table served %q", v)
	}
}

// Stats lists every table used this run, one line per gate, by gate id.
func TestStatsByGate(t *testing.T) {
	s := store(t, t.TempDir(), "abc123")
	for _, g := range []string{"TREE-TERMS", "ACTION-PINNING", "PORTABILITY-FLOOR"} {
		s.Table(g, nil).Get("p", "b")
	}
	var got []string
	for _, st := range s.Stats() {
		got = append(got, st.Gate)
		if st.Misses != 1 || st.Hits != 0 {
			t.Errorf("%s: %+v", st.Gate, st)
		}
	}
	if strings.Join(got, " ") != "ACTION-PINNING PORTABILITY-FLOOR TREE-TERMS" {
		t.Fatalf("stats order: %v", got)
	}
}

// A table that cannot be written is an error Flush answers (the run's
// verdicts stand; only the next run's speed is lost), not a silent loss.
func TestFlushAnswersAWriteFailure(t *testing.T) {
	base := t.TempDir()
	blocker := filepath.Join(base, "not-a-dir")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := store(t, filepath.Join(blocker, "gates-cache"), "abc123")
	s.Table("G", nil).Put("p", "b", []byte("v"))
	if err := s.Flush(); err == nil {
		t.Fatal("a table under a regular file flushed without an error")
	}
}

// A configuration's gathering buffer stays bounded however much is added,
// a value larger than the buffer included: a key over a large tree keeps
// no copy of the bytes it digests.
func TestConfigKeepsNoCopy(t *testing.T) {
	var c Config
	c.Add("pattern-bytes", bytes.Repeat([]byte("p"), configChunk+1))
	piece := bytes.Repeat([]byte("x"), 1000)
	for i := 0; i < 1000; i++ {
		c.Add("path", piece)
		if len(c.buf) > configChunk+len(piece)+64 {
			t.Fatalf("after %d KB added the buffer holds %d bytes", i+1, len(c.buf))
		}
	}
}

// Two runs evicting at once race to remove the same earlier-layout
// files; a file the other run removed first is no error.
func TestConcurrentEvictionsRaceCleanly(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 400; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%04x.v1", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const runs = 16
	errs := make(chan error, runs)
	start := make(chan struct{})
	for r := 0; r < runs; r++ {
		go func(r int) {
			s := store(t, dir, "abc123")
			s.Table("G", cfg("run", fmt.Sprint(r))).Put("p", "b", nil)
			<-start
			errs <- s.Flush()
		}(r)
	}
	close(start)
	for r := 0; r < runs; r++ {
		if err := <-errs; err != nil {
			t.Errorf("a run racing another's eviction: %v", err)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.v1")); len(m) != 0 {
		t.Fatalf("%d earlier-layout files survived", len(m))
	}
}

// A table file that cannot be renamed into place (its name is taken by a
// directory) is an error Flush answers, and the temporary file is removed.
func TestFlushAnswersARenameFailure(t *testing.T) {
	dir := t.TempDir()
	s := store(t, dir, "abc123")
	tb := s.Table("G", nil)
	name, err := tb.file()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(name, "occupied"), 0o755); err != nil {
		t.Fatal(err)
	}
	tb.Put("p", "b", []byte("v"))
	if err := s.Flush(); err == nil {
		t.Fatal("a table whose name is a directory flushed without an error")
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(tmp) != 0 {
		t.Fatalf("temporary files left: %v", tmp)
	}
}

// Eviction keeps the most recently written tables: past the bound, the
// oldest goes, not the one just written.
func TestEvictRemovesTheOldest(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := 0; i < MaxTables; i++ {
		s := store(t, dir, "abc123")
		tb := s.Table("G", cfg("k", fmt.Sprint(i)))
		tb.Put("p", "b", nil)
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		name, _ := tb.file()
		files = append(files, name)
	}
	// Table i was written i hours after the first.
	base := time.Now().Add(-72 * time.Hour)
	for i, f := range files {
		at := base.Add(time.Duration(i) * time.Hour)
		if err := os.Chtimes(f, at, at); err != nil {
			t.Fatal(err)
		}
	}
	s := store(t, dir, "abc123")
	tb := s.Table("G", cfg("k", "newest"))
	tb.Put("p", "b", nil)
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	newest, _ := tb.file()
	for _, f := range append(files[1:], newest) {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("a recent table was evicted: %v", err)
		}
	}
	if _, err := os.Stat(files[0]); !os.IsNotExist(err) {
		t.Errorf("the oldest table survived eviction: %v", err)
	}
}

// A flush removes the tables of earlier layouts (".v" and digits) and
// nothing else the directory holds.
func TestEvictRemovesEarlierLayoutsOnly(t *testing.T) {
	dir := t.TempDir()
	stale := []string{"0123abcd.v0", "0123abcd.v1", "0123abcd.v9", "0123abcd.v10"}
	kept := []string{"notes.v", "notes.vx", "notes.v:", ".hidden.v1"}
	for _, n := range append(append([]string(nil), stale...), kept...) {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A directory named like an earlier layout's table is no table.
	if err := os.Mkdir(filepath.Join(dir, "old.v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, "old.v1")
	s := store(t, dir, "abc123")
	s.Table("G", nil).Put("p", "b", nil)
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, n := range stale {
		if _, err := os.Stat(filepath.Join(dir, n)); !os.IsNotExist(err) {
			t.Errorf("%s, an earlier layout's table, survived: %v", n, err)
		}
	}
	for _, n := range kept {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s, not a table, was removed: %v", n, err)
		}
	}
}
