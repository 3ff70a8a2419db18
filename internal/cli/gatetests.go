package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gate-sdk/gates/internal/battery"
	"github.com/gate-sdk/gates/internal/fixture"
	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
	"github.com/gate-sdk/gates/kits"
)

const gateTestsUsage = "usage: gates --run-gate-tests [<tests-dir> [<checks-dir>...]]"

// runGateTests is the --run-gate-tests arm.
func runGateTests(s *Session, args []string) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprintln(s.Stdout, gateTestsUsage)
		return 0
	}
	ops, ok := dashFree(s, "--run-gate-tests", gateTestsUsage, args)
	if !ok {
		return 2
	}
	cwd, err := s.Cwd()
	if err != nil {
		return s.fail(err)
	}
	set, err := s.Knobs()
	if err != nil {
		return s.fail(err)
	}
	testsDir := ""
	if len(ops) > 0 {
		testsDir = ops[0]
	} else if testsDir, err = set.Scalar("GATE_SDK_TESTS_DIR"); err != nil {
		return s.fail(err)
	}
	absTests := walk.AbsAgainst(cwd, testsDir)
	if testsDir == registry.EmbeddedSuite {
		// The embedded suite is the kit's pairs as this
		// binary carries them, byte for byte, laid out under the scratch
		// directory once per stamp.
		tmp, err := set.Scalar("GATE_SDK_TMP_DIR")
		if err != nil {
			return s.fail(err)
		}
		if err := walk.EnsureTmpDir(tmp, cwd); err != nil {
			return s.fail(err)
		}
		if absTests, err = materializeEmbedded(walk.AbsAgainst(cwd, tmp)); err != nil {
			return s.fail(err)
		}
	}
	if !isDir(absTests) {
		return s.fail(refusal{msg: fmt.Sprintf("run-gate-tests: tests dir %s does not exist", testsDir)})
	}

	var checkDirs []string
	if len(ops) > 1 {
		checkDirs = ops[1:]
	}
	o, err := s.fixtureOptions(cwd, set, absTests, testsDir, checkDirs)
	if err != nil {
		return s.fail(err)
	}
	res, err := fixture.Run(o)
	if err != nil {
		return s.fail(err)
	}
	return res.Code()
}

