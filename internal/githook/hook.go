package githook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gate-sdk/gates/internal/battery"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// HookUsage is the --git-hook arm's usage line.
const HookUsage = "usage: --git-hook pre-commit | pre-merge-commit | commit-msg <message-file> | post-commit | post-rewrite <command> | post-merge <squash> | post-applypatch | pre-push <remote> <url>"

// BypassLine follows every failed hook's report.
const BypassLine = "  Bypass once (use sparingly): git commit --no-verify"

// AgentLine takes BypassLine's place when the caller is a coding agent
// (AgentCaller): an agent is never offered a way around the hooks.
const AgentLine = "  Fix what the gates report and commit again; the hooks are not to be bypassed."

// bypassLine answers the line that closes a failed hook's report for the
// caller env describes.
func bypassLine(env Lookup) string {
	// assertion Y: an agent caller is never told --no-verify.
	if AgentCaller(env) {
		return AgentLine
	}
	return BypassLine
}

// Member is one registry member as the hook family dispatches it.
type Member struct {
	Name string
	// Kind is how the name resolved; Decl is the declaration path relative
	// to the work-tree top ("" when unresolved).
	Kind registry.DeclKind
	Decl string
	// Tier is the manifest's tier= value ("" when unresolved).
	Tier string
	// Staged marks a mode=staged member; Operands are then the selected
	// paths that triggered it, in the order they were given.
	Staged   bool
	Operands []string
	// Problem is a dispatch failure decided before the member could run
	// (an ambiguous declaration); it fails the member where it stands.
	Problem string
	// First asks that the member start ahead of the others when members
	// run ahead of their turn (a rule reading every tracked file's bytes):
	// the longest scans begin at once instead of trailing the run.
	// Scheduling only; outcomes are still taken in plan order.
	First bool
	// Shape marks a whole-tree member whose verdict can move when the
	// tracked listing or a mode moves (it lists the tree, walks it or asks
	// modes): a staged change adding, removing, retyping or chmod-ing any
	// path runs it, whatever its trigger says.
	Shape bool
}

// Registry is what the hook family needs of the registry. Both answers
// are in registry order.
type Registry interface {
	// Select is --for's selection over paths spelled relative to the
	// work-tree top: every member whose effective trigger matches at least
	// one path, a member resolving nowhere kept at its place. A member
	// whose declaration cannot be read is an error.
	Select(paths []string) ([]Member, error)
	// Members answers every registered member.
	Members() ([]Member, error)
	// Reads answers, in order, the paths among paths that the named
	// member reads or fires on: its effective trigger's and its couples'.
	Reads(name string, paths []string) ([]string, error)
}

// CompiledRun is one in-process run of a compiled (.gate) member.
type CompiledRun struct {
	Name string
	Args []string
	// Tree is the snapshot the rule reads; nil is the work tree.
	Tree *repo.Snapshot
	// ChildEnv is added to the environment of every process the rule
	// starts, and to no other.
	ChildEnv []string
	// Unchanged, when set, reports a tracked path the commit leaves as
	// HEAD holds it: a rule whose cached verdicts were last made complete
	// under other inputs may leave such a path to the battery, and reports
	// how many it left to Left.
	Unchanged func(path string) bool
	Left      func(n int)
	// LFSPointers receives how many git-lfs pointers the rule did not
	// judge (gate.Context.LFSPointers).
	LFSPointers func(n int)
}

