//go:build profile

package main

import (
	"os"
	"runtime"
	"runtime/pprof"
)

// A build for measurement only (`go build -tags profile`): the CPU profile
// of one run goes to the file GATES_CPUPROFILE names, the allocation
// profile to the file GATES_MEMPROFILE names.
func init() {
	var stops []func()
	if p := os.Getenv("GATES_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil && pprof.StartCPUProfile(f) == nil {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if p := os.Getenv("GATES_MEMPROFILE"); p != "" {
		runtime.MemProfileRate = 4096
		stops = append(stops, func() {
			if f, err := os.Create(p); err == nil {
				pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		})
	}
	stopProfile = func() {
		for _, stop := range stops {
			stop()
		}
	}
}