// fixtureOptions answers the fixture runner's options for the tests dir
// (absTests, labelled as spelled) over the declaration dirs: checkDirs
// when given, else the gates dir and every kit root's checks/.
func (s *Session) fixtureOptions(cwd string, set *knob.Set, absTests, testsDir string, checkDirs []string) (fixture.Options, error) {
	// The declaration dirs: the operands replace the default set.
	var dirs []string
	if len(checkDirs) > 0 {
		for _, d := range checkDirs {
			if !isDir(walk.AbsAgainst(cwd, d)) {
				return fixture.Options{}, refusal{msg: fmt.Sprintf("run-gate-tests: checks dir %s is not a directory", d)}
			}
			dirs = append(dirs, walk.AbsAgainst(cwd, d))
		}
	} else {
		gatesDir, err := s.GatesDir()
		if err != nil {
			return fixture.Options{}, err
		}
		roots, err := s.KitRoots()
		if err != nil {
			return fixture.Options{}, err
		}
		for _, d := range registry.SearchDirs(gatesDir, roots.Paths()) {
			dirs = append(dirs, walk.AbsAgainst(cwd, d))
		}
	}

	// The pins every case runs under, absolute at the invoker's root.
	bin, err := set.Scalar("GATE_SDK_NATIVE_BIN")
	if err != nil {
		return fixture.Options{}, err
	}
	absBin := walk.AbsAgainst(cwd, bin)
	tmp, err := set.Scalar("GATE_SDK_TMP_DIR")
	if err != nil {
		return fixture.Options{}, err
	}
	if err := walk.EnsureTmpDir(tmp, cwd); err != nil {
		return fixture.Options{}, err
	}
	absTmp := walk.AbsAgainst(cwd, tmp)
	// The kit-root locator travels absolute when it names a directory.
	var rootPin []string
	sdkRoot := s.Getenv("GATE_SDK_ROOT")
	if sdkRoot == "" {
		sdkRoot = walk.DefaultSdkRoot
	}
	if isDir(walk.AbsAgainst(cwd, sdkRoot)) {
		rootPin = []string{"GATE_SDK_ROOT=" + walk.AbsAgainst(cwd, sdkRoot)}
	}
	// A bespoke test finds its kit's lib/ through the locator, so where the
	// locator names nothing here (the kit lives elsewhere, as
	// GATE_SDK_KIT_DIRS says) the tests get the first kit root instead.
	testPin := rootPin
	if len(testPin) == 0 {
		roots, err := s.KitRoots()
		if err != nil {
			return fixture.Options{}, err
		}
		if abs := roots.Abs(); len(abs) > 0 && isDir(abs[0]) {
			testPin = []string{"GATE_SDK_ROOT=" + abs[0]}
		}
	}

	resolve := func(gate string) ([]string, error) {
		res, err := registry.ResolveIn(s.regFS(), gate, dirs)
		if err != nil {
			return nil, err
		}
		switch res.Kind {
		case registry.Shell:
			return []string{res.Path}, nil
		case registry.Descriptor:
			if st, err := os.Stat(absBin); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
				return nil, fmt.Errorf("%s is a compiled gate and the binary %s is absent or not executable; build it (make build) or point GATE_SDK_NATIVE_BIN at it", gate, absBin)
			}
			return []string{absBin, gate}, nil
		case registry.Ambiguous:
			return nil, res.Err()
		}
		return nil, fmt.Errorf("%s resolves in none of: %s", gate, strings.Join(dirs, " "))
	}
	budget, err := s.gateBudget()
	if err != nil {
		return fixture.Options{}, err
	}
	return fixture.Options{
		CaseExec: budgetedCase(budget),
		Shell: func(gate string) bool {
			argv, err := resolve(gate)
			return err == nil && len(argv) == 1
		},
		TestsDir:    absTests,
		Label:       testsDir,
		InvokerDir:  cwd,
		Resolve:     resolve,
		CaseEnv:     append([]string{"GATE_SDK_NATIVE_BIN=" + absBin}, rootPin...),
		CasePin:     caseDirKnob,
		ScratchKnob: "GATE_SDK_TMP_DIR",
		ScratchRoot: absTmp,
		TestEnv:     append([]string{"GATE_SDK_NATIVE_BIN=" + absBin}, testPin...),
		Exec:        fixtureExec,
		Out:         s.Stdout,
		Couples:     fixtureCouples(resolve),
	}, nil
}

