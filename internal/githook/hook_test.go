package githook

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/registry"
)

type fakeRegistry struct {
	selected []Member
	all      []Member
	err      error
	// reads maps a member to the paths it reads.
	reads   map[string][]string
	readErr error
}

func (f fakeRegistry) Select([]string) ([]Member, error) { return f.selected, f.err }
func (f fakeRegistry) Members() ([]Member, error)        { return f.all, f.err }
func (f fakeRegistry) Reads(name string, paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		for _, r := range f.reads[name] {
			if p == r {
				out = append(out, p)
			}
		}
	}
	return out, f.readErr
}

// modes is an index's mode table.
type modes map[string]uint32

func (m modes) Mode(p string) (uint32, bool) { v, ok := m[p]; return v, ok }

func TestPreCommitPlan(t *testing.T) {
	index := modes{"docs/a.md": 0o100644, "docs/b.md": 0o100755, "docs/link.md": 0o120000, "x": 0o160000}
	sh := func(name, tier string) Member {
		return Member{Name: name, Kind: registry.Shell, Decl: "scripts/" + name + ".sh", Tier: tier}
	}
	staged := func(name string, ops ...string) Member {
		m := sh(name, registry.TierPrecommit)
		m.Staged, m.Operands = true, ops
		return m
	}
	reg := fakeRegistry{selected: []Member{
		sh("check-a", registry.TierPrecommit),
		sh("check-align", registry.TierAlignOnly),
		sh("check-msg", registry.TierCommitMsg),
		{Name: "check-gone", Kind: registry.Unresolved},
		staged("check-st", "docs/a.md", "docs/link.md", "docs/deleted.md", "docs/b.md"),
		staged("check-links", "docs/link.md"),
		sh("check-a", registry.TierPrecommit),
	}}
	plan, err := PreCommitPlan(reg, index, []string{"x"}, false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range plan {
		got = append(got, s.Name+"("+strings.Join(s.Args, ",")+")")
	}
	want := "check-a() check-gone() check-st(docs/a.md,docs/b.md)"
	if strings.Join(got, " ") != want {
		t.Fatalf("plan = %s, want %s", strings.Join(got, " "), want)
	}
}

// assertion U: a shape change brings in every whole-tree shape reader at
// its registry place; without one only the trigger's selection runs.
func TestPreCommitPlanShape(t *testing.T) {
	mem := func(name string, shape, staged bool) Member {
		return Member{Name: name, Kind: registry.Descriptor, Tier: registry.TierPrecommit, Shape: shape, Staged: staged}
	}
	picked := mem("check-picked", false, false)
	all := []Member{
		mem("check-lists", true, false),
		picked,
		mem("check-bytes", false, false),
		mem("check-staged-lister", true, true),
		mem("check-walks", true, false),
	}
	reg := fakeRegistry{selected: []Member{picked}, all: all}
	names := func(shape bool) string {
		plan, err := PreCommitPlan(reg, modes{}, []string{"x"}, shape)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range plan {
			got = append(got, s.Name)
		}
		return strings.Join(got, " ")
	}
	if got, want := names(false), "check-picked"; got != want {
		t.Fatalf("no shape change: plan %s, want %s", got, want)
	}
	if got, want := names(true), "check-lists check-picked check-walks"; got != want {
		t.Fatalf("a shape change: plan %s, want %s", got, want)
	}
}

// gateScript writes an executable .sh member under dir.
func gateScript(t *testing.T, dir, name, body string) Member {
	t.Helper()
	p := filepath.Join(dir, "scripts", name+".sh")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return Member{Name: name, Kind: registry.Shell, Decl: "scripts/" + name + ".sh", Tier: registry.TierPrecommit}
}

func TestSerialReport(t *testing.T) {
	dir := t.TempDir()
	a := gateScript(t, dir, "check-a", "echo 'A: clean'")
	b := gateScript(t, dir, "check-b", "echo 'x.md:1: bad'; printf 'no newline'; exit 1")
	c := gateScript(t, dir, "check-c", "touch ran-c")
	d := gateScript(t, dir, "check-d", "echo 'y.md:2: worse'; exit 2")
	plan := []Step{{Member: a}, {Member: b}, {Member: c}}
	cases := []struct {
		name    string
		verbose bool
		plan    []Step
		code    int
		want    string
	}{
		{"runs on past a failure", false, plan, 1,
			"x.md:1: bad\nno newline\n\npre-commit: check-b failed (see above).\n  Bypass once (use sparingly): git commit --no-verify\n"},
		{"verbose reprints passes", true, plan, 1,
			"A: clean\n  PASS: check-a\nx.md:1: bad\nno newline\n\npre-commit: check-b failed (see above).\n  PASS: check-c\n  Bypass once (use sparingly): git commit --no-verify\n"},
		{"every failure reported", false, []Step{{Member: b}, {Member: a}, {Member: d}, {Member: c}}, 1,
			"x.md:1: bad\nno newline\n\npre-commit: check-b failed (see above).\ny.md:2: worse\n\npre-commit: check-d failed (see above).\npre-commit: 2 of 4 gate(s) failed: check-b, check-d.\n  Bypass once (use sparingly): git commit --no-verify\n"},
		{"summary", false, []Step{{Member: a}, {Member: c}}, 0, "pre-commit: 2 gate(s) passed.\n"},
		{"unresolved fails", false, []Step{{Member: Member{Name: "check-gone", Kind: registry.Unresolved}}}, 1,
			"check-gone resolves to no check-gone.sh or check-gone.gate in the gates dir or any kit root's checks/\n\npre-commit: check-gone failed (see above).\n  Bypass once (use sparingly): git commit --no-verify\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(filepath.Join(dir, "ran-c"))
			var out bytes.Buffer
			r := runner{dir: dir, stdout: &out, verbose: tc.verbose}
			code := r.serial(PreCommit, tc.plan)
			if code != tc.code || out.String() != tc.want {
				t.Fatalf("code %d output %q; want %d %q", code, out.String(), tc.code, tc.want)
			}
			withC := false
			for _, s := range tc.plan {
				withC = withC || s.Name == "check-c"
			}
			if _, err := os.Stat(filepath.Join(dir, "ran-c")); withC && err != nil {
				t.Fatal("a member after a failure did not run")
			}
		})
	}
}

