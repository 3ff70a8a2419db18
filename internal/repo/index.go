package repo

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/gate-sdk/gates/internal/walk"
)

// Index entry flags, as git holds them in memory once it has read an entry
// (and as `git ls-files --debug` prints them): the on-disk 16-bit flags less
// the name length, with the extended flags in the upper half.
const (
	FlagAssumeValid  uint32 = 0x8000
	FlagExtended     uint32 = 0x4000
	flagStageMask    uint32 = 0x3000
	flagNameMask     uint32 = 0x0fff
	FlagSkipWorktree uint32 = 0x4000 << 16
	FlagIntentToAdd  uint32 = 0x2000 << 16
	// The extended flags git defines; any other bit set refuses the entry.
	extendedKnown uint32 = 0x6000
)

// IntentToAdd reports whether the entry was recorded by `git add -N`: a
// placeholder the next commit leaves out.
func (e Entry) IntentToAdd() bool { return e.Flags&FlagIntentToAdd != 0 }

// SkipWorktree reports whether the entry is outside a sparse checkout (git
// neither reads nor writes its work-tree file).
func (e Entry) SkipWorktree() bool { return e.Flags&FlagSkipWorktree != 0 }

// AssumeValid reports whether the entry carries `update-index
// --assume-unchanged`.
func (e Entry) AssumeValid() bool { return e.Flags&FlagAssumeValid != 0 }

// NeedsCLIError is an index this reader does not decode but git does: a
// split index, a sparse index, a required extension it does not know. The
// caller reads the index through git instead.
type NeedsCLIError struct{ Reason string }

func (e *NeedsCLIError) Error() string { return "the index needs git to read it: " + e.Reason }

// IndexFormatError is an index file that is not a well-formed index.
type IndexFormatError struct{ Msg string }

func (e *IndexFormatError) Error() string { return "malformed index: " + e.Msg }

func badIndex(format string, a ...any) error {
	return &IndexFormatError{Msg: fmt.Sprintf(format, a...)}
}

// Index is a decoded index file.
type Index struct {
	Version int
	Entries []Entry
	// Sum is the file's trailing checksum, hex; "" when the file carries
	// none (index.skipHash writes zeros).
	Sum string
	// Tree is the id of the tree `git write-tree` would make of the index,
	// as its cache-tree extension records it, hex; "" when the extension
	// is absent or its root was invalidated by a later change.
	Tree string
}

// ParseIndex decodes an index file (versions 2, 3 and 4) whose object ids
// are hashLen bytes long (20 for SHA-1, 32 for SHA-256). Entries come back
// in index order, names relative to the toplevel. The trailing checksum is
// verified (an all-zero one, written under index.skipHash, is accepted);
// optional extensions are skipped by their length; a split index, a sparse
// index or an unknown required extension is a *NeedsCLIError; anything else
// out of shape is an *IndexFormatError; a name that is not UTF-8 is a
// *NonUTF8Error.
func ParseIndex(data []byte, hashLen int) (*Index, error) {
	return parseIndex(data, hashLen, true)
}

// parseIndex is ParseIndex, the checksum computed and compared only when
// verify is set (else the trailer is taken as read: see indexAt).
func parseIndex(data []byte, hashLen int, verify bool) (*Index, error) {
	return parseIndexStat(data, hashLen, verify, false)
}

// parseIndexStat is parseIndex that, when stat is set, also copies each
// entry's recorded stat data out of data (a work-tree snapshot's stat
// test, see keepCleanStat).
func parseIndexStat(data []byte, hashLen int, verify, stat bool) (*Index, error) {
	return parseIndexAs(data, hashLen, verify, stat, false)
}

