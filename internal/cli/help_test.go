package cli

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"
)

// run drives Main with buffers and a fixed environment.
func run(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Env: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	return code, out.String(), errb.String()
}

func TestEveryArmHelpExitsZero(t *testing.T) {
	for _, a := range armTable() {
		for _, h := range []string{"--help", "-h"} {
			if a.Paths {
				// Its operands are paths: help is `gates help <arm>` alone.
				continue
			}
			code, out, errs := run(t, nil, a.Flag, h)
			if code != 0 || !strings.HasPrefix(out, "usage: gates ") || !strings.Contains(out, a.Summary) || errs != "" {
				t.Errorf("%s %s: exit %d\nstdout %q\nstderr %q", a.Flag, h, code, out, errs)
			}
		}
		if code, out, _ := run(t, nil, "help", a.Flag); code != 0 || !strings.Contains(out, a.Summary) {
			t.Errorf("help %s: exit %d %q", a.Flag, code, out)
		}
	}
	if code, out, _ := run(t, nil, "--emit", "knob-values", "--help"); code != 0 || !strings.Contains(out, "usage: gates --emit knob-values") {
		t.Errorf("--emit knob-values --help: exit %d %q", code, out)
	}
	if code, out, _ := run(t, nil, "help", "kit-roots"); code != 0 || !strings.Contains(out, "--emit kit-roots") {
		t.Errorf("help kit-roots: exit %d %q", code, out)
	}
}

func TestGateHelpNamesInvariantOperandsKnobsAndSpec(t *testing.T) {
	for _, args := range [][]string{{"check-tree-terms", "--help"}, {"check-tree-terms", "-h"}, {"help", "check-tree-terms"}, {"check-tree-terms", "docs", "--help"}} {
		code, out, errs := run(t, map[string]string{"GATE_SDK_PRUNE_EXTRA_DIRS": "vendor"}, args...)
		if code != 0 || errs != "" {
			t.Fatalf("%q: exit %d stderr %q", args, code, errs)
		}
		for _, want := range []string{
			"check-tree-terms — no tracked file matches the banned-pattern set\n",
			"usage: gates check-tree-terms [<root> [<pattern-file>...]]",
			"spec: gate-sdk/SPEC.md §check-tree-terms",
			"  GATE_SDK_PRUNE_EXTRA_DIRS = vendor  [environment]\n      basenames appended to the prune set",
			"  GATE_SDK_PRUNE_DIRS = target .git node_modules .tmp gate-tests worktrees  [default]\n",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%q: help lacks %q:\n%s", args, want, out)
			}
		}
	}
}

// A gate operand spelled --help is help, never a path handed to the rule;
// after -- it is the rule's again.
func TestHelpOperandNeverReachesTheRule(t *testing.T) {
	code, out, errs := run(t, nil, "check-action-pinning", "--help")
	if code != 0 || strings.Contains(errs+out, "scan root") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !isHelp([]string{"x", "-h"}) || isHelp([]string{"--", "--help"}) || isHelp([]string{"x"}) {
		t.Fatal("isHelp")
	}
}

func TestEveryGateHasHelp(t *testing.T) {
	for _, n := range gateNames() {
		code, out, _ := run(t, nil, n, "--help")
		if code != 0 || !strings.HasPrefix(out, n) || !strings.Contains(out, "usage: gates "+n) {
			t.Errorf("%s --help: exit %d %q", n, code, out)
		}
	}
}

func TestTopLevelHelpListsEveryArmAndCommand(t *testing.T) {
	_, out, _ := run(t, nil, "--help")
	for _, a := range armTable() {
		if !strings.Contains(out, "  "+armSpelling(a)+"\n") {
			t.Errorf("usage lacks arm %s", a.Flag)
		}
	}
	for _, c := range commandTable() {
		if !strings.Contains(out, "  gates "+c.Name) {
			t.Errorf("usage lacks command %s", c.Name)
		}
	}
	for _, f := range []string{"--version", "-v", "--list", "--emit"} {
		if !strings.Contains(out, f) {
			t.Errorf("usage lacks %s", f)
		}
	}
	for _, v := range [][]string{{"-v"}, {"--version"}, {"version"}} {
		if code, out, _ := run(t, nil, v...); code != 0 || out != versionLine()+"\n" {
			t.Errorf("%q: exit %d %q", v, code, out)
		}
	}
}

