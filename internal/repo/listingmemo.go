package repo

import (
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gate-sdk/gates/internal/fmap"
	"github.com/gate-sdk/gates/internal/memlimit"
	"github.com/gate-sdk/gates/internal/walk"
)

// The edit overlay's listing memo (SPEC §edit-gates H). An Edit judged
// over the overlay needs the index's listing (every path, its mode, flags
// and id) and nothing else of the index; decoding 20,000 entries into
// Entry values on every Edit was the largest part of an Edit's cost. The
// memo keeps that listing in one file laid out as the snapshot reads it:
// one mapping, no decode, no Entry per path. It is written by an Edit that
// decoded the index, and read only while the index file is the very file
// it was made from (its stat stamp and its trailer).

// listingMemoName is the memo's file, beside the verified-index record
// under a name the result cache's eviction never lists.
const listingMemoName = "index-listing"

// listingMemoMagic opens a memo; a memo of another layout is not read.
const listingMemoMagic = "gates index listing 1\n"

// listingTable is a snapshot's entries as the memo holds them: per entry
// its mode and flags (meta, 8 bytes, big-endian) and its binary id (ids,
// hashLen bytes); the path is the snapshot's own listing.
type listingTable struct {
	meta    []byte
	ids     string
	hashLen int
}

// entry answers the entry at place i, whose path is path.
func (t *listingTable) entry(i int, path string) Entry {
	m := t.meta[8*i : 8*i+8]
	return Entry{
		Path:  path,
		Mode:  binary.BigEndian.Uint32(m),
		Flags: binary.BigEndian.Uint32(m[4:]),
		raw:   t.ids[i*t.hashLen : (i+1)*t.hashLen],
	}
}

// listingMemoKey names the index file the memo stands for: its path, its
// stat stamp, the object format and its trailer (the checksum git wrote
// over its bytes). "" when the file is not stable while read, has no
// stamp on this platform, or carries no checksum (index.skipHash). held
// reports whether this process already holds a decoding of that very
// file (see decoded), which an overlay then shares instead of the memo.
func listingMemoKey(src IndexSource) (key string, held bool) {
	before, _, ok := indexStamp(src.File)
	if !ok || src.HashLen <= 0 {
		return "", false
	}
	trailer, ok := readTrailer(src.File, src.HashLen)
	if !ok {
		return "", false
	}
	if after, _, ok := indexStamp(src.File); !ok || after != before {
		return "", false
	}
	decoded.Lock()
	_, held = decoded.m[src.File+"\x00"+before+"\x00"+strconv.Itoa(src.HashLen)+"\x00"+trailer+"\x00false\x00true"]
	decoded.Unlock()
	return src.File + "\x00" + before + "\x00" + strconv.Itoa(src.HashLen) + "\x00" + src.Prefix + "\x00" + hex.EncodeToString([]byte(trailer)), held
}

// memoTrailer answers the trailer's hex a memo key ends with.
func memoTrailer(key string) string { return key[strings.LastIndexByte(key, 0)+1:] }

// encodeListingMemo lays out entries (the whole index, each at stage 0,
// every id in binary) under key; false when an entry does not fit the
// layout (no binary id, or an id of another length).
func encodeListingMemo(key string, entries []Entry, hashLen int) ([]byte, bool) {
	names := 0
	for i := range entries {
		if len(entries[i].raw) != hashLen || entries[i].Hash != "" || entries[i].Stage != 0 {
			return nil, false
		}
		names += len(entries[i].Path)
	}
	n := len(entries)
	size := len(listingMemoMagic) + binary.MaxVarintLen64 + len(key) + 8 + n*(4+8+hashLen) + names + 4
	out := make([]byte, 0, size)
	out = append(out, listingMemoMagic...)
	out = binary.AppendUvarint(out, uint64(len(key)))
	out = append(out, key...)
	out = binary.BigEndian.AppendUint32(out, uint32(n))
	out = binary.BigEndian.AppendUint32(out, uint32(names))
	end := 0
	for i := range entries {
		end += len(entries[i].Path)
		out = binary.BigEndian.AppendUint32(out, uint32(end))
	}
	for i := range entries {
		out = binary.BigEndian.AppendUint32(out, entries[i].Mode)
		out = binary.BigEndian.AppendUint32(out, entries[i].Flags)
	}
	for i := range entries {
		out = append(out, entries[i].raw...)
	}
	for i := range entries {
		out = append(out, entries[i].Path...)
	}
	return binary.BigEndian.AppendUint32(out, crc32.Checksum(out, castagnoli)), true
}

// listingCheckedExt names the record beside the memo of the memo file
// last checked whole; listingCheckedAge is how much older than now the
// file's modification and change times must be before it is recorded (a
// file written again in place within its time stamps' grain would show
// the same identity; a variable so a test need not wait it out).
const listingCheckedExt = ".ok"

var listingCheckedAge = 2 * time.Second

