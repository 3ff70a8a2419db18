package workflow

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// comboOf reads a flow mapping as a matrix combination.
func comboOf(t *testing.T, src string) combo {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	return mapOf(doc.Content[0])
}

// TestIfEval holds the evaluator's three values against GitHub's
// expression rules: unknown contexts stay unknown, a missing matrix key
// is null, like types compare as they are and unlike ones as numbers.
func TestIfEval(t *testing.T) {
	c := comboOf(t, "{os: ubuntu-latest, flag: true, off: false, n: 3, s: '', obj: {a: b}, name: Linux}")
	cases := []struct {
		expr string
		os   string
		want tri
	}{
		{"matrix.flag", "", triTrue},
		{"matrix.off", "", triFalse},
		{"matrix.missing", "", triFalse},
		{"!matrix.missing", "", triTrue},
		{"matrix.s", "", triFalse},
		{"matrix.obj", "", triTrue},
		{"matrix.obj.a == 'B'", "", triTrue},
		{"matrix['os'] == 'ubuntu-latest'", "", triTrue},
		{"matrix.n == 3", "", triTrue},
		{"matrix.n == '3'", "", triTrue},
		{"matrix.n > 2.5 && matrix.n <= 3", "", triTrue},
		{"matrix.flag == true", "", triTrue},
		{"matrix.flag == 'true'", "", triFalse}, // 'true' is NaN as a number
		{"matrix.missing == null", "", triTrue},
		{"matrix.missing == 0", "", triTrue},
		{"github.event_name == 'push'", "", triUnknown},
		{"github.event_name == 'push' && matrix.off", "", triFalse},
		{"matrix.off && github.event_name == 'push'", "", triFalse},
		{"github.event_name == 'push' || matrix.flag", "", triTrue},
		{"success() && matrix.flag", "", triUnknown},
		{"!cancelled()", "", triUnknown},
		{"runner.os == 'windows'", "Windows", triTrue},
		{"runner.os == 'Windows'", "", triUnknown},
		{"RUNNER.OS != 'Windows'", "Linux", triTrue},
		{"startsWith(matrix.os, 'UBUNTU')", "", triTrue},
		{"!endsWith(matrix.os, 'latest')", "", triFalse},
		{"contains(matrix.obj, 'a')", "", triUnknown},
		{"contains(fromJSON('[1]'), matrix.n)", "", triUnknown},
		{"(matrix.os == 'a' || matrix.os == 'ubuntu-latest') && !(matrix.off)", "", triTrue},
		{"matrix.name == 'it''s'", "", triFalse},
		{"0x10 == 16", "", triTrue},
		{"format('{0}-{1}', matrix.os, matrix.n) == 'ubuntu-latest-3'", "", triTrue},
		{"format('a{0}b', matrix.os) == 'Aubuntu-latestB'", "", triTrue},
		{"format('{1}', matrix.os) == ''", "", triUnknown},   // no second argument: GitHub fails it
		{"format('{0', matrix.os) == ''", "", triUnknown},    // an unclosed brace
		{"format('{0}', github.sha) == 'x'", "", triUnknown}, // an argument not known
		{"-1 < 0", "", triTrue},
		{"matrix.s == 0", "", triTrue},
		{"matrix.os == 1", "", triFalse},
		{"matrix.os != 1", "", triTrue},
		{"matrix.x[0]", "", triUnknown}, // an index the reader does not follow
		{"matrix.obj.*", "", triUnknown},
		{"matrix.OS == 'ubuntu-latest'", "", triTrue}, // property names read without regard to case
		{"matrix.Obj.A == 'b'", "", triTrue},
		{"matrix.os.x", "", triFalse}, // a scalar has no property: null
	}
	for _, tc := range cases {
		e := parseIf(tc.expr)
		if e == nil {
			t.Errorf("%q: not parsed", tc.expr)
			continue
		}
		if got := truthOf(e.eval(ifEnv{matrix: c, os: tc.os})); got != tc.want {
			t.Errorf("%q on %q: got %v, want %v", tc.expr, tc.os, got, tc.want)
		}
	}
}

// TestIfParseRefuses: what the parser cannot read answers nil, and the
// caller narrows nothing.
func TestIfParseRefuses(t *testing.T) {
	for _, s := range []string{"", "a ==", "(a", "'open", "a b", "f(a,", "${{ a }} && b", "a }} x", "1.2.3 == a", "matrix.[x]", "a[1"} {
		if e := parseIf(s); e != nil {
			t.Errorf("parseIf(%q) read it", s)
		}
	}
	for _, s := range []string{"${{ a }}", "  a && b ", "${{a==b}}", "f()", "a.b-c.d_e"} {
		if e := parseIf(s); e == nil {
			t.Errorf("parseIf(%q) refused it", s)
		}
	}
}

// TestStepIfNarrowsTheMatrix: the shapes met on real workflows (restic's
// test job): an or of two non-Windows entries, and a flag only the Linux
// entries of an include-only matrix set.
func TestStepIfNarrowsTheMatrix(t *testing.T) {
	job := "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        include:\n" +
		"          - os: windows-latest\n          - os: macOS-latest\n            fuse: false\n" +
		"          - os: ubuntu-latest\n            cloud: true\n            fuse: true"
	cases := []struct {
		stepIf string
		want   Runner
	}{
		{"matrix.os == 'ubuntu-latest' || matrix.os == 'macOS-latest'", NonWindows},
		{"((github.repository == 'o/r' && github.event_name == 'push') || github.event.pull_request.head.repo.full_name == github.repository) && (github.actor != 'dependabot[bot]') && matrix.cloud", NonWindows},
		{"matrix.fuse", NonWindows},
		{"!matrix.fuse", Unreadable}, // Windows (no key) and macOS (false)
		{"matrix.os == 'ubuntu-latest' || github.event_name == 'push'", Unreadable},
		{"matrix.fuse == false", Unreadable}, // Windows has no fuse: null == false holds (both 0 as numbers)
		{"matrix.fuse == true", NonWindows},
		{"runner.os == 'Windows' || matrix.cloud", Unreadable},
		{"runner.os != 'Windows' || matrix.cloud", NonWindows},
	}
	for _, tc := range cases {
		f := read("on: push\njobs:\n  a:\n    " + job + "\n    steps:\n      - run: echo\n        if: " + tc.stepIf + "\n")
		if f.Rejected != nil {
			t.Fatal(f.Rejected)
		}
		j := f.Jobs[0]
		got, why := StepRunner(j, j.Steps[0])
		if got != tc.want {
			t.Errorf("if: %s: got %v (%s), want %v", tc.stepIf, got, why, tc.want)
		}
	}
}

// FuzzParseIf: no input panics the if: reader or its evaluator, and an
// expression read once reads the same with its blanks doubled.
func FuzzParseIf(f *testing.F) {
	for _, s := range []string{"matrix.os == 'x' || !startsWith(runner.os, 'Win')", "a[b]['c'].*", "(1 < -2e3) && null != true", "f(g(h()), 'it''s')", "${{ !x }}"} {
		f.Add(s)
	}
	c := combo{"os": &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "windows-latest"}}
	f.Fuzz(func(t *testing.T, s string) {
		e := parseIf(s)
		if e == nil {
			return
		}
		for _, os := range []string{"", "Windows", "Linux"} {
			e.eval(ifEnv{matrix: c, os: os})
			e.eval(ifEnv{os: os})
		}
		if strings.ContainsAny(s, "'") {
			return
		}
		d := parseIf(strings.ReplaceAll(s, " ", "  "))
		if d == nil {
			t.Fatalf("%q read, its spaced form not", s)
		}
	})
}
