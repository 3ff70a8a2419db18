package ere

import (
	"errors"
	"fmt"
	"testing"
)

// Check answers what Compile answers: nil for every pattern that compiles,
// the same error for every refusal, near the size cap on both sides too;
// and no program outgrows the size bound Check trusts.
func TestCheckAnswersAsCompile(t *testing.T) {
	pats := append([]string{}, fuzzSeeds()...)
	g := newPatGen(48)
	g.free = true
	for range 600 {
		pats = append(pats, g.alt(3))
	}
	// Around the cap: intervals of intervals, alternations under counts.
	for _, k := range []int{1, 2, 9, 10, 39, 40, 41, 78, 79, 80, 81, 99, 100, 101, 255} {
		pats = append(pats,
			fmt.Sprintf("(ab|cd){%d}{%d}", k, k),
			fmt.Sprintf("([a-z]{%d}x){1,%d}", k, k),
			fmt.Sprintf("(a|b|c|d|e|f|g|h){%d,}{%d}", k, k),
			fmt.Sprintf("a{%d}{%d}{2}", k, k))
	}
	compiled, refused, tooLarge := 0, 0, 0
	for _, p := range pats {
		want := func() error { _, err := Compile(p); return err }()
		got := Check(p)
		if (got == nil) != (want == nil) || (want != nil && got.Error() != want.Error()) {
			t.Fatalf("Check(%q) = %v, Compile answers %v", p, got, want)
		}
		if want != nil {
			var e *Error
			if !errors.As(got, &e) {
				t.Fatalf("Check(%q): %T is not *Error", p, got)
			}
			refused++
			if e.Kind == KindTooLarge {
				tooLarge++
			}
			continue
		}
		compiled++
		n, _, _ := parse(p)
		for _, reverse := range []bool{false, true} {
			if prog := compileProg(n, reverse); prog != nil && len(prog.insts)-1 > progSize(n) {
				t.Fatalf("%q: %d instructions past the bound %d", p, len(prog.insts)-1, progSize(n))
			}
		}
	}
	if compiled == 0 || refused == 0 || tooLarge == 0 {
		t.Fatalf("compiled %d, refused %d (%d too large): every side must be asked", compiled, refused, tooLarge)
	}
}
