package gates

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/glob"
)

// The split-based spelling componentMatch and prunedBy had before they
// were rewritten to walk their strings in place: the oracle the in-place
// versions are held to.
func splitSegMatch(ps, ss []string) bool {
	for len(ps) > 0 {
		if ps[0] == "**" {
			for i := 0; i <= len(ss); i++ {
				if splitSegMatch(ps[1:], ss[i:]) {
					return true
				}
			}
			return false
		}
		if len(ss) == 0 || !glob.Match(ps[0], ss[0]) {
			return false
		}
		ps, ss = ps[1:], ss[1:]
	}
	return len(ss) == 0
}

func splitComponentMatch(pat, p string) bool {
	return splitSegMatch(strings.Split(pat, "/"), strings.Split(p, "/"))
}

func splitPrunedBy(prunes []string, rel string) bool {
	segs := strings.Split(rel, "/")
	for i := 1; i < len(segs); i++ {
		dir := strings.Join(segs[:i], "/")
		for _, p := range prunes {
			if splitComponentMatch(p, dir) {
				return true
			}
		}
	}
	return false
}

// randPath spells a path from a small alphabet rich in separators, empty
// segments, globs and "**", so the edge cases come up often.
func randPath(r *rand.Rand, pattern bool) string {
	parts := []string{"a", "b", "ab", "", "x.md"}
	if pattern {
		parts = append(parts, "*", "**", "a*", "?", "[ab]", "*.md")
	}
	n := r.Intn(5)
	segs := make([]string, n+1)
	for i := range segs {
		segs[i] = parts[r.Intn(len(parts))]
	}
	return strings.Join(segs, "/")
}

func TestSegmentMatchersAgreeWithSplitting(t *testing.T) {
	r := rand.New(rand.NewSource(14))
	for i := 0; i < 200000; i++ {
		pat, p := randPath(r, true), randPath(r, false)
		if got, want := componentMatch(pat, p), splitComponentMatch(pat, p); got != want {
			t.Fatalf("componentMatch(%q, %q) = %v, split spelling %v", pat, p, got, want)
		}
		prunes := []string{randPath(r, true)}
		if r.Intn(2) == 0 {
			prunes = append(prunes, randPath(r, true))
		}
		if got, want := prunedBy(prunes, p), splitPrunedBy(prunes, p); got != want {
			t.Fatalf("prunedBy(%q, %q) = %v, split spelling %v", prunes, p, got, want)
		}
	}
}

func TestSegmentMatchersAllocateNothing(t *testing.T) {
	prunes := []string{"**/vendor", "docs/*/tmp"}
	if n := testing.AllocsPerRun(100, func() {
		componentMatch("docs/**/*.md", "docs/d001/sub/note-00001.md")
		prunedBy(prunes, "docs/d001/sub/note-00001.md")
	}); n != 0 {
		t.Errorf("%v allocations per call pair, want 0", n)
	}
}
