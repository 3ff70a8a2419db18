package gates

import (
	"sort"

	"github.com/gate-sdk/gates/internal/gate"
)

func sortDefs(defs []gate.Def) []gate.Def {
	sort.Slice(defs, func(i, j int) bool { return defs[i].Name < defs[j].Name })
	return defs
}