func TestChildEnvPin(t *testing.T) {
	cases := []struct {
		env  []string
		want string
	}{
		{nil, ""},
		{[]string{"GIT_DIR=/m/.git/worktrees/w"}, "GIT_WORK_TREE=/wt"},
		{[]string{"GIT_DIR=/m/.git/worktrees/w", "GIT_WORK_TREE=/elsewhere"}, ""},
		{[]string{"GIT_INDEX_FILE=/m/.git/index.lock"}, ""},
	}
	for _, c := range cases {
		r := runner{dir: "/wt", env: envOf(c.env...)}
		if got := strings.Join(r.childEnv(), " "); got != c.want {
			t.Errorf("env %v: child gains %q, want %q", c.env, got, c.want)
		}
	}
}

func TestRunHookUsageAndSilence(t *testing.T) {
	var out, errb bytes.Buffer
	w := World{Dir: t.TempDir(), Stdout: &out, Stderr: &errb,
		Registry: func() (Registry, error) { t.Fatal("the registry was loaded for a usage refusal"); return nil, nil }}
	for _, args := range [][]string{nil, {"post-receive"}, {"pre-commit", "x"}, {"commit-msg"}, {"commit-msg", "a", "b"}, {"post-commit", "x"}, {"post-rewrite"}, {"post-merge", "0", "x"}, {"post-applypatch", "x"}} {
		out.Reset()
		errb.Reset()
		if code := RunHook(args, w); code != 2 || errb.String() != HookUsage+"\n" || out.Len() != 0 {
			t.Errorf("%v: code %d stderr %q", args, code, errb.String())
		}
	}
}

