package gates

// check-crate-arms: the module's lint and test arms, at commit time, as a
// registered member: go vet, go test, every fixture suite (and a host's
// opt-in target-lint command). A green run is recorded under the scratch
// dir keyed on the source stamp and the toolchain, and a later run over
// the same key answers from the record without spawning an arm.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// gitRepoLocators are the variables git exports to a hook; an arm that
// inherited them would read the hook's index instead of its own.
var gitRepoLocators = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_PREFIX", "GIT_NAMESPACE"}

func checkCrateArms(c *gate.Context) int {
	if len(c.Args) > 0 {
		return c.Refuse("usage: check-crate-arms (takes no operand; GATE_SDK_NATIVE_CRATE names the module)")
	}
	crate, abs, err := crateDir(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	// assertion A: no module, no corpus — clean, naming the absent module.
	if st, err := os.Stat(walk.Child(abs, goModFile)); err != nil || st.IsDir() {
		return c.NewReport(nil).Nothing(fmt.Sprintf("no Go module at %s, so no arm to run", crate))
	}
	env := armEnv(c)
	// assertion B: a module with no go on PATH cannot be checked: exit 2.
	if !spawn.OnPath("go", spawn.LookupEnv(c.Env)) {
		return c.Refuse("the module %s is here and go is not on PATH; install the Go toolchain (the contributor floor)", crate)
	}
	lintCmd, err := c.Knobs.List("GATE_SDK_CRATE_TARGET_LINT_CMD")
	if err != nil {
		return c.RefuseErr(err)
	}
	// assertion C: the cache key is the source stamp, the toolchain and the lint argv.
	stamp, err := repo.Git{Env: env}.SourceStamp(abs)
	if err != nil {
		return c.Refuse("cannot compute the source stamp of %s: %v", crate, err)
	}
	toolchain := ""
	if done, err := spawn.Run(spawn.Cmd{Program: spawn.Go(), Args: []string{"version"}, Dir: abs, Env: env, Recorder: c.Spawns}); err == nil {
		if out, ok := done.Stdout(); ok {
			toolchain = strings.TrimSpace(string(out))
		}
	}
	// assertion G: the key also holds the environment the arms run under
	// (GOFLAGS, -short, -skip, CI and the rest), so a filtered or
	// differently configured run never vouches for a plain one.
	key := "stamp " + stamp + "\ntoolchain " + toolchain + "\nlint " + strings.Join(lintCmd, "\x1f") + "\nenv " + envDigest(env) + "\n"
	untracked, err := untrackedUnder(abs, env, c.Spawns)
	if err != nil {
		return c.Refuse("cannot list untracked files under %s: %v", crate, err)
	}
	if !untracked {
		// assertion H: a file go test compiles that git does not track
		// (an ignored directory's package among them) is in no stamp, so
		// such a tree neither answers from the record nor writes one.
		hidden, err := compiledUntracked(abs, withoutKnobs(env), c.Spawns)
		if err != nil {
			return c.Refuse("cannot list the files go test compiles under %s: %v", crate, err)
		}
		untracked = hidden != ""
	}
	record := recordName(crate)
	tmp, err := c.Knobs.Scalar("GATE_SDK_TMP_DIR")
	if err != nil {
		return c.RefuseErr(err)
	}
	local := walk.Child(runPath(c, tmp), record)
	if !untracked {
		for _, p := range recordPlaces(c, local, tmp, record, env) {
			if data, err := os.ReadFile(p); err == nil && string(data) == key {
				return c.NewReport(nil).Done(fmt.Sprintf("cached: every arm was green over source stamp %.12s with %s", stamp, toolchain))
			}
		}
	}

	r := c.NewReport(map[string]string{
		"vet":    "fix what go vet reports, then re-run: go vet ./...",
		"test":   "fix the failing tests, then re-run: go test -count=1 -vet=off -timeout=60m ./...",
		"suite":  "fix the failing fixture case, then re-run the one suite: gates --run-gate-tests <tests-dir> [<checks-dir>]",
		"lint":   "fix what GATE_SDK_CRATE_TARGET_LINT_CMD reports, then re-run it",
		"arm-go": "the arm could not report a status; re-run it by hand to see why",
	})
	// assertion D: every arm runs, whatever the one before it said.
	goEnv := withoutKnobs(env)
	suites, err := suitePlan(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	// assertion I: the arms run side by side; each keeps its findings to
	// itself, and they join the report in arm order once all have ended.
	progress := lockedProgress(c.Progress)
	arms := [3][]gate.Finding{}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		timed(progress, "go vet ./...", func() { arms[0] = armRun(c, "vet", abs, goEnv, spawn.Go(), "go vet ./...", "vet", "./...") })
	}()
	testEnv := goEnv
	if len(suites) > 0 {
		// The suites arm runs every suite; the e2e test that would run
		// them all again defers to it (a value outside GATE_SDK_, so the
		// go arms still see no knob).
		testEnv = append(append([]string(nil), goEnv...), "GATES_CRATE_ARMS_SUITES=1")
	}
	go func() {
		defer wg.Done()
		timed(progress, "go test ./...", func() {
			// assertion J: go test -json, read for progress, the slowest-tests record and the plain report.
			arms[1] = testArm(c, abs, testEnv, progress, tmp)
		})
	}()
	go func() {
		defer wg.Done()
		timed(progress, "fixture suites", func() { arms[2] = suiteArm(c, suites, env) })
	}()
	wg.Wait()
	for _, fs := range arms {
		for _, f := range fs {
			r.Add(f)
		}
	}
	// assertion E: the opt-in lint command runs last; one that cannot start is exit 2.
	if len(lintCmd) > 0 {
		prog, err := spawn.ConsumerCommand(lintCmd[0], "GATE_SDK_CRATE_TARGET_LINT_CMD")
		if err != nil {
			return c.RefuseErr(err)
		}
		m, err := spawn.RunMerged(spawn.Cmd{Program: prog, Args: lintCmd[1:], Dir: c.Dir, Env: env, Recorder: c.Spawns})
		if err != nil {
			return c.RefuseErr(err)
		}
		if !m.Succeeded() {
			r.Add(relay("lint", strings.Join(lintCmd, " "), m.ReportedCode(), m.Output()))
		}
	}
	if r.Failed() {
		return r.Done("")
	}
	// assertion F: a green run with no untracked file under the module is recorded.
	if !untracked {
		if err := walk.EnsureTmpDir(tmp, c.Dir); err == nil {
			_ = os.WriteFile(local, []byte(key), 0o644)
		}
	}
	return r.Done(fmt.Sprintf("go vet, go test and %d fixture suites green over source stamp %.12s with %s", len(suites), stamp, toolchain))
}

// timed runs one arm and reports it, with how long it took, on the
// progress channel.
func timed(progress func(string, time.Duration), stage string, arm func()) {
	start := time.Now()
	arm()
	if progress != nil {
		progress(stage, time.Since(start))
	}
}

// lockedProgress answers the context's progress channel made safe for the
// arms' goroutines (nil stays nil): one line at a time.
func lockedProgress(p func(string, time.Duration)) func(string, time.Duration) {
	if p == nil {
		return nil
	}
	var mu sync.Mutex
	return func(stage string, took time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		p(stage, took)
	}
}

// armRun runs one go arm in the module and answers its failure.
func armRun(c *gate.Context, class, dir string, env []string, prog spawn.Program, label string, args ...string) []gate.Finding {
	m, err := spawn.RunMerged(spawn.Cmd{Program: prog, Args: args, Dir: dir, Env: env, Recorder: c.Spawns})
	if err != nil {
		return []gate.Finding{{Class: "arm-go", Msg: fmt.Sprintf("%s could not run: %v", label, err)}}
	}
	if !m.Succeeded() {
		return []gate.Finding{relay(class, label, m.ReportedCode(), m.Output())}
	}
	return nil
}

// relay is a failed arm's finding: its command and status, then its
// merged output indented beneath.
func relay(class, label string, code int, out []byte) gate.Finding {
	var b strings.Builder
	fmt.Fprintf(&b, "%s failed (exit %d):", label, code)
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		b.WriteString("\n    " + l)
	}
	return gate.Finding{Class: class, Text: b.String()}
}

