package workflow

import (
	"strings"
	"testing"
)

// The line accessors answer the first and the last line, and nothing
// outside the file.
func TestLineAccessorsAtTheEnds(t *testing.T) {
	f := read("  # top\non: push\n  # last\n")
	if f.Lines() != 3 {
		t.Fatalf("%d lines", f.Lines())
	}
	for _, tc := range []struct {
		n       int
		text    string
		comment bool
		indent  int
	}{
		{0, "", false, 0},
		{1, "  # top", true, 2},
		{2, "on: push", false, 0},
		{3, "  # last", true, 2},
		{4, "", false, 0},
	} {
		if got := f.Text(tc.n); got != tc.text {
			t.Errorf("Text(%d) = %q, want %q", tc.n, got, tc.text)
		}
		if got := f.IsComment(tc.n); got != tc.comment {
			t.Errorf("IsComment(%d) = %v, want %v", tc.n, got, tc.comment)
		}
		if got := f.Indent(tc.n); got != tc.indent {
			t.Errorf("Indent(%d) = %d, want %d", tc.n, got, tc.indent)
		}
	}
}

// aliased answers a file whose aliases expand to 5 + k + m(2+k) + p
// nodes: a document, a mapping, a sequence of k anchored items, and a
// sequence of m aliases of it and p plain items.
func aliased(k, m, p int) string {
	return "a: &a [" + strings.Repeat("x,", k) + "]\nb: [" + strings.Repeat("*a,", m) + strings.Repeat("y,", p) + "]\n"
}

// A file whose aliases expand to exactly the reader's budget is read; one
// node more and it is refused.
func TestAliasBudgetIsExact(t *testing.T) {
	for p, want := range map[int]bool{97: false, 98: true} {
		src := aliased(98, 1998, p)
		root, err := parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if n, at := expanded(root), aliasBudget+p-97; n != at {
			t.Fatalf("the file expands to %d nodes, want %d", n, at)
		}
		if got := read(src).Rejected != nil; got != want {
			t.Errorf("%d plain items: rejected %v, want %v", p, got, want)
		}
	}
}

// The reader's step counter, which the linearity test reads, counts every
// line of a long block at least once: a counter that counted nothing
// would make that test pass on any reader.
func TestStepCounterCountsEveryLine(t *testing.T) {
	for name, gen := range longBlocks {
		n := 2000
		if steps := readAll(t, longWorkflow(gen(n))); steps < int64(n) {
			t.Errorf("%s: %d steps for %d lines", name, steps, n)
		}
	}
}

// Bytes that open a multi-byte break but are no break (a middle dot, an
// em dash) are stepped over.
func TestSplitLinesStepsOverLookalikes(t *testing.T) {
	got := splitLines([]byte("a\u00b7b\u2014c\u2028d\u0085e"))
	var texts []string
	for _, l := range got {
		texts = append(texts, l.text)
	}
	if strings.Join(texts, "|") != "a\u00b7b\u2014c|d|e" {
		t.Fatalf("lines %q", texts)
	}
}

// A name byte is a letter, a digit or an underscore, the ranges' ends
// included and the bytes beside them not.
func TestNameByteRanges(t *testing.T) {
	for _, c := range []byte("_09azAZ") {
		if !nameByte(c) {
			t.Errorf("nameByte(%q) = false", c)
		}
	}
	for _, c := range []byte("/:`{@[-. ") {
		if nameByte(c) {
			t.Errorf("nameByte(%q) = true", c)
		}
	}
}
