package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gate-sdk/gates/internal/githook"
	"github.com/gate-sdk/gates/internal/harness"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/walk"
)

// A foreign tree is one that records no registry list over a first parent
// (HEAD, for a commit not made yet) that records none either: a pages
// branch begun with `checkout --orphan`, a fix on a line from before the
// adoption. It holds none of the project's layout, so the layout gates
// have nothing of the project's to judge there; it is judged by the
// members whose rule needs no layout (gate.Def.AnyLayout: the terms, the
// message and the identity gates), with every configuration file read
// from the default branch's tip, the clone's local lists adding their
// bans. A clone whose default branch records no registry either has no
// configuration to lend: such a tree is judged as before (the disk's, or
// the hook's refusal when the disk holds none).

// registryListIn answers the registry list's path below top as a tree
// records it (slash-separated), "" where the gates dir is not below top.
func registryListIn(s *Session, top string) string {
	gd, err := s.GatesDir()
	if err != nil {
		return ""
	}
	rel, ok := walk.RelUnder(top, walk.AbsAgainst(top, gd))
	if !ok || rel == "" {
		return ""
	}
	return filepath.ToSlash(registry.ListPath(rel))
}

// holdsAt reports whether commit rev records path ("" rev, an unborn
// branch, records nothing).
func (r hookRepo) holdsAt(rev, p string) (bool, error) {
	if rev == "" {
		return false, nil
	}
	if o, ok := r.objects(); ok {
		if held, ok := o.Holds(rev, p); ok {
			return held, nil
		}
	}
	out, err := asWritten().Run(r.top, "list the registry at "+rev, nil, "ls-tree", "-z", rev, "--", p)
	if err != nil {
		return false, err
	}
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, name, ok := strings.Cut(rec, "\t")
		if ok && name == p && !strings.Contains(meta, " tree ") && !strings.Contains(meta, " commit ") {
			return true, nil
		}
	}
	return false, nil
}

// foreignConfig answers the configuration tree for a tree that records no
// registry list at list over first parent base: the default branch's tip
// (configTip) when base records none either, nil when base records one
// (the commit takes the registry out: judged as its hooks were).
func (r hookRepo) foreignConfig(base, list string) (*repo.Snapshot, error) {
	held, err := r.holdsAt(base, list)
	if err != nil || held {
		return nil, err
	}
	return r.configTip(list)
}

// foreignIndex answers, for the index at r.top, the configuration a
// foreign tree is judged with, the registry list's path and HEAD: cfg nil
// when the gates dir is not below the top, the index or HEAD records the
// list, or the default branch lends none. The index is asked through the
// session's copies, so the hook's own read of the list reads it again for
// free.
func (r hookRepo) foreignIndex() (cfg *repo.Snapshot, list, head string, err error) {
	if list = registryListIn(r.s, r.top); list == "" {
		return nil, "", "", nil
	}
	if _, found, err := r.s.indexCopy(r.top, filepath.FromSlash(list)); err != nil || found {
		return nil, list, "", err
	}
	h, err := repo.Git{}.Head(r.top)
	if err != nil {
		return nil, list, "", err
	}
	cfg, err = r.foreignConfig(h.Hash, list)
	return cfg, list, h.Hash, err
}

// configTip answers the tree of the default branch's tip when it records
// the registry list, nil when no candidate does. The candidates, in order:
// the local branch the origin remote's HEAD names, that remote branch
// itself, init.defaultBranch, main, master.
func (r hookRepo) configTip(list string) (*repo.Snapshot, error) {
	r.tip.once.Do(func() { r.tip.snap, r.tip.ref, r.tip.rest, r.tip.err = r.findConfigTip(list) })
	return r.tip.snap, r.tip.err
}

// tipOnce keeps configTip's answer for one call.
type tipOnce struct {
	once sync.Once
	snap *repo.Snapshot
	ref  string
	err  error
	// rest are the later candidates' commits that record the registry
	// too, each other than the first's and one another's.
	rest []string
}

