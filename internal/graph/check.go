package graph

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/glob"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

// Finding is one check-graph violation: the assertion's letter, where,
// and what is wrong.
type Finding struct {
	Assertion string // "A", "B", ...
	Path      string
	Line      int
	Msg       string
}

// Declared answers the knob names a member's registry row declares.
type Declared func(member string) []string

// CheckManifests asserts A (well-formedness), B (couples within trigger)
// and C (the cycle valve) over the model.
func CheckManifests(m *Model, v *Vocab, declared Declared) []Finding {
	var out []Finding
	for _, p := range m.Problems {
		for _, l := range problemLines(p.Err) {
			// assertion A: an unreadable, ambiguous or unexpandable manifest.
			out = append(out, Finding{Assertion: "A", Msg: fmt.Sprintf("%s: %s", p.Member, l)})
		}
	}
	for _, n := range m.Nodes {
		g := n.Manifest.Graph
		out = append(out, knobAdmissibility(n, declared)...)
		if len(v.Vocab) > 0 {
			for _, field := range [][]string{g.Couples, g.Trigger} {
				for _, t := range field {
					if t != "*" && !contains(v.Vocab, t) {
						// assertion A: the authored surface is in the vocabulary.
						out = append(out, Finding{Assertion: "A", Path: n.Decl, Line: g.Line, Msg: fmt.Sprintf("%s: surface %q is not in GRAPH_VOCAB (%s)", n.Name, t, v.Path)})
					}
				}
			}
		}
		out = append(out, coverage(n)...)
		out = append(out, valve(n, v)...)
	}
	return out
}

func knobAdmissibility(n Node, declared Declared) []Finding {
	if !n.Compiled {
		// A script declares no knob roster the binary can read, so its
		// tokens are held by expansion alone.
		return nil
	}
	var own []string
	if declared != nil {
		own = declared(n.Name)
	}
	for _, k := range n.Manifest.Knobs {
		own = append(own, k.Name) // the descriptor's own GATE_LOCAL_ knobs
	}
	var out []Finding
	g := n.Manifest.Graph
	for _, field := range [][]string{g.Couples, g.Trigger} {
		for _, t := range field {
			rest, ok := strings.CutPrefix(t, registry.PrefixKnob)
			if !ok {
				continue
			}
			ref, msg := registry.ParseKnobRef(rest)
			if msg != "" {
				continue // the manifest parser already refused it
			}
			if ref.Rooted() && (ref.Name == "GATE_SDK_GATES_DIR" || ref.Name == "GATE_SDK_ROOT") {
				continue // a locator every member resolves
			}
			if !contains(own, ref.Name) {
				// assertion A: a knob: token names a knob the member reads.
				out = append(out, Finding{Assertion: "A", Path: n.Decl, Line: g.Line, Msg: fmt.Sprintf("%s: %s names a knob the member does not declare", n.Name, t)})
			}
		}
	}
	return out
}

// Covers is assertion B's predicate: whether trigger pattern t contains
// couple pattern c, by exactly four branches. It is sound for the couples
// matcher and deliberately incomplete.
func Covers(t, c string) bool {
	switch {
	case t == "*":
		return true
	case t == c:
		return true
	case !strings.ContainsAny(c, "*?") && glob.Match(t, c):
		return true
	case strings.HasPrefix(t, "*.") && !strings.ContainsAny(t[2:], "*?[/") && strings.HasSuffix(c, t[1:]):
		return true
	}
	return false
}

func coverage(n Node) []Finding {
	var out []Finding
	for _, c := range distinct(n.Couples) {
		covered := false
		for _, t := range n.Trigger.Patterns {
			if Covers(t, c) {
				covered = true
				break
			}
		}
		if !covered {
			// assertion B: an edit to a coupled surface must fire the gate.
			out = append(out, Finding{Assertion: "B", Path: n.Decl, Line: n.Manifest.Graph.Line, Msg: fmt.Sprintf("%s: couple %q is covered by no trigger= token, so editing it would not fire the gate", n.Name, c)})
		}
	}
	return out
}

func valve(n Node, v *Vocab) []Finding {
	g := n.Manifest.Graph
	leading, lagging := false, false
	for _, t := range g.Couples {
		leading = leading || contains(v.Leading, t)
		lagging = lagging || contains(v.Lagging, t)
	}
	f := func(msg string) []Finding {
		return []Finding{{Assertion: "C", Path: n.Decl, Line: g.Line, Msg: n.Name + ": " + msg}}
	}
	switch {
	case !leading && g.Valve != registry.ValveNone:
		// assertion C: no leading surface, nothing may run ahead.
		return f("valve=" + g.Valve + " but the gate couples no GRAPH_LEADING surface; write valve=none")
	case g.Dir == registry.DirBi && leading && lagging && g.Valve != registry.ValveProposed:
		// assertion C: a bijection spanning a leading and a lagging surface is a cycle valve.
		return f("dir=bi spans a leading and a lagging surface, so it is a cycle valve; write valve=PROPOSED")
	}
	return nil
}

// attrRe finds href= and src= values, quoted either way.
var attrRe = handLed(newLed(`(?i)\b(href|src)\s*=\s*("([^"]*)"|'([^']*)')`, wordStart("hHsS", "\u017f")), matchAttr)

