package ciskip

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// skipScoped are the test packages whose every skip is held here: the
// end-to-end tests and the benchmarks, which lean on installed programs.
var skipScoped = []string{"../e2e", "../bench"}

// TestEveryToolSkipGoesThroughMissing: in the scoped packages a test skips
// only through Missing (so CI=true fails it) or under testing.Short() (a
// filter the runner asked for); a bare t.Skip elsewhere is a skip CI
// would take with the build green.
func TestEveryToolSkipGoesThroughMissing(t *testing.T) {
	var bare []string
	fset := token.NewFileSet()
	for _, dir := range skipScoped {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, dir+"/"+e.Name(), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			bare = append(bare, bareSkips(fset, f)...)
		}
	}
	if len(bare) > 0 {
		t.Fatalf("skips that CI would take silently (use ciskip.Missing, or guard with testing.Short()):\n  %s", strings.Join(bare, "\n  "))
	}
}

// bareSkips answers the position of every Skip, Skipf or SkipNow call in
// f that no enclosing `if` conditioned on testing.Short() guards.
func bareSkips(fset *token.FileSet, f *ast.File) []string {
	var out []string
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || (sel.Sel.Name != "Skip" && sel.Sel.Name != "Skipf" && sel.Sel.Name != "SkipNow") {
			return true
		}
		for _, up := range stack {
			if ifs, ok := up.(*ast.IfStmt); ok && mentionsShort(ifs.Cond) {
				return true
			}
		}
		out = append(out, fset.Position(call.Pos()).String())
		return true
	})
	return out
}

func mentionsShort(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Short" {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "testing" {
				found = true
			}
		}
		return !found
	})
	return found
}
