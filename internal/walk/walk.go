package walk

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
)

// DefaultPruneDirs is GATE_SDK_PRUNE_DIRS' table default.
const DefaultPruneDirs = "target .git node_modules .tmp gate-tests worktrees"

// PruneSet is the set of directory basenames no walk descends into.
type PruneSet struct {
	names []string
}

// NewPruneSet composes the prune set from the two resolved knobs, in the
// order both substrates read them: GATE_SDK_PRUNE_DIRS' words (which
// replace the default; an empty value prunes nothing of its own), then
// GATE_SDK_PRUNE_EXTRA_DIRS' words appended. Words are split on whitespace
// and expanded by nothing.
func NewPruneSet(dirs, extra string) PruneSet {
	// assertion N: PRUNE_DIRS replaces, PRUNE_EXTRA_DIRS appends.
	var names []string
	seen := map[string]bool{}
	for _, w := range append(strings.Fields(dirs), strings.Fields(extra)...) {
		if !seen[w] {
			seen[w] = true
			names = append(names, w)
		}
	}
	return PruneSet{names: names}
}

// Names answers the set's members in their resolved order.
func (p PruneSet) Names() []string { return append([]string(nil), p.names...) }

// Match reports whether a directory's own basename is pruned.
func (p PruneSet) Match(base string) bool {
	for _, n := range p.names {
		if n == base {
			return true
		}
	}
	return false
}

// PathPruned reports whether any directory component of rel (every segment
// but the last) is pruned. rel must be relative to the walk's root: an
// absolute path would match a pruned name above it.
func (p PruneSet) PathPruned(rel string) bool {
	if len(p.names) == 0 {
		return false
	}
	// Segment by segment without splitting: the battery asks this of every
	// tracked path, once per member.
	for {
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			return false
		}
		if p.Match(rel[:i]) {
			return true
		}
		rel = rel[i+1:]
	}
}

// Recorder notes every walk root and every directory a walk enters. Tests
// hand one in and read it back; it is safe for concurrent use.
type Recorder struct {
	mu    sync.Mutex
	roots []string
	dirs  []string
}

func (r *Recorder) root(p string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.roots = append(r.roots, p)
	r.mu.Unlock()
}

func (r *Recorder) dir(p string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.dirs = append(r.dirs, p)
	r.mu.Unlock()
}

// Note records the root of a walk made over a listing rather than a
// directory descent (a scan root filtered from the tracked set), so the
// observer sees it as it sees a Walk.
func (r *Recorder) Note(root string) { r.root(root) }

// Roots answers each walk's root as it was handed in, in call order.
func (r *Recorder) Roots() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.roots...)
}

// Dirs answers every directory entered, spelled as Child(root, rel) (the
// root itself as handed in), in visit order.
func (r *Recorder) Dirs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.dirs...)
}

// Options steer a Walk.
type Options struct {
	// Prune names the directory basenames not descended into (nor visited).
	Prune PruneSet
	// Recorder, when set, notes the root and every directory entered.
	Recorder *Recorder
}

// WalkFunc is called once per entry below the root, with the entry's path
// relative to the root spelled with '/'. Returning fs.SkipDir from a
// directory skips its contents (from a file, the rest of its directory);
// fs.SkipAll ends the walk cleanly; any other error ends it with that error.
type WalkFunc func(rel string, d fs.DirEntry) error

// Walk visits every entry under root in name order, depth first. Symbolic
// links are visited and never followed. A directory whose basename the
// prune set names is neither visited nor entered (the root itself is never
// pruned). A name that is not UTF-8 ends the walk with a *NonUTF8Error, and
// a directory that cannot be read ends it with an error naming it.
func Walk(root string, opt Options, fn WalkFunc) error {
	fi, err := os.Stat(root)
	if err != nil {
		return fmt.Errorf("walk %s: %w", root, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("walk %s: not a directory", root)
	}
	opt.Recorder.root(root)
	err = walkDir(root, "", opt, fn)
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

func walkDir(root, rel string, opt Options, fn WalkFunc) error {
	dir := root
	if rel != "" {
		dir = Child(root, rel)
	}
	opt.Recorder.dir(dir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("walk: could not read directory %s: %w", dir, err)
	}
	for _, e := range entries {
		name := e.Name()
		childRel := Child(rel, name)
		if err := checkUTF8(childRel); err != nil {
			return err
		}
		if e.IsDir() && opt.Prune.Match(name) {
			// assertion O: a pruned leaf is neither visited nor entered.
			continue
		}
		err := fn(childRel, e)
		switch {
		case errors.Is(err, fs.SkipDir):
			if e.IsDir() {
				continue
			}
			return nil
		case err != nil:
			return err
		}
		if e.IsDir() {
			if err := walkDir(root, childRel, opt, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// ListDir answers the entries of one directory in name order, descending
// nothing. A name that is not UTF-8 is refused.
func ListDir(dir string) ([]fs.DirEntry, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("could not list directory %s: %w", dir, err)
	}
	for _, e := range entries {
		if err := checkUTF8(e.Name()); err != nil {
			return nil, &NonUTF8Error{Path: Child(dir, strings.ToValidUTF8(e.Name(), "\uFFFD"))}
		}
	}
	return entries, nil
}

// ByDir answers fn's verdicts asking fn once per directory: fn must read
// only the directory part of the path it is given (everything before the
// last '/'), as the prune tests do. A tracked listing keeps a directory's
// files together, so a scan over it asks once per directory rather than
// once per file. Not safe for concurrent use.
func ByDir(fn func(rel string) bool) func(rel string) bool {
	var lastDir string
	var last, asked bool
	return func(rel string) bool {
		dir := ""
		if i := strings.LastIndexByte(rel, '/'); i >= 0 {
			dir = rel[:i+1]
		}
		if !asked || dir != lastDir {
			last, lastDir, asked = fn(rel), dir, true
		}
		return last
	}
}
