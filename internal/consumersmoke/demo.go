package consumersmoke

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// DemoUsage is --run-demo's usage line.
const DemoUsage = "usage: --run-demo"

// demoFail is one of the walkthrough's assertions failing: exit 1.
type demoFail struct{ cause string }

func (d *demoFail) Error() string { return d.cause }

func failf(format string, a ...any) error { return &demoFail{cause: fmt.Sprintf(format, a...)} }

// demo narrates one walkthrough.
type demo struct {
	w    World
	step int
}

func (d *demo) say(format string, a ...any) {
	d.step++
	fmt.Fprintf(d.w.Stdout, "\nDEMO %d. "+format+"\n", append([]any{d.step}, a...)...)
}

func (d *demo) note(format string, a ...any) {
	fmt.Fprintf(d.w.Stdout, "   "+format+"\n", a...)
}

// quote prints text indented under a bar, so a reader sees where the
// tools' own output starts and ends.
func (d *demo) quote(text string) {
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintf(d.w.Stdout, "   | %s\n", l)
	}
}

// RunDemo is `--run-demo`: vendor the kits into a scratch consumer, show
// the battery green, plant one violation and show the gate that catches
// it, in the battery and as the pre-commit hook refusing a real commit,
// then drop the change and show green again.
func RunDemo(args []string, w World) int {
	// assertion K: no operand.
	if len(args) != 0 {
		fmt.Fprintln(w.Stderr, DemoUsage)
		return 2
	}
	d := &demo{w: w}
	s, err := d.run()
	if s != nil {
		os.RemoveAll(s.Dir)
	}
	var df *demoFail
	switch {
	case err == nil:
		return 0
	case errors.As(err, &df):
		fmt.Fprintf(w.Stdout, "DEMO: FAIL \u2014 %s\n", df.cause)
		return 1
	}
	fmt.Fprintf(w.Stderr, "DEMO: FAIL(env) \u2014 %v\n", err)
	return 2
}

// assertion L: numbered, narrated steps; assertion M: six asserted acts.
// The path is the README's adopter path: `gates init`, the battery,
// `gates init --hooks`, and `--install-hooks --restore` to undo the opt-in.
func (d *demo) run() (*Scratch, error) {
	w := d.w
	derived, err := w.KitRoots()
	if err != nil {
		return nil, err
	}
	if len(derived) == 0 {
		return nil, errors.New("no kit root resolves here; set GATE_SDK_ROOT or GATE_SDK_KIT_DIRS")
	}
	// The planted violation is the core kit's own recipe, read from the
	// invoking checkout: init vendors no smoke/ into a consumer.
	sdkRoot := walk.AbsAgainst(w.Dir, walk.CrossArg(derived[0]))
	if err := checkKitRoot(sdkRoot); err != nil {
		return nil, err
	}
	val, err := w.NativeBin()
	if err != nil {
		return nil, err
	}
	environ := []string(nil)
	if w.Environ != nil {
		environ = w.Environ()
	}
	b := Builder{Host: w.Dir, HostBin: walk.AbsAgainst(w.Dir, walk.CrossArg(val)), Base: TempBase(w.Env, "DEMO_TMP_DIR", "TMPDIR"), Environ: environ}

	fmt.Fprintln(w.Stdout, "DEMO: gate-sdk from a new adopter's seat, in a throwaway repository.")
	s, err := b.Seed("gates-demo")
	if err != nil {
		return s, err
	}
	d.say("A scratch consumer: a fresh git repository at %s, one seed commit.", s.Dir)
	init, err := spawn.RunMerged(spawn.Cmd{Program: spawn.At(b.HostBin), Args: []string{"init"}, Dir: s.Dir, Env: s.Env})
	if err != nil {
		return s, err
	}
	d.say("Adopt it: gates init vendors the kit the binary carries into %s/, places the binary at %s\n   (gitignored) and writes the registry and the configuration; then commit it.", SdkBase, DefaultBin)
	d.quote(string(init.Output()))
	if !init.Succeeded() {
		return s, envErr("gates init failed in the scratch (exit %d)", init.ReportedCode())
	}
	s.Kits = []string{SdkBase}
	if err := s.CommitAll("chore: adopt gates"); err != nil {
		return s, err
	}

	code, out, err := s.Battery()
	if err != nil {
		return s, err
	}
	d.say("Run the battery through the vendored front end: bash %s/bin/run-gates.sh", s.SdkAt)
	if !Green(code, out) {
		d.quote(string(out))
		return s, failf("the battery is not green after install (exit %d)", code)
	}
	d.quote(GreenToken(out))

	gate, _, err := s.plant(walk.Child(sdkRoot, "smoke/violation.sh"), SdkBase)
	if err != nil {
		return s, err
	}
	d.say("Plant one violation with %s/smoke/violation.sh; it names the gate expected to catch it.", derived[0])
	if gate == "" {
		return s, failf("%s/smoke/violation.sh printed no expected-gate name", derived[0])
	}
	if st, err := s.git("status", "--short"); err == nil && strings.TrimSpace(st) != "" {
		d.note("git status --short:")
		d.quote(st)
	}
	d.note("expected to be caught by: %s", gate)

	code, out, err = s.Battery()
	if err != nil {
		return s, err
	}
	d.say("Run the battery again. The gate's block, through its remedy and invariant:")
	if code == 0 {
		d.quote(string(out))
		return s, failf("the violation did not turn the battery red")
	}
	if !FailLine(out, gate) {
		d.quote(string(out))
		return s, failf("the wrong gate caught the violation: expected %s, failed: %s", gate, strings.Join(FailedGates(out), " "))
	}
	if ex, ok := Excerpt(out, gate); ok {
		d.quote(ex)
	}
	d.note("the battery exits %d: %s blocks the change.", code, gate)

	if err := d.hookStep(s, gate); err != nil {
		return s, err
	}

	if err := s.Restore(); err != nil {
		return s, err
	}
	code, out, err = s.Battery()
	if err != nil {
		return s, err
	}
	d.say("Fix it by dropping the change (git reset --hard && git clean -fd), and run the battery once more:")
	if !Green(code, out) {
		d.quote(string(out))
		return s, failf("green did not return after the fix (exit %d)", code)
	}
	d.quote(GreenToken(out))
	fmt.Fprintf(w.Stdout, "\nDEMO: clean \u2014 adopted green with gates init, %s caught the planted violation in the battery and at commit, green after the fix.\n", gate)
	return s, nil
}

