//go:build bench

package gates

import (
	"bytes"
	"fmt"

	"github.com/gate-sdk/gates/internal/gate"
)

// benchGates answers fifty scan members for the battery benchmark only
// (built with -tags bench): each reads every tracked file through the
// shared snapshot and looks for its own marker, the shape of a content
// gate, so the benchmark measures fifty readers over one read of the tree.
func benchGates() []gate.Def {
	var defs []gate.Def
	for i := 1; i <= 50; i++ {
		name := fmt.Sprintf("bench-scan-%02d", i)
		marker := []byte(fmt.Sprintf("BENCH-MARKER-%02d", i))
		defs = append(defs, gate.Def{Name: name, Owner: "-", Rule: func(c *gate.Context) int {
			files, err := c.Tree.Files()
			if err != nil {
				return c.RefuseErr(err)
			}
			r := c.NewReport(map[string]string{"marker": "remove the benchmark marker"})
			for _, f := range files {
				data, err := c.Tree.Read(f)
				if err != nil {
					return c.RefuseErr(err)
				}
				if bytes.Contains(data, marker) {
					r.Add(gate.Finding{Class: "marker", Path: f, Msg: "carries the marker"})
				}
			}
			return r.Done(fmt.Sprintf("%d files scanned", len(files)))
		}})
	}
	return defs
}