// World is what the hook family reads and writes: the directory git
// started the hook in, the environment, the streams, the registry
// (loaded only once a selection is needed) and this binary.
type World struct {
	Dir    string
	Env    Lookup
	Stdout io.Writer
	Stderr io.Writer
	// Stdin is what git hands the hook on its standard input (the
	// post-rewrite hook's list of rewritten commits); nil is none.
	Stdin    io.Reader
	Registry func() (Registry, error)
	// Compiled runs a compiled member in process and answers its status
	// and its two streams captured together.
	Compiled func(CompiledRun) (int, []byte)
	// GitEnv is the environment the arm's own repository reads run
	// under; nil is this process's.
	GitEnv []string
	// Jobs answers how many in-process members pre-commit may run at
	// once (GATE_SDK_JOBS); nil is one.
	Jobs func() (int, error)
	// Budget answers each member's time budget (GATE_SDK_GATE_TIMEOUT);
	// nil or zero is none.
	Budget func() (time.Duration, error)
	// Pairs, when set, runs the fixture pairs of the repository's own
	// gates the staged paths touch (a gate's declaration or a file of its
	// pair), answering the runner's status and report; ran is false when
	// the commit touches none.
	Pairs func(staged []string) (ran bool, code int, out []byte, err error)
	// Costs, when set, keeps what each in-process member took on the
	// last pre-commit run over this repository, so the next run starts
	// the longest first. Scheduling only: no verdict depends on it.
	Costs Costs
	// Baseline, when set, reads the baseline tree records (nil: the work
	// tree's) and answers its refusal, so a malformed line refuses the
	// hook before any member runs.
	Baseline func(tree *repo.Snapshot) error
	// BaselineAdded, when set, answers one line per entry the baseline
	// tree records adds over HEAD's: what the commit newly accepts. staged
	// are the paths the commit changes.
	BaselineAdded func(tree *repo.Snapshot, staged []string) ([]string, error)
	// Debt, when set, records the files a passing pre-commit left to the
	// battery (member name to count) for the repository tree names, and
	// is what lets members leave any: without it every file is judged.
	Debt func(tree *repo.Snapshot, left map[string]int) error
	// Landed, when set, has the hooks judge a commit that already exists
	// rather than the index: pre-commit takes its tree and its change
	// against its first parent, and nothing is noted for the post-commit
	// hook (the commit is not being made).
	Landed *Landed
}

// Landed is a commit judged after the fact, as the hooks would have judged
// it had it been staged: Tree is what it holds, Changes what it changes
// against its first parent (every path, for a root commit).
type Landed struct {
	Tree    *repo.Snapshot
	Changes []repo.Change
	// Planned, when set, is shown each hook's plan before any member
	// runs; an error refuses the hook with it (exit 2), so a caller that
	// can judge only some members in process can go another way.
	Planned func(hook string, plan []Step) error
	// Staged marks a tree that is the index git is about to commit (a
	// hook judging it in place of its own reads): a passing pre-commit
	// records it as judged, as its own read would be.
	Staged bool
}

// Costs loads and keeps members' run times between hook runs (the
// result cache's directory holds them).
type Costs interface {
	Load(tree *repo.Snapshot) map[string]time.Duration
	Save(tree *repo.Snapshot, took map[string]time.Duration)
}

// RunHook is `--git-hook <hook> [<message-file>]`.
func RunHook(args []string, w World) int {
	usage := func() int {
		fmt.Fprintln(w.Stderr, HookUsage)
		return 2
	}
	// assertion A: the exact argv shape, refused before the registry is read.
	if len(args) == 0 {
		return usage()
	}
	switch args[0] {
	case PreCommit, PreMergeCommit:
		if len(args) != 1 {
			return usage()
		}
		// assertion S: a merge's pre-commit runs pre-commit's members.
		return preCommit(w, args[0])
	case CommitMsg:
		if len(args) != 2 {
			return usage()
		}
		return commitMsg(w, args[1])
	case PostCommit, PostApplypatch:
		if len(args) != 1 {
			return usage()
		}
		return postHook(w, args[0], nil, nil)
	case PostRewrite, PostMerge:
		if len(args) != 2 {
			return usage()
		}
		return postHook(w, args[0], args[1:], w.Stdin)
	case PrePush:
		if len(args) != 3 {
			return usage()
		}
		return prePush(w)
	}
	return usage()
}

