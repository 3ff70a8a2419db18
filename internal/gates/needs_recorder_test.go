package gates

import (
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// fixtureRoots answers the directories holding fixture pairs: the kit's
// (authored at the top-level gate-tests/) and the publisher's
// scripts/gate-tests/. A missing one fails the test rather than shrinking
// what it covers.
func fixtureRoots(t *testing.T) []string {
	var out []string
	for _, d := range []string{"../../gate-tests", "../../scripts/gate-tests"} {
		fi, err := os.Stat(d)
		if err != nil || !fi.IsDir() {
			t.Fatalf("fixture root %s is not a directory: %v", d, err)
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, abs)
	}
	return out
}

// declaresSpawn reports whether a --needs row covers a recorded name: the
// name itself, or, for a program no static roster member names (one a
// consumer's knob named), a "?<TAB><KNOB>" line.
func declaresSpawn(needs []string, name string) bool {
	if name == "gates" {
		return true // the payload: the binary itself, never a requirement
	}
	for _, n := range needs {
		if n == name {
			return true
		}
		if _, static := spawn.ByName(name); !static && strings.HasPrefix(n, "?\t") {
			return true
		}
	}
	return false
}

// assertion J: TestObservedSpawnsAreDeclared holds every compiled gate's --needs row
// to what it starts: each member runs over each of its fixture cases with
// the spawn recorder on, and every program it started itself must be on
// its row. It is an upper bound (a row may declare a program no case
// reaches), and git started inside the core's readers (repo, walk) is
// out of its sight; git is on the program floor.
func TestObservedSpawnsAreDeclared(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range All() {
		for _, root := range fixtureRoots(t) {
			cases, _ := filepath.Glob(filepath.Join(root, d.Name, "*"))
			for _, dir := range cases {
				if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
					continue
				}
				rec := &spawn.Recorder{}
				rule := func(c *gate.Context) int { c.Spawns = rec; return protectRule(d.Rule, c) }
				env := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir()}
				gatetest.ExecScratch(rule, d.Name, dir, t.TempDir(), &gatetest.Tree{Data: map[string]string{}}, gatetest.Knobs{"GATE_SDK_PRUNE_DIRS": walk.DefaultPruneDirs}, env, caseArgs(t, dir)...)
				for _, n := range rec.Names() {
					seen[d.Name+" "+n] = true
					if !declaresSpawn(d.Needs, n) {
						t.Errorf("%s over %s started %s, which its --needs row (%q) does not declare", d.Name, filepath.Base(dir), n, d.Needs)
					}
				}
			}
		}
	}
	var got []string
	for k := range seen {
		got = append(got, k)
	}
	sort.Strings(got)
	t.Logf("observed: %v", got)
	if !seen["check-shellcheck shellcheck"] {
		t.Fatalf("check-shellcheck's fixtures started no shellcheck; the check held over nothing (observed %v)", got)
	}
}

// TestDeclaresSpawnCanFail: an undeclared static program is reported.
func TestDeclaresSpawnCanFail(t *testing.T) {
	if declaresSpawn([]string{"git"}, "shellcheck") || !declaresSpawn([]string{"?\tX_CMD"}, "yamllint") || declaresSpawn([]string{"?\tX_CMD"}, "go") {
		t.Fatal("declaresSpawn misjudges a row")
	}
}

// TestEverySpawnCarriesTheRecorder: a start the recorder cannot see is one
// no --needs row is held to, so every spawn.Cmd in the rules passes it.
func TestEverySpawnCarriesTheRecorder(t *testing.T) {
	lits := 0
	inspectRules(t, func(fset *token.FileSet, _ string, n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		sel, ok := cl.Type.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Cmd" {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "spawn" {
			return true
		}
		lits++
		has := false
		for _, e := range cl.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Recorder" {
					has = true
				}
			}
		}
		if !has {
			t.Errorf("%s: spawn.Cmd without the context's spawn recorder", fset.Position(cl.Pos()))
		}
		return true
	})
	if lits == 0 {
		t.Fatal("found no spawn.Cmd; the pin holds over nothing")
	}
}
