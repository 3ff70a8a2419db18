package graph

import (
	"fmt"
	"html"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/registry"
)

// The drawing is laid out here and written as inline SVG, so the page
// draws with no script and no network. Two columns: the gates on the
// left, the coupled surfaces on the right boxed by layer and directory,
// one curve per gate and drawn couple between them. Both columns are
// ordered by barycentres (a few sweeps, each side sorted by the mean
// position of its neighbours on the other) to shorten and uncross the
// curves. Every quantity is an integer and every tie is broken by the
// previous order, itself seeded by name, so the bytes are a function of
// the model and the vocabulary alone.

// Geometry, in pixels, for a 12px monospace face.
const (
	rowH      = 22 // one node row
	nodeH     = 18
	padX      = 8
	gapX      = 360 // the band the curves cross
	margin    = 16
	groupHead = 18
	groupPad  = 6
	groupGap  = 10
	layerHead = 24
	sweeps    = 4
)

// textW estimates a monospace label's width (about 7.5px a character).
func textW(s string) int { return (len(s)*15 + 1) / 2 }

// Layout is the placed drawing.
type Layout struct {
	W, H     int
	GateX    int // left edge of the gate column
	GateW    int
	SurfX    int // left edge of the surface nodes
	SurfW    int
	Gates    []PlacedGate // in model order (index = model index)
	Surfaces []PlacedSurface
	Groups   []PlacedGroup
	Layers   []PlacedLayer
	Edges    []PlacedEdge
}

// PlacedGate is one gate node: its centre line and its neighbours.
type PlacedGate struct {
	Name, Class string
	Compiled    bool
	Y           int
	Surfaces    []int
	Tip         string
}

// PlacedSurface is one surface node.
type PlacedSurface struct {
	Name  string
	Y     int
	Gates []int
}

// PlacedGroup is one directory box inside a layer.
type PlacedGroup struct {
	Label       string
	Top, Bottom int
}

// PlacedLayer is one layer's heading, drawn when more than one layer is.
type PlacedLayer struct {
	Label string
	Y     int
}

// PlacedEdge is one gate-to-surface curve.
type PlacedEdge struct {
	Gate, Surface int
	Bi, Derived   bool
}

// dirOf groups a surface inside its layer: a pattern opening with a glob
// matches anywhere; otherwise its top directory.
func dirOf(s string) string {
	if strings.HasPrefix(s, "*") || strings.HasPrefix(s, "?") {
		return "anywhere in the tree"
	}
	top, _, nested := strings.Cut(s, "/")
	if !nested {
		return "top level"
	}
	return top + "/"
}

// bary is a mean position kept as a fraction; a node with no neighbour
// has none and sorts after those that do.
type bary struct{ sum, n int }

func (a bary) less(b bary) (less, equal bool) {
	switch {
	case a.n == 0 || b.n == 0:
		return a.n > b.n, (a.n == 0) == (b.n == 0)
	}
	l, r := a.sum*b.n, b.sum*a.n
	return l < r, l == r
}

// sortBy orders idx by key, ties kept in their current order.
func sortBy(idx []int, key func(int) bary) {
	sort.SliceStable(idx, func(i, j int) bool {
		l, _ := key(idx[i]).less(key(idx[j]))
		return l
	})
}

// Lay places the model's drawn gates and surfaces.
func Lay(m *Model, v *Vocab) *Layout {
	if v == nil {
		v = &Vocab{LayerDefault: DefaultLayer}
	}
	L := link(m)
	groups := groupSurfaces(L, v)
	order := orderByBarycentre(L, groups)
	bottom := placeSurfaces(L, groups, v)
	bottom = placeGates(L, order, bottom)
	L.W = L.SurfX + L.SurfW + groupPad + margin
	L.H = bottom + margin
	return L
}

