package repo

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// The object-file reader over packs and loose files built byte by byte,
// so every shape git itself never writes (a large offset, a padded size,
// a delta chain at its bound, a record cut short) is met once: what the
// reader knows it answers exactly, the rest it refuses, never reading
// past a bound.

func zlibBytes(tb testing.TB, b []byte) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// entryHead is a pack entry's type and size header.
func entryHead(typ byte, size uint64) []byte {
	c := typ<<4 | byte(size&15)
	size >>= 4
	var out []byte
	for size != 0 {
		out = append(out, c|0x80)
		c = byte(size & 0x7f)
		size >>= 7
	}
	return append(out, c)
}

// ofsBytes is an offset delta's distance to its base, as git writes it.
func ofsBytes(rel uint64) []byte {
	buf := []byte{byte(rel & 0x7f)}
	for rel >>= 7; rel != 0; rel >>= 7 {
		rel--
		buf = append([]byte{0x80 | byte(rel&0x7f)}, buf...)
	}
	return buf
}

// deltaVarint is a delta's size field.
func deltaVarint(v uint64) []byte {
	var out []byte
	for v >= 0x80 {
		out = append(out, byte(v)|0x80)
		v >>= 7
	}
	return append(out, byte(v))
}

// synthID is an object name starting with the byte first.
func synthID(first, n byte) []byte {
	id := make([]byte, sha1.Size)
	id[0], id[sha1.Size-1] = first, n
	return id
}

type synthEntry struct {
	id  []byte
	raw []byte // the entry as it lies in the pack
}

// synthPack lays entries out as a pack and a version 2 index; an entry
// whose position is in large is placed through the large offset table.
func synthPack(entries []synthEntry, large map[int]bool) (idx, pack []byte, offs []int) {
	pack = append([]byte("PACK"), 0, 0, 0, 2)
	pack = binary.BigEndian.AppendUint32(pack, uint32(len(entries)))
	for _, e := range entries {
		offs = append(offs, len(pack))
		pack = append(pack, e.raw...)
	}
	pack = append(pack, make([]byte, sha1.Size)...)
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return bytes.Compare(entries[order[a]].id, entries[order[b]].id) < 0 })
	idx = append([]byte("\xfftOc"), 0, 0, 0, 2)
	for b := 0; b < 256; b++ {
		n := 0
		for _, e := range entries {
			if int(e.id[0]) <= b {
				n++
			}
		}
		idx = binary.BigEndian.AppendUint32(idx, uint32(n))
	}
	for _, i := range order {
		idx = append(idx, entries[i].id...)
	}
	idx = append(idx, make([]byte, 4*len(entries))...)
	var bigs []uint64
	for _, i := range order {
		if large[i] {
			idx = binary.BigEndian.AppendUint32(idx, 0x80000000|uint32(len(bigs)))
			bigs = append(bigs, uint64(offs[i]))
		} else {
			idx = binary.BigEndian.AppendUint32(idx, uint32(offs[i]))
		}
	}
	for _, b := range bigs {
		idx = binary.BigEndian.AppendUint64(idx, b)
	}
	idx = append(idx, make([]byte, 2*sha1.Size)...)
	return idx, pack, offs
}

func wholeEntry(tb testing.TB, id []byte, typ byte, body string) synthEntry {
	return synthEntry{id: id, raw: append(entryHead(typ, uint64(len(body))), zlibBytes(tb, []byte(body))...)}
}

// copyAll is a delta that copies the whole of a base of n bytes (n > 0,
// under 64 KiB) and appends tail.
func copyAll(n int, tail string) []byte {
	d := append(deltaVarint(uint64(n)), deltaVarint(uint64(n+len(tail)))...)
	d = append(d, 0x80|0x10|0x20, byte(n), byte(n>>8))
	if tail != "" {
		d = append(d, byte(len(tail)))
		d = append(d, tail...)
	}
	return d
}

