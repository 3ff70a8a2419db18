package gate

import (
	"bytes"
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