// top answers the work-tree top the hook runs at, refusing outside a
// repository.
func (w World) top(arm string) (string, bool) {
	top, ok, err := walk.ToplevelOpt(w.Dir, w.GitEnv)
	if err != nil {
		fmt.Fprintf(w.Stderr, "%s: %v\n", arm, err)
		return "", false
	}
	if !ok {
		fmt.Fprintf(w.Stderr, "%s: %s is not inside a git repository\n", arm, w.Dir)
		return "", false
	}
	if !sameDir(top, w.Dir) {
		// Git starts a hook at the work-tree top, and the registry and
		// every declaration path are read relative to the working
		// directory, so a run from below it would read another tree.
		fmt.Fprintf(w.Stderr, "%s: run it at the work-tree top (%s), where git starts hooks; the working directory is %s\n", arm, top, w.Dir)
		return "", false
	}
	return top, true
}

func (w World) loadRegistry(arm string) (Registry, bool) {
	reg, err := w.Registry()
	return w.registryRead(arm, reg, err)
}

// registryRead answers a registry read's outcome, saying why on stderr
// when it failed.
func (w World) registryRead(arm string, reg Registry, err error) (Registry, bool) {
	if err != nil {
		fmt.Fprintf(w.Stderr, "%s: %v\n", arm, strings.TrimRight(err.Error(), "\n"))
		return nil, false
	}
	return reg, true
}

// git answers the repository reader the hook uses; with GATE_SDK_VERBOSE
// set, a read that falls back to the CLI says so on stderr.
func (w World) git() repo.Git {
	g := repo.Git{Env: w.GitEnv}
	if envValue(w.Env, "GATE_SDK_VERBOSE") != "" {
		g.Debug = w.Stderr
	}
	// An index read again unchanged is not hashed again, unless the run
	// keeps no stored state (GATE_SDK_CACHE=off).
	if v := envValue(w.Env, "GATE_SDK_CACHE"); v == "" || v == "on" {
		g.RecordVerified = true
	}
	return g
}

