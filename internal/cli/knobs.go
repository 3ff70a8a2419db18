package cli

import (
	"fmt"
	"io"
	"slices"

	"github.com/gate-sdk/gates/internal/gates"
)

// runKnobs is `gates knobs [<gate>...]`: every knob with its current value,
// where that value came from and what the knob does, grouped by the gates
// that read it, then by the arms, then the knobs nothing compiled reads.
// Naming gates narrows the listing to them.
func runKnobs(s *Session, names []string) int {
	for _, n := range names {
		if _, ok := findGate(n); !ok {
			return s.fail(refusal{msg: fmt.Sprintf("%s: knobs: no compiled gate named %q; see gates --list", s.prog, n)})
		}
	}
	s.writeKnobGroups(s.Stdout, names)
	return 0
}

// writeKnobGroups prints the grouped knob listing; only restricts it to
// the named gates when non-empty.
//
// assertion E: grouped by readers, each with value, source and description.
func (s *Session) writeKnobGroups(w io.Writer, only []string) {
	shown := map[string]bool{}
	group := func(title string, knobs []string) {
		if len(knobs) == 0 {
			return
		}
		fmt.Fprintf(w, "%s:\n", title)
		s.writeKnobRows(w, knobs)
		fmt.Fprintln(w)
		for _, k := range knobs {
			shown[k] = true
		}
	}
	for _, d := range gates.All() {
		if len(only) > 0 && !slices.Contains(only, d.Name) {
			continue
		}
		group(d.Name, d.Knobs)
	}
	if len(only) > 0 {
		return
	}
	for _, a := range armTable() {
		var ks []string
		for _, k := range a.Knobs {
			if k != "EVERY_REGISTERED_KNOB" {
				ks = append(ks, k)
			}
		}
		group(armSpelling(a), ks)
	}
	var rest []string
	for _, n := range knobNames() {
		if !shown[n] {
			rest = append(rest, n)
		}
	}
	group("read by no compiled gate or arm (kit writers, shell gates, front ends)", rest)
}
