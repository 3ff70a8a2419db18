// Package gates holds the rule functions of every in-process gate, one file
// per gate, grouped by family. All answers the whole table; the registry
// binds each `.gate` descriptor to the Def of the same name.
package gates

import "github.com/gate-sdk/gates/internal/gate"

// kitOwner is the kit whose checks/ carries the shipped descriptors.
const kitOwner = "gate-sdk"

// publisherOnly names the members gate-sdk does not ship: their
// descriptors live in the publisher's own gates dir, so --list shows the
// owner sentinel for them.
var publisherOnly = map[string]bool{
	"check-action-step-order":      true,
	"check-harness-literal":        true,
	"check-gate-binary-fresh":      true,
	"check-crate-arms":             true,
	"check-consumer-value-literal": true,
}

// All answers every in-process gate, sorted by name, each with its owner.
func All() []gate.Def {
	var defs []gate.Def
	defs = append(defs, hygieneGates()...)
	defs = append(defs, actionGates()...)
	defs = append(defs, benchGates()...)
	defs = append(defs, graphGates()...)
	defs = append(defs, metaGates()...)
	defs = append(defs, seamGates()...)
	defs = append(defs, kitSurfaceGates()...)
	for i := range defs {
		if !publisherOnly[defs[i].Name] && defs[i].Owner == "" {
			defs[i].Owner = kitOwner
		}
	}
	return sortDefs(defs)
}
