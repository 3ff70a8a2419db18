package ere

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// The reference matcher: a direct, recursive reading of the ERE semantics
// over the parse tree. ends(n, i) is the set of positions j at which n can
// match exactly text[i:j]. It shares only the parser with the engine (the
// parser is held to gawk by the oracle), is exponential-free but slow, and
// exists to check the automata on small inputs.
type refMatcher struct {
	text string
}

func (r *refMatcher) ends(n *node, i int) []int {
	t := r.text
	switch n.kind {
	case nSet:
		if i < len(t) && n.set.has(t[i]) {
			return []int{i + 1}
		}
		return nil
	case nBegin:
		if i == 0 {
			return []int{i}
		}
		return nil
	case nEnd:
		if i == len(t) {
			return []int{i}
		}
		return nil
	case nEmpty:
		return []int{i}
	case nGroup:
		return r.ends(n.subs[0], i)
	case nCat:
		front := []int{i}
		for _, s := range n.subs {
			front = r.stepAll(s, front)
			if len(front) == 0 {
				return nil
			}
		}
		return front
	case nAlt:
		var out []int
		for _, s := range n.subs {
			out = merge(out, r.ends(s, i))
		}
		return out
	case nRepeat:
		front := []int{i}
		var acc []int
		if n.min == 0 {
			acc = []int{i}
		}
		for k := 1; n.max < 0 || k <= n.max; k++ {
			front = r.stepAll(n.subs[0], front)
			if len(front) == 0 {
				break
			}
			if k >= n.min {
				if k > n.min && subset(front, acc) {
					break
				}
				acc = merge(acc, front)
			}
		}
		return acc
	}
	panic("bad node")
}

func (r *refMatcher) stepAll(n *node, front []int) []int {
	var out []int
	for _, j := range front {
		out = merge(out, r.ends(n, j))
	}
	return out
}

func merge(a, b []int) []int {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

func subset(a, b []int) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return false
		}
	}
	return true
}

// refFind is leftmost-longest by definition.
func refFind(n *node, text string, from int) (Span, bool) {
	r := &refMatcher{text}
	for s := from; s <= len(text); s++ {
		if e := r.ends(n, s); len(e) > 0 {
			return Span{s, e[len(e)-1]}, true
		}
	}
	return Span{}, false
}

// refCapture applies the span rule by definition over P, G, S.
func refCapture(pre []*node, g *node, suf []*node, whole *node, text string, from int) (Span, Span, bool) {
	w, ok := refFind(whole, text, from)
	if !ok {
		return w, Span{}, false
	}
	r := &refMatcher{text}
	cat := func(ns []*node) *node {
		if len(ns) == 0 {
			return &node{kind: nEmpty}
		}
		return &node{kind: nCat, subs: ns}
	}
	P, S := cat(pre), cat(suf)
	for i := w.End; i >= w.Start; i-- {
		if !slices.Contains(r.ends(P, w.Start), i) {
			continue
		}
		for j := w.End; j >= i; j-- {
			if slices.Contains(r.ends(g, i), j) && slices.Contains(r.ends(S, j), w.End) {
				return w, Span{i, j}, true
			}
		}
	}
	return w, Span{}, false
}

// patGen generates valid ERE patterns over a small alphabet, covering
// intervals, nested alternation under quantifiers, negated ranges, anchors
// inside groups and the character classes.
type patGen struct {
	r     *rand.Rand
	atoms []string
	free  bool // no gawk-friendly nesting limits
}

func newPatGen(seed int64) *patGen {
	return &patGen{
		r: rand.New(rand.NewSource(seed)),
		atoms: []string{
			"a", "b", "c", "a", "b", "c", ".", "-", `\.`, `\*`, `\(`, `\|`, `\^`, `\$`, `\[`, `\{`, `\\`, `\+`, `\?`, `\)`, "}", "]",
			"[ab]", "[^a]", "[a-c]", "[^b-c]", "[^a-b]", "[b-]", "[-a]", "[]a]", "[^]a]", "[%--]", "[--/]", "[a.*]",
			"[[:alpha:]]", "[[:digit:]]", "[^[:alpha:]]", "[[:space:]]", "[^[:space:]]", "[[:upper:]b]",
			"[[:punct:]]", "[[:alnum:]-]", "[[:xdigit:]]", "[[:lower:][:digit:]]", "[[:blank:]]", "[[:cntrl:]]",
			"[[:graph:]]", "[[:print:]]", "[^[:print:]]", "[\x80-\xff]", "\xc3", "[^\x01-\x7f]",
		},
	}
}