func preCommit(w World, hook string) int {
	top, ok := w.top(hook)
	if !ok {
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(w.Stderr, "%s: %v\n", hook, strings.TrimRight(err.Error(), "\n"))
		return 2
	}
	// The staged listing (a git process), the index decoded into the
	// snapshot and the registry are independent reads: they run side by
	// side, and their answers are taken in the order a serial hook would
	// take them, so the refusal a broken input earns is unchanged.
	git := w.git()
	snapGit := git
	var snapDebug bytes.Buffer
	if snapGit.Debug != nil {
		snapGit.Debug = &snapDebug
	}
	type snapshotted struct {
		tree *repo.Snapshot
		err  error
	}
	type registered struct {
		reg Registry
		err error
	}
	snapCh := make(chan snapshotted, 1)
	regCh := make(chan registered, 1)
	if w.Landed != nil {
		snapCh <- snapshotted{w.Landed.Tree, nil}
	} else {
		go func() {
			t, err := snapGit.StagedSnapshot(top)
			snapCh <- snapshotted{t, err}
		}()
	}
	go func() {
		reg, err := w.Registry()
		regCh <- registered{reg, err}
	}()
	var changes []repo.Change
	var err error
	if w.Landed != nil {
		changes = w.Landed.Changes
	} else {
		changes, err = git.StagedChanges(top)
	}
	snap, loaded := <-snapCh, <-regCh
	if err != nil {
		return fail(err)
	}
	// assertion B: an empty staged set is silent and judges nothing.
	if len(changes) == 0 {
		return 0
	}
	// assertion U: deletions and both halves of a rename select too, and a
	// change to the listing or a mode selects every member reading them.
	var staged []string
	shape := false
	for _, c := range changes {
		staged = append(staged, c.Path)
		shape = shape || c.Shape()
	}
	w.Stderr.Write(snapDebug.Bytes())
	// assertion N: the members judge the index: one staged snapshot.
	tree, err := snap.tree, snap.err
	if err != nil {
		return fail(err)
	}
	// assertion O: a conflict with no stage 2 has nothing to judge.
	if un := tree.Unresolved(); len(un) > 0 {
		return fail(fmt.Errorf("unmerged with no version of ours to judge: %s\n  resolve each (git add or git rm) and commit again", strings.Join(un, ", ")))
	}
	reg, ok := w.registryRead(hook, loaded.reg, loaded.err)
	if !ok {
		return 2
	}
	plan, err := PreCommitPlan(reg, tree, staged, shape)
	if err != nil {
		return fail(err)
	}
	if w.Landed != nil && w.Landed.Planned != nil {
		if err := w.Landed.Planned(hook, plan); err != nil {
			return fail(err)
		}
	}
	if msg, err := w.misjudged(hook, reg, top, plan); err != nil {
		return fail(err)
	} else if msg != "" {
		fmt.Fprint(w.Stderr, msg)
		return 2
	}
	// assertion R: a malformed baseline refuses the hook, naming its line.
	if w.Baseline != nil {
		if err := w.Baseline(tree); err != nil {
			return fail(err)
		}
	}
	// assertion Z: a commit that grows the baseline says, one line per
	// added entry, what it accepts, before any member runs; the diff alone
	// shows a reviewer only digests.
	if w.BaselineAdded != nil {
		lines, err := w.BaselineAdded(tree, staged)
		if err != nil {
			return fail(err)
		}
		for _, l := range lines {
			fmt.Fprintf(w.Stdout, "%s: %s\n", hook, l)
		}
	}
	r := w.runner(top)
	r.tree = tree
	r.lfs = &leftCounts{m: map[string]int{}}
	if w.Debt != nil {
		// assertion V: only a path the commit leaves as HEAD holds it may
		// be left to the battery; every staged path is judged.
		changed := make(map[string]bool, len(changes))
		for _, c := range changes {
			changed[c.Path] = true
		}
		r.unchanged = func(p string) bool { return !changed[p] }
		r.left = &leftCounts{m: map[string]int{}}
	}
	if w.Jobs != nil {
		if r.jobs, err = w.Jobs(); err != nil {
			return fail(err)
		}
	}
	if w.Budget != nil {
		if r.budget, err = w.Budget(); err != nil {
			return fail(err)
		}
	}
	if w.Costs != nil && r.jobs >= 2 {
		r.costs = w.Costs.Load(tree)
		r.took = &tookTimes{m: map[string]time.Duration{}}
	}
	code := r.serial(hook, plan)
	if code == 0 && w.Pairs != nil {
		// assertion Y: a commit touching a gate of the repository's own
		// runs that gate's fixture pair and is refused when a case fails.
		ran, pc, out, err := w.Pairs(staged)
		if err != nil {
			return fail(err)
		}
		if ran && pc != 0 {
			w.Stdout.Write(withNewline(out))
			fmt.Fprintf(w.Stdout, "\n%s: the self-test of a gate this commit touches failed: its fixture pair or its registration (see above).\n%s\n", hook, bypassLine(w.Env))
			return 1
		}
		if ran {
			w.Stdout.Write(withNewline(out))
		}
	}
	if code == 0 && r.left != nil && len(r.left.m) > 0 {
		// assertion V: the debt is recorded before the commit goes on; a
		// debt that cannot be recorded refuses it.
		if err := w.Debt(tree, r.left.m); err != nil {
			return fail(fmt.Errorf("could not record the files left to the battery: %v", err))
		}
	}
	if code == 0 && (w.Landed == nil || w.Landed.Staged) {
		w.recordJudged(hook, top, tree.CommonDir())
	}
	if r.took != nil && code == 0 && !sameRanking(r.costs, r.took.m) {
		// A run that stopped early timed only some members; one whose
		// members rank as the kept times rank them changes no start order,
		// and nothing is written.
		w.Costs.Save(tree, r.took.m)
	}
	return code
}

