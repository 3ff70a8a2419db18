package workflow

import (
	"reflect"
	"testing"
)

// blockCase is one run: body and how it must read: its lines, and
// whether every byte of them is placed in the file (a body the rebuild
// cannot place is read with no columns).
type blockCase struct {
	name  string
	src   string // the steps
	lines []string
	noCol bool
}

// checkBlocks reads each case's first run and holds its lines, its
// placement, and every placed byte to the file byte it names.
func checkBlocks(t *testing.T, cases []blockCase) {
	t.Helper()
	for _, tc := range cases {
		src := "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n" + tc.src
		f := Read(".github/workflows/x.yml", []byte(src))
		if f.Rejected != nil {
			t.Errorf("%s: rejected: %v", tc.name, f.Rejected)
			continue
		}
		runs, err := Extract(f)
		if err != nil || len(runs) == 0 {
			t.Errorf("%s: %d runs, %v", tc.name, len(runs), err)
			continue
		}
		r := runs[0]
		if !reflect.DeepEqual(r.Lines, tc.lines) || r.NoCol != tc.noCol {
			t.Errorf("%s: lines %q nocol %v, want %q nocol %v", tc.name, r.Lines, r.NoCol, tc.lines, tc.noCol)
			continue
		}
		if r.NoCol {
			continue
		}
		for i, line := range r.Lines {
			for col := 1; col <= len(line); col++ {
				if line[col-1] == ' ' {
					continue
				}
				l, c := r.FileLine(i, col), r.FileCol(i, col)
				if text := f.Text(l); c < 1 || c > len(text) || text[c-1] != line[col-1] {
					t.Errorf("%s: body %d:%d (%q) placed at %d:%d, which holds %q", tc.name, i, col, line[col-1], l, c, text)
				}
			}
		}
	}
}

// The indentation indicators at both ends of their range, a body whose
// only line ends the file, and a line of exactly the block's indentation
// in blanks, which stands for an empty line (in a folded block, a break).
func TestBlockIndentationEdges(t *testing.T) {
	checkBlocks(t, []blockCase{
		{"indicator 1", "      - run: |1\n           echo a\n", []string{"  echo a"}, false},
		{"indicator 9", "      - run: |9\n                   echo a\n", []string{"  echo a"}, false},
		{"folded indicator 1", "      - run: >1\n           a\n           b\n", []string{"  a", "  b"}, false},
		{"one-line body ends the file", "      - run: |\n          echo a", []string{"echo a"}, false},
		{"one-line body, last line", "      - run: |\n          echo a\n", []string{"echo a"}, false},
		{"folded, a blank line of the indentation", "      - run: >\n          a\n          \n          b\n", []string{"a", "b"}, false},
		{"literal, a blank line of the indentation", "      - run: |\n          a\n          \n          b\n", []string{"a", "", "b"}, false},
	})
}

// runs-on labels nested under labels: are followed four mappings deep and
// no deeper.
func TestRunnerLabelsDepthBound(t *testing.T) {
	nest := func(depth int) string {
		s := "windows-latest"
		for i := 0; i < depth; i++ {
			s = "{labels: " + s + "}"
		}
		return s
	}
	for depth, want := range map[int]Runner{1: Windows, 4: Windows, 5: Unreadable, 6: Unreadable} {
		f := read("on: push\njobs:\n  a:\n    runs-on: " + nest(depth) + "\n")
		if f.Rejected != nil {
			t.Fatalf("depth %d: %v", depth, f.Rejected)
		}
		if got, _ := RunnerOf(f.Jobs[0]); got != want {
			t.Errorf("labels %d deep: %v, want %v", depth, got, want)
		}
	}
}

// A body of no lines is linted as an empty script.
func TestScriptOfNoLines(t *testing.T) {
	if s, n := (&Run{}).Script(); s != "\n" || n != 0 {
		t.Fatalf("Script() = %q, %d", s, n)
	}
	if s, n := (&Run{Flags: "-e"}).Script(); s != "set -e\n\n" || n != 1 {
		t.Fatalf("Script() with flags = %q, %d", s, n)
	}
}

