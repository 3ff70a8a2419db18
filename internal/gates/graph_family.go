package gates

// The coupling-graph family: the gates that hold the registry's manifests
// to each other, to what the members read and to the pages projected
// from them.

import "github.com/gate-sdk/gates/internal/gate"

func graphGates() []gate.Def {
	return []gate.Def{
		{Name: "check-graph", Rule: checkGraph, Knobs: graphKnobs,
			Reads: []gate.Root{{Path: ".", Filter: "name:lit:SPEC-*.md"}}},
	}
}