// importRe finds ESM import specifiers: import x from "..." and import("...").
var importRe = newLed(`\bimport\b(?:[^"';()]*?\bfrom)?\s*\(?\s*["']([^"']+)["']`, literalStart("import"))

func attrValues(page []byte) []string {
	var out []string
	for _, m := range attrRe.findAll(page) {
		if m[6] >= 0 {
			out = append(out, string(page[m[6]:m[7]]))
		} else {
			out = append(out, string(page[m[8]:m[9]]))
		}
	}
	return out
}

// CheckHrefs is assertion F: every non-absolute href/src of the emission
// names a file under the artifact's own directory. exists answers
// whether a path (spelled as the caller spells the artifact) is a file.
func CheckHrefs(page []byte, artifact string, exists func(string) bool) []Finding {
	return checkHrefs(attrValues(page), artifact, exists)
}

// CheckLinks is CheckHrefs and CheckRefs over one page, its href and src
// values found once for both.
func CheckLinks(page []byte, artifact string, exists func(string) bool, allowed []string) (hrefs, refs []Finding) {
	attrs := attrValues(page)
	return checkHrefs(attrs, artifact, exists), checkRefs(page, attrs, artifact, allowed)
}

func checkHrefs(attrs []string, artifact string, exists func(string) bool) []Finding {
	dir := ""
	if i := strings.LastIndexByte(artifact, '/'); i >= 0 {
		dir = artifact[:i]
	}
	var out []Finding
	for _, v := range attrs {
		if strings.Contains(v, "://") || strings.HasPrefix(v, "#") || strings.HasPrefix(v, "data:") || strings.HasPrefix(v, "mailto:") || v == "" {
			continue
		}
		ref := v
		if i := strings.IndexAny(ref, "?#"); i >= 0 {
			ref = ref[:i]
		}
		target, ok := under(dir, ref)
		if !ok || !exists(target) {
			// assertion F: a local asset resolves under the artifact's directory.
			out = append(out, Finding{Assertion: "F", Path: artifact, Msg: fmt.Sprintf("href/src %q does not name a file under the artifact's directory %s", v, orDot(dir))})
		}
	}
	return out
}

func orDot(s string) string {
	if s == "" {
		return "."
	}
	return s
}

// under joins ref onto dir lexically, answering false when the result
// leaves dir or ref is rooted.
func under(dir, ref string) (string, bool) {
	if walk.PathRoot(ref) {
		return "", false
	}
	var parts []string
	for _, s := range strings.Split(ref, "/") {
		switch s {
		case "", ".":
		case "..":
			if len(parts) == 0 {
				return "", false
			}
			parts = parts[:len(parts)-1]
		default:
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return "", false
	}
	p := strings.Join(parts, "/")
	if dir != "" {
		p = dir + "/" + p
	}
	return p, true
}

// CheckRefs is assertion H: every absolute href/src and every import
// specifier of the emission starts with an allowed prefix. The page itself
// carries none, so only a theme part can add one.
func CheckRefs(page []byte, where string, allowed []string) []Finding {
	return checkRefs(page, attrValues(page), where, allowed)
}

func checkRefs(page []byte, attrs []string, where string, allowed []string) []Finding {
	allow := allowed
	var urls []string
	for _, v := range attrs {
		if strings.Contains(v, "://") {
			urls = append(urls, v)
		}
	}
	for _, m := range importRe.findAll(page) {
		urls = append(urls, string(page[m[2]:m[3]]))
	}
	var out []Finding
	for _, u := range urls {
		ok := false
		for _, p := range allow {
			if p != "" && strings.HasPrefix(u, p) {
				ok = true
				break
			}
		}
		if !ok {
			// assertion H: one sanctioned external reference set.
			out = append(out, Finding{Assertion: "H", Path: where, Msg: fmt.Sprintf("external reference %s is outside the allowed set (GATE_SDK_GRAPH_EXTERNAL_REFS)", u)})
		}
	}
	return out
}

// capAttr declares a page's cap; edgeMark opens every drawn edge.
const (
	capAttr  = ` data-max-edges="`
	edgeMark = `<path class="cg-edge `
)

// CapOf re-derives the render cap and the edge count from an emission:
// the data-max-edges value its drawing declares and the edge paths it
// draws. A page declaring no cap is held to DefaultCap.
func CapOf(page []byte) (cap uint64, edges int) {
	cap = DefaultCap
	if i := bytes.Index(page, []byte(capAttr)); i >= 0 {
		rest := page[i+len(capAttr):]
		if j := bytes.IndexByte(rest, '"'); j >= 0 {
			if n, err := strconv.ParseUint(string(rest[:j]), 10, 64); err == nil {
				cap = n
			}
		}
	}
	return cap, bytes.Count(page, []byte(edgeMark))
}

// CheckCap is assertion I: the page draws no more edges than its cap.
func CheckCap(page []byte, where string) []Finding {
	cap, edges := CapOf(page)
	if uint64(edges) > cap {
		// assertion I: past the cap the drawing stops being a thing to read.
		return []Finding{{Assertion: "I", Path: where, Msg: fmt.Sprintf("the page draws %d edges and its cap (data-max-edges) is %d", edges, cap)}}
	}
	return nil
}