// suitePlan answers the --run-gate-tests argv of every fixture suite the
// registry derives, skipping one whose tests dir holds the run directory
// (re-entry would recurse).
func suitePlan(c *gate.Context) ([][]string, error) {
	kitTests, err := c.Knobs.Words(registry.KitTestsKnob)
	if err != nil {
		return nil, err
	}
	suites, err := registry.FixtureSuites(runFS{c}, c.KitRoots, c.GatesDir, kitTests)
	if err != nil {
		return nil, err
	}
	var plan [][]string
	for _, s := range suites {
		tests := runPath(c, s.TestsDir)
		if c.Dir == tests || strings.HasPrefix(c.Dir, tests+"/") {
			continue
		}
		args := []string{"--run-gate-tests", s.TestsDir}
		if s.ChecksDir != "" {
			args = append(args, s.ChecksDir)
		}
		plan = append(plan, args)
	}
	if len(plan) > 0 {
		// The binary is named before any arm starts: a knob that cannot
		// be read is exit 2, never a finding.
		if _, err := c.Knobs.Scalar("GATE_SDK_NATIVE_BIN"); err != nil {
			return nil, err
		}
	}
	return plan, nil
}

// suiteArm runs each planned suite and answers the failures.
func suiteArm(c *gate.Context, plan [][]string, env []string) []gate.Finding {
	if len(plan) == 0 {
		return nil
	}
	var out []gate.Finding
	bin, _ := c.Knobs.Scalar("GATE_SDK_NATIVE_BIN") // read once already by suitePlan
	for _, args := range plan {
		m, err := spawn.RunMerged(spawn.Cmd{Program: spawn.At(runPath(c, bin)), Args: args, Dir: c.Dir, Env: env, Recorder: c.Spawns})
		if err != nil {
			out = append(out, gate.Finding{Class: "arm-go", Msg: fmt.Sprintf("fixture suite %s could not run: %v", args[1], err)})
			continue
		}
		if !m.Succeeded() {
			out = append(out, relay("suite", "gates "+strings.Join(args, " "), m.ReportedCode(), m.Output()))
		}
	}
	return out
}

