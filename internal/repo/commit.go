package repo

import (
	"fmt"
	"strconv"
	"strings"
)

// CommitSnapshot is the snapshot of what the commit rev holds, as a
// staged snapshot answers the index: every path of its tree relative to
// top (the work-tree top), each file's bytes its blob read from the object
// store. No index and no work-tree file is read or written, so a commit
// that landed is judged on its own tree whatever the clone holds now.
// common is the repository's common git dir when the caller knows it (""
// asks git); the object format is the listed ids' own length.
func (g Git) CommitSnapshot(top, common, rev string) (*Snapshot, error) {
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
		if len(f[2]) != 40 && len(f[2]) != 64 {
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
