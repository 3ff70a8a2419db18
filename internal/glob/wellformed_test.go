package glob

import (
	"strings"
	"testing"
)

func TestProblem(t *testing.T) {
	for _, ok := range []string{"*.sh", "src/**/x", "[abc]", "[!a-z]*", "[]]", "[!]]x", `\[abc`, "[[:alpha:]_]", "[[=a=]]", "[[.-.]]", `a\*b`, "kit:x", "?"} {
		if msg := Problem(ok); msg != "" {
			t.Errorf("Problem(%q) = %q, want well-formed", ok, msg)
		}
	}
	for bad, want := range map[string]string{
		"[abc":        "never closes",
		"x/[a-z":      "never closes",
		"[]":          "never closes",
		"[!]":         "never closes",
		`a\`:          "lone backslash",
		"[[:alpha]":   "[: at byte 2 never closes",
		"[[:nope:]]":  "not a character class",
		"ok,[[=a]":    "never closes",
		"[a\\]":       "never closes",
		"docs/[ab]/[": "never closes",
	} {
		if msg := Problem(bad); !strings.Contains(msg, want) {
			t.Errorf("Problem(%q) = %q, want it to say %q", bad, msg, want)
		}
	}
}

// FuzzProblem holds two properties over arbitrary patterns: Problem never
// panics, and an unclosed '[' appended to a well-formed pattern (outside
// any bracket, since the pattern's own brackets all close) is refused.
func FuzzProblem(f *testing.F) {
	for _, s := range []string{"[abc]", "[abc", "[[:alpha:]]", `\[`, "[!]]", "a*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if Problem(p) != "" || strings.HasSuffix(p, `\`) {
			return
		}
		if Problem(p+"[x") == "" {
			t.Fatalf("%q is well-formed, yet %q is accepted", p, p+"[x")
		}
	})
}
