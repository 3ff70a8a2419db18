package workflow

import (
	"reflect"
	"strings"
	"testing"
)

// Every YAML spelling of a run: value GitHub loads is read as the value
// GitHub runs, each body line placed on the file line (and column) its
// bytes were written on.
func TestExtractReadsEveryBlockForm(t *testing.T) {
	wrap := func(steps string) string {
		return "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n" + steps
	}
	type place struct{ line, col, fileLine, fileCol int } // body line (0-based), column -> file
	cases := []struct {
		name   string
		src    string
		run    int // which run of the file
		lines  []string
		places []place
	}{
		{"folded joins lines", wrap("      - run: >\n          gh pr list\n          -R owner/repo\n"), 0,
			[]string{"gh pr list -R owner/repo"}, []place{{0, 1, 7, 11}, {0, 12, 8, 11}, {0, 15, 8, 14}}},
		{"folded strip", wrap("      - run: >-\n          echo a\n\n          echo b\n"), 0,
			[]string{"echo a", "echo b"}, []place{{0, 1, 7, 11}, {1, 6, 9, 16}}},
		{"folded keep", wrap("      - run: >+\n          echo a\n\n      - run: echo c\n"), 0,
			[]string{"echo a"}, []place{{0, 6, 7, 16}}},
		{"folded more-indented lines keep their breaks", wrap("      - run: >\n          if x; then\n            echo y\n          fi\n"), 0,
			[]string{"if x; then", "  echo y", "fi"}, []place{{1, 3, 8, 13}, {2, 1, 9, 11}}},
		{"literal strip", wrap("      - run: |-\n          echo a\n          echo b\n"), 0,
			[]string{"echo a", "echo b"}, []place{{1, 1, 8, 11}}},
		{"literal keep", wrap("      - run: |+\n          echo a\n\n"), 0,
			[]string{"echo a"}, []place{{0, 1, 7, 11}}},
		{"literal indicator", wrap("      - run: |2\n            echo a\n          echo b\n"), 0,
			[]string{"  echo a", "echo b"}, []place{{0, 3, 7, 13}, {1, 1, 8, 11}}},
		{"literal chomp and indicator", wrap("      - run: |-4\n              echo a\n            echo b\n"), 0,
			[]string{"  echo a", "echo b"}, []place{{1, 1, 8, 13}}},
		{"folded indicator", wrap("      - run: >2\n          echo a\n          echo b\n"), 0,
			[]string{"echo a echo b"}, []place{{0, 8, 8, 11}}},
		{"anchored block", wrap("      - run: &body |\n          echo a\n      - run: *body\n"), 0,
			[]string{"echo a"}, []place{{0, 1, 7, 11}}},
		{"alias as the run: value", wrap("      - run: &body |\n          echo a\n      - run: *body\n"), 1,
			[]string{"echo a"}, []place{{0, 1, 7, 11}}},
		{"alias of a folded block", wrap("      - run: &body >\n          echo a\n          b\n      - run: *body\n"), 1,
			[]string{"echo a b"}, []place{{0, 8, 8, 11}}},
		{"alias of a line", wrap("      - run: &one echo a\n      - run: *one\n"), 1,
			[]string{"echo a"}, nil},
		{"merged step", wrap("      - &s\n        run: |\n          echo a\n      - <<: *s\n        name: again\n"), 1,
			[]string{"echo a"}, []place{{0, 1, 8, 11}}},
		{"multi-line expression", wrap("      - run: |\n          echo ${{\n            github.sha }} done\n          echo b\n"), 0,
			[]string{"echo ${GHEXPR} done", "", "echo b"}, []place{{0, 1, 7, 11}, {0, 16, 8, 27}, {2, 1, 9, 11}}},
		{"multi-line expression in a folded block", wrap("      - run: >\n          echo ${{\n          github.sha }} done\n"), 0,
			[]string{"echo ${GHEXPR} done"}, []place{{0, 16, 8, 25}}},
		{"folded with a leading empty line", wrap("      - run: >\n\n          a\n          b\n"), 0,
			[]string{"", "a b"}, []place{{0, 0, 7, 0}, {1, 1, 8, 11}, {1, 3, 9, 11}}},
		{"double-quoted over lines", wrap("      - run: \"echo ${{\n          github.sha }} a\n          b\"\n"), 0,
			[]string{"echo ${GHEXPR} a b"}, nil},
		{"a %YAML 1.2 directive", "%YAML 1.2\n---\n" + wrap("      - run: echo a\n") + "...\n", 0,
			[]string{"echo a"}, nil},
	}
	for _, tc := range cases {
		f := Read(".github/workflows/x.yml", []byte(tc.src))
		if f.Rejected != nil {
			t.Errorf("%s: rejected: %v", tc.name, f.Rejected)
			continue
		}
		runs, err := Extract(f)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if tc.run >= len(runs) {
			t.Errorf("%s: %d runs", tc.name, len(runs))
			continue
		}
		r := runs[tc.run]
		if !reflect.DeepEqual(r.Lines, tc.lines) || r.Skip != "" || r.NoCol != (tc.places == nil && strings.Contains(tc.name, "over lines")) {
			t.Errorf("%s: lines %q (skip %q, nocol %v), want %q", tc.name, r.Lines, r.Skip, r.NoCol, tc.lines)
			continue
		}
		for _, p := range tc.places {
			if p.col == 0 {
				if l := r.FileLine(p.line, 0); l != p.fileLine {
					t.Errorf("%s: body line %d placed at %d, want %d", tc.name, p.line, l, p.fileLine)
				}
				continue
			}
			if l, c := r.FileLine(p.line, p.col), r.FileCol(p.line, p.col); l != p.fileLine || c != p.fileCol {
				t.Errorf("%s: body %d:%d placed at %d:%d, want %d:%d", tc.name, p.line, p.col, l, c, p.fileLine, p.fileCol)
			}
		}
		// Whatever line a body column maps to holds the byte it names.
		if r.NoCol {
			continue
		}
		for i, line := range r.Lines {
		cols:
			for col := 1; col <= len(line); col++ {
				for _, sp := range r.Subst[i] {
					if col-1 >= sp.At && col-1 < sp.At+len(Expr) {
						continue cols
					}
				}
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

// An expression as a shell names no dialect the reader can state: the
// body is not linted under a guess, and nothing is refused.
func TestExpressionShells(t *testing.T) {
	for _, src := range []string{
		"on: push\ndefaults:\n  run:\n    shell: ${{ matrix.shell }}\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo a\n",
		"on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    defaults:\n      run:\n        shell: ${{ inputs.sh }}\n    steps:\n      - run: echo a\n",
		"on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo a\n        shell: ${{ matrix.shell }}\n",
	} {
		runs, err := Extract(Read("x.yml", []byte(src)))
		if err != nil || len(runs) != 1 || runs[0].Res != OtherShell || !strings.Contains(runs[0].Why, "expression") {
			t.Errorf("%q: %v %+v", src, err, runs)
		}
	}
}

// The folded block's command is one command to the job walk: its -R on a
// later source line is the call's own, and the call sits on its line.
func TestWalkReadsFoldedCommand(t *testing.T) {
	src := "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: >\n          echo hi;\n          gh pr list\n          -R owner/repo\n"
	w := Walk(Read("x.yml", []byte(src)), WalkOptions{})
	calls := w.Jobs[0].Calls
	if len(calls) != 1 || !calls[0].Repo || calls[0].Line != 8 {
		t.Fatalf("calls %+v", calls)
	}
}