// decodeListingMemo answers the listing data holds when it is a whole
// memo made under key: the paths (made over data's bytes, which they keep)
// and the table of their entries. Any other content (another key, another
// layout, a length that does not add up, a checksum that fails when
// checkSum asks it checked) answers false: the memo is then not used.
func decodeListingMemo(data []byte, key string, hashLen int, checkSum bool) ([]string, *listingTable, bool) {
	if len(data) < len(listingMemoMagic)+4 || string(data[:len(listingMemoMagic)]) != listingMemoMagic {
		return nil, nil, false
	}
	body, sum := data[:len(data)-4], binary.BigEndian.Uint32(data[len(data)-4:])
	rest := body[len(listingMemoMagic):]
	kl, k := binary.Uvarint(rest)
	if k <= 0 || kl > uint64(len(rest)-k) || string(rest[k:k+int(kl)]) != key {
		return nil, nil, false
	}
	rest = rest[k+int(kl):]
	if len(rest) < 8 {
		return nil, nil, false
	}
	n, names := uint64(binary.BigEndian.Uint32(rest)), uint64(binary.BigEndian.Uint32(rest[4:]))
	rest = rest[8:]
	if n*uint64(4+8+hashLen)+names != uint64(len(rest)) {
		return nil, nil, false
	}
	// The checksum last of the cheap tests: a memo of another index is
	// refused by its key without it.
	if checkSum && crc32.Checksum(body, castagnoli) != sum {
		return nil, nil, false
	}
	ends := rest[:4*n]
	meta := rest[4*n : 12*n]
	ids := rest[12*n : 12*n+n*uint64(hashLen)]
	blob := rest[12*n+n*uint64(hashLen):]
	files := make([]string, n)
	start := uint64(0)
	for i := range files {
		end := uint64(binary.BigEndian.Uint32(ends[4*i:]))
		if end <= start || end > names {
			return nil, nil, false
		}
		files[i] = unsafe.String(&blob[start], int(end-start))
		start = end
	}
	if start != names {
		return nil, nil, false
	}
	var idStr string
	if len(ids) > 0 {
		idStr = unsafe.String(&ids[0], len(ids))
	}
	return files, &listingTable{meta: meta, ids: idStr, hashLen: hashLen}, true
}

// loadListingMemo answers the snapshot of the index src names from the
// memo in commonDir, false when there is no memo made from this very
// index file. The snapshot lists every path at stage 0 with its mode,
// flags and binary id, as SnapshotOf over the decoded entries would.
func loadListingMemo(dir string, src IndexSource, key string) (*Snapshot, bool) {
	if key == "" || src.CommonDir == "" {
		return nil, false
	}
	// The memo is mapped and the mapping kept for the process: the
	// listing's paths and the table are slices of it, so its pages are the
	// page cache's, never copied. Safe as the result cache's tables are
	// (SPEC §The result cache N): the memo is only ever replaced by a
	// rename, never cut short in place; a memo another program cuts short
	// while it is mapped faults on its lost pages and ends the run with
	// the runtime's exit 2, never a verdict. A fault while it is checked
	// here only refuses the memo.
	name := walk.Child(walk.Child(src.CommonDir, verifiedDir), listingMemoName)
	data, release, stamp, err := fmap.MapStamp(name)
	if err != nil {
		return nil, false
	}
	// A memo file whose identity (read from the descriptor it was mapped
	// from), checksum and key a record names as checked whole is not
	// checked again: its pages stay untouched but for the ones read.
	rec := ""
	if stamp != "" && len(data) >= 4 {
		rec = stamp + "\x00" + hex.EncodeToString(data[len(data)-4:]) + "\x00" + key
	}
	trusted := rec != "" && readIndexRecord(name+listingCheckedExt) == rec
	var files []string
	var tab *listingTable
	ok := false
	if ferr := faultGuard(func() { files, tab, ok = decodeListingMemo(data, key, src.HashLen, !trusted) }); ferr != nil || !ok {
		release()
		return nil, false
	}
	if !trusted && rec != "" && fmap.StampBefore(stamp, time.Now().Add(-listingCheckedAge)) {
		// Best effort: a record not written costs the next load the
		// checksum, no more.
		_ = walk.ReplaceFile(name+listingCheckedExt, []byte(rec+"\n"))
	}
	s := &Snapshot{dir: dir, budget: ByteBudget, claimBudget: ClaimBudget, files: files, tab: tab}
	s.states = make([]atomic.Pointer[entryState], len(files))
	memlimit.Fit(len(files))
	return s, true
}

// writeListingMemo replaces the memo with entries' listing under key,
// best effort: a memo not written only costs the next Edit a decode.
func writeListingMemo(src IndexSource, key string, entries []Entry) {
	if key == "" || src.CommonDir == "" {
		return
	}
	data, ok := encodeListingMemo(key, entries, src.HashLen)
	if !ok {
		return
	}
	dir := walk.Child(src.CommonDir, verifiedDir)
	p := walk.Child(dir, listingMemoName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	_ = walk.ReplaceFile(p, data)
}