// touchedPairs runs, for the pre-commit hook, the fixture pairs of the
// repository's own gates the staged paths touch: a check-*.sh or
// check-*.gate right in the gates dir, or any file under
// <tests-dir>/<gate>/, for a gate whose pair exists. The pairs run over
// the work tree, as --run-gate-tests does.
func (s *Session) touchedPairs(staged []string) (bool, int, []byte, error) {
	cwd, err := s.Cwd()
	if err != nil {
		return false, 0, nil, err
	}
	set, err := s.Knobs()
	if err != nil {
		return false, 0, nil, err
	}
	gatesDir, err := s.GatesDir()
	if err != nil {
		return false, 0, nil, err
	}
	testsDir, err := set.Scalar("GATE_SDK_TESTS_DIR")
	if err != nil {
		return false, 0, nil, err
	}
	top, err := s.Top()
	if err != nil {
		return false, 0, nil, err
	}
	clean := func(p string) string { return strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/") }
	gd, td := clean(gatesDir), clean(testsDir)
	var names, declared []string
	touchesGate := false
	for _, p := range staged {
		name := ""
		if rest, ok := strings.CutPrefix(p, td+"/"); ok && td != "" {
			name, _, _ = strings.Cut(rest, "/")
		} else if dir, base := path.Dir(p), path.Base(p); dir == gd || (gd == "" && dir == ".") {
			if strings.HasPrefix(base, "check-") && (strings.HasSuffix(base, ".sh") || strings.HasSuffix(base, ".gate")) {
				touchesGate = true
				name = strings.TrimSuffix(strings.TrimSuffix(base, ".sh"), ".gate")
				if st, err := os.Stat(walk.AbsAgainst(top, p)); err == nil && st.Mode().IsRegular() {
					declared = append(declared, p)
				}
			}
		}
		if name != "" && !slices.Contains(names, name) && isDir(walk.AbsAgainst(top, registry.Join(td, name))) {
			names = append(names, name)
		}
	}
	if len(names) == 0 && !touchesGate {
		return false, 0, nil, nil
	}
	if s.landed != nil {
		// The pairs and the registration check read the work tree, which a
		// landed commit's judge does not have: it takes the commit's
		// checkout instead.
		return false, 0, nil, errNeedsCheckout
	}
	var out bytes.Buffer
	code := 0
	if len(declared) > 0 {
		reg, err := s.loadRegistry(gatesDir)
		if err != nil {
			return false, 0, nil, err
		}
		// assertion AD: a gate the commit declares in the gates dir is
		// registered, or the registry says why not.
		for _, p := range declared {
			name := strings.TrimSuffix(strings.TrimSuffix(path.Base(p), ".sh"), ".gate")
			if listsOrDeclines(reg.List, name) {
				continue
			}
			list := registry.ListPath(gatesDir)
			fmt.Fprintf(&out, "%s: declares %s, but %s does not register it, so no hook or battery runs it\n", p, name, list)
			fmt.Fprintf(&out, "help: register it (echo %s >> %s), or, for a script that is not to run, say why in %s: # unregistered: %s — <reason>\n", name, list, list, name)
			code = 1
		}
	}
	if len(names) == 0 {
		return code != 0, code, out.Bytes(), nil
	}
	o, err := s.fixtureOptions(cwd, set, walk.AbsAgainst(top, td), testsDir, nil)
	if err != nil {
		return false, 0, nil, err
	}
	o.Only, o.Out = names, &out
	res, err := fixture.Run(o)
	if err != nil {
		return false, 0, nil, err
	}
	return true, max(code, res.Code()), out.Bytes(), nil
}

// listsOrDeclines reports whether the registry lists name as a member or
// declares it "# unregistered:" with a reason.
func listsOrDeclines(l *registry.List, name string) bool {
	for _, e := range l.Entries {
		if e.Name == name {
			return true
		}
	}
	for _, u := range l.Unregistered {
		if u.Name == name && u.Reason != "" {
			return true
		}
	}
	return false
}

// fixtureCouples answers, for the fail-open probe, a shell gate's plain
// couples= globs; a compiled gate (run through the binary, judged by the
// kit's own pairs) and a kit: or knob: token are not probed.
func fixtureCouples(resolve func(string) ([]string, error)) func(string) ([]string, error) {
	return func(gate string) ([]string, error) {
		argv, err := resolve(gate)
		if err != nil || len(argv) != 1 {
			return nil, err
		}
		data, err := os.ReadFile(argv[0])
		if err != nil {
			return nil, err
		}
		m, err := registry.ParseManifest(argv[0], data)
		if err != nil {
			return nil, err
		}
		var out []string
		for _, t := range m.Graph.Couples {
			if !strings.HasPrefix(t, registry.PrefixKit) && !strings.HasPrefix(t, registry.PrefixKnob) {
				out = append(out, t)
			}
		}
		return out, nil
	}
}

// fixtureExec runs one case or unit test through the spawn funnel, stdin
// from the null device, stdout and stderr merged.
// budgetedCase runs a gate's fixture case under the member budget, the
// rule the battery and the hooks keep: past it the case is stopped with
// its children and reads exit 2, "timed out", naming the gate.
func budgetedCase(budget time.Duration) func(gate string, argv []string, dir string, env []string) (int, []byte, error) {
	return func(gate string, argv []string, dir string, env []string) (int, []byte, error) {
		var mu sync.Mutex
		var startErr error
		// assertion N: a fixture case has the member budget too.
		o := battery.Bounded(gate, false, budget, 0, func(ctx context.Context) battery.Outcome {
			res, err := spawn.RunMerged(spawn.Cmd{Program: spawn.At(argv[0]), Args: argv[1:], Dir: dir, ExtraEnv: env, Ctx: ctx})
			if err != nil {
				mu.Lock()
				startErr = err
				mu.Unlock()
				return battery.Outcome{}
			}
			return battery.Outcome{Code: res.ReportedCode(), Output: res.Output()}
		})
		mu.Lock()
		defer mu.Unlock()
		if startErr != nil {
			return 0, nil, startErr
		}
		return o.Code, o.Output, nil
	}
}

func fixtureExec(argv []string, dir string, env []string) (int, []byte, error) {
	prog := spawn.At(argv[0])
	if argv[0] == "bash" {
		prog = spawn.Bash()
	}
	res, err := spawn.RunMerged(spawn.Cmd{Program: prog, Args: argv[1:], Dir: dir, ExtraEnv: env})
	if err != nil {
		return 0, nil, err
	}
	return res.ReportedCode(), res.Output(), nil
}

func emitFixtureSuites(s *Session, args []string) int {
	if !noOperands(s, "--emit fixture-suites", args) {
		return 2
	}
	if _, err := s.Top(); err != nil {
		return s.fail(err)
	}
	gatesDir, err := s.GatesDir()
	if err != nil {
		return s.fail(err)
	}
	roots, err := s.KitRoots()
	if err != nil {
		return s.fail(err)
	}
	set, err := s.Knobs()
	if err != nil {
		return s.fail(err)
	}
	kitTests, err := set.Words(registry.KitTestsKnob)
	if err != nil {
		return s.fail(err)
	}
	suites, err := registry.FixtureSuites(s.regFS(), roots.Paths(), gatesDir, kitTests)
	if err != nil {
		return s.fail(err)
	}
	// A vendored core kit carrying no pairs of its own is
	// proven by the pairs this binary embeds.
	if paths, abs := roots.Paths(), roots.Abs(); len(kitTests) == 0 && len(paths) > 0 && len(abs) == len(paths) {
		first := strings.TrimRight(paths[0], "/")
		vendored := isDir(walk.Child(abs[0], "checks"))
		own := isDir(walk.Child(abs[0], registry.FixtureDirName))
		if vendored && !own && path.Base(first) == kits.Core {
			su := registry.Suite{Name: strings.ReplaceAll(kits.Core, "-", "_"), TestsDir: registry.EmbeddedSuite, ChecksDir: registry.Join(first, "checks")}
			suites = append([]registry.Suite{su}, suites...)
		}
	}
	for _, su := range suites {
		fmt.Fprintln(s.Stdout, su.Row())
	}
	return 0
}

// materializeEmbedded lays the core kit as this binary embeds it out
// under tmp, as a vendored tree lays it (<root>/gate-sdk/, its fixture
// pairs included) in a git repository of its own whose index tracks it,
// so each case reads a tracked tree as it would in a vendored copy. It is
// laid once per source stamp (a marker written last says complete) and
// answers the fixture tree.
func materializeEmbedded(tmp string) (string, error) {
	files, err := kits.Tree(kits.Core)
	if err != nil {
		return "", err
	}
	root := walk.Child(walk.Child(tmp, "embedded-gate-tests"), sourceStamp)
	dir := walk.Child(walk.Child(root, kits.Core), registry.FixtureDirName)
	marker := walk.Child(root, ".complete")
	if _, err := os.Stat(marker); err == nil {
		return dir, nil
	}
	if err := os.RemoveAll(root); err != nil {
		return "", err
	}
	pairs := 0
	for _, f := range files {
		dst := walk.Child(walk.Child(root, kits.Core), f.Path)
		if err := os.MkdirAll(path.Dir(dst), 0o755); err != nil {
			return "", err
		}
		perm := os.FileMode(0o644)
		if f.Exec {
			perm = 0o755
		}
		if err := os.WriteFile(dst, f.Data, perm); err != nil {
			return "", err
		}
		if strings.HasPrefix(f.Path, kits.FixtureTree+"/") {
			pairs++
		}
	}
	if pairs == 0 {
		return "", fmt.Errorf("run-gate-tests: this binary embeds no fixture pairs for %s", kits.Core)
	}
	unset := []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR"}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		r, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: args, Dir: root, UnsetEnv: unset})
		if err != nil {
			return "", err
		}
		if rep, failed := r.FailureReport(); failed {
			return "", fmt.Errorf("run-gate-tests: laying out the embedded suite: git %s: %s", strings.Join(args, " "), rep)
		}
	}
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		return "", err
	}
	return dir, nil
}

// isDir reports whether path names a directory.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}
