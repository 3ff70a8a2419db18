package cli

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/githook"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// hookAndSmokeArms answers the arms of the git-hook family (--git-hook,
// --install-hooks, --measure-commit) and the consumer-smoke family
// (--run-consumer-smoke, --run-demo).
func hookAndSmokeArms() []Arm {
	hookKnobs := []string{"GATE_SDK_GATES_DIR", "GATE_SDK_KIT_DIRS"}
	return []Arm{
		{Flag: "--git-hook", Synopsis: "pre-commit | pre-merge-commit | commit-msg <message-file> | post-commit | post-rewrite <command> | post-merge <squash> | post-applypatch | pre-push <remote> <url>",
			Summary: "what a placed git hook runs: the gates the staged paths trigger, or the commit-msg gates",
			Knobs:   append(append([]string(nil), hookKnobs...), "GATE_SDK_JOBS"), Family: Run, Main: runGitHook},
		{Flag: "--install-hooks", Synopsis: "[--refresh | --take-over | --restore]",
			Summary: "place the pre-commit and commit-msg hooks in this clone and point core.hooksPath at them (--take-over replaces other hooks, recording them for --restore)",
			// The arm's own knobs, then its callee's: the identity rung runs
			// check-identity, whose reads are this run's too.
			Knobs:  append(append([]string{"GATE_SDK_NATIVE_BIN"}, hookKnobs...), declaredKnobs(githook.IdentityGate)...),
			Family: Run, Main: runInstallHooks},
		{Flag: "--measure-commit", Synopsis: "",
			Summary: "time what the pre-commit hook would run if every tracked path were staged",
			Knobs:   hookKnobs, Family: Run, Main: runMeasureCommit},
		{Flag: "--run-consumer-smoke", Synopsis: "[--keep] [<kit-root>...]",
			Summary: "vendor the kits into a scratch consumer and prove each installs green and reddens on its planted violation",
			Knobs:   []string{"GATE_SDK_KIT_DIRS", "GATE_SDK_NATIVE_BIN", registry.KitTestsKnob, registry.KitTemplatesKnob}, Family: Run, Main: runConsumerSmoke},
		{Flag: "--upgrade-smoke", Synopsis: "",
			Summary: "vendor the kits at FROM into a scratch consumer, upgrade them to TO, and prove every new red is declared",
			Knobs: []string{"GATE_SDK_UPGRADE_REPO", "GATE_SDK_UPGRADE_FROM", "GATE_SDK_UPGRADE_TO", "GATE_SDK_TMP_DIR",
				"GATE_SDK_WORKFLOW_DIR", "GATE_SDK_RELEASE_SECTIONS", "GATE_SDK_RELEASE_SECTION_ALIASES"},
			Family: Run, Main: runUpgradeSmoke},
		{Flag: "--run-demo", Synopsis: "",
			Summary: "narrated walkthrough: vendor, green, a planted violation blocked (battery and pre-commit hook), green again",
			Knobs:   []string{"GATE_SDK_KIT_DIRS", "GATE_SDK_NATIVE_BIN", registry.KitTestsKnob, registry.KitTemplatesKnob}, Family: Run, Main: runDemo},
	}
}

// launcherHook reports whether the process was started under the name of a
// git hook it serves.
func launcherHook(argv0 string) (string, bool) { return githook.LauncherHook(argv0) }

// runLauncher is the served hook's launcher: it starts the binary
// GATE_SDK_NATIVE_BIN names on --git-hook and answers its status.
func runLauncher(hook string, args []string, sio IO) int {
	env := sio.Env
	if env == nil {
		env = os.LookupEnv
	}
	cwd, err := walk.Cwd()
	if err != nil {
		fmt.Fprintf(sio.Stderr, "%s: %v\n", hook, err)
		return 2
	}
	in := githook.LaunchInput{Dir: cwd, Env: env, Stdin: sio.Stdin, Stdout: sio.Stdout, Stderr: sio.Stderr}
	// The hook itself, run here when the binary the knob names is this
	// file's own bytes: what the child would run, under the name it
	// would carry.
	if self, err := spawn.SelfPath(); err == nil {
		in.Self = self
		in.Hook = func(args []string) int {
			hio := sio
			hio.Env = env
			hio.Name = "gates"
			return Main(append([]string{"--git-hook"}, args...), hio)
		}
	}
	return githook.Launch(hook, args, in)
}

