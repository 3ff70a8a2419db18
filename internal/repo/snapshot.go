package repo

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gate-sdk/gates/internal/memlimit"
	"github.com/gate-sdk/gates/internal/walk"
)

// File modes as the index records them.
const (
	ModeRegular    uint32 = 0o100644
	ModeExecutable uint32 = 0o100755
	ModeSymlink    uint32 = 0o120000
	ModeGitlink    uint32 = 0o160000
)

// The empty blob's id in each object format.
const (
	emptyBlobSHA1   = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
	emptyBlobSHA256 = "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813"
)

// smudged reports whether stat data d is git's mark of a racily clean
// entry: a recorded size of 0 for a blob that is not empty (git writes it
// so when it cannot tell whether the file changed within the timestamp's
// grain, and always compares such an entry's bytes).
func smudged(d *statData, hash string) bool {
	return d.field(9) == 0 && hash != emptyBlobSHA1 && hash != emptyBlobSHA256
}

// CanonMode answers mode as git reads an index entry's mode when it
// builds a tree: a regular file is 100755 when its owner may execute it
// and 100644 otherwise, whatever other permission bits a foreign tool
// wrote (100604, 100744); a link is 120000; anything else of a known type
// keeps its type alone. Every index reader applies it, so no tree reader
// passes over an entry whose mode it does not list (issue 42, item 10).
func CanonMode(mode uint32) uint32 {
	switch mode &^ 0o7777 {
	case 0o100000:
		if mode&0o100 != 0 {
			return ModeExecutable
		}
		return ModeRegular
	case 0o120000:
		return ModeSymlink
	case 0o160000:
		return ModeGitlink
	}
	return mode
}

// Snapshot is the tracked-file view one process builds once and every gate
// shares read-only: the tracked listing under a directory with each path's
// index mode, and each file's bytes read lazily, at most once, and cached.
// All methods are safe for concurrent use.
//
// A work-tree snapshot (the battery's) reads each file from the work tree;
// a staged snapshot (the pre-commit hook's) answers the bytes the index
// records, which are the bytes the commit will hold. Either way a sparse
// checkout's off-disk entry reads its index blob.
//
// Read answers a symlink (mode 120000) as its link target's text, the bytes
// git stores for it, never the file it points at; a gitlink (a submodule,
// mode 160000) is refused. Bytes handed out are shared: callers must not
// modify them.
type Snapshot struct {
	dir   string
	files []string
	// ents holds each listed path's entry at its place in files: the
	// entries the snapshot was built from, shared and never written, when
	// they list each path once in ascending order (an index's do), else
	// its own merged copy. states holds each one's read state. index maps
	// a path to its place only when files is not in ascending order (a
	// listing not read from an index); else a path is found by binary
	// search, and 20,000 paths cost no map and no copy of their entries.
	ents []Entry
	// tab stands for ents when the listing was loaded from the edit
	// overlay's listing memo (loadListingMemo): the entries' modes, flags
	// and binary ids, made into an Entry per lookup; ents is then nil.
	tab    *listingTable
	states []atomic.Pointer[entryState]
	// puts are an edit overlay's entries put over ents when ents is the
	// process's shared decoding of the index (NewEditOverlay): each names
	// its place in ents and stands for the entry there, which is never
	// written. A lookup asks them first; there are as many as edited paths.
	puts []entryPut
	// clean holds, per entry of a work-tree snapshot whose index kept stat
	// data, what the stat test found (see BlobID); nil otherwise, and
	// until arm (run once, by the first BlobID) finds the test usable. It
	// is not in the read state, so a warm run that reads nothing makes none.
	clean   atomic.Pointer[[]atomic.Uint32]
	arm     func()
	armOnce sync.Once
	index   map[string]int
	// near holds the places in files where recent lookups found their
	// paths, nearNext the slot the next search's answer takes (see find).
	near     [4]atomic.Int32
	nearNext atomic.Uint32
	staged   bool
	blobs    *blobStore
	// unresolved are the conflicted paths with no stage 2 (ours).
	unresolved []string
	// budget is the byte bound of kept reads, kept the bytes kept now.
	budget int64
	kept   atomic.Int64
	// claimBudget bounds the bytes kept for claimed readers still to
	// come, claimKept the bytes kept so now (see Claim).
	claimBudget int64
	claimKept   atomic.Int64
	// indexSum names a staged snapshot's index by its checksum; digest is
	// the listing's own digest when it has none (TreeDigest).
	indexSum string
	// overlay, for an edit overlay whose edited paths are all tracked and
	// present (NewEditOverlay), names the index it lies over (its
	// checksum) and the paths put over it; "" otherwise.
	overlayBase string
	overlayPuts []string
	digestOnce  sync.Once
	digest      string
}

