package cli

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/githook"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/walk"
)

// landedCommit is a commit the agent hooks judge after it landed, read in
// place of the index: the hooks' registry list, knob files, rule inputs
// and declarations are its tree's copies where it holds one, and the
// clone's own files (the gitignored `*.local.*` lists among them)
// otherwise, as a pre-commit hook in this clone would have read them.
type landedCommit struct {
	id   string
	base string // its first parent; "" for a root commit
	tree *repo.Snapshot
	// deleted are the paths the commit removes: absent, whatever the
	// clone's work tree still holds.
	deleted map[string]bool
	// scratch is the directory the judge writes its own inputs in (the
	// message file), read from the disk wherever it lies.
	scratch string
	// prior is the first parent's tree when the commit changes only the
	// bytes of paths it lists (nil otherwise): the members that keep whole
	// results start from that tree's (gate.Context.Prior).
	prior *gate.Prior
	// unregistered marks a commit whose tree holds no registry list (a
	// pages branch, an orphan of a few files): it carries no configuration
	// of its own, so what it does not hold is read from the disk, as the
	// hooks that judged it when it was made read it.
	unregistered bool
	// config, set for a foreign tree (one recording no registry over a
	// first parent recording none), is the tree every configuration file
	// is read from in place of the commit's and the disk's: the default
	// branch's tip (foreignConfig). The clone's own local lists still add
	// their bans.
	config   *repo.Snapshot
	dirsOnce sync.Once
	dirs     map[string]map[string]bool
}

// errNeedsCheckout is a landed commit's in-process judge giving way: a
// member it would run reads the work tree itself (a shell member, a
// touched gate's fixture pair), so the commit is judged on a checkout.
var errNeedsCheckout = errors.New("a member of this commit's plan reads the work tree: judged on a checkout")

// copyOf is gate.Context.ConfigCopy over the commit: its copy of abs when
// it holds one. Under the work tree, a file it does not hold is absent
// unless it is one of the clone's own `*.local.*` files, which no commit
// carries and a hook here reads from the disk; a path outside the work
// tree is left to the disk (found false), as is the clone's local file.
func (c *landedCommit) copyOf(abs string) ([]byte, bool, error) {
	if c.config != nil {
		return c.configCopy(abs)
	}
	data, found, err := snapshotCopy(c.tree)(abs)
	if err != nil || found {
		return data, found, err
	}
	if c.absent(abs) {
		return nil, false, &fs.PathError{Op: "read", Path: abs, Err: fs.ErrNotExist}
	}
	if data, ok := c.localBans(abs); ok {
		return data, true, nil
	}
	return nil, false, nil
}

// localBans answers one of the clone's own `*.local.list` files under the
// work tree (which no commit carries) without its spare lines (those
// opening with '!'): a landed commit is judged with the clone's private
// bans added, never with a private spare lifting a ban the commit's own
// lists hold. false leaves the file to the disk as it is.
func (c *landedCommit) localBans(abs string) ([]byte, bool) {
	// assertion C: the clone's local lists add bans, not spares.
	base := filepath.Base(abs)
	if !strings.Contains(base, ".local.") || !(strings.HasSuffix(base, ".list") || strings.HasSuffix(base, ".knobs")) {
		return nil, false
	}
	if rel, ok := walk.RelUnder(c.tree.Dir(), abs); !ok || rel == "" {
		return nil, false
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, false
	}
	if strings.HasSuffix(base, ".knobs") {
		return dropTrackedSet(data), true
	}
	return dropSpares(data), true
}

// trackedSetKnob names the tracked banned-pattern lists; a clone's knob
// overlay may add private lists (GATE_SDK_MSG_PATTERN_FILES_LOCAL) but
// not put others in place of the tracked ones for a landed commit.
const trackedSetKnob = "GATE_SDK_MSG_PATTERN_FILES"

