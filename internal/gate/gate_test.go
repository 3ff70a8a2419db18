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

// acceptText accepts, once each, the findings whose message it lists.
type acceptText map[string]int

func (a acceptText) Accept(f gate.Finding) bool {
	if a[f.Msg] > 0 {
		a[f.Msg]--
		return true
	}
	return false
}

func (acceptText) Source() string { return "scripts/gates.baseline" }

// A finding the baseline accepts is kept as data, marked, and counted on
// the clean line; it is never printed and never reds.
func TestAcceptedFindingsAreCountedOnTheCleanLine(t *testing.T) {
	for _, tc := range []struct {
		accept acceptText
		add    []string
		want   string
	}{
		{acceptText{"one": 1}, []string{"one"}, "X: clean (3 files read; 1 finding accepted by scripts/gates.baseline)\n"},
		{acceptText{"one": 1, "two": 2}, []string{"two", "one", "two"}, "X: clean (3 files read; 3 findings accepted by scripts/gates.baseline)\n"},
	} {
		run := gatetest.Exec(func(c *gate.Context) int {
			c.Accepts = tc.accept
			r := c.NewReport(helps)
			for i, msg := range tc.add {
				r.Add(gate.Finding{Class: "a", Path: "x.md", Line: i + 1, Msg: msg})
			}
			return r.Done("3 files read")
		}, "check-x", "/r", &gatetest.Tree{}, gatetest.Knobs{}, nil)
		if run.Code != 0 || run.Stdout != tc.want {
			t.Fatalf("exit %d\n%s\nwant %s", run.Code, run.Stdout, tc.want)
		}
		for _, f := range run.Ctx.Findings() {
			if !f.Accepted || f.Help != "fix the a" {
				t.Errorf("an accepted finding is not kept marked with its help: %+v", f)
			}
		}
	}
}

// A red report lists only the findings the baseline does not accept, and
// says how many it accepted.
func TestRedReportHidesOnlyAcceptedFindings(t *testing.T) {
	run := gatetest.Exec(func(c *gate.Context) int {
		c.Accepts = acceptText{"old": 2}
		r := c.NewReport(helps)
		for i := 1; i <= 3; i++ {
			r.Add(gate.Finding{Class: "a", Path: "x.md", Line: i, Msg: "old"})
		}
		r.Add(gate.Finding{Class: "b", Path: "y.md", Line: 1, Msg: "new"})
		return r.Done("unused")
	}, "check-x", "/r", &gatetest.Tree{}, gatetest.Knobs{}, nil)
	want := "x.md:3: old\ny.md:1: new\nhelp: fix the a\nhelp: fix the b\nnote: 2 findings accepted by scripts/gates.baseline, not shown\n"
	if run.Code != 1 || run.Stdout != want {
		t.Fatalf("exit %d\n%s", run.Code, run.Stdout)
	}
	if n := len(run.Ctx.Findings()); n != 4 {
		t.Fatalf("structured findings: %d, want all 4", n)
	}
}

// A note the gate records is printed whatever the verdict: a clause of the
// clean line, a note: line after the help lines of a red report.
func TestReportNoteOnBothVerdicts(t *testing.T) {
	for _, tc := range []struct {
		red  bool
		want string
	}{
		{false, "X: clean (2 files read; 1 finding accepted by scripts/gates.baseline; 3 reports on a.sh held back)\n"},
		{true, "y.md:1: new\nhelp: fix the b\nnote: 1 finding accepted by scripts/gates.baseline, not shown\nnote: 3 reports on a.sh held back\n"},
	} {
		run := gatetest.Exec(func(c *gate.Context) int {
			c.Accepts = acceptText{"old": 1}
			r := c.NewReport(helps)
			r.Note("3 reports on a.sh held back")
			r.Add(gate.Finding{Class: "a", Path: "a.sh", Line: 6, Msg: "old"})
			if tc.red {
				r.Add(gate.Finding{Class: "b", Path: "y.md", Line: 1, Msg: "new"})
			}
			return r.Done("2 files read")
		}, "check-x", "/r", &gatetest.Tree{}, gatetest.Knobs{}, nil)
		if run.Stdout != tc.want {
			t.Errorf("red=%v: exit %d\n%s\nwant\n%s", tc.red, run.Code, run.Stdout, tc.want)
		}
	}
}
