package gates

import (
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/registry"
)

func findingNames(fs []nameFinding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.name+": "+f.msg)
	}
	return out
}

func hasFinding(fs []nameFinding, name, part string) bool {
	for _, f := range fs {
		if f.name == name && strings.Contains(f.msg, part) {
			return true
		}
	}
	return false
}

// TestRosterParityMatrix holds assertion B's scope over whole rosters.
func TestRosterParityMatrix(t *testing.T) {
	roster := []rosterEntry{{"check-a1", "kit-a"}, {"check-a2", "kit-a"}, {"check-b1", "kit-b"}, {"check-own", "-"}}
	cases := []struct {
		name string
		in   parityInput
		want []string // "<name>: <message part>"
	}{
		{"subset vendoring: only kit-a owes descriptors",
			parityInput{descriptors: []string{"check-a1", "check-a2"}, roster: roster, vendored: []string{"kit-a"}}, nil},
		{"near miss: the in-scope kit is the one missing a descriptor",
			parityInput{descriptors: []string{"check-a1", "check-b1"}, roster: roster, vendored: []string{"kit-a"}},
			[]string{"check-a2: no .gate descriptor"}},
		{"consumer sentinel out of scope in an adopter",
			parityInput{descriptors: []string{"check-a1", "check-a2"}, roster: roster, vendored: []string{"kit-a"}, publishing: false}, nil},
		{"consumer sentinel in scope in the publishing tree",
			parityInput{descriptors: []string{"check-a1", "check-a2"}, roster: roster, vendored: []string{"kit-a"}, publishing: true},
			[]string{"check-own: no .gate descriptor"}},
		{"a descriptor with nothing compiled is red whatever the scope",
			parityInput{descriptors: []string{"check-a1", "check-a2", "check-zz"}, roster: roster, vendored: nil},
			[]string{"check-zz: names no compiled gate"}},
		{"reference-only allows a stranded implementation",
			parityInput{descriptors: []string{"check-a1"}, roster: roster, vendored: []string{"kit-a"}, refOnly: map[string]bool{"check-a2": true}}, nil},
	}
	for _, tc := range cases {
		got := rosterParity(tc.in)
		if len(got) != len(tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, findingNames(got), tc.want)
			continue
		}
		for _, w := range tc.want {
			name, part, _ := strings.Cut(w, ": ")
			if !hasFinding(got, name, part) {
				t.Errorf("%s: missing %q in %q", tc.name, w, findingNames(got))
			}
		}
	}
}

// TestRegistrationJoin holds assertion I's forward arm, its stale
// declarations and its reverse arm, silence beside each finding.
func TestRegistrationJoin(t *testing.T) {
	roster := []rosterEntry{{"check-a1", "kit-a"}, {"check-a2", "kit-a"}, {"check-b1", "kit-b"}}
	in := parityInput{roster: roster, vendored: []string{"kit-a"}}
	list := func(text string) *registry.List {
		l, err := registry.ParseList("gates.list", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	// An in-scope member the registration omits, undeclared: red.
	got := registrationJoin(in, list("check-a1\n"), nil)
	if len(got) != 1 || !hasFinding(got, "check-a2", "neither registered nor declared") {
		t.Errorf("omitted: %q", findingNames(got))
	}
	// Declared with a reason: silent; the unvendored kit's member owes nothing.
	if got := registrationJoin(in, list("check-a1\n# unregistered: check-a2 — not this tree's\n"), nil); len(got) != 0 {
		t.Errorf("declared: %q", findingNames(got))
	}
	// Stale: declared and registered; reasonless.
	got = registrationJoin(in, list("check-a1\ncheck-a2\n# unregistered: check-a2 — stale\n# unregistered: check-a1\n"), nil)
	if !hasFinding(got, "check-a2", "but line 2 registers it") || !hasFinding(got, "check-a1", "carries no reason") {
		t.Errorf("stale: %q", findingNames(got))
	}
	// Reverse: a dispatch the binary lacks is red; a shell gate of the
	// same registry, carried by nothing compiled, is lawful.
	got = registrationJoin(in, list("check-a1\ncheck-a2\ncheck-ghost\ncheck-shell\n"), map[string]int{"check-a1": 1, "check-a2": 2, "check-ghost": 3})
	if len(got) != 1 || !hasFinding(got, "check-ghost", "carries no gate of that name") {
		t.Errorf("reverse: %q", findingNames(got))
	}
}

func TestMarkdownSection(t *testing.T) {
	doc := "# T\n\n## A\n\na body\n\n### A.1\n\nnested\n\n```\n## not a heading\n```\n\n## B\n\nb body\n"
	body, ok := markdownSection(doc, "A")
	text := strings.Join(body, "\n")
	if !ok || !strings.Contains(text, "nested") || !strings.Contains(text, "not a heading") || strings.Contains(text, "b body") {
		t.Errorf("section A: ok=%v %q", ok, text)
	}
	if _, ok := markdownSection(doc, "C"); ok {
		t.Error("a missing heading was found")
	}
}

func TestHeredocRegistries(t *testing.T) {
	script := "x\ncat >scripts/gates.list <<'LIST'\ncheck-a\n# unregistered: check-b — why\nLIST\n  cat > other.txt <<EOF\nno\nEOF\ncat >>\"$D/gates.list\" <<LIST\ncheck-c\nLIST\n"
	got := heredocRegistries(script)
	if len(got) != 2 || got[0].line != 2 || !strings.Contains(got[0].text, "check-a") || !strings.Contains(got[1].text, "check-c") {
		t.Errorf("heredocs: %+v", got)
	}
}

func TestManifestLine(t *testing.T) {
	for l, want := range map[string]bool{
		"// graph: couples=*":           true,
		"  # install: zero-config":      true,
		"/* no-fixture: why */":         true,
		"// graphics: no":               false,
		"x := \"# graph: in a string\"": false,
		"// spec: a pointer is prose":   false,
	} {
		if got := manifestLine(l); got != want {
			t.Errorf("manifestLine(%q) = %v, want %v", l, got, want)
		}
	}
	var lines []int
	goCommentLines("x.go", []byte("package x\n\n// graph: a\nvar s = `\n# graph: b\n`\n/* one\ninstall: c */\n"), func(line int, text string) {
		if manifestLine(text) || strings.HasPrefix(strings.TrimSpace(text), "install:") {
			lines = append(lines, line)
		}
	})
	if len(lines) != 2 || lines[0] != 3 || lines[1] != 8 {
		t.Errorf("Go comment lines: %v", lines)
	}
}

func FuzzMarkdownSection(f *testing.F) {
	f.Add("## A\nx\n## B\n", "A")
	f.Add("```\n## A\n```\n", "A")
	f.Fuzz(func(t *testing.T, doc, title string) {
		body, ok := markdownSection(doc, title)
		if !ok && len(body) != 0 {
			t.Fatalf("no section but a body %q", body)
		}
	})
}

func FuzzHeredocRegistries(f *testing.F) {
	f.Add("cat >gates.list <<'L'\na\nL\n")
	f.Add("cat >gates.list <<L\n")
	f.Fuzz(func(t *testing.T, script string) {
		for _, h := range heredocRegistries(script) {
			if h.line < 1 || !strings.Contains(script, h.text) {
				t.Fatalf("heredoc %+v not from the script", h)
			}
		}
	})
}