func TestMeasureReport(t *testing.T) {
	got := MeasureReport([]time.Duration{12 * time.Millisecond, 9600 * time.Microsecond, 31 * time.Millisecond}, 4, 210)
	want := "measure-commit: 12ms median of 3 (12ms, 10ms, 31ms) \u2014 4 pre-commit member(s) over 210 tracked path(s), every path selected"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	// The median is the sorted samples' middle, whatever the run order.
	got = MeasureReport([]time.Duration{30 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond}, 1, 1)
	if !strings.HasPrefix(got, "measure-commit: 30ms median of 4 (30ms, 10ms, 20ms, 40ms)") {
		t.Fatalf("four samples: %q", got)
	}
	if got := MeasureReport(nil, 0, 0); !strings.HasPrefix(got, "measure-commit: 0ms median of 0 ()") {
		t.Fatalf("no samples: %q", got)
	}
	if got := HostLine("linux", "arm64", 8); got != "host: linux arm64, 8 logical CPU(s)" {
		t.Fatalf("host line %q", got)
	}
}

// In-process members run ahead on the workers, yet the report is the one
// a one-at-a-time run prints: outcomes in plan order, every member run
// past a failure, and a shell member started only in its turn.
func TestSerialRunsAheadInOrder(t *testing.T) {
	dir := t.TempDir()
	sh := gateScript(t, dir, "check-sh", "touch ran-sh; echo 'SH: clean'")
	compiled := func(name string) Member {
		return Member{Name: name, Kind: registry.Descriptor, Decl: "scripts/" + name + ".gate", Tier: registry.TierPrecommit}
	}
	var mu sync.Mutex
	started := map[string]bool{}
	release := make(chan struct{})
	run := func(cr CompiledRun) (int, []byte) {
		mu.Lock()
		started[cr.Name] = true
		mu.Unlock()
		switch cr.Name {
		case "check-slow":
			// Finishes only after a later member has run ahead.
			<-release
			return 0, []byte("SLOW: clean\n")
		case "check-quick":
			close(release)
			return 0, []byte("QUICK: clean\n")
		case "check-red":
			return 1, []byte("x.md:1: red\n")
		}
		return 0, []byte(strings.ToUpper(strings.TrimPrefix(cr.Name, "check-")) + ": clean\n")
	}
	green := []Step{{Member: compiled("check-slow")}, {Member: compiled("check-quick")}, {Member: sh}, {Member: compiled("check-z")}}
	for _, verbose := range []bool{false, true} {
		var out bytes.Buffer
		r := runner{dir: dir, stdout: &out, verbose: verbose, compiled: run, jobs: 2}
		release = make(chan struct{})
		if code := r.serial(PreCommit, green); code != 0 {
			t.Fatalf("green plan: exit %d\n%s", code, out.String())
		}
		want := "pre-commit: 4 gate(s) passed.\n"
		if verbose {
			want = "SLOW: clean\n  PASS: check-slow\nQUICK: clean\n  PASS: check-quick\nSH: clean\n  PASS: check-sh\nZ: clean\n  PASS: check-z\n" + want
		}
		if out.String() != want {
			t.Fatalf("verbose=%v report %q, want %q", verbose, out.String(), want)
		}
	}
	// A red in-process member: the shell member after it still runs in its
	// turn and the report is the serial one.
	os.Remove(filepath.Join(dir, "ran-sh"))
	red := []Step{{Member: compiled("check-a")}, {Member: compiled("check-red")}, {Member: sh}, {Member: compiled("check-b")}}
	var want bytes.Buffer
	serial := runner{dir: dir, stdout: &want, compiled: run, jobs: 1}
	if code := serial.serial(PreCommit, red); code != 1 {
		t.Fatalf("serial red plan: exit %d", code)
	}
	os.Remove(filepath.Join(dir, "ran-sh"))
	var got bytes.Buffer
	ahead := runner{dir: dir, stdout: &got, compiled: run, jobs: 4}
	if code := ahead.serial(PreCommit, red); code != 1 || got.String() != want.String() {
		t.Fatalf("run-ahead red plan: exit %d %q, want the serial %q", code, got.String(), want.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "ran-sh")); err != nil {
		t.Fatal("a shell member after the failure did not run")
	}
}

