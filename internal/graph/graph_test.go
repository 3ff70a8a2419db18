package graph

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/registry"
)

type mapFiles map[string]string

func (m mapFiles) ReadFile(name string) ([]byte, error) {
	if s, ok := m[name]; ok {
		return []byte(s), nil
	}
	return nil, fs.ErrNotExist
}

func TestCoversFourBranches(t *testing.T) {
	for _, c := range []struct {
		trigger, couple string
		want            bool
	}{
		{"*", "anything/*.x", true},        // branch 1
		{"docs/*.md", "docs/*.md", true},   // branch 2
		{"src/*", "src/lib/a.c", true},     // branch 3: literal couple, bash pattern
		{"src/*", "src/*.c", false},        // branch 3 asks literal couples only
		{"*.md", "docs/deep/*.md", true},   // branch 4
		{"*.md", "docs/*.markdown", false}, // suffix differs
		{"*.m?", "docs/a.md", true},        // branch 3 again
		{"*.m?", "docs/*.md", false},       // no branch contains a pattern in a pattern
		{"docs/*.md", "docs/a/b.md", true}, // '*' crosses '/'
		{"docs/a.md", "docs/*.md", false},  // narrower trigger
		{"*.md/x", "a.md", false},          // not a *.<ext> trigger
		{"scripts/gates.list", "scripts/gates.list", true},
	} {
		if got := Covers(c.trigger, c.couple); got != c.want {
			t.Errorf("Covers(%q, %q) = %v, want %v", c.trigger, c.couple, got, c.want)
		}
	}
}

func TestReadVocab(t *testing.T) {
	v, err := ReadVocab(mapFiles{}, "g/graph-vocab.knobs", "g")
	if err != nil || v.Present || len(v.Vocab) != 0 || v.LayerDefault != DefaultLayer {
		t.Fatalf("absent document: %+v %v", v, err)
	}
	doc := "# vocab\nGRAPH_VOCAB[] = a\nGRAPH_VOCAB[] = b\nGRAPH_LEADING =\nGRAPH_LAYERS[] = k:the kit\nGRAPH_LAYER_RULES[] = c:/x:k\nGRAPH_LAYER_DEFAULT = other\n"
	v, err = ReadVocab(mapFiles{"g/graph-vocab.knobs": doc}, "g/graph-vocab.knobs", "g")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(v.Vocab, ",") != "a,b" || len(v.Leading) != 0 || v.LayerDefault != "other" {
		t.Fatalf("%+v", v)
	}
	// A rule splits at its last ':', so its prefix may hold one.
	if v.LayerOf("c:/x/y") != "k" || v.LayerOf("d") != "other" || v.LayerLabel("k") != "the kit" {
		t.Fatalf("layers: %q %q", v.LayerOf("c:/x/y"), v.LayerOf("d"))
	}
	for _, c := range []struct{ doc, want string }{
		{"GRAPH_NAMES[] = a\n", "g/v:1: GRAPH_NAMES is not a graph vocabulary name"},
		{"\nGRAPH_VOCAB = a\n", "g/v:2: GRAPH_VOCAB is a list"},
		{"GRAPH_LAYER_DEFAULT[] = a\n", "g/v:1: GRAPH_LAYER_DEFAULT is a scalar"},
		{"GRAPH_LAYERS[] = no-colon\n", "is not <id>:<label>"},
		{"GRAPH_LAYER_RULES[] = docs/:bad-id\n", "is not <path-prefix>:<layer-id>"},
		{"GRAPH_VOCAB[] a\n", "g/v:1:"},
	} {
		_, err := ReadVocab(mapFiles{"g/v": c.doc}, "g/v", "g")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.doc, err, c.want)
		}
	}
	if _, err := ReadVocab(mapFiles{"g/graph-vocab.sh": ""}, "g/v", "g"); err == nil || !strings.Contains(err.Error(), "retired") {
		t.Fatalf("legacy vocab: %v", err)
	}
}

func TestLayerRuleIsAPrefixNotAGlob(t *testing.T) {
	v := &Vocab{LayerDefault: "d", LayerRules: []LayerRule{{Prefix: "", Layer: "never"}, {Prefix: "k*/", Layer: "glob"}, {Prefix: "kits/", Layer: "kit"}}}
	if v.LayerOf("kits/a") != "kit" || v.LayerOf("k*/a") != "glob" || v.LayerOf("x") != "d" {
		t.Fatal("layer rules are not plain prefixes, first match wins, empty never matches")
	}
}

func TestAmendManifests(t *testing.T) {
	doc := "Intro `# graph: couples=a.md dir=one valve=none tier=precommit` and `# graph: couples=b.md dir=bi valve=none tier=precommit`.\n" +
		"A mention: `# graph: couples=` and `# graph: prose here`.\n" +
		"```\n# graph: couples=c.md dir=one valve=none tier=precommit\nnot a manifest\n```\n" +
		"```proto\n# graph: couples=ignored!! dir=one\n```\n" +
		"~~~~\n  # graph: couples=d.md dir=one valve=none tier=precommit\n~~~~\n"
	got := AmendManifests([]byte(doc))
	var lines []int
	for _, s := range got {
		lines = append(lines, s.Line)
	}
	if len(got) != 4 || got[0].Line != 1 || got[1].Line != 1 || got[2].Line != 4 || got[3].Line != 11 {
		t.Fatalf("spans %v: %+v", lines, got)
	}
	if !strings.HasPrefix(got[1].Text, "couples=b.md") {
		t.Fatalf("two spans on one line are read apart: %+v", got[1])
	}
}