// SetByteBudget changes the bound on the bytes the snapshot keeps (see
// ByteBudget); call it before the first Read.
func (s *Snapshot) SetByteBudget(n int64) { s.budget = n }

// entryPut is one entry put over a snapshot's shared entries (see puts).
type entryPut struct {
	at  int
	ent Entry
}

// entry answers the entry at place i: a put one, else ents', else the
// listing memo's.
func (s *Snapshot) entry(i int) Entry {
	for k := range s.puts {
		if s.puts[k].at == i {
			return s.puts[k].ent
		}
	}
	if s.tab != nil {
		return s.tab.entry(i, s.files[i])
	}
	return s.ents[i]
}

// snapEntry is one listed path's entry as a lookup answers it: a view of
// its place in ents and states, made per lookup and never kept.
type snapEntry struct {
	mode  uint32
	flags uint32
	hash  string
	idx   int // position in files

	// st is the entry's read state, made on the first read, claim or
	// stat: a hook that answers from the cache touches few entries, and
	// 20,000 entries without it are a quarter of the memory.
	st *atomic.Pointer[entryState]
	// stat and clean are the entry's recorded stat data and stat-test
	// outcome (nil where the snapshot keeps none).
	stat  *statData
	clean *atomic.Uint32
}

// The stat test's outcomes (Snapshot.clean).
const (
	cleanUntested uint32 = iota
	cleanVouched         // the index's id answered; no byte yet held to it
	cleanVerified        // bytes read hashed to the index's id
	cleanNot             // some field differs: the id comes from the bytes
)

// entryState is what reading one tracked file leaves behind.
type entryState struct {
	// pending counts the claims on this file not yet read (see Claim);
	// claimed marks data as kept for them, under claimBudget.
	pending int32
	claimed bool

	// mu guards the read state: held marks data/err as kept, id the blob
	// id of the first bytes read when they were not kept (or when asked).
	mu   sync.Mutex
	held bool
	data []byte
	err  error
	id   string
	seen bool   // read once already, unkept: sum and size are its check
	sum  uint32 // CRC-32C of the first unkept read
	size int

	statOnce sync.Once
	present  bool
}

// state answers e's read state, making it on first need.
func (e snapEntry) state() *entryState {
	if st := e.st.Load(); st != nil {
		return st
	}
	e.st.CompareAndSwap(nil, &entryState{})
	return e.st.Load()
}

// ByteBudget bounds the file bytes a snapshot keeps for later readers.
// Past it a file's bytes are handed out and not kept; a later reader reads
// them again, and a re-read that differs from the first read is refused.
const ByteBudget = 16 << 20

// ClaimBudget bounds the bytes a snapshot keeps for claimed readers that
// have not read them yet; past it a claimed file is handed out unkept and
// its later claimant reads it again (see Claim).
const ClaimBudget = 16 << 20

// NewSnapshot lists the index under dir (decoded in process, see Index) and
// answers the work-tree snapshot; names are relative to dir and scoped to
// it.
func NewSnapshot(dir string) (*Snapshot, error) { return Git{}.NewSnapshot(dir) }