// parseIndexAs is parseIndexStat leaving each entry's id in binary (raw,
// Hash empty; see Entry.id) when binaryIDs is set: this package's own
// readers, which spell only the ids they are asked for.
func parseIndexAs(data []byte, hashLen int, verify, stat, binaryIDs bool) (*Index, error) {
	// assertion G: the header, the checksum, then every entry in order.
	var h hash.Hash
	switch hashLen {
	case sha1.Size:
		h = sha1.New()
	case sha256.Size:
		h = sha256.New()
	default:
		return nil, fmt.Errorf("unsupported object id length %d", hashLen)
	}
	if len(data) < 12+hashLen {
		return nil, badIndex("%d bytes is shorter than a header and a checksum", len(data))
	}
	if string(data[:4]) != "DIRC" {
		return nil, badIndex("no DIRC signature")
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, badIndex("version %d (this reader knows 2, 3 and 4)", version)
	}
	body, sum := data[:len(data)-hashLen], data[len(data)-hashLen:]
	if allZero(sum) {
		return parseEntries(data, body, version, hashLen, "", stat, binaryIDs)
	}
	if !verify {
		return parseEntries(data, body, version, hashLen, hex.EncodeToString(sum), stat, binaryIDs)
	}
	// The checksum is computed beside the decode (it is a tenth of the
	// work on a large index) and judged first: a file that fails it is
	// refused as damaged whatever else the decode found.
	verified := make(chan error, 1)
	go func() {
		// The bytes may be a mapped file's (see readIndex): a fault
		// reading them is an error, on this goroutine as on the decoder's.
		ok := false
		err := faultGuard(func() {
			h.Write(body)
			ok = bytes.Equal(h.Sum(nil), sum)
		})
		if err == nil && !ok {
			err = badIndex("checksum mismatch")
		}
		verified <- err
	}()
	idx, err := parseEntries(data, body, version, hashLen, hex.EncodeToString(sum), stat, binaryIDs)
	if verr := <-verified; verr != nil {
		return nil, verr
	}
	return idx, err
}

