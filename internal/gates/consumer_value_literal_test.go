package gates

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// cvlTree is a scratch publisher tree: a registry of one withheld member
// (check-harness-literal, its descriptor in scripts/) and one kit member
// (check-exec-bit, its descriptor under kit/checks/), a module at mod/
// whose files carry those members' module names, and a tracked doc.
func cvlTree(over map[string]string) map[string]string {
	files := map[string]string{
		"scripts/gates.list":                    "check-exec-bit\ncheck-harness-literal\ncheck-resolving-nowhere\n",
		"scripts/check-harness-literal.gate":    "# graph: couples=* dir=one valve=none tier=precommit\n# spec: x §check-harness-literal — y\n# install: never\n",
		"kit/checks/check-exec-bit.gate":        "# graph: couples=* dir=one valve=none tier=precommit\n# spec: x §check-exec-bit — y\n",
		"kit/README.md":                         "# Kit\n\n## Kit only heading\n",
		"mod/go.mod":                            "module example.com/m\n\ngo 1.22\n",
		"mod/internal/gates/exec_bit.go":        "package gates\n\nfunc checkExecBit() string { return \"exec\" }\n",
		"mod/internal/gates/harness_literal.go": "package gates\n\nfunc checkHarnessLiteral() string { return \"harness\" }\n",
		"docs/queue.md":                         "# Queue\n\n## Done\n\n## Release notes\n\n```\n## Fenced heading\n```\n",
		"gate-tests/x/README.md":                "## Pruned heading here\n",
		"LICENSE":                               "l\n",
	}
	for k, v := range over {
		if v == "" {
			delete(files, k)
			continue
		}
		files[k] = v
	}
	return files
}

func cvlRun(t *testing.T, dir string, knobs gatetest.Knobs) gatetest.Run {
	t.Helper()
	k := gatetest.Knobs{"GATE_SDK_NATIVE_CRATE": "mod", "GATE_SDK_NATIVE_SRC": "mod/internal", "GATE_SDK_PRUNE_DIRS": "gate-tests .git"}
	for n, v := range knobs {
		k[n] = v
	}
	return run{rule: checkConsumerValueLiteral, name: "check-consumer-value-literal", dir: dir, tree: diskTree(t, dir), knobs: k, kitRoots: []string{"kit"}}.exec()
}

func withRule(body string) map[string]string {
	return map[string]string{"mod/internal/gates/harness_literal.go": "package gates\n\n" + body + "\n"}
}

func TestConsumerValueLiteralClean(t *testing.T) {
	dir := scratchRepo(t, cvlTree(nil), nil)
	got := cvlRun(t, dir, nil)
	wantCode(t, got, 0)
	wantOut(t, got, "CONSUMER-VALUE-LITERAL: clean (2 members swept, 2 files read, 2 literals read, 0 sites valved)")
}

// TestConsumerValueLiteralArms holds assertions C and D value by value.
func TestConsumerValueLiteralArms(t *testing.T) {
	cases := []struct {
		name, value, want string // want "" is no finding
	}{
		{"tracked file", "docs/queue.md", "names the tracked file docs/queue.md (path arm)"},
		{"tracked directory", "docs", "names the tracked directory docs (path arm)"},
		{"directory with a slash", "docs/", "names the tracked directory docs (path arm)"},
		{"dot-led spelling", "./docs//queue.md", "names the tracked file docs/queue.md (path arm)"},
		{"single-segment file", "LICENSE", "names the tracked file LICENSE (path arm)"},
		{"untracked path", "docs/absent.md", ""},
		{"a prefix of a tracked name", "doc", ""},
		{"under a kit root", "kit/checks/check-exec-bit.gate", ""},
		{"the kit root", "kit", ""},
		{"the run directory", ".", ""},
		{"upward", "../docs", ""},
		{"rooted", "/docs", ""},
		{"with a blank", "docs queue.md", ""},
		{"marker heading", "## Done", "matches the heading \"## Done\" of docs/queue.md (heading arm)"},
		{"bare two-word heading", "Release notes", "matches the heading \"## Release notes\" of docs/queue.md (heading arm)"},
		{"bare one-word heading", "Done", ""},
		{"heading at another level", "# Release notes", ""},
		{"fenced heading", "Fenced heading", ""},
		{"a kit root's heading", "Kit only heading", ""},
		{"a pruned file's heading", "Pruned heading here", ""},
		{"heading text with trailing blank", "Release notes ", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := scratchRepo(t, cvlTree(withRule("var v = "+strconvQuote(tc.value))), nil)
			got := cvlRun(t, dir, nil)
			if tc.want == "" {
				wantCode(t, got, 0)
				return
			}
			wantCode(t, got, 1)
			wantOut(t, got, "mod/internal/gates/harness_literal.go:3: "+strconvQuote(tc.value)+" "+tc.want)
		})
	}
}

func strconvQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// TestConsumerValueLiteralSpellingsAgree is the differential test over the
// whole gate: every spelling of the one value reds with the one finding.
func TestConsumerValueLiteralSpellingsAgree(t *testing.T) {
	spellings := map[string]map[string]string{
		"interpreted":               withRule(`var v = "docs/queue.md"`),
		"raw":                       withRule("var v = `docs/queue.md`"),
		"escaped":                   withRule(`var v = "docs\x2fqueue.md"`),
		"concatenated across lines": withRule("var v = \"docs/\" +\n\t`queue.md`"),
		"local constant":            withRule("func f() string {\n\tconst q = \"docs/queue.md\"\n\treturn q\n}"),
		"constant in a sibling file": {
			"mod/internal/gates/harness_literal.go": "package gates\n\nvar v = queueDir + \"/queue.md\"\n",
			"mod/internal/gates/exec_bit.go":        "package gates\n\nconst queueDir = \"do\" + \"cs\" // consumer-value-exempt: the directory part alone is declared here\n\nfunc checkExecBit() string { return \"exec\" }\n",
		},
		"constant in an imported package": {
			"mod/internal/gates/harness_literal.go": "package gates\n\nimport \"example.com/m/internal/paths\"\n\nvar v = paths.Dir + \"/queue.md\"\n",
			"mod/internal/paths/paths.go":           "package paths\n\n// consumer-value-exempt: the directory part alone is declared here\nconst Dir = \"docs\"\n",
		},
		"constant in a package outside the cut": {
			"mod/internal/gates/harness_literal.go": "package gates\n\nimport \"example.com/m/internal/walk\"\n\nvar v = walk.Dir + \"/queue.md\"\n",
			"mod/internal/walk/walk.go":             "package walk\n\nconst Dir = \"docs\"\n",
		},
	}
	var lines []string
	for name, over := range spellings {
		dir := scratchRepo(t, cvlTree(over), nil)
		got := cvlRun(t, dir, nil)
		if got.Code != 1 {
			t.Fatalf("%s: exit %d, want 1\n%s%s", name, got.Code, got.Stdout, got.Stderr)
		}
		var finding []string
		for _, l := range strings.Split(got.Stdout, "\n") {
			if strings.Contains(l, "(path arm)") {
				_, msg, _ := strings.Cut(l, ": ")
				finding = append(finding, msg)
			}
		}
		if len(finding) != 1 {
			t.Fatalf("%s: findings %q, want exactly one", name, finding)
		}
		lines = append(lines, finding[0])
	}
	for _, l := range lines {
		if l != lines[0] {
			t.Fatalf("spellings disagree: %q", lines)
		}
	}
	if lines[0] != `"docs/queue.md" names the tracked file docs/queue.md (path arm)` {
		t.Fatalf("finding %q", lines[0])
	}
}

// TestConsumerValueLiteralCorpus holds assertion B: what the cut takes.
func TestConsumerValueLiteralCorpus(t *testing.T) {
	bad := "package %s\n\nconst V = \"docs/queue.md\"\n"
	pkg := func(name string) string { return strings.Replace(bad, "%s", name, 1) }
	over := map[string]string{
		"mod/internal/gates/harness_literal.go": "package gates\n\nimport (\n\t\"example.com/m/internal/knob\"\n\t\"example.com/m/internal/walk\"\n\t\"example.com/m/internal/reader\"\n)\n\nvar v = []string{knob.V, walk.V, reader.V, helper()}\n",
		"mod/internal/gates/helper.go":          "package gates\n\nfunc helper() string { return \"\" }\n",
		"mod/internal/gates/stranger.go":        pkg("gates"),
		"mod/internal/gates/gates.go":           "package gates\n\nvar table = \"docs/queue.md\"\n",
		"mod/internal/gates/x_test.go":          pkg("gates"),
		"mod/internal/knob/knob.go":             pkg("knob"),
		"mod/internal/walk/walk.go":             pkg("walk"),
		"mod/internal/reader/reader.go":         pkg("reader"),
		"mod/internal/reader/reader_test.go":    pkg("reader"),
		"mod/internal/unreached/u.go":           pkg("unreached"),
		"mod/cmd/main.go":                       pkg("main"),
	}
	dir := scratchRepo(t, cvlTree(over), nil)
	got := cvlRun(t, dir, nil)
	wantCode(t, got, 1)
	wantOut(t, got, "mod/internal/reader/reader.go:3: ")
	wantNotOut(t, got, "stranger.go", "gates.go", "x_test.go", "knob.go", "walk.go", "reader_test.go", "unreached", "cmd/")
	if n := strings.Count(got.Stdout, "(path arm)"); n != 1 {
		t.Fatalf("%d findings, want the reader's one:\n%s", n, got.Stdout)
	}
	// Declared, the same tree is clean and counts the cut: the member's
	// module, the sibling it leans on, the other member's, the reader.
	over["mod/internal/reader/reader.go"] = "package reader\n\nconst V = \"docs/queue.md\" // consumer-value-exempt: declared\n"
	dir = scratchRepo(t, cvlTree(over), nil)
	got = cvlRun(t, dir, nil)
	wantCode(t, got, 0)
	wantOut(t, got, "2 members swept, 4 files read", "1 sites valved")

	// A member whose descriptor is a shell file has no module to read.
	over["scripts/check-harness-literal.sh"] = "#!/bin/sh\n# graph: couples=* dir=one valve=none tier=precommit\n"
	over["scripts/check-harness-literal.gate"] = ""
	dir = scratchRepo(t, cvlTree(over), nil)
	got = cvlRun(t, dir, nil)
	wantCode(t, got, 0)
	wantOut(t, got, "1 members swept, 1 files read")
}

