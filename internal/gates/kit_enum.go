package gates

// check-kit-enum: a couples= field that names two or more kit roots by
// hand under one glob suffix names every kit root with tracked files
// matching that suffix. The hand list is what kit:<glob> replaces; this
// gate catches the list a new kit outgrew.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/glob"
	"github.com/gate-sdk/gates/internal/registry"
)

var kitEnumHelps = map[string]string{
	"incomplete": "replace the hand list with one kit:<suffix> token, which expands to every kit root",
}

func checkKitEnum(c *gate.Context) int {
	if len(c.Args) > 0 {
		return c.Refuse("takes no operand")
	}
	// The tracked listing doubles as the repository probe; the listing
	// itself (for the vendored kit left out, a filter over every path) is
	// built only when a hand list asks it.
	if err := gate.ListingErr(c.Tree); err != nil {
		return c.RefuseErr(err)
	}
	var files []string
	listed := false
	if c.Coupling == nil {
		return c.Refuse("no registry loader in this context")
	}
	reg, _, err := c.Coupling()
	if err != nil {
		return c.RefuseErr(err)
	}
	roots := make([]string, 0, len(c.KitRoots))
	for _, r := range c.KitRoots {
		roots = append(roots, strings.Trim(strings.TrimPrefix(r, "./"), "/"))
	}
	r := c.NewReport(kitEnumHelps)
	members, groups := 0, 0
	for _, m := range reg.Distinct() {
		if m.Kind == registry.Unresolved {
			continue
		}
		if m.ManifestErr != nil {
			// assertion B: an unreadable manifest is a refusal, not a skip.
			return c.RefuseErr(m.ManifestErr)
		}
		if m.Manifest == nil || m.Manifest.Graph == nil {
			continue // check-graph's finding, not this gate's
		}
		members++
		for _, g := range handLists(m.Manifest.Graph.Couples, roots) {
			groups++
			var missing []string
			if !listed {
				var err error
				if files, err = c.Tree.Files(); err != nil {
					return c.RefuseErr(err)
				}
				listed = true
			}
			for _, root := range roots {
				if g.named[root] {
					continue
				}
				for _, f := range files {
					if glob.Match(root+"/"+g.suffix, f) {
						missing = append(missing, root)
						break
					}
				}
			}
			if len(missing) > 0 {
				// assertion A: a hand list of kit roots names them all.
				r.Add(gate.Finding{Class: "incomplete", Path: m.Path, Line: m.Manifest.Graph.Line,
					Msg: fmt.Sprintf("%s couples %s under %d kit roots by hand and omits %s, which tracks files matching it", m.Name, g.suffix, len(g.named), strings.Join(missing, ", "))})
			}
		}
	}
	return r.Done(fmt.Sprintf("%s, %s of two or more kit roots", plural(members, "member", "members"), plural(groups, "hand list", "hand lists")))
}

type kitGroup struct {
	suffix string
	named  map[string]bool
}

// handLists groups a field's literal tokens by the kit root they start
// with, keyed by the glob after it, in first-seen order; a group naming
// fewer than two roots is no hand list.
func handLists(tokens, roots []string) []kitGroup {
	var order []string
	by := map[string]*kitGroup{}
	for _, t := range tokens {
		for _, root := range roots {
			suffix, ok := strings.CutPrefix(t, root+"/")
			if !ok || suffix == "" {
				continue
			}
			g := by[suffix]
			if g == nil {
				g = &kitGroup{suffix: suffix, named: map[string]bool{}}
				by[suffix] = g
				order = append(order, suffix)
			}
			g.named[root] = true
		}
	}
	var out []kitGroup
	for _, s := range order {
		if len(by[s].named) >= 2 {
			out = append(out, *by[s])
		}
	}
	return out
}
