//go:build profile

package main

import (
	"os"
	"runtime/pprof"
)

// A build for measurement only (`go build -tags profile`): the CPU profile
// of one run goes to the file GATES_CPUPROFILE names.
func init() {
	p := os.Getenv("GATES_CPUPROFILE")
	if p == "" {
		return
	}
	f, err := os.Create(p)
	if err != nil {
		return
	}
	if pprof.StartCPUProfile(f) == nil {
		stopProfile = func() { pprof.StopCPUProfile(); f.Close() }
	}
}