// dropTrackedSet answers a knob overlay without its lines that set the
// tracked pattern lists.
func dropTrackedSet(data []byte) []byte {
	var b strings.Builder
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if knobHead(l) == trackedSetKnob {
			continue
		}
		b.WriteString(l)
	}
	return []byte(b.String())
}

// knobHead answers the knob name a knob-file line opens with ("" for a
// blank or comment line).
func knobHead(l string) string {
	s := strings.TrimLeft(l, " \t")
	end := 0
	for end < len(s) && (s[end] == '_' || s[end] >= 'A' && s[end] <= 'Z' || s[end] >= 'a' && s[end] <= 'z' || s[end] >= '0' && s[end] <= '9') {
		end++
	}
	return s[:end]
}

// dropSpares answers a pattern list without its spare lines.
func dropSpares(data []byte) []byte {
	lines := strings.SplitAfter(string(data), "\n")
	var b strings.Builder
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), "!") {
			continue
		}
		b.WriteString(l)
	}
	return []byte(b.String())
}

// absent reports whether abs, a file the commit does not hold, is not
// there for its judge: a path under the work tree that the commit deletes,
// or that is neither one of the clone's `*.local.*` files nor a directory
// (the clone's work tree may hold files a later commit added).
func (c *landedCommit) absent(abs string) bool {
	rel, ok := walk.RelUnder(c.tree.Dir(), abs)
	if !ok || rel == "" {
		return false
	}
	if c.scratch != "" {
		if in, ok := walk.RelUnder(c.scratch, abs); ok && in != "" {
			return false
		}
	}
	if c.deleted[filepath.ToSlash(rel)] {
		return true
	}
	if c.unregistered {
		return false
	}
	if strings.Contains(filepath.Base(abs), ".local.") {
		return false
	}
	fi, err := os.Stat(abs)
	return err == nil && !fi.IsDir()
}

// landedFS is the registry's file access for a landed commit's judge:
// declarations the commit holds are read from it, the rest from the disk.
type landedFS struct {
	registry.OSAt
	c *landedCommit
}

func (f landedFS) abs(name string) string { return walk.AbsAgainst(f.Dir, name) }

func (f landedFS) ReadFile(name string) ([]byte, error) {
	data, found, err := f.c.copyOf(f.abs(name))
	if err != nil || found {
		return data, err
	}
	return f.OSAt.ReadFile(name)
}

func (f landedFS) Stat(name string) (fs.FileInfo, error) {
	if f.c.config != nil && f.c.configIsDir(f.abs(name)) {
		return heldDir{name: filepath.Base(name)}, nil
	}
	data, found, err := f.c.copyOf(f.abs(name))
	if err != nil {
		return nil, err
	}
	if found {
		return heldFile{name: filepath.Base(name), size: int64(len(data))}, nil
	}
	return f.OSAt.Stat(name)
}

func (f landedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if f.c.config != nil {
		return f.c.configReadDir(f.abs(name))
	}
	return f.OSAt.ReadDir(name)
}

// heldFile is the FileInfo of a regular file the commit holds.
type heldFile struct {
	name string
	size int64
}

func (h heldFile) Name() string       { return h.name }
func (h heldFile) Size() int64        { return h.size }
func (h heldFile) Mode() fs.FileMode  { return 0o644 }
func (h heldFile) ModTime() time.Time { return time.Time{} }
func (h heldFile) IsDir() bool        { return false }
func (h heldFile) Sys() any           { return nil }

// landedHook is one hook's answer over a landed commit.
type landedHook struct {
	hook string
	code int
	out  string
}