// parseEntries decodes the entries and extensions of an index whose header
// ParseIndex read; trailer is the checksum to report ("" when none).
func parseEntries(data, body []byte, version uint32, hashLen int, trailer string, stat, binaryIDs bool) (*Index, error) {
	count := binary.BigEndian.Uint32(data[8:12])
	// Each entry takes at least its fixed part, so a count the file cannot
	// hold is refused before anything is allocated for it.
	fixed := 40 + hashLen + 2
	if uint64(count)*uint64(fixed) > uint64(len(body)) {
		return nil, badIndex("%d entries cannot fit in %d bytes", count, len(body))
	}
	idx := &Index{Version: int(version), Entries: make([]Entry, count), Sum: trailer}
	// The stat data, when asked for, is copied into one slab: the bytes
	// decoded from may be a mapping that goes when the read is done.
	var stats []statData
	if stat {
		stats = make([]statData, 0, count)
	}
	pos := 12
	var prev []byte
	var prevStage int
	// The names and hex ids fit in the body less the entries' fixed parts
	// (the padding makes it an over-estimate); a version 4 index's names
	// are prefix-compressed and may outgrow it: a new arena then takes
	// over (see below).
	names := len(body) - 12 - int(count)*fixed
	if version == 4 || names < 0 {
		names = len(body)
	}
	idLen := 2 * hashLen
	if binaryIDs {
		idLen = hashLen
	}
	arena := make([]byte, 0, names+int(count)*idLen)
	for i := uint32(0); i < count; i++ {
		start := pos
		if pos+fixed > len(body) {
			return nil, badIndex("entry %d runs past the end", i)
		}
		mode := binary.BigEndian.Uint32(body[pos+24 : pos+28])
		id := body[pos+40 : pos+40+hashLen]
		flags16 := uint32(binary.BigEndian.Uint16(body[pos+40+hashLen : pos+fixed]))
		pos += fixed
		if mode == 0o040000 {
			return nil, &NeedsCLIError{Reason: "a sparse index (directory entries)"}
		}
		flags := flags16 &^ flagNameMask
		if flags&FlagExtended != 0 {
			if version < 3 {
				return nil, badIndex("entry %d carries extended flags in a version 2 index", i)
			}
			if pos+2 > len(body) {
				return nil, badIndex("entry %d runs past the end", i)
			}
			ext := uint32(binary.BigEndian.Uint16(body[pos : pos+2]))
			pos += 2
			if ext&^extendedKnown != 0 {
				return nil, badIndex("entry %d sets unknown extended flags %#x", i, ext)
			}
			flags |= ext << 16
		}
		var name []byte
		if version == 4 {
			// assertion H: a version 4 name strips a count of bytes from
			// the previous name and appends a NUL-terminated suffix.
			strip, n := varint(body[pos:])
			if n == 0 {
				return nil, badIndex("entry %d: bad prefix length", i)
			}
			pos += n
			if strip > uint64(len(prev)) {
				return nil, badIndex("entry %d strips %d bytes of a %d-byte name", i, strip, len(prev))
			}
			end := bytes.IndexByte(body[pos:], 0)
			if end < 0 {
				return nil, badIndex("entry %d: unterminated name", i)
			}
			keep := len(prev) - int(strip)
			name = make([]byte, 0, keep+end)
			name = append(append(name, prev[:keep]...), body[pos:pos+end]...)
			pos += end + 1
		} else {
			nameLen := int(flags16 & flagNameMask)
			end := bytes.IndexByte(body[pos:], 0)
			if end < 0 {
				return nil, badIndex("entry %d: unterminated name", i)
			}
			if nameLen != int(flagNameMask) && nameLen != end {
				return nil, badIndex("entry %d: name length %d disagrees with its %d bytes", i, nameLen, end)
			}
			name = body[pos : pos+end]
			// Padding: 1 to 8 NULs up to a multiple of eight from the
			// entry's start.
			next := start + ((pos - start + end + 8) &^ 7)
			if next > len(body) {
				return nil, badIndex("entry %d: padding runs past the end", i)
			}
			if !allZero(body[pos+end : next]) {
				return nil, badIndex("entry %d: padding is not NUL", i)
			}
			pos = next
		}
		if len(name) == 0 {
			// A split index stores replaced entries without their names,
			// which live in the shared index it links to.
			return nil, &NeedsCLIError{Reason: "entries without names (a split index)"}
		}
		stage := int((flags & flagStageMask) >> 12)
		if i > 0 {
			if c := bytes.Compare(prev, name); c > 0 || c == 0 && prevStage >= stage {
				return nil, badIndex("entry %d (%q) is out of order", i, name)
			}
		}
		switch mode &^ 0o777 {
		case 0o100000, 0o120000, 0o160000:
		default:
			return nil, badIndex("entry %d (%q) has mode %o", i, name, mode)
		}
		prev, prevStage = name, stage
		if !utf8.Valid(name) {
			return nil, walk.CheckName(string(name))
		}
		// The names and hex ids go into one arena, so 20,000 entries cost
		// a few allocations, not 40,000. Each entry's strings are made
		// over the arena's bytes, never copied: bytes once written are
		// never written again, since an entry that would outgrow the
		// arena's capacity starts a new one instead of growing it (which
		// would move the bytes written so far).
		idLen := 2 * hashLen
		if binaryIDs {
			idLen = hashLen
		}
		need := len(name) + idLen
		if len(arena)+need > cap(arena) {
			arena = make([]byte, 0, max(need, (len(body)-pos)+int(count-i)*idLen))
		}
		at := len(arena)
		arena = append(arena, name...)
		if binaryIDs {
			arena = append(arena, id...)
		} else {
			arena = appendHex(arena, id)
		}
		str := unsafe.String(&arena[at], need)
		ent := &idx.Entries[i]
		if binaryIDs {
			ent.Path, ent.raw = str[:len(name)], str[len(name):]
		} else {
			ent.Path, ent.Hash = str[:len(name)], str[len(name):]
		}
		// assertion W: a mode is read as git reads it (CanonMode).
		ent.Mode, ent.Stage, ent.Flags = CanonMode(mode), stage, flags
		if stat {
			stats = append(stats, statData(body[start:start+40]))
			ent.stat = &stats[len(stats)-1]
		}
	}
	// assertion I: extensions are skipped by their length; a required one
	// (a lower-case signature) this reader cannot apply goes to git.
	for pos < len(body) {
		if pos+8 > len(body) {
			return nil, badIndex("truncated extension header")
		}
		sig := body[pos : pos+4]
		size := binary.BigEndian.Uint32(body[pos+4 : pos+8])
		pos += 8
		if uint64(size) > uint64(len(body)-pos) {
			return nil, badIndex("extension %q runs past the end", sig)
		}
		if string(sig) == "TREE" {
			idx.Tree = cacheTreeRoot(body[pos:pos+int(size)], hashLen)
		}
		pos += int(size)
		if sig[0] >= 'A' && sig[0] <= 'Z' {
			continue
		}
		switch string(sig) {
		case "link":
			return nil, &NeedsCLIError{Reason: "a split index (the link extension)"}
		case "sdir":
			return nil, &NeedsCLIError{Reason: "a sparse index (the sdir extension)"}
		}
		return nil, &NeedsCLIError{Reason: fmt.Sprintf("the required extension %q", sig)}
	}
	return idx, nil
}

// hexPairs holds each byte's two lower-case hex digits.
var hexPairs = func() (t [256][2]byte) {
	const digits = "0123456789abcdef"
	for i := range t {
		t[i] = [2]byte{digits[i>>4], digits[i&15]}
	}
	return t
}()

