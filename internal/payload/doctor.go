package payload

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/walk"
)

// DoctorUsage is `gates doctor`'s usage text.
const DoctorUsage = `usage: gates doctor

Names what keeps this install from doing what it appears to: each program a
registered gate starts that this host lacks, the state of the placed git
hooks, a vendored kit older or newer than the binary, and, where a
gates.baseline exists, each entry no current finding matches, and each
commit that reached the branch with no pre-commit judgement since the last
whole green battery. Advice and
notes follow, one line per distinct note: each registered gate that asserts
nothing yet with the knob that arms it, the gates the registry leaves out
grouped by reason, the findings the baseline accepts per gate.
Exit 0 nothing wrong (advice and notes alone), 1 findings, 2 the check
could not run.`

// DoctorMember is one registered gate as doctor reads it.
type DoctorMember struct {
	Name string
	// ArmedBy is the declaration's knob list; Content marks the content
	// form. Empty when the gate declares no arming knob.
	ArmedBy []string
	Content bool
	// Programs are the programs the gate starts beyond git.
	Programs []string
}

// DoctorLeftOut is one gate the registry declares unregistered, with the
// reason its line gives.
type DoctorLeftOut struct {
	Name, Reason string
}

// DoctorWorld is what doctor reads.
type DoctorWorld struct {
	Top    string
	Stdout io.Writer
	Stderr io.Writer
	// Members answers the registered gates and those the registry
	// declares left out.
	Members  func() ([]DoctorMember, []DoctorLeftOut, error)
	Knob     func(name string) (string, error)
	OnPath   func(program string) bool
	Hooks    HookState
	Bin      string // GATE_SDK_NATIVE_BIN, repo-relative or absolute
	Stamp    string
	LockPath string // repo-relative
	// Baseline, when set, answers the baseline's notes (accepted findings
	// per gate) and findings (stale entries, gates not registered).
	Baseline func() (notes, findings []string, err error)
	// Wiring answers a finding per harness registration whose program is
	// not there to run (nil: not checked).
	Wiring func() ([]string, error)
	// Tracked answers whether git tracks a repo-relative path (nil: the
	// CI workflow is not checked).
	Tracked func(rel string) (bool, error)
	// Unjudged answers a finding per commit that reached the branch with
	// no pre-commit judgement since the last whole green battery (nil:
	// not checked).
	Unjudged func() ([]string, error)
}

// RunDoctor is `gates doctor`.
func RunDoctor(args []string, w *DoctorWorld) int {
	for _, a := range args {
		if a == "-h" || a == "--help" {
			fmt.Fprintln(w.Stdout, DoctorUsage)
			return 0
		}
	}
	if len(args) > 0 {
		fmt.Fprintf(w.Stderr, "doctor: unexpected argument %q\n%s\n", args[0], DoctorUsage)
		return 2
	}
	r, err := doctor(w)
	if err != nil {
		fmt.Fprintf(w.Stderr, "doctor: %v\n", strings.TrimRight(err.Error(), "\n"))
		return 2
	}
	// assertion H: notes, then advice, then findings, each distinct line
	// once; only a finding makes the exit 1.
	for _, l := range r.notes.lines {
		fmt.Fprintf(w.Stdout, "doctor: note: %s\n", l)
	}
	for _, l := range r.advice.lines {
		fmt.Fprintf(w.Stdout, "doctor: advice: %s\n", l)
	}
	for _, l := range r.findings.lines {
		fmt.Fprintf(w.Stdout, "doctor: %s\n", l)
	}
	if n := len(r.findings.lines); n > 0 {
		fmt.Fprintf(w.Stdout, "DOCTOR: %d finding(s)\n", n)
		return 1
	}
	if r.disarmed > 0 {
		fmt.Fprintf(w.Stdout, "DOCTOR: clean (nothing wrong; %s until its knob is set, as advised above)\n", gate.Count(r.disarmed, "gate asserts nothing", "gates assert nothing"))
		return 0
	}
	fmt.Fprintln(w.Stdout, "DOCTOR: clean (every registered gate is armed, its programs present, the hooks and the kit match the binary)")
	return 0
}

// distinct is an ordered set of report lines: a line already held is not
// added again.
type distinct struct {
	lines []string
	seen  map[string]bool
}

func (d *distinct) add(format string, a ...any) {
	l := fmt.Sprintf(format, a...)
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	if !d.seen[l] {
		d.seen[l] = true
		d.lines = append(d.lines, l)
	}
}

// doctorReport is what doctor found, by kind.
type doctorReport struct {
	notes, advice, findings distinct
	disarmed                int
}

// leftOutReason is the reason of an unregistered line without the tier
// word init writes before it, so one reason under two tiers is one note.
func leftOutReason(reason string) string {
	for _, tier := range []string{"zero-config: ", "on-surface: "} {
		if r, ok := strings.CutPrefix(reason, tier); ok {
			return r
		}
	}
	return reason
}

