package gates

import (
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
)

// A workflow-shaped file under a testdata/ directory that GitHub does not
// load is a test input of the project (a linter's deliberately wrong
// workflow, say): every Actions gate skips it and counts it on the clean
// line. One GitHub does load (an action a workflow runs by a ./ path) is
// judged as before, and a scan root inside testdata/ judges what it names.
func TestTestdataInputsAreSkippedAndCounted(t *testing.T) {
	sha := "11bd71901bbe5b1630ceea73d27597364c9af683"
	good := wf("permissions: {contents: read}\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@" + sha + "\n      - uses: ./testdata/kit\n      - run: echo hi\n        shell: bash\n")
	kit := "runs:\n  using: composite\n  steps:\n    - run: echo hi\n      shell: bash\n"
	// A checker's sample of mistakes: a tag-pinned action, a run: with no
	// shell: on a matrix of Windows and Linux, no permissions: block.
	sample := wf("jobs:\n  s:\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]\n    runs-on: ${{ matrix.os }}\n    steps:\n      - uses: actions/checkout@v4\n      - run: |\n          make one\n          make two\n")
	files := map[string]string{
		".github/workflows/ci.yml":          good,
		"testdata/kit/action.yml":           kit,
		"testdata/mistakes/tag-pinned.yaml": sample,
		"internal/lint/testdata/bad/wf.yml": sample,
		"testdata/broken/action.yaml":       "runs:\n  using: composite\n  steps: [\n",
		"examples/testdata-notes/keep.yml":  "key: value\n",
	}
	knobs := map[string]string{
		"GATE_SDK_JOB_REF_PATTERNS":      "deploy-[a-z]+",
		"GATE_LOCAL_STEP_ORDER_ACTION":   "actions/setup-go",
		"GATE_LOCAL_STEP_ORDER_PROGRAMS": "go",
	}
	for _, def := range actionGates() {
		if !strings.HasPrefix(def.Name, "check-action-") {
			continue
		}
		run := runAction(t, def.Rule, def.Name, files, knobs, nil)
		want := "3 test inputs under testdata/ skipped (GitHub loads none of them)"
		if run.Code != gate.Clean || !strings.Contains(run.Stdout, want) {
			t.Errorf("%s: exit %d, want clean with %q\nstdout:\n%s\nstderr:\n%s", def.Name, run.Code, want, run.Stdout, run.Stderr)
		}
	}
	// A tree whose only YAML is test inputs still says what it skipped.
	only := map[string]string{"testdata/mistakes/tag-pinned.yaml": sample}
	for _, def := range actionGates() {
		if !strings.HasPrefix(def.Name, "check-action-") {
			continue
		}
		run := runAction(t, def.Rule, def.Name, only, knobs, nil)
		want := "1 test input under testdata/ skipped (GitHub loads none of them)"
		if run.Code != gate.Clean || !strings.Contains(run.Stdout, want) {
			t.Errorf("%s, test inputs only: exit %d, want clean with %q\nstdout:\n%s\nstderr:\n%s", def.Name, run.Code, want, run.Stdout, run.Stderr)
		}
	}
	// A scan root the user names inside testdata/ is judged: the user asked
	// for those files.
	var pin gate.Rule
	for _, def := range actionGates() {
		if def.Name == "check-action-pinning" {
			pin = def.Rule
		}
	}
	run := runAction(t, pin, "check-action-pinning", files, knobs, nil, "testdata/mistakes")
	if run.Code != gate.Failed || !strings.Contains(run.Stdout, "testdata/mistakes/tag-pinned.yaml:") {
		t.Errorf("scan root testdata/mistakes: exit %d, want the tag-pinned finding\nstdout:\n%s\nstderr:\n%s", run.Code, run.Stdout, run.Stderr)
	}
}