// NewSnapshot is the package-level NewSnapshot under g's environment.
func (g Git) NewSnapshot(dir string) (*Snapshot, error) {
	entries, blobs, _, err := g.snapshotIndex(dir, true)
	if err != nil {
		return nil, err
	}
	// assertion O: an intent-to-add entry (`git add -N`) is a promise, not
	// a tracked file: a commit made now leaves it out, so no gate may count
	// it as tracked, in the work tree any more than at commit time.
	kept := keepEntries(entries, func(e Entry) bool { return !e.IntentToAdd() })
	s := SnapshotOf(dir, kept)
	s.blobs = blobs
	for _, e := range s.ents {
		if e.stat != nil {
			// Asked on the first id wanted, not here: a run that wants
			// none (cache off, a listing arm) pays no git config and no
			// directory probes.
			s.arm = func() {
				// assertion T: only where no attribute or setting can
				// have made a work-tree file's bytes differ from its blob's.
				if !g.mayConvert(s, blobs.src.CommonDir) {
					c := make([]atomic.Uint32, len(s.ents))
					s.clean.Store(&c)
				}
			}
			break
		}
	}
	return s, nil
}

// snapshotIndex reads dir's index and opens (lazily) the store of the
// blobs it names; stat keeps the entries' recorded stat data (a work-tree
// snapshot's stat test).
func (g Git) snapshotIndex(dir string, stat bool) ([]Entry, *blobStore, string, error) {
	return g.snapshotIndexAs(dir, stat, false)
}

// snapshotIndexAs is snapshotIndex leaving the ids in binary when
// binaryIDs is set (see parseIndexAs).
func (g Git) snapshotIndexAs(dir string, stat, binaryIDs bool) ([]Entry, *blobStore, string, error) {
	src, err := g.LocateIndex(dir)
	if err != nil {
		return nil, nil, "", err
	}
	entries, sum, err := g.indexAtAs(dir, src, stat, binaryIDs)
	if err != nil {
		return nil, nil, "", err
	}
	if sum != "" {
		// The checksum names the index's whole content; the scoping
		// prefix names which part of it this snapshot lists.
		sum = "index " + sum + " prefix " + src.Prefix
	}
	return entries, newBlobStore(g, dir, src), sum, nil
}

// StagedSnapshot is the snapshot of what a commit made now would hold: the
// index under dir, each file's bytes its staged blob. An intent-to-add
// entry is left out (the commit leaves it out); a conflicted path is its
// stage 2 (ours), and one with no stage 2 is listed by Unresolved.
func (g Git) StagedSnapshot(dir string) (*Snapshot, error) {
	entries, blobs, sum, err := g.snapshotIndex(dir, false)
	if err != nil {
		return nil, err
	}
	// assertion G: the committed view of the index.
	ours := map[string]bool{}
	for _, e := range entries {
		if e.Stage == 2 {
			ours[e.Path] = true
		}
	}
	var unresolved []string
	kept := keepEntries(entries, func(e Entry) bool {
		switch {
		case e.IntentToAdd():
		case e.Stage == 0 || e.Stage == 2:
			return true
		case !ours[e.Path] && (len(unresolved) == 0 || unresolved[len(unresolved)-1] != e.Path):
			unresolved = append(unresolved, e.Path)
		}
		return false
	})
	s := SnapshotOf(dir, kept)
	s.unresolved = unresolved
	s.staged = true
	s.blobs = blobs
	s.indexSum = sum
	return s, nil
}

// keepEntries answers the entries keep admits, asking it once per entry
// in order. entries is never written (it may be the process's shared
// decoding of the index): it is answered itself when every entry is
// admitted, the usual case, else a new slice holds the admitted ones.
func keepEntries(entries []Entry, keep func(Entry) bool) []Entry {
	for i, e := range entries {
		if keep(e) {
			continue
		}
		out := make([]Entry, i, len(entries)-1)
		copy(out, entries[:i])
		for _, e := range entries[i+1:] {
			if keep(e) {
				out = append(out, e)
			}
		}
		return out
	}
	return entries
}

