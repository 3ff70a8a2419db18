package gates

// check-harness-literal: no line of the configured corpus carries a listed
// harness literal unless it, or the line above, carries a harness-binding:
// valve with a reason. Literals are fixed strings matched as bytes, never
// patterns. It is check-portability-floor's scanner under its own knob
// pair and valve, sharing that gate's corpus reader and valve window.

import (
	"bytes"
	"fmt"

	"github.com/gate-sdk/gates/internal/gate"
)

const harnessValve = "harness-binding:"

func checkHarnessLiteral(c *gate.Context) int {
	if len(c.Args) > 0 {
		return c.Refuse("usage: check-harness-literal (configured by GATE_SDK_HARNESS_LITERALS and GATE_SDK_HARNESS_LITERAL_PATHS)")
	}
	literals, err := c.Knobs.Words("GATE_SDK_HARNESS_LITERALS")
	if err != nil {
		return c.RefuseErr(err)
	}
	paths, err := c.Knobs.Words("GATE_SDK_HARNESS_LITERAL_PATHS")
	if err != nil {
		return c.RefuseErr(err)
	}
	// assertion A: either knob empty disables the gate, each absence in
	// its own clean sentence.
	if len(paths) == 0 {
		return c.NewReport(nil).Disarmed("GATE_SDK_HARNESS_LITERAL_PATHS", "no corpus configured: GATE_SDK_HARNESS_LITERAL_PATHS is empty, gate off")
	}
	if len(literals) == 0 {
		return c.NewReport(nil).Nothing("no literal listed: GATE_SDK_HARNESS_LITERALS is empty, gate off")
	}
	files, binary, err := pathspecCorpus(c, paths, nil)
	if err != nil {
		return c.RefuseErr(err)
	}
	r := c.NewReport(map[string]string{
		"literal": "reword the line so it names no harness-specific literal, or, where the line is an adapter surface, mark it `harness-binding: <reason>` (in markdown `<!-- harness-binding: <reason> -->`) on that line or the line above",
	})
	lits := make([][]byte, len(literals))
	for i, l := range literals {
		lits[i] = []byte(l)
	}
	for _, f := range files {
		lines := splitLines(f.data)
		for i, line := range lines {
			// assertion B: a line holding a listed literal, byte for byte,
			// carries the valve with a non-empty reason on itself or the
			// line above; the reason ends at a comment closer.
			for j, lit := range lits {
				if bytes.Contains(line, lit) {
					if !valved(lines, i, harnessValve) {
						msg := fmt.Sprintf("%s (harness literal %s)", line, literals[j])
						r.Add(gate.Finding{Class: "literal", Path: f.path, Line: i + 1, Msg: msg, Text: fmt.Sprintf("%s:%d:%s", gate.QuotePath(f.path), i+1, msg)})
					}
					break
				}
			}
		}
	}
	return r.Done(fmt.Sprintf("%d files carry none of %d harness literals outside a harness-binding; %d binary members skipped", len(files), len(literals), binary))
}
