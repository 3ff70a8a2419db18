package workflow

import (
	"testing"

	"github.com/gate-sdk/gates/internal/lazyre"
)

// Every expression the package declares compiles (they compile on first
// use, so a bad one would otherwise wait for the run that needs it).
func TestEveryPatternCompiles(t *testing.T) {
	if len(lazyre.All()) == 0 {
		t.Fatal("no expression declared")
	}
	for _, r := range lazyre.All() {
		r.Get()
	}
}
