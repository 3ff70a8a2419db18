package gate

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestFilePartSplitsEachPathOnce: over many paths and part counts, each
// path falls to exactly one part, and every part of a sizeable listing
// gets some.
func TestFilePartSplitsEachPathOnce(t *testing.T) {
	for n := 1; n <= 5; n++ {
		got := make([]int, n)
		for i := 0; i < 1000; i++ {
			p := fmt.Sprintf("docs/d%03d/note-%05d.md", i%37, i)
			held := 0
			for k := 1; k <= n; k++ {
				if (FilePart{K: k, N: n}).Holds(p) {
					held++
					got[k-1]++
				}
			}
			if held != 1 {
				t.Fatalf("n %d: %s falls to %d parts", n, p, held)
			}
		}
		for k, c := range got {
			if c < 1000/n/2 {
				t.Errorf("n %d: part %d holds %d of 1000 paths", n, k+1, c)
			}
		}
	}
}

// TestPartNoteOnEveryReport: a context restricted to a part judges only
// its paths, and its clean line and its red report both say it judged
// part of the files.
func TestPartNoteOnEveryReport(t *testing.T) {
	for _, red := range []bool{false, true} {
		var out bytes.Buffer
		c := &Context{Name: "check-x", Out: &out, Err: &out}
		if !c.Judges("a") {
			t.Fatal("a context with no part judges every path")
		}
		c.SetPart(FilePart{K: 2, N: 4})
		c.JudgedPart(3, 12)
		r := c.NewReport(map[string]string{"A": "fix it"})
		if red {
			r.Add(Finding{Class: "A", Path: "a", Msg: "bad"})
		}
		r.Done("3 files")
		want := "shard 2/4: 3 of 12 files judged here, the rest by the other shards"
		if !strings.Contains(out.String(), want) {
			t.Errorf("red %v: report %q lacks %q", red, out.String(), want)
		}
	}
}

// TestWeightedPartsCoverEachFileOnce: whatever the shares, each path falls
// to exactly one part, and a part's count follows its share.
func TestWeightedPartsCoverEachFileOnce(t *testing.T) {
	for _, shares := range [][]float64{{1, 1, 1, 1}, {0, 3, 1, 0}, {5, 0, 0, 0}, {0, 0, 0, 2}, {0, 0, 0, 0}, {0.2, 0.3, 0.5}} {
		parts := WeightedParts(shares)
		counts := make([]int, len(parts))
		for i := 0; i < 8000; i++ {
			p := fmt.Sprintf("dir%d/file-%d.md", i%37, i)
			held := 0
			for k, part := range parts {
				if part.Holds(p) {
					held++
					counts[k]++
				}
			}
			if held != 1 {
				t.Fatalf("shares %v: %s held by %d parts", shares, p, held)
			}
		}
		var sum float64
		for _, s := range shares {
			sum += s
		}
		for k, s := range shares {
			want := 8000.0 / float64(len(shares))
			if sum > 0 {
				want = 8000 * s / sum
			}
			if d := float64(counts[k]) - want; d > 400 || d < -400 {
				t.Fatalf("shares %v: part %d holds %d files, want about %.0f", shares, k+1, counts[k], want)
			}
		}
	}
}

// TestEqualSharesAreTheRemainderSplit: equal shares give the parts a shard
// with no cost record takes.
func TestEqualSharesAreTheRemainderSplit(t *testing.T) {
	for _, shares := range [][]float64{{1, 1, 1, 1}, {0, 0, 0, 0}, {7, 7, 7, 7}} {
		for k, part := range WeightedParts(shares) {
			plain := FilePart{K: k + 1, N: len(shares)}
			for i := 0; i < 2000; i++ {
				p := fmt.Sprintf("d%d/f%d", i%13, i)
				if part.Holds(p) != plain.Holds(p) {
					t.Fatalf("shares %v: part %d and the remainder split differ on %s", shares, k+1, p)
				}
			}
		}
	}
}
