package gates

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// listingReach answers, per function or method name declared in this
// package's non-test source, whether its body (closures included) reaches
// a read of the tracked listing or of modes: a Tree.Files or Tree.Mode
// call, or a directory-reading file system handed to another package
// (dirFS, runFS), directly or through any function of this package it
// calls. A call is matched by name alone, so a method shares the answer of
// every same-named function: the reach over-approximates, never under.
func listingReach(t *testing.T) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]map[string]bool{}
	direct := map[string]bool{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			name := fd.Name.Name
			if calls[name] == nil {
				calls[name] = map[string]bool{}
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.SelectorExpr:
					if inner, ok := x.X.(*ast.SelectorExpr); ok && inner.Sel.Name == "Tree" && (x.Sel.Name == "Files" || x.Sel.Name == "Mode") {
						direct[name] = true
					}
					calls[name][x.Sel.Name] = true
				case *ast.CompositeLit:
					if id, ok := x.Type.(*ast.Ident); ok && (id.Name == "dirFS" || id.Name == "runFS") {
						direct[name] = true
					}
				case *ast.Ident:
					calls[name][x.Name] = true
				}
				return true
			})
		}
	}
	reach := map[string]bool{}
	for n := range direct {
		reach[n] = true
	}
	for changed := true; changed; {
		changed = false
		for fn, callees := range calls {
			if reach[fn] {
				continue
			}
			for c := range callees {
				if reach[c] {
					reach[fn] = true
					changed = true
					break
				}
			}
		}
	}
	return reach
}

// TestListingDeclarationsMatchSource: a compiled rule declares Listing
// exactly when its source reaches a listing or mode read (or it declares a
// walk), so the pre-commit hook's shape selection is derived from what
// each rule reads and cannot drift from it.
func TestListingDeclarationsMatchSource(t *testing.T) {
	reach := listingReach(t)
	var missing, extra []string
	for _, d := range All() {
		full := runtime.FuncForPC(reflect.ValueOf(d.Rule).Pointer()).Name()
		// A closure is judged by the function whose body holds it.
		segs := strings.Split(full, ".")
		for len(segs) > 1 && strings.HasPrefix(segs[len(segs)-1], "func") {
			segs = segs[:len(segs)-1]
		}
		fn := segs[len(segs)-1]
		if _, ok := reach[fn]; !ok && strings.Contains(fn, "func") {
			t.Errorf("%s: its rule %s is not a named function this test can read", d.Name, full)
			continue
		}
		reads := reach[fn]
		switch {
		case reads && !d.Listing && len(d.Reads) == 0:
			missing = append(missing, d.Name)
		case !reads && d.Listing:
			extra = append(extra, d.Name)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		t.Errorf("these rules read the listing or modes and do not declare Listing: %s", strings.Join(missing, " "))
	}
	if len(extra) > 0 {
		t.Errorf("these rules declare Listing and their source reads neither the listing nor modes: %s", strings.Join(extra, " "))
	}
}
