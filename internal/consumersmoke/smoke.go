package consumersmoke

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gate-sdk/gates/internal/walk"
)

// SmokeUsage is --run-consumer-smoke's usage line.
const SmokeUsage = "usage: --run-consumer-smoke [--keep] [<kit-root>...]"

const smokePrefix = "run-consumer-smoke: "

// smokeRun carries one --run-consumer-smoke invocation.
type smokeRun struct {
	w       World
	keep    bool
	host    Host
	builder Builder
	failed  bool
}

func (r *smokeRun) diag(format string, a ...any) {
	fmt.Fprintf(r.w.Stderr, smokePrefix+format+"\n", a...)
}

func (r *smokeRun) fail(format string, a ...any) {
	r.failed = true
	r.diag(format, a...)
}

// RunSmoke is `--run-consumer-smoke [--keep] [<kit-root>...]`.
func RunSmoke(args []string, w World) int {
	r := &smokeRun{w: w}
	// assertion F: --keep alone; roots checked before anything is built.
	var named []string
	for _, a := range args {
		switch {
		case a == "--keep":
			r.keep = true
		case strings.HasPrefix(a, "-"):
			r.diag("unknown option %q", a)
			fmt.Fprintln(w.Stderr, SmokeUsage)
			return 2
		default:
			named = append(named, a)
		}
	}
	roots, err := r.setup(named)
	if err != nil {
		r.diag("%v", err)
		return 2
	}
	code := r.run(roots)
	return code
}

// setup resolves the kit roots (named, else every derived root, gate-sdk
// first either way), checks each ships smoke/install.sh, and resolves the
// binary to place.
func (r *smokeRun) setup(named []string) ([]string, error) {
	w := r.w
	derived, err := w.KitRoots()
	if err != nil {
		return nil, err
	}
	if len(derived) == 0 {
		return nil, errors.New("no kit root resolves here; set GATE_SDK_ROOT or GATE_SDK_KIT_DIRS")
	}
	sdk := walk.AbsAgainst(w.Dir, walk.CrossArg(derived[0]))
	var roots []string
	if len(named) == 0 {
		for _, d := range derived {
			roots = append(roots, walk.AbsAgainst(w.Dir, walk.CrossArg(d)))
		}
	} else {
		roots = []string{sdk}
		for _, n := range named {
			abs := walk.AbsAgainst(w.Dir, walk.CrossArg(n))
			if abs != sdk {
				roots = append(roots, abs)
			}
		}
	}
	for _, root := range roots {
		if err := checkKitRoot(root); err != nil {
			return nil, err
		}
	}
	val, err := w.NativeBin()
	if err != nil {
		return nil, err
	}
	environ := []string(nil)
	if w.Environ != nil {
		environ = w.Environ()
	}
	bin := walk.AbsAgainst(w.Dir, walk.CrossArg(val))
	fixtures, err := kitFixtures(w.KitTests, w.Dir)
	if err != nil {
		return nil, err
	}
	templates, err := kitFixtures(w.KitTemplates, w.Dir)
	if err != nil {
		return nil, err
	}
	r.host = Host{Top: w.Dir, Bin: bin, Roots: roots, Environ: environ}
	r.builder = Builder{Host: w.Dir, HostBin: bin, Roots: roots, Fixtures: fixtures, Templates: templates, Base: TempBase(w.Env, "TMPDIR"), Environ: environ, Out: w.Stdout}
	return roots, nil
}

// checkKitRoot refuses a root that is no directory or ships no installer.
func checkKitRoot(root string) error {
	fi, err := os.Stat(root)
	if err != nil || !fi.IsDir() {
		return fmt.Errorf("kit root %s is not a directory", root)
	}
	if fi, err := os.Stat(walk.Child(root, "smoke/install.sh")); err != nil || fi.IsDir() {
		return fmt.Errorf("kit root %s ships no smoke/install.sh; an installed (vendored) tree does not carry smoke/, so run this from a checkout of the kit sources", root)
	}
	return nil
}

