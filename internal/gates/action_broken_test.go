package gates

import (
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
)

// One YAML file the parser rejects never switches an Actions gate off: a
// file GitHub does not load is skipped and counted on the clean line, and
// every other file is still judged; a file GitHub loads (a workflow, the
// repository's own action, an action a workflow runs by a ./ path) is a
// finding naming the file, the line and the parser's message.
func TestOneBadFileNeverSwitchesAGateOff(t *testing.T) {
	sha := "11bd71901bbe5b1630ceea73d27597364c9af683"
	good := wf("permissions: {contents: read}\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@" + sha + "\n      - uses: ./.github/actions/setup\n      - run: echo hi\n")
	action := "runs:\n  using: composite\n  steps:\n    - run: echo hi\n      shell: bash\n"
	broken := "runs:\n  using: composite\n  steps: [\n"
	base := func(extra map[string]string) map[string]string {
		files := map[string]string{".github/workflows/ci.yml": good, ".github/actions/setup/action.yml": action}
		for k, v := range extra {
			files[k] = v
		}
		return files
	}
	cases := []struct {
		name  string
		files map[string]string
		code  int
		want  string
	}{
		{"a broken test fixture is skipped and counted", base(map[string]string{"fixtures/bad/action.yaml": broken}), gate.Clean,
			"1 unparseable YAML file skipped (GitHub loads none of them)"},
		{"a broken workflow-looking file GitHub never loads is skipped", base(map[string]string{"docs/example/.github/workflows/x.yml": "on: push\njobs:\n\ta: 1\n"}), gate.Clean,
			"1 file of a nested project's .github/ skipped (GitHub loads only the top one)"},
		{"a broken workflow-looking file elsewhere is skipped", base(map[string]string{"docs/example/workflows/x.yml": "on: push\njobs:\n\ta: 1\n"}), gate.Clean,
			"1 unparseable YAML file skipped"},
		{"a broken workflow is a finding", base(map[string]string{".github/workflows/bad.yml": "on: push\njobs:\n\ta: 1\n"}), gate.Failed,
			".github/workflows/bad.yml:3: cannot read the file as YAML: the parser says found character that cannot start any token (GitHub loads this file)"},
		{"a broken action a workflow runs is a finding", base(map[string]string{".github/actions/setup/action.yml": broken}), gate.Failed,
			".github/actions/setup/action.yml:3: cannot read the file as YAML"},
		{"the repository's own broken action is a finding", base(map[string]string{"action.yaml": broken}), gate.Failed,
			"action.yaml:3: cannot read the file as YAML"},
	}
	knobs := map[string]string{
		"GATE_SDK_JOB_REF_PATTERNS":      "deploy-[a-z]+",
		"GATE_LOCAL_STEP_ORDER_ACTION":   "actions/setup-go",
		"GATE_LOCAL_STEP_ORDER_PROGRAMS": "go",
	}
	for _, tc := range cases {
		for _, def := range actionGates() {
			if !strings.HasPrefix(def.Name, "check-action-") {
				continue
			}
			run := runAction(t, def.Rule, def.Name, tc.files, knobs, nil)
			if run.Code != tc.code || !strings.Contains(run.Stdout, tc.want) {
				t.Errorf("%s, %s: exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", tc.name, def.Name, run.Code, tc.code, tc.want, run.Stdout, run.Stderr)
			}
		}
	}
}
