package repo

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"

	"github.com/gate-sdk/gates/internal/walk"
)

// File modes as the index records them.
const (
	ModeRegular    uint32 = 0o100644
	ModeExecutable uint32 = 0o100755
	ModeSymlink    uint32 = 0o120000
	ModeGitlink    uint32 = 0o160000
)

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
	dir     string
	files   []string
	entries map[string]*snapEntry
	staged  bool
	blobs   *blobStore
	// unresolved are the conflicted paths with no stage 2 (ours).
	unresolved []string
	// budget is the byte bound of kept reads, kept the bytes kept now.
	budget int64
	kept   atomic.Int64
	// claimBudget bounds the bytes kept for claimed readers still to
	// come, claimKept the bytes kept so now (see Claim).
	claimBudget int64
	claimKept   atomic.Int64
}

// SetByteBudget changes the bound on the bytes the snapshot keeps (see
// ByteBudget); call it before the first Read.
func (s *Snapshot) SetByteBudget(n int64) { s.budget = n }

type snapEntry struct {
	mode  uint32
	hash  string
	flags uint32
	idx   int // position in files

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
	entries, blobs, err := g.snapshotIndex(dir)
	if err != nil {
		return nil, err
	}
	s := SnapshotOf(dir, entries)
	s.blobs = blobs
	return s, nil
}

// snapshotIndex reads dir's index and opens (lazily) the store of the
// blobs it names.
func (g Git) snapshotIndex(dir string) ([]Entry, *blobStore, error) {
	src, err := g.LocateIndex(dir)
	if err != nil {
		return nil, nil, err
	}
	entries, err := g.indexAt(dir, src)
	if err != nil {
		return nil, nil, err
	}
	return entries, newBlobStore(g, dir, src), nil
}

// StagedSnapshot is the snapshot of what a commit made now would hold: the
// index under dir, each file's bytes its staged blob. An intent-to-add
// entry is left out (the commit leaves it out); a conflicted path is its
// stage 2 (ours), and one with no stage 2 is listed by Unresolved.
func (g Git) StagedSnapshot(dir string) (*Snapshot, error) {
	entries, blobs, err := g.snapshotIndex(dir)
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
	kept := entries[:0] // filtered in place: entries is this call's own
	var unresolved []string
	for _, e := range entries {
		switch {
		case e.IntentToAdd():
		case e.Stage == 0 || e.Stage == 2:
			kept = append(kept, e)
		case !ours[e.Path] && (len(unresolved) == 0 || unresolved[len(unresolved)-1] != e.Path):
			unresolved = append(unresolved, e.Path)
		}
	}
	s := SnapshotOf(dir, kept)
	s.unresolved = unresolved
	s.staged = true
	s.blobs = blobs
	return s, nil
}

// SnapshotOf builds a work-tree snapshot from index entries already read
// (relative to dir). A path in conflict is its stage 2 (ours) when it has
// one, else its first stage.
func SnapshotOf(dir string, entries []Entry) *Snapshot {
	s := &Snapshot{dir: dir, budget: ByteBudget, claimBudget: ClaimBudget, entries: make(map[string]*snapEntry, len(entries)), files: make([]string, 0, len(entries))}
	// One allocation for every entry's state, not one per entry.
	slab := make([]snapEntry, len(entries))
	for _, e := range entries {
		if have, dup := s.entries[e.Path]; dup {
			if e.Stage == 2 {
				have.mode, have.hash, have.flags = e.Mode, e.Hash, e.Flags
			}
			continue
		}
		se := &slab[len(s.files)]
		se.mode, se.hash, se.flags, se.idx = e.Mode, e.Hash, e.Flags, len(s.files)
		s.entries[e.Path] = se
		s.files = append(s.files, e.Path)
	}
	return s
}

// Staged reports whether the snapshot's bytes are the index's.
func (s *Snapshot) Staged() bool { return s.staged }

// Unresolved answers the conflicted paths a staged snapshot cannot judge:
// they have no stage 2 (ours).
func (s *Snapshot) Unresolved() []string { return append([]string(nil), s.unresolved...) }

// Dir is the directory the snapshot's names are relative to.
func (s *Snapshot) Dir() string { return s.dir }

// Files answers the tracked paths in index order (a fresh slice).
func (s *Snapshot) Files() []string { return append([]string(nil), s.files...) }

// Len is the number of tracked paths.
func (s *Snapshot) Len() int { return len(s.files) }

// Has reports whether path is tracked.
func (s *Snapshot) Has(path string) bool {
	_, ok := s.entries[path]
	return ok
}

// Mode answers path's index mode, false when untracked.
func (s *Snapshot) Mode(path string) (uint32, bool) {
	e, ok := s.entries[path]
	if !ok {
		return 0, false
	}
	return e.mode, true
}

// Exists reports whether path is tracked and present in the work tree (a
// dangling symlink counts as present: it is the link that is tracked); in
// a staged snapshot every listed path is present.
func (s *Snapshot) Exists(path string) bool {
	e, ok := s.entries[path]
	if !ok {
		return false
	}
	if s.staged {
		// What the commit holds is present whatever the work tree says.
		return true
	}
	e.statOnce.Do(func() {
		_, err := os.Lstat(walk.Child(s.dir, path))
		e.present = err == nil
	})
	return e.present
}

