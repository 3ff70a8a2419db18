package gates

// The coupling-graph family: the gates that hold the registry's manifests
// to each other, to what the members read and to the pages projected
// from them.

import (
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
)

func graphGates() []gate.Def {
	return []gate.Def{
		{Name: "check-graph", Operands: "[--amend-only [<dir>] | --refs-only [<page>] | --cap-only [<page>]]", Rule: checkGraph, Knobs: graphKnobs,
			Reads: []gate.Root{{Path: ".", Filter: "name:lit:SPEC-*.md"}}},
		{Name: "check-reads-couples", OwnOnly: true, Listing: true, Operands: "[<declaration>...]", Rule: readsCouplesRule(findDef),
			Knobs: []string{"GATE_SDK_PRUNE_DIRS", "GATE_SDK_PRUNE_EXTRA_DIRS", "GATE_SDK_KIT_DIRS", registry.EveryCouplesKnob}},
		{Name: "check-enforcement-fresh", Listing: true, Operands: "[<projection> <emit-file>]", Rule: checkEnforcementFresh, Knobs: enforcementKnobs, ReadsTree: true},
		{Name: "check-projection-roster", Operands: "-", Rule: checkProjectionRoster, Knobs: []string{"GATE_SDK_PROJECTION_ROSTER", "GATE_SDK_PROJECTION_ROSTER_SECTION", "GATE_SDK_KIT_DIRS", registry.EveryCouplesKnob}},
		{Name: "check-kit-enum", OwnOnly: true, Listing: true, Operands: "-", Rule: checkKitEnum, Knobs: []string{"GATE_SDK_KIT_DIRS"}, Needs: []string{"git"}},
	}
}

// findDef answers the compiled row of a name.
func findDef(name string) (gate.Def, bool) { return Find(name) }
