package repo

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
)

// Changed lists the paths of the uncommitted change under dir's work tree:
// staged and unstaged edits (deletions included) and untracked files git
// does not ignore, spelled relative to the toplevel, each once, sorted.
// It reads `git status --porcelain=v1 -z --untracked-files=all
// --no-renames`, so a rename is its two sides.
func Changed(dir string) ([]string, error) { return Git{}.Changed(dir) }

// Changed is the package-level Changed under g's environment.
func (g Git) Changed(dir string) ([]string, error) {
	out, err := g.run(dir, "list the uncommitted change", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=none")
	if err != nil {
		return nil, err
	}
	return parseStatus(dir, out)
}

// parseStatus reads `git status --porcelain=v1 -z` records into Changed's
// answer.
func parseStatus(dir string, out []byte) ([]string, error) {
	seen := map[string]bool{}
	var paths []string
	for len(out) > 0 {
		i := bytes.IndexByte(out, 0)
		if i < 0 {
			return nil, &ListingError{Dir: dir, What: "list the uncommitted change", Err: reportError("git status ended an entry without a NUL")}
		}
		rec := out[:i]
		out = out[i+1:]
		// "XY path": two status letters and a space.
		if len(rec) < 4 || rec[2] != ' ' {
			return nil, &ListingError{Dir: dir, What: "list the uncommitted change", Err: reportError(fmt.Sprintf("unreadable git status entry %q", rec))}
		}
		names, err := splitZ(append(rec[3:], 0))
		if err != nil {
			return nil, err
		}
		if bytes.HasPrefix(rec, []byte("?? ")) && strings.HasSuffix(names[0], "/") {
			// assertion S (stop-gates): under --untracked-files=all git names a
			// directory only for a repository of its own nested in the
			// tree (a clone kept there): git never descends into it, and
			// none of its files can be added here, so it is no change.
			continue
		}
		if p := names[0]; !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// NewWorkingSnapshot is the tree as an agent's work leaves it: the index
// entries still present on disk, plus every untracked file git does not
// ignore (mode read off the disk), in byte order. The harness members judge
// this view, since a new file the agent wrote is part of its change before
// it is staged.
func NewWorkingSnapshot(dir string) (*Snapshot, error) { return Git{}.NewWorkingSnapshot(dir) }

// NewWorkingSnapshot is the package-level NewWorkingSnapshot under g's environment.
func (g Git) NewWorkingSnapshot(dir string) (*Snapshot, error) {
	entries, err := g.IndexModes(dir)
	if err != nil {
		return nil, err
	}
	out, err := g.run(dir, "list untracked files", "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	others, err := splitZ(out)
	if err != nil {
		return nil, err
	}
	kept, err := onDisk(dir, entries)
	if err != nil {
		return nil, err
	}
	if kept, err = appendUntracked(dir, kept, others); err != nil {
		return nil, err
	}
	return SnapshotOf(dir, kept), nil
}

// NewEditSnapshot is NewWorkingSnapshot at the cost of an edit: the index
// entries still on disk, plus those of paths that are untracked files git
// does not ignore. Only paths are asked about (a pathspec-limited listing),
// so the work tree is never walked; an untracked file not among paths is
// not in the view.
func NewEditSnapshot(dir string, paths []string) (*Snapshot, error) {
	return Git{}.NewEditSnapshot(dir, paths)
}

// NewEditSnapshot is the package-level NewEditSnapshot under g's environment.
func (g Git) NewEditSnapshot(dir string, paths []string) (*Snapshot, error) {
	entries, err := g.IndexModes(dir)
	if err != nil {
		return nil, err
	}
	tracked := make(map[string]bool, len(entries))
	for _, e := range entries {
		tracked[e.Path] = true
	}
	kept, err := onDisk(dir, entries)
	if err != nil {
		return nil, err
	}
	var ask []string
	for _, p := range paths {
		if !tracked[p] {
			ask = append(ask, ":(literal)"+p)
		}
	}
	if len(ask) > 0 {
		out, err := g.run(dir, "list the edited untracked files", append([]string{"ls-files", "-z", "--others", "--exclude-standard", "--"}, ask...)...)
		if err != nil {
			return nil, err
		}
		others, err := splitZ(out)
		if err != nil {
			return nil, err
		}
		if kept, err = appendUntracked(dir, kept, others); err != nil {
			return nil, err
		}
	}
	return SnapshotOf(dir, kept), nil
}

// onDisk answers the entries still present in dir's working tree (a
// gitlink always counts as present), in their order, as a new slice.
func onDisk(dir string, entries []Entry) ([]Entry, error) {
	kept := entries[:0:0]
	for _, e := range entries {
		if e.Mode == 0o160000 {
			kept = append(kept, e)
			continue
		}
		if _, err := os.Lstat(walk.Child(dir, e.Path)); err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the working tree
			}
			return nil, &ListingError{Dir: dir, What: "stat a tracked file", Err: err}
		}
		kept = append(kept, e)
	}
	return kept, nil
}

// appendUntracked adds to kept an entry for each untracked path in others,
// its mode read off the disk, and answers the whole in byte order of path.
func appendUntracked(dir string, kept []Entry, others []string) ([]Entry, error) {
	for _, p := range others {
		fi, err := os.Lstat(walk.Child(dir, p))
		if err != nil {
			return nil, &ListingError{Dir: dir, What: "stat an untracked file", Err: err}
		}
		mode := uint32(0o100644)
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			mode = 0o120000
		case fi.Mode()&0o111 != 0:
			mode = 0o100755
		}
		kept = append(kept, Entry{Path: p, Mode: mode})
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].Path < kept[j].Path })
	return kept, nil
}

