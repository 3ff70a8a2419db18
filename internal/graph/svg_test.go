package graph

import (
	"bytes"
	"encoding/xml"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/registry"
)

// node builds a drawn member coupling the given surfaces.
func node(name, dir string, couples ...string) Node {
	return Node{
		Name:     name,
		Compiled: true,
		Manifest: &registry.Manifest{Graph: &registry.Graph{Couples: couples, Dir: dir, Valve: "none", Tier: "precommit"}},
		Couples:  couples,
		Derived:  map[string]bool{},
		Trigger:  &registry.Trigger{Member: name, Patterns: couples},
	}
}

// crossings counts the pairs of drawn edges that cross between the columns.
func crossings(L *Layout) int {
	n := 0
	for i, a := range L.Edges {
		for _, b := range L.Edges[i+1:] {
			dg := L.Gates[a.Gate].Y - L.Gates[b.Gate].Y
			ds := L.Surfaces[a.Surface].Y - L.Surfaces[b.Surface].Y
			if dg*ds < 0 {
				n++
			}
		}
	}
	return n
}

func TestLayoutUncrossesByBarycentre(t *testing.T) {
	// Name order alone crosses every pair: a-z, b-y, c-x.
	m := &Model{Nodes: []Node{node("a", "one", "z.md"), node("b", "one", "y.md"), node("c", "one", "x.md")}}
	L := Lay(m, nil)
	if c := crossings(L); c != 0 {
		t.Fatalf("%d crossings after the sweeps, want 0", c)
	}
	// A larger tangle: the sweeps leave fewer crossings than name order.
	var nodes []Node
	for i := 0; i < 12; i++ {
		a, b := string(rune('a'+(i*5)%12)), string(rune('a'+(i*7+3)%12))
		nodes = append(nodes, node("g"+string(rune('a'+i)), "one", "d1/"+a+".md", "d2/"+b+".md"))
	}
	m = &Model{Nodes: nodes}
	L = Lay(m, nil)
	naive := &Layout{Gates: make([]PlacedGate, len(L.Gates)), Surfaces: make([]PlacedSurface, len(L.Surfaces)), Edges: L.Edges}
	for i := range naive.Gates {
		naive.Gates[i].Y = i
	}
	for i := range naive.Surfaces {
		naive.Surfaces[i].Y = i // byte order, one group
	}
	if got, was := crossings(L), crossings(naive); got >= was {
		t.Fatalf("barycentric order leaves %d crossings; name order has %d", got, was)
	}
}

func TestLayoutGroupsSurfacesByLayerAndDirectory(t *testing.T) {
	m := &Model{Nodes: []Node{node("a", "one", "docs/x.md", "src/a.c", "*.sh", "go.mod", "src/lib/b.c")}}
	v := &Vocab{LayerDefault: "tree", Layers: []Layer{{"src", "sources"}, {"tree", "the rest"}}, LayerRules: []LayerRule{{"src/", "src"}}}
	L := Lay(m, v)
	var labels []string
	for _, g := range L.Groups {
		labels = append(labels, g.Label)
	}
	if got := strings.Join(labels, "|"); got != "src/|anywhere in the tree|docs/|top level" {
		t.Fatalf("groups %q", got)
	}
	if len(L.Layers) != 2 || L.Layers[0].Label != "sources" || L.Layers[1].Label != "the rest" {
		t.Fatalf("layers %+v", L.Layers)
	}
	// Every surface sits inside its group's box.
	for _, s := range L.Surfaces {
		inside := false
		for _, g := range L.Groups {
			inside = inside || (s.Y > g.Top && s.Y < g.Bottom)
		}
		if !inside {
			t.Fatalf("surface %s at %d is in no box %+v", s.Name, s.Y, L.Groups)
		}
	}
	// Gates never overlap.
	m = &Model{Nodes: []Node{node("a", "one", "x"), node("b", "one", "x"), node("c", "one", "x")}}
	L = Lay(m, nil)
	for i := 1; i < len(L.Gates); i++ {
		if d := L.Gates[i].Y - L.Gates[i-1].Y; d < rowH && -d < rowH {
			t.Fatalf("gates %d and %d overlap: %+v", i-1, i, L.Gates)
		}
	}
}

