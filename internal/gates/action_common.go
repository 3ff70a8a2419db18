package gates

// The scan every check-action-* member shares: the optional scan-root
// operand, the tracked listing narrowed to YAML (and, for job-ref,
// markdown) under it with the shared prune set, and each file read once
// through internal/workflow.

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/walk"
	"github.com/gate-sdk/gates/internal/workflow"
)

// actionScan is a check-action-* member's corpus.
type actionScan struct {
	root  string   // the scan root as the operand spelled it, "." by default
	files []string // matching tracked paths, relative to the run directory, sorted
}

var yamlExts = []string{".yml", ".yaml"}

// scanActions resolves the scan root (the one optional operand) and the
// files under it with one of exts. A second operand, or a root that is
// not a directory, is refused: the gate could not decide what to read.
func scanActions(c *gate.Context, exts ...string) (actionScan, error) {
	s := actionScan{root: "."}
	switch len(c.Args) {
	case 0:
	case 1:
		s.root = c.Args[0]
	default:
		return s, fmt.Errorf("takes at most one operand (the scan root), got %d", len(c.Args))
	}
	rel := treePath(c, s.root)
	if walk.PathRoot(rel) {
		return s, fmt.Errorf("scan root %s is outside the run directory", s.root)
	}
	if rel != "." {
		fi, err := os.Stat(c.Dir + "/" + rel)
		if err != nil || !fi.IsDir() {
			return s, fmt.Errorf("scan root %s is not a directory", s.root)
		}
	}
	ps, err := pruneSet(c)
	if err != nil {
		return s, err
	}
	all, err := c.Tree.Files()
	if err != nil {
		return s, err
	}
	c.Recorder.Note(rel)
	s.files = workflow.Corpus(all, rel, ps.PathPruned, exts...)
	return s, nil
}

// readWorkflow reads one walked file through the shared reader.
func readWorkflow(c *gate.Context, path string) (*workflow.File, error) {
	data, err := c.Tree.Read(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, err)
	}
	return workflow.Read(path, data), nil
}

// plural spells a count with its noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// causes renders skip counts by cause in a stable order.
func causes(order []string, counts map[string]int) string {
	var parts []string
	for _, k := range order {
		if counts[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// shapes tallies what a scan met: the workflows it judged, and the
// composite actions and other YAML files the Actions-shape predicate
// passed over.
type shapes struct{ workflows, actions, other int }

// eachWorkflow reads every scanned file through the shared reader and
// hands each file of the workflow shape to fn, counting the rest. A file
// that cannot be read, or an error fn returns, ends the scan.
func eachWorkflow(c *gate.Context, files []string, fn func(path string, f *workflow.File) error) (shapes, error) {
	var n shapes
	for _, p := range files {
		f, err := readWorkflow(c, p)
		if err != nil {
			return n, err
		}
		if !f.Shape.Workflow() {
			if f.Shape.Composite() {
				n.actions++
			} else {
				n.other++
			}
			continue
		}
		n.workflows++
		if err := fn(p, f); err != nil {
			return n, err
		}
	}
	return n, nil
}

// bareMarkers reports each exemption marker written without a reason.
func bareMarkers(path, marker string, lines []int) []gate.Finding {
	var out []gate.Finding
	for _, l := range lines {
		out = append(out, gate.Finding{Class: "bare", Path: path, Line: l,
			Msg: "# " + marker + ": carries no reason, so it exempts nothing"})
	}
	return out
}

// byLine orders one file's findings by line, keeping equal lines stable.
func byLine(fs []gate.Finding) []gate.Finding {
	sort.SliceStable(fs, func(i, k int) bool { return fs[i].Line < fs[k].Line })
	return fs
}