func TestCheckAmendment(t *testing.T) {
	shape := func(name string) (registry.Shape, bool) {
		switch name {
		case "WORDS":
			return registry.ShapeWords, true
		case "LIST":
			return registry.ShapeIndexed, true
		case "DIR":
			return registry.ShapeScalar, true
		}
		return 0, false
	}
	for _, c := range []struct {
		text, want string
	}{
		{"couples=a.md,knob:DIR/x.md,kit:checks/*.gate trigger=* dir=one", ""},
		{"couples=a.md,a.md", `repeats token "a.md"`},
		{"couples=a b", ""},
		{"couples=env:X", "is not a glob"},
		{"couples=kit:knob:X", "is not a glob"},
		{"couples=knob:WORDS", "word list"},
		{"couples=knob:LIST/x", "is a list"},
		{"couples=knob:NONE", "declared by no kit"},
		{"couples=x gen=y", "gen= is retired"},
	} {
		fs := CheckAmendment("SPEC-x.md", AmendSpan{Line: 3, Text: c.text}, shape)
		var msgs []string
		for _, f := range fs {
			msgs = append(msgs, f.Msg)
		}
		joined := strings.Join(msgs, "|")
		if c.want == "" && len(fs) != 0 || c.want != "" && !strings.Contains(joined, c.want) {
			t.Errorf("%q: %q, want %q", c.text, joined, c.want)
		}
	}
}

func TestRefsHrefsAndCap(t *testing.T) {
	page := []byte(`<link href="a.css"><img src='sub/b.png'><a href="#x">x</a><a href="../up.html">u</a>` +
		`<script type="module">import m from "https://cdn.example/m.mjs"; import("https://other.example/y.mjs");</script>` +
		`<a href="https://ok.example/z">z</a>`)
	f := CheckHrefs(page, "site/g.html", func(p string) bool { return p == "site/a.css" || p == "site/sub/b.png" })
	if len(f) != 1 || !strings.Contains(f[0].Msg, "../up.html") {
		t.Fatalf("hrefs: %+v", f)
	}
	h := CheckRefs(page, "p", []string{"https://ok.example/", "https://cdn.example/"})
	if len(h) != 1 || !strings.Contains(h[0].Msg, "https://other.example/y.mjs") {
		t.Fatalf("refs: %+v", h)
	}
	if n := len(CheckRefs(page, "p", nil)); n != 3 {
		t.Fatalf("without the consumer prefixes: %d findings (no reference is seeded)", n)
	}
	two := `<svg data-max-edges="2"><path class="cg-edge g0 s0"/><path class="cg-edge g0 s1 cg-derived"/><path class="cg-box"/><path class="cg-edge g1 s1"/></svg>`
	cap, edges := CapOf([]byte(two))
	if cap != 2 || edges != 3 || len(CheckCap([]byte(two), "p")) != 1 {
		t.Fatalf("cap %d edges %d", cap, edges)
	}
	if cap, _ := CapOf([]byte(`<path class="cg-edge a"/>`)); cap != DefaultCap || len(CheckCap([]byte(`<svg data-max-edges="3"><path class="cg-edge a"/></svg>`), "p")) != 0 {
		t.Fatalf("a page declaring no cap is held to %d, got %d", DefaultCap, cap)
	}
}

func FuzzReadVocab(f *testing.F) {
	f.Add("GRAPH_VOCAB[] = a\nGRAPH_LAYER_RULES[] = x:y\n")
	f.Add("GRAPH_LAYER_DEFAULT = z\n# c\n\nGRAPH_LAYERS[] = a:b\n")
	f.Fuzz(func(t *testing.T, doc string) {
		v, err := ReadVocab(mapFiles{"v": doc}, "v", "g")
		if err == nil {
			for _, r := range v.LayerRules {
				if !layerID(r.Layer) {
					t.Fatalf("accepted rule with layer %q", r.Layer)
				}
			}
		} else if !strings.HasPrefix(err.Error(), "v:") {
			t.Fatalf("refusal without file and line: %v", err)
		}
	})
}

func FuzzAmendManifests(f *testing.F) {
	f.Add("`# graph: couples=a dir=one`\n```\n# graph: x=y\n```\n")
	f.Fuzz(func(t *testing.T, doc string) {
		n := strings.Count(doc, "\n") + 1
		for _, s := range AmendManifests([]byte(doc)) {
			if s.Line < 1 || s.Line > n {
				t.Fatalf("span line %d outside 1..%d", s.Line, n)
			}
			CheckAmendment("x", s, nil)
		}
	})
}