// misjudged answers the refusal the plan's shell members earn: a .sh
// member reads the work tree itself, so every path it reads whose work-tree
// state differs from the index would be judged as it is not committed.
// "" when no such path exists (or no shell member runs).
func (w World) misjudged(hook string, reg Registry, top string, plan []Step) (string, error) {
	// assertion P: a shell member never judges a mix: a partially staged
	// path it reads refuses the commit, naming member and path.
	var unstaged []string
	var listed bool
	var b strings.Builder
	for _, s := range plan {
		if s.Kind != registry.Shell || s.Problem != "" {
			continue
		}
		if !listed {
			var err error
			if unstaged, err = w.git().Unstaged(top); err != nil {
				return "", err
			}
			listed = true
		}
		if len(unstaged) == 0 {
			return "", nil
		}
		reads, err := reg.Reads(s.Name, unstaged)
		if err != nil {
			return "", err
		}
		for _, p := range reads {
			fmt.Fprintf(&b, "  %s reads %s, whose work-tree copy is not what this commit holds\n", s.Name, p)
		}
	}
	if b.Len() == 0 {
		return "", nil
	}
	return fmt.Sprintf("%s: a shell member reads the work tree, which differs from the index here:\n%s"+
		"  Stage those changes (git add) or set them aside (git stash push --keep-index), then commit again.\n%s\n",
		hook, b.String(), bypassLine(w.Env)), nil
}

// Step is one member run of a hook: the member and its operands.
type Step struct {
	Member
	Args []string
}

// Modes answers a tracked path's index mode.
type Modes interface {
	Mode(path string) (uint32, bool)
}

// PreCommitPlan is the pre-commit selection over paths: --for's selection
// narrowed to tier=precommit (a member resolving nowhere stays, to fail at
// its place), each name once, and a mode=staged member handed its
// selected paths that the index records as regular files, or left out
// when none is. With shape (the change adds, removes, retypes or chmods a
// path) every whole-tree member marked Shape joins, at its registry place.
func PreCommitPlan(reg Registry, index Modes, paths []string, shape bool) ([]Step, error) {
	selected, err := reg.Select(paths)
	if err != nil {
		return nil, err
	}
	if shape {
		if selected, err = withShapeReaders(reg, selected); err != nil {
			return nil, err
		}
	}
	var plan []Step
	seen := map[string]bool{}
	// assertion C: --for's selection, tier=precommit, registry order, each
	// name once; a member resolving nowhere stays to fail at its place.
	for _, m := range selected {
		if seen[m.Name] {
			continue
		}
		resolved := m.Kind == registry.Shell || m.Kind == registry.Descriptor
		if resolved && m.Tier != registry.TierPrecommit {
			continue
		}
		seen[m.Name] = true
		step := Step{Member: m}
		// assertion D: a staged member takes its regular-file operands only.
		if m.Staged && resolved {
			for _, p := range m.Operands {
				if indexRegular(index, p) {
					step.Args = append(step.Args, p)
				}
			}
			if len(step.Args) == 0 {
				continue
			}
		}
		plan = append(plan, step)
	}
	return plan, nil
}

// withShapeReaders merges into selected, in registry order, every
// whole-tree member that reads the listing or modes.
func withShapeReaders(reg Registry, selected []Member) ([]Member, error) {
	all, err := reg.Members()
	if err != nil {
		return nil, err
	}
	picked := map[string]Member{}
	for _, m := range selected {
		picked[m.Name] = m
	}
	var out []Member
	emitted := map[string]bool{}
	for _, m := range all {
		if sel, ok := picked[m.Name]; ok {
			out = append(out, sel)
			emitted[m.Name] = true
		} else if m.Shape && !m.Staged {
			out = append(out, m)
		}
	}
	// A selected member the listing does not hold (never so for one
	// registry's two answers) is kept rather than dropped.
	for _, m := range selected {
		if !emitted[m.Name] {
			out = append(out, m)
		}
	}
	return out, nil
}

// regularFile reports whether p is a regular file, not following a link.
func regularFile(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode().IsRegular()
}

// indexRegular reports whether the index records p as a regular file.
func indexRegular(index Modes, p string) bool {
	mode, ok := index.Mode(p)
	return ok && (mode == repo.ModeRegular || mode == repo.ModeExecutable)
}