func doctor(w *DoctorWorld) (*doctorReport, error) {
	members, leftOut, err := w.Members()
	if err != nil {
		return nil, err
	}
	r := &doctorReport{}
	// assertion I: the gates left out are one note per distinct reason,
	// naming every gate that shares it.
	byReason := map[string][]string{}
	var reasons []string
	for _, u := range leftOut {
		why := leftOutReason(u.Reason)
		if byReason[why] == nil {
			reasons = append(reasons, why)
		}
		byReason[why] = append(byReason[why], u.Name)
	}
	for _, why := range reasons {
		names := byReason[why]
		if why == "" {
			why = "no reason given on its line"
		}
		r.notes.add("not registered (%s): %s", why, strings.Join(names, ", "))
	}
	missing := map[string][]string{}
	var order []string
	for _, m := range members {
		// assertion A: a registered gate whose arming knob is empty, or whose
		// named files carry no live line, is named with the knob, as
		// advice: a gate waiting for its knob is how a correct adoption
		// starts, not something wrong.
		if len(m.ArmedBy) > 0 {
			disarmed, err := isDisarmed(w, m)
			if err != nil {
				return nil, err
			}
			if disarmed != "" {
				r.disarmed++
				r.advice.add("%s asserts nothing while %s; %s", m.Name, disarmed, armHint(m))
			}
		}
		for _, p := range m.Programs {
			if !w.OnPath(p) {
				if missing[p] == nil {
					order = append(order, p)
				}
				missing[p] = append(missing[p], m.Name)
			}
		}
	}
	// assertion B: a program a registered gate starts and the host lacks.
	for _, p := range order {
		r.findings.add("missing program: %s, which %s starts; install it with your package manager (the gate exits 2 without it)", p, strings.Join(missing[p], ", "))
	}
	hooks, err := hookFindings(w, &r.notes)
	if err != nil {
		return nil, err
	}
	for _, h := range hooks {
		r.findings.add("%s", h)
	}
	if w.Wiring != nil {
		// assertion G: a harness registration naming an absent binary.
		wiring, err := w.Wiring()
		if err != nil {
			return nil, err
		}
		for _, f := range wiring {
			r.findings.add("%s", f)
		}
	}
	// assertion D: the vendored kit's version against the binary's.
	lock, err := ReadLock(joinTop(w.Top, w.LockPath), w.LockPath)
	if err != nil {
		return nil, err
	}
	switch {
	case lock == nil:
		r.notes.add("no init lock at %s; the kit was not vendored by `gates init`, so its version is not recorded", w.LockPath)
	case lock.KitVersion != w.Stamp:
		r.findings.add("kit: %s/ was vendored by the build stamped %s, and this binary is %s; run `gates init` with the binary you mean to keep so the two match", lock.KitRoot, lock.KitVersion, w.Stamp)
	}
	// assertion J: a seeded CI workflow that cannot obtain the binary is a
	// finding; no workflow where init ran is advice saying what CI needs.
	if w.Tracked != nil {
		if err := ciFindings(w, lock, r); err != nil {
			return nil, err
		}
	}
	// assertion E: the baseline's accepted findings per gate are notes; an
	// entry nothing matches, or one naming a gate not registered, is a finding.
	if w.Baseline != nil {
		notes, stale, err := w.Baseline()
		if err != nil {
			return nil, err
		}
		for _, l := range notes {
			r.notes.add("%s", l)
		}
		for _, l := range stale {
			r.findings.add("%s", l)
		}
	}
	landed, err := unjudgedFindings(w)
	if err != nil {
		return nil, err
	}
	for _, l := range landed {
		r.findings.add("%s", l)
	}
	return r, nil
}

// unjudgedFindings is the check of commits that landed past the
// pre-commit hook (a cherry-pick, a rebase, an am, a --no-verify commit,
// a fast-forward): each is a finding until a whole green battery.
func unjudgedFindings(w *DoctorWorld) ([]string, error) {
	// assertion K: a commit git landed with no pre-commit judgement, and
	// a placed hooks directory lacking a reporter that would name one.
	if w.Unjudged == nil {
		return nil, nil
	}
	out, err := w.Unjudged()
	if err != nil || w.Hooks == nil {
		return out, err
	}
	dir, val, set, err := hookConfig(w.Hooks)
	if err != nil {
		return nil, err
	}
	if !set || walk.AbsAgainst(w.Top, walk.CrossArg(val)) != dir || !isDir(dir) {
		return out, nil
	}
	suffix := exeSuffixOfName(w.Bin)
	for _, h := range []string{"post-commit", "post-rewrite", "post-merge", "post-applypatch"} {
		if _, err := os.Stat(dir + "/" + h + suffix); err != nil {
			out = append(out, fmt.Sprintf("hooks: %s/%s is not placed (hooks placed by an older binary), so a commit landed by cherry-pick, rebase, am or a merge goes unnamed; run `gates --install-hooks`", dir, h+suffix))
		}
	}
	return out, nil
}

