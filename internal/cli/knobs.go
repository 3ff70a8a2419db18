package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

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

// sharedKnobReaders is how many readers make a knob shared: listed once
// at the top of `gates knobs` rather than under each reader.
const sharedKnobReaders = 3

// writeKnobGroups prints the grouped knob listing; only restricts it to
// the named gates when non-empty.
//
// assertion E: grouped by readers, each with value, source and description.
func (s *Session) writeKnobGroups(w io.Writer, only []string) {
	shown := map[string]bool{}
	type reader struct {
		title string
		knobs []string
	}
	var readers []reader
	for _, d := range gates.All() {
		if len(only) > 0 && !slices.Contains(only, d.Name) {
			continue
		}
		readers = append(readers, reader{d.Name, d.Knobs})
	}
	if len(only) == 0 {
		for _, a := range armTable() {
			var ks []string
			for _, k := range a.Knobs {
				if k != "EVERY_REGISTERED_KNOB" {
					ks = append(ks, k)
				}
			}
			readers = append(readers, reader{armSpelling(a), ks})
		}
	}
	// A knob many readers share is listed once, up front, and each reader
	// names it on one line instead of repeating its rows.
	count := map[string]int{}
	var shared []string
	for _, r := range readers {
		for _, k := range r.knobs {
			if count[k]++; count[k] == sharedKnobReaders && !strings.Contains(k, "EVERY_") {
				shared = append(shared, k)
			}
		}
	}
	if len(only) > 0 {
		shared = nil
	}
	slices.Sort(shared)
	if len(shared) > 0 {
		fmt.Fprintf(w, "shared (each read by %d or more of the gates and arms below, which name them):\n", sharedKnobReaders)
		s.writeKnobRows(w, shared)
		fmt.Fprintln(w)
		for _, k := range shared {
			shown[k] = true
		}
	}
	for _, r := range readers {
		var own, common []string
		for _, k := range r.knobs {
			if slices.Contains(shared, k) {
				common = append(common, k)
			} else {
				own = append(own, k)
			}
		}
		if len(r.knobs) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s:\n", r.title)
		s.writeKnobRows(w, own)
		if len(common) > 0 {
			fmt.Fprintf(w, "  shared: %s\n", strings.Join(common, " "))
		}
		fmt.Fprintln(w)
		for _, k := range own {
			shown[k] = true
		}
	}
	if len(only) > 0 {
		return
	}
	group := func(title string, knobs []string) {
		if len(knobs) == 0 {
			return
		}
		fmt.Fprintf(w, "%s:\n", title)
		s.writeKnobRows(w, knobs)
		fmt.Fprintln(w)
	}
	var rest []string
	for _, n := range knobNames() {
		if !shown[n] {
			rest = append(rest, n)
		}
	}
	group("read by no compiled gate or arm (kit writers, shell gates, front ends)", rest)
}
