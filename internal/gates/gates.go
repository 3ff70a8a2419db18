// Package gates holds the rule functions of every in-process gate, one file
// per gate, grouped by family. All answers the whole table; the registry
// binds each `.gate` descriptor to the Def of the same name.
package gates

import (
	"sync"

	"github.com/gate-sdk/gates/internal/gate"
)

// kitOwner is the kit whose checks/ carries the shipped descriptors.
const kitOwner = "gate-sdk"

// publisherOnly names the members gate-sdk does not ship: their
// descriptors live in the publisher's own gates dir, so --list shows the
// owner sentinel for them.
var publisherOnly = map[string]bool{
	"check-action-step-order":       true,
	"check-harness-literal":         true,
	"check-gate-binary-fresh":       true,
	"check-crate-arms":              true,
	"check-packed-links":            true,
	"check-kit-roots-dialect":       true,
	"check-release-change-declared": true,
	"check-release-assets":          true,
	"check-consumer-value-literal":  true,
}

// All answers every in-process gate, sorted by name, each with its owner.
// The table is built once per process; each call answers a fresh slice.
func All() []gate.Def {
	allOnce.Do(func() { allDefs = buildTable() })
	return append([]gate.Def(nil), allDefs...)
}

var (
	allOnce sync.Once
	allDefs []gate.Def
)

// Find answers the compiled gate named name, without copying the table
// (the hook asks once per registered member).
func Find(name string) (gate.Def, bool) {
	allOnce.Do(func() { allDefs = buildTable() })
	for i := range allDefs {
		if allDefs[i].Name == name {
			return allDefs[i], true
		}
	}
	return gate.Def{}, false
}

// buildTable assembles the table. No gate's constructor may call All: its
// lookups run when a rule does.
func buildTable() []gate.Def {
	var defs []gate.Def
	defs = append(defs, hygieneGates()...)
	defs = append(defs, actionGates()...)
	defs = append(defs, benchGates()...)
	defs = append(defs, graphGates()...)
	defs = append(defs, metaGates()...)
	defs = append(defs, seamGates()...)
	defs = append(defs, kitSurfaceGates()...)
	defs = append(defs, releaseGates()...)
	for i := range defs {
		if !publisherOnly[defs[i].Name] && defs[i].Owner == "" {
			defs[i].Owner = kitOwner
		}
	}
	return sortDefs(defs)
}