// hookWorld builds the hook family's world over the session.
func (s *Session) hookWorld() (githook.World, error) {
	cwd, err := s.Cwd()
	if err != nil {
		return githook.World{}, err
	}
	return githook.World{
		Dir:      cwd,
		Env:      s.Env,
		Stdout:   s.Stdout,
		Stderr:   s.Stderr,
		Stdin:    s.Stdin,
		Registry: func() (githook.Registry, error) { return s.hookRegistry() },
		Compiled: s.runCompiled,
		Jobs:     s.jobs,
		Budget:   s.gateBudget,
		Pairs:    s.touchedPairs,
		Costs:    hookCosts{s},
		Baseline: func(tree *repo.Snapshot) error {
			if tree == nil && s.landed != nil {
				tree = s.landed.tree
			}
			if tree == nil {
				_, err := s.diskBaseline()
				return err
			}
			_, err := s.judgedBaseline(tree)
			return err
		},
		BaselineAdded: s.hookBaselineAdded,
		Debt: func(tree *repo.Snapshot, left map[string]int) error {
			if tree.CommonDir() == "" {
				return fmt.Errorf("no git directory known to record it in")
			}
			return githook.AddDebt(tree.CommonDir(), tree.Dir(), left)
		},
	}, nil
}

// hookCosts keeps the hook members' run times as one entry of the result
// cache of the hook's repository (so GATE_SDK_CACHE=off and a dev build
// keep none, and a new build starts afresh).
type hookCosts struct{ s *Session }

const hookCostsTable = "HOOK-MEMBER-COSTS"

func (h hookCosts) table(tree *repo.Snapshot) *cache.Table {
	if tree == nil {
		return nil
	}
	return h.s.verdictCache(tree.CommonDir()).Table(hookCostsTable, nil)
}

// Load answers the kept times; a malformed entry is no times at all.
func (h hookCosts) Load(tree *repo.Snapshot) map[string]time.Duration {
	data, ok := h.table(tree).Get("", "costs")
	if !ok {
		return nil
	}
	return parseCosts(data)
}

// Save keeps this run's times.
func (h hookCosts) Save(tree *repo.Snapshot, took map[string]time.Duration) {
	h.table(tree).Put("", "costs", formatCosts(took))
}

// formatCosts spells times one "name<TAB>microseconds" line each, by name.
func formatCosts(took map[string]time.Duration) []byte {
	names := make([]string, 0, len(took))
	for n := range took {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s\t%d\n", n, took[n].Microseconds())
	}
	return []byte(b.String())
}

// parseCosts reads what formatCosts wrote; anything malformed is no times.
func parseCosts(data []byte) map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" {
			continue
		}
		name, us, ok := strings.Cut(line, "\t")
		n, err := strconv.ParseInt(us, 10, 64)
		if !ok || err != nil || n < 0 || n > int64(time.Hour/time.Microsecond) || name == "" {
			return nil
		}
		out[name] = time.Duration(n) * time.Microsecond
	}
	return out
}

// runCompiled is the hook's in-process member: the compiled rule over the
// hook's snapshot (the index's bytes at pre-commit), its streams captured
// together, the worktree pin reaching only the processes it starts.
func (s *Session) runCompiled(run githook.CompiledRun) (int, []byte) {
	def, ok := findGate(run.Name)
	if !ok {
		return 2, []byte(fmt.Sprintf("%s: its declaration names a compiled gate this binary does not carry (see gates --list)\n", run.Name))
	}
	// No directory is made per member: the rules that write scratch
	// files (ShellCheck's inputs, a vendored kit tree) each make a fresh
	// private directory of their own under this one and remove it, and
	// the rest write nothing.
	scratch := os.TempDir()
	var buf bytes.Buffer
	w := &lockedWriter{w: &buf}
	context := s.gateContext
	if run.Tree != nil {
		context = s.bareContext
	}
	c, err := context(def, run.Args, w, w, scratch)
	if err != nil {
		fmt.Fprintf(w, "%s: %v\n", def.Name, err)
		return 2, buf.Bytes()
	}
	if run.Tree != nil {
		c.Tree = snapshotTree{run.Tree}
		c.Cache = s.verdictCache(run.Tree.CommonDir())
		// The hook judges what the commit records, its baseline too.
		bl, err := s.judgedBaseline(run.Tree)
		if err != nil {
			fmt.Fprintf(w, "%s: %v\n", def.Name, err)
			return 2, buf.Bytes()
		}
		s.acceptFrom(c, bl)
		c.Unchanged, c.LeftToBattery = run.Unchanged, run.Left
		c.LFSPointers = run.LFSPointers
		// The pattern lists and allowlists it opens by path are the
		// snapshot's too, never an unstaged edit of them.
		c.ConfigCopy = snapshotCopy(run.Tree)
		if s.landed != nil {
			// A landed commit's judge: files it does not hold are absent
			// but for the clone's own local lists.
			c.ConfigCopy = s.landed.copyOf
			if run.Tree == s.landed.tree {
				c.Prior = s.landed.prior
			}
		}
	}
	if len(run.ChildEnv) > 0 {
		c.SpawnEnv = run.ChildEnv
		c.Env = overlayEnv(c.Env, run.ChildEnv)
	}
	code := protect(def, c)
	return code, buf.Bytes()
}

