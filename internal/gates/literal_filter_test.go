package gates

import (
	"testing"

	"github.com/gate-sdk/gates/internal/glob"
)

// The literal filter is a necessary condition only: no name glob.Match
// matches is ever filtered out, over every pattern and name of a small
// alphabet; and it does filter (a '*'-only pattern's misses on its tail).
func TestLiteralFilterNeverHidesAMatch(t *testing.T) {
	var words func(alpha string, n int) []string
	words = func(alpha string, n int) []string {
		out := []string{""}
		if n == 0 {
			return out
		}
		for _, w := range words(alpha, n-1) {
			for _, r := range alpha {
				out = append(out, w+string(r))
			}
		}
		return out
	}
	seen := map[string]bool{}
	var pats, names []string
	for _, p := range words("ab*/.?", 4) {
		if !seen[p] {
			seen[p] = true
			pats = append(pats, p)
		}
	}
	seen = map[string]bool{}
	for _, s := range words("ab/.", 5) {
		if !seen[s] {
			seen[s] = true
			names = append(names, s)
		}
	}
	filtered := 0
	for _, p := range pats {
		f := newLiteralFilter(p)
		for _, s := range names {
			if !f.may(s) {
				filtered++
				if glob.Match(p, s) {
					t.Fatalf("pattern %q matches %q, which the filter drops", p, s)
				}
			}
		}
	}
	if filtered == 0 {
		t.Fatal("the filter dropped nothing")
	}
	if newLiteralFilter("*.sh").may("a/b.yml") || !newLiteralFilter("*SPEC-*.md").may("kits/SPEC-x.md") || newLiteralFilter("*SPEC-*.md").may("SPEC-.m") {
		t.Fatal("the filter's own cases")
	}
}
