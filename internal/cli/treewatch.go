package cli

import (
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/treewatch"
)

// treeWatchFlag is the binary's internal mode serving one work tree's
// watcher (§stop-gates K): `gates --tree-watch <top> <state dir> <idle
// seconds>`, started detached by a Stop, never by a person, so it is not
// in the help.
const treeWatchFlag = "--tree-watch"

func init() {
	// A Stop that finds no watcher starts one from this very build; a Go
	// test binary cannot serve the mode, and spawn.Self refuses it, so a
	// test's Stop starts none.
	repo.StartTreeWatch = startTreeWatch
}

// treeWatchWanted reads GATE_SDK_TREE_WATCH: unset or on, where the
// platform has a watcher.
func treeWatchWanted(s *Session) bool {
	// assertion O (stop-gates): the knob turns the watcher off; off Linux
	// there is none.
	v := s.Getenv("GATE_SDK_TREE_WATCH")
	return treewatch.Supported && (v == "" || v == "on")
}

// treeWatchIdle reads GATE_SDK_TREE_WATCH_IDLE (seconds), the default for
// anything else.
func treeWatchIdle(v string) time.Duration {
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return treewatch.DefaultIdle
}

// startTreeWatch starts the watcher of top detached; a failure is silent:
// the Stop that asked has its answer already, and the next one reads the
// tree as before.
func startTreeWatch(top, stateDir string) {
	self, err := spawn.Self()
	if err != nil {
		return
	}
	idle := treeWatchIdle(os.Getenv("GATE_SDK_TREE_WATCH_IDLE"))
	_ = spawn.Detach(spawn.Cmd{Program: self, Dir: top,
		Args: []string{treeWatchFlag, top, stateDir, strconv.Itoa(int(idle / time.Second))}})
}

// treeWatchMain serves the watcher until it ends; 2 for arguments out of
// shape or a socket it could not bind.
func treeWatchMain(args []string) int {
	if len(args) != 3 {
		return 2
	}
	// A long-lived process: the collector runs as usual, not only near
	// the memory limit the short hooks set.
	debug.SetGCPercent(100)
	if err := repo.ServeTreeWatch(args[0], args[1], treeWatchIdle(args[2])); err != nil {
		return 2
	}
	return 0
}
