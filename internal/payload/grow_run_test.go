package payload

// A later init over the registry an earlier one wrote, run whole: what
// it adds, what it rewrites, what it records and says.

import (
	"errors"
	"sort"
	"strings"
	"testing"
)

func TestRunInitGrowsTheRegistry(t *testing.T) {
	f := newInitFake(t)
	f.probes["check-exec-bit"] = probeAnswer{code: 2, out: "cannot yet"}
	if code := f.run(); code != 0 {
		t.Fatalf("install: exit %d", code)
	}
	before, _ := readFile(t, f.w.Top, "scripts/gates.list")
	// The repository gains a gate of its own: the gates that judge gates
	// now apply, check-graph among them, whose page init then writes.
	f.tracked = append(f.tracked, "scripts/check-own.sh")
	f.w.EmitGraph = func() ([]byte, error) { return []byte("the page\n"), nil }
	f.probes["check-gate-output"] = probeAnswer{code: 1, out: "scripts/check-own.sh:1: no clean line\n"}
	f.probes["check-kit-enum"] = probeAnswer{err: errors.New("no fork")}
	f.baseline = []byte("check-gate-output\tscripts/check-own.sh\tA\t" + strings.Repeat("2", 16) + "\n")
	if code := f.run(); code != 0 {
		t.Fatalf("exit %d err %s", code, f.err)
	}
	out := f.out.String()
	for _, want := range []string{
		"init: wrote docs/graph.md (check-graph's page; regenerate it with gates --emit graph)",
		"init: check-gate-output: registered with 1 accepted finding (scripts/gates.baseline)",
		"init: check-graph: registered",
		"init: check-kit-enum: not adopted: could not be probed: no fork",
	} {
		if !hasLine(out, want) {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "check-exec-bit") {
		t.Errorf("a gate still left out for the same reason was named again:\n%s", out)
	}
	if !strings.Contains(out, "init: added 20 gates to scripts/gates.list: check-assertion-strength, ") || !strings.Contains(out, "; every line you wrote is kept\n") {
		t.Errorf("out:\n%s", out)
	}
	grown, _ := readFile(t, f.w.Top, "scripts/gates.list")
	if !strings.Contains(grown, "\ncheck-gate-output\n") || !strings.Contains(grown, "# unregistered: check-kit-enum \u2014 zero-config: could not be probed: no fork\n") ||
		!strings.Contains(grown, "# unregistered: check-exec-bit \u2014 zero-config: cannot run on this tree yet: cannot yet\n") {
		t.Errorf("registry:\n%s", grown)
	}
	if grown == before || !strings.Contains(grown, "\ncheck-graph\n") || strings.Contains(grown, "# unregistered: check-graph ") {
		t.Errorf("registry did not grow:\n%s", grown)
	}
	// The registry was init's, untouched: it stays init's in the lock.
	l := f.lock(t)
	if rec, ok := l.file("scripts/gates.list"); !ok || rec.SHA256 != Digest([]byte(grown)) {
		t.Errorf("lock records the registry as %+v %v", rec, ok)
	}
	if rec, ok := l.file("scripts/gates.baseline"); !ok || rec.Class != classSeed {
		t.Errorf("lock records the baseline as %+v %v", rec, ok)
	}
	if rec, ok := l.file("docs/graph.md"); !ok || rec.SHA256 != Digest([]byte("the page\n")) {
		t.Errorf("lock records the page as %+v %v", rec, ok)
	}
	has := func(g string) bool {
		for _, r := range l.Registered {
			if r == g {
				return true
			}
		}
		return false
	}
	if !has("check-graph") || !has("check-gate-output") || has("check-kit-enum") || !has("check-tree-terms") {
		t.Errorf("registered %q", l.Registered)
	}
	if !strings.Contains(out, "\n  git add -A && bash gate-sdk/bin/run-gates.sh   the first battery, over the staged adoption") {
		t.Errorf("out:\n%s", out)
	}
}

func TestRunInitGrowsAnEditedRegistry(t *testing.T) {
	f := newInitFake(t)
	f.probes["check-exec-bit"] = probeAnswer{code: 2, out: "cannot yet"}
	if code := f.run(); code != 0 {
		t.Fatalf("install: exit %d", code)
	}
	cur, _ := readFile(t, f.w.Top, "scripts/gates.list")
	edited := cur + "# a line of mine\n"
	writeFile(t, f.w.Top, "scripts/gates.list", edited)
	recBefore, _ := f.lock(t).file("scripts/gates.list")
	// Its reason changes: init rewrites its own line, and adds no gate.
	f.probes["check-exec-bit"] = probeAnswer{err: errors.New("no fork")}
	if code := f.run(); code != 0 {
		t.Fatalf("exit %d err %s", code, f.err)
	}
	out := f.out.String()
	for _, want := range []string{
		"init: kept scripts/gates.list (edited since init)",
		"init: check-exec-bit: not adopted: could not be probed: no fork",
		"init: added no gate to scripts/gates.list (each left out is named there with its reason); every line you wrote is kept",
	} {
		if !hasLine(out, want) {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
	grown, _ := readFile(t, f.w.Top, "scripts/gates.list")
	if want := strings.Replace(edited, "# unregistered: check-exec-bit \u2014 zero-config: cannot run on this tree yet: cannot yet\n", "# unregistered: check-exec-bit \u2014 zero-config: could not be probed: no fork\n", 1); grown != want {
		t.Errorf("registry:\n%s\nwant:\n%s", grown, want)
	}
	// The adopter's registry stays theirs in the lock.
	if rec, _ := f.lock(t).file("scripts/gates.list"); rec != recBefore {
		t.Errorf("lock record moved from %+v to %+v", recBefore, rec)
	}
	// The same reason again changes nothing.
	if code := f.run(); code != 0 || !strings.HasSuffix(f.out.String(), "init: nothing to do; the tree is as init left it\n") || strings.Contains(f.out.String(), "added no gate") {
		t.Errorf("exit %d out:\n%s", code, f.out)
	}
	// A gate that now runs is registered on init's own line, in place.
	f.probes["check-exec-bit"] = probeAnswer{}
	if code := f.run(); code != 0 || !hasLine(f.out.String(), "init: added 1 gate to scripts/gates.list: check-exec-bit; every line you wrote is kept") {
		t.Errorf("exit %d out:\n%s", code, f.out)
	}
	if got, _ := readFile(t, f.w.Top, "scripts/gates.list"); got != strings.Replace(edited, "# unregistered: check-exec-bit \u2014 zero-config: cannot run on this tree yet: cannot yet\n", "check-exec-bit\n", 1) {
		t.Errorf("registry:\n%s", got)
	}
}

func TestRunInitGrowRefusals(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, f *initFake)
		want  string
	}{
		{"the baseline run", func(t *testing.T, f *initFake) {
			f.probes["check-exec-bit"] = probeAnswer{code: 1, out: "x:1: y\n"}
			f.w.Baseline = func(bool) ([]byte, error) { return nil, errors.New("baseline died") }
		}, "init: gates baseline: baseline died\n"},
		{"the page", func(t *testing.T, f *initFake) {
			f.tracked = append(f.tracked, "scripts/check-own.sh")
			f.w.EmitGraph = func() ([]byte, error) { return nil, errors.New("emit died") }
		}, "init: the coupling-graph page: emit died\n"},
		{"a malformed registry", func(t *testing.T, f *initFake) {
			cur, _ := readFile(t, f.w.Top, "scripts/gates.list")
			writeFile(t, f.w.Top, "scripts/gates.list", cur+"not a gate name!\n")
		}, "scripts/gates.list:"},
		{"the baseline unreadable", func(t *testing.T, f *initFake) {
			f.probes["check-exec-bit"] = probeAnswer{}
			writeFile(t, f.w.Top, "scripts/gates.baseline/x", "")
		}, "init: cannot read scripts/gates.baseline: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newInitFake(t)
			f.probes["check-exec-bit"] = probeAnswer{code: 2, out: "cannot yet"}
			if code := f.run(); code != 0 {
				t.Fatalf("install: exit %d", code)
			}
			tc.setup(t, f)
			if code := f.run(); code != 2 || !strings.HasPrefix(f.err.String(), tc.want) {
				t.Errorf("exit %d err %q, want %q", code, f.err, tc.want)
			}
		})
	}
}