// otherConfigTips answers the trees of the default-branch candidates
// after the first (configTip) that record the registry list at list at
// another commit: a foreign tree judged after the fact is red when any of
// them finds it red, since which candidate is read first is the agent's
// to steer (init.defaultBranch, origin's HEAD).
func (r hookRepo) otherConfigTips(list string) ([]*repo.Snapshot, error) {
	if _, err := r.configTip(list); err != nil {
		return nil, err
	}
	common := ""
	if _, c, err := r.gitDirs(); err == nil {
		common = c
	}
	var out []*repo.Snapshot
	for _, id := range r.tip.rest {
		snap, err := asWritten().CommitSnapshot(r.top, common, id)
		if err != nil {
			return nil, err
		}
		out = append(out, snap)
	}
	return out, nil
}

func (r hookRepo) findConfigTip(list string) (*repo.Snapshot, string, []string, error) {
	g := asWritten()
	var refs []string
	if out, err := g.Run(r.top, "read the origin's HEAD", nil, "for-each-ref", "--format=%(symref)", "refs/remotes/origin/HEAD"); err == nil {
		if target := strings.TrimSpace(string(out)); target != "" {
			if b, ok := strings.CutPrefix(target, "refs/remotes/origin/"); ok {
				refs = append(refs, "refs/heads/"+b)
			}
			refs = append(refs, target)
		}
	}
	if b, ok, err := g.ConfigGet(r.top, "init.defaultBranch"); err == nil && ok && strings.TrimSpace(b) != "" {
		refs = append(refs, "refs/heads/"+strings.TrimSpace(b))
	}
	refs = append(refs, "refs/heads/main", "refs/heads/master")
	seen := map[string]bool{}
	var snap *repo.Snapshot
	first := ""
	var rest []string
	for _, ref := range refs {
		if seen[ref] {
			continue
		}
		seen[ref] = true
		out, err := g.Run(r.top, "resolve "+ref, nil, "for-each-ref", "--format=%(objectname)%00%(objecttype)", ref)
		if err != nil {
			return nil, "", nil, err
		}
		id, typ, _ := strings.Cut(strings.TrimSpace(string(out)), "\x00")
		if id == "" || typ != "commit" || seen[id] {
			continue
		}
		held, err := r.holdsAt(id, list)
		if err != nil {
			return nil, "", nil, err
		}
		if !held {
			continue
		}
		seen[id] = true
		if snap != nil {
			rest = append(rest, id)
			continue
		}
		common := ""
		if _, c, err := r.gitDirs(); err == nil {
			common = c
		}
		if snap, err = g.CommitSnapshot(r.top, common, id); err != nil {
			return nil, "", nil, err
		}
		first = ref
	}
	return snap, first, rest, nil
}

// configCopy is copyOf for a foreign tree: the configuration tree's copy
// of abs; under the work tree, a file it does not hold is absent but for
// the clone's own local lists (their bans) and the judge's scratch; a path
// outside the work tree is left to the disk.
func (c *landedCommit) configCopy(abs string) ([]byte, bool, error) {
	data, found, err := snapshotCopy(c.config)(abs)
	if err != nil || found {
		return data, found, err
	}
	rel, ok := walk.RelUnder(c.config.Dir(), abs)
	if !ok || rel == "" {
		return nil, false, nil
	}
	if c.scratch != "" {
		if in, ok := walk.RelUnder(c.scratch, abs); ok && in != "" {
			return nil, false, nil
		}
	}
	if data, ok := c.localBans(abs); ok {
		return data, true, nil
	}
	return nil, false, &fs.PathError{Op: "read", Path: abs, Err: fs.ErrNotExist}
}

