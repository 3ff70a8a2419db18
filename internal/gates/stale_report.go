package gates

import (
	"fmt"

	"github.com/gate-sdk/gates/internal/diff"
	"github.com/gate-sdk/gates/internal/gate"
)

// reportStaleDiff shows how a stale projection differs from its emission:
// the normal-format diff from the committed bytes to the emitted ones,
// capped at diff.StaleReportCap lines, on stderr under one heading line.
// stdout keeps the output contract (the finding and its help line); the
// diff is context a person reads to see what regenerating would change.
func reportStaleDiff(c *gate.Context, where string, committed, want []byte) {
	hunks := diff.Normal(textLines(committed), textLines(want))
	shown := diff.Capped(hunks, diff.StaleReportCap)
	more := ""
	if len(shown) < len(hunks) {
		more = fmt.Sprintf(", the first %d of %d lines", len(shown), len(hunks))
	}
	fmt.Fprintf(c.Err, "%s: %s against the emission (diff%s):\n", c.Name, where, more)
	for _, l := range shown {
		fmt.Fprintln(c.Err, l)
	}
}

// textLines answers data's lines as strings, without terminators.
func textLines(data []byte) []string {
	raw := splitLines(data)
	out := make([]string, len(raw))
	for i, l := range raw {
		out[i] = string(l)
	}
	return out
}