// hookStep opts the scratch in to the hooks the way the README says
// (`gates init --hooks`), tries a real git commit of the violation, shows
// the refusal, and undoes the opt-in with `--install-hooks --restore`.
func (d *demo) hookStep(s *Scratch, gate string) error {
	inst, err := spawn.RunMerged(spawn.Cmd{Program: spawn.At(s.Bin), Args: []string{"init", "--hooks"}, Dir: s.Dir, Env: s.Env})
	if err != nil {
		return err
	}
	d.say("Opt this clone in to the git hooks (%s init --hooks), then try to commit the violation:", DefaultBin)
	d.quote(string(inst.Output()))
	if !inst.Succeeded() {
		return fmt.Errorf("init --hooks failed in the scratch (exit %d)", inst.ReportedCode())
	}
	if _, err := s.git("add", "-A"); err != nil {
		return err
	}
	before, err := s.git("rev-parse", "HEAD")
	if err != nil {
		return err
	}
	c, err := spawn.RunMerged(spawn.Cmd{Program: spawn.Git(), Args: []string{"commit", "-q", "-m", "docs: add release notes"}, Dir: s.Dir, Env: s.Env})
	if err != nil {
		return err
	}
	d.note("$ git commit -m \"docs: add release notes\"")
	d.quote(string(c.Output()))
	after, err := s.git("rev-parse", "HEAD")
	if err != nil {
		return err
	}
	failed := fmt.Sprintf("pre-commit: %s failed (see above).", gate)
	if c.Succeeded() || before != after {
		return failf("the pre-commit hook let the violating commit through")
	}
	if !strings.Contains(string(c.Output()), failed) {
		return failf("the pre-commit hook refused the commit, but not through %s", gate)
	}
	d.note("git commit exited %d and nothing was committed; the bypass line is the valve, for a case the gates got wrong.", c.ReportedCode())
	undo, err := spawn.RunMerged(spawn.Cmd{Program: spawn.At(s.Bin), Args: []string{"--install-hooks", "--restore"}, Dir: s.Dir, Env: s.Env})
	if err != nil {
		return err
	}
	d.note("$ %s --install-hooks --restore   # the opt-in undone", DefaultBin)
	d.quote(string(undo.Output()))
	if !undo.Succeeded() {
		return fmt.Errorf("--install-hooks --restore failed in the scratch (exit %d)", undo.ReportedCode())
	}
	return nil
}