// NewEditOverlay is the view an edit is judged in at the cost of the edit:
// every path as the index records it (its staged blob, named by the
// index's id, so no other file is listed, stat-tested or read), with the
// edited paths put over it as the work tree now holds them. A tracked
// edited path takes its work-tree bytes under its index mode, or leaves
// the view when it is gone from the work tree; an untracked one joins it
// when git does not ignore it (a pathspec-limited listing, asked only
// then). The decoded index is read in process.
//
// ok is false, with no error, where this view cannot stand for
// NewEditSnapshot's without a listing of the work tree: an index holding a
// conflict, an intent-to-add entry or a sparse (skip-worktree) entry, a
// scoped index, or an edited path that is neither a regular file, a
// symbolic link nor gone. The caller then builds NewEditSnapshot.
func (g Git) NewEditOverlay(dir string, paths []string) (s *Snapshot, ok bool, err error) {
	src, err := g.LocateIndex(dir)
	if err != nil {
		return nil, false, err
	}
	if src.Prefix != "" {
		return nil, false, nil
	}
	// assertion H (edit-gates): with the cache on, the listing comes from
	// the memo made from this very index file when there is one; an Edit
	// the memo's view cannot answer (an edited path untracked, gone or
	// of another type) decodes the index as below.
	key, held := "", false
	if g.RecordVerified {
		if key, held = listingMemoKey(src); !held {
			if s, ok, err := g.overlayFromMemo(dir, src, key, paths); ok || err != nil {
				return s, ok, err
			}
		}
	}
	// The ids stay in binary: an Edit spells those of the few entries it
	// looks up, not 20,000 (SPEC §The snapshot, H).
	entries, sum, err := g.indexAtAs(dir, src, false, true)
	if err != nil {
		return nil, false, err
	}
	if sum != "" {
		// The checksum names the index's whole content; the scoping
		// prefix names which part of it this snapshot lists.
		sum = "index " + sum + " prefix " + src.Prefix
	}
	blobs := newBlobStore(g, dir, src)
	for _, e := range entries {
		if e.Stage != 0 || e.IntentToAdd() || e.SkipWorktree() {
			return nil, false, nil
		}
	}
	// The memo is made from a decode of the file its key names: the same
	// stamp and trailer before the decode and after, and the decode's own
	// checksum that trailer.
	if key != "" && !held && sum == "index "+memoTrailer(key)+" prefix " && sameMemoKey(src, key) {
		writeListingMemo(src, key, entries)
	}
	// assertion G (edit-gates): the decoded index may be the process's
	// shared one, never written: the overlay copies it only to add or
	// remove a path; an edit of tracked files that are present puts their
	// entries over the shared one (see Snapshot.puts), so an Edit costs
	// no copy of 20,000 entries.
	ents, own := entries, false
	mine := func() {
		if !own {
			ents, own = slices.Clone(ents), true
		}
	}
	at := func(p string) (int, bool) {
		return sort.Find(len(ents), func(i int) int { return strings.Compare(p, ents[i].Path) })
	}
	type put struct {
		path string
		data []byte
		ent  Entry
	}
	var puts []put
	var ask []string
	desc := []string{sum}
	for _, p := range paths {
		fi, lerr := os.Lstat(walk.Child(dir, p))
		gone := lerr != nil && os.IsNotExist(lerr)
		if lerr != nil && !gone {
			return nil, false, &ListingError{Dir: dir, What: "stat an edited file", Err: lerr}
		}
		if !gone && !fi.Mode().IsRegular() && fi.Mode()&os.ModeSymlink == 0 {
			return nil, false, nil
		}
		i, tracked := at(p)
		switch {
		case tracked && gone:
			mine()
			ents = append(ents[:i], ents[i+1:]...)
			desc = append(desc, "gone "+p)
		case tracked:
			if ents[i].Mode == ModeGitlink {
				return nil, false, nil
			}
			puts = append(puts, put{path: p})
		case !gone:
			ask = append(ask, ":(literal)"+p)
		}
	}
	if len(ask) > 0 {
		out, err := g.run(dir, "list the edited untracked files", append([]string{"ls-files", "-z", "--others", "--exclude-standard", "--"}, ask...)...)
		if err != nil {
			return nil, false, err
		}
		others, err := splitZ(out)
		if err != nil {
			return nil, false, err
		}
		if len(others) > 0 {
			mine()
			if ents, err = appendUntracked(dir, ents, others); err != nil {
				return nil, false, err
			}
		}
		for _, p := range others {
			puts = append(puts, put{path: p})
		}
	}
	// The edited files' bytes are read once, here, and named by their own
	// hash: every reader of this run sees them, never the index's blob.
	view := &Snapshot{dir: dir}
	for k := range puts {
		i, _ := at(puts[k].path)
		data, err := view.workTree(puts[k].path, ents[i].Mode, -1)
		if err != nil {
			return nil, false, err
		}
		e := ents[i]
		e.Hash, e.raw, e.Flags = blobs.hashOf(data), "", 0
		puts[k].data, puts[k].ent = data, e
		desc = append(desc, fmt.Sprintf("put %s %o %s", e.Path, e.Mode, e.Hash))
		if own {
			ents[i] = e
		}
	}
	s = SnapshotOf(dir, ents)
	shared := !own && len(ents) > 0 && len(s.ents) > 0 && &s.ents[0] == &ents[0]
	for _, p := range puts {
		j, _ := s.find(p.path)
		switch {
		case shared:
			s.puts = append(s.puts, entryPut{at: j, ent: p.ent})
		case !own:
			// SnapshotOf made its own copy of the entries.
			s.ents[j] = p.ent
		}
	}
	s.staged = true
	s.blobs = blobs
	if sum != "" {
		// The index's checksum names every path it lists; the overlay's
		// changes are named after it, so a digest never stands for other
		// content than this view's.
		s.indexSum = strings.Join(desc, "\x00")
		if len(desc) == len(puts)+1 && len(ask) == 0 {
			// Every edited path tracked and present: the view differs
			// from the index only in those paths' bytes.
			s.overlayBase = sum
			for _, p := range puts {
				s.overlayPuts = append(s.overlayPuts, p.path)
			}
			sort.Strings(s.overlayPuts)
		}
	}
	for _, p := range puts {
		e, _ := s.lookup(p.path)
		st := e.state()
		st.held, st.data = true, p.data
	}
	return s, true, nil
}