// A later init decides the commit-message gates again with the types the
// history uses admitted where the knob file admits them, and with the
// knobs alone where the history adds no type.
func TestRunInitGrowJudgesTheHistoryAsTheFirstRun(t *testing.T) {
	for _, extra := range []bool{true, false} {
		f := newInitFake(t)
		subject := "fix: a"
		if extra {
			subject = "release: a"
		}
		var commits []HistoryCommit
		for i := 0; i < 10; i++ {
			commits = append(commits, HistoryCommit{Author: "Ann", Email: "ann@example.com", Message: subject})
		}
		f.w.Messages = func(int) ([]HistoryCommit, error) { return commits, nil }
		f.w.Judge = func(string, string, []string) (bool, error) { return false, errors.New("no judge yet") }
		if code := f.run(); code != 0 {
			t.Fatalf("install: exit %d", code)
		}
		if !extra {
			// The adopter sets the kit's roster in the knob file.
			knobs, _ := readFile(t, f.w.Top, "scripts/gate-sdk-config.knobs")
			writeFile(t, f.w.Top, "scripts/gate-sdk-config.knobs", knobs+"GATE_SDK_COMMIT_TYPES = feat fix\n")
		}
		envs := map[string]bool{}
		f.w.Judge = func(g, msg string, env []string) (bool, error) {
			envs[g+":"+strings.Join(env, ",")] = true
			return g == "check-commit-msg" || len(env) == 1 || !extra, nil
		}
		if code := f.run(); code != 0 {
			t.Fatalf("exit %d err %s", code, f.err)
		}
		want := "check-commit-msg: check-commit-subject:"
		if extra {
			want = "check-commit-msg: check-commit-subject:GATE_SDK_COMMIT_TYPES=feat fix release"
		}
		var got []string
		for e := range envs {
			got = append(got, e)
		}
		sort.Strings(got)
		if strings.Join(got, " ") != want {
			t.Errorf("extra %v: judged %q, want %q", extra, got, want)
		}
		if !hasLine(f.out.String(), "init: check-commit-subject: registered") {
			t.Errorf("extra %v: out:\n%s", extra, f.out)
		}
	}
}
