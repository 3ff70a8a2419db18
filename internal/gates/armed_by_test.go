package gates

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestDisarmedKnobsAreDeclaredArmedBy: every knob a rule reports as
// disarming it (Report.Disarmed) is the `# armed-by:` knob of a descriptor
// this repository ships, and every plain `# armed-by:` knob is one a rule
// reports, so `gates doctor`, which reads only the descriptors, names every
// member that runs disarmed (check-action-step-order once had no line).
func TestDisarmedKnobsAreDeclaredArmedBy(t *testing.T) {
	reported := disarmedKnobs(t)
	if len(reported) == 0 {
		t.Fatal("no rule calls Report.Disarmed: the scan read nothing")
	}
	declared := map[string]string{}
	for _, glob := range []string{"../../kits/*/checks/*.gate", "../../scripts/*.gate"} {
		paths, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(string(data), "\n") {
				v, ok := strings.CutPrefix(line, "# armed-by:")
				if !ok {
					continue
				}
				if f := strings.Fields(v); len(f) == 1 {
					declared[f[0]] = p
				}
			}
		}
	}
	for k, at := range reported {
		if declared[k] == "" {
			t.Errorf("%s reports itself disarmed by %s, and no descriptor's # armed-by: names it, so doctor cannot", at, k)
		}
	}
	for k, p := range declared {
		if reported[k] == "" {
			t.Errorf("%s declares # armed-by: %s, and no rule reports Disarmed(%s, ...), so the battery cannot count it", p, k, k)
		}
	}
}

// disarmedKnobs answers each knob the package's rules pass to Disarmed,
// with where: a string literal or a package-level string constant.
func disarmedKnobs(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	consts := map[string]string{}
	var files []*ast.File
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if i < len(vs.Values) {
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							consts[id.Name], _ = strconv.Unquote(lit.Value)
						}
					}
				}
			}
		}
	}
	out := map[string]string{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 2 {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Disarmed" {
				return true
			}
			at := fset.Position(call.Pos()).String()
			switch a := call.Args[0].(type) {
			case *ast.BasicLit:
				k, _ := strconv.Unquote(a.Value)
				out[k] = at
			case *ast.Ident:
				if k, ok := consts[a.Name]; ok {
					out[k] = at
				} else {
					t.Errorf("%s: Disarmed's knob %s is no package-level string constant", at, a.Name)
				}
			default:
				t.Errorf("%s: Disarmed's knob is neither a literal nor a constant", at)
			}
			return true
		})
	}
	return out
}
