package gates

import (
	"os"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// TestGatesWorkflowGreen holds the shipped CI template and this
// repository's filled copy to all seven action rules: a consumer copying
// the template must start green.
func TestGatesWorkflowGreen(t *testing.T) {
	tree := &gatetest.Tree{Data: map[string]string{}, Modes: map[string]uint32{}}
	for _, p := range []string{
		"templates/gates-workflow.yml",
		".github/workflows/gates.yml",
		"kits/gate-sdk/bin/run-gates.sh",
		"kits/gate-sdk/bin/run-fixture-suites.sh",
		"kits/gate-sdk/lib/gate.sh",
	} {
		data, err := os.ReadFile("../../" + p)
		if err != nil {
			t.Fatal(err)
		}
		tree.Data[p] = string(data)
		if strings.HasSuffix(p, ".sh") {
			tree.Modes[p] = 0o100755
		}
	}
	knobs := actionKnobs(map[string]string{
		"GATE_SDK_JOB_REF_PATTERNS":      "gates",
		"GATE_LOCAL_STEP_ORDER_ACTION":   "actions/setup-go",
		"GATE_LOCAL_STEP_ORDER_PROGRAMS": "go\tgofmt",
	})
	env := map[string]string{"PATH": os.Getenv("PATH")}
	for _, def := range actionGates() {
		dir := t.TempDir()
		writeFiles(t, dir, tree.Data)
		run := gatetest.ExecScratch(def.Rule, def.Name, dir, t.TempDir(), tree, knobs, env)
		if run.Code != gate.Clean {
			t.Errorf("%s: exit %d\n%s%s", def.Name, run.Code, run.Stdout, run.Stderr)
			continue
		}
		t.Logf("%s", strings.TrimSpace(run.Stdout))
	}
}