// link answers the unplaced nodes and edges, gates in model order and
// surfaces byte-sorted, each knowing its neighbours.
func link(m *Model) *Layout {
	surfaces := m.Surfaces()
	sIdx := map[string]int{}
	for i, s := range surfaces {
		sIdx[s] = i
	}
	L := &Layout{}
	for gi, n := range m.Nodes {
		pg := PlacedGate{Name: n.Name, Class: tierClass(n.Manifest), Compiled: n.Compiled}
		kind := "script"
		if n.Compiled {
			kind = "compiled"
		}
		g := n.Manifest.Graph
		pg.Tip = fmt.Sprintf("%s: %s gate, tier=%s dir=%s valve=%s", n.Name, kind, g.Tier, g.Dir, g.Valve)
		for _, c := range n.Drawn() {
			pg.Surfaces = append(pg.Surfaces, sIdx[c])
			L.Edges = append(L.Edges, PlacedEdge{Gate: gi, Surface: sIdx[c], Bi: g.Dir == registry.DirBi, Derived: n.Derived[c]})
		}
		L.Gates = append(L.Gates, pg)
	}
	L.Surfaces = make([]PlacedSurface, len(surfaces))
	for i, s := range surfaces {
		L.Surfaces[i].Name = s
	}
	for _, e := range L.Edges {
		L.Surfaces[e.Surface].Gates = append(L.Surfaces[e.Surface].Gates, e.Gate)
	}
	return L
}

// group is one box of surfaces: a directory inside a layer.
type group struct {
	layer, dir string
	members    []int
}

// groupSurfaces boxes the surfaces: layers in GRAPH_LAYERS order, then
// others byte-sorted; each layer's directories start byte-sorted,
// surfaces by name.
func groupSurfaces(L *Layout, v *Vocab) []*group {
	var groups []*group
	byKey := map[[2]string]*group{}
	for i, ps := range L.Surfaces {
		k := [2]string{v.LayerOf(ps.Name), dirOf(ps.Name)}
		g := byKey[k]
		if g == nil {
			g = &group{layer: k[0], dir: k[1]}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.members = append(g.members, i)
	}
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := groups[i], groups[j]
		if ra, rb := layerRank(v, a.layer), layerRank(v, b.layer); ra != rb {
			return ra < rb
		}
		if a.layer != b.layer {
			return a.layer < b.layer
		}
		return a.dir < b.dir
	})
	return groups
}

// orderByBarycentre runs the sweeps: the surfaces inside each group and
// the groups inside each layer by their gates' mean rank, then the gates
// by their surfaces' mean rank. It reorders groups in place and answers
// the gate order.
func orderByBarycentre(L *Layout, groups []*group) []int {
	gateOrder := make([]int, len(L.Gates))
	gatePos := make([]int, len(L.Gates))
	for i := range gateOrder {
		gateOrder[i], gatePos[i] = i, i
	}
	surfPos := make([]int, len(L.Surfaces))
	gateBary := func(s int) bary {
		b := bary{}
		for _, g := range L.Surfaces[s].Gates {
			b.sum += gatePos[g]
			b.n++
		}
		return b
	}
	for sweep := 0; sweep < sweeps; sweep++ {
		for _, g := range groups {
			sortBy(g.members, gateBary)
		}
		groupBary := map[*group]bary{}
		for _, g := range groups {
			b := bary{}
			for _, s := range g.members {
				sb := gateBary(s)
				b.sum, b.n = b.sum+sb.sum, b.n+sb.n
			}
			groupBary[g] = b
		}
		sort.SliceStable(groups, func(i, j int) bool {
			if groups[i].layer != groups[j].layer {
				return false // layers keep their places
			}
			l, _ := groupBary[groups[i]].less(groupBary[groups[j]])
			return l
		})
		k := 0
		for _, g := range groups {
			for _, s := range g.members {
				surfPos[s] = k
				k++
			}
		}
		sortBy(gateOrder, func(g int) bary {
			b := bary{}
			for _, s := range L.Gates[g].Surfaces {
				b.sum += surfPos[s]
				b.n++
			}
			return b
		})
		for i, g := range gateOrder {
			gatePos[g] = i
		}
	}
	return gateOrder
}