// The generator keeps at most one quantified group on any nesting path,
// and inside it only non-nullable quantifiers: gawk's matcher (GNU regex)
// backtracks over nullable loops nested in a repeated group and can take
// minutes on one pattern. Deeper nesting is covered
// by fixedPatterns and by the reference differential.
func (g *patGen) alt(d int) string { return g.altq(d, false) }

func (g *patGen) altq(d int, inQuant bool) string {
	k := 1
	if g.r.Intn(3) == 0 {
		k = 2 + g.r.Intn(2)
	}
	parts := make([]string, k)
	for i := range parts {
		parts[i] = g.cat(d, inQuant)
	}
	return strings.Join(parts, "|")
}

func (g *patGen) cat(d int, inQuant bool) string {
	k := 1 + g.r.Intn(3)
	var b strings.Builder
	for range k {
		b.WriteString(g.quant(d, inQuant))
	}
	return b.String()
}

func (g *patGen) quant(d int, inQuant bool) string {
	q := ""
	if g.free {
		inQuant = false
	}
	if inQuant {
		// Nullable loops inside a repeated group are what stalls GNU
		// regex; only non-nullable quantifiers go inside one.
		q = []string{"", "", "+", "{1,2}", "{2}", "{1,}"}[g.r.Intn(6)]
	} else if g.r.Intn(2) == 0 {
		switch g.r.Intn(9) {
		case 0:
			q = "*"
		case 1:
			q = "+"
		case 2:
			q = "?"
		case 3:
			q = fmt.Sprintf("{%d}", g.r.Intn(4))
		case 4:
			q = fmt.Sprintf("{%d,}", g.r.Intn(4))
		case 5:
			lo := g.r.Intn(3)
			q = fmt.Sprintf("{%d,%d}", lo, lo+g.r.Intn(3))
		default:
			q = []string{"*", "+", "?"}[g.r.Intn(3)]
		}
	}
	a, isAnchor, isGroup := g.atom(d, inQuant || q != "")
	if isAnchor || (isGroup && inQuant && !g.free) {
		return a
	}
	return a + q
}

func (g *patGen) atom(d int, inQuant bool) (string, bool, bool) {
	n := g.r.Intn(20)
	switch {
	case n == 0:
		return "^", true, false
	case n == 1:
		return "$", true, false
	case n < 8 && d > 0:
		return "(" + g.altq(d-1, inQuant) + ")", false, true
	}
	return g.atoms[g.r.Intn(len(g.atoms))], false, false
}

// fixedPatterns are hand-picked shapes the generator may miss.
var fixedPatterns = []string{
	"(deprecated|deprecated-since)", "(a|ab)(c|bcd)(d*)", "(a*)*", "(a*)+b", "(a|b)*c", "((a|b)*|c)+",
	"(^a)+", "(a|^b)c", "(a$|b)", "a^b", "a$b", "^$", "^", "$", "x*", "(^|[^a-z])ab([^a-z]|$)",
	"[0-9a-f]{8}-[0-9a-f]{4}", "a{0}", "a{0,0}b", "a{1,}", "(ab){2,3}", "(a{2}){2}", "a{3}", "[[:alpha:]]{2,}",
	"(a|b|c){0,2}c", ".*", ".+", ".?b", "(.)(.)", "a.c", "[^abc]+", "(^)*a", "($)+", "(^|a)+b", "(a|$)+",
	"b*(a|^)c", "\\\\", "[]]", "[^]]+", "\\{", "a\\{2}", "[a-a]", "[!--]", "(a+|b+)*c",
}