func samplePage(t *testing.T) ([]byte, *Model) {
	t.Helper()
	m := &Model{Nodes: []Node{
		node("check-a", "bi", "docs/*.md", "src/a.c"),
		node("check-b<&>", "one", "src/a.c", `odd"name'.txt`),
		node("check-c", "one", "*.sh"),
	}}
	m.Nodes[2].Compiled = false
	m.Nodes[2].Manifest.Graph.Tier = "commit-msg"
	m.Nodes[0].Derived["src/a.c"] = true
	return Emit(m, Page{MaxEdges: 40}), m
}

func TestEmitIsAFunctionOfTheModel(t *testing.T) {
	a, _ := samplePage(t)
	b, _ := samplePage(t)
	if !bytes.Equal(a, b) {
		t.Fatal("two emissions of one model differ")
	}
	for _, banned := range []string{"<script", "mermaid", "://cdn", "import "} {
		if bytes.Contains(a, []byte(banned)) {
			t.Fatalf("the page carries %q; it must draw with no script and no network", banned)
		}
	}
}

// section answers the page's bytes from the first open to the matching
// close of a top-level element.
func section(t *testing.T, page []byte, open, close string) []byte {
	t.Helper()
	i := bytes.Index(page, []byte(open))
	j := bytes.Index(page[i+1:], []byte(close))
	if i < 0 || j < 0 {
		t.Fatalf("no %s...%s in the page", open, close)
	}
	return page[i : i+1+j+len(close)]
}

// strict decodes a fragment as XML, HTML's named entities allowed, and
// answers its tokens; a stray '&', an unclosed or misnested element is an
// error.
func strict(t *testing.T, frag []byte) []xml.Token {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(frag))
	d.Strict, d.Entity = true, xml.HTMLEntity
	var out []xml.Token
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("not well formed: %v\n%s", err, frag)
		}
		out = append(out, xml.CopyToken(tok))
	}
}

// entityRemnant is an entity's name left in text without its '&'.
var entityRemnant = regexp.MustCompile(`(?:[a-z]*arr|amp|lt|gt|quot|nbsp|#\d+);`)

func TestLegendIsValidHTML(t *testing.T) {
	page, _ := samplePage(t)
	toks := strict(t, section(t, page, "<aside class=\"cg-legend\"", "</aside>"))
	var keys []string
	depthB := 0
	cur := -1
	for _, tok := range toks {
		switch x := tok.(type) {
		case xml.StartElement:
			if x.Name.Local == "b" {
				depthB++
				if depthB > 1 {
					t.Fatal("a <b> inside a <b> in the legend")
				}
			}
			for _, a := range x.Attr {
				if a.Name.Local == "class" && a.Value == "cg-key" {
					keys = append(keys, "")
					cur = len(keys) - 1
				}
			}
		case xml.EndElement:
			if x.Name.Local == "b" {
				depthB--
			}
		case xml.CharData:
			if cur >= 0 {
				keys[cur] += string(x)
			}
		}
	}
	if len(keys) < 8 {
		t.Fatalf("the legend holds %d keys: %q", len(keys), keys)
	}
	seen := map[string]bool{}
	for _, k := range keys {
		k = strings.TrimSpace(k)
		if seen[k] {
			t.Fatalf("legend key %q appears twice", k)
		}
		seen[k] = true
		if m := entityRemnant.FindString(k); m != "" {
			t.Fatalf("legend key %q carries the stray entity text %q", k, m)
		}
		// No phrase of the key is said twice within it.
		for i := 0; i+16 <= len(k); i++ {
			if strings.Count(k, k[i:i+16]) > 1 {
				t.Fatalf("legend key %q repeats %q", k, k[i:i+16])
			}
		}
	}
}

