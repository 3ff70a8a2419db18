package gate_test

import (
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
)

// assertion G: Nothing and Disarmed print the clean line Done prints and
// mark the run; a report with findings stays red and unmarked.
func TestNothingAndDisarmedMarkTheRun(t *testing.T) {
	ctx := func() (*gate.Context, *strings.Builder) {
		var out strings.Builder
		return &gate.Context{Name: "check-x", Out: &out, Err: &out}, &out
	}
	c, out := ctx()
	if code := c.NewReport(nil).Done("3 files"); code != 0 || c.CheckedNothing() || c.DisarmedBy() != "" {
		t.Fatalf("Done marked the run: %d %v %q", code, c.CheckedNothing(), c.DisarmedBy())
	}
	c, out = ctx()
	if code := c.NewReport(nil).Nothing("no input: nothing to check"); code != 0 || !c.CheckedNothing() || c.DisarmedBy() != "" || out.String() != "X: clean (no input: nothing to check)\n" {
		t.Fatalf("Nothing: %d %v %q %q", code, c.CheckedNothing(), c.DisarmedBy(), out.String())
	}
	c, out = ctx()
	if code := c.NewReport(nil).Disarmed("GATE_SDK_K", "GATE_SDK_K is empty"); code != 0 || !c.CheckedNothing() || c.DisarmedBy() != "GATE_SDK_K" || out.String() != "X: clean (GATE_SDK_K is empty)\n" {
		t.Fatalf("Disarmed: %d %v %q %q", code, c.CheckedNothing(), c.DisarmedBy(), out.String())
	}
	c, _ = ctx()
	r := c.NewReport(map[string]string{"a": "fix a"})
	r.Add(gate.Finding{Class: "a", Msg: "bad"})
	if code := r.Disarmed("GATE_SDK_K", "x"); code != 1 || c.CheckedNothing() || c.DisarmedBy() != "" {
		t.Fatalf("a red report was marked: %d %v %q", code, c.CheckedNothing(), c.DisarmedBy())
	}
}
