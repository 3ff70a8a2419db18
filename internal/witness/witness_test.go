package witness

import (
	"bytes"
	"sort"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/glob"
)

type memTree map[string]string

func (m memTree) Files() []string {
	var out []string
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func (m memTree) Append(p string) (func() error, error) {
	old := m[p]
	m[p] = old + "witness\n"
	return func() error { m[p] = old; return nil }, nil
}

func (m memTree) Create(p string) (func() error, error) {
	m[p] = "witness\n"
	return func() error { delete(m, p); return nil }, nil
}

// toyGate is a freshness gate whose emitter concatenates the files it
// reads; it is red when the committed page differs.
type toyGate struct {
	tree  memTree
	reads []string
	runs  int
}

func (g *toyGate) emit() string {
	var b strings.Builder
	for _, r := range g.reads {
		b.WriteString(g.tree[r])
	}
	return b.String()
}

func (g *toyGate) Run(string) (int, []byte, error) {
	g.runs++
	if g.tree["page.txt"] != g.emit() {
		return 1, []byte("page.txt: stale\nhelp: regenerate\n"), nil
	}
	return 0, []byte("TOY: clean (fresh)\n"), nil
}

func trigger(patterns ...string) func(string) bool {
	return func(p string) bool {
		for _, pat := range patterns {
			if glob.Match(pat, p) {
				return true
			}
		}
		return false
	}
}

func TestWitnessRedsAReadOutsideTheTrigger(t *testing.T) {
	tree := memTree{"src/a.txt": "a\n", "extra/b.txt": "b\n", "README.md": "r\n"}
	g := &toyGate{tree: tree, reads: []string{"src/a.txt", "extra/b.txt"}}
	tree["page.txt"] = g.emit()
	rep := Witness([]Member{{Name: "check-toy", Selects: trigger("src/*", "page.txt")}}, tree, g)
	var out bytes.Buffer
	rep.Write(&out)
	if rep.Code() != 1 || !strings.Contains(out.String(), "WITNESS: FAIL check-toy edit extra/b.txt: page.txt: stale") {
		t.Fatalf("exit %d\n%s", rep.Code(), out.String())
	}
	if strings.Contains(out.String(), "README.md") && !strings.Contains(out.String(), "inert") {
		t.Fatalf("an unread file was redded:\n%s", out.String())
	}
	// The tree is restored after every perturbation.
	if tree["extra/b.txt"] != "b\n" || len(tree) != 4 {
		t.Fatalf("scratch not restored: %v", tree)
	}
	// Declaring the read clears the finding.
	rep = Witness([]Member{{Name: "check-toy", Selects: trigger("src/*", "extra/*", "page.txt")}}, tree, g)
	if rep.Code() != 0 {
		out.Reset()
		rep.Write(&out)
		t.Fatalf("a declared read still reds:\n%s", out.String())
	}
}

func TestWitnessBaselineRedIsEnvironment(t *testing.T) {
	tree := memTree{"src/a.txt": "a\n", "page.txt": "stale"}
	g := &toyGate{tree: tree, reads: []string{"src/a.txt"}}
	rep := Witness([]Member{{Name: "check-toy", Selects: trigger("src/*")}}, tree, g)
	var out bytes.Buffer
	rep.Write(&out)
	if rep.Code() != 2 || !strings.Contains(out.String(), "WITNESS: FAIL(env) check-toy is red before any perturbation") {
		t.Fatalf("exit %d\n%s", rep.Code(), out.String())
	}
}

func TestWitnessReportsInertCouplesAndCountsZeros(t *testing.T) {
	tree := memTree{"src/a.txt": "a\n", "docs/x.md": "x\n"}
	g := &toyGate{tree: tree, reads: []string{"src/a.txt"}}
	tree["page.txt"] = g.emit()
	rep := Witness([]Member{{Name: "check-toy", Selects: trigger("src/*", "docs/*", "page.txt")}}, tree, g)
	var out bytes.Buffer
	rep.Write(&out)
	if rep.Code() != 0 || !strings.Contains(out.String(), "coupled but inert: check-toy docs/x.md") || rep.Inert != 1 {
		t.Fatalf("exit %d\n%s", rep.Code(), out.String())
	}
	none := Witness(nil, memTree{}, g)
	out.Reset()
	none.Write(&out)
	if out.String() != "WITNESS: 0 projection gates, 0 classes, 0 perturbations, 0 inert couples\n" {
		t.Fatalf("%q", out.String())
	}
}
