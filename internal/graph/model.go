package graph

import (
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/registry"
)

// Node is one registry member as the graph reads it.
type Node struct {
	Name     string
	Decl     string // declaration path
	Compiled bool   // a .gate descriptor
	Manifest *registry.Manifest
	// Couples is the expanded couples= field followed by the derived
	// couples; Trigger the effective trigger (trigger= else couples=,
	// expanded, then the derived couples), as the hook selects by.
	Couples []string
	// Derived marks the couples that come only from the derivation (knob
	// and module files), which the page draws dashed.
	Derived map[string]bool
	Trigger *registry.Trigger
	// Kit marks a member a kit's checks/ directory declares. Hidden holds
	// the patterns (couples and trigger) the page leaves out: a kit
	// member's plain authored token matching nothing in this tree names
	// the kit author's layout, not the consumer's (see Restrict).
	Kit    bool
	Hidden map[string]bool
	// kitOwn is a kit member's plain and kit: tokens (couples= and
	// trigger=) expanded: the patterns Restrict may hide.
	kitOwn []string
}

// Problem is a member whose manifest the model could not read or expand;
// check-graph reports it under assertion A.
type Problem struct {
	Member string
	Decl   string
	Err    error
}

// Model is the registry projected onto its couplings.
type Model struct {
	Nodes    []Node   // deduplicated, byte-sorted by name
	Skipped  []string // registry members resolving nowhere, byte-sorted
	Problems []Problem
}

// Build projects a loaded registry. Every member is read once; a member
// that resolves nowhere is skipped and counted; one whose declaration is
// ambiguous, unreadable or unexpandable becomes a Problem and stays out
// of the drawn graph.
func Build(reg *registry.Registry, env *registry.Env) *Model {
	m := &Model{}
	for _, mem := range reg.Distinct() {
		switch mem.Kind {
		case registry.Unresolved:
			m.Skipped = append(m.Skipped, mem.Name)
			continue
		case registry.Ambiguous:
			m.Problems = append(m.Problems, Problem{Member: mem.Name, Decl: mem.Path, Err: mem.Resolution.Err()})
			continue
		}
		if mem.ManifestErr != nil {
			m.Problems = append(m.Problems, Problem{Member: mem.Name, Decl: mem.Path, Err: mem.ManifestErr})
			continue
		}
		n, err := expandNode(mem, env)
		if err != nil {
			m.Problems = append(m.Problems, Problem{Member: mem.Name, Decl: mem.Path, Err: err})
			continue
		}
		m.Nodes = append(m.Nodes, n)
	}
	// The node set is byte-sorted, the same order under every locale.
	sort.Slice(m.Nodes, func(i, j int) bool { return m.Nodes[i].Name < m.Nodes[j].Name })
	sort.Strings(m.Skipped)
	return m
}

func expandNode(mem registry.Member, env *registry.Env) (Node, error) {
	man := mem.Manifest
	n := Node{Name: mem.Name, Decl: mem.Path, Compiled: mem.Kind == registry.Descriptor, Manifest: man, Kit: ownerKit(mem, env.KitRoots) != ConsumerKit}
	couples, err := env.ExpandCouples(man)
	if err != nil {
		return n, err
	}
	derived, err := env.DerivedCouples(mem.Name, man)
	if err != nil {
		return n, err
	}
	n.Couples = append(couples, derived...)
	n.Derived = map[string]bool{}
	for _, d := range derived {
		if !contains(couples, d) {
			n.Derived[d] = true
		}
	}
	n.Trigger, err = env.Trigger(mem.Name, man)
	if err != nil || !n.Kit {
		return n, err
	}
	var own []string
	for _, t := range append(slices.Clone(man.Graph.Couples), man.Graph.Trigger...) {
		if t != "*" && !strings.HasPrefix(t, registry.PrefixKnob) {
			own = append(own, t)
		}
	}
	n.kitOwn, err = registry.Expand(own, env.KitRoots, env.Knobs)
	return n, err
}

// Fires answers, byte-sorted, the drawn members an edit to path fires:
// the question the hook and --for answer, asked of the model.
func (m *Model) Fires(path string) []string {
	var out []string
	for _, n := range m.Nodes {
		if n.Trigger.Selects(path) {
			out = append(out, n.Name)
		}
	}
	return out
}

// Restrict hides, from the page only, every pattern a kit member's plain
// or kit: tokens (couples= and trigger=) expand to that present answers
// false for: a kit descriptor may couple the paths of the tree it was
// written in (this repository's internal/ sources) or kit files a
// consumer did not vendor, which the consumer's tree does not hold.
// Expansions of knob: tokens (the consumer's own configuration, present or
// not), derived couples and the consumer's own members are always drawn;
// the checks read Couples and Trigger whole. present answers whether any
// file of the tree matches a pattern; nil hides nothing.
func (m *Model) Restrict(present func(pattern string) bool) {
	if present == nil {
		return
	}
	for i := range m.Nodes {
		n := &m.Nodes[i]
		if !n.Kit {
			continue
		}
		for _, t := range n.kitOwn {
			if !n.Hidden[t] && !present(t) {
				if n.Hidden == nil {
					n.Hidden = map[string]bool{}
				}
				n.Hidden[t] = true
			}
		}
	}
}

// HiddenCount answers how many patterns Restrict left off the page.
func (m *Model) HiddenCount() int {
	k := 0
	for _, n := range m.Nodes {
		k += len(n.Hidden)
	}
	return k
}

// Drawn answers the node's distinct couples the page draws.
func (n Node) Drawn() []string {
	var out []string
	for _, c := range distinct(n.Couples) {
		if !n.Hidden[c] {
			out = append(out, c)
		}
	}
	return out
}

// Surfaces answers every drawn surface, byte-sorted, once each.
func (m *Model) Surfaces() []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range m.Nodes {
		for _, c := range n.Drawn() {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Edges counts the drawn edges: one per member and distinct couple.
func (m *Model) Edges() int {
	n := 0
	for _, node := range m.Nodes {
		n += len(node.Drawn())
	}
	return n
}

func distinct(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// problemLines splits a joined refusal into its lines.
func problemLines(err error) []string {
	var out []string
	var j interface{ Unwrap() []error }
	if errors.As(err, &j) {
		for _, e := range j.Unwrap() {
			out = append(out, problemLines(e)...)
		}
		return out
	}
	for _, l := range strings.Split(err.Error(), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}
