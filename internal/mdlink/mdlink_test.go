package mdlink

import (
	"errors"
	"strings"
	"testing"
)

func targets(t *testing.T, doc string) []string {
	t.Helper()
	ds, err := Parse([]byte(doc))
	if err != nil {
		t.Fatalf("Parse(%q): %v", doc, err)
	}
	var out []string
	for _, d := range ds {
		out = append(out, d.Target)
		if got := doc[d.Start:d.End]; strings.Trim(got, "<>") != d.Written {
			t.Errorf("span %q does not hold the written destination %q", got, d.Written)
		}
	}
	return out
}

func TestParseSpellings(t *testing.T) {
	cases := map[string][]string{
		"see [spec](SPEC.md).":                    {"SPEC.md"},
		"![img](pics/a.png)":                      {"pics/a.png"},
		"[a](<with space.md>)":                    {"with space.md"},
		`[a](x.md "title") and [b](y.md 'q')`:     {"x.md", "y.md"},
		"[a](x.md (paren title))":                 {"x.md"},
		"[a](f(1).md)":                            {"f(1).md"},
		"[a](smoke%2Finstall.sh)":                 {"smoke/install.sh"},
		`[a](smoke\_x.md)`:                        {"smoke_x.md"},
		"[a][r]\n\n[r]: smoke/install.sh\n":       {"smoke/install.sh"},
		"[R]: <a b.md> \"t\"\n[x][r]\n":           {"a b.md"},
		"`[a](code.md)` and [b](real.md)":         {"real.md"},
		"```\n[a](fenced.md)\n```\n[b](after.md)": {"after.md"},
		"~~~~sh\n[a](x)\n~~~~\n":                  nil,
		"[a]() empty":                             {""},
		"a[0] b[1] prose [shortcut] text":         nil,
		`\[not](a link`:                           nil,
	}
	for doc, want := range cases {
		got := targets(t, doc)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("Parse(%q) = %q, want %q", doc, got, want)
		}
	}
}

func TestParseRefusesWithLine(t *testing.T) {
	cases := map[string]int{
		"ok\n[a](open.md":                2,
		"[a](<open.md)":                  1,
		"x\n\n[a](b.md \"title)":         3,
		"```\n[a](x)\n":                  1,
		"[a][missing]\n":                 1,
		"[a](bad%zzescape.md)":           1,
		"ok\n[r]:\n":                     2,
		"[r]: x.md \"t\" trailing\n":     1,
		"[a](x.md junk)":                 1,
		"[a](f(1.md)":                    1,
		"line\n\xff\xfe":                 2,
		"[a](<x<y>)":                     1,
		"text\n\n   ```\nnever closed\n": 3,
	}
	for doc, line := range cases {
		_, err := Parse([]byte(doc))
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q) = %v, want a refusal", doc, err)
			continue
		}
		if e.Line != line {
			t.Errorf("Parse(%q) refused on line %d (%v), want line %d", doc, e.Line, e, line)
		}
	}
}

// Every spelling of one target lands on one path: the differential the
// gate's verdict rests on.
func TestSpellingsLandAlike(t *testing.T) {
	spellings := []string{
		"[a](smoke/install.sh)",
		"[a](<smoke/install.sh>)",
		`[a](smoke/install.sh "a title")`,
		"[a](smoke/install.sh#fragment)",
		"[a](./smoke/install.sh)",
		"[a](smoke%2Finstall.sh)",
		"[a](smoke/%69nstall.sh?x=1)",
		"[a][r]\n\n[r]: smoke/install.sh\n",
		"[r]: <smoke/install.sh> 'title'\n",
		"[a](../gate-sdk/smoke/install.sh)",
	}
	for _, s := range spellings {
		ds, err := Parse([]byte(s))
		if err != nil || len(ds) != 1 {
			t.Fatalf("Parse(%q) = %v, %v", s, ds, err)
		}
		got, ok := Lands("gate-sdk", ds[0].Target)
		if !ok || got != "gate-sdk/smoke/install.sh" {
			t.Errorf("%q lands on %q (%v), want gate-sdk/smoke/install.sh", s, got, ok)
		}
	}
}

func TestLandsPassesOver(t *testing.T) {
	for _, tgt := range []string{"https://x/y", "mailto:a@b", "/abs/path", "#anchor", "", "../../escape.md", "?q"} {
		if p, ok := Lands("kit", tgt); ok {
			t.Errorf("Lands(kit, %q) = %q, want passed over", tgt, p)
		}
	}
	if p, ok := Lands("kit", "../other/SPEC.md"); !ok || p != "other/SPEC.md" {
		t.Errorf("sibling lands on %q %v", p, ok)
	}
}

func TestRewriteSpecLinks(t *testing.T) {
	leaves := []string{"foo", "bar"}
	cases := map[string]string{
		"[s](SPEC.md)":                      "[s](https://h/x/foo/SPEC)",
		"[s](../bar/SPEC.md#a-b)":           "[s](https://h/x/bar/SPEC#a-b)",
		"[s](<SPEC.md>)":                    "[s](https://h/x/foo/SPEC)",
		"[s][r]\n\n[r]: SPEC.md#x\n":        "[s][r]\n\n[r]: https://h/x/foo/SPEC#x\n",
		"[s](../baz/SPEC.md)":               "[s](../baz/SPEC.md)",
		"[s](./SPEC.md)":                    "[s](./SPEC.md)",
		`[s](SPEC.md "t")`:                  `[s](SPEC.md "t")`,
		"[s](docs/SPEC.md)":                 "[s](docs/SPEC.md)",
		"a [s](SPEC.md) b [t](SPEC.md#q) c": "a [s](https://h/x/foo/SPEC) b [t](https://h/x/foo/SPEC#q) c",
	}
	for in, want := range cases {
		got, err := RewriteSpecLinks([]byte(in), "https://h/x/", "foo", leaves)
		if err != nil || string(got) != want {
			t.Errorf("RewriteSpecLinks(%q) = %q, %v; want %q", in, got, err, want)
		}
		same, err := RewriteSpecLinks([]byte(in), "", "foo", leaves)
		if err != nil || string(same) != in {
			t.Errorf("empty base rewrote %q to %q (%v)", in, same, err)
		}
	}
	if _, err := RewriteSpecLinks([]byte("[a](open"), "https://h", "foo", leaves); err == nil {
		t.Error("a README the reader cannot read was rewritten blind")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"[a](b)", "[a][b]\n[b]: c", "```\nx\n```", "[a](<b> \"t\")", "`[x](y)`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		ds, err := Parse([]byte(doc))
		if err != nil {
			return
		}
		for _, d := range ds {
			if d.Start < 0 || d.End > len(doc) || d.Start > d.End {
				t.Fatalf("span %d..%d outside a %d-byte document", d.Start, d.End, len(doc))
			}
		}
		out, err := RewriteSpecLinks([]byte(doc), "", "k", nil)
		if err != nil || string(out) != doc {
			t.Fatalf("empty base changed the document")
		}
		if _, err := RewriteSpecLinks([]byte(doc), "https://h", "k", []string{"k"}); err != nil {
			t.Fatalf("rewrite refused what Parse read: %v", err)
		}
	})
}