// appendHex is hex.AppendEncode a byte pair at a time (an index's ids are
// a fifth of its decode).
func appendHex(dst, src []byte) []byte {
	n := len(dst)
	dst = slices.Grow(dst, 2*len(src))[:n+2*len(src)]
	out := dst[n:]
	for i, c := range src {
		p := hexPairs[c]
		out[2*i], out[2*i+1] = p[0], p[1]
	}
	return dst
}

// cacheTreeRoot answers the root tree id the cache-tree extension ext
// records (its first entry: an empty path, the entry count, the subtree
// count, then the id when the count is not -1), "" when there is none or
// the entry is out of shape.
func cacheTreeRoot(ext []byte, hashLen int) string {
	if len(ext) == 0 || ext[0] != 0 {
		return ""
	}
	nl := bytes.IndexByte(ext, '\n')
	if nl < 0 {
		return ""
	}
	count, subtrees, ok := strings.Cut(string(ext[1:nl]), " ")
	if !ok || count == "" || count[0] == '-' || !allDecimal(count) || !allDecimal(subtrees) {
		return ""
	}
	if len(ext) < nl+1+hashLen {
		return ""
	}
	return hex.EncodeToString(ext[nl+1 : nl+1+hashLen])
}

func allDecimal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// varint decodes git's offset varint, answering the value and the bytes
// read (0 when malformed).
func varint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	val := uint64(c & 127)
	n := 1
	for c&128 != 0 {
		if n >= len(b) || n > 9 {
			return 0, 0
		}
		val++
		c = b[n]
		val = val<<7 | uint64(c&127)
		n++
	}
	return val, n
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// IndexSource is where an index is and how its objects are named, as git
// answers it at a directory: the index file (GIT_INDEX_FILE honoured), the
// object format, and the directory's prefix below the toplevel.
type IndexSource struct {
	File      string
	CommonDir string // where the objects are
	HashLen   int
	Prefix    string
}

// LocateIndex asks the crosser where dir's index is.
func (g Git) LocateIndex(dir string) (IndexSource, error) {
	place, err := walk.LocateIndex(dir, g.Env)
	if err != nil {
		return IndexSource{}, &ListingError{Dir: dir, What: "locate the index", Err: err}
	}
	src := IndexSource{File: place.File, CommonDir: place.CommonDir, Prefix: place.Prefix}
	switch place.Format {
	case "sha1":
		src.HashLen = sha1.Size
	case "sha256":
		src.HashLen = sha256.Size
	default:
		return IndexSource{}, &ListingError{Dir: dir, What: "locate the index", Err: fmt.Errorf("unknown object format %q", place.Format)}
	}
	return src, nil
}

// Index lists the index entries under dir, relative to dir and scoped to
// it as `git ls-files -s` lists them, with each entry's flags. The index
// file is decoded in process; what the decoder cannot read (a split or
// sparse index, an unknown required extension) is read through git, and
// that is said on g.Debug.
func (g Git) Index(dir string) ([]Entry, error) {
	src, err := g.LocateIndex(dir)
	if err != nil {
		return nil, err
	}
	entries, _, err := g.indexAt(dir, src)
	if err != nil {
		return entries, err
	}
	// The ids are spelled on a copy: the decoded index may be shared
	// within the process (see decoded), and the caller's slice is its own.
	if spelled := spelledIDs(entries); len(entries) == 0 || &spelled[0] != &entries[0] {
		return spelled, nil
	}
	if src.Prefix == "" && g.RecordVerified {
		return slices.Clone(entries), nil
	}
	return entries, nil
}

// indexAt reads the index src names; sum is the file's checksum when the
// decoder read it ("" when the file has none or git answered instead).
// The entries may be the process's shared decoding (see decoded): the
// caller must not modify them.
func (g Git) indexAt(dir string, src IndexSource) (entries []Entry, sum string, err error) {
	return g.indexAtWith(dir, src, false)
}

// indexAtWith is indexAt whose decode, when stat is set, keeps each
// entry's recorded stat data (a work-tree snapshot's).
func (g Git) indexAtWith(dir string, src IndexSource, stat bool) (entries []Entry, sum string, err error) {
	return g.indexAtAs(dir, src, stat, false)
}