// TestConsumerValueLiteralValve holds assertion E.
func TestConsumerValueLiteralValve(t *testing.T) {
	body := strings.Join([]string{
		"var a = \"docs\" // consumer-value-exempt: same line",
		"// consumer-value-exempt: the line above",
		"var b = \"docs\"",
		"// consumer-value-exempt: two lines above is too far",
		"",
		"var c = \"docs\"",
		"var d = \"docs\" // consumer-value-exempt:",
		"var e = \"consumer-value-exempt: inside a string is no comment\"",
		"var f = \"docs\"",
		"/* consumer-value-exempt: a block comment */ var g = \"docs\"",
		"var h = \"docs/\" + // consumer-value-exempt: the opening line counts",
		"\t\"queue.md\"",
		"var i = \"docs/\" +",
		"\t\"queue.md\" // consumer-value-exempt: a continuation line is not the opening line",
	}, "\n")
	dir := scratchRepo(t, cvlTree(withRule(body)), nil)
	got := cvlRun(t, dir, nil)
	wantCode(t, got, 1)
	f := "mod/internal/gates/harness_literal.go:"
	wantOut(t, got, f+"8: \"docs\"", f+"9: malformed consumer-value-exempt: valve, no reason: // consumer-value-exempt:", f+"9: \"docs\"",
		f+"11: \"docs\"", f+"15: \"docs/queue.md\"", "help: give the consumer-value-exempt: valve its reason")
	wantNotOut(t, got, f+"3:", f+"5:", f+"10:", f+"12:", f+"13:")
	if n := strings.Count(got.Stdout, f); n != 5 {
		t.Fatalf("%d findings, want 5:\n%s", n, got.Stdout)
	}
	// Findings read top down: the valve's finding and its literal's in line order.
	i, j := strings.Index(got.Stdout, f+"8:"), strings.Index(got.Stdout, f+"9: malformed")
	if i < 0 || j < i {
		t.Fatalf("findings out of line order:\n%s", got.Stdout)
	}
}

