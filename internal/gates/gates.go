// Package gates holds the rule functions of every in-process gate, one file
// per gate, grouped by family. All answers the whole table; the registry
// binds each `.gate` descriptor to the Def of the same name.
package gates

import "github.com/gate-sdk/gates/internal/gate"

// All answers every in-process gate, sorted by name.
func All() []gate.Def {
	var defs []gate.Def
	defs = append(defs, hygieneGates()...)
	defs = append(defs, actionGates()...)
	return sortDefs(defs)
}
