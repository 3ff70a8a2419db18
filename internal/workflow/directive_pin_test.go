package workflow

import "testing"

// Issue 42 item 17 (mutants that survived in the directive and
// substitution code): a directive after a tab is neutralised, a line
// holding only the start of the word neither panics nor counts, and an
// expression at the start of a line is substituted.
func TestDirectiveAndSubstitutionEdges(t *testing.T) {
	for _, tc := range []struct {
		in, want  string
		directive bool
	}{
		{"echo x\t# shellcheck disable=SC2086", "echo x\t# shellchecq disable=SC2086", true},
		{"\t# shellcheck disable=SC2086", "\t# shellchecq disable=SC2086", true},
		{"#\tShellCheck\tdisable=SC2086", "#\tshellchecq\tdisable=SC2086", true},
		{"# she", "# she", false},
		{"#", "#", false},
		{"# shellcheckx", "# shellcheckx", false},
		{"a#shellcheck disable=SC1", "a#shellcheck disable=SC1", false},
	} {
		got, directive := neutralise(tc.in)
		if got != tc.want || directive != tc.directive {
			t.Errorf("neutralise(%q) = %q %v, want %q %v", tc.in, got, directive, tc.want, tc.directive)
		}
	}
	for in, want := range map[string]string{
		"${{ github.ref }}":         Expr,
		"${{ a }}${{ b }} c":        Expr + Expr + " c",
		"x ${{ a }}":                "x " + Expr,
		"${{a}}":                    Expr,
		"no expression here at all": "no expression here at all",
	} {
		got, spans, ok := subst(in)
		if !ok || got != want {
			t.Errorf("subst(%q) = %q %v, want %q", in, got, ok, want)
		}
		if in[0] == '$' && (len(spans) == 0 || spans[0].At != 0) {
			t.Errorf("subst(%q): first span %v, want one at column 0", in, spans)
		}
	}
	if _, _, ok := subst("${{ open"); ok {
		t.Error("an unclosed ${{ was substituted")
	}
}