func TestRefusalsCarryTheInvokedName(t *testing.T) {
	_, _, errs := run(t, nil, "--bogus")
	if !strings.HasPrefix(errs, "gates: unrecognized option '--bogus'\n") {
		t.Errorf("the binary's refusal: %q", errs)
	}
	var out, errb bytes.Buffer
	Launch([]string{"/vendored/gate-sdk/bin/run-gates", "--bogus"}, IO{Stdout: &out, Stderr: &errb, Env: func(string) (string, bool) { return "", false }})
	if !strings.HasPrefix(errb.String(), "run-gates: unrecognized option '--bogus'\n") {
		t.Errorf("through the front end: %q", errb.String())
	}
	if _, _, errs := run(t, nil, "--emit", "nope"); !strings.HasPrefix(errs, "gates: no emit arm") {
		t.Errorf("emit refusal: %q", errs)
	}
	for argv0, want := range map[string]string{"gates": "gates", "/x/run-gates": "run-gates", `C:\k\run-gates.exe`: "run-gates", "./bin/gates": "gates", "run-gates.sh": "run-gates"} {
		if got := invokedName(argv0); got != want {
			t.Errorf("invokedName(%q) = %q, want %q", argv0, got, want)
		}
	}
}

func TestKnobsGroupsByGateWithValueSourceAndDescription(t *testing.T) {
	code, out, _ := run(t, map[string]string{"GATE_SDK_PRUNE_EXTRA_DIRS": "vendor"}, "knobs")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"check-tree-terms:\n",
		"check-action-pinning:\n  shared: GATE_SDK_PRUNE_DIRS GATE_SDK_PRUNE_EXTRA_DIRS\n",
		"  GATE_SDK_PRUNE_EXTRA_DIRS = vendor  [environment]\n",
		"--run [<gates-dir>]",
		"read by no compiled gate or arm",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("knobs lacks %q", want)
		}
	}
	// A knob many gates read is listed once, in the shared group.
	if n := strings.Count(out, "  GATE_SDK_PRUNE_DIRS = "); n != 1 || !strings.HasPrefix(out, "shared (") {
		t.Errorf("GATE_SDK_PRUNE_DIRS listed %d times, want once, up front", n)
	}
	if _, one, _ := run(t, nil, "knobs", "check-action-pinning"); !strings.Contains(one, "check-action-pinning:\n  GATE_SDK_PRUNE_DIRS = ") {
		t.Errorf("one gate's knobs list its own rows:\n%s", one)
	}
	// Every row of every table is listed with its description.
	for _, n := range knobNames() {
		if !strings.Contains(out, "  "+n+" = ") {
			t.Errorf("knobs does not list %s", n)
		}
		if knobDescription(n) == "" {
			t.Errorf("%s has no description in its knob table", n)
		}
	}
	_, described, _ := run(t, nil, "--emit", "knob-roster", "--describe")
	_, plain, _ := run(t, nil, "knobs")
	if described != plain {
		t.Error("--emit knob-roster --describe and gates knobs differ")
	}
	if code, _, errs := run(t, nil, "knobs", "check-nope"); code != 2 || !strings.Contains(errs, "check-nope") {
		t.Errorf("an unknown gate: exit %d %q", code, errs)
	}
}