// snapshotTree adapts a snapshot already built to gate.Tree.
type snapshotTree struct{ s *repo.Snapshot }

func (t snapshotTree) Files() ([]string, error)       { return t.s.Files(), nil }
func (t snapshotTree) Read(p string) ([]byte, error)  { return t.s.Read(p) }
func (t snapshotTree) Mode(p string) (uint32, bool)   { return t.s.Mode(p) }
func (t snapshotTree) BlobID(p string) (string, bool) { return t.s.BlobID(p) }
func (t snapshotTree) ModeAndBlob(p string) (uint32, string, bool) {
	return t.s.ModeAndBlob(p)
}
func (t snapshotTree) TreeDigest() (string, bool) { return t.s.TreeDigest() }
func (t snapshotTree) FromBlob(p string) bool     { return t.s.FromBlob(p) }
func (t snapshotTree) Staged() bool               { return t.s.Staged() }

// overlayEnv answers lookup with the NAME=value entries of extra on top.
func overlayEnv(lookup func(string) (string, bool), extra []string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		for i := len(extra) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(extra[i], "="); ok && k == name {
				return v, true
			}
		}
		return lookup(name)
	}
}

func runGitHook(s *Session, args []string) int {
	// assertion T: the hook's registry and knob files are the commit's.
	s.indexFirst = true
	// One repository from start to end: git is asked where it is once.
	walk.RememberRepository()
	if code, handled := foreignHook(s, args); handled {
		return code
	}
	w, err := s.hookWorld()
	if err != nil {
		fmt.Fprintf(s.Stderr, "git-hook: %v\n", err)
		return 2
	}
	return githook.RunHook(args, w)
}

func runMeasureCommit(s *Session, args []string) int {
	w, err := s.hookWorld()
	if err != nil {
		fmt.Fprintf(s.Stderr, "measure-commit: %v\n", err)
		return 2
	}
	return githook.RunMeasure(args, w)
}

func runInstallHooks(s *Session, args []string) int {
	w, err := s.hookWorld()
	if err != nil {
		fmt.Fprintf(s.Stderr, "install-hooks: %v\n", err)
		return 2
	}
	return githook.RunInstall(args, githook.InstallWorld{
		World: w,
		NativeBin: func() (string, error) {
			set, err := s.Knobs()
			if err != nil {
				return "", err
			}
			return set.Scalar("GATE_SDK_NATIVE_BIN")
		},
		Resolve: func(name string) (githook.Member, error) {
			gatesDir, err := s.GatesDir()
			if err != nil {
				return githook.Member{}, err
			}
			roots, err := s.KitRoots()
			if err != nil {
				return githook.Member{}, err
			}
			res, err := registry.Resolve(s.regFS(), name, gatesDir, roots.Paths())
			if err != nil {
				return githook.Member{}, err
			}
			return githook.Member{Name: name, Kind: res.Kind, Decl: res.Path}, nil
		},
	})
}

// hookRegistry loads the registry for the hook family.
func (s *Session) hookRegistry() (githook.Registry, error) {
	gatesDir, err := s.GatesDir()
	if err != nil {
		return nil, err
	}
	reg, err := s.loadRegistry(gatesDir)
	if err != nil {
		return nil, err
	}
	// A foreign tree is judged by the members that need no layout.
	return &hookReg{reg: reg, foreign: s.landed != nil && s.landed.config != nil}, nil
}