// indexAtAs is indexAtWith leaving the ids in binary when binaryIDs is set
// (see parseIndexAs): for a reader that spells only the ids it is asked
// for.
func (g Git) indexAtAs(dir string, src IndexSource, stat, binaryIDs bool) (entries []Entry, sum string, err error) {
	idx, err := g.readIndexAs(dir, src, stat, binaryIDs)
	if idx == nil && err == nil {
		// A repository that never staged anything has no index file.
		return nil, "", nil
	}
	var cli *NeedsCLIError
	var nonUTF8 *NonUTF8Error
	switch {
	case err == nil:
		return ScopeEntries(idx.Entries, src.Prefix), idx.Sum, nil
	case errors.As(err, &nonUTF8):
		return nil, "", err
	case errors.As(err, &cli):
		// assertion J: what the decoder cannot read goes to git, said on
		// the debug writer.
		g.debugf("index %s holds %s; reading it through git ls-files\n", src.File, cli.Reason)
		entries, err := g.IndexFlags(dir)
		return entries, "", err
	}
	var listing *ListingError
	if errors.As(err, &listing) {
		return nil, "", err
	}
	return nil, "", &ListingError{Dir: dir, What: "read the index " + src.File, Err: err, By: indexReader}
}

// readIndex reads and decodes src's index file in process: nil and no
// error when there is none; a *ListingError when it cannot be read; the
// decoder's own error (a *NeedsCLIError among them) when it cannot be
// decoded.
func (g Git) readIndex(dir string, src IndexSource) (idx *Index, err error) {
	return g.readIndexWith(dir, src, false)
}

// readIndexWith is readIndex whose decode, when stat is set, keeps each
// entry's recorded stat data where it can vouch for the file.
func (g Git) readIndexWith(dir string, src IndexSource, stat bool) (idx *Index, err error) {
	return g.readIndexAs(dir, src, stat, false)
}

// readIndexAs is readIndexWith leaving the ids in binary when binaryIDs is
// set (see parseIndexAs).
func (g Git) readIndexAs(dir string, src IndexSource, stat, binaryIDs bool) (idx *Index, err error) {
	before, written, stable := indexStamp(src.File)
	if !stat {
		written = fileTime{}
	}
	// assertion R: the index is mapped, not copied, and a fault on its
	// mapped bytes (the file cut short where it stands) refuses the read.
	data, release, err := mapFile(src.File)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &ListingError{Dir: dir, What: "read the index", Err: err, By: indexReader}
	}
	// Nothing decoded keeps the mapped bytes: names and ids are copied
	// out, so the mapping goes when the read is done.
	defer release()
	if ferr := faultGuard(func() { idx, err = g.readIndexData(dir, src, data, before, stable, stat, binaryIDs, written) }); ferr != nil {
		return nil, &ListingError{Dir: dir, What: "read the index " + src.File, Err: ferr, By: indexReader}
	}
	return idx, err
}

// readIndexData is readIndex over the index file's bytes, read with the
// stat stamp before; stat and written are readIndexWith's (written zero
// when no entry's stat data may vouch).
func (g Git) readIndexData(dir string, src IndexSource, data []byte, before string, stable, stat, binaryIDs bool, written fileTime) (*Index, error) {
	// assertion P: with a record to consult, a file whose stat fields and
	// trailer are the ones this reader last verified is not hashed again;
	// any other file is verified, and recorded once verified.
	after, _, _ := indexStamp(src.File)
	stable = stable && before == after && len(data) >= src.HashLen
	if !stable {
		written = fileTime{}
	}
	var trailer, record string
	if stable && g.RecordVerified && src.CommonDir != "" {
		trailer = hex.EncodeToString(data[len(data)-src.HashLen:])
		record = walk.Child(src.CommonDir, verifiedDir)
	}
	rec := src.File + "\x00" + before + "\x00" + trailer
	trusted := record != "" && readIndexRecord(walk.Child(record, verifiedName)) == rec
	if !stable || !g.RecordVerified {
		return g.parseRecorded(data, src, record, rec, trusted, stat, binaryIDs, written)
	}
	// assertion Q: a reader keeping state (the hooks) decodes an unchanged
	// index file once per process, whoever reads it (the hook's snapshot
	// and its index-first configuration reads run side by side); a reader
	// that must verify is never served a decoding that did not. Any other
	// reader (the battery) decodes its own and keeps no second copy.
	key := src.File + "\x00" + before + "\x00" + strconv.Itoa(src.HashLen) + "\x00" + string(data[len(data)-src.HashLen:]) + "\x00" + strconv.FormatBool(stat) + "\x00" + strconv.FormatBool(binaryIDs)
	decoded.Lock()
	if decoded.m == nil {
		decoded.m = map[string]*decodedIndex{}
	}
	d := decoded.m[key]
	if d == nil {
		d = &decodedIndex{}
		decoded.m[key] = d
	}
	decoded.Unlock()
	d.once.Do(func() {
		d.idx, d.err = g.parseRecorded(data, src, record, rec, trusted, stat, binaryIDs, written)
		d.verified = !trusted
	})
	if !trusted && !d.verified {
		return g.parseRecorded(data, src, record, rec, trusted, stat, binaryIDs, written)
	}
	return d.idx, d.err
}