// A line or column asked past the body is placed as a literal block would
// place it; a body line with no bytes of its own (an empty line of a
// block) maps its columns from the block's indentation; a run built with
// lines and no expressions recorded maps columns straight.
func TestPlacementOutsideTheBody(t *testing.T) {
	runs, err := Extract(read("on: push\njobs:\n  b:\n    runs-on: x\n    steps:\n      - run: |\n          a\n\n          b\n"))
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	r := runs[0]
	if !reflect.DeepEqual(r.Lines, []string{"a", "", "b"}) {
		t.Fatalf("lines %q", r.Lines)
	}
	for _, tc := range []struct{ i, line int }{{-1, 6}, {0, 7}, {1, 8}, {2, 9}, {3, 10}, {5, 12}} {
		if got := r.FileLine(tc.i, 0); got != tc.line {
			t.Errorf("FileLine(%d) = %d, want %d", tc.i, got, tc.line)
		}
	}
	if got := r.FileCol(1, 1); got != 11 {
		t.Errorf("FileCol on the empty line = %d, want 11 (the block's indentation)", got)
	}
	for _, i := range []int{-1, 3, 4} {
		if got := r.FileCol(i, 7); got != 7 {
			t.Errorf("FileCol(%d, 7) past the body = %d, want 7", i, got)
		}
	}
	bare := &Run{First: 3, Indent: 4, Lines: []string{"echo a"}}
	if l, c := bare.FileLine(0, 3), bare.FileCol(0, 3); l != 3 || c != 7 {
		t.Errorf("a bare run places 0:3 at %d:%d, want 3:7", l, c)
	}
}

// A directive on a line of its own is kept and listed as a directive; one
// that trails a command is listed as trailing and neutralised, in a
// single-line value and in a block alike.
func TestDirectiveListsPerForm(t *testing.T) {
	wrap := func(steps string) string {
		return "on: push\njobs:\n  b:\n    runs-on: x\n    steps:\n" + steps
	}
	for _, tc := range []struct {
		name                 string
		src                  string
		directives, trailing []int
		first                string
	}{
		{"single line, own line", wrap("      - run: '# shellcheck disable=SC2086'\n"), []int{6}, nil, "# shellcheck disable=SC2086"},
		{"single line, trailing", wrap("      - run: 'echo $x # shellcheck disable=SC2086'\n"), nil, []int{6}, "echo $x # shellchecq disable=SC2086"},
		{"single line, none", wrap("      - run: 'echo $x # a comment'\n"), nil, nil, "echo $x # a comment"},
		{"block, both", wrap("      - run: |\n          # shellcheck disable=SC2086\n          echo $x # shellcheck disable=SC2086\n"), []int{7}, []int{8}, "# shellcheck disable=SC2086"},
	} {
		runs, err := Extract(read(tc.src))
		if err != nil || len(runs) != 1 {
			t.Fatalf("%s: %d runs, %v", tc.name, len(runs), err)
		}
		r := runs[0]
		if !reflect.DeepEqual(r.Directives, tc.directives) || !reflect.DeepEqual(r.Trailing, tc.trailing) || r.Lines[0] != tc.first {
			t.Errorf("%s: directives %v trailing %v first %q; want %v %v %q", tc.name, r.Directives, r.Trailing, r.Lines[0], tc.directives, tc.trailing, tc.first)
		}
	}
}

// A comment holding only a prefix of the directive's word, short of it by
// fewer bytes than the blanks before it, is no directive and reads whole.
func TestNeutraliseShortWords(t *testing.T) {
	for _, in := range []string{"# shellc", "# shellchec", "#  shellchec", "echo # shellchec", "#\tshellche"} {
		if got, ok := neutralise(in); ok || got != in {
			t.Errorf("neutralise(%q) = %q %v", in, got, ok)
		}
	}
	if got, ok := neutralise("#  shellcheck"); !ok || got != "#  shellchecq" {
		t.Errorf("the word ending the line: %q %v", got, ok)
	}
}

// An empty expression is one that closes.
func TestSubstEmptyExpression(t *testing.T) {
	got, spans, ok := subst("a ${{}} b")
	if !ok || got != "a "+Expr+" b" || !reflect.DeepEqual(spans, []Span{{At: 2, Len: 5}}) {
		t.Fatalf("subst = %q %v %v", got, spans, ok)
	}
}
