package gates

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// emptyPhrase is how a clean line says its gate had nothing to judge: a
// parenthetical that opens with "no …" or says nothing was checked.
var emptyPhrase = regexp.MustCompile(`^no |nothing to |not checked|expects nothing|so no arm`)

// TestCleanLinesThatCheckedNothingSayItAsData: a rule whose clean line
// says it had nothing to judge ends with Report.Nothing (or Disarmed), not
// Done, so the battery's summary counts it among the members that checked
// nothing (the Actions gates and check-identity under CI once said so in
// words only).
func TestCleanLinesThatCheckedNothingSayItAsData(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var wrong []string
	read := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		read++
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Done" {
				return true
			}
			// The parenthetical's leading literal: the argument itself, the
			// left end of a concatenation, or fmt.Sprintf's format.
			arg := call.Args[0]
			for {
				if b, ok := arg.(*ast.BinaryExpr); ok && b.Op == token.ADD {
					arg = b.X
					continue
				}
				if c, ok := arg.(*ast.CallExpr); ok && len(c.Args) > 0 {
					if s, ok := c.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Sprintf" {
						arg = c.Args[0]
						continue
					}
				}
				break
			}
			lit, ok := arg.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			text, err := strconv.Unquote(lit.Value)
			if err == nil && emptyPhrase.MatchString(text) {
				wrong = append(wrong, fset.Position(call.Pos()).String()+": "+text)
			}
			return true
		})
	}
	if read == 0 {
		t.Fatal("no rule source read: the scan checked nothing")
	}
	if len(wrong) > 0 {
		t.Fatalf("clean lines that say they checked nothing but end with Done (use Report.Nothing):\n  %s", strings.Join(wrong, "\n  "))
	}
}