// pairedStarts answers a compiled-member runner under which the first two
// members started run side by side (neither finishes before both began),
// and the order members started in.
func pairedStarts() (func(CompiledRun) (int, []byte), func() []string) {
	var mu sync.Mutex
	var order []string
	two := make(chan struct{})
	run := func(cr CompiledRun) (int, []byte) {
		mu.Lock()
		order = append(order, cr.Name)
		if len(order) == 2 {
			close(two)
		}
		mu.Unlock()
		<-two
		return 0, []byte(strings.ToUpper(strings.TrimPrefix(cr.Name, "check-")) + ": clean\n")
	}
	return run, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), order...)
	}
}

// A First member starts among the first however late its plan place, and
// the report is still in plan order.
func TestFirstMembersStartAhead(t *testing.T) {
	dir := t.TempDir()
	compiled := func(name string, first bool) Member {
		return Member{Name: name, Kind: registry.Descriptor, Decl: "scripts/" + name + ".gate", Tier: registry.TierPrecommit, First: first}
	}
	run, started := pairedStarts()
	plan := []Step{{Member: compiled("check-a", false)}, {Member: compiled("check-b", false)}, {Member: compiled("check-scan", true)}}
	var out bytes.Buffer
	r := runner{dir: dir, stdout: &out, verbose: true, compiled: run, jobs: 2}
	if code := r.serial(PreCommit, plan); code != 0 {
		t.Fatalf("exit %d\n%s", code, out.String())
	}
	if order := started(); order[0] != "check-scan" && order[1] != "check-scan" {
		t.Fatalf("start order %v: the First member did not start among the first two", order)
	}
	want := "A: clean\n  PASS: check-a\nB: clean\n  PASS: check-b\nSCAN: clean\n  PASS: check-scan\npre-commit: 3 gate(s) passed.\n"
	if out.String() != want {
		t.Fatalf("report %q, want %q", out.String(), want)
	}
}

// With every member's last run time known the longest start first, and
// the report is still in plan order; each member's time is gathered.
func TestKnownCostsStartLongestFirst(t *testing.T) {
	dir := t.TempDir()
	compiled := func(name string) Member {
		return Member{Name: name, Kind: registry.Descriptor, Decl: "scripts/" + name + ".gate", Tier: registry.TierPrecommit}
	}
	run, started := pairedStarts()
	plan := []Step{{Member: compiled("check-a")}, {Member: compiled("check-b")}, {Member: compiled("check-c")}}
	var out bytes.Buffer
	r := runner{dir: dir, stdout: &out, verbose: true, compiled: run, jobs: 2,
		costs: map[string]time.Duration{"check-a": time.Millisecond, "check-b": 5 * time.Millisecond, "check-c": 3 * time.Millisecond},
		took:  &tookTimes{m: map[string]time.Duration{}}}
	if code := r.serial(PreCommit, plan); code != 0 {
		t.Fatalf("exit %d\n%s", code, out.String())
	}
	order := started()
	first := map[string]bool{order[0]: true, order[1]: true}
	if !first["check-b"] || !first["check-c"] {
		t.Fatalf("start order %v: the two longest did not start first", order)
	}
	want := "A: clean\n  PASS: check-a\nB: clean\n  PASS: check-b\nC: clean\n  PASS: check-c\npre-commit: 3 gate(s) passed.\n"
	if out.String() != want {
		t.Fatalf("report %q, want %q", out.String(), want)
	}
	if len(r.took.m) != 3 {
		t.Fatalf("times gathered for %v", r.took.m)
	}
}

func TestSameRanking(t *testing.T) {
	ms := func(kv ...any) map[string]time.Duration {
		m := map[string]time.Duration{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = time.Duration(kv[i+1].(int)) * time.Millisecond
		}
		return m
	}
	for _, c := range []struct {
		kept, took map[string]time.Duration
		same       bool
	}{
		{ms("a", 1, "b", 5), ms("a", 2, "b", 9), true},
		{ms("a", 1, "b", 5), ms("a", 6, "b", 5), false},
		{ms("a", 1), ms("a", 1, "b", 1), false},
		{nil, ms("a", 1), false},
		{ms("a", 1, "c", 1), ms("a", 1, "b", 1), false},
	} {
		if got := sameRanking(c.kept, c.took); got != c.same {
			t.Errorf("sameRanking(%v, %v) = %v", c.kept, c.took, got)
		}
	}
}