func TestSVGIsWellFormedAndDrawsEveryNode(t *testing.T) {
	page, m := samplePage(t)
	toks := strict(t, section(t, page, "<svg ", "</svg>"))
	ids := map[string]bool{}
	gateText := map[string]string{}
	var edgeRefs [][]string
	inGate, capSeen := "", ""
	for _, tok := range toks {
		switch x := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range x.Attr {
				attr[a.Name.Local] = a.Value
			}
			if x.Name.Local == "svg" {
				capSeen = attr["data-max-edges"]
			}
			if id := attr["id"]; id != "" {
				if ids[id] {
					t.Fatalf("id %s twice", id)
				}
				ids[id] = true
			}
			cls := strings.Fields(attr["class"])
			if x.Name.Local == "a" && len(cls) > 1 && cls[1] == "cg-gate" {
				inGate = attr["id"]
			}
			if x.Name.Local == "path" && len(cls) > 0 && cls[0] == "cg-edge" {
				edgeRefs = append(edgeRefs, cls[1:3])
			}
		case xml.CharData:
			if inGate != "" && strings.TrimSpace(string(x)) != "" {
				gateText[inGate] = string(x) // the <text> follows the <title>
			}
		case xml.EndElement:
			if x.Name.Local == "a" {
				inGate = ""
			}
		}
	}
	if capSeen != "40" {
		t.Fatalf("data-max-edges %q, want 40", capSeen)
	}
	for i, n := range m.Nodes {
		id := "g" + string(rune('0'+i))
		if gateText[id] != n.Name {
			t.Fatalf("gate node %s labelled %q, want %q", id, gateText[id], n.Name)
		}
	}
	if len(edgeRefs) != m.Edges() {
		t.Fatalf("%d edge paths, model has %d edges", len(edgeRefs), m.Edges())
	}
	for _, r := range edgeRefs {
		if !ids[r[0]] || !ids[r[1]] {
			t.Fatalf("edge names %v, which is no node", r)
		}
	}
	// Each node has its highlight rule.
	for id := range ids {
		if (id[0] == 'g' || id[0] == 's') && id[1] >= '0' && id[1] <= '9' {
			if !bytes.Contains(page, []byte("#cg-svg:has(#"+id+":is(:hover,:focus,:target)) ."+id+"{")) {
				t.Fatalf("node %s has no highlight rule", id)
			}
		}
	}
}

func TestRestrictHidesOnlyAKitMembersAbsentPatterns(t *testing.T) {
	kit := node("check-kit", "one", "internal/x/*.go", "kits/k/SPEC.md", "scripts/k.knobs", "*.sh")
	kit.Kit = true
	kit.kitOwn = []string{"internal/x/*.go", "kits/k/SPEC.md", "*.sh"} // scripts/k.knobs came from knob:
	own := node("check-own", "one", "internal/y/*.go")
	m := &Model{Nodes: []Node{kit, own}}
	present := func(p string) bool { return p == "*.sh" }
	m.Restrict(present)
	got := strings.Join(m.Surfaces(), " ")
	if got != "*.sh internal/y/*.go scripts/k.knobs" {
		t.Fatalf("drawn surfaces %q", got)
	}
	if len(m.Nodes[0].Couples) != 4 {
		t.Fatal("Restrict must not narrow the couples the checks read")
	}
	page := Emit(m, Page{MaxEdges: 10})
	for _, gone := range []string{"internal/x/", "kits/k/SPEC.md"} {
		if bytes.Contains(page, []byte(gone)) {
			t.Fatalf("the page still names %s", gone)
		}
	}
	if !bytes.Contains(page, []byte("Left out: 2 kit-gate couplings")) {
		t.Fatal("the page does not count what it left out")
	}
}

// FuzzCapOf: reading a page's cap back never panics, and a page the
// emitter draws reads back as its declared cap and its edge count.
func FuzzCapOf(f *testing.F) {
	f.Add(`<svg data-max-edges="7"><path class="cg-edge g0 s0"/></svg>`, uint64(7))
	f.Add(` data-max-edges="`, uint64(0))
	f.Fuzz(func(t *testing.T, page string, cap uint64) {
		CapOf([]byte(page))
		m := &Model{Nodes: []Node{node("a", "one", page+"x", "y"), node("b", "bi", "y")}}
		got, edges := CapOf(Emit(m, Page{MaxEdges: cap}))
		if got != cap || edges != m.Edges() {
			t.Fatalf("read back cap %d and %d edges; emitted cap %d and %d edges", got, edges, cap, m.Edges())
		}
	})
}

// FuzzHasHeading: a heading written is a heading found.
func FuzzHasHeading(f *testing.F) {
	f.Add("The enforcement map", 2)
	f.Fuzz(func(t *testing.T, title string, level int) {
		level = 1 + (level%6+6)%6
		title = strings.TrimSpace(strings.NewReplacer("\n", " ", "\r", " ").Replace(title))
		if title == "" || strings.HasPrefix(title, "#") {
			return
		}
		doc := "intro\n" + strings.Repeat("#", level) + " " + title + "\nbody\n"
		if !HasHeading([]byte(doc), title) {
			t.Fatalf("heading %q at level %d not found", title, level)
		}
	})
}
