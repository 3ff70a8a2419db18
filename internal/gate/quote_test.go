package gate

import (
	"bytes"
	"strings"
	"testing"
)

func TestQuotePathAsGit(t *testing.T) {
	for in, want := range map[string]string{
		"docs/a.md":      "docs/a.md",
		"naïve notes.md": "naïve notes.md", // core.quotePath=false: UTF-8 kept
		"a\nb":           `"a\nb"`,
		"tab\there":      `"tab\there"`,
		`back\slash`:     `"back\\slash"`,
		`say "hi"`:       `"say \"hi\""`,
		"bell\a\x01\x7f": `"bell\a\001\177"`,
		"cr\r":           `"cr\r"`,
	} {
		if got := QuotePath(in); got != want {
			t.Errorf("QuotePath(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestFindingLineQuotesItsPath(t *testing.T) {
	var out bytes.Buffer
	c := &Context{Name: "check-x", Out: &out}
	r := c.NewReport(map[string]string{"k": "fix it"})
	r.Add(Finding{Class: "k", Path: "evil\nname.md", Line: 3, Msg: "bad"})
	r.Add(Finding{Class: "k", Path: "evil\nname.md", Msg: "bad"})
	if got, want := out.String(), "\"evil\\nname.md\":3: bad\n\"evil\\nname.md\": bad\n"; got != want {
		t.Errorf("finding lines %q, want %q", got, want)
	}
	if c.Findings()[0].Path != "evil\nname.md" {
		t.Errorf("the structured finding must keep the real path")
	}
}

func TestUnquotePath(t *testing.T) {
	for in, want := range map[string]string{
		"plain/path":              "plain/path",
		`"a\nb"`:                  "a\nb",
		`"tab\there"`:             "tab\there",
		`"na\303\257ve notes.md"`: "naïve notes.md", // core.quotePath=true
		`"say \"hi\""`:            `say "hi"`,
		`"back\\slash"`:           `back\slash`,
		`"\a\b\v\f\r\001\177"`:    "\a\b\v\f\r\x01\x7f",
	} {
		got, err := UnquotePath(in)
		if err != nil || got != want {
			t.Errorf("UnquotePath(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`"open`, `"`, `"lone\"`, `"x\q"`, `"x\8"`, `"x\1"`, `"x\12"`, `"x\19x"`, `"a"b"`} {
		if got, err := UnquotePath(bad); err == nil {
			t.Errorf("UnquotePath(%s) = %q, want an error", bad, got)
		}
	}
}

// FuzzQuoteRoundTrip holds that every path survives QuotePath then
// UnquotePath unchanged, and that a quoted form is one line.
func FuzzQuoteRoundTrip(f *testing.F) {
	for _, s := range []string{"a\nb", `"q"`, `\`, "naïve", "\x00\x7f", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		q := QuotePath(p)
		if strings.ContainsAny(q, "\n\r") {
			t.Fatalf("QuotePath(%q) = %q spans lines", p, q)
		}
		if strings.HasPrefix(p, `"`) && q == p {
			t.Fatalf("a name opening with a quote must be quoted: %q", p)
		}
		back, err := UnquotePath(q)
		if err != nil || back != p {
			t.Fatalf("round trip of %q: %q -> %q, %v", p, q, back, err)
		}
	})
}