func commitMsg(w World, msgFile string) int {
	top, ok := w.top(CommitMsg)
	if !ok {
		return 2
	}
	reg, ok := w.loadRegistry(CommitMsg)
	if !ok {
		return 2
	}
	all, err := reg.Members()
	if err != nil {
		fmt.Fprintf(w.Stderr, "%s: %v\n", CommitMsg, strings.TrimRight(err.Error(), "\n"))
		return 2
	}
	// assertion F: every resolved tier=commit-msg member, with the message file.
	var plan []Step
	seen := map[string]bool{}
	for _, m := range all {
		if seen[m.Name] || m.Tier != registry.TierCommitMsg {
			continue
		}
		if m.Kind != registry.Shell && m.Kind != registry.Descriptor {
			continue
		}
		seen[m.Name] = true
		plan = append(plan, Step{Member: m, Args: []string{msgFile}})
	}
	if len(plan) == 0 {
		return 0
	}
	if w.Landed != nil && w.Landed.Planned != nil {
		if err := w.Landed.Planned(CommitMsg, plan); err != nil {
			fmt.Fprintf(w.Stderr, "%s: %v\n", CommitMsg, err)
			return 2
		}
	}
	if w.Baseline != nil {
		if err := w.Baseline(nil); err != nil {
			fmt.Fprintf(w.Stderr, "%s: %v\n", CommitMsg, err)
			return 2
		}
	}
	code := w.runner(top).serial(CommitMsg, plan)
	return code
}

// runner dispatches members at dir.
type runner struct {
	dir      string
	env      Lookup
	compiled func(CompiledRun) (int, []byte)
	tree     *repo.Snapshot
	stdout   io.Writer
	verbose  bool
	// jobs is how many in-process members may run at once; below 2 the
	// plan runs one member at a time.
	jobs int
	// budget bounds each member's run; zero is none.
	budget time.Duration
	// costs are the members' last run times (nil: none known); took
	// gathers this run's.
	costs map[string]time.Duration
	took  *tookTimes
	// unchanged answers the paths the commit leaves as HEAD holds them
	// (nil: none may be left); left gathers what members left.
	unchanged func(string) bool
	left      *leftCounts
	// lfs gathers, per member, the git-lfs pointers it did not judge.
	lfs *leftCounts
}

// leftCounts gathers, per member, the files it left to the battery.
type leftCounts struct {
	mu sync.Mutex
	m  map[string]int
}

func (l *leftCounts) add(name string, n int) {
	l.mu.Lock()
	l.m[name] += n
	l.mu.Unlock()
}

// summary spells what the members left, for the clean line ("" when
// nothing was left).
func (l *leftCounts) summary() string {
	if l == nil {
		return ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.m) == 0 {
		return ""
	}
	names := make([]string, 0, len(l.m))
	for n := range l.m {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %d", n, l.m[n]))
	}
	return strings.Join(parts, ", ")
}

// pointers spells, for the clean line, the git-lfs pointers the members
// did not judge ("" when none): the most any one member met, then each
// member's count.
func (l *leftCounts) pointers() string {
	s := l.summary()
	if s == "" {
		return ""
	}
	most := 0
	l.mu.Lock()
	for _, n := range l.m {
		most = max(most, n)
	}
	l.mu.Unlock()
	// A pointer is no judged file (§check-tree-terms, L).
	return fmt.Sprintf("; %d git-lfs pointer(s) not judged (%s)", most, s)
}

// sameRanking reports whether took names the members kept names and
// orders them, longest first, the same way (ties broken by name).
func sameRanking(kept, took map[string]time.Duration) bool {
	if len(kept) != len(took) {
		return false
	}
	rank := func(m map[string]time.Duration) []string {
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool {
			if m[names[i]] != m[names[j]] {
				return m[names[i]] > m[names[j]]
			}
			return names[i] < names[j]
		})
		return names
	}
	a, b := rank(kept), rank(took)
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// tookTimes gathers what each member took, from the workers.
type tookTimes struct {
	mu sync.Mutex
	m  map[string]time.Duration
}

