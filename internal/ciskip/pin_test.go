package ciskip

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
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

// bareSkips answers the position of every Skip, Skipf or SkipNow in f,
// called or taken as a value, that no `if testing.Short()` guards: the
// condition exactly that call, and the skip inside its body (not its
// else, and not under a condition that only mentions Short among others).
func bareSkips(fset *token.FileSet, f *ast.File) []string {
	var out []string
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || (sel.Sel.Name != "Skip" && sel.Sel.Name != "Skipf" && sel.Sel.Name != "SkipNow") {
			return true
		}
		for i, up := range stack[:len(stack)-1] {
			if ifs, ok := up.(*ast.IfStmt); ok && isShort(ifs.Cond) && stack[i+1] == ast.Node(ifs.Body) {
				return true
			}
		}
		out = append(out, fset.Position(sel.Pos()).String())
		return true
	})
	return out
}

// isShort reports whether e is exactly testing.Short().
func isShort(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Short" {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == "testing"
}

// Issue 42 item 18: the pin reads every path a skip can take, not only a
// call spelled t.Skip under any if that mentions testing.Short().
func TestBareSkipsReadsEverySkipPath(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		bare       int
	}{
		{"plain", `t.Skip("x")`, 1},
		{"short guard", `if testing.Short() { t.Skip("x") }`, 0},
		{"else of the short guard", `if testing.Short() { } else { t.Skip("x") }`, 1},
		{"short or anything", `if testing.Short() || os.Getenv("X") != "" { t.Skip("x") }`, 1},
		{"not short", `if !testing.Short() { t.Skip("x") }`, 1},
		{"a method value", `s := t.Skipf; s("x")`, 1},
		{"SkipNow", `t.SkipNow()`, 1},
	} {
		src := "package p\nimport (\"os\"; \"testing\")\nvar _ = os.Getenv\nfunc TestX(t *testing.T) {\n" + tc.body + "\n}\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x_test.go", src, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := bareSkips(fset, f); len(got) != tc.bare {
			t.Errorf("%s: %d bare skips %v, want %d", tc.name, len(got), got, tc.bare)
		}
	}
}

// Issue 42 item 18: a skip helper outside the scoped test files (a
// non-test file of a scoped package, or any other package a test can
// call) is a skip path too: only ciskip itself may call Skip.
func TestNoSkipHelperOutsideCiskip(t *testing.T) {
	var bare []string
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || filepath.Dir(p) == filepath.Join("..", "ciskip") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		// Only a file importing testing can hold a *testing.T to skip
		// (a struct field named Skip elsewhere is no skip).
		for _, im := range f.Imports {
			if im.Path.Value == `"testing"` {
				bare = append(bare, bareSkips(fset, f)...)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bare) > 0 {
		t.Fatalf("skip helpers outside ciskip, which the pin cannot follow into their callers:\n  %s", strings.Join(bare, "\n  "))
	}
}
