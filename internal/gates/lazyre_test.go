package gates

import (
	"testing"

	"github.com/gate-sdk/gates/internal/lazyre"
)

// Every expression compiles (they compile on first use, so a bad one
// would otherwise wait for the run that needs it).
func TestEveryPatternCompiles(t *testing.T) {
	if lazyre.CompileAll() == 0 {
		t.Fatal("no expression declared")
	}
}