// hookReg adapts the loaded registry to the hook family. Its selection is
// --for's own (SelectForPaths), so what a commit runs for a staged path
// and what --for runs for it cannot diverge. The one difference is the
// hook's: a member that resolves nowhere (or ambiguously) is kept at its
// registry place, to fail there as it does in a battery, where --for
// refuses the whole selection.
type hookReg struct {
	reg     *loadedRegistry
	foreign bool // only the members that need no layout (anyLayoutMember)
}

// judges reports whether the member named runs here.
func (h *hookReg) judges(name string) bool { return !h.foreign || anyLayoutMember(name) }

func (h *hookReg) Members() ([]githook.Member, error) {
	var out []githook.Member
	for _, m := range h.reg.Members {
		if !h.judges(m.Name) {
			continue
		}
		gm, err := hookMember(m)
		if err != nil {
			return nil, err
		}
		out = append(out, gm)
	}
	return out, nil
}

func (h *hookReg) Select(paths []string) ([]githook.Member, error) {
	resolved := *h.reg.Registry
	resolved.Members = nil
	for _, m := range h.reg.Members {
		if !h.judges(m.Name) {
			continue
		}
		if m.Kind == registry.Shell || m.Kind == registry.Descriptor {
			resolved.Members = append(resolved.Members, m)
		}
	}
	sels, err := SelectForPaths(&resolved, h.reg.env, paths)
	if err != nil {
		return nil, err
	}
	picked := map[string]selection{}
	for _, sel := range sels {
		picked[sel.member.Name] = sel
	}
	var out []githook.Member
	for _, m := range h.reg.Distinct() {
		if !h.judges(m.Name) {
			continue
		}
		sel, ok := picked[m.Name]
		if !ok && (m.Kind == registry.Shell || m.Kind == registry.Descriptor) {
			continue
		}
		gm, err := hookMember(m)
		if err != nil {
			return nil, err
		}
		if ok {
			gm.Operands = sel.args
		}
		out = append(out, gm)
	}
	return out, nil
}

func (h *hookReg) Reads(name string, paths []string) ([]string, error) {
	m, ok := h.reg.Member(name)
	if !ok || m.Manifest == nil || m.Manifest.Graph == nil {
		return nil, fmt.Errorf("%s: no declaration to read its couples from", name)
	}
	t, err := h.reg.env.Trigger(m.Name, m.Manifest)
	if err != nil {
		return nil, err
	}
	couples, err := registry.Expand(m.Manifest.Graph.Couples, h.reg.env.KitRoots, h.reg.env.Knobs)
	if err != nil {
		return nil, err
	}
	// A staged member's trigger reads as a pathspec; its couples are
	// matched by the same reading, so the two agree on one path.
	both := &registry.Trigger{Member: name, Staged: t.Staged, Patterns: append(append([]string(nil), t.Patterns...), couples...)}
	return both.Operands(paths), nil
}

// hookMember converts a registry member, refusing one whose declaration
// resolved and could not be read: its tier is unknown.
func hookMember(m registry.Member) (githook.Member, error) {
	gm := githook.Member{Name: m.Name, Kind: m.Kind, Decl: m.Path}
	switch m.Kind {
	case registry.Unresolved:
		return gm, nil
	case registry.Ambiguous:
		gm.Problem = m.Err().Error()
		return gm, nil
	}
	// assertion E: an unreadable declaration's tier is unknown: refuse.
	if m.ManifestErr != nil {
		return gm, fmt.Errorf("cannot read the declaration of registered member %s (its tier is unknown): %w", m.Name, m.ManifestErr)
	}
	if m.Manifest == nil || m.Manifest.Graph == nil {
		return gm, fmt.Errorf("%s: registered member %s declares no # graph: line, so its tier is unknown", m.Path, m.Name)
	}
	gm.Tier = m.Manifest.Graph.Tier
	gm.Staged = m.Manifest.Graph.Staged()
	// A compiled member is a shape reader when its row says it lists,
	// walks or asks modes. A shell member's reads are unknown to the
	// binary: its couples are its author's claim (held by
	// --projection-witness), and it is selected by them alone.
	if m.Kind == registry.Descriptor {
		if def, ok := findGate(m.Name); ok {
			gm.First = def.ReadsTree
			gm.Shape = def.Listing || len(def.Reads) > 0
		}
	}
	return gm, nil
}
