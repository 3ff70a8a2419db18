package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBatteryCountsWhatCheckedNothing: on a fresh install the battery is
// green, and its green line counts and names the members that checked
// nothing (a disarmed one among them), not only how many ran.
func TestBatteryCountsWhatCheckedNothing(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.must(binPath, "init")
	r := a.battery()
	line := regexp.MustCompile(`(?m)^All [0-9]+ gates passed \(([0-9]+) checked nothing: ([^()]*)\)\.$`).FindStringSubmatch(r.stdout)
	if r.code != 0 || line == nil {
		t.Fatalf("the battery on a fresh install: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	names := strings.Split(line[2], ", ")
	if line[1] != itoa(len(names)) {
		t.Errorf("the count %s does not match the names %q", line[1], names)
	}
	for _, want := range []string{"check-portability-floor", "check-commit-msg"} {
		if !strings.Contains(", "+line[2]+", ", ", "+want+", ") {
			t.Errorf("%s checked nothing and the green line does not name it: %s", want, line[0])
		}
	}
	for _, armed := range []string{"check-tree-terms", "check-exec-bit"} {
		if strings.Contains(", "+line[2]+", ", ", "+armed+", ") {
			t.Errorf("%s checked something and is named as checking nothing: %s", armed, line[0])
		}
	}
}

// TestDoctorNamesADisarmedConsumerKnob: a member whose `# armed-by:` knob
// is a GATE_LOCAL_ knob declared on its own descriptor (the project's
// check-action-step-order) is named by doctor while the knob is empty, and
// not once the descriptor gives it a value.
func TestDoctorNamesADisarmedConsumerKnob(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.must(binPath, "init")
	desc, err := os.ReadFile(filepath.Join(moduleRoot, "scripts", "check-action-step-order.gate"))
	if err != nil {
		t.Fatal(err)
	}
	armed := "# knob: GATE_LOCAL_STEP_ORDER_ACTION = actions/checkout"
	if !strings.Contains(string(desc), armed) {
		t.Fatalf("the project's descriptor no longer arms the step order with %q:\n%s", armed, desc)
	}
	a.write("scripts/check-action-step-order.gate", strings.Replace(string(desc), armed, "# knob: GATE_LOCAL_STEP_ORDER_ACTION =", 1))
	a.write("scripts/gates.list", a.read("scripts/gates.list")+"check-action-step-order\n")
	r := a.runIn("", "bin/gates", "doctor")
	if r.code != 0 || !strings.Contains(r.stdout, "doctor: advice: check-action-step-order asserts nothing while GATE_LOCAL_STEP_ORDER_ACTION is empty") {
		t.Fatalf("doctor with the step order disarmed: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	a.write("scripts/check-action-step-order.gate", string(desc))
	r = a.runIn("", "bin/gates", "doctor")
	if r.code == 2 || strings.Contains(r.stdout, "check-action-step-order") {
		t.Fatalf("doctor with the step order armed: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
