package repo

import (
	"bytes"
	"crypto/sha1"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
	"github.com/go-git/go-git/v5/plumbing"
)

// CommitSnapshot is the snapshot of what the commit rev holds, as a
// staged snapshot answers the index: every path of its tree relative to
// top (the work-tree top), each file's bytes its blob read from the object
// store. No index and no work-tree file is read or written, so a commit
// that landed is judged on its own tree whatever the clone holds now.
// common is the repository's common git dir when the caller knows it (""
// asks git); the object format is the listed ids' own length.
func (g Git) CommitSnapshot(top, common, rev string) (*Snapshot, error) {
	// The common case, a commit whose tree is close to the index (one just
	// made), is the index's listing with the few differences git names.
	if entries, src, tree, ok := g.listFromIndex(top, rev); ok {
		s := SnapshotOf(top, entries)
		s.staged = true
		s.blobs = newBlobStore(g, top, src)
		if tree != "" {
			// The tree's id names every path, mode and blob id it lists:
			// the listing's digest, with no hash over 20,000 entries.
			s.indexSum = "tree " + tree
		}
		return s, nil
	}
	out, err := g.run(top, "list the commit's tree", "ls-tree", "-r", "-z", "--full-tree", rev)
	if err != nil {
		return nil, err
	}
	entries, err := parseLsTree(out)
	if err != nil {
		return nil, &ListingError{Dir: top, What: "list the tree of " + rev, Err: err}
	}
	var src IndexSource
	if common != "" && len(entries) > 0 {
		src = IndexSource{CommonDir: common, HashLen: len(entries[0].Hash) / 2}
	} else {
		if src, err = g.LocateIndex(top); err != nil {
			return nil, err
		}
		src.Prefix = ""
	}
	s := SnapshotOf(top, entries)
	s.staged = true
	s.blobs = newBlobStore(g, top, src)
	return s, nil
}

// commitTreeOf answers the tree id commit rev records, read in process
// from the object store under src's common dir as written (no replace ref
// applies: a repository holding any is left to git, false).
func commitTreeOf(src IndexSource, rev string) (string, bool) {
	if src.HashLen != sha1.Size || src.CommonDir == "" || anyReplaceRef(src.CommonDir) {
		return "", false
	}
	st, err := sharedStore(src.CommonDir)
	if err != nil {
		return "", false
	}
	obj, err := st.EncodedObject(plumbing.CommitObject, plumbing.NewHash(rev))
	if err != nil {
		return "", false
	}
	r, err := obj.Reader()
	if err != nil {
		return "", false
	}
	defer r.Close()
	head := make([]byte, 5+2*sha1.Size+1)
	if _, err := io.ReadFull(r, head); err != nil {
		return "", false
	}
	tree, ok := strings.CutPrefix(string(head), "tree ")
	if !ok || tree[len(tree)-1] != '\n' || !walk.ObjectID(tree[:len(tree)-1]) {
		return "", false
	}
	return tree[:len(tree)-1], true
}

// anyReplaceRef reports whether the repository may hold a replace ref (a
// loose one under refs/replace, or a packed one), or cannot tell.
func anyReplaceRef(common string) bool {
	if ents, err := os.ReadDir(walk.Child(common, "refs/replace")); err == nil && len(ents) > 0 || err != nil && !os.IsNotExist(err) {
		return true
	}
	packed, err := os.ReadFile(walk.Child(common, "packed-refs"))
	if err != nil {
		return !os.IsNotExist(err)
	}
	return bytes.Contains(packed, []byte(" refs/replace/"))
}

// parseLsTree reads `git ls-tree -r -z` records: "<mode> <type> <id>\t<path>".
func parseLsTree(out []byte) ([]Entry, error) {
	names, err := splitZ(out)
	if err != nil {
		return nil, err
	}
	entries := make([]Entry, 0, len(names))
	for _, rec := range names {
		head, path, ok := strings.Cut(rec, "\t")
		f := strings.Fields(head)
		if !ok || len(f) != 3 || path == "" {
			return nil, fmt.Errorf("malformed ls-tree record %q", rec)
		}
		mode, err := strconv.ParseUint(f[0], 8, 32)
		if err != nil {
			return nil, fmt.Errorf("malformed mode in ls-tree record %q", rec)
		}
		if !walk.ObjectID(f[2]) {
			return nil, fmt.Errorf("malformed object id in ls-tree record %q", rec)
		}
		entries = append(entries, Entry{Path: path, Hash: f[2], Mode: CanonMode(uint32(mode))})
	}
	return entries, nil
}