// armEnv is every arm's environment: this process's, less git's
// repository locators.
func armEnv(_ *gate.Context) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, l := range gitRepoLocators {
			drop = drop || k == l
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// withoutKnobs drops every GATE_SDK_ value, so the module's own tests run
// as they do from a plain shell, never under the battery's configuration.
func withoutKnobs(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GATE_SDK_") {
			out = append(out, kv)
		}
	}
	return out
}

// untrackedUnder reports whether the module holds an untracked,
// unignored file: such a tree never answers from the record.
func untrackedUnder(dir string, env []string, rec *spawn.Recorder) (bool, error) {
	done, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"ls-files", "-z", "--others", "--exclude-standard", "--", "."}, Dir: dir, Env: env, Recorder: rec})
	if err != nil {
		return false, err
	}
	out, ok := done.Stdout()
	if !ok {
		rep, _ := done.FailureReport()
		return false, fmt.Errorf("%s", rep)
	}
	return len(out) > 0, nil
}

// compiledFilesTemplate prints, for every package of the main module that
// go test ./... builds, each file it compiles or embeds (tests included):
// the module's directory, a tab, the file's path, one file a line. Both
// come from go, so they agree on how the directory is spelled.
const compiledFilesTemplate = `{{if and .Module .Module.Main}}{{$m := .Module.Dir}}{{$d := .Dir}}` +
	`{{range .GoFiles}}{{$m}}	{{$d}}/{{.}}
{{end}}{{range .CgoFiles}}{{$m}}	{{$d}}/{{.}}
{{end}}{{range .TestGoFiles}}{{$m}}	{{$d}}/{{.}}
{{end}}{{range .XTestGoFiles}}{{$m}}	{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$m}}	{{$d}}/{{.}}
{{end}}{{range .TestEmbedFiles}}{{$m}}	{{$d}}/{{.}}
{{end}}{{range .XTestEmbedFiles}}{{$m}}	{{$d}}/{{.}}
{{end}}{{end}}`