// TreeDigest answers, for a staged snapshot, one digest naming every
// listed path with its mode and blob id: the index file's own checksum
// (with the scoping prefix) when it carries one, a commit's tree id when
// the snapshot is that tree read from the index, else a SHA-256 over the
// listing, computed once. A work-tree snapshot offers none (its ids come
// from reading each file).
func (s *Snapshot) TreeDigest() (string, bool) {
	// assertion N: one digest for the staged listing; none for the work tree.
	if !s.staged {
		return "", false
	}
	if s.indexSum != "" {
		return s.indexSum, true
	}
	s.digestOnce.Do(func() {
		h := sha256.New()
		var buf []byte
		for i, p := range s.files {
			e := s.entry(i)
			buf = binary.AppendUvarint(buf[:0], uint64(len(p)))
			buf = append(buf, p...)
			buf = binary.BigEndian.AppendUint32(buf, e.Mode)
			buf = append(buf, e.id()...)
			h.Write(buf)
		}
		s.digest = "listing " + hex.EncodeToString(h.Sum(nil))
	})
	return s.digest, true
}

// SnapshotOf builds a work-tree snapshot from index entries already read
// (relative to dir). A path in conflict is its stage 2 (ours) when it has
// one, else its first stage. The snapshot may keep entries itself (when it
// lists each path once in ascending order): the caller must not modify
// them afterwards.
func SnapshotOf(dir string, entries []Entry) *Snapshot {
	s := &Snapshot{dir: dir, budget: ByteBudget, claimBudget: ClaimBudget, files: make([]string, 0, len(entries))}
	stage2 := func(have *Entry, e Entry) {
		if e.Stage == 2 {
			have.Mode, have.Hash, have.raw, have.Flags = e.Mode, e.Hash, e.raw, e.Flags
		}
	}
	// assertion S: an index's entries come sorted by path (a path's
	// stages side by side), so the listing is in ascending order and
	// needs no map to find a path in; when each path is listed once (a
	// staged snapshot's, a tree with no conflict) the entries themselves
	// are the snapshot's, uncopied.
	ascending, once := true, true
	for i := 1; i < len(entries) && ascending; i++ {
		c := strings.Compare(entries[i-1].Path, entries[i].Path)
		ascending, once = c <= 0, once && c != 0
	}
	switch {
	case ascending && once:
		s.ents = entries
		for _, e := range entries {
			s.files = append(s.files, e.Path)
		}
	case ascending:
		// A path's stages side by side: the first is kept, stage 2's
		// mode, id and flags put over it.
		ents := make([]Entry, 0, len(entries))
		for i, e := range entries {
			if i > 0 && entries[i-1].Path == e.Path {
				stage2(&ents[len(ents)-1], e)
				continue
			}
			ents = append(ents, e)
			s.files = append(s.files, e.Path)
		}
		s.ents = ents
	default:
		ents := make([]Entry, 0, len(entries))
		s.index = make(map[string]int, len(entries))
		for _, e := range entries {
			if j, ok := s.index[e.Path]; ok {
				stage2(&ents[j], e)
				continue
			}
			s.index[e.Path] = len(ents)
			ents = append(ents, e)
			s.files = append(s.files, e.Path)
		}
		s.ents = ents
	}
	// One allocation for every entry's state pointer, the states made on
	// first need.
	s.states = make([]atomic.Pointer[entryState], len(s.ents))
	// The process's soft memory limit keeps pace with the listing (a no-op
	// unless the binary armed it).
	memlimit.Fit(len(s.files))
	return s
}

// find answers path's place in files.
func (s *Snapshot) find(path string) (int, bool) {
	if s.index != nil {
		i, ok := s.index[path]
		return i, ok
	}
	// assertion S: a scan asks for the listing's paths in its order, a few
	// scans at once (the gates of one run, a rule's workers): each slot
	// holds where one of them was last found, and a path at or just past
	// a slot's place is found without a search. Any other path is
	// searched for, and takes a slot in turn.
	n := len(s.files)
	for k := range s.near {
		h := int(s.near[k].Load())
		for j := h; j < h+3 && j < n; j++ {
			if s.files[j] == path {
				if j != h {
					s.near[k].Store(int32(j))
				}
				return j, true
			}
		}
	}
	i, ok := slices.BinarySearch(s.files, path)
	if ok {
		s.near[s.nearNext.Add(1)%uint32(len(s.near))].Store(int32(i))
	}
	return i, ok
}

