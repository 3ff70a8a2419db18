package repo

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// ix is one entry of a hand-built index file.
type ix struct {
	name  string
	mode  uint32 // 0 means 0o100644
	stage int
	ext   uint16 // extended flags (written, with FlagExtended, when non-zero)
	id    byte   // every byte of the object id
	// nameLen overrides the name-length field of the flags (0: the real one).
	nameLen int
}

// indexFile lays out an index the way git writes one: the header, each
// entry (version 4 prefix-compressed, versions 2 and 3 NUL-padded to a
// multiple of eight), the extensions, the trailing checksum.
func indexFile(version uint32, hashLen int, entries []ix, exts ...[]byte) []byte {
	b := []byte("DIRC")
	b = binary.BigEndian.AppendUint32(b, version)
	b = binary.BigEndian.AppendUint32(b, uint32(len(entries)))
	prev := ""
	for _, e := range entries {
		start := len(b)
		b = append(b, make([]byte, 24)...) // ctime, mtime, dev, ino
		mode := e.mode
		if mode == 0 {
			mode = 0o100644
		}
		b = binary.BigEndian.AppendUint32(b, mode)
		b = append(b, make([]byte, 12)...) // uid, gid, size
		for i := 0; i < hashLen; i++ {
			b = append(b, e.id)
		}
		n := len(e.name)
		if n > 0xfff {
			n = 0xfff
		}
		if e.nameLen != 0 {
			n = e.nameLen
		}
		flags := uint16(n) | uint16(e.stage)<<12
		if e.ext != 0 {
			flags |= uint16(FlagExtended)
		}
		b = binary.BigEndian.AppendUint16(b, flags)
		if e.ext != 0 {
			b = binary.BigEndian.AppendUint16(b, e.ext)
		}
		if version == 4 {
			common := 0
			for common < len(prev) && common < len(e.name) && prev[common] == e.name[common] {
				common++
			}
			b = appendOffsetVarint(b, uint64(len(prev)-common))
			b = append(b, e.name[common:]...)
			b = append(b, 0)
		} else {
			b = append(b, e.name...)
			size := (len(b) - start + 8) &^ 7
			for len(b)-start < size {
				b = append(b, 0)
			}
		}
		prev = e.name
	}
	for _, x := range exts {
		b = append(b, x...)
	}
	return seal(b, hashLen)
}

// seal appends the checksum of b.
func seal(b []byte, hashLen int) []byte {
	if hashLen == sha256.Size {
		s := sha256.Sum256(b)
		return append(b, s[:]...)
	}
	s := sha1.Sum(b)
	return append(b, s[:]...)
}

// unseal drops the checksum, for a test that edits the body and seals it again.
func unseal(b []byte, hashLen int) []byte { return append([]byte(nil), b[:len(b)-hashLen]...) }

// appendOffsetVarint writes git's offset varint (the encoding varint reads).
func appendOffsetVarint(b []byte, v uint64) []byte {
	var tmp [16]byte
	pos := len(tmp) - 1
	tmp[pos] = byte(v & 127)
	for v >>= 7; v != 0; v >>= 7 {
		v--
		pos--
		tmp[pos] = 128 | byte(v&127)
	}
	return append(b, tmp[pos:]...)
}

// extension is one extension record: signature, length, payload.
func extension(sig string, payload []byte) []byte {
	b := append([]byte(sig), 0, 0, 0, 0)
	binary.BigEndian.PutUint32(b[4:], uint32(len(payload)))
	return append(b, payload...)
}

func names(es []Entry) string {
	var out []string
	for _, e := range es {
		out = append(out, e.Path)
	}
	return strings.Join(out, ",")
}

