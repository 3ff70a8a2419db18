package consumersmoke

// --upgrade-smoke: the two-phase upgrade proof. A scratch consumer vendors
// every kit at a FROM ref, installs and must be green (else the tag is
// broken: exit 2). Phase A replaces the vendored kit directories wholesale
// with TO's and places TO's binary; only the kit roots may change. Phase B
// runs the battery again, and every red gate must be declared in TO's
// release declaration surface (exit 1 otherwise). Each ref runs on its own
// binary, built from a clone of that ref, never on the invoking binary.

import (
	"fmt"
	"github.com/gate-sdk/gates/internal/payload"
	"io"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/declaration"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// UpgradeWorld is what the arm reads, resolved once by its caller.
type UpgradeWorld struct {
	Dir     string // the invoking working directory, absolute
	Environ func() []string
	Stdout  io.Writer
	Stderr  io.Writer
	// Knobs, read once at the resolve step.
	Repo, From, To string   // GATE_SDK_UPGRADE_REPO / _FROM / _TO as resolved
	TmpDir         string   // GATE_SDK_TMP_DIR, relative to Dir or absolute
	WorkflowDir    string   // GATE_SDK_WORKFLOW_DIR
	Sections       []string // GATE_SDK_RELEASE_SECTIONS
	Aliases        []string // GATE_SDK_RELEASE_SECTION_ALIASES
	// KitRootsAt answers a checkout's own kit roots, absolute, read from
	// that checkout's knob files with nothing of the invoker's environment.
	KitRootsAt func(dir string) ([]string, error)
	// KitTestsAt answers GATE_SDK_KIT_TESTS_DIR as a checkout's own knob
	// files set it ("" for none); nil reads "".
	KitTestsAt func(dir string) (string, error)
	// KitTemplatesAt answers GATE_SDK_KIT_TEMPLATES_DIR the same way.
	KitTemplatesAt func(dir string) (string, error)
}

// upgradeRun carries one run's resolved state.
type upgradeRun struct {
	w    UpgradeWorld
	env  []string
	base string
}

func (u *upgradeRun) envFail(format string, a ...any) int {
	fmt.Fprintf(u.w.Stderr, "UPGRADE-SMOKE: FAIL(env) — %s\n", fmt.Sprintf(format, a...))
	return 2
}

// upgradeRef is one side of the transition.
type upgradeRef struct {
	name, sha string
	clone     string   // a shared clone checked out at sha
	bin       string   // the binary built there
	kits      []string // the clone's kit roots, absolute
	fixtures  string   // gate-sdk's fixture tree outside its root, absolute, or ""
	templates string   // gate-sdk's template tree outside its root, absolute, or ""
}

// RunUpgrade is the arm: no operand, no flag.
func RunUpgrade(args []string, w UpgradeWorld) int {
	u := &upgradeRun{w: w, env: ScratchEnv(w.Environ())}
	if len(args) > 0 {
		fmt.Fprintf(w.Stderr, "upgrade-smoke: takes no operand, got %q (configure it with GATE_SDK_UPGRADE_REPO, _FROM and _TO)\n", args[0])
		return 2
	}
	// assertion A: the resolve step — the repository, both refs, the scratch base.
	repoDir, err := u.resolveRepo()
	if err != nil {
		return u.envFail("%v", err)
	}
	from := w.From
	if from == "" {
		if from, err = newestTag(repoDir, u.env); err != nil {
			return u.envFail("%v", err)
		}
	}
	to := w.To
	if to == "" {
		to = "HEAD"
	}
	tmp := walk.AbsAgainst(w.Dir, w.TmpDir)
	if err := walk.EnsureTmpDir(w.TmpDir, w.Dir); err != nil {
		return u.envFail("%v", err)
	}
	if u.base, err = os.MkdirTemp(tmp, "upgrade-smoke."); err != nil {
		return u.envFail("cannot make a scratch base under %s: %v", tmp, err)
	}
	// assertion F: the scratch base holds every byte the run writes, and goes on every ordinary exit.
	defer os.RemoveAll(u.base)

	refs := make([]*upgradeRef, 2)
	for i, name := range []string{from, to} {
		r, err := u.checkout(repoDir, name, []string{"from", "to"}[i])
		if err != nil {
			return u.envFail("%v", err)
		}
		refs[i] = r
	}
	fromRef, toRef := refs[0], refs[1]

	// assertion B: the FROM baseline is green, or the tag is broken.
	b := Builder{Host: fromRef.clone, HostBin: fromRef.bin, Roots: fromRef.kits, Fixtures: fromRef.fixtures, Templates: fromRef.templates, Base: u.base, Environ: w.Environ(), Out: w.Stderr}
	s, err := b.Build("consumer")
	if err != nil {
		return u.envFail("FROM %s: %v", from, err)
	}
	code, out, err := s.Battery()
	if err != nil {
		return u.envFail("%v", err)
	}
	if !Green(code, out) {
		w.Stderr.Write(out)
		return u.envFail("the FROM baseline %s is red (exit %d): a broken tag, not an upgrade finding", from, code)
	}

	// assertion C: phase A swaps the kit directories wholesale and places TO's binary.
	toByName := map[string]string{}
	for _, k := range toRef.kits {
		toByName[baseName(k)] = k
	}
	for i, kit := range s.Kits {
		dst := walk.Child(s.Dir, kit)
		if err := os.RemoveAll(dst); err != nil {
			return u.envFail("cannot remove the vendored %s: %v", kit, err)
		}
		src, ok := toByName[kit]
		if !ok {
			continue // TO ships no such kit: the sync removes it
		}
		if err := payload.CopyTree(src, dst); err != nil {
			return u.envFail("cannot vendor TO's %s: %v", kit, err)
		}
		if i == 0 {
			if err := vendorFixtures(toRef.fixtures, dst); err != nil {
				return u.envFail("TO: %v", err)
			}
			if err := vendorTree(toRef.templates, dst, "templates"); err != nil {
				return u.envFail("TO: %v", err)
			}
		}
	}
	if err := payload.PlaceArtifact(toRef.bin, s.Bin); err != nil {
		return u.envFail("cannot place TO's binary: %v", err)
	}
	// assertion D: the sync changes nothing outside the kit roots.
	stray, err := outsideKits(s)
	if err != nil {
		return u.envFail("%v", err)
	}
	if len(stray) > 0 {
		for _, p := range stray {
			fmt.Fprintf(w.Stdout, "%s: changed by the kit sync, outside every kit root\n", p)
		}
		fmt.Fprintln(w.Stdout, "help: a wholesale kit replacement must touch only the vendored kit directories; a consumer-owned file it changes would be lost on upgrade")
		return 1
	}
	if err := s.CommitAll("upgrade the vendored kits"); err != nil {
		return u.envFail("%v", err)
	}

	// assertion E: phase B's reds are a subset of TO's gates-section declaration.
	code, out, err = s.Battery()
	if err != nil {
		return u.envFail("%v", err)
	}
	reds := FailedGates(out)
	if code != 0 && len(reds) == 0 {
		w.Stderr.Write(out)
		return u.envFail("the phase-B battery exited %d and named no red gate", code)
	}
	declared, bad, declPath, err := u.declaredGates(toRef)
	if err != nil {
		return u.envFail("%v", err)
	}
	var undeclared []string
	for _, g := range reds {
		if !contains(declared, g) {
			undeclared = append(undeclared, g)
		}
	}
	if len(reds) > 0 && len(bad) > 0 {
		for _, l := range bad {
			fmt.Fprintf(w.Stdout, "%s:%d: gates-section bullet yields no gate name: %s\n", declPath, l.N, strings.TrimSpace(l.Text))
		}
	}
	if len(undeclared) > 0 {
		w.Stdout.Write(out)
		for _, g := range undeclared {
			fmt.Fprintf(w.Stdout, "%s: red after upgrading %s -> %s, and %s's gates section does not declare it\n", g, from, to, declPath)
		}
	}
	if len(undeclared) > 0 || (len(reds) > 0 && len(bad) > 0) {
		fmt.Fprintln(w.Stdout, "help: declare each gate a vendored tree meets red on upgrade as a bullet \"- `<gate>` — <remedy>\" under the gates section of the release declaration surface")
		return 1
	}
	fmt.Fprintf(w.Stdout, "UPGRADE-SMOKE: clean (%s %.12s -> %s %.12s: %d kits swapped, baseline green, %d red after the upgrade, all declared in %s (%d declared))\n",
		from, fromRef.sha, to, toRef.sha, len(s.Kits), len(reds), declPath, len(declared))
	return 0
}

// resolveRepo answers the kit-source repository: the knob, or the invoking
// toplevel. It must be a work tree's toplevel (git's own answer).
func (u *upgradeRun) resolveRepo() (string, error) {
	dir := u.w.Repo
	if dir == "" {
		top, ok, err := walk.ToplevelOpt(u.w.Dir, nil)
		if err != nil {
			return "", err
		}
		if !ok {
			return "", fmt.Errorf("%s is not inside a git repository and GATE_SDK_UPGRADE_REPO is empty", u.w.Dir)
		}
		return top, nil
	}
	dir = walk.AbsAgainst(u.w.Dir, dir)
	out, err := gitOut(dir, u.env, "rev-parse", "--show-cdup")
	if err != nil {
		return "", fmt.Errorf("GATE_SDK_UPGRADE_REPO %s is not a git repository: %v", u.w.Repo, err)
	}
	if strings.TrimSpace(out) != "" {
		return "", fmt.Errorf("GATE_SDK_UPGRADE_REPO %s is not a work tree's toplevel", u.w.Repo)
	}
	return dir, nil
}

// newestTag answers the repository's newest v* tag by version order.
func newestTag(repoDir string, env []string) (string, error) {
	out, err := gitOut(repoDir, env, "tag", "--list", "v*", "--sort=-v:refname")
	if err != nil {
		return "", err
	}
	first, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	if first == "" {
		return "", fmt.Errorf("%s carries no v* tag, so there is no FROM ref (set GATE_SDK_UPGRADE_FROM)", repoDir)
	}
	return first, nil
}

// checkout makes a shared clone of repoDir at ref under the scratch base,
// builds that ref's binary with its own source stamp, and reads its kit
// roots. A clone registers nothing in the source repository.
func (u *upgradeRun) checkout(repoDir, ref, label string) (*upgradeRef, error) {
	sha, err := gitOut(repoDir, u.env, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil || strings.TrimSpace(sha) == "" {
		return nil, fmt.Errorf("ref %s does not resolve to a commit in %s", ref, repoDir)
	}
	r := &upgradeRef{name: ref, sha: strings.TrimSpace(sha), clone: walk.Child(u.base, label+"-src")}
	if _, err := gitOut(u.base, u.env, "clone", "-q", "--shared", "--no-checkout", repoDir, r.clone); err != nil {
		return nil, err
	}
	if _, err := gitOut(r.clone, u.env, "checkout", "-q", "--detach", r.sha); err != nil {
		return nil, err
	}
	flag, err := repo.Git{Env: u.env}.StampLDFlag(r.clone)
	if err != nil {
		return nil, fmt.Errorf("ref %s: %v", ref, err)
	}
	r.bin = walk.Child(r.clone, DefaultBin)
	m, err := spawn.RunMerged(spawn.Cmd{Program: spawn.Go(), Dir: r.clone, Env: goEnv(u.w.Environ()),
		Args: []string{"build", "-trimpath", "-ldflags", "-s -w " + flag, "-o", r.bin, "./cmd/gates"}})
	if err != nil {
		return nil, fmt.Errorf("ref %s: %v", ref, err)
	}
	if !m.Succeeded() {
		return nil, fmt.Errorf("ref %s does not build (exit %d):\n%s", ref, m.ReportedCode(), m.Output())
	}
	if r.kits, err = u.w.KitRootsAt(r.clone); err != nil {
		return nil, fmt.Errorf("ref %s: %v", ref, err)
	}
	if len(r.kits) == 0 {
		return nil, fmt.Errorf("ref %s vendors no kit root", ref)
	}
	for _, rel := range []struct {
		at func(dir string) (string, error)
		to *string
	}{{u.w.KitTestsAt, &r.fixtures}, {u.w.KitTemplatesAt, &r.templates}} {
		if rel.at == nil {
			continue
		}
		get := func() (string, error) { return rel.at(r.clone) }
		if *rel.to, err = kitFixtures(get, r.clone); err != nil {
			return nil, fmt.Errorf("ref %s: %v", ref, err)
		}
	}
	return r, nil
}

// goEnv is the build's environment: the invoker's, less git's repository
// locators, so the toolchain's own git calls (VCS stamping) read the clone.
func goEnv(base []string) []string {
	var out []string
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if !repoLocators[k] {
			out = append(out, kv)
		}
	}
	return out
}

// outsideKits answers every path git status shows changed outside the
// scratch's vendored kit roots.
func outsideKits(s *Scratch) ([]string, error) {
	out, err := s.git("status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil {
		return nil, err
	}
	var stray []string
	for _, rec := range strings.Split(out, "\x00") {
		if len(rec) < 4 {
			continue
		}
		p := rec[3:]
		inKit := false
		for _, k := range s.Kits {
			if p == k || strings.HasPrefix(p, k+"/") {
				inKit = true
			}
		}
		if !inKit {
			stray = append(stray, p)
		}
	}
	sort.Strings(stray)
	return stray, nil
}

// declaredGates reads the gates section of TO's release declaration
// surface, <workflow-dir>/release-declarations.md in TO's committed tree.
// An absent surface, or one without the section, declares nothing.
func (u *upgradeRun) declaredGates(to *upgradeRef) ([]string, []declaration.Line, string, error) {
	rel := path.Join(u.w.WorkflowDir, "release-declarations.md")
	data, err := os.ReadFile(walk.Child(to.clone, rel))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil, rel, nil
		}
		return nil, nil, rel, fmt.Errorf("cannot read TO's %s: %v", rel, err)
	}
	rule, _ := declaration.RuleOf("gates")
	v := declaration.SectionTokens(string(data), declaration.Headings("gates", u.w.Sections, u.w.Aliases), rule)
	set, bad := declaration.SurfaceSet(v)
	return set, bad, rel, nil
}

func gitOut(dir string, env []string, args ...string) (string, error) {
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: args, Dir: dir, Env: env})
	if err != nil {
		return "", err
	}
	out, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), rep)
	}
	return string(out), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