func (t *tookTimes) add(name string, d time.Duration) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.m[name] = d
	t.mu.Unlock()
}

func (w World) runner(top string) runner {
	return runner{dir: top, env: w.Env, compiled: w.Compiled, stdout: w.Stdout, verbose: envValue(w.Env, "GATE_SDK_VERBOSE") != ""}
}

// childEnv is what each member's children gain: in a linked worktree git
// sets GIT_DIR and leaves GIT_WORK_TREE unset, so the work tree git
// implied is pinned for the git a member starts, which may start below it.
func (r runner) childEnv() []string {
	// assertion I: the pin goes into the children's environment only.
	if _, set := lookupOK(r.env, "GIT_DIR"); !set {
		return nil
	}
	if _, set := lookupOK(r.env, "GIT_WORK_TREE"); set {
		return nil
	}
	return []string{"GIT_WORK_TREE=" + r.dir}
}

// dispatch runs one member under the budget and answers its status and
// merged output.
func (r runner) dispatch(m Member, args []string) (int, []byte) {
	// assertion X: a member past its budget is stopped and reads exit 2.
	o := battery.Bounded(m.Name, m.Kind == registry.Descriptor, r.budget, 0, func(ctx context.Context) battery.Outcome {
		code, out := r.dispatchCtx(ctx, m, args)
		return battery.Outcome{Code: code, Output: out}
	})
	return o.Code, o.Output
}

// dispatchCtx runs one member; ctx bounds a shell member's process group.
func (r runner) dispatchCtx(ctx context.Context, m Member, args []string) (int, []byte) {
	if m.Problem != "" {
		return 2, []byte(strings.TrimRight(m.Problem, "\n") + "\n")
	}
	// assertion G: a .gate member runs in process over the hook's
	// snapshot; a .sh member is a child started by its path.
	switch m.Kind {
	case registry.Descriptor:
		run := CompiledRun{Name: m.Name, Args: args, Tree: r.tree, ChildEnv: r.childEnv()}
		if r.lfs != nil {
			run.LFSPointers = func(n int) { r.lfs.add(m.Name, n) }
		}
		if r.left != nil {
			run.Unchanged = r.unchanged
			run.Left = func(n int) { r.left.add(m.Name, n) }
		}
		return r.compiled(run)
	case registry.Shell:
		p, err := spawn.ConsumerCommand(walk.AbsAgainst(r.dir, m.Decl), m.Decl)
		if err != nil {
			return 2, []byte(fmt.Sprintf("%s: %v\n", m.Name, err))
		}
		c, err := spawn.RunMerged(spawn.Cmd{Program: p, Args: args, Dir: r.dir, ExtraEnv: r.childEnv(), Ctx: ctx})
		if err != nil {
			return 2, []byte(fmt.Sprintf("%s: %v\n", m.Name, err))
		}
		return c.ReportedCode(), c.Output()
	case registry.Ambiguous:
		return 2, []byte(fmt.Sprintf("%s: ambiguous dispatch: %s declares it under both spellings; keep one\n", m.Name, m.Decl))
	}
	return 2, []byte(fmt.Sprintf("%s resolves to no %s.sh or %s.gate in the gates dir or any kit root's checks/\n", m.Name, m.Name, m.Name))
}

// outcome is one member's status and merged output.
type outcome struct {
	code int
	out  []byte
}

// inProcess reports whether step runs in process: a compiled member with
// no dispatch problem, which starts no member of its own and writes
// nothing the others read.
func inProcess(s Step) bool { return s.Problem == "" && s.Kind == registry.Descriptor }