// TestConsumerValueLiteralRefusals holds assertion A: every could-not-decide.
func TestConsumerValueLiteralRefusals(t *testing.T) {
	cases := []struct {
		name  string
		over  map[string]string
		knobs gatetest.Knobs
		want  string
	}{
		{name: "empty source root", knobs: gatetest.Knobs{"GATE_SDK_NATIVE_SRC": " "}, want: "GATE_SDK_NATIVE_SRC is empty"},
		{name: "source root names no directory", knobs: gatetest.Knobs{"GATE_SDK_NATIVE_SRC": "mod/absent"}, want: "names mod/absent, which is not a directory"},
		{name: "source root is a file", knobs: gatetest.Knobs{"GATE_SDK_NATIVE_SRC": "mod/go.mod"}, want: "not a directory"},
		{name: "no go.mod", over: map[string]string{"mod/go.mod": "", "mod/keep": "x\n"}, want: "cannot read the module file mod/go.mod"},
		{name: "a go.mod without a module", over: map[string]string{"mod/go.mod": "go 1.22\n"}, want: "mod/go.mod: no module directive"},
		{name: "no member resolves", over: map[string]string{"scripts/gates.list": "check-resolving-nowhere\n"}, want: "no registered member resolves"},
		{name: "a member's module is missing", over: map[string]string{"mod/internal/gates/exec_bit.go": "", "mod/internal/gates/other.go": "package gates\n"},
			want: "check-exec-bit's rule is compiled from gates/exec_bit.go, which mod/internal does not track"},
		{name: "a corpus file the parser rejects", over: withRule("var v = \"unterminated"), want: "mod/internal/gates/harness_literal.go:3: Go source the parser rejects"},
		{name: "an imported file the parser rejects", over: map[string]string{
			"mod/internal/gates/harness_literal.go": "package gates\n\nimport \"example.com/m/internal/walk\"\n\nvar v = walk.V + \"x\"\n",
			"mod/internal/walk/walk.go":             "package walk\n\nconst V = (\n"}, want: "mod/internal/walk/walk.go:3: Go source the parser rejects"},
		{name: "an operand", want: "usage: check-consumer-value-literal"},
		{name: "an unreadable markdown file", over: map[string]string{"docs/queue.md": "x\n"}, want: "cannot read docs/queue.md"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := scratchRepo(t, cvlTree(tc.over), nil)
			r := run{rule: checkConsumerValueLiteral, name: "check-consumer-value-literal", dir: dir, tree: diskTree(t, dir),
				knobs: gatetest.Knobs{"GATE_SDK_NATIVE_CRATE": "mod", "GATE_SDK_NATIVE_SRC": "mod/internal"}, kitRoots: []string{"kit"}}
			for n, v := range tc.knobs {
				r.knobs[n] = v
			}
			if tc.name == "an operand" {
				r.args = []string{"x"}
			}
			if tc.name == "an unreadable markdown file" {
				r.tree = &missingTree{Tree: r.tree, missing: "docs/queue.md"}
			}
			got := r.exec()
			wantCode(t, got, 2)
			if !strings.Contains(got.Stderr, tc.want) {
				t.Fatalf("stderr %q lacks %q", got.Stderr, tc.want)
			}
			if got.Stdout != "" {
				t.Fatalf("a refusal printed %q on stdout", got.Stdout)
			}
		})
	}
	// An unlistable tree refuses.
	dir := scratchRepo(t, cvlTree(nil), nil)
	got := run{rule: checkConsumerValueLiteral, name: "check-consumer-value-literal", dir: dir, tree: &missingTree{Tree: diskTree(t, dir), unlistable: true},
		knobs: gatetest.Knobs{"GATE_SDK_NATIVE_CRATE": "mod", "GATE_SDK_NATIVE_SRC": "mod/internal"}, kitRoots: []string{"kit"}}.exec()
	wantCode(t, got, 2)
	if !strings.Contains(got.Stderr, "cannot list the tracked tree") {
		t.Fatalf("stderr %q", got.Stderr)
	}
}

// missingTree is a tree one file of which cannot be read, or that cannot
// be listed at all.
type missingTree struct {
	Tree interface {
		Files() ([]string, error)
		Read(string) ([]byte, error)
		Mode(string) (uint32, bool)
	}
	missing    string
	unlistable bool
}

func (m *missingTree) Files() ([]string, error) {
	if m.unlistable {
		return nil, os.ErrPermission
	}
	return m.Tree.Files()
}
func (m *missingTree) Read(p string) ([]byte, error) {
	if p == m.missing {
		return nil, os.ErrPermission
	}
	return m.Tree.Read(p)
}
func (m *missingTree) Mode(p string) (uint32, bool) { return m.Tree.Mode(p) }

// TestRuleModuleMap holds the compiled member-to-module map: every
// registered rule answers a file that exists under internal/.
func TestRuleModuleMap(t *testing.T) {
	for _, d := range All() {
		m, ok := ruleModule(d.Rule)
		if !ok {
			t.Errorf("%s: no module", d.Name)
			continue
		}
		if !strings.HasPrefix(m, "gates/") {
			t.Errorf("%s: module %s outside the rule package", d.Name, m)
		}
		if _, err := os.Stat(filepath.Join("..", filepath.FromSlash(m))); err != nil {
			t.Errorf("%s: module %s: %v", d.Name, m, err)
		}
	}
	if m, _ := ruleModule(checkConsumerValueLiteral); m != "gates/consumer_value_literal.go" {
		t.Errorf("own module %q", m)
	}
	if _, ok := ruleModule(nil); ok {
		t.Error("a nil rule answered a module")
	}
	if !slices.Contains(universalLayers, "gates/gates.go") {
		t.Error("the rule table left the universal layers")
	}
}