// Well-formed indexes of every version and both object formats decode to
// their entries, ids, modes, stages and flags, whatever optional
// extensions follow them.
func TestParseIndexDecodesEveryShape(t *testing.T) {
	long := strings.Repeat("d/", 100) + "deep.txt" // a v4 strip over 127 bytes
	huge := strings.Repeat("n", 5000)              // past the 12-bit name length
	entries := []ix{
		{name: "a.txt", id: 0xa1},
		{name: "bin/run", mode: 0o100755, id: 0xb2},
		{name: "c", stage: 1, id: 1},
		{name: "c", stage: 2, id: 2},
		{name: "c", stage: 3, id: 3},
		{name: long, id: 0xd4},
		{name: "link", mode: 0o120000, id: 0xe5},
		{name: huge, id: 0xf6},
		{name: "sub", mode: 0o160000, id: 0x07},
		{name: "z.txt", id: 0x08},
	}
	for _, c := range []struct {
		version uint32
		hashLen int
	}{{2, 20}, {3, 20}, {4, 20}, {2, 32}, {4, 32}} {
		data := indexFile(c.version, c.hashLen, entries,
			extension("TREE", []byte("0 0\n")), extension("ZZZZ", nil), extension("AAAA", []byte{1, 2, 3}))
		idx, err := ParseIndex(data, c.hashLen)
		if err != nil {
			t.Fatalf("v%d/%d: %v", c.version, c.hashLen, err)
		}
		if idx.Version != int(c.version) || idx.Sum != hex.EncodeToString(data[len(data)-c.hashLen:]) {
			t.Fatalf("v%d/%d: version %d sum %q", c.version, c.hashLen, idx.Version, idx.Sum)
		}
		if len(idx.Entries) != len(entries) {
			t.Fatalf("v%d/%d: %d entries: %s", c.version, c.hashLen, len(idx.Entries), names(idx.Entries))
		}
		for i, want := range entries {
			got := idx.Entries[i]
			mode := want.mode
			if mode == 0 {
				mode = 0o100644
			}
			id := strings.Repeat(hex.EncodeToString([]byte{want.id}), c.hashLen)
			if got.Path != want.name || got.Mode != mode || got.Stage != want.stage || got.Hash != id || got.Flags != uint32(want.stage)<<12 {
				t.Fatalf("v%d/%d entry %d: %+v, want %q %o stage %d id %s", c.version, c.hashLen, i, got, want.name, mode, want.stage, id)
			}
		}
	}
}

// Extended flags (version 3 and up) decode as git holds them: skip-worktree
// and intent-to-add in the upper half.
func TestParseIndexExtendedFlags(t *testing.T) {
	for _, v := range []uint32{3, 4} {
		idx, err := ParseIndex(indexFile(v, 20, []ix{
			{name: "ita", ext: 0x2000, id: 1},
			{name: "plain", id: 2},
			{name: "sparse", ext: 0x4000, id: 3},
		}), 20)
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		ita, plain, sparse := idx.Entries[0], idx.Entries[1], idx.Entries[2]
		if !ita.IntentToAdd() || ita.SkipWorktree() || plain.IntentToAdd() || plain.SkipWorktree() || !sparse.SkipWorktree() || sparse.IntentToAdd() {
			t.Fatalf("v%d: flags %#x %#x %#x", v, ita.Flags, plain.Flags, sparse.Flags)
		}
		if ita.Flags != FlagExtended|FlagIntentToAdd || sparse.Flags != FlagExtended|FlagSkipWorktree {
			t.Fatalf("v%d: flags %#x %#x", v, ita.Flags, sparse.Flags)
		}
	}
}

// An index with no entries (a repository whose every file was removed from
// the index) decodes to none, with or without a checksum, and with an
// extension after the header.
func TestParseIndexWithNoEntries(t *testing.T) {
	for _, data := range [][]byte{
		indexFile(2, 20, nil),
		indexFile(4, 20, nil, extension("TREE", nil)),
		append(unseal(indexFile(2, 20, nil), 20), make([]byte, 20)...),
		indexFile(2, 32, nil),
	} {
		hashLen := 20
		if len(data) == 12+32 {
			hashLen = 32
		}
		idx, err := ParseIndex(data, hashLen)
		if err != nil {
			t.Fatalf("%d bytes: %v", len(data), err)
		}
		if len(idx.Entries) != 0 {
			t.Fatalf("%d bytes: entries %s", len(data), names(idx.Entries))
		}
	}
	// Shorter than a header and its checksum is no index.
	short := indexFile(2, 20, nil)
	if _, err := ParseIndex(short[:len(short)-1], 20); !isFormat(err, "shorter than a header") {
		t.Fatalf("31 bytes: %v", err)
	}
}