// placeSurfaces sizes both columns and lays the surface column out top
// down, a heading per layer when more than one is drawn; it answers the
// column's bottom.
func placeSurfaces(L *Layout, groups []*group, v *Vocab) int {
	L.GateX = margin
	for _, g := range L.Gates {
		L.GateW = max(L.GateW, textW(g.Name)+2*padX)
	}
	L.SurfX = L.GateX + L.GateW + gapX
	for _, s := range L.Surfaces {
		L.SurfW = max(L.SurfW, textW(s.Name)+2*padX)
	}
	layersDrawn := map[string]bool{}
	for _, g := range groups {
		layersDrawn[g.layer] = true
	}
	y := margin
	last := ""
	for gi, g := range groups {
		if len(layersDrawn) > 1 && (gi == 0 || g.layer != last) {
			L.Layers = append(L.Layers, PlacedLayer{Label: v.LayerLabel(g.layer), Y: y + 14})
			y += layerHead
		}
		last = g.layer
		top := y
		y += groupHead
		for _, s := range g.members {
			L.Surfaces[s].Y = y + rowH/2
			y += rowH
		}
		L.Groups = append(L.Groups, PlacedGroup{Label: g.dir, Top: top, Bottom: y + groupPad - groupHead/2})
		y += groupPad + groupGap
	}
	return y
}

// placeGates sets each gate at its surfaces' mean height, in order,
// pushed apart to one row each and kept inside the drawing; it answers
// the drawing's new bottom.
func placeGates(L *Layout, order []int, bottom int) int {
	want := make([]int, len(order))
	for i, g := range order {
		n := len(L.Gates[g].Surfaces)
		if n == 0 {
			want[i] = margin + rowH/2
			if i > 0 {
				want[i] = want[i-1]
			}
			continue
		}
		sum := 0
		for _, s := range L.Gates[g].Surfaces {
			sum += L.Surfaces[s].Y
		}
		want[i] = sum / n
	}
	lo := margin + rowH/2
	for i := range want {
		if want[i] < lo {
			want[i] = lo
		}
		lo = want[i] + rowH
	}
	hi := max(bottom, margin+len(want)*rowH) - rowH/2
	for i := len(want) - 1; i >= 0; i-- {
		if want[i] > hi {
			want[i] = hi
		}
		hi = want[i] - rowH
	}
	for i, g := range order {
		L.Gates[g].Y = want[i]
		bottom = max(bottom, want[i]+rowH)
	}
	return bottom
}