func TestReferenceDifferential(t *testing.T) {
	g := newPatGen(7)
	g.free = true
	subjects := smallSubjects()
	pats := append([]string{}, fixedPatterns...)
	for range 400 {
		pats = append(pats, g.alt(2))
	}
	n := 0
	for _, p := range pats {
		root, _, err := parse(p)
		if err != nil {
			t.Fatalf("generated pattern %q refused: %v", p, err)
		}
		re, err := Compile(p)
		if err != nil {
			t.Fatalf("Compile(%q): %v", p, err)
		}
		for _, s := range subjects {
			for _, from := range []int{0, 1} {
				if from > len(s) {
					continue
				}
				want, wok := refFind(root, s, from)
				got, gok := re.FindFrom(s, from)
				if wok != gok || want != got {
					t.Fatalf("FindFrom(%q, %q, %d) = %v %v, reference %v %v", p, s, from, got, gok, want, wok)
				}
				if from == 0 && re.IsMatch(s) != wok {
					t.Fatalf("IsMatch(%q, %q) = %v, reference %v", p, s, !wok, wok)
				}
				n++
			}
		}
	}
	t.Logf("%d pattern x subject x from cases agree with the reference", n)
}

// smallSubjects: every string over {a,b,c} up to length 4 plus a few with
// other bytes.
func smallSubjects() []string { return smallSubjectsN(4) }

func smallSubjectsN(maxLen int) []string {
	out := []string{""}
	level := []string{""}
	for range maxLen {
		var next []string
		for _, s := range level {
			for _, c := range "abc" {
				next = append(next, s+string(c))
			}
		}
		out = append(out, next...)
		level = next
	}
	return append(out, "-", "a-b", "A", "aB", "1", "a1c", " ", "\t", "a b", ".", "*", "a.c", "(a)", "\\", "]", "}",
		"{", "^", "$", "|", "+", "?", "[", "%", "/", "\xc3\xa9", "a\xc3\xa9b", "\x01", "\x7f", "ab-c", "deprecated-since", "aaaaa", "ababab")
}

// splitCapture answers the prefix items, group body and suffix items of an
// admitted capture pattern.
func splitCapture(t testing.TB, p string) ([]*node, *node, []*node, *node) {
	root, _, err := parse(p)
	if err != nil {
		t.Fatalf("parse(%q): %v", p, err)
	}
	items := []*node{root}
	if root.kind == nCat {
		items = root.subs
	}
	for k, it := range items {
		if it.kind == nGroup {
			return items[:k], it.subs[0], items[k+1:], root
		}
	}
	t.Fatalf("%q: no top-level group", p)
	return nil, nil, nil, nil
}

func TestCaptureReferenceDifferential(t *testing.T) {
	g := newPatGen(11)
	g.free = true
	var pats []string
	for _, p := range capPrefixesRef {
		for _, gr := range capGroupsRef {
			for _, s := range capSuffixesRef {
				pats = append(pats, p+"("+gr+")"+s)
			}
		}
	}
	// Random prefix and suffix around random alternation-free bodies.
	for len(pats) < 1500 {
		body := g.cat(1, false)
		if strings.ContainsAny(body, "(|") {
			continue
		}
		pre, suf := g.cat(0, false), g.cat(0, false)
		if g.r.Intn(3) == 0 {
			pre = ""
		}
		if g.r.Intn(3) == 0 {
			suf = ""
		}
		pats = append(pats, pre+"("+body+")"+suf)
	}
	subjects := smallSubjectsN(3)
	n := 0
	for _, p := range pats {
		c, err := CompileCapture(p)
		if err != nil {
			t.Fatalf("CompileCapture(%q): %v", p, err)
		}
		pre, body, suf, root := splitCapture(t, p)
		for _, s := range subjects {
			for _, from := range []int{0, 1} {
				if from > len(s) {
					continue
				}
				ww, wg, wok := refCapture(pre, body, suf, root, s, from)
				gw, gg, gok := c.CaptureFrom(s, from)
				if wok != gok || ww != gw || wg != gg {
					t.Fatalf("CaptureFrom(%q, %q, %d) = %v %v %v, reference %v %v %v", p, s, from, gw, gg, gok, ww, wg, wok)
				}
				n++
			}
		}
	}
	t.Logf("%d capture cases agree with the reference", n)
}

var (
	capPrefixesRef = []string{"", "a", "a*", "^", "^a*", "[^c]*", "a{1,2}", "$", "b"}
	capGroupsRef   = []string{"a", "a*", "ab?", "[a-c]+", "b*", ".*", "^a", "a$", "c?", "^", "$", "a{0}"}
	capSuffixesRef = []string{"", "a", "b*", "[b-d]*", "$", "a*$", ".", "c?", "^", "a^"}
)