func isFormat(err error, msg string) bool {
	var f *IndexFormatError
	return errors.As(err, &f) && strings.Contains(f.Msg, msg)
}

func isNeedsCLI(err error, reason string) bool {
	var n *NeedsCLIError
	return errors.As(err, &n) && strings.Contains(n.Reason, reason)
}

// Out-of-shape indexes, each under a valid checksum so the decoder's own
// check is what refuses it, are refused as malformed, naming what is
// wrong; none yields entries.
func TestParseIndexRefusesMalformed(t *testing.T) {
	one := []ix{{name: "a", id: 1}}
	two := []ix{{name: "ab", id: 1}} // "ab" is padded with eight NULs
	edit := func(data []byte, f func(b []byte) []byte) []byte { return seal(f(unseal(data, 20)), 20) }
	setCount := func(n uint32) func([]byte) []byte {
		return func(b []byte) []byte { binary.BigEndian.PutUint32(b[8:], n); return b }
	}
	cases := []struct {
		name string
		data []byte
		msg  string
	}{
		{"version 1", edit(indexFile(2, 20, one), func(b []byte) []byte { b[7] = 1; return b }), "version 1"},
		{"version 5", edit(indexFile(2, 20, one), func(b []byte) []byte { b[7] = 5; return b }), "version 5"},
		{"a count the file cannot hold", edit(indexFile(2, 20, one), setCount(1<<20)), "cannot fit"},
		{"a count of two in one entry's bytes", edit(indexFile(2, 20, one), setCount(2)), "2 entries cannot fit in 76 bytes"},
		{"an entry cut after its flags", edit(indexFile(2, 20, one), func(b []byte) []byte { return b[:12+62] }), "entry 0: unterminated name"},
		{"extended flags cut off", edit(indexFile(3, 20, []ix{{name: "a", ext: 0x4000}}), func(b []byte) []byte { return b[:12+62] }), "entry 0 runs past the end"},
		{"a count past the entries", edit(indexFile(2, 20, []ix{{name: strings.Repeat("a", 100)}}), setCount(2)), "entry 1 runs past the end"},
		{"extended flags in version 2", indexFile(2, 20, []ix{{name: "a", ext: 0x4000}}), "extended flags in a version 2"},
		{"unknown extended flags", indexFile(3, 20, []ix{{name: "a", ext: 0x1000}}), "unknown extended flags"},
		{"name length disagrees", indexFile(2, 20, []ix{{name: "abc", nameLen: 2}}), "name length 2"},
		{"padding not NUL", edit(indexFile(2, 20, two), func(b []byte) []byte { b[len(b)-1] = 'x'; return b }), "padding is not NUL"},
		{"unterminated name", edit(indexFile(2, 20, one), func(b []byte) []byte { return b[:12+62+1] }), "entry 0"},
		{"padding past the end", edit(indexFile(2, 20, two), func(b []byte) []byte { return b[:len(b)-1] }), "padding runs past the end"},
		{"two entries out of order", indexFile(2, 20, []ix{{name: "b"}, {name: "a"}}), "out of order"},
		{"one name twice", indexFile(2, 20, []ix{{name: "a"}, {name: "a"}}), "out of order"},
		{"stages out of order", indexFile(2, 20, []ix{{name: "a", stage: 2}, {name: "a", stage: 1}}), "out of order"},
		{"a directory mode 0o040755", indexFile(2, 20, []ix{{name: "a", mode: 0o040755}}), "has mode"},
		{"a FIFO mode", indexFile(2, 20, []ix{{name: "a", mode: 0o010644}}), "has mode"},
		{"a plain directory bit", indexFile(2, 20, []ix{{name: "a", mode: 0o140000}}), "has mode"},
		{"v4 strips more than the name", edit(indexFile(4, 20, two), func(b []byte) []byte { b[12+62] = 1; return b }), "strips 1 bytes of a 0-byte name"},
		{"v4 truncated prefix length", edit(indexFile(4, 20, one), func(b []byte) []byte { return append(b[:12+62], 0x80) }), "bad prefix length"},
		{"v4 overlong prefix length", edit(indexFile(4, 20, one), func(b []byte) []byte {
			return append(append(b[:12+62], 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80), 'a', 0)
		}), "bad prefix length"},
		{"v4 ten-byte prefix length", edit(indexFile(4, 20, one), func(b []byte) []byte {
			return append(append(b[:12+62], 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00), 'a', 0)
		}), "strips"},
		// Exactly two fixed parts in the bytes: the count passes, the
		// second entry does not.
		{"a count of two filling two fixed parts", edit(indexFile(2, 20, []ix{{name: strings.Repeat("a", 45)}}), setCount(2)), "entry 1 runs past the end"},
		{"extended flags then nothing", edit(indexFile(3, 20, []ix{{name: "a", ext: 0x4000}}), func(b []byte) []byte { return b[:12+62+2] }), "entry 0: unterminated name"},
		{"v4 unterminated name", edit(indexFile(4, 20, one), func(b []byte) []byte { return b[:len(b)-1] }), "unterminated name"},
		{"truncated extension header", seal(append(unseal(indexFile(2, 20, one), 20), "TRE"...), 20), "truncated extension header"},
		{"extension past the end", edit(indexFile(2, 20, one, extension("TREE", []byte("abcd"))), func(b []byte) []byte { return b[:len(b)-1] }), "runs past the end"},
	}
	for _, c := range cases {
		idx, err := ParseIndex(c.data, 20)
		if idx != nil || !isFormat(err, c.msg) {
			t.Errorf("%s: %v, want a malformed index naming %q", c.name, err, c.msg)
		}
	}
}