// writeSVG writes the layout as one <svg> element. Each node carries its
// neighbours' ids as classes and one generated rule per node lights them,
// with the node's curves, while it is pointed at, focused or the target.
func writeSVG(b *strings.Builder, L *Layout, cap uint64) {
	fmt.Fprintf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"cg-svg\" class=\"cg-svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" data-max-edges=\"%d\" role=\"img\" aria-labelledby=\"cg-svg-title\">\n", L.W, L.H, L.W, L.H, cap)
	fmt.Fprintf(b, "<title id=\"cg-svg-title\">Coupling graph: %d %s, %d %s, %d %s</title>\n",
		len(L.Gates), plural(len(L.Gates), "gate", "gates"), len(L.Surfaces), plural(len(L.Surfaces), "surface", "surfaces"), len(L.Edges), plural(len(L.Edges), "edge", "edges"))
	b.WriteString("<style>\n")
	b.WriteString(svgCSS)
	for i := range L.Gates {
		fmt.Fprintf(b, "#cg-svg:has(#g%d:is(:hover,:focus,:target)) .g%d{opacity:1;--cg-edge:var(--cg-hl);stroke-width:2.2}\n", i, i)
	}
	for i := range L.Surfaces {
		fmt.Fprintf(b, "#cg-svg:has(#s%d:is(:hover,:focus,:target)) .s%d{opacity:1;--cg-edge:var(--cg-hl);stroke-width:2.2}\n", i, i)
	}
	b.WriteString("</style>\n")
	b.WriteString("<defs><marker id=\"cg-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path class=\"cg-tip\" d=\"M0,0L10,5L0,10z\"/></marker></defs>\n")
	fmt.Fprintf(b, "<a href=\"#cg-svg\" class=\"cg-clear\"><rect width=\"%d\" height=\"%d\"/></a>\n", L.W, L.H)
	b.WriteString("<g class=\"cg-groups\">\n")
	for _, l := range L.Layers {
		fmt.Fprintf(b, "<text class=\"cg-layer\" x=\"%d\" y=\"%d\">%s</text>\n", L.SurfX-groupPad, l.Y, html.EscapeString(l.Label))
	}
	for _, g := range L.Groups {
		fmt.Fprintf(b, "<rect class=\"cg-box\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"6\"/><text class=\"cg-dir\" x=\"%d\" y=\"%d\">%s</text>\n",
			L.SurfX-groupPad, g.Top, L.SurfW+2*groupPad, g.Bottom-g.Top, L.SurfX, g.Top+13, html.EscapeString(g.Label))
	}
	b.WriteString("</g>\n<g class=\"cg-edges\">\n")
	x1, x2 := L.GateX+L.GateW, L.SurfX
	for _, e := range L.Edges {
		y1, y2 := L.Gates[e.Gate].Y, L.Surfaces[e.Surface].Y
		class := fmt.Sprintf("cg-edge g%d s%d", e.Gate, e.Surface)
		if e.Derived {
			class += " cg-derived"
		}
		start := ""
		if e.Bi {
			start = " marker-start=\"url(#cg-arrow)\""
		}
		fmt.Fprintf(b, "<path class=\"%s\" d=\"M%d %dC%d %d %d %d %d %d\"%s marker-end=\"url(#cg-arrow)\"/>\n",
			class, x1, y1, x1+gapX/2, y1, x2-gapX/2, y2, x2, y2, start)
	}
	b.WriteString("</g>\n<g class=\"cg-nodes\">\n")
	for i, g := range L.Gates {
		rx := 2
		if !g.Compiled {
			rx = nodeH / 2
		}
		fmt.Fprintf(b, "<a id=\"g%d\" href=\"#g%d\" class=\"cg-node cg-gate cg-%s%s\"><title>%s</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"%d\"/><text x=\"%d\" y=\"%d\">%s</text></a>\n",
			i, i, g.Class, idClasses("s", g.Surfaces), html.EscapeString(g.Tip),
			L.GateX, g.Y-nodeH/2, L.GateW, nodeH, rx, L.GateX+padX, g.Y+4, html.EscapeString(g.Name))
	}
	for i, s := range L.Surfaces {
		fmt.Fprintf(b, "<a id=\"s%d\" href=\"#s%d\" class=\"cg-node cg-surface%s\"><title>%s: coupled by %d %s</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"2\"/><text x=\"%d\" y=\"%d\">%s</text></a>\n",
			i, i, idClasses("g", s.Gates), html.EscapeString(s.Name), len(s.Gates), plural(len(s.Gates), "gate", "gates"),
			L.SurfX, s.Y-nodeH/2, L.SurfW, nodeH, L.SurfX+padX, s.Y+4, html.EscapeString(s.Name))
	}
	b.WriteString("</g>\n</svg>\n")
}

func idClasses(prefix string, ids []int) string {
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, " %s%d", prefix, id)
	}
	return b.String()
}

// svgCSS styles the drawing from inside the <svg>, so a theme replacing
// the page stylesheet keeps the drawing legible; the page's colour
// variables reach it where the stylesheet sets them.
const svgCSS = `.cg-svg { --cg-edge: #94a3b8; --cg-hl: #dc2626; font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.cg-clear rect { fill: transparent; }
.cg-box { fill: none; stroke: #94a3b8; stroke-dasharray: 4 3; }
.cg-dir, .cg-layer { fill: var(--muted, #475569); }
.cg-layer { font-weight: 600; font-family: system-ui, sans-serif; font-size: 13px; }
.cg-edge { fill: none; stroke: var(--cg-edge); stroke-width: 1.2; }
.cg-derived { stroke-dasharray: 5 4; }
.cg-tip { fill: context-stroke; }
.cg-node rect { stroke-width: inherit; }
.cg-node text { fill: #0f172a; stroke: none; }
.cg-precommit rect { fill: #dbeafe; stroke: #2563eb; }
.cg-alignonly rect { fill: #fef3c7; stroke: #d97706; }
.cg-commitmsg rect { fill: #ede9fe; stroke: #7c3aed; }
.cg-surface rect { fill: #f1f5f9; stroke: #64748b; }
.cg-node { cursor: pointer; stroke-width: 1.2; }
.cg-node:focus { outline: none; }
.cg-svg:has(.cg-node:is(:hover,:focus,:target)) :is(.cg-edge,.cg-node) { opacity: 0.18; }
#cg-svg .cg-node:is(:hover,:focus,:target) { opacity: 1; stroke-width: 2.2; }
`
