package workflow

import (
	"strings"
	"testing"
)

// longBlocks are workflows whose one run: value is n lines long, in each
// spelling whose source the reader walks line by line.
var longBlocks = map[string]func(n int) string{
	"literal": func(n int) string {
		return "      - run: |\n" + strings.Repeat("          echo line\n", n)
	},
	"continued": func(n int) string {
		return "      - run: |\n" + strings.Repeat("          gh pr list \\\n", n) + "          --json x\n"
	},
	"plain": func(n int) string {
		var b strings.Builder
		b.WriteString("      - run: echo start\n")
		for i := 0; i < n; i++ {
			b.WriteString("          word more\n")
		}
		return b.String()
	},
	"double-quoted": func(n int) string {
		return "      - run: \"echo start\n" + strings.Repeat("          word more\n", n) + "          end\"\n"
	},
}

func longWorkflow(body string) []byte {
	return []byte("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n" + body +
		"      - uses: actions/checkout@v4\n")
}

// readAll runs every reading the Actions gates make of one file and
// answers the line steps it took.
func readAll(t testing.TB, data []byte) int64 {
	f := Read("w.yml", data)
	if f.Rejected != nil {
		t.Fatalf("rejected: %v", f.Rejected)
	}
	if _, err := Extract(f); err != nil {
		t.Fatalf("extract: %v", err)
	}
	Walk(f, WalkOptions{Marker: "gh-repo-exempt", Words: []string{"gh"}})
	return f.visits.Load()
}

// TestReaderLinearInBlockLength holds the reader's line steps to the
// block's length: the steps per line stay bounded as the block grows 16
// times (a loop that re-walks the block per line grows them 16 times
// over). It counts steps; no timing is read.
func TestReaderLinearInBlockLength(t *testing.T) {
	for name, gen := range longBlocks {
		small, large := 500, 8000
		a := readAll(t, longWorkflow(gen(small)))
		b := readAll(t, longWorkflow(gen(large)))
		perSmall, perLarge := float64(a)/float64(small), float64(b)/float64(large)
		if perLarge > 2*perSmall+1 || perLarge > 20 {
			t.Errorf("%s: %d steps for %d lines (%.1f a line), %d for %d (%.1f a line): not linear",
				name, a, small, perSmall, b, large, perLarge)
		}
	}
}

// BenchmarkReadLongBlock reads, extracts and walks one workflow whose
// run: block is 100,000 lines long (issue 42's case), per spelling.
func BenchmarkReadLongBlock(b *testing.B) {
	for _, name := range []string{"literal", "continued", "plain", "double-quoted"} {
		data := longWorkflow(longBlocks[name](100000))
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				readAll(b, data)
			}
		})
	}
}
