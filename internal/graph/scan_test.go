package graph

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// The page patterns, each searched only where it may start, against the
// whole-page search they stand for.
var leds = map[string]led{"attr": attrRe, "import": importRe}

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
<script type="module">import x from "https://cdn.example/x.mjs";</script></head><body>
<svg xmlns="http://www.w3.org/2000/svg" id="cg-svg" data-max-edges="500">
<a id="g0" href="#g0" class="cg-node cg-gate"><rect x="16" y="8"/><text>check_a</text></a>
<path class="cg-edge g0 s0" d="M1 2C3 4 5 6 7 8" marker-end="url(#cg-arrow)"/>
</svg><img src='logo.svg'></body></html>`

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