// lookup answers path's entry.
func (s *Snapshot) lookup(path string) (snapEntry, bool) {
	i, ok := s.find(path)
	if !ok {
		return snapEntry{}, false
	}
	e := s.entry(i)
	se := snapEntry{mode: e.Mode, flags: e.Flags, hash: e.id(), idx: i, st: &s.states[i], stat: e.stat}
	// The stat test's outcome only once it is armed; the recorded size
	// serves a read either way.
	if c := s.clean.Load(); c != nil && e.stat != nil {
		se.clean = &(*c)[i]
	}
	return se, true
}

// Staged reports whether the snapshot's bytes are the index's.
func (s *Snapshot) Staged() bool { return s.staged }

// Unresolved answers the conflicted paths a staged snapshot cannot judge:
// they have no stage 2 (ours).
func (s *Snapshot) Unresolved() []string { return append([]string(nil), s.unresolved...) }

// Dir is the directory the snapshot's names are relative to.
func (s *Snapshot) Dir() string { return s.dir }

// Files answers the tracked paths in index order. The slice is the
// snapshot's own, shared by every caller: callers must not modify it (an
// append makes a new one). A listing not in ascending order (one not
// read from an index) is answered as a fresh slice, so a caller that
// sorts what it is given writes only its own.
func (s *Snapshot) Files() []string {
	// assertion S: the index-ordered listing is handed out, not copied.
	if s.index != nil {
		return append([]string(nil), s.files...)
	}
	return s.files[:len(s.files):len(s.files)]
}

// Len is the number of tracked paths.
func (s *Snapshot) Len() int { return len(s.files) }

// Has reports whether path is tracked.
func (s *Snapshot) Has(path string) bool {
	_, ok := s.find(path)
	return ok
}

// Mode answers path's index mode, false when untracked.
func (s *Snapshot) Mode(path string) (uint32, bool) {
	i, ok := s.find(path)
	if !ok {
		return 0, false
	}
	return s.entry(i).Mode, true
}

// Exists reports whether path is tracked and present in the work tree (a
// dangling symlink counts as present: it is the link that is tracked); in
// a staged snapshot every listed path is present.
func (s *Snapshot) Exists(path string) bool {
	e, ok := s.lookup(path)
	if !ok {
		return false
	}
	if s.staged {
		// What the commit holds is present whatever the work tree says.
		return true
	}
	st := e.state()
	st.statOnce.Do(func() {
		_, err := os.Lstat(walk.Child(s.dir, path))
		st.present = err == nil
	})
	return st.present
}

// Read answers path's bytes, reading them at most once per snapshot: the
// work-tree file's for a work-tree snapshot, the staged blob's for a staged
// one. An untracked path is refused; in a work-tree snapshot a tracked file
// missing from the work tree answers an error wrapping fs.ErrNotExist,
// unless the entry is outside a sparse checkout, which reads its blob.
func (s *Snapshot) Read(path string) ([]byte, error) {
	e, ok := s.lookup(path)
	if !ok {
		return nil, fmt.Errorf("%s: not tracked", path)
	}
	st := e.state()
	st.mu.Lock()
	defer st.mu.Unlock()
	return s.readLocked(path, e, st)
}

