package workflow

import (
	"fmt"
	"strings"
	"testing"
)

// values answers a flow sequence of n distinct values.
func values(n int) string {
	var vs []string
	for i := 0; i < n; i++ {
		vs = append(vs, fmt.Sprint(i))
	}
	return "[" + strings.Join(vs, ", ") + "]"
}

// The matrix's edges: an include-only matrix keeps each entry its own
// combination, a matrix of exactly the combination bound is read, one past
// it is not, and a matrix whose exclusions leave nothing names no runner.
func TestStepRunnerMatrixEdges(t *testing.T) {
	cases := []struct {
		name, job string
		want      Runner
	}{
		{"include-only entries stay apart", "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        include:\n          - os: windows-latest\n          - os: ubuntu-latest", Unreadable},
		{"exactly the combination bound", "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest]\n        a: " + values(64) + "\n        b: " + values(64), NonWindows},
		{"one past the combination bound", "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest]\n        a: " + values(64) + "\n        b: " + values(65), Unreadable},
		{"a matrix entry that is a label list", "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [[self-hosted, windows]]", Windows},
		{"another expression beside a matrix", "runs-on: ${{ inputs.runner }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest]", Unreadable},
		{"a matrix entry as a group's labels", "runs-on:\n      group: g\n      labels: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [windows-latest]", Windows},
		{"everything excluded", "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [windows-latest]\n        exclude:\n          - os: windows-latest", Unreadable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := read("on: push\njobs:\n  a:\n    " + tc.job + "\n    steps:\n      - run: echo\n")
			if f.Rejected != nil {
				t.Fatal(f.Rejected)
			}
			j := f.Jobs[0]
			if got, why := StepRunner(j, j.Steps[0]); got != tc.want {
				t.Errorf("got %v %q, want %v", got, why, tc.want)
			}
		})
	}
}

func TestRefNameOfABareVersion(t *testing.T) {
	for in, want := range map[string]string{"@v1": "", "a/b@v1": "a/b", "a/b": "a/b"} {
		if got := RefName(in); got != want {
			t.Errorf("RefName(%q) = %q, want %q", in, got, want)
		}
	}
}

// A template's -o with no option after it, or with the script's place
// after it, sets no option.
func TestTemplateOptionWithoutAValue(t *testing.T) {
	for shell, flags := range map[string]string{"bash -o": "", "bash -o {0}": "", "bash -e -o {0}": "-e", "bash -eo": "-e"} {
		f := read("on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: |\n          x\n        shell: " + shell + "\n")
		runs, err := Extract(f)
		if err != nil || len(runs) != 1 {
			t.Fatalf("%q: %d runs, %v", shell, len(runs), err)
		}
		if runs[0].Res != Shell || runs[0].Flags != flags {
			t.Errorf("%q: %v flags %q, want %q", shell, runs[0].Res, runs[0].Flags, flags)
		}
	}
}

// Quoted words come back without their quotes; an escaped quote inside
// double quotes does not close them.
func TestCallWordsQuotes(t *testing.T) {
	for in, want := range map[string]string{
		"gh 'pr list' -R o/r": "[gh|pr list|-R|o/r]",
		`gh "a\"b" c`:         `[gh|a\"b|c]`,
		`x'y'z "w"`:           "[xyz|w]",
		`a\ b c`:              "[a b|c]",
		`a\`:                  `[a\]`,
		"gh $(echo a b) c":    "[gh|$(echo a b)|c]",
		"x$(a $(b) c)y z":     "[x$(a $(b) c)y|z]",
		"gh $(a b":            "[gh|$(a b]",
		"echo $":              "[echo|$]",
		"a$ $b":               "[a$|$b]",
		"gh 'open":            "[gh|open]",
	} {
		if got := "[" + strings.Join(callWords(in), "|") + "]"; got != want {
			t.Errorf("callWords(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestCommentStartAndExports(t *testing.T) {
	for in, want := range map[string]int{"#x": 0, "a#b #c": 4, "a\t#b": 2, "x": -1, "a#b": -1} {
		if got := commentStart(in); got != want {
			t.Errorf("commentStart(%q) = %d, want %d", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"export GITHUB_TOKEN=a; export GH_TOKEN=b":    "b",
		"export GH_TOKEN=b; export GITHUB_TOKEN=a":    "b",
		"export GITHUB_TOKEN=a":                       "a",
		"export GITHUB_TOKEN=a export GITHUB_TOKEN=c": "a",
	} {
		if got, ok := exportedToken(in); !ok || got != want {
			t.Errorf("exportedToken(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
	if _, ok := exportedToken("echo GH_TOKEN=x"); ok {
		t.Error("an assignment without export exported")
	}
}

func TestJoinExprsAtTheStart(t *testing.T) {
	if got := joinExprs("${{ a b }} c ${{ d }}"); got != "${{\x01a\x01b\x01}} c ${{\x01d\x01}}" {
		t.Fatalf("joinExprs = %q", got)
	}
}

// An anchor that ends its line, its value on the next, is stepped over
// without reading past the line.
func TestAnchorEndingItsLine(t *testing.T) {
	for _, src := range []string{
		"on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: &b\n          echo a\n",
		"on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: &b\n          |\n          echo a\n",
	} {
		f := read(src)
		if f.Rejected != nil {
			continue
		}
		runs, err := Extract(f)
		if err != nil || len(runs) != 1 || len(runs[0].Lines) == 0 || runs[0].Lines[0] != "echo a" {
			t.Errorf("%q: runs %+v, %v", src, runs, err)
		}
	}
}