func (r *smokeRun) run(roots []string) int {
	s, err := r.builder.Build("consumer-smoke")
	if s != nil {
		defer r.cleanup(s)
	}
	if err != nil {
		r.diag("%v", err)
		return 2
	}
	// assertion G: green, accounting, each violation caught, green again.
	code, out, err := s.Battery()
	if err != nil {
		r.diag("%v", err)
		return 2
	}
	if !Green(code, out) {
		r.w.Stdout.Write(out)
		r.fail("the battery is not green after install under zero consumer config (exit %d)", code)
		return 1
	}
	acct, err := Account(s, r.host)
	if err != nil {
		r.diag("%v", err)
		return 2
	}
	for _, n := range acct.Notes {
		r.diag("note: %s", n)
	}
	for _, f := range acct.Findings {
		r.fail("%s", f)
	}
	fmt.Fprintln(r.w.Stdout, acct.Line())
	fired, status := r.violations(s)
	if status == 2 {
		return 2
	}
	if code, out, err := s.Battery(); err != nil {
		r.diag("%v", err)
		return 2
	} else if !Green(code, out) {
		r.w.Stdout.Write(out)
		r.fail("the battery is not green again after the last restore (exit %d)", code)
	}
	if r.failed {
		return 1
	}
	if len(roots) > 2 {
		if code := r.alone(roots); code != 0 {
			return code
		}
	}
	// assertion J: the clean line.
	fmt.Fprintf(r.w.Stdout, "CONSUMER-SMOKE: clean (%d kits installed, %d violations fired, %d gates registered, %d self-declared, %d hand-declared)\n",
		len(s.Kits), fired, acct.Registered, acct.Self, acct.Hand)
	return 0
}

func (r *smokeRun) cleanup(s *Scratch) {
	if r.keep {
		r.diag("kept the scratch consumer at %s", s.Dir)
		return
	}
	os.RemoveAll(s.Dir)
}

// violations fires each kit's violation and checks the named gate reddens
// the battery, in its transcript and in the SARIF log, then restores.
func (r *smokeRun) violations(s *Scratch) (int, int) {
	fired := 0
	sarif := walk.Child(s.Dir, ".tmp/consumer-smoke.sarif")
	for _, k := range s.Kits {
		if fi, err := os.Stat(walk.Child(walk.Child(s.Dir, k), "smoke/violation.sh")); err != nil || fi.IsDir() {
			r.diag("notice: %s ships no smoke/violation.sh; it contributes install coverage only", k)
			continue
		}
		gate, _, err := s.Violation(k)
		if err != nil {
			r.diag("%v", err)
			return fired, 2
		}
		fired++
		if gate == "" {
			r.fail("%s/smoke/violation.sh printed no gate name on its first stdout line", k)
		} else {
			os.MkdirAll(walk.Child(s.Dir, ".tmp"), 0o755)
			os.Remove(sarif)
			code, out, err := s.Battery("GATE_SDK_SARIF_FILE=" + sarif)
			if err != nil {
				r.diag("%v", err)
				return fired, 2
			}
			switch {
			case code == 0:
				r.w.Stdout.Write(out)
				r.fail("%s's violation left the battery green; %s did not catch it", k, gate)
			case !FailLine(out, gate):
				r.w.Stdout.Write(out)
				r.fail("%s's violation reddened the battery, but not through %s (failed: %s)", k, gate, strings.Join(FailedGates(out), " "))
			default:
				ok, err := SARIFHasRule(sarif, gate)
				if err != nil {
					r.fail("%s's violation: cannot read the SARIF log %s: %v", k, sarif, err)
				} else if !ok {
					r.fail("%s's violation: the SARIF log %s holds no result for rule %s", k, sarif, gate)
				}
			}
		}
		if err := s.Restore(); err != nil {
			r.diag("%v", err)
			return fired, 2
		}
	}
	return fired, 0
}

// alone repeats install-and-green for gate-sdk alone and for gate-sdk plus
// each other root, each in a fresh scratch that is always removed.
func (r *smokeRun) alone(roots []string) int {
	// assertion I: each kit green with only gate-sdk beside it.
	start := time.Now()
	sets := [][]string{{roots[0]}}
	for _, root := range roots[1:] {
		sets = append(sets, []string{roots[0], root})
	}
	for _, set := range sets {
		b := r.builder
		b.Roots, b.Out = set, r.w.Stderr
		s, err := b.Build("consumer-smoke-alone")
		kit := baseName(set[len(set)-1])
		var out []byte
		green := false
		if err == nil {
			var code int
			code, out, err = s.Battery()
			green = err == nil && Green(code, out)
		}
		if s != nil {
			os.RemoveAll(s.Dir)
		}
		if !green {
			if err != nil {
				r.diag("%s alone: %v", kit, err)
			}
			r.w.Stdout.Write(out)
			fmt.Fprintf(r.w.Stdout, "CONSUMER-SMOKE: FAIL \u2014 %s is not green with only gate-sdk beside it\n", kit)
			fmt.Fprintf(r.w.Stdout, "help: reproduce it with gates --run-consumer-smoke --keep %s\n", strings.Join(set[1:], " "))
			return 1
		}
	}
	fmt.Fprintf(r.w.Stdout, "CONSUMER-SMOKE: alone \u2014 %d kit root(s) green alone in %dms\n", len(sets), time.Since(start).Milliseconds())
	return 0
}
