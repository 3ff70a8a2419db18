// Command gates is the gate-sdk binary: the battery, every compiled gate,
// the git hooks and the --emit projections. It turns argv into an exit
// status and does nothing else; internal/cli owns the grammar.
package main

import (
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/gate-sdk/gates/internal/cli"
	"github.com/gate-sdk/gates/internal/memlimit"
)

func main() {
	// A reader that has gone must not kill the process: with SIGPIPE
	// notified (never ignored, so children keep the default disposition) a
	// write to a closed pipe returns EPIPE, which the CLI's stdout drops.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	// A soft memory limit: the collector works harder as the heap nears it
	// instead of letting it double past the live bytes, which is what keeps
	// a battery near the snapshot's byte budget plus the listing. It starts
	// at memlimit.Floor and a snapshot raises it in proportion to the
	// tracked listing once that is known (memlimit.Fit), so the heap the
	// collector lets grow keeps pace with the live listing and a large tree
	// is not collected continually. GOMEMLIMIT, when set, wins.
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		memlimit.Arm()
		// Under that limit the collector need not run at all: a hook or a
		// battery is one short process whose heap is freed by its exit, and
		// collections below the limit were a fifth of a warm hook's CPU.
		// The limit alone bounds the heap; GOGC, when set, wins.
		if _, set := os.LookupEnv("GOGC"); !set {
			debug.SetGCPercent(-1)
		}
	}
	code := cli.Launch(os.Args, cli.IO{
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Env:    os.LookupEnv,
	})
	stopProfile()
	os.Exit(code)
}

// stopProfile ends a measurement build's profile (profile.go); a no-op in
// the shipped build.
var stopProfile = func() {}