// Read answers path's bytes, reading them at most once per snapshot: the
// work-tree file's for a work-tree snapshot, the staged blob's for a staged
// one. An untracked path is refused; in a work-tree snapshot a tracked file
// missing from the work tree answers an error wrapping fs.ErrNotExist,
// unless the entry is outside a sparse checkout, which reads its blob.
func (s *Snapshot) Read(path string) ([]byte, error) {
	e, ok := s.entries[path]
	if !ok {
		return nil, fmt.Errorf("%s: not tracked", path)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return s.readLocked(path, e)
}

// readLocked is Read with e.mu held.
func (s *Snapshot) readLocked(path string, e *snapEntry) ([]byte, error) {
	if e.held {
		return e.data, e.err
	}
	data, err := s.load(path, e)
	if err == nil && s.rereadable() && e.seen {
		// The check is a CRC-32C and the length, not the blob hash: a
		// re-read only guards against a file edited during the run, and
		// the checksum costs a fraction of SHA-1 on every reader past the
		// budget.
		if crc32.Checksum(data, castagnoli) != e.sum || len(data) != e.size {
			// assertion K: a re-read never hands two readers different bytes.
			return nil, fmt.Errorf("%s: changed in the work tree while this run read it", path)
		}
	}
	// assertion M: bytes a claimed reader has still to read are kept for
	// it, within the claim budget, whatever the byte budget holds.
	if err == nil && e.pending > 0 && s.keepClaimed(len(data)) {
		e.held, e.claimed, e.data = true, true, data
		return data, nil
	}
	// assertion F: each file's bytes are read at most once while the
	// kept bytes stay within the budget.
	// assertion K: past it, bytes are handed out unkept, freed once their
	// last reader lets them go.
	if err != nil || s.keep(len(data)) {
		e.held, e.data, e.err = true, data, err
		return data, err
	}
	s.remember(e, data)
	return data, nil
}

// rereadable reports whether a second read of a file may see other bytes
// than the first: a work-tree read may (the file can be edited mid-run), a
// staged one is an immutable blob.
func (s *Snapshot) rereadable() bool { return !s.staged && s.blobs != nil }

// remember records the checksum of the first bytes handed out unkept, the
// bytes every later read of the file is held to (e.mu held).
func (s *Snapshot) remember(e *snapEntry, data []byte) {
	if s.rereadable() && !e.seen {
		e.seen, e.sum, e.size = true, crc32.Checksum(data, castagnoli), len(data)
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
		e, ok := s.entries[p]
		if !ok || c.out[e.idx] {
			continue
		}
		c.out[e.idx] = true
		c.left.Add(1)
		e.mu.Lock()
		e.pending++
		e.mu.Unlock()
	}
	return c
}

// Read is the snapshot's Read, ending this claim on path.
func (c *Claim) Read(path string) ([]byte, error) {
	e, ok := c.s.entries[path]
	if !ok {
		return c.s.Read(path)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	mine := c.take(e)
	data, err := c.s.readLocked(path, e)
	if mine {
		c.s.settle(e)
	}
	return data, err
}

// Drop ends this claim on path without reading it (a reader that found
// it needs no bytes after all).
func (c *Claim) Drop(path string) {
	e, ok := c.s.entries[path]
	if !ok {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if c.take(e) {
		c.s.settle(e)
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

// take ends this claim on e (e.mu held), reporting whether it was open.
func (c *Claim) take(e *snapEntry) bool {
	if !c.out[e.idx] {
		return false
	}
	c.out[e.idx] = false
	c.left.Add(-1)
	e.pending--
	return true
}

// settle lets go of bytes kept for claims once none is outstanding (e.mu
// held). A later reader reads again, held to these bytes as any re-read
// past the budget is.
func (s *Snapshot) settle(e *snapEntry) {
	if e.pending > 0 || !e.claimed {
		return
	}
	// assertion M: the last claim read, the claimed bytes are released.
	data := e.data
	e.held, e.claimed, e.data = false, false, nil
	s.claimKept.Add(-int64(len(data)))
	s.remember(e, data)
}

func (s *Snapshot) load(path string, e *snapEntry) ([]byte, error) {
	if e.mode == ModeGitlink {
		return nil, fmt.Errorf("%s: a submodule has no file bytes", path)
	}
	data, err := s.workTree(path, e.mode)
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

// ModeAndBlob answers Mode's mode and BlobID's id and ok for path, from
// one lookup when the snapshot is staged.
func (s *Snapshot) ModeAndBlob(path string) (uint32, string, bool) {
	if !s.staged {
		m, _ := s.Mode(path)
		id, ok := s.BlobID(path)
		return m, id, ok
	}
	e, ok := s.entries[path]
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
	e, ok := s.entries[path]
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
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.id == "" {
		// readLocked holds a re-read to the first read, so the id names
		// the bytes every reader of this run sees.
		data, err := s.readLocked(path, e)
		if err != nil {
			return "", false
		}
		// assertion L: a work-tree file's id is its bytes' hash.
		e.id = s.blobs.hashOf(data)
	}
	return e.id, true
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
func (s *Snapshot) workTree(path string, mode uint32) ([]byte, error) {
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
	data, err := readFile(full)
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