// configDirs answers the configuration tree's directories, each with its
// entries (name → is a directory), built on first use.
func (c *landedCommit) configDirs() map[string]map[string]bool {
	c.dirsOnce.Do(func() {
		c.dirs = map[string]map[string]bool{"": {}}
		for _, f := range c.config.Files() {
			child, isDir := f, false
			for {
				parent := path.Dir(child)
				if parent == "." {
					parent = ""
				}
				ents := c.dirs[parent]
				known := ents != nil
				if !known {
					ents = map[string]bool{}
					c.dirs[parent] = ents
				}
				ents[path.Base(child)] = isDir
				if parent == "" || known {
					break
				}
				child, isDir = parent, true
			}
		}
	})
	return c.dirs
}

// configRel answers abs as a path of the configuration tree, false for a
// path outside the work tree (left to the disk).
func (c *landedCommit) configRel(abs string) (string, bool) {
	rel, ok := walk.RelUnder(c.config.Dir(), abs)
	if !ok {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// configIsDir reports whether abs is a directory of the configuration
// tree (the disk's answer outside the work tree).
func (c *landedCommit) configIsDir(abs string) bool {
	rel, ok := c.configRel(abs)
	if !ok {
		return isDir(abs)
	}
	_, held := c.configDirs()[rel]
	return held
}

// configReadDir lists directory abs of the configuration tree (the disk's
// listing outside the work tree), in name order.
func (c *landedCommit) configReadDir(abs string) ([]fs.DirEntry, error) {
	rel, ok := c.configRel(abs)
	if !ok {
		return os.ReadDir(abs)
	}
	ents, held := c.configDirs()[rel]
	if !held {
		return nil, &fs.PathError{Op: "readdir", Path: abs, Err: fs.ErrNotExist}
	}
	out := make([]fs.DirEntry, 0, len(ents))
	for name, dir := range ents {
		out = append(out, heldEntry{name: name, dir: dir})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// heldEntry is a directory entry of the configuration tree.
type heldEntry struct {
	name string
	dir  bool
}

func (e heldEntry) Name() string { return e.name }
func (e heldEntry) IsDir() bool  { return e.dir }
func (e heldEntry) Type() fs.FileMode {
	if e.dir {
		return fs.ModeDir
	}
	return 0
}
func (e heldEntry) Info() (fs.FileInfo, error) {
	if e.dir {
		return heldDir{name: e.name}, nil
	}
	return heldFile{name: e.name}, nil
}

// heldDir is the FileInfo of a directory the configuration tree holds.
type heldDir struct{ name string }

func (h heldDir) Name() string       { return h.name }
func (h heldDir) Size() int64        { return 0 }
func (h heldDir) Mode() fs.FileMode  { return fs.ModeDir | 0o755 }
func (h heldDir) ModTime() time.Time { return time.Time{} }
func (h heldDir) IsDir() bool        { return true }
func (h heldDir) Sys() any           { return nil }

// anyLayoutMember reports whether a member judges a foreign tree: a
// compiled gate whose rule needs no layout.
func anyLayoutMember(name string) bool {
	def, ok := findGate(name)
	return ok && def.AnyLayout
}

// foreignHook judges a commit git is about to make whose index records no
// registry over a HEAD that records none, where the default branch lends
// its configuration: handled is false for every other commit, which the
// hook judges as ever.
func foreignHook(s *Session, args []string) (code int, handled bool) {
	if len(args) == 0 || !(args[0] == githook.PreCommit || args[0] == githook.PreMergeCommit || args[0] == githook.CommitMsg && len(args) == 2) {
		return 0, false
	}
	top, err := s.Cwd()
	if err != nil {
		return 0, false
	}
	r := newHookRepo(s, top)
	cfg, list, head, err := r.foreignIndex()
	if err != nil || cfg == nil {
		return 0, false
	}
	g := repo.Git{RecordVerified: cacheWanted(s)}
	tree, err := g.StagedSnapshot(top)
	if err != nil {
		fmt.Fprintf(s.Stderr, "%s: %v\n", args[0], err)
		return 2, true
	}
	changes, err := g.StagedChanges(top)
	if err != nil {
		fmt.Fprintf(s.Stderr, "%s: %v\n", args[0], err)
		return 2, true
	}
	in := judgeInput{base: head, tree: tree, changes: changes, only: args, out: s.Stdout, config: cfg, staged: true}
	if args[0] == githook.CommitMsg {
		in.msgFile = args[1]
	}
	if args[0] != githook.CommitMsg && len(changes) > 0 {
		fmt.Fprintf(s.Stderr, "%s: this tree records no %s: judged by the gates that need no layout, as %s configures them\n", args[0], list, strings.TrimPrefix(r.tip.ref, "refs/heads/"))
	}
	hooks, err := r.judgeIn(in)
	if err != nil {
		fmt.Fprintf(s.Stderr, "%s: %v\n", args[0], err)
		return 2, true
	}
	if len(hooks) == 0 {
		return 0, true
	}
	return hooks[0].code, true
}

// foreignWork answers, for a work tree that holds a foreign tree (the disk
// and the index record no registry, HEAD records none, the default branch
// lends its configuration), the judgement of the uncommitted paths an edit
// or a Stop asks for: the pre-commit hook's members that need no layout,
// over the index with those paths as the work tree holds them. handled is
// false for every other work tree.
func (r hookRunner) foreignWork(paths []string) (res harness.Result, handled bool, err error) {
	list := registryListIn(r.s, r.top)
	if list == "" {
		return res, false, nil
	}
	if _, err := os.Lstat(walk.Child(r.top, filepath.FromSlash(list))); !errors.Is(err, fs.ErrNotExist) {
		return res, false, nil
	}
	hr := newHookRepo(r.s, r.top)
	cfg, _, head, err := hr.foreignIndex()
	if err != nil || cfg == nil {
		return res, false, err
	}
	// The binary the hooks run sits untracked in such a tree (the default
	// branch ignores it): it is the judge, never the agent's work.
	if bin, _, err := hr.Binary(); err == nil {
		if rel, ok := walk.RelUnder(r.top, bin); ok && rel != "" {
			var keep []string
			for _, p := range paths {
				if p != filepath.ToSlash(rel) {
					keep = append(keep, p)
				}
			}
			if paths = keep; len(paths) == 0 {
				return res, true, nil
			}
		}
	}
	tree, err := repo.NewEditSnapshot(r.top, paths)
	if err != nil {
		return res, true, err
	}
	// Each path present counts as added: a shape change, so the members
	// that read the listing run too (more judged, never less), and no
	// index is asked path by path.
	var changes []repo.Change
	for _, p := range paths {
		ch := repo.Change{Path: p, Status: 'A'}
		if _, err := os.Lstat(walk.Child(r.top, filepath.FromSlash(p))); errors.Is(err, fs.ErrNotExist) {
			ch.Status = 'D'
		}
		changes = append(changes, ch)
	}
	hooks, err := hr.judgeIn(judgeInput{base: head, tree: tree, changes: changes, only: []string{githook.PreCommit}, config: cfg})
	if err != nil {
		return res, true, err
	}
	res.Ran = 1
	for _, h := range hooks {
		if h.code != 0 {
			res.Red = append(res.Red, hookRed(h.hook, h.code, h.out))
		}
	}
	return res, true, nil
}

// KeptOff answers the copy the default branch records of p, a settings
// file absent from the disk and the index, while the work tree holds a
// tree from outside the adoption (the index and HEAD record no registry):
// a checkout of the default branch brings it back, so it is not gone.
// false for every other absent file (one deleted is gone).
func (r hookRepo) KeptOff(p string) ([]byte, bool) {
	rel, ok := walk.RelUnder(r.top, p)
	if !ok || rel == "" {
		return nil, false
	}
	if _, found, err := r.s.indexCopy(r.top, rel); err != nil || found {
		return nil, false
	}
	cfg, _, _, err := r.foreignIndex()
	if err != nil || cfg == nil {
		return nil, false
	}
	data, found, err := snapshotCopy(cfg)(p)
	return data, found && err == nil
}