// ahead starts the plan's in-process members on r.jobs workers, in plan
// order, and answers one channel per step (nil for a step run in turn).
// stop, closed, keeps the members not yet started from starting; wait
// returns once every started member has finished.
func (r runner) ahead(plan []Step) (results []chan outcome, stop func(), wait func()) {
	results = make([]chan outcome, len(plan))
	done := make(chan struct{})
	var once sync.Once
	stop = func() { once.Do(func() { close(done) }) }
	var wg sync.WaitGroup
	if r.jobs < 2 {
		return results, stop, wg.Wait
	}
	sem := make(chan struct{}, r.jobs)
	var todo []int
	for _, first := range []bool{true, false} {
		for i, s := range plan {
			if inProcess(s) && s.Member.First == first {
				results[i] = make(chan outcome, 1)
				todo = append(todo, i)
			}
		}
	}
	// With every member's last run time known, the longest start first
	// (ties in the order above): two workers then finish close together
	// instead of one idling while the other runs a long member last.
	known := len(r.costs) > 0
	for _, i := range todo {
		if _, ok := r.costs[plan[i].Member.Name]; !ok {
			known = false
		}
	}
	if known {
		sort.SliceStable(todo, func(a, b int) bool {
			return r.costs[plan[todo[a]].Member.Name] > r.costs[plan[todo[b]].Member.Name]
		})
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for _, i := range todo {
			select {
			case sem <- struct{}{}:
			case <-done:
				return
			}
			select {
			case <-done:
				<-sem
				return
			default:
			}
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				defer func() { <-sem }()
				start := time.Now()
				code, out := r.dispatch(plan[i].Member, plan[i].Args)
				r.took.add(plan[i].Member.Name, time.Since(start))
				results[i] <- outcome{code, out}
			}(i)
		}
	}()
	return results, stop, wg.Wait
}

// serial runs the whole plan in order and prints the hook's report: every
// failing member's output with its failure line, so one commit attempt
// shows every red gate. It answers the status. In-process members may run
// ahead of their turn on the spare workers; their outcomes are taken in
// plan order and a shell member starts in its turn, so the report is the
// one a one-at-a-time run prints.
func (r runner) serial(hook string, plan []Step) int {
	// assertion Q: in-process members run ahead on the workers; outcomes
	// are read in plan order and a shell member waits its turn.
	results, stop, wait := r.ahead(plan)
	defer wait()
	defer stop()
	// assertion H: the byte-exact report.
	var buf bytes.Buffer
	var failed []string
	for i, s := range plan {
		var code int
		var out []byte
		if results[i] != nil {
			o := <-results[i]
			code, out = o.code, o.out
		} else {
			code, out = r.dispatch(s.Member, s.Args)
		}
		if code != 0 {
			// assertion G: a red member does not stop the hook; each is
			// reported with its own failure line.
			buf.Write(withNewline(out))
			fmt.Fprintf(&buf, "\n%s: %s failed (see above).\n", hook, s.Name)
			r.stdout.Write(buf.Bytes())
			buf.Reset()
			failed = append(failed, s.Name)
			continue
		}
		if r.verbose {
			buf.Write(withNewline(out))
			fmt.Fprintf(&buf, "  PASS: %s\n", s.Name)
			r.stdout.Write(buf.Bytes())
			buf.Reset()
		}
	}
	if len(failed) > 0 {
		if len(failed) > 1 {
			fmt.Fprintf(&buf, "%s: %d of %d gate(s) failed: %s.\n", hook, len(failed), len(plan), strings.Join(failed, ", "))
		}
		fmt.Fprintf(&buf, "%s\n", bypassLine(r.env))
		r.stdout.Write(buf.Bytes())
		return 1
	}
	// assertion V: a clean line never claims a file no member judged.
	lfs := r.lfs.pointers()
	if left := r.left.summary(); left != "" {
		fmt.Fprintf(r.stdout, "%s: %d gate(s) passed over the staged files%s; unchanged files were left to the battery (%s), their rule inputs or this binary having changed since their last whole judgement: run gates --run to settle.\n", hook, len(plan), lfs, left)
		return 0
	}
	if lfs != "" {
		fmt.Fprintf(r.stdout, "%s: %d gate(s) passed%s.\n", hook, len(plan), lfs)
		return 0
	}
	fmt.Fprintf(r.stdout, "%s: %d gate(s) passed.\n", hook, len(plan))
	return 0
}

func withNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return append(append([]byte(nil), b...), '\n')
	}
	return b
}