// The same malformed bytes under a checksum that does not match are
// refused as damaged, the checksum judged first.
func TestParseIndexChecksumJudgedFirst(t *testing.T) {
	data := indexFile(2, 20, []ix{{name: "b"}, {name: "a"}})
	data[len(data)-1] ^= 1
	if _, err := ParseIndex(data, 20); !isFormat(err, "checksum mismatch") {
		t.Fatalf("%v", err)
	}
	good := indexFile(2, 32, []ix{{name: "a"}})
	good[len(good)-1] ^= 1
	if _, err := ParseIndex(good, 32); !isFormat(err, "checksum mismatch") {
		t.Fatalf("sha256: %v", err)
	}
}

// What this decoder cannot read but git can goes to git: a sparse index
// (directory entries or its extension), a split index (the link extension
// or entries without names), a required extension it does not know. An
// extension whose signature opens with a capital letter, A to Z, is
// optional and skipped; any other first byte makes it required.
func TestParseIndexHandsGitWhatItCannotRead(t *testing.T) {
	one := []ix{{name: "a", id: 1}}
	for _, c := range []struct {
		name   string
		data   []byte
		reason string
	}{
		{"a directory entry", indexFile(2, 20, []ix{{name: "d/", mode: 0o040000}}), "sparse index (directory entries)"},
		{"sdir", indexFile(2, 20, one, extension("sdir", nil)), "sdir"},
		{"link", indexFile(2, 20, one, extension("link", make([]byte, 20))), "link"},
		{"a nameless entry", indexFile(2, 20, []ix{{name: ""}}), "entries without names"},
		{"a lower-case extension", indexFile(2, 20, one, extension("abcd", nil)), `"abcd"`},
		{"an extension after Z", indexFile(2, 20, one, extension("[xyz", nil)), `"[xyz"`},
		{"an extension before A", indexFile(2, 20, one, extension("@xyz", nil)), `"@xyz"`},
	} {
		idx, err := ParseIndex(c.data, 20)
		if idx != nil || !isNeedsCLI(err, c.reason) {
			t.Errorf("%s: %v, want git to read it (%q)", c.name, err, c.reason)
		}
	}
	for _, sig := range []string{"AXYZ", "ZXYZ", "TREE", "UNTR"} {
		if idx, err := ParseIndex(indexFile(2, 20, one, extension(sig, []byte("payload"))), 20); err != nil || names(idx.Entries) != "a" {
			t.Errorf("optional extension %s: %v", sig, err)
		}
	}
}