// parseRecorded decodes data, verifying its checksum unless trusted, and
// records a verified file in record (when named). With stat set each
// entry's recorded stat data is copied out and kept where it can vouch
// for its file, the index file having been written at written (see
// keepCleanStat).
func (g Git) parseRecorded(data []byte, src IndexSource, record, rec string, trusted, stat, binaryIDs bool, written fileTime) (idx *Index, err error) {
	// Guarded here, not only by the caller: a decode run under a
	// sync.Once that faulted would leave the once done and nothing
	// decoded, which later readers would take for no index at all.
	if ferr := faultGuard(func() { idx, err = parseIndexAs(data, src.HashLen, !trusted, stat, binaryIDs) }); ferr != nil {
		return nil, ferr
	}
	if err == nil && stat {
		keepCleanStat(idx.Entries, written)
	}
	if err == nil && record != "" && !trusted && idx.Sum != "" {
		writeIndexRecord(record, rec)
	}
	return idx, err
}

// decoded keeps this process's decodings of index files by path, stat
// stamp and trailer; an entry is never changed once made.
var decoded struct {
	sync.Mutex
	m map[string]*decodedIndex
}

type decodedIndex struct {
	once     sync.Once
	idx      *Index
	err      error
	verified bool
}

func (g Git) debugf(format string, a ...any) {
	if g.Debug != nil {
		fmt.Fprintf(g.Debug, "gates: "+format, a...)
	}
}

// IndexFlags lists the index entries under dir with their flags through
// git (git ls-files -s -z --debug).
func (g Git) IndexFlags(dir string) ([]Entry, error) {
	out, err := g.run(dir, "list the index", "ls-files", "-s", "-z", "--debug")
	if err != nil {
		return nil, err
	}
	var entries []Entry
	for len(out) > 0 {
		i := bytes.IndexByte(out, 0)
		if i < 0 {
			return nil, &ListingError{Dir: dir, What: "list the index", Err: fmt.Errorf("unterminated ls-files --debug record")}
		}
		rec := string(out[:i])
		if err := walk.CheckName(rec); err != nil {
			return nil, err
		}
		e, err := parseStageLine(rec)
		if err != nil {
			return nil, &ListingError{Dir: dir, What: "list the index", Err: err}
		}
		out = out[i+1:]
		// Five debug lines follow; the last ends with the flags in hex.
		var last string
		for n := 0; n < 5; n++ {
			j := bytes.IndexByte(out, '\n')
			if j < 0 {
				return nil, &ListingError{Dir: dir, What: "list the index", Err: fmt.Errorf("truncated ls-files --debug record for %q", e.Path)}
			}
			last, out = string(out[:j]), out[j+1:]
		}
		_, hexFlags, ok := strings.Cut(last, "flags: ")
		f, perr := strconv.ParseUint(hexFlags, 16, 32)
		if !ok || perr != nil {
			return nil, &ListingError{Dir: dir, What: "list the index", Err: fmt.Errorf("no flags in ls-files --debug record for %q", e.Path)}
		}
		e.Flags = uint32(f)
		entries = append(entries, e)
	}
	return entries, nil
}

// The verified-index record's place: beside the result cache's tables,
// under a name eviction never lists.
const (
	verifiedDir  = "gates-cache"
	verifiedName = "index-verified"
)

// readIndexRecord answers the verified-index record's content ("" when
// there is none).
func readIndexRecord(p string) string {
	data, err := walk.ReadConfig(p)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(data), "\n")
}

// writeIndexRecord replaces the record, best effort: a record not written
// only costs the next read a checksum.
func writeIndexRecord(dir, rec string) {
	p := walk.Child(dir, verifiedName)
	if readIndexRecord(p) == rec {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	// A record that cannot be written costs the next run a hash, no more.
	_ = walk.ReplaceFile(p, []byte(rec+"\n"))
}