// CommitChanges lists every path the commit rev changes against base
// (its first parent), as StagedChanges lists the index against HEAD:
// deletions included, renames split. An empty base is a root commit, whose
// every path is added.
func (g Git) CommitChanges(top, base, rev string) ([]Change, error) {
	args := []string{"diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-abbrev", "--no-commit-id"}
	if base == "" {
		args = append(args, "--root", rev)
	} else {
		args = append(args, base, rev)
	}
	out, err := g.run(top, "list the commit's changes", args...)
	if err != nil {
		return nil, err
	}
	recs, err := splitZ(out)
	if err != nil {
		return nil, err
	}
	changes, err := parseRawChanges(recs)
	if err != nil {
		return nil, &ListingError{Dir: top, What: "list the changes of " + rev, Err: err}
	}
	return changes, nil
}

// entriesFromIndex answers the listing of rev's tree built from the index
// under top (decoded in process) and what `git diff-index --cached` says
// differs between the two, at the cost of those differences rather than
// of the tree. ok is false wherever that cannot answer as `git ls-tree -r`
// would: an index the decoder leaves to git, a conflict, an intent-to-add
// entry, a work tree below its top, a record it cannot read.
func (g Git) entriesFromIndex(top, rev string) (entries []Entry, src IndexSource, ok bool) {
	entries, src, _, ok = g.listFromIndex(top, rev)
	return entries, src, ok
}

// listFromIndex is entriesFromIndex answering too, when the index's
// cache-tree root stood for the commit's tree, that tree's id ("" when
// git named the differences).
func (g Git) listFromIndex(top, rev string) (entries []Entry, src IndexSource, tree string, ok bool) {
	src, err := g.LocateIndex(top)
	if err != nil || src.Prefix != "" {
		return nil, src, "", false
	}
	// The ids stay in binary: the judge spells those of the entries its
	// members look up (SPEC §The snapshot, H).
	idx, err := g.readIndexAs(top, src, false, true)
	if err != nil || idx == nil {
		return nil, src, "", false
	}
	at := make(map[string]int, 0)
	for _, e := range idx.Entries {
		if e.Stage != 0 || e.IntentToAdd() {
			return nil, src, "", false
		}
	}
	if idx.Tree != "" && len(rev) == 2*src.HashLen && walk.ObjectID(rev) {
		// assertion M (commit-audit): a commit whose tree is the one the
		// index's cache-tree records is the index's listing, asked of
		// no git: the commit read in process, replace refs never applied.
		if tree, ok := commitTreeOf(src, rev); ok && tree == idx.Tree {
			return idx.Entries, src, tree, true
		}
	}
	out, err := g.run(top, "compare the commit with the index", "diff-index", "--cached", "-r", "-z", "--raw", "--no-renames", "--no-abbrev", "--ignore-submodules=none", rev, "--")
	if err != nil {
		return nil, src, "", false
	}
	recs, err := splitZ(out)
	if err != nil || len(recs)%2 != 0 {
		return nil, src, "", false
	}
	if len(recs) == 0 {
		return idx.Entries, src, "", true
	}
	// The decoded entries may be shared within the process: patched on a
	// copy.
	entries = make([]Entry, len(idx.Entries))
	copy(entries, idx.Entries)
	for i, e := range entries {
		at[e.Path] = i
	}
	drop := map[int]bool{}
	var added []Entry
	for i := 0; i < len(recs); i += 2 {
		head, path := recs[i], recs[i+1]
		f := strings.Fields(strings.TrimPrefix(head, ":"))
		if !strings.HasPrefix(head, ":") || len(f) != 5 || f[4] == "" {
			return nil, src, "", false
		}
		mode, err := strconv.ParseUint(f[0], 8, 32)
		if err != nil {
			return nil, src, "", false
		}
		// The commit's side is the source: its mode and id.
		theirs := Entry{Path: path, Hash: f[2], Mode: CanonMode(uint32(mode))}
		j, inIndex := at[path]
		switch f[4][0] {
		case 'A': // in the index only
			if !inIndex {
				return nil, src, "", false
			}
			drop[j] = true
		case 'D': // in the commit only
			if inIndex {
				return nil, src, "", false
			}
			added = append(added, theirs)
		case 'M', 'T':
			if !inIndex {
				return nil, src, "", false
			}
			entries[j] = theirs
		default:
			return nil, src, "", false
		}
	}
	kept := entries[:0]
	for i, e := range entries {
		if !drop[i] {
			kept = append(kept, e)
		}
	}
	entries = append(kept, added...)
	if len(added) > 0 {
		slices.SortFunc(entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	}
	return entries, src, "", true
}