func TestCompletionCandidates(t *testing.T) {
	s := newSession(IO{Env: func(string) (string, bool) { return "", false }})
	cases := []struct {
		args []string
		word string
		want string
	}{
		{nil, "check-action-p", "check-action-permissions check-action-pinning"},
		{[]string{"--emit"}, "knob-v", "knob-values"},
		{[]string{"--emit", "knob-values"}, "GATE_SDK_PRUNE_E", "GATE_SDK_PRUNE_EXTRA_DIRS"},
		{[]string{"--emit-knob-values", "GATE_SDK_JOBS"}, "GATE_SDK_JO", "GATE_SDK_JOB_REF_PATTERNS GATE_SDK_JOBS"},
		{[]string{"--run"}, "--fo", "--for --format"},
		{[]string{"--run", "--format"}, "", "text json"},
		{[]string{"--git-hook"}, "c", "commit-msg"},
		{[]string{"--hook"}, "", "commit-audit commit-guard edit-gates git-dir-guard stop-gates"},
		{nil, "--run-g", "--run-gate-tests"},
	}
	for _, c := range cases {
		got, _ := s.complete(c.args, c.word)
		if strings.Join(got, " ") != c.want {
			t.Errorf("complete(%q, %q) = %q, want %q", c.args, c.word, got, c.want)
		}
	}
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestColourOnlyWrapsLines(t *testing.T) {
	text := "===== check-x =====\na.md:1: bad\nhelp: fix it\n  FAIL: check-x (exit 1)\n1 of 2 gates FAILED: check-x\nX: clean (1 file)\npartial"
	var b bytes.Buffer
	w := &colourWriter{w: &b}
	for _, chunk := range []string{text[:7], text[7:30], text[30:]} {
		w.Write([]byte(chunk))
	}
	w.Flush()
	if got := ansi.ReplaceAllString(b.String(), ""); got != text {
		t.Fatalf("colour changed the text:\n%q\n%q", got, text)
	}
	if !strings.Contains(b.String(), ansiRed+"  FAIL: check-x (exit 1)"+ansiReset+"\n") || strings.Contains(b.String(), "\x1b[0ma.md") {
		t.Fatalf("styled wrongly: %q", b.String())
	}
	env := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	if colourWanted(false, env(nil)) || !colourWanted(true, env(nil)) || colourWanted(true, env(map[string]string{"NO_COLOR": "1"})) ||
		colourWanted(true, env(map[string]string{"TERM": "dumb"})) || !colourWanted(true, env(map[string]string{"NO_COLOR": ""})) {
		t.Fatal("colourWanted")
	}
	if progressWanted(false, env(nil)) || !progressWanted(true, env(nil)) || progressWanted(true, env(map[string]string{"CI": "true"})) {
		t.Fatal("progressWanted")
	}
	if !wantsDocument([]string{"--run", "--format", "json"}) || !wantsDocument([]string{"--emit", "kit-roots"}) || wantsDocument([]string{"--run"}) {
		t.Fatal("wantsDocument")
	}
}

func TestProgressLine(t *testing.T) {
	got := renderProgress(3, 17, []runningMember{{"check-slow", 2500 * time.Millisecond}, {"check-quick", time.Second}})
	if got != "gates: 3 of 17 done, 2 running; slowest check-slow (2.5s)" {
		t.Fatal(got)
	}
	if got := renderProgress(17, 17, nil); got != "gates: 17 of 17 done" {
		t.Fatal(got)
	}
	// A run shorter than the delay draws nothing, not even the eraser.
	var b bytes.Buffer
	p := newProgress(&b, []string{"a"})
	go p.run()
	p.Start(0)
	p.Done(0)
	p.Stop()
	if b.Len() != 0 {
		t.Fatalf("a quick run drew %q", b.String())
	}
	// A drawn line is erased on Stop.
	p = newProgress(&b, []string{"a", "b"})
	p.Start(1)
	p.draw(time.Now().Add(time.Second))
	close(p.stopped) // run was never started
	p.stop = make(chan struct{})
	p.Stop()
	if !strings.HasSuffix(b.String(), "\r\x1b[K") || !strings.Contains(b.String(), "slowest b (1.0s)") {
		t.Fatalf("%q", b.String())
	}
}