func synthReader(tb testing.TB, idx, pack []byte) *objectFiles {
	tb.Helper()
	p := &packFile{idx: idx, pack: pack}
	if !p.check() {
		tb.Fatal("the built pack does not pass check")
	}
	return &objectFiles{dir: filepath.Join(tb.TempDir(), "objects"), packs: []*packFile{p}}
}

func wantRead(tb testing.TB, r *objectFiles, id []byte, typ plumbing.ObjectType, body string) {
	tb.Helper()
	h := hex.EncodeToString(id)
	gt, got, err := r.read(h)
	if err != nil || gt != typ || string(got) != body {
		tb.Fatalf("%s: read %v %q %v, want %v %q", h, gt, got, err, typ, body)
	}
	if !r.has(h) {
		tb.Fatalf("%s: not had", h)
	}
}

func wantRefused(tb testing.TB, r *objectFiles, id []byte) {
	tb.Helper()
	if gt, got, err := r.read(hex.EncodeToString(id)); err == nil {
		tb.Fatalf("%x: read as %v %q", id, gt, got)
	}
}

func TestObjectFilesSynthPackReadsEveryShape(t *testing.T) {
	body := strings.Repeat("base bytes ", 7)
	// Entries: four whole objects (one named 00.., at the fan-out's first
	// bucket, one at the last), an offset delta, an id delta, an entry with
	// its size padded to the longest header the reader takes.
	es := []synthEntry{
		wholeEntry(t, synthID(0x00, 1), 3, body),
		wholeEntry(t, synthID(0x00, 2), 1, "tree-ish commit"),
		wholeEntry(t, synthID(0x7f, 1), 2, "t"),
		wholeEntry(t, synthID(0xff, 9), 4, "a tag"),
	}
	ofs := zlibBytes(t, copyAll(len(body), "+ofs"))
	es = append(es, synthEntry{id: synthID(0x40, 1), raw: append(append(entryHead(6, uint64(len(copyAll(len(body), "+ofs")))), ofsBytes(0)...), ofs...)})
	ref := copyAll(len(body), "+ref")
	es = append(es, synthEntry{id: synthID(0x41, 1), raw: append(append(entryHead(7, uint64(len(ref))), synthID(0x00, 1)...), zlibBytes(t, ref)...)})
	// A header of nine bytes, the last at shift 60, all zero past the first.
	padded := []byte{0x80 | 3<<4 | 5, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}
	es = append(es, synthEntry{id: synthID(0x42, 1), raw: append(padded, zlibBytes(t, []byte("hello"))...)})
	// The offset delta's distance, now that the layout is known.
	_, _, offs := synthPack(es, nil)
	es[4].raw = append(append(entryHead(6, uint64(len(copyAll(len(body), "+ofs")))), ofsBytes(uint64(offs[4]-offs[0]))...), ofs...)
	for _, large := range []map[int]bool{nil, {3: true}, {0: true, 5: true, 6: true}, {1: true, 2: true, 3: true, 4: true}} {
		idx, pack, _ := synthPack(es, large)
		r := synthReader(t, idx, pack)
		wantRead(t, r, es[0].id, plumbing.BlobObject, body)
		wantRead(t, r, es[1].id, plumbing.CommitObject, "tree-ish commit")
		wantRead(t, r, es[2].id, plumbing.TreeObject, "t")
		wantRead(t, r, es[3].id, plumbing.TagObject, "a tag")
		wantRead(t, r, es[4].id, plumbing.BlobObject, body+"+ofs")
		wantRead(t, r, es[5].id, plumbing.BlobObject, body+"+ref")
		wantRead(t, r, es[6].id, plumbing.BlobObject, "hello")
		for _, id := range [][]byte{synthID(0x00, 0), synthID(0x00, 3), synthID(0x7f, 0), synthID(0xff, 10), synthID(0x80, 1)} {
			wantRefused(t, r, id)
			if r.has(hex.EncodeToString(id)) {
				t.Fatalf("%x: had", id)
			}
		}
	}
}

