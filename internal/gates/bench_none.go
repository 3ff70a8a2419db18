//go:build !bench

package gates

import "github.com/gate-sdk/gates/internal/gate"

// benchGates is empty outside the benchmark build.
func benchGates() []gate.Def { return nil }
