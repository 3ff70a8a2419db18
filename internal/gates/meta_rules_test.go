package gates

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// The two empty corpora differ: descriptors only is a finished port
// (clean, counted); neither spelling resolved no gates dir (exit 2).
func TestFailClosedEmptyCorpora(t *testing.T) {
	ported := t.TempDir()
	writeFiles(t, ported, map[string]string{"scripts/check-x.gate": "# graph: couples=*.md dir=one valve=none tier=precommit\n"})
	run := gatetest.Exec(checkGateFailClosed, "check-gate-fail-closed", ported, &gatetest.Tree{}, gatetest.Knobs{}, nil)
	if run.Code != 0 || !strings.Contains(run.Stdout, "GATE-FAIL-CLOSED: clean (0 check-*.sh files beside 1 check-*.gate descriptor") {
		t.Fatalf("descriptors only: %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	empty := t.TempDir()
	run = gatetest.Exec(checkGateFailClosed, "check-gate-fail-closed", empty, &gatetest.Tree{}, gatetest.Knobs{}, nil)
	if run.Code != 2 || !strings.Contains(run.Stderr, "no check-*.sh and no check-*.gate in scripts") {
		t.Fatalf("neither: %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

func TestFailClosedCases(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		code       int
	}{
		{"unguarded", "x=$(awk '{print}' f)\n", 1},
		{"group-guard", "x=$(awk '{print}' f) || { exit 2; }\n", 0},
		{"status-capture", "x=$(jq . f)\nrc=$?\n", 0},
		{"status-capture-same-line", "x=$(jq . f); rc=$?\n", 0},
		{"fail-closed-direct", "x=$(jq . f)\nfail_closed \"$?\" g jq\n", 0},
		{"grep-ignored", "x=$(grep y f)\n", 0},
		{"exempt", "# fail-closed-exempt: a field selector on present input\nx=$(awk '{print $1}' f)\n", 0},
		{"exempt-not-adjacent", "# fail-closed-exempt: a reason\n\nx=$(awk '{print $1}' f)\n", 1},
		{"or-true-is-no-guard", "x=$(awk 1 f) || true\n", 1},
		{"if-condition", "if x=$(awk 1 f); then :; fi\n", 0},
		{"local-declared", "f() { local x=$(awk 1 f); }\n", 1},
		{"nested-in-sub", "y=$(x=$(jq . f); echo \"$x\")\n", 1},
		{"in-quotes-no-capture", "echo \"x=$(awk 1 f)\"\n", 0},
		{"herestring", "x=$(awk 1 <<< \"$d\")\n", 0},
		{"backtick", "x=`awk 1 f`\n", 1},
		{"mawk-spelling", "x=$(mawk 1 f)\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"scripts/check-t.sh": tc.body})
			run := gatetest.Exec(checkGateFailClosed, "check-gate-fail-closed", dir, &gatetest.Tree{}, gatetest.Knobs{}, nil)
			if run.Code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", run.Code, tc.code, run.Stdout, run.Stderr)
			}
		})
	}
}

func TestFailClosedRefusesUnlexableScript(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"scripts/check-t.sh": "x=$(awk '{print}\n"})
	run := gatetest.Exec(checkGateFailClosed, "check-gate-fail-closed", dir, &gatetest.Tree{}, gatetest.Knobs{}, nil)
	if run.Code != 2 || !strings.Contains(run.Stderr, "scripts/check-t.sh:1:") {
		t.Fatalf("exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

// The acceptance examples, each under set -euo pipefail unless noted.
func TestPipeMembershipExamples(t *testing.T) {
	for _, tc := range []struct {
		body string
		code int
	}{
		{`printf '%s\n' "${a[@]}" | grep -qxF "$x"`, 1},
		{`for e in "${a[@]}"; do echo "$e"; done | head -n1`, 1},
		{`echo "${a[*]}" | grep -m1 x`, 1},
		{`echo "${#a[@]}" | grep -q 3`, 0},
		{`printf '%s\n' "${a[@]}" | sort`, 0},
		{`grep -q 'a|b' f`, 0},
		{`printf '%s\n' "${a[@]}" | grep -c x`, 0},
		{`printf '%s\n' "${a[@]}" \` + "\n" + `  | grep -q x`, 1},
		{`printf '%s\n' "${a[@]}" |` + "\n" + `  grep --quiet x`, 1},
		{`r=$(printf '%s\n' "${a[@]}" | head -1)`, 1},
		{`echo "printf ${a[@]} | grep -q x"`, 0},
		{`# printf '%s\n' "${a[@]}" | grep -q x`, 0},
		{`printf '%s\n' "${a[@]}" | tee f | grep -q x`, 1},
	} {
		for _, pf := range []bool{true, false} {
			body := tc.body + "\n"
			want := tc.code
			if pf {
				body = "set -euo pipefail\n" + body
			} else {
				want = 0
			}
			tree := &gatetest.Tree{Data: map[string]string{"scripts/g.sh": body}}
			knobs := gatetest.Knobs{"GATE_SDK_TESTS_DIR": "scripts/gate-tests", "GATE_SDK_PRUNE_DIRS": "gate-tests"}
			run := gatetest.Exec(checkPipeMembership, "check-pipe-membership", t.TempDir(), tree, knobs, nil)
			if run.Code != want {
				t.Errorf("pipefail=%v %q: exit %d, want %d\n%s%s", pf, tc.body, run.Code, want, run.Stdout, run.Stderr)
			}
		}
	}
}

// Equivalent spellings of pipefail get the same verdict.
func TestPipefailSpellings(t *testing.T) {
	for _, set := range []string{"set -o pipefail", "set -euo pipefail", "set -e -o pipefail", "set -o errexit -o pipefail", "set -Eeuo pipefail"} {
		tree := &gatetest.Tree{Data: map[string]string{"g.sh": set + "\nprintf '%s\\n' \"${a[@]}\" | grep -q x\n"}}
		run := gatetest.Exec(checkPipeMembership, "check-pipe-membership", t.TempDir(), tree, gatetest.Knobs{}, nil)
		if run.Code != 1 {
			t.Errorf("%q: exit %d, want 1\n%s", set, run.Code, run.Stdout)
		}
	}
	tree := &gatetest.Tree{Data: map[string]string{"g.sh": "set +o pipefail\nprintf '%s\\n' \"${a[@]}\" | grep -q x\n"}}
	if run := gatetest.Exec(checkPipeMembership, "check-pipe-membership", t.TempDir(), tree, gatetest.Knobs{}, nil); run.Code != 0 {
		t.Errorf("set +o pipefail turns it off: exit %d", run.Code)
	}
}

func TestFrontEndFailOpenPostures(t *testing.T) {
	ps := "$FailOpenArms = @('--hook', '--statusline')\nif ($FailOpenArms -ccontains $First) { exit 0 }\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		code  int
		text  string
	}{
		{"ps1-absent-is-noted", map[string]string{"k/bin/run-gates.sh": "FAIL_OPEN_ARMS='--hook --statusline'\n"}, 0, "absent, not held: k/bin/run-gates.ps1"},
		{"both-absent-refuses", map[string]string{"k/README": "x\n"}, 2, "no front-end stub under k"},
		{"two-sh-declarations", map[string]string{"k/bin/run-gates.sh": "FAIL_OPEN_ARMS='--hook --statusline'\nFAIL_OPEN_ARMS='--hook --statusline'\n"}, 2, "want one FAIL_OPEN_ARMS= declaration line, found 2"},
		{"no-sh-declaration", map[string]string{"k/bin/run-gates.sh": "for a in $FAIL_OPEN_ARMS; do :; done\n"}, 2, "found 0"},
		{"sh-unquoted", map[string]string{"k/bin/run-gates.sh": "FAIL_OPEN_ARMS=--hook\n"}, 2, "k/bin/run-gates.sh:1: cannot read FAIL_OPEN_ARMS=--hook"},
		{"sh-commented-is-none", map[string]string{"k/bin/run-gates.sh": "# FAIL_OPEN_ARMS='--x'\nFAIL_OPEN_ARMS='--hook --statusline'\n"}, 0, "named exactly by k/bin/run-gates.sh"},
		{"ps-unparseable", map[string]string{"k/bin/run-gates.sh": "FAIL_OPEN_ARMS='--hook --statusline'\n", "k/bin/run-gates.ps1": "$FailOpenArms = '--hook'\n"}, 2, "k/bin/run-gates.ps1:1: cannot read"},
		{"ps-membership-is-none", map[string]string{"k/bin/run-gates.sh": "FAIL_OPEN_ARMS='--hook --statusline'\n", "k/bin/run-gates.ps1": ps}, 0, "k/bin/run-gates.sh and k/bin/run-gates.ps1"},
		{"order-free", map[string]string{"k/bin/run-gates.sh": "FAIL_OPEN_ARMS='  --statusline  --hook '\n", "k/bin/run-gates.ps1": "$FailOpenArms=@( '--statusline','--hook' )\n"}, 0, "clean"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			run := gatetest.Exec(checkFrontEndFailOpen, "check-front-end-fail-open", dir, &gatetest.Tree{}, gatetest.Knobs{}, nil, "k")
			if run.Code != tc.code || !strings.Contains(run.Stdout+run.Stderr, tc.text) {
				t.Fatalf("exit %d, want %d with %q\n%s%s", run.Code, tc.code, tc.text, run.Stdout, run.Stderr)
			}
		})
	}
}

func TestShellcheckPostures(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"scripts/check-a.sh": "#!/usr/bin/env bash\ncd /tmp\n",
		"scripts/check-b.sh": "#!/usr/bin/env bash\necho ok\n",
		"empty/README":       "x\n",
	})
	noPath := map[string]string{"PATH": t.TempDir()}
	run := gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, noPath)
	if run.Code != 2 || !strings.Contains(run.Stderr, "shellcheck is not on PATH, and this gate is a wrapper around it") {
		t.Fatalf("absent shellcheck: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	// The probe comes before the corpus: an empty one still names the program.
	run = gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, noPath, "empty")
	if run.Code != 2 || !strings.Contains(run.Stderr, "shellcheck is not on PATH") {
		t.Fatalf("absent shellcheck, empty corpus: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	env := map[string]string{"PATH": os.Getenv("PATH")}
	run = gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, env, "empty")
	if run.Code != 2 || !strings.Contains(run.Stderr, "no *.sh to lint") {
		t.Fatalf("empty corpus: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	run = gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, env, "scripts/check-b.sh")
	if run.Code != 0 || !strings.Contains(run.Stdout, "SHELLCHECK: clean (1 shell file pass") {
		t.Fatalf("one operand: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	run = gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, env)
	if run.Code != 1 || !strings.Contains(run.Stdout, "scripts/check-a.sh:2: warning:") || strings.Contains(run.Stdout, "check-b.sh") {
		t.Fatalf("default corpus: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	run = gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{"GATE_SDK_LINT_EXTRA_DIRS": "nope"}, env)
	if run.Code != 2 || !strings.Contains(run.Stderr, "GATE_SDK_LINT_EXTRA_DIRS names nope") {
		t.Fatalf("bad extra dir: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

func TestTestHermeticModes(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"t/ok.test.sh":        ". \"$R/lib/test-hermetic.sh\"\n",
		"t/commented.test.sh": "# . lib/test-hermetic.sh\n",
		"s/smoke.sh":          "A_CRED_FILE=x\n\"$SMOKE_KIT_ROOT/bin/t\"\n",
		"s/nocred.sh":         "\"$SMOKE_KIT_ROOT/bin/t\"\n",
		"bad/x.test.sh":       "echo 'open\n",
	})
	run := gatetest.Exec(checkTestHermetic, "check-test-hermetic", dir, &gatetest.Tree{}, gatetest.Knobs{}, nil, "t")
	if run.Code != 1 || !strings.Contains(run.Stdout, "t/commented.test.sh: neither sources") || strings.Contains(run.Stdout, "t/ok.test.sh") {
		t.Fatalf("dirs mode: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	run = gatetest.Exec(checkTestHermetic, "check-test-hermetic", dir, &gatetest.Tree{}, gatetest.Knobs{}, nil, "--smoke", "s")
	if run.Code != 1 || !strings.Contains(run.Stdout, "s/smoke.sh:2:") || strings.Contains(run.Stdout, "nocred") {
		t.Fatalf("smoke mode: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	run = gatetest.Exec(checkTestHermetic, "check-test-hermetic", dir, &gatetest.Tree{}, gatetest.Knobs{}, nil, "nope")
	if run.Code != 2 || !strings.Contains(run.Stderr, "cannot list nope") {
		t.Fatalf("missing dir: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	run = gatetest.Exec(checkTestHermetic, "check-test-hermetic", dir, &gatetest.Tree{}, gatetest.Knobs{}, nil, "bad")
	if run.Code != 2 || !strings.Contains(run.Stderr, "bad/x.test.sh:1:6: cannot read this shell") {
		t.Fatalf("unlexable: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	run = gatetest.Exec(checkTestHermetic, "check-test-hermetic", dir, &gatetest.Tree{}, gatetest.Knobs{}, nil)
	if run.Code != 2 || !strings.Contains(run.Stderr, "no kit root resolved") {
		t.Fatalf("no kit roots: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

func TestStripGoComments(t *testing.T) {
	for in, want := range map[string]string{
		"a // r.Done(\nb":            "a \nb",
		"a /* r.Done( */ b":          "a  b",
		`x := "// not a comment"`:    `x := "// not a comment"`,
		"x := '\"'; r.Done(1) // c":  "x := '\"'; r.Done(1) \n",
		"x := '\\''; /* c */ y":      "x := '\\'';  y",
		"s := `raw // kept` // gone": "s := `raw // kept` \n",
	} {
		if got := stripGoComments(in); got != want {
			t.Errorf("stripGoComments(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInstallDispositionReading(t *testing.T) {
	for in, want := range map[string]string{
		"see §check-a and §check-b.":          "see  and .",
		"§The install disposition, check-c":   " install disposition, check-c",
		"§check-foo.bar's rule; check-d here": " rule; check-d here",
	} {
		if got := stripCitations(in); got != want {
			t.Errorf("stripCitations(%q) = %q, want %q", in, got, want)
		}
	}
	for _, tc := range []struct {
		line, name string
		want       bool
	}{{`"check-a"`, "check-a", true}, {"check-ab", "check-a", false}, {"x-check-a", "check-a", false}, {"check-a.gate", "check-a", true}} {
		if got := containsName(tc.line, tc.name); got != tc.want {
			t.Errorf("containsName(%q, %q) = %v", tc.line, tc.name, got)
		}
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"k/checks/check-v.gate": "# graph: couples=*.md dir=one valve=none tier=precommit\n# install:\n"})
	run := gatetest.Exec(checkInstallDisposition, "check-install-disposition", dir, &gatetest.Tree{}, gatetest.Knobs{}, nil)
	if run.Code != 2 || !strings.Contains(run.Stderr, "no kit root resolved") {
		t.Fatalf("no kit roots: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	run = execWithKits(checkInstallDisposition, "check-install-disposition", dir, &gatetest.Tree{}, gatetest.Knobs{"GATE_SDK_NATIVE_SRC": "internal"}, []string{"k"}, nil)
	if run.Code != 1 || !strings.Contains(run.Stdout, `# install: "" is not a disposition`) {
		t.Fatalf("valueless install: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	empty := t.TempDir()
	writeFiles(t, empty, map[string]string{"k/README": "x\n"})
	run = execWithKits(checkInstallDisposition, "check-install-disposition", empty, &gatetest.Tree{}, gatetest.Knobs{}, []string{"k"}, nil)
	if run.Code != 2 || !strings.Contains(run.Stderr, "enumerate no check-*.sh or check-*.gate") {
		t.Fatalf("no gates: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

// noRepo is a tree outside any repository: its listing refuses.
type noRepo struct{ *gatetest.Tree }

func (noRepo) Files() ([]string, error) { return nil, errors.New("not inside a git repository") }

func TestExemptionTasksPostures(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"q.md":               "## Technical Debt\n### alive\n## Done\n### gone\n",
		"scripts/check-a.sh": "# port-until: gone\n",
		"other/check-b.sh":   "# port-until: alive\n",
	})
	knobs := gatetest.Knobs{"GATE_SDK_QUEUE_FILE": "q.md"}
	// No repository: the tree half is empty, the declaration half asserts.
	run := gatetest.Exec(checkGateExemptionTasks, "check-gate-exemption-tasks", dir, noRepo{&gatetest.Tree{}}, knobs, nil)
	if run.Code != 1 || !strings.Contains(run.Stdout, "scripts/check-a.sh:1: # port-until: gone names no live task in q.md") {
		t.Fatalf("no repository: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	// Operands: a queue and the dirs to read.
	run = gatetest.Exec(checkGateExemptionTasks, "check-gate-exemption-tasks", dir, noRepo{&gatetest.Tree{}}, gatetest.Knobs{}, nil, "q.md", "other")
	if run.Code != 0 || !strings.Contains(run.Stdout, "1 annotated file out of scope") {
		t.Fatalf("operands: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	// An unreadable queue refuses, with nothing half-reported.
	run = gatetest.Exec(checkGateExemptionTasks, "check-gate-exemption-tasks", dir, noRepo{&gatetest.Tree{}}, gatetest.Knobs{"GATE_SDK_QUEUE_FILE": "nope.md"}, nil)
	if run.Code != 2 || run.Stdout != "" || !strings.Contains(run.Stderr, "cannot read the queue nope.md") {
		t.Fatalf("unreadable queue: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	// A queue whose live span never opens has no live slug.
	writeFiles(t, dir, map[string]string{"q2.md": "## Done\n### alive\n"})
	run = gatetest.Exec(checkGateExemptionTasks, "check-gate-exemption-tasks", dir, noRepo{&gatetest.Tree{}}, gatetest.Knobs{"GATE_SDK_QUEUE_FILE": "q2.md"}, nil, "q2.md", "other")
	if run.Code != 0 {
		t.Fatalf("out of scope only: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

func TestExitContract(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"k/bin/a.sh": "#!/usr/bin/env bash\n# usage: a.sh\n#   exit: 0 OK, 1 PAUSE, 2 STALE RESET-OK\n# exit: 3 WAIT, 4 WAIT, X 5\necho\n# exit: 6 BELOW-THE-HEADER\n",
	})
	c := &gate.Context{Dir: dir}
	got, err := exitContract(c, "k/bin/a.sh")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"PAUSE": 1, "STALE": 2, "RESET-OK": 2}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("exitContract = %v, want %v", got, want)
	}
	run := gatetest.Exec(checkAssertionStrength, "check-assertion-strength", dir, &gatetest.Tree{}, gatetest.Knobs{"GATE_SDK_ASSERTION_STRENGTH_WINDOW": "x"}, nil, "k/bin")
	if run.Code != 2 || !strings.Contains(run.Stderr, "not a count of lines") {
		t.Fatalf("bad window: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	run = gatetest.Exec(checkAssertionStrength, "check-assertion-strength", dir, &gatetest.Tree{}, gatetest.Knobs{}, nil)
	if run.Code != 2 || !strings.Contains(run.Stderr, "nothing to read") {
		t.Fatalf("no dirs: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	for _, tc := range []struct {
		text string
		code int
		want bool
	}{{`[ "$rc" -eq 1 ]`, 1, true}, {`(( rc == 2 ))`, 2, true}, {"case $rc in\n  1) ok ;;\nesac", 1, true}, {`[ "$rc" -eq 10 ]`, 1, false}, {`echo 1`, 1, false}} {
		if got := comparesCode(tc.text, tc.code); got != tc.want {
			t.Errorf("comparesCode(%q, %d) = %v", tc.text, tc.code, got)
		}
	}
}

func TestPathDialectRefusesOutsideARepository(t *testing.T) {
	run := gatetest.Exec(checkPathDialect, "check-path-dialect", t.TempDir(), noRepo{&gatetest.Tree{}}, gatetest.Knobs{"GATE_SDK_PATH_CROSSER": "internal/walk"}, nil)
	if run.Code != 2 || !strings.Contains(run.Stderr, "not inside a git repository") {
		t.Fatalf("exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	run = gatetest.Exec(checkPipeMembership, "check-pipe-membership", t.TempDir(), noRepo{&gatetest.Tree{}}, gatetest.Knobs{}, nil)
	if run.Code != 2 || !strings.Contains(run.Stderr, "not inside a git repository") {
		t.Fatalf("pipe-membership: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

func TestPathDialectShellReading(t *testing.T) {
	for _, tc := range []struct {
		body string
		code int
	}{
		{`cd "$(git rev-parse --show-toplevel)"`, 0},
		{`cd $(git rev-parse --show-toplevel)`, 0},
		{"t=`git rev-parse --show-toplevel`", 1},
		{`t="$(git rev-parse --show-toplevel 2>/dev/null)"`, 1},
		{`t="$(git rev-parse --show-toplevel &>/dev/null)"`, 0},
		{`t="$(git rev-parse --show-toplevel 1>/dev/null; git rev-parse --git-dir)"`, 1},
		{`echo "$(git rev-parse --show-toplevel)"` + " # spec: gate-sdk/SPEC.md §The path-dialect contract — printed for the user only", 0},
		{`echo 'x=$(git rev-parse --show-toplevel)'`, 0},
		{`cd "$(git rev-parse --show-toplevel)/sub"`, 1},
		{`[[ $p = /* ]]`, 1},
		{`[[ $p == /*/sub ]]`, 0},
		{`[[ "$p" == '/*' ]]`, 0},
	} {
		tree := &gatetest.Tree{Data: map[string]string{"a.sh": tc.body + "\n"}}
		run := gatetest.Exec(checkPathDialect, "check-path-dialect", t.TempDir(), tree, gatetest.Knobs{"GATE_SDK_NATIVE_SRC": "internal", "GATE_SDK_PATH_CROSSER": "internal/walk"}, nil)
		if run.Code != tc.code {
			t.Errorf("%q: exit %d, want %d\n%s%s", tc.body, run.Code, tc.code, run.Stdout, run.Stderr)
		}
	}
}

// A consumer names no crosser: its ordinary filepath.Abs passes, and the
// clean line says the rule is dormant; naming one arms it.
func TestPathDialectDormantUntilACrosserIsNamed(t *testing.T) {
	tree := &gatetest.Tree{Data: map[string]string{"internal/util/util.go": "package util\n\nimport \"path/filepath\"\n\nfunc Abs(p string) (string, error) { return filepath.Abs(p) }\n"}}
	run := gatetest.Exec(checkPathDialect, "check-path-dialect", t.TempDir(), tree, gatetest.Knobs{"GATE_SDK_NATIVE_SRC": "internal"}, nil)
	if run.Code != 0 || !strings.Contains(run.Stdout, "dormant: GATE_SDK_PATH_CROSSER") {
		t.Fatalf("no crosser named: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	run = gatetest.Exec(checkPathDialect, "check-path-dialect", t.TempDir(), tree, gatetest.Knobs{"GATE_SDK_NATIVE_SRC": "internal", "GATE_SDK_PATH_CROSSER": "internal/paths"}, nil)
	if run.Code != 1 || !strings.Contains(run.Stdout, "filepath.Abs outside internal/paths") {
		t.Fatalf("crosser named: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

// Issue 42 item 16: the queue's live span as the original reads it: a bold
// bullet with any run of blanks after its dash is an entry, and a live
// section placed after ## Done opens the span again.
func TestExemptionQueueGrammar(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"q.md": "## Technical Debt\n" +
		"- **one-space** x\n-  **two-spaces** x\n-\t**a-tab** x\n" +
		"## Done\n- **done-task**\n### done-heading\n## Notes\n- **after-done-notes**\n" +
		"## Deferred\n- **deferred-late**\n### deferred-heading\n## Lessons Learned\n- **lesson**\n"})
	got, err := liveSlugs(&gate.Context{Dir: dir}, "q.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"one-space", "two-spaces", "a-tab", "deferred-late", "deferred-heading"} {
		if !got[s] {
			t.Errorf("%s is not read as live; live = %v", s, got)
		}
	}
	for _, s := range []string{"done-task", "done-heading", "after-done-notes", "lesson"} {
		if got[s] {
			t.Errorf("%s is read as live; live = %v", s, got)
		}
	}
}

// Issue 42 item 18: a run that found no truthiness guard in reach judged
// nothing, and says so as data (the battery counts it among the members
// that checked nothing), however many scripts it read.
func TestAssertionStrengthWithNoGuardCheckedNothing(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"k/bin/a.sh": "#!/usr/bin/env bash\necho hello\n"})
	run := gatetest.Exec(checkAssertionStrength, "check-assertion-strength", dir, &gatetest.Tree{}, gatetest.Knobs{}, nil, "k/bin")
	if run.Code != 0 || !strings.Contains(run.Stdout, "0 truthiness guards") {
		t.Fatalf("exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	if !run.Ctx.CheckedNothing() {
		t.Errorf("a clean run over 0 truthiness guards did not mark itself as having checked nothing:\n%s", run.Stdout)
	}
}