// judgeLanded runs the commit-msg and pre-commit hooks in process over the
// landed commit id (first parent base, "" for a root commit), its message
// in msgFile: the hooks' own code, the commit's tree standing for the
// index and its change against base for the staged one. No checkout is
// made; the blobs read are those the selected members ask for. It answers
// errNeedsCheckout when a member of a plan reads the work tree itself.
// changed answers the paths the commit changes.
func (r hookRepo) judgeLanded(id, base, msgFile string) (hooks []landedHook, changed map[string]bool, err error) {
	g := asWritten()
	// The index the listing starts from is verified once and recorded, as
	// the hooks' own reads are (§The snapshot, P).
	g.RecordVerified = cacheWanted(r.s)
	common := ""
	if _, c, err := r.gitDirs(); err == nil {
		common = c
	}
	tree, err := g.CommitSnapshot(r.top, common, id)
	if err != nil {
		return nil, nil, err
	}
	var changes []repo.Change
	ok := false
	if o, open := r.objects(); open {
		changes, ok = o.Changes(base, id)
	}
	if !ok {
		if changes, err = g.CommitChanges(r.top, base, id); err != nil {
			return nil, nil, err
		}
	}
	hooks, err = r.judgeIn(judgeInput{id: id, base: base, tree: tree, changes: changes, msgFile: msgFile})
	if err != nil {
		return nil, nil, err
	}
	changed = map[string]bool{}
	for _, ch := range changes {
		changed[ch.Path] = true
	}
	return hooks, changed, nil
}

// judgeInput is one tree the git hooks judge in process.
type judgeInput struct {
	id, base string // the commit ("" for the index) and its first parent
	tree     *repo.Snapshot
	changes  []repo.Change
	// msgFile is the message the commit-msg hook reads; "" runs none.
	msgFile string
	// only, when set, is the one hook run (with its arguments), its
	// output written to out; otherwise commit-msg and pre-commit run,
	// each one's output kept.
	only []string
	out  io.Writer
	// config is the configuration tree the caller decided on already
	// (foreignConfig's answer); nil lets the judge decide.
	config *repo.Snapshot
	// staged marks the index of a commit git is about to make: a passing
	// pre-commit records its tree as judged (githook.Landed.Staged).
	staged bool
	// alone judges a foreign tree with in.config only, not with the
	// other default-branch candidates as well (otherConfigTips).
	alone bool
}