// overlayFromMemo is NewEditOverlay over the listing memo (see
// loadListingMemo) where every edited path is tracked, present and a
// regular file or a symbolic link in the work tree, its entry no gitlink:
// the view is then the memo's listing with the edited paths' work-tree
// bytes put over it, as NewEditOverlay puts them over the decoded index.
// ok is false, with no error, when there is no memo of this index or an
// edited path is anything else; NewEditOverlay then decodes the index.
func (g Git) overlayFromMemo(dir string, src IndexSource, key string, paths []string) (*Snapshot, bool, error) {
	s, ok := loadListingMemo(dir, src, key)
	if !ok {
		return nil, false, nil
	}
	sum := "index " + memoTrailer(key) + " prefix " + src.Prefix
	type put struct {
		path string
		at   int
	}
	var puts []put
	for _, p := range paths {
		fi, err := os.Lstat(walk.Child(dir, p))
		if err != nil || !fi.Mode().IsRegular() && fi.Mode()&os.ModeSymlink == 0 {
			return nil, false, nil
		}
		i, tracked := s.find(p)
		if !tracked || s.tab.entry(i, p).Mode == ModeGitlink {
			return nil, false, nil
		}
		puts = append(puts, put{path: p, at: i})
	}
	blobs := newBlobStore(g, dir, src)
	desc := []string{sum}
	datas := make([][]byte, len(puts))
	for k, p := range puts {
		e := s.tab.entry(p.at, s.files[p.at])
		data, err := s.workTree(p.path, e.Mode, -1)
		if err != nil {
			return nil, false, err
		}
		e.Hash, e.raw, e.Flags = blobs.hashOf(data), "", 0
		desc = append(desc, fmt.Sprintf("put %s %o %s", e.Path, e.Mode, e.Hash))
		s.puts = append(s.puts, entryPut{at: p.at, ent: e})
		datas[k] = data
	}
	s.staged = true
	s.blobs = blobs
	s.indexSum = strings.Join(desc, "\x00")
	s.overlayBase = sum
	for _, p := range puts {
		s.overlayPuts = append(s.overlayPuts, p.path)
	}
	sort.Strings(s.overlayPuts)
	for k, p := range puts {
		e, _ := s.lookup(p.path)
		st := e.state()
		st.held, st.data = true, datas[k]
	}
	return s, true, nil
}

// sameMemoKey reports whether src's index file still answers key.
func sameMemoKey(src IndexSource, key string) bool {
	now, _ := listingMemoKey(src)
	return now == key
}
