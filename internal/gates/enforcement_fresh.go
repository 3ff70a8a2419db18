package gates

// check-enforcement-fresh: the committed enforcement-map page is what the
// emitter derives from the registries now, byte for byte.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/graph"
)

var enforcementKnobs = []string{"GATE_SDK_ENFORCEMENT_FILE", "GATE_SDK_ENFORCE_SCAN_DIR", "GATE_SDK_PRUNE_DIRS", "GATE_SDK_PRUNE_EXTRA_DIRS", "GATE_SDK_KIT_DIRS"}

// EnforcementEmission derives the enforcement-map page over a context:
// the function the --emit enforcement-map arm prints and the gate
// compares. Monitors are read from the tracked files under the scan dir,
// outside any templates/ directory and the prune set.
func EnforcementEmission(c *gate.Context) ([]byte, error) {
	if c.Coupling == nil {
		return nil, errors.New("no registry loader in this context")
	}
	reg, _, err := c.Coupling()
	if err != nil {
		return nil, err
	}
	page, err := c.Knobs.Scalar("GATE_SDK_ENFORCEMENT_FILE")
	if err != nil {
		return nil, err
	}
	scan, err := c.Knobs.Scalar("GATE_SDK_ENFORCE_SCAN_DIR")
	if err != nil {
		return nil, err
	}
	ps, err := pruneSet(c)
	if err != nil {
		return nil, err
	}
	files, err := c.Tree.Files()
	if err != nil {
		return nil, err
	}
	root := strings.Trim(strings.TrimPrefix(scan, "./"), "/")
	if root == "." {
		root = ""
	}
	prefix := root + "/"
	var todo []string
	for _, f := range files {
		rel := f
		if root != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(f, prefix); !ok {
				continue
			}
		}
		if ps.PathPruned(rel) || underTemplates(rel) || f == page {
			continue
		}
		todo = append(todo, f)
	}
	// Claimed before the first read: another whole-tree reader's bytes
	// are shared, then let go (see gate.Claimer).
	claim := c.ClaimReads(todo)
	defer claim.Done()
	var monitors []graph.Monitor
	for _, f := range todo {
		data, err := claim.Read(f)
		if err != nil {
			return nil, err
		}
		// Matched on the shared bytes in place, never copied to a string.
		if bytes.Contains(data, monitorMarker) {
			monitors = append(monitors, graph.FindMonitors(f, data)...)
		}
	}
	// The listing is the tree's own: tracked is its index lookup, not a
	// second map of every path.
	tracked := func(p string) bool {
		_, ok := c.Tree.Mode(p)
		return ok
	}
	return graph.EmitEnforcement(graph.EnforcementInput{Registry: reg, KitRoots: c.KitRoots, Page: page,
		Tracked: tracked, Monitors: monitors})
}

var monitorMarker = []byte(graph.MonitorMarker)

func underTemplates(rel string) bool {
	for d := path.Dir(rel); d != "." && d != "/"; d = path.Dir(d) {
		if path.Base(d) == "templates" {
			return true
		}
	}
	return false
}

func checkEnforcementFresh(c *gate.Context) int {
	var committed, want []byte
	var where string
	switch len(c.Args) {
	case 0:
		page, err := c.Knobs.Scalar("GATE_SDK_ENFORCEMENT_FILE")
		if err != nil {
			return c.RefuseErr(err)
		}
		where = page
		data, present, err := readOptional(c, page)
		if err != nil {
			return c.RefuseErr(err)
		}
		if !present {
			// assertion B: a missing projection is a red that could not compare.
			return c.Refuse("no enforcement-map page at %s (GATE_SDK_ENFORCEMENT_FILE); write it with gates --emit enforcement-map > %s", page, page)
		}
		committed = data
		if want, err = EnforcementEmission(c); err != nil {
			return c.Refuse("the enforcement-map emitter failed: %v", err)
		}
	case 2:
		where = c.Args[0]
		var err error
		if committed, err = os.ReadFile(runPath(c, c.Args[0])); err != nil {
			return c.Refuse("cannot read projection %s: %v", c.Args[0], unwrapPath(err))
		}
		if want, err = os.ReadFile(runPath(c, c.Args[1])); err != nil {
			return c.Refuse("cannot read emit source %s: %v", c.Args[1], unwrapPath(err))
		}
	default:
		return c.Refuse("usage: check-enforcement-fresh [projection-file emit-file]")
	}
	r := c.NewReport(map[string]string{"stale": fmt.Sprintf("regenerate the page: gates --emit enforcement-map > %s, and commit it", where)})
	if string(committed) != string(want) {
		// assertion A: the committed page is the emission, byte for byte.
		line := firstDiffLine(committed, want)
		r.Add(gate.Finding{Class: "stale", Path: where, Line: line, Msg: "the enforcement map is stale: it differs from what the registries emit now"})
	}
	return r.Done(fmt.Sprintf("%s matches the emission (%d bytes)", where, len(want)))
}

// firstDiffLine answers the first line at which two texts differ.
func firstDiffLine(a, b []byte) int {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}