// judgeIn runs the hooks over in.tree, in place of the index, with its
// change against in.base for the staged one. A tree that records the
// registry is judged with its own configuration; one that records none
// over a first parent recording none is judged with the default branch's
// (a foreign tree, foreignConfig); one that records none over a parent
// that does is judged with the disk's, as its hooks were.
func (r hookRepo) judgeIn(in judgeInput) (hooks []landedHook, err error) {
	scratch := ""
	if in.msgFile != "" {
		scratch = walk.AbsAgainst(r.top, filepath.Dir(in.msgFile))
	}
	c := &landedCommit{id: in.id, base: in.base, tree: in.tree, deleted: map[string]bool{}, scratch: scratch}
	for _, ch := range in.changes {
		if ch.Status == 'D' {
			c.deleted[ch.Path] = true
		}
	}
	if in.id != "" {
		c.prior = r.priorOf(in.base, in.tree, in.changes)
	}
	var out bytes.Buffer
	var sink io.Writer = &out
	if in.out != nil {
		sink = in.out
	}
	env := r.s.Env
	if env == nil {
		env = os.LookupEnv
	}
	js := newSession(IO{Stdout: sink, Stderr: sink, Env: landedEnv(env), Name: "gates"})
	defer js.close()
	js.cwdOnce.Do(func() { js.cwd, js.cwdTop = r.top, r.top })
	js.indexFirst = true
	js.landed = c
	js.treeBuild = func() (*repo.Snapshot, error) { return in.tree, nil }
	// The gates dir's locator is the environment's alone, so the judge's
	// own session answers it before any configuration is read.
	list := registryListIn(js, r.top)
	if list != "" {
		if _, held := in.tree.Mode(list); !held {
			cfg := in.config
			if cfg == nil {
				if cfg, err = r.foreignConfig(in.base, list); err != nil {
					return nil, err
				}
			}
			// assertion C: a commit that records no registry over a parent
			// that records one is judged by the one on disk, as its hooks
			// were; over a parent recording none, by the default branch's.
			c.config = cfg
			c.unregistered = cfg == nil
		}
	}
	w, err := js.hookWorld()
	if err != nil {
		return nil, err
	}
	needs := false
	w.Landed = &githook.Landed{Tree: in.tree, Changes: in.changes, Staged: in.staged, Planned: func(_ string, plan []githook.Step) error {
		for _, s := range plan {
			if s.Kind == registry.Shell && s.Problem == "" {
				needs = true
				return errNeedsCheckout
			}
		}
		return nil
	}}
	if c.config != nil {
		// A foreign tree holds none of the project's gates, and nothing of
		// it is left to a battery that never runs over it.
		w.Pairs, w.Debt = nil, nil
	} else {
		pairs := w.Pairs
		w.Pairs = func(staged []string) (bool, int, []byte, error) {
			ran, code, o, err := pairs(staged)
			if errors.Is(err, errNeedsCheckout) {
				needs = true
			}
			return ran, code, o, err
		}
	}
	runs := [][]string{{githook.CommitMsg, in.msgFile}, {githook.PreCommit}}
	if in.only != nil {
		runs = [][]string{in.only}
	}
	for _, args := range runs {
		if args[0] == githook.CommitMsg && args[1] == "" {
			continue // the tree alone is asked (JudgeTree)
		}
		out.Reset()
		code := githook.RunHook(args, w)
		if needs {
			return nil, errNeedsCheckout
		}
		hooks = append(hooks, landedHook{hook: args[0], code: code, out: out.String()})
	}
	// assertion C: a foreign tree judged after the fact (not the hook's
	// own run, whose report is written as it goes) is red when any
	// default-branch candidate's configuration finds it red: which one
	// is read first is the agent's to steer.
	if c.config != nil && in.out == nil && !in.alone && landedClean(hooks) {
		others, err := r.otherConfigTips(list)
		if err != nil {
			return nil, err
		}
		for _, o := range others {
			again := in
			again.config, again.alone = o, true
			h, err := r.judgeIn(again)
			if err != nil {
				return nil, err
			}
			if !landedClean(h) {
				return h, nil
			}
		}
	}
	return hooks, nil
}

// landedClean reports whether every hook of a judgement passed.
func landedClean(hooks []landedHook) bool {
	for _, h := range hooks {
		if h.code != 0 {
			return false
		}
	}
	return true
}

// landedEnv is the environment a landed commit's hooks read: the
// caller's, without the variables that would point git at another
// repository, index or work tree than the clone's own.
func landedEnv(env func(string) (string, bool)) func(string) (string, bool) {
	return func(name string) (string, bool) {
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX":
			return "", false
		case "GIT_NO_REPLACE_OBJECTS":
			return "1", true
		}
		return env(name)
	}
}

// priorOf answers the prior tree a landed commit's whole-listing members
// may start from: its first parent's tree, named as a snapshot read from
// the index names a commit's tree ("tree <id>"), when the commit's own
// snapshot is named so and every change keeps its path and mode (no path
// added, deleted or re-typed). nil otherwise, or when the parent's tree
// is not read in process.
func (r hookRepo) priorOf(base string, tree *repo.Snapshot, changes []repo.Change) *gate.Prior {
	if base == "" || len(changes) == 0 {
		return nil
	}
	if d, ok := tree.TreeDigest(); !ok || !strings.HasPrefix(d, "tree ") {
		return nil
	}
	o, ok := r.objects()
	if !ok {
		return nil
	}
	m, ok := o.Meta(base)
	if !ok {
		return nil
	}
	paths := make([]string, 0, len(changes))
	for _, ch := range changes {
		if ch.Status != 'M' || ch.OldMode != ch.NewMode {
			return nil
		}
		paths = append(paths, ch.Path)
	}
	slices.Sort(paths)
	return &gate.Prior{Digest: "tree " + m.Tree, Changed: paths}
}
