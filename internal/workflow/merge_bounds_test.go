package workflow

import (
	"fmt"
	"strings"
	"testing"
)

func keysOf(es []*Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Key)
	}
	return out
}

// Merge keys are followed eight mappings deep and no deeper.
func TestMergeDepthBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("a9: &a9 {k9: x}\n")
	for d := 8; d >= 1; d-- {
		fmt.Fprintf(&b, "a%d: &a%d {k%d: x, <<: *a%d}\n", d, d, d, d+1)
	}
	b.WriteString("top: {k0: x, <<: *a1}\n")
	f := read(b.String())
	if f.Rejected != nil {
		t.Fatal(f.Rejected)
	}
	got := strings.Join(keysOf(entries(Child(f.root, "top").Value)), " ")
	if want := "k0 k1 k2 k3 k4 k5 k6 k7 k8"; got != want {
		t.Fatalf("keys %q, want %q", got, want)
	}
}

// A merge of a sequence merges each of its mappings; the mappings one
// reading follows are bounded (1024, the first included).
func TestMergeSequenceAndBudget(t *testing.T) {
	f := read("a: &a {x: 1}\nb: &b {y: 2}\ntop: {z: 0, <<: [*a, *b]}\n")
	if got := strings.Join(keysOf(entries(Child(f.root, "top").Value)), " "); got != "z x y" {
		t.Fatalf("keys %q, want %q", got, "z x y")
	}
	var b strings.Builder
	var refs []string
	for i := 0; i < 1030; i++ {
		fmt.Fprintf(&b, "m%d: &m%d {k%d: x}\n", i, i, i)
		refs = append(refs, fmt.Sprintf("*m%d", i))
	}
	b.WriteString("top: {<<: [" + strings.Join(refs, ", ") + "]}\n")
	f = read(b.String())
	if f.Rejected != nil {
		t.Fatal(f.Rejected)
	}
	if got := len(entries(Child(f.root, "top").Value)); got != 1023 {
		t.Fatalf("%d merged keys, want 1023 (the budget less the mapping itself)", got)
	}
}

// Nothing resolves to nothing and has no entries.
func TestResolveNil(t *testing.T) {
	if resolve(nil) != nil || entries(nil) != nil {
		t.Fatal("nil resolved to something")
	}
}

// A %YAML directive with a two-digit minor version is read as 1.1 in
// place, every column kept.
func TestDirectiveTwoDigitMinor(t *testing.T) {
	src := "%YAML 1.12\n---\non: push\njobs:\n  b:\n    runs-on: x\n    steps:\n      - run: echo a\n"
	if got := string(directive12([]byte(src))); got != strings.Replace(src, "1.12", "1.1 ", 1) {
		t.Fatalf("directive12 = %q", got)
	}
	runs, err := Extract(read(src))
	if err != nil || len(runs) != 1 || runs[0].Lines[0] != "echo a" {
		t.Fatalf("runs %v, %v", runs, err)
	}
}

// A step ends on its last body line: a block indented one column past its
// key, a step that is itself a block scalar, and never on the next step.
func TestStepEnds(t *testing.T) {
	f := read("x: &e {A: 1}\non: push\njobs:\n  b:\n    runs-on: x\n    steps:\n" +
		"      - run: |\n" + // 7
		"         echo a\n" + // 8: one column past the key
		"         echo b\n" + // 9
		"      - |\n" + // 10
		"        echo c\n" + // 11
		"        echo d\n" + // 12
		"      - run: echo e\n" + // 13
		"        name: last\n" + // 14
		"      - run: echo f\n" + // 15
		"        with:\n" + // 16
		"          - |\n" + // 17
		"            g\n" + // 18
		"      - run: echo h\n" + // 19
		"        env:\n" + // 20
		"          *e\n") // 21
	if f.Rejected != nil {
		t.Fatal(f.Rejected)
	}
	var got []int
	for _, s := range f.Jobs[0].Steps {
		got = append(got, s.End)
	}
	if want := []int{9, 12, 14, 18, 21}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("step ends %v, want %v", got, want)
	}
}

// The reader walks fewer nodes than the alias budget: a file of exactly
// that many is refused as too large to walk, one node fewer is read.
func TestNodeBudgetIsExact(t *testing.T) {
	for items, want := range map[int]string{aliasBudget - 2: "", aliasBudget - 1: "more nodes than the reader will walk"} {
		// The root sequence and its items.
		f := read("[" + strings.Repeat("x,", items) + "]\n")
		got := ""
		if f.Rejected != nil {
			got = f.Rejected.Error()
		}
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("%d nodes: rejected %q, want %q", items+1, got, want)
		}
	}
}