// readLocked is Read with st.mu held (st is e's state).
func (s *Snapshot) readLocked(path string, e snapEntry, st *entryState) ([]byte, error) {
	if st.held {
		if st.err == nil {
			if err := s.holdToIndex(path, e, st.data); err != nil {
				return nil, err
			}
		}
		return st.data, st.err
	}
	data, err := s.load(path, e)
	if err == nil {
		if err := s.holdToIndex(path, e, data); err != nil {
			return nil, err
		}
	}
	if err == nil && s.rereadable() && st.seen {
		// The check is a CRC-32C and the length, not the blob hash: a
		// re-read only guards against a file edited during the run, and
		// the checksum costs a fraction of SHA-1 on every reader past the
		// budget.
		if crc32.Checksum(data, castagnoli) != st.sum || len(data) != st.size {
			// assertion K: a re-read never hands two readers different bytes.
			return nil, fmt.Errorf("%s: changed in the work tree while this run read it", path)
		}
	}
	// assertion M: bytes a claimed reader has still to read are kept for
	// it, within the claim budget, whatever the byte budget holds.
	if err == nil && st.pending > 0 && s.keepClaimed(len(data)) {
		st.held, st.claimed, st.data = true, true, data
		return data, nil
	}
	// assertion F: each file's bytes are read at most once while the
	// kept bytes stay within the budget.
	// assertion K: past it, bytes are handed out unkept, freed once their
	// last reader lets them go.
	if err != nil || s.keep(len(data)) {
		st.held, st.data, st.err = true, data, err
		return data, err
	}
	s.remember(st, data)
	return data, nil
}

// holdToIndex checks bytes about to be handed out against the index's id
// when the stat test vouched for it and no bytes were checked yet.
func (s *Snapshot) holdToIndex(path string, e snapEntry, data []byte) error {
	if e.clean == nil || e.clean.Load() != cleanVouched {
		return nil
	}
	// assertion U: bytes read after the stat data vouched for the index's
	// id are held to that id, so no reader judges other bytes than the
	// ones the id names.
	if !s.blobs.matches(e.hash, data) {
		return fmt.Errorf("%s: changed in the work tree while this run read it", path)
	}
	e.clean.Store(cleanVerified)
	return nil
}

// rereadable reports whether a second read of a file may see other bytes
// than the first: a work-tree read may (the file can be edited mid-run), a
// staged one is an immutable blob.
func (s *Snapshot) rereadable() bool { return !s.staged && s.blobs != nil }

