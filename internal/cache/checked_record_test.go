package cache

import (
	"encoding/hex"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/fmap"
)

// bigEntries answers n entries in key order, enough to pass checkedMin.
func bigEntries(n int) []entry {
	out := make([]entry, n)
	for i := range out {
		out[i] = entry{entryKey(nil, fmt.Sprintf("d/p%05d", i), "b"), []byte(fmt.Sprintf("value %05d of a table large enough to be recorded", i)), true}
	}
	return out
}

// recordFor spells the checked-table record the loader writes for the
// table file name as it lies now.
func recordFor(t *testing.T, name string, key [32]byte) string {
	t.Helper()
	data, release, stamp, err := fmap.MapStamp(name)
	if err != nil || stamp == "" {
		t.Fatalf("map %s: %q %v", name, stamp, err)
	}
	defer release()
	return stamp + " " + hex.EncodeToString(data[len(data)-4:]) + " " + hex.EncodeToString(key[:]) + "\n"
}

// assertion O: a table file checked whole is recorded beside it by its
// identity, checksum trailer and key, and a load of that same file checks
// only its head; a file the record does not name exactly is checked whole.
func TestCheckedTableRecord(t *testing.T) {
	old := checkedAge
	checkedAge = -time.Hour
	defer func() { checkedAge = old }()
	dir := t.TempDir()
	tb := store(t, dir, "abc123").Table("G", nil)
	name, err := tb.file()
	if err != nil {
		t.Fatal(err)
	}
	entries := bigEntries(2000)
	if err := os.WriteFile(name, encode(tb.key, entries), 0o644); err != nil {
		t.Fatal(err)
	}
	// The first load checks whole and records the file.
	if v, ok := tb.Get("d/p01234", "b"); !ok || string(v) != string(entries[1234].v) {
		t.Fatalf("first load: %q %v", v, ok)
	}
	rec, err := os.ReadFile(name + okExt)
	if err != nil || string(rec) != recordFor(t, name, tb.key) {
		t.Fatalf("record %q (%v), want %q", rec, err, recordFor(t, name, tb.key))
	}
	// A later load of the same file answers the same from the record.
	again := store(t, dir, "abc123").Table("G", nil)
	for _, i := range []int{0, 999, 1999} {
		if v, ok := again.Get(fmt.Sprintf("d/p%05d", i), "b"); !ok || string(v) != string(entries[i].v) {
			t.Fatalf("recorded load, entry %d: %q %v", i, v, ok)
		}
	}

	// The record is what the loader trusts: a table whose records lie
	// (two keys out of order, resealed) is served under a record naming
	// that very file, and discarded under one that names it otherwise.
	lying := append([]entry(nil), entries...)
	lying[10], lying[11] = lying[11], lying[10]
	data := reseal(encode(tb.key, lying))
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	exact := recordFor(t, name, tb.key)
	for _, c := range []struct {
		what   string
		record string
		served bool
	}{
		{"a record naming the file", exact, true},
		{"a record of another identity", "1 " + exact, false},
		{"a record of another key", exact[:len(exact)-3] + "00\n", false},
		{"no record", "", false},
	} {
		os.Remove(name + okExt)
		if c.record != "" {
			if err := os.WriteFile(name+okExt, []byte(c.record), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, ok := store(t, dir, "abc123").Table("G", nil).Get("d/p00500", "b")
		if ok != c.served {
			t.Errorf("%s: served %v, want %v", c.what, ok, c.served)
		}
	}

	// A file written in place after it was recorded (same inode, same
	// size) moves its times: checked whole, and its damage found.
	if err := os.WriteFile(name, encode(tb.key, entries), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(name + okExt)
	if _, ok := store(t, dir, "abc123").Table("G", nil).Get("d/p00001", "b"); !ok {
		t.Fatal("the whole table was not served")
	}
	// Past the time stamps' grain (a clock tick at most), as checkedAge
	// is past it in use.
	time.Sleep(20 * time.Millisecond)
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("X"), int64(len(magic)+32+4+2000*recordSize+3)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if v, ok := store(t, dir, "abc123").Table("G", nil).Get("d/p00000", "b"); ok {
		t.Fatalf("a table damaged in place after its record was served: %q", v)
	}
}

// A table file younger than checkedAge is checked whole and not recorded:
// it may yet be written again within its time stamps' grain.
func TestCheckedTableTooYoungIsNotRecorded(t *testing.T) {
	dir := t.TempDir()
	tb := store(t, dir, "abc123").Table("G", nil)
	name, err := tb.file()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, encode(tb.key, bigEntries(2000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := tb.Get("d/p00001", "b"); !ok {
		t.Fatal("not served")
	}
	if _, err := os.Stat(name + okExt); !os.IsNotExist(err) {
		t.Fatalf("a table written just now was recorded: %v", err)
	}
}

// assertion O: eviction removes a checked-table record with its table,
// and keeps the record of a table it keeps.
func TestEvictionTakesTheRecordWithItsTable(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for i := 0; i < MaxTables+2; i++ {
		s := store(t, dir, "abc123")
		tb := s.Table("G", cfg("k", fmt.Sprint(i)))
		tb.Put("p", "b", nil)
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		name, err := tb.file()
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		// A record beside each table, as a load that checked it whole
		// leaves.
		if err := os.WriteFile(name+okExt, []byte("record\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		// Apart in time, so the eviction's order by age is the order made.
		old := time.Now().Add(time.Duration(i-100) * time.Minute)
		if err := os.Chtimes(name, old, old); err != nil {
			t.Fatal(err)
		}
	}
	// One more table written makes the eviction run over all of them.
	s := store(t, dir, "abc123")
	s.Table("G", cfg("k", "last")).Put("p", "b", nil)
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	for i, name := range names {
		_, terr := os.Stat(name)
		_, rerr := os.Stat(name + okExt)
		if (terr == nil) != (rerr == nil) {
			t.Errorf("table %d: table present %v, record present %v", i, terr == nil, rerr == nil)
		}
	}
	if _, err := os.Stat(names[0]); err == nil {
		t.Fatal("the oldest table was not evicted: the test proves nothing")
	}
}