// A '#' line inside a block scalar is body, not a comment: in a block
// that is a sequence item, and in a file that is one block.
func TestBodyLinesAreNoComments(t *testing.T) {
	f := read("on: push\njobs:\n  b:\n    runs-on: x\n    steps:\n      - run: echo\n        with:\n          - |\n            # body\n      # comment\n")
	if f.Rejected != nil {
		t.Fatal(f.Rejected)
	}
	if f.IsComment(9) || !f.IsComment(10) {
		t.Errorf("line 9 comment %v (want false), line 10 comment %v (want true)", f.IsComment(9), f.IsComment(10))
	}
	if f := read("|\n # body\n"); f.Rejected != nil || f.IsComment(2) {
		t.Errorf("a top-level block's line read as a comment (%v)", f.Rejected)
	}
}

// An alias names its anchored block where that was written: the block's
// body sits right of the anchor's key, not of the alias's.
func TestAliasedBlockIndentedLessThanTheAlias(t *testing.T) {
	f := read("a: &b |\n  echo a\non: push\njobs:\n  j:\n    runs-on: x\n    steps:\n      - run: *b\n")
	runs, err := Extract(f)
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	if r := runs[0]; fmt.Sprint(r.Lines) != "[echo a]" || r.NoCol || r.FileLine(0, 1) != 2 || r.FileCol(0, 1) != 3 {
		t.Fatalf("lines %q nocol %v at %d:%d", r.Lines, r.NoCol, r.FileLine(0, 1), r.FileCol(0, 1))
	}
}

// A block under a top-level key with an indentation indicator takes its
// lines from one column past the key, a line less indented than its first
// included.
func TestTopLevelIndicatorBlockBody(t *testing.T) {
	f := read("a: |2\n    x\n  # y\nb: 1\n")
	if f.Rejected != nil {
		t.Fatal(f.Rejected)
	}
	if f.IsComment(3) {
		t.Error("a body line of a top-level indicated block read as a comment")
	}
}

// A plain run: value that continues on later lines ends the step on its
// last continuation line: one whose words repeat the first line's, and
// one that is the file's last line.
func TestPlainStepEnds(t *testing.T) {
	f := read("on: push\njobs:\n  b:\n    runs-on: x\n    steps:\n" +
		"      - run: echo\n" + // 6
		"          echo\n" + // 7
		"      - run: echo a\n" + // 8
		"          b") // 9, the file's last line
	if f.Rejected != nil {
		t.Fatal(f.Rejected)
	}
	var got []int
	for _, s := range f.Jobs[0].Steps {
		got = append(got, s.End)
	}
	if want := []int{7, 9}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("step ends %v, want %v", got, want)
	}
}

// Merges through sequences count toward the same depth bound.
func TestMergeDepthBoundThroughSequences(t *testing.T) {
	var b strings.Builder
	b.WriteString("a9: &a9 {k9: x}\n")
	for d := 8; d >= 1; d-- {
		fmt.Fprintf(&b, "a%d: &a%d {k%d: x, <<: [*a%d]}\n", d, d, d, d+1)
	}
	b.WriteString("top: {k0: x, <<: [*a1]}\n")
	f := read(b.String())
	if f.Rejected != nil {
		t.Fatal(f.Rejected)
	}
	if got := strings.Join(keysOf(entries(Child(f.root, "top").Value)), " "); got != "k0 k1 k2 k3 k4 k5 k6 k7 k8" {
		t.Fatalf("keys %q", got)
	}
}

// An escaped quote inside a double-quoted value spanning lines does not
// end it: the step ends on the closing quote's line.
func TestDoubleQuotedStepEnd(t *testing.T) {
	f := read("on: push\njobs:\n  b:\n    runs-on: x\n    steps:\n" +
		"      - run: \"echo \\\"\n" + // 6
		"          x\"\n" + // 7
		"      - run: 'it''s\n" + // 8
		"          y'\n") // 9
	if f.Rejected != nil {
		t.Fatal(f.Rejected)
	}
	var got []int
	for _, s := range f.Jobs[0].Steps {
		got = append(got, s.End)
	}
	if want := []int{7, 9}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("step ends %v, want %v", got, want)
	}
}
