package cache

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"testing"
)

// reseal gives a table file whose body was edited a valid checksum again,
// so what refuses it is the check of its records, not the checksum.
func reseal(b []byte) []byte {
	body := b[:len(b)-4]
	binary.BigEndian.PutUint32(b[len(b)-4:], crc32.Checksum(body, castagnoli))
	return b
}

// record answers the offset of field (0 key, 1 value) of record i.
func record(i, field int) int { return len(magic) + 32 + 4 + i*recordSize + field*8 }

// A table file whose checksum holds but whose records lie (a span past the
// heap, a key repeated or out of order, a count the file cannot hold) is
// discarded like a damaged one: the lookup misses, it never serves bytes
// from outside the entry or a second value for one key, and the next write
// replaces it with a whole table.
func TestCheckedTableWithLyingRecordsDiscarded(t *testing.T) {
	one := []entry{{entryKey(nil, "p", "b"), []byte("v"), true}}
	// The heap of one is "p\x00b" (the key, 0..3) then "v" (3..4).
	lies := map[string]struct {
		entries []entry
		edit    func(b []byte)
	}{
		"value offset at the heap's end": {one, func(b []byte) {
			binary.BigEndian.PutUint32(b[record(0, 1):], 4)
		}},
		"value length past the heap": {one, func(b []byte) {
			binary.BigEndian.PutUint32(b[record(0, 1)+4:], 2)
		}},
		"key length past the heap": {one, func(b []byte) {
			binary.BigEndian.PutUint32(b[record(0, 0)+4:], 5)
		}},
		"count past the records": {one, func(b []byte) {
			binary.BigEndian.PutUint32(b[len(magic)+32:], 2)
		}},
		"count far past the file": {one, func(b []byte) {
			binary.BigEndian.PutUint32(b[len(magic)+32:], 1<<30)
		}},
		"a key held twice": {[]entry{
			{entryKey(nil, "p", "b"), []byte("v"), true},
			{entryKey(nil, "p", "b"), []byte("w"), true},
		}, func([]byte) {}},
		"keys out of order": {[]entry{
			{entryKey(nil, "q", "b"), []byte("w"), true},
			{entryKey(nil, "p", "b"), []byte("v"), true},
		}, func([]byte) {}},
	}
	for name, lie := range lies {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			tb := store(t, dir, "abc123").Table("G", nil)
			name, err := tb.file()
			if err != nil {
				t.Fatal(err)
			}
			data := encode(tb.key, lie.entries)
			lie.edit(data)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, reseal(data), 0o644); err != nil {
				t.Fatal(err)
			}
			if v, ok := tb.Get("p", "b"); ok {
				t.Fatalf("a table with lying records served %q", v)
			}
			if v, ok := tb.Get("q", "b"); ok {
				t.Fatalf("a table with lying records served %q", v)
			}
			s2 := store(t, dir, "abc123")
			s2.Table("G", nil).Put("p", "b", []byte("fresh"))
			if err := s2.Flush(); err != nil {
				t.Fatal(err)
			}
			got := store(t, dir, "abc123").Table("G", nil)
			if v, ok := got.Get("p", "b"); !ok || string(v) != "fresh" {
				t.Fatalf("after rewrite: %q %v", v, ok)
			}
			if got.old.n != 1 {
				t.Fatalf("the rewritten table holds %d entries, want 1 (nothing carried from the lying one)", got.old.n)
			}
		})
	}
}

// The same table, sealed without an edit, is trusted: the refusals above
// are the records' checks, not the way the test builds files.
func TestCheckedTableWithTrueRecordsTrusted(t *testing.T) {
	dir := t.TempDir()
	tb := store(t, dir, "abc123").Table("G", nil)
	name, err := tb.file()
	if err != nil {
		t.Fatal(err)
	}
	data := encode(tb.key, []entry{
		{entryKey(nil, "p", "b"), []byte("v"), true},
		{entryKey(nil, "q", "b"), []byte("w"), true},
	})
	if err := os.WriteFile(name, reseal(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if v, ok := tb.Get("q", "b"); !ok || string(v) != "w" {
		t.Fatalf("q = %q %v", v, ok)
	}
	if v, ok := tb.Get("p", "b"); !ok || string(v) != "v" {
		t.Fatalf("p = %q %v", v, ok)
	}
}

// A table file cut short inside its count, under a valid checksum, is
// discarded.
func TestCheckedTableCutInsideItsCountDiscarded(t *testing.T) {
	dir := t.TempDir()
	tb := store(t, dir, "abc123").Table("G", nil)
	name, err := tb.file()
	if err != nil {
		t.Fatal(err)
	}
	data := encode(tb.key, []entry{{entryKey(nil, "p", "b"), []byte("v"), true}})
	cut := append(append([]byte(nil), data[:len(magic)+32+1]...), 0, 0, 0, 0)
	if err := os.WriteFile(name, reseal(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	if v, ok := tb.Get("p", "b"); ok {
		t.Fatalf("a table cut inside its count served %q", v)
	}
}

// The size bound is exact: a table whose entries fill it to the byte
// keeps them, and one byte more drops the carried entry, never writing a
// file past MaxTableBytes.
func TestSizeBoundIsExact(t *testing.T) {
	const head = len(magic) + 32 + 4 + 4
	used := entry{entryKey(nil, "a", "b"), []byte("this run"), true}
	cost := func(e entry) int { return recordSize + len(e.k) + len(e.v) }
	filler := func(extra int) entry {
		k := entryKey(nil, "m", "b")
		return entry{k, make([]byte, MaxTableBytes-head-cost(used)-recordSize-len(k)+extra), false}
	}
	tail := entry{entryKey(nil, "z", "b"), []byte("carried"), false}
	for _, c := range []struct {
		name     string
		extra    int
		wantFill bool
	}{
		{"filled to the byte", 0, true},
		{"one byte over", 1, false},
		{"eight bytes over", 8, false},
	} {
		data := encode([32]byte{}, []entry{used, filler(c.extra), tail})
		if len(data) > MaxTableBytes {
			t.Fatalf("%s: a table of %d bytes, past the bound %d", c.name, len(data), MaxTableBytes)
		}
		v, ok := decode(data, [32]byte{})
		if !ok {
			t.Fatalf("%s: the bounded table does not decode", c.name)
		}
		if _, _, found := v.find(used.k); !found {
			t.Fatalf("%s: this run's entry was dropped", c.name)
		}
		if _, _, found := v.find(filler(c.extra).k); found != c.wantFill {
			t.Fatalf("%s: the carried entry kept %v, want %v", c.name, found, c.wantFill)
		}
		if _, _, found := v.find(tail.k); found {
			t.Fatalf("%s: an entry past the bound was kept", c.name)
		}
		if c.wantFill && len(data) != MaxTableBytes {
			t.Fatalf("%s: %d bytes, want exactly %d", c.name, len(data), MaxTableBytes)
		}
	}
}