// remember records the checksum of the first bytes handed out unkept, the
// bytes every later read of the file is held to (st.mu held).
func (s *Snapshot) remember(st *entryState, data []byte) {
	if s.rereadable() && !st.seen {
		st.seen, st.sum, st.size = true, crc32.Checksum(data, castagnoli), len(data)
	}
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// keep reserves n bytes of the budget, reporting whether they fit.
func (s *Snapshot) keep(n int) bool {
	if s.kept.Add(int64(n)) <= s.budget {
		return true
	}
	s.kept.Add(-int64(n))
	return false
}

// keepClaimed reserves n bytes of the claim budget, reporting whether
// they fit.
func (s *Snapshot) keepClaimed(n int) bool {
	if s.claimKept.Add(int64(n)) <= s.claimBudget {
		return true
	}
	s.claimKept.Add(-int64(n))
	return false
}

// Claim is one reader's registration of the files it is about to read,
// made before it reads any: while a file has a claim outstanding its
// bytes are kept (within ClaimBudget) for that claimant, and when its
// last claim is read or dropped the bytes kept for claims are let go, so
// a scan of the whole tree by several readers reads each file once and
// holds only the files some claimant has still to read. A Claim is safe
// for concurrent use; its reads are the snapshot's (shared bytes, not to
// be modified).
type Claim struct {
	s *Snapshot
	// out marks, by entry index, the files claimed and not yet read or
	// dropped; an element is only touched under its entry's lock.
	out []bool
	// left counts the outstanding claims, so Done is cheap when none is.
	left atomic.Int64
}

// SetClaimBudget changes the bound on the bytes kept for claims (see
// ClaimBudget); call it before the first Read.
func (s *Snapshot) SetClaimBudget(n int64) { s.claimBudget = n }

// Claim registers one future read of each tracked path in paths (an
// untracked one is ignored, a repeated one counted once). Read each
// through the answered Claim, and call Done when the scan ends.
func (s *Snapshot) Claim(paths []string) *Claim {
	c := &Claim{s: s, out: make([]bool, len(s.files))}
	for _, p := range paths {
		e, ok := s.lookup(p)
		if !ok || c.out[e.idx] {
			continue
		}
		c.out[e.idx] = true
		c.left.Add(1)
		st := e.state()
		st.mu.Lock()
		st.pending++
		st.mu.Unlock()
	}
	return c
}

// Read is the snapshot's Read, ending this claim on path.
func (c *Claim) Read(path string) ([]byte, error) {
	e, ok := c.s.lookup(path)
	if !ok {
		return c.s.Read(path)
	}
	st := e.state()
	st.mu.Lock()
	defer st.mu.Unlock()
	mine := c.take(e, st)
	data, err := c.s.readLocked(path, e, st)
	if mine {
		c.s.settle(st)
	}
	return data, err
}

// Drop ends this claim on path without reading it (a reader that found
// it needs no bytes after all).
func (c *Claim) Drop(path string) {
	e, ok := c.s.lookup(path)
	if !ok {
		return
	}
	st := e.state()
	st.mu.Lock()
	defer st.mu.Unlock()
	if c.take(e, st) {
		c.s.settle(st)
	}
}

// Done drops every claim still outstanding; the Claim is spent.
func (c *Claim) Done() {
	for _, p := range c.s.files {
		if c.left.Load() == 0 {
			return
		}
		c.Drop(p)
	}
}

// take ends this claim on e (st, its state, locked), reporting whether
// it was open.
func (c *Claim) take(e snapEntry, st *entryState) bool {
	if !c.out[e.idx] {
		return false
	}
	c.out[e.idx] = false
	c.left.Add(-1)
	st.pending--
	return true
}

// settle lets go of bytes kept for claims once none is outstanding (st.mu
// held). A later reader reads again, held to these bytes as any re-read
// past the budget is.
func (s *Snapshot) settle(st *entryState) {
	if st.pending > 0 || !st.claimed {
		return
	}
	// assertion M: the last claim read, the claimed bytes are released.
	data := st.data
	st.held, st.claimed, st.data = false, false, nil
	s.claimKept.Add(-int64(len(data)))
	s.remember(st, data)
}

func (s *Snapshot) load(path string, e snapEntry) ([]byte, error) {
	if e.mode == ModeGitlink {
		return nil, fmt.Errorf("%s: a submodule has no file bytes", path)
	}
	hint := -1
	if e.stat != nil {
		hint = int(e.stat.field(9)) // the recorded size, its low 32 bits
	}
	data, err := s.workTree(path, e.mode, hint)
	if s.staged {
		// assertion I: the staged bytes: the work-tree file when it hashes
		// to the staged blob id, else the blob itself.
		if err == nil && s.blobs.matches(e.hash, data) {
			return data, nil
		}
		return s.blobs.read(path, e.hash)
	}
	if err != nil && errors.Is(err, fs.ErrNotExist) && e.flags&FlagSkipWorktree != 0 && s.blobs != nil {
		// assertion I: an off-disk sparse entry is judged from its blob.
		return s.blobs.read(path, e.hash)
	}
	return data, err
}

// FromBlob reports whether Read answers path from its blob when the work
// tree lacks the file: any listed file of a staged snapshot, and a
// skip-worktree (sparse) entry of a work-tree one. A submodule or a
// symbolic link is never read that way.
func (s *Snapshot) FromBlob(path string) bool {
	e, ok := s.lookup(path)
	if !ok || s.blobs == nil || e.mode == ModeGitlink || e.mode == 0o120000 {
		return false
	}
	return s.staged || e.flags&FlagSkipWorktree != 0
}

// ModeAndBlob answers Mode's mode and BlobID's id and ok for path, from
// one lookup when the snapshot is staged.
func (s *Snapshot) ModeAndBlob(path string) (uint32, string, bool) {
	if !s.staged {
		m, _ := s.Mode(path)
		id, ok := s.BlobID(path)
		return m, id, ok
	}
	e, ok := s.lookup(path)
	if !ok {
		return 0, "", false
	}
	if e.mode == ModeGitlink {
		return e.mode, "", false
	}
	return e.mode, e.hash, e.hash != ""
}

// BlobID answers the blob id of the bytes Read answers for path, when the
// snapshot can vouch for them: in a staged snapshot the index's id (Read
// serves exactly that blob's bytes), in a work-tree snapshot the id of the
// bytes read, hashed as git hashes a blob, never the index's id, which the
// work-tree file may no longer match. false for an untracked path, a
// gitlink, or bytes that could not be read.
func (s *Snapshot) BlobID(path string) (string, bool) {
	if s.arm != nil {
		s.armOnce.Do(s.arm)
	}
	e, ok := s.lookup(path)
	if !ok || e.mode == ModeGitlink {
		return "", false
	}
	if s.staged {
		// assertion L: the index's id is exactly the judged content.
		return e.hash, e.hash != ""
	}
	if s.blobs == nil {
		return "", false
	}
	if e.clean != nil && e.hash != "" {
		if e.clean.Load() == cleanUntested {
			outcome := cleanNot
			// An entry git smudged as racily clean (its size cut to 0, its
			// blob not the empty one) is one git always reads; so is it here.
			if !smudged(e.stat, e.hash) && statClean(walk.Child(s.dir, path), e.stat, e.mode) {
				outcome = cleanVouched
			}
			e.clean.CompareAndSwap(cleanUntested, outcome)
		}
		if c := e.clean.Load(); c == cleanVouched || c == cleanVerified {
			// assertion T: a file git would call clean is named by the
			// index's id without a read; any bytes handed out after are
			// held to it (U), those held before included.
			return e.hash, true
		}
	}
	st := e.state()
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.id == "" {
		// readLocked holds a re-read to the first read, so the id names
		// the bytes every reader of this run sees.
		data, err := s.readLocked(path, e, st)
		if err != nil {
			return "", false
		}
		// assertion L: a work-tree file's id is its bytes' hash.
		st.id = s.blobs.hashOf(data)
	}
	return st.id, true
}

// CommonDir is the repository's common git directory (where its objects
// are), "" when the snapshot was built from entries alone.
func (s *Snapshot) CommonDir() string {
	if s.blobs == nil {
		return ""
	}
	return s.blobs.src.CommonDir
}

// workTree reads path's work-tree bytes as git would store them.
// hint is the size the index recorded (-1 for none).
func (s *Snapshot) workTree(path string, mode uint32, hint int) ([]byte, error) {
	full := walk.Child(s.dir, path)
	if mode == ModeSymlink {
		fi, err := os.Lstat(full)
		if err != nil {
			return nil, readErr(path, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(full)
			if err != nil {
				return nil, readErr(path, err)
			}
			return []byte(target), nil
		}
		// core.symlinks=false checks a link out as a file holding its
		// target's text: the same bytes.
	}
	data, err := readFileSized(full, hint)
	if err != nil {
		return nil, readErr(path, err)
	}
	return data, nil
}

func readErr(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: tracked but missing from the work tree: %w", path, fs.ErrNotExist)
	}
	return fmt.Errorf("could not read %s: %w", path, err)
}

// EditOverlay answers, for an edit overlay (NewEditOverlay) whose edited
// paths are all tracked and present, the checksum of the index it lies
// over and the paths put over it, in byte order: two such overlays of one
// index differ only in the bytes of the union of their paths, under the
// index's modes. ok is false for any other snapshot.
func (s *Snapshot) EditOverlay() (index string, puts []string, ok bool) {
	if s.overlayBase == "" {
		return "", nil, false
	}
	return s.overlayBase, append([]string(nil), s.overlayPuts...), true
}

// PathsDigest names the paths the snapshot lists, apart from their modes
// and bytes (gate.PathsDigests): for an edit overlay whose edited paths
// are all tracked and present (EditOverlay), "paths " and the index's
// checksum and scoping prefix, which name the paths the index lists and
// so the overlay's. ok false for any other snapshot.
func (s *Snapshot) PathsDigest() (string, bool) {
	if !s.staged || s.overlayBase == "" {
		return "", false
	}
	return "paths " + s.overlayBase, true
}