// The package's own readers leave each id in binary and spell it when
// asked (Entry.id): over git's versions 2, 3 and 4 and hand-laid SHA-1 and
// SHA-256 indexes, each entry spelled on demand equals the hex decode's,
// every other field is the same, what leaves the package (Git.Index) has
// every id spelled and none in binary, and the binary decode allocates
// less (half an id's spelling an entry at least).
func TestIndexIDsSpelledOnDemandEqualTheHexDecode(t *testing.T) {
	fx := indexRepo(t)
	var files []struct {
		name    string
		data    []byte
		hashLen int
	}
	for _, v := range []string{"2", "3", "4"} {
		runGit(t, fx.top, fx.env, "update-index", "--index-version", v)
		data, err := os.ReadFile(filepath.Join(fx.top, ".git/index"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, struct {
			name    string
			data    []byte
			hashLen int
		}{"git v" + v, data, 20})
	}
	many := make([]ix, 0, 400)
	for i := 0; i < 400; i++ {
		many = append(many, ix{name: fmt.Sprintf("d%02d/f%03d", i/20, i), id: byte(i)})
	}
	for _, hl := range []int{20, 32} {
		for _, v := range []uint32{2, 4} {
			files = append(files, struct {
				name    string
				data    []byte
				hashLen int
			}{fmt.Sprintf("laid v%d, %d-byte ids", v, hl), indexFile(v, hl, many), hl})
		}
	}
	for _, f := range files {
		hexIdx, err := parseIndexAs(f.data, f.hashLen, true, false, false)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		binIdx, err := parseIndexAs(f.data, f.hashLen, true, false, true)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if len(hexIdx.Entries) != len(binIdx.Entries) || hexIdx.Tree != binIdx.Tree || hexIdx.Sum != binIdx.Sum {
			t.Fatalf("%s: %d entries against %d", f.name, len(binIdx.Entries), len(hexIdx.Entries))
		}
		for i := range hexIdx.Entries {
			h, b := hexIdx.Entries[i], binIdx.Entries[i]
			if b.Hash != "" || len(b.raw) != f.hashLen || b.id() != h.Hash || h.raw != "" {
				t.Fatalf("%s: entry %d: id %q (Hash %q) against %q", f.name, i, b.id(), b.Hash, h.Hash)
			}
			b.raw, b.Hash = "", h.Hash
			if b.Path != h.Path || b.Mode != h.Mode || b.Stage != h.Stage || b.Flags != h.Flags {
				t.Fatalf("%s: entry %d: %+v against %+v", f.name, i, b, h)
			}
		}
		spelled := spelledIDs(binIdx.Entries)
		for i := range spelled {
			if spelled[i].Hash != hexIdx.Entries[i].Hash || spelled[i].raw != "" || binIdx.Entries[i].Hash != "" {
				t.Fatalf("%s: spelled entry %d: %+v; the decode it came from written: %v", f.name, i, spelled[i], binIdx.Entries[i].Hash != "")
			}
		}
		var m0, m1, m2 runtime.MemStats
		runtime.ReadMemStats(&m0)
		parseIndexAs(f.data, f.hashLen, false, false, false)
		runtime.ReadMemStats(&m1)
		parseIndexAs(f.data, f.hashLen, false, false, true)
		runtime.ReadMemStats(&m2)
		hexBytes, binBytes := m1.TotalAlloc-m0.TotalAlloc, m2.TotalAlloc-m1.TotalAlloc
		// Half an id an entry at least (allocation size classes round both).
		if saved := uint64(len(hexIdx.Entries) * f.hashLen / 2); binBytes+saved > hexBytes {
			t.Errorf("%s: the binary decode allocated %d bytes, the hex one %d (want %d less at least)", f.name, binBytes, hexBytes, saved)
		}
	}
	g := Git{Env: fx.env, RecordVerified: true}
	got, err := g.Index(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range got {
		if e.Hash == "" || e.raw != "" {
			t.Fatalf("Git.Index handed out %+v", e)
		}
	}
}
