package declaration

import (
	"reflect"
	"strings"
	"testing"
)

const gates = "New and tightened gates"

func TestSectionTokensArms(t *testing.T) {
	cases := []struct {
		name string
		doc  string
		kind Kind
		toks []string
		bad  int
	}{
		{"absent", "# contract: x\n\n## Knob changes\n\n- `A_B` — renamed\n", Absent, nil, 0},
		{"none", "## New and tightened gates\n\nNone.\n", ExplicitNone, nil, 0},
		{"tokens", "## New and tightened gates\n\n- `check-a` — new\n  - a nested note\n- `check-b` — stricter\n", Tokens, []string{"check-a", "check-b"}, 0},
		{"no bullet at all", "## New and tightened gates\n\nsome prose\n", Unparsed, nil, 0},
		{"bolded gate name is unreadable", "## New and tightened gates\n\n- **`check-a`** — new\n- `check-b`\n", Unparsed, nil, 1},
		{"two containers both contribute", "## New and tightened gates\n- `check-a`\n## Other\n- `x`\n## New and tightened gates\n- `check-b`\n", Tokens, []string{"check-a", "check-b"}, 0},
		{"a fenced heading opens nothing", "## Other\n```\n## New and tightened gates\n- `check-a`\n```\n", Absent, nil, 0},
	}
	for _, tc := range cases {
		v := SectionTokens(tc.doc, []string{gates}, GateName)
		if v.Kind != tc.kind || !reflect.DeepEqual(v.Tokens, tc.toks) || len(v.Offending) != tc.bad {
			t.Errorf("%s: got %+v", tc.name, v)
		}
	}
}

// TestEquivalentSpellings: the same declaration spelled with '*' or '-'
// bullets, CRLF or LF endings, a closed ATX heading or another case, and
// None bare or bulleted, reads one verdict.
func TestEquivalentSpellings(t *testing.T) {
	groups := [][]string{
		{
			"## New and tightened gates\n\n- `check-a` — new\n- `check-b`\n",
			"## New and tightened gates\r\n\r\n* `check-a` — new\r\n* `check-b`\r\n",
			"## new and tightened gates ##\n- `check-a` — new\n\n- `check-b`\n",
			"## New and tightened gates\n- `check-a`\n## Other\n## New and tightened gates\n- `check-b`\n",
		},
		{
			"## New and tightened gates\n\nNone\n",
			"## New and tightened gates\n\nNone.\n",
			"## New and tightened gates\n\n- None\n",
			"## New and tightened gates\r\n* None.\r\n",
		},
	}
	for _, g := range groups {
		first := SectionTokens(g[0], []string{gates}, GateName)
		for _, doc := range g[1:] {
			if v := SectionTokens(doc, []string{gates}, GateName); v.Kind != first.Kind || !reflect.DeepEqual(v.Tokens, first.Tokens) {
				t.Errorf("%q read %+v, %q read %+v", g[0], first, doc, v)
			}
		}
	}
}

func TestTokenRules(t *testing.T) {
	for _, tc := range []struct {
		bullet string
		rule   Rule
		want   string
	}{
		{"- `check-x` — y", GateName, "check-x"},
		{"- `GATE_SDK_X` — y", GateName, ""},
		{"- `GATE_SDK_X` — y", Backticked, "GATE_SDK_X"},
		{"- **`check-x`**", Backticked, ""},
		{"- **bin/run-gates.sh** removed", Bolded, "bin/run-gates.sh"},
		{"- ** ** empty", Bolded, ""},
		{"  - `check-x` nested", GateName, ""},
		{"* `check-x`", GateName, "check-x"},
	} {
		if got := Token(tc.bullet, tc.rule); got != tc.want {
			t.Errorf("Token(%q, %d) = %q, want %q", tc.bullet, tc.rule, got, tc.want)
		}
	}
}

func TestSurfaceSet(t *testing.T) {
	if s, bad := SurfaceSet(Verdict{Kind: Absent}); s != nil || bad != nil {
		t.Error("absent is the empty set")
	}
	if s, bad := SurfaceSet(Verdict{Kind: Unparsed}); s != nil || bad != nil {
		t.Error("a heading with no bullet is the empty set")
	}
	if _, bad := SurfaceSet(Verdict{Kind: Unparsed, Offending: []Line{{1, "- x"}}}); len(bad) != 1 {
		t.Error("an unreadable bullet is answered for a finding")
	}
}

func TestHeadings(t *testing.T) {
	roster := []string{"brief: In brief", "gates: New and tightened gates", "behavior: Behavior changes"}
	aliases := []string{"gates: Tightened gates"}
	if got := Headings("gates", roster, aliases); !reflect.DeepEqual(got, []string{gates, "Tightened gates"}) {
		t.Errorf("gates headings: %q", got)
	}
	if got := Headings("knobs", roster, aliases); got != nil {
		t.Errorf("a role the roster lacks: %q", got)
	}
	if r, ok := RuleOf("gates"); !ok || r != GateName {
		t.Error("the gates role reads gate names")
	}
	if _, ok := RuleOf("brief"); ok {
		t.Error("the brief declares no tokens")
	}
	// An archived note read under an alias heading.
	v := SectionTokens("## Tightened gates\n- `check-a`\n", Headings("gates", roster, aliases), GateName)
	if v.Kind != Tokens || v.Tokens[0] != "check-a" {
		t.Errorf("alias heading: %+v", v)
	}
}

func FuzzSectionTokens(f *testing.F) {
	f.Add("## New and tightened gates\n- `check-a`\n", int(GateName))
	f.Add("## New and tightened gates\nNone\n", int(Bolded))
	f.Add("## New and tightened gates\n- **x** y\n- `z`\n", int(Backticked))
	f.Fuzz(func(t *testing.T, doc string, r int) {
		rule := Rule(1 + (r%3+3)%3)
		v := SectionTokens(doc, []string{gates}, rule)
		switch v.Kind {
		case Tokens:
			if len(v.Tokens) == 0 || len(v.Offending) != 0 {
				t.Fatalf("a Tokens verdict must carry tokens only: %+v", v)
			}
			for _, tok := range v.Tokens {
				if tok == "" || !strings.Contains(doc, tok) {
					t.Fatalf("token %q not from the doc", tok)
				}
			}
		case Absent, ExplicitNone:
			if len(v.Tokens) != 0 || len(v.Offending) != 0 {
				t.Fatalf("an empty arm carries nothing: %+v", v)
			}
		case Unparsed:
			if len(v.Tokens) != 0 {
				t.Fatalf("unparsed carries no tokens: %+v", v)
			}
		default:
			t.Fatalf("no arm: %+v", v)
		}
	})
}