// A delta chain at the depth bound reads; one entry more is refused.
func TestObjectFilesDeltaDepthBound(t *testing.T) {
	for _, byID := range []bool{false, true} {
		es := []synthEntry{wholeEntry(t, synthID(0x01, 0), 3, "x")}
		d := zlibBytes(t, copyAll(1, ""))
		for i := 1; i <= maxDeltaDepth+1; i++ {
			id := synthID(0x02, 0)
			binary.BigEndian.PutUint32(id[1:], uint32(i))
			var raw []byte
			if byID {
				raw = append(append(entryHead(7, uint64(len(copyAll(1, "")))), es[i-1].id...), d...)
			} else {
				raw = append(append(entryHead(6, uint64(len(copyAll(1, "")))), ofsBytes(uint64(len(es[i-1].raw)))...), d...)
			}
			es = append(es, synthEntry{id: id, raw: raw})
		}
		idx, pack, _ := synthPack(es, nil)
		r := synthReader(t, idx, pack)
		wantRead(t, r, es[maxDeltaDepth].id, plumbing.BlobObject, "x")
		wantRefused(t, r, es[maxDeltaDepth+1].id)
	}
}

// Entries out of shape are refused, never read past the pack's end.
func TestObjectFilesSynthPackRefusesWhatIsOutOfShape(t *testing.T) {
	good := wholeEntry(t, synthID(0x10, 1), 3, "abc")
	cases := map[string][]byte{
		"unknown type 5":           append(entryHead(5, 3), zlibBytes(t, []byte("abc"))...),
		"unknown type 0":           append(entryHead(0, 3), zlibBytes(t, []byte("abc"))...),
		"size past the data":       append(entryHead(3, 4), zlibBytes(t, []byte("abc"))...),
		"size short of the data":   append(entryHead(3, 2), zlibBytes(t, []byte("abc"))...),
		"not zlib":                 append(entryHead(3, 3), 'a', 'b', 'c', 'd'),
		"header past shift 60":     append([]byte{0x80 | 3<<4, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, zlibBytes(t, []byte("abc"))...),
		"offset delta at zero":     append(append(entryHead(6, 3), 0x00), zlibBytes(t, []byte("abc"))...),
		"offset delta past start":  append(append(entryHead(6, 3), 0x7f), zlibBytes(t, []byte("abc"))...),
		"offset delta too long":    append(append(entryHead(6, 3), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f), zlibBytes(t, []byte("abc"))...),
		"id delta of an absent id": append(append(entryHead(7, 3), synthID(0x99, 9)...), zlibBytes(t, []byte("abc"))...),
		"delta over a bad delta":   append(append(entryHead(6, 3), ofsBytes(uint64(len(good.raw)))...), zlibBytes(t, []byte("abc"))...),
	}
	for name, raw := range cases {
		es := []synthEntry{good, {id: synthID(0x20, 1), raw: raw}}
		idx, pack, _ := synthPack(es, nil)
		r := synthReader(t, idx, pack)
		wantRead(t, r, good.id, plumbing.BlobObject, "abc")
		if gt, got, err := r.read(hex.EncodeToString(es[1].id)); err == nil {
			t.Errorf("%s: read as %v %q", name, gt, got)
		}
	}
	// An entry cut short by the pack's end: its header, an offset or an id
	// run into the trailing checksum, which is never read as the entry:
	// each checksum below would complete the cut entry (a header's last
	// byte, an offset to the good entry, the rest of its id) if read.
	noise := make([]byte, 150)
	for i := range noise {
		noise[i] = byte(i*167 + i*i*31)
	}
	filler := wholeEntry(t, synthID(0x11, 1), 3, string(noise))
	for _, c := range []struct {
		name   string
		raw    []byte
		filled bool
		sum    func(dist int) []byte
	}{
		{"header", []byte{0x80 | 3<<4, 0x80}, false, func(int) []byte { return []byte{0} }},
		{"header, continued", []byte{0x80 | 3<<4, 0x80}, false, func(int) []byte { return bytes.Repeat([]byte{0x80 | 3<<4}, 20) }},
		{"offset", append(entryHead(6, 3), 0x80), true, func(dist int) []byte { return []byte{byte(dist - 128)} }},
		{"no offset", entryHead(6, 3), false, func(dist int) []byte { return []byte{byte(dist)} }},
		{"id", append(entryHead(7, 3), good.id[:5]...), false, func(int) []byte { return good.id[5:] }},
		{"whole id", append(entryHead(7, 3), good.id...), false, func(int) []byte { return nil }},
	} {
		es := []synthEntry{good}
		if c.filled {
			es = append(es, filler)
		}
		es = append(es, synthEntry{id: synthID(0x20, 1), raw: c.raw})
		idx, pack, offs := synthPack(es, nil)
		dist := offs[len(offs)-1] - offs[0]
		if sum := c.sum(dist); len(sum) > 0 {
			if sum[0] >= 0x80 && c.name != "header, continued" || dist >= 256 || c.filled && dist < 128 {
				t.Fatalf("cut %s: distance %d out of the case's reach", c.name, dist)
			}
			copy(pack[len(pack)-sha1.Size:], sum)
		}
		r := synthReader(t, idx, pack)
		if gt, got, err := r.read(hex.EncodeToString(es[len(es)-1].id)); err == nil {
			t.Errorf("cut %s: read as %v %q", c.name, gt, got)
		}
	}
	// Offsets the index gives that lie outside the pack's entries.
	for name, off := range map[string]uint64{"in the header": 11, "at the checksum": 0, "past the end": 1 << 20} {
		idx, pack, offs := synthPack([]synthEntry{good}, map[int]bool{0: true})
		if off == 0 {
			off = uint64(len(pack) - sha1.Size)
		}
		_ = offs
		// The checksum bytes would read as a blob's header if taken as one.
		for i := len(pack) - sha1.Size; i < len(pack); i++ {
			pack[i] = 3<<4 | 3
		}
		binary.BigEndian.PutUint64(idx[len(idx)-2*sha1.Size-8:], off)
		r := synthReader(t, idx, pack)
		if _, _, err := r.read(hex.EncodeToString(good.id)); err == nil {
			t.Errorf("offset %s: read", name)
		}
	}
	// A large offset slot past the table.
	idx, pack, _ := synthPack([]synthEntry{good}, map[int]bool{0: true})
	off := 8 + 1024 + sha1.Size + 4
	binary.BigEndian.PutUint32(idx[off:], 0x80000001)
	r := synthReader(t, idx, pack)
	wantRefused(t, r, good.id)
	if r.has(hex.EncodeToString(good.id)) {
		t.Fatal("an entry whose large offset is past the table is had")
	}
}

// check takes an index and pack of the shapes it knows, at their exact
// bounds, and refuses every other.
func TestPackCheckBounds(t *testing.T) {
	good := wholeEntry(t, synthID(0x10, 1), 3, "abc")
	idx, pack, _ := synthPack([]synthEntry{good}, map[int]bool{0: true})
	eidx, epack, _ := synthPack(nil, nil)
	idx3, pack3, _ := synthPack([]synthEntry{good, wholeEntry(t, synthID(0x20, 1), 3, "d"), wholeEntry(t, synthID(0x30, 1), 3, "e")}, nil)
	with := func(b []byte, at int, v ...byte) []byte {
		c := append([]byte(nil), b...)
		copy(c[at:], v)
		return c
	}
	for _, ok := range []struct {
		name      string
		idx, pack []byte
	}{
		{"one object, a large offset", idx, pack},
		{"no object", eidx, epack},
		{"three objects", idx3, pack3},
		{"pack version 3", idx, with(pack, 7, 3)},
		{"an unused large offset slot", append(append(append([]byte(nil), idx[:len(idx)-2*sha1.Size]...), make([]byte, 8)...), idx[len(idx)-2*sha1.Size:]...), pack},
	} {
		if p := (&packFile{idx: ok.idx, pack: ok.pack}); !p.check() {
			t.Errorf("%s: refused", ok.name)
		}
	}
	for _, bad := range []struct {
		name      string
		idx, pack []byte
	}{
		{"index short of its header", clip(eidx, len(eidx)-1), epack},
		{"index of its magic and version alone", clip(idx, 8), pack},
		{"index cut in its fan-out", clip(idx, 1000), pack},
		{"index of three without its checksums", clip(idx3, len(idx3)-2*sha1.Size), pack3},
		{"pack of its magic and version alone", idx, clip(pack, 8)},
		{"index magic", with(idx, 0, 0xfe), pack},
		{"index version 1", with(idx, 7, 1), pack},
		{"index counts more than it holds", with(idx, 8+1020, 0, 0, 0, 9), pack},
		{"index with four bytes over", append(append([]byte(nil), idx...), 0, 0, 0, 0), pack},
		{"pack short of its header", eidx, clip(epack, len(epack)-1)},
		{"pack magic", idx, with(pack, 0, 'X')},
		{"pack version 1", idx, with(pack, 7, 1)},
		{"pack version 4", idx, with(pack, 7, 4)},
		{"pack count", idx, with(pack, 11, 2)},
	} {
		if p := (&packFile{idx: bad.idx, pack: bad.pack}); p.check() {
			t.Errorf("%s: taken", bad.name)
		}
	}
	// A fan-out that steps back, or past the count, finds nothing.
	for name, at := range map[string]int{"steps back": 8 + 4*0x10, "past the count": 8 + 4*0x10} {
		b := append([]byte(nil), idx...)
		if name == "steps back" {
			binary.BigEndian.PutUint32(b[8+4*0x0f:], 1)
			binary.BigEndian.PutUint32(b[at:], 0)
		} else {
			binary.BigEndian.PutUint32(b[at:], 2)
		}
		p := &packFile{idx: b, pack: pack, count: 1}
		if _, ok := p.find(good.id); ok {
			t.Errorf("fan-out %s: found", name)
		}
	}
}

// inflateSized takes exactly the size's bytes and a stream that ends there.
func TestInflateSizedBounds(t *testing.T) {
	zeros := zlibBytes(t, make([]byte, 5000))
	if out, err := inflateSized(zeros, 5000); err != nil || len(out) != 5000 {
		t.Fatalf("5000 zeros: %d %v", len(out), err)
	}
	for name, c := range map[string]struct {
		b    []byte
		size uint64
	}{
		"more than any stream grows to": {clip(zeros, 2), 2*1032 + 65},
		"a stream longer than the size": {zeros, 4999},
		"a stream shorter":              {zeros, 5001},
		"not zlib":                      {[]byte("nope"), 1},
	} {
		if _, err := inflateSized(c.b, c.size); err == nil {
			t.Errorf("%s: inflated", name)
		}
	}
	// At the bound the size is tried (and the stream decides).
	small := zlibBytes(t, []byte("ab"))
	if out, err := inflateSized(small, 2); err != nil || string(out) != "ab" {
		t.Fatalf("ab: %q %v", out, err)
	}
}

// Loose objects: each type, and every header out of shape refused.
func TestLooseObjectShapes(t *testing.T) {
	for typ, want := range map[string]plumbing.ObjectType{"commit": plumbing.CommitObject, "tree": plumbing.TreeObject, "blob": plumbing.BlobObject, "tag": plumbing.TagObject} {
		gt, body, err := looseObject(zlibBytes(t, []byte(typ+" 2\x00ab")))
		if err != nil || gt != want || string(body) != "ab" {
			t.Errorf("%s: %v %q %v", typ, gt, body, err)
		}
	}
	for name, raw := range map[string][]byte{
		"not zlib":      []byte("blob 2\x00ab"),
		"cut short":     clip(zlibBytes(t, []byte("blob 2\x00ab")), 6),
		"no NUL":        zlibBytes(t, []byte("blob 2 ab")),
		"no size":       zlibBytes(t, []byte("blob\x00ab")),
		"size mismatch": zlibBytes(t, []byte("blob 3\x00ab")),
		"bad size":      zlibBytes(t, []byte("blob x\x00ab")),
		"delta type":    zlibBytes(t, []byte("ofs-delta 2\x00ab")),
		"unknown type":  zlibBytes(t, []byte("blub 2\x00ab")),
	} {
		if gt, body, err := looseObject(raw); err == nil {
			t.Errorf("%s: read as %v %q", name, gt, body)
		}
	}
	// Through the reader: a loose file is read before any pack, one that
	// cannot be read is refused, and has finds a loose file.
	dir := filepath.Join(t.TempDir(), "objects")
	r := &objectFiles{dir: dir}
	id := strings.Repeat("ab", 20)
	writeFile(t, filepath.Join(dir, "ab", id[2:]), string(zlibBytes(t, []byte("blob 2\x00ab"))), 0o644)
	if gt, body, err := r.read(id); err != nil || gt != plumbing.BlobObject || string(body) != "ab" {
		t.Fatalf("loose: %v %q %v", gt, body, err)
	}
	if !r.has(id) {
		t.Fatal("loose: not had")
	}
	dirID := strings.Repeat("cd", 20)
	if err := os.MkdirAll(filepath.Join(dir, "cd", dirID[2:]), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.read(dirID); err == nil {
		t.Fatal("a directory in place of a loose file was read")
	}
	for _, bad := range []string{"zz" + id[2:], id[:38], id + "ab"} {
		if _, _, err := r.read(bad); err == nil || r.has(bad) {
			t.Fatalf("%q: read or had", bad)
		}
	}
}

// openObjectFiles: no pack directory is a reader of loose files; a pack
// directory that cannot be listed, or an index that cannot be mapped,
// opens none; an index without its pack is skipped.
func TestOpenObjectFilesShapes(t *testing.T) {
	common := t.TempDir()
	if r := openObjectFiles(common); r == nil || len(r.packs) != 0 {
		t.Fatalf("no pack directory: %+v", r)
	}
	good := wholeEntry(t, synthID(0x10, 1), 3, "abc")
	idx, pack, _ := synthPack([]synthEntry{good}, nil)
	pd := filepath.Join(common, "objects", "pack")
	writeFile(t, filepath.Join(pd, "pack-a.idx"), string(idx), 0o644)
	writeFile(t, filepath.Join(pd, "pack-a.pack"), string(pack), 0o644)
	writeFile(t, filepath.Join(pd, "pack-b.idx"), string(idx), 0o644)
	writeFile(t, filepath.Join(pd, "pack-a.keep"), "", 0o644)
	r := openObjectFiles(common)
	if r == nil || len(r.packs) != 1 {
		t.Fatalf("one pack and an orphan index: %+v", r)
	}
	wantRead(t, r, good.id, plumbing.BlobObject, "abc")
	if s := sharedObjectFiles(common); s == nil || s != sharedObjectFiles(common) || len(s.packs) != 1 {
		t.Fatal("the shared reader is not shared")
	}
	if err := os.Mkdir(filepath.Join(pd, "pack-c.idx"), 0o755); err != nil {
		t.Fatal(err)
	}
	if r := openObjectFiles(common); r != nil {
		t.Fatal("an index that cannot be mapped opened a reader")
	}
	other := t.TempDir()
	writeFile(t, filepath.Join(other, "objects", "pack"), "a file", 0o644)
	if r := openObjectFiles(other); r != nil {
		t.Fatal("a pack directory that cannot be listed opened a reader")
	}
}

// applyDelta's edges: multi-byte copy offsets and sizes, a copy of 0
// meaning 64 KiB, copies and inserts at their exact bounds.
func TestApplyDeltaBounds(t *testing.T) {
	base := make([]byte, 0x20000)
	for i := range base {
		base[i] = byte(i * 7)
	}
	cp := func(off, n uint32) []byte {
		op := byte(0x80)
		var args []byte
		for i := 0; i < 4; i++ {
			if b := byte(off >> (8 * i)); b != 0 {
				op |= 1 << i
				args = append(args, b)
			}
		}
		for i := 0; i < 3; i++ {
			if b := byte(n >> (8 * i)); b != 0 {
				op |= 0x10 << i
				args = append(args, b)
			}
		}
		return append([]byte{op}, args...)
	}
	head := func(dst int) []byte {
		return append(deltaVarint(uint64(len(base))), deltaVarint(uint64(dst))...)
	}
	type tc struct {
		ops  []byte
		dst  int
		want []byte
	}
	ok := map[string]tc{
		"copy at a three-byte offset": {cp(0x010203, 0x0405), 0x405, base[0x010203 : 0x010203+0x405]},
		"copy of 0 is 64 KiB":         {cp(0x100, 0), 0x10000, base[0x100:0x10100]},
		"copy to the base's end":      {cp(0x1fff0, 0x10), 0x10, base[0x1fff0:]},
		"copy of the whole size":      {cp(0x10, 0x1fff0), 0x1fff0, base[0x10:]},
		"an empty result":             {nil, 0, nil},
		"insert to the exact size":    {append(append(cp(1, 2), cp(5, 1)...), 3, 'x', 'y', 'z'), 6, append(append(append([]byte(nil), base[1:3]...), base[5]), "xyz"...)},
	}
	for name, c := range ok {
		out, err := applyDelta(base, append(head(c.dst), c.ops...))
		if err != nil || !bytes.Equal(out, c.want) || out == nil {
			t.Errorf("%s: %d bytes, %v", name, len(out), err)
		}
	}
	bad := map[string][]byte{
		"copy one past the base":      append(head(0x11), cp(0x1fff0, 0x11)...),
		"copy one past the size":      append(head(0x10), cp(0, 0x11)...),
		"insert one past the size":    append(head(2), 3, 'a', 'b', 'c'),
		"insert past the delta":       append(head(3), 4, 'a', 'b', 'c'),
		"copy offset cut short":       append(head(1), 0x80|0x03, 1),
		"copy size cut short":         append(head(1), 0x80|0x30, 1),
		"no source size":              {},
		"no result size":              deltaVarint(uint64(len(base))),
		"size varint past 64 bits":    append(bytes.Repeat([]byte{0x80}, 10), 0),
		"a result larger than it can": append(head(0x1000000*2+1), 0x7f, 'a'),
	}
	for name, d := range bad {
		if out, err := applyDelta(base, d); err == nil {
			t.Errorf("%s: applied as %d bytes", name, len(out))
		}
	}
}

// clip is b's first n bytes in a slice of their own, so nothing past them
// can be reached by slicing up to the capacity.
func clip(b []byte, n int) []byte { return append([]byte(nil), b[:n]...) }

// Inflating objects one after another reuses one zlib reader: sixteen
// small loose objects allocate less than sixteen readers' windows, and
// each still reads back as written (a reused reader carries nothing of
// the last stream into the next).
func TestLooseObjectsReuseTheirInflater(t *testing.T) {
	raws := make([][]byte, 16)
	for i := range raws {
		raws[i] = zlibBytes(t, []byte(fmt.Sprintf("blob %d\x00%s", i+1, strings.Repeat("x", i+1))))
	}
	if _, _, err := looseObject(raws[0]); err != nil {
		t.Fatal(err)
	}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	for i, raw := range raws {
		if _, body, err := looseObject(raw); err != nil || string(body) != strings.Repeat("x", i+1) {
			t.Fatalf("object %d: %q %v", i, body, err)
		}
	}
	runtime.ReadMemStats(&m1)
	if got, window := m1.TotalAlloc-m0.TotalAlloc, uint64(len(raws))*32<<10; got >= window {
		t.Errorf("%d loose objects allocated %d bytes, %d readers' windows are %d", len(raws), got, len(raws), window)
	}
	// A stream cut short between two good ones leaves the next whole.
	if _, _, err := looseObject(clip(raws[3], 6)); err == nil {
		t.Fatal("a cut stream was read")
	}
	if _, body, err := looseObject(raws[5]); err != nil || string(body) != "xxxxxx" {
		t.Fatalf("after a cut stream: %q %v", body, err)
	}
}