// compiledUntracked answers the first file go test ./... compiles in the
// module at dir that git does not track ("" when there is none).
func compiledUntracked(dir string, env []string, rec *spawn.Recorder) (string, error) {
	out, err := spawnOut(spawn.Cmd{Program: spawn.Go(), Args: []string{"list", "-e", "-f", compiledFilesTemplate, "./..."}, Dir: dir, Env: env, Recorder: rec})
	if err != nil {
		return "", err
	}
	// Run in the module's directory, ls-files names paths relative to it.
	names, err := spawnOut(spawn.Cmd{Program: spawn.Git(), Args: []string{"ls-files", "-z", "--", "."}, Dir: dir, Env: env, Recorder: rec})
	if err != nil {
		return "", err
	}
	known := map[string]bool{}
	for _, n := range strings.Split(string(names), "\x00") {
		known[n] = n != ""
	}
	// A vendor directory go reads instead of the module cache (its
	// modules.txt present) compiles dependency code the template above
	// does not list: untracked, it is in no stamp either.
	if _, err := os.Stat(walk.Child(dir, "vendor/modules.txt")); err == nil && !known["vendor/modules.txt"] {
		return walk.Child(dir, "vendor/modules.txt"), nil
	}
	for _, line := range strings.Split(string(out), "\n") {
		mod, file, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		rel, under := walk.RelUnder(walk.NormalizeAbs(mod), walk.NormalizeAbs(file))
		if !under || !known[rel] {
			return file, nil
		}
	}
	return "", nil
}

// spawnOut runs cmd and answers its standard output, or its failure.
func spawnOut(cmd spawn.Cmd) ([]byte, error) {
	done, err := spawn.Run(cmd)
	if err != nil {
		return nil, err
	}
	out, ok := done.Stdout()
	if !ok {
		rep, _ := done.FailureReport()
		return nil, fmt.Errorf("%s", rep)
	}
	return out, nil
}

// envBookkeeping names variables that say where and how a shell, make or
// git started the run, not what the arms compute: left out of the key so
// the hook, make and a plain shell share one record. GATE_SDK_NATIVE_BIN
// only says where the binary is; its content is the source stamp's.
func envBookkeeping(k string) bool {
	switch k {
	case "_", "SHLVL", "OLDPWD", "PWD", "MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKE_TERMOUT", "MAKE_TERMERR",
		"TERM", "COLUMNS", "LINES", "DISPLAY", "WINDOWID", "STY", "GATE_SDK_NATIVE_BIN", "GATE_SDK_VERBOSE":
		return true
	}
	for _, p := range []string{"GIT_", "SSH_", "TMUX", "XDG_SESSION_", "TERM_"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// envDigest digests the arms' environment, sorted, less the bookkeeping.
func envDigest(env []string) string {
	var kept []string
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !envBookkeeping(k) {
			kept = append(kept, kv)
		}
	}
	sort.Strings(kept)
	sum := sha256.Sum256([]byte(strings.Join(kept, "\x00")))
	return hex.EncodeToString(sum[:])
}

// recordName names the green record of one module root.
func recordName(crate string) string {
	sum := sha256.Sum256([]byte(crate))
	return "crate-arms-" + hex.EncodeToString(sum[:6]) + ".green"
}

// recordPlaces answers where a green record is looked up: the local
// scratch dir, then, in a linked worktree, the main checkout's.
func recordPlaces(c *gate.Context, local, tmp, record string, env []string) []string {
	places := []string{local}
	if main, ok := walk.MainCheckoutRoot(c.Dir, env); ok && !walk.PathRoot(walk.CrossArg(tmp)) {
		places = append(places, walk.Child(walk.Child(main, tmp), record))
	}
	return places
}