func armHint(m DoctorMember) string {
	if m.Content {
		return "add patterns to the file " + strings.Join(m.ArmedBy, " / ") + " names"
	}
	if strings.HasPrefix(m.ArmedBy[0], "GATE_LOCAL_") {
		return "give " + m.ArmedBy[0] + " a value on its `# knob:` line in the gate's descriptor to arm it"
	}
	return "set " + m.ArmedBy[0] + " in the gates directory's knob file to arm it"
}

// isDisarmed answers why m asserts nothing, or "" when it is armed. The
// content form with no named file present renders nothing: a required
// file's absence is the battery's refusal, not doctor's.
func isDisarmed(w *DoctorWorld, m DoctorMember) (string, error) {
	if !m.Content {
		v, err := w.Knob(m.ArmedBy[0])
		if err != nil {
			return "", err
		}
		if strings.TrimSpace(v) == "" {
			return m.ArmedBy[0] + " is empty", nil
		}
		return "", nil
	}
	var present []string
	for _, k := range m.ArmedBy {
		v, err := w.Knob(k)
		if err != nil {
			return "", err
		}
		for _, f := range strings.Fields(v) {
			data, err := walk.ReadConfigIn(w.Top, joinTop(w.Top, f))
			if err != nil {
				continue
			}
			present = append(present, f)
			for _, l := range strings.Split(string(data), "\n") {
				l = strings.TrimLeft(strings.TrimSuffix(l, "\r"), " \t")
				if l != "" && !strings.HasPrefix(l, "#") {
					return "", nil
				}
			}
		}
	}
	if len(present) == 0 {
		return "", nil
	}
	return strings.Join(present, " and ") + " carry no live line", nil
}

// hookFindings reads the clone's hook state: opted in or not, the placed
// files present, and each placed hook the same bytes as the binary.
func hookFindings(w *DoctorWorld, notes *distinct) ([]string, error) {
	dir, val, set, err := hookConfig(w.Hooks)
	if err != nil {
		return nil, err
	}
	if set && val != "" {
		// assertion F: a hooks path that resolves to nothing is an error:
		// git then runs no hook at all, in silence.
		if p := walk.AbsAgainst(w.Top, walk.CrossArg(val)); !isDir(p) {
			return []string{fmt.Sprintf("hooks: core.hooksPath is %s, which resolves to %s, where nothing is: git runs no hook for a commit here; run `gates --install-hooks` (a moved clone's path is repaired)", val, p)}, nil
		}
	}
	// assertion C: not opted in is a note; opted in and broken is a finding.
	if !set || walk.AbsAgainst(w.Top, walk.CrossArg(val)) != dir {
		state := "core.hooksPath is unset"
		if set {
			state = "core.hooksPath is " + val
		}
		notes.add("the gates hooks are not placed in this clone (%s); `gates init --hooks` places them", state)
		return nil, nil
	}
	bin := walk.AbsAgainst(w.Top, walk.CrossArg(w.Bin))
	want, err := FileDigest(bin)
	if err != nil {
		return []string{fmt.Sprintf("hooks: placed, but the binary %s they copy is unreadable (%v); rebuild or re-install it, then `gates --install-hooks`", w.Bin, err)}, nil
	}
	var out []string
	for _, h := range []string{"pre-commit", "commit-msg"} {
		p := dir + "/" + h + exeSuffixOfName(bin)
		got, err := FileDigest(p)
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("hooks: core.hooksPath names %s but %s is missing; run `gates --install-hooks`", dir, p))
		case got != want:
			out = append(out, fmt.Sprintf("hooks: %s is not the binary %s (a rebuild since it was placed); run `gates --install-hooks --refresh`", p, w.Bin))
		}
	}
	if len(out) == 0 {
		notes.add("hooks placed in %s and matching %s", dir, w.Bin)
	}
	return out, nil
}

func exeSuffixOfName(bin string) string {
	if strings.HasSuffix(strings.ToLower(bin), ".exe") {
		return ".exe"
	}
	return ""
}

// unfilledPayload is the seeded workflow's payload line as the template
// ships it, the fill-in empty.
const unfilledPayload = `GATES_PAYLOAD: "" #`

func ciFindings(w *DoctorWorld, lock *Lock, r *doctorReport) error {
	data, err := os.ReadFile(joinTop(w.Top, WorkflowPath))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if lock != nil {
			r.advice.add("ci: no gates workflow at %s, so nothing runs the battery on a push or a pull request. %s", WorkflowPath, CINeeds)
		}
		return nil
	case err != nil:
		return fmt.Errorf("cannot read %s: %v", WorkflowPath, err)
	}
	if !strings.Contains(string(data), unfilledPayload) {
		return nil
	}
	bin := strings.TrimPrefix(w.Bin, "./")
	tracked, err := w.Tracked(bin)
	if err != nil {
		return err
	}
	if !tracked {
		r.findings.add("ci: %s installs the gates binary from GATES_PAYLOAD, which is empty, and git does not track %s: its first step fails on every run. Fill GATES_PAYLOAD with the release payload's .tar.gz URL and GATES_PAYLOAD_SHA256 with its sha256", WorkflowPath, bin)
	}
	return nil
}
