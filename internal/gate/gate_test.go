package gate_test

import (
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

var helps = map[string]string{"a": "fix the a", "b": "fix the b"}

func TestCleanLine(t *testing.T) {
	run := gatetest.Exec(func(c *gate.Context) int {
		return c.NewReport(helps).Done("3 files read")
	}, "check-x", "/r", &gatetest.Tree{}, gatetest.Knobs{}, nil)
	if run.Code != 0 || run.Stdout != "X: clean (3 files read)\n" || run.Stderr != "" {
		t.Fatalf("%+v", run)
	}
}

func TestOneHelpPerClassInFirstAppearanceOrder(t *testing.T) {
	run := gatetest.Exec(func(c *gate.Context) int {
		r := c.NewReport(helps)
		r.Add(gate.Finding{Class: "b", Path: "x.md", Line: 2, Msg: "bad b"})
		r.Add(gate.Finding{Class: "a", Path: "y.md", Msg: "bad a"})
		r.Add(gate.Finding{Class: "b", Text: "z.md:9:verbatim"})
		return r.Done("unused")
	}, "check-x", "/r", &gatetest.Tree{}, gatetest.Knobs{}, nil)
	want := "x.md:2: bad b\ny.md: bad a\nz.md:9:verbatim\nhelp: fix the b\nhelp: fix the a\n"
	if run.Code != 1 || run.Stdout != want {
		t.Fatalf("exit %d\n%s", run.Code, run.Stdout)
	}
	if got := len(run.Ctx.Findings()); got != 3 {
		t.Fatalf("structured findings: %d", got)
	}
}

func TestRefuseIsStderrAndTwo(t *testing.T) {
	run := gatetest.Exec(func(c *gate.Context) int {
		return c.Refuse("cannot read %s", "x.list")
	}, "check-x", "/r", &gatetest.Tree{}, gatetest.Knobs{}, nil)
	if run.Code != 2 || run.Stdout != "" || run.Stderr != "check-x: cannot read x.list\n" {
		t.Fatalf("%+v", run)
	}
}

func TestUnknownClassPanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "no help line") {
			t.Fatalf("recover() = %v", r)
		}
	}()
	gatetest.Exec(func(c *gate.Context) int {
		c.NewReport(helps).Add(gate.Finding{Class: "zzz"})
		return 1
	}, "check-x", "/r", &gatetest.Tree{}, gatetest.Knobs{}, nil)
}

// The clean line's id is the gate's name without check-, upper-cased: the
// stable id consumers grep for.
func TestStableID(t *testing.T) {
	for name, want := range map[string]string{
		"check-action-pinning": "ACTION-PINNING",
		"check-tree-terms":     "TREE-TERMS",
		"check-x":              "X",
		"consumer-smoke":       "CONSUMER-SMOKE",
		"check-check-a":        "CHECK-A",
	} {
		if got := gate.ID(name); got != want {
			t.Errorf("ID(%q) = %q, want %q", name, got, want)
		}
	}
}
