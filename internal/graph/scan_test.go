package graph

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// The page patterns, each searched only where it may start, against the
// whole-page search they stand for.
var leds = map[string]led{"attr": attrRe, "import": importRe, "maxEdges": maxEdgesRe, "edge": edgeRe}

var ledSeeds = []string{
	``,
	`<a href="x.html">x</a> <img SRC='p.png'> srcset="no" xhref="y" href = 'z'`,
	"<script type=module>import mermaid from \"https://cdn/x.mjs\"; import('./y.js'); reimport('n')</script>",
	"%%{init: {\"maxEdges\": 9, maxEdges : 12}}%%\nflowchart LR\n  a --> b\n\n  c -.-> d\n\tx &lt;--&gt; y  \nnot an -- edge\n",
	"xſrc='a' ſrc='b' Href=\"c\" hrEF='d'",
	"A\n-->\nB\n  p --> q\n",
	"import\nfrom 'z'; _import('w') import(\"v\")",
}

func sameMatches(t *testing.T, page []byte) {
	t.Helper()
	for name, l := range leds {
		got, want := l.findAll(page), l.all.Get().FindAllSubmatchIndex(page, -1)
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s over %q:\n got %v\nwant %v", name, page, got, want)
		}
		if n := l.count(page); n != len(want) {
			t.Fatalf("%s over %q: count %d, want %d", name, page, n, len(want))
		}
	}
}

func TestLedMatchesWholePageSearch(t *testing.T) {
	for _, s := range ledSeeds {
		sameMatches(t, []byte(s))
	}
	// The emitted page itself, with every pattern firing.
	sameMatches(t, []byte(pageSample))
}

// pageSample is a page in the emission's shape.
const pageSample = `<!doctype html><html><head><link rel="stylesheet" href="graph.css">
<script type="module">import mermaid from "https://cdn.jsdelivr.net/npm/mermaid@11/dist/mermaid.esm.min.mjs";
mermaid.initialize({ startOnLoad: true, maxEdges: 500 });</script></head><body>
<pre class="mermaid">
flowchart LR
  check_a --> surface_1
  check_b -.-> surface_2
  surface_2 &lt;--&gt; check_c
</pre><img src='logo.svg'></body></html>`

func FuzzLedMatchesWholePageSearch(f *testing.F) {
	for _, s := range ledSeeds {
		f.Add(s)
	}
	f.Add(pageSample)
	f.Fuzz(func(t *testing.T, s string) {
		sameMatches(t, []byte(s))
	})
}

// Pages built from the tokens the patterns turn on, at random (a fixed
// seed): every hand-written matcher agrees with its expression on each.
func TestLedOnTokenSoup(t *testing.T) {
	tokens := []string{"a", "bc", " ", "  ", "\n", "\n\n", "\t", "\r", "\f", "\v", "-", "--", "-.-", ">", "&gt;", "<", "&lt;", "&",
		"href", "HREF", "hReF", "src", "SRC", "ſrc", "ſ", "x", "=", "\"", "'", "import", "from", "(", ")", ";", "maxEdges", ":", "12", "é"}
	rng := rand.New(rand.NewSource(14))
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for k := rng.Intn(24); k >= 0; k-- {
			b.WriteString(tokens[rng.Intn(len(tokens))])
		}
		sameMatches(t, []byte(b.String()))
	}
}
