// Package memlimit holds the binary's soft memory limit: a floor set at
// start, raised to fit the tracked listing once a snapshot knows its size
// (kits/gate-sdk/SPEC.md, "The memory limit scales with the listing").
// Nothing here acts until the binary arms it, so a test that builds
// snapshots never moves its own process's limit.
package memlimit

import (
	"math"
	"runtime/debug"
	"sync"
)

// Floor is the limit of a run whose listing is small: with the runtime's
// own memory and the binary's mapped code (about 8 MiB) beside it, the
// process stays under the smallest peak-RSS bound the project states
// (100 MiB plus 1.5 × the largest file).
const Floor = 84 << 20

// PerFile is the limit's allowance for each tracked file: twice the live
// heap a listed file costs (its index entry, the snapshot's entry and read
// state, its place in the listings the members take; about 400 bytes at
// 100,000 files), so the heap the collector may let grow before it runs
// stays at least the live heap and the number of collections stops growing
// with the tree.
const PerFile = 800

var (
	mu    sync.Mutex
	armed bool
	limit int64
	set   = debug.SetMemoryLimit
)

// Arm sets the floor as the process's soft memory limit and lets Fit raise
// it. The binary calls it once at start, unless GOMEMLIMIT is set (then the
// runtime's limit is the user's and stays as given).
func Arm() {
	mu.Lock()
	defer mu.Unlock()
	armed, limit = true, Floor
	set(Floor)
}

// For answers the limit a listing of files tracked paths is given: the
// floor, or PerFile for each path when that is more.
func For(files int) int64 {
	if files <= 0 {
		return Floor
	}
	if int64(files) > math.MaxInt64/PerFile {
		return math.MaxInt64
	}
	return max(Floor, int64(files)*PerFile)
}

// Fit raises the armed limit to For(files) when that is higher; it never
// lowers it (a process that lists two trees keeps the larger's). Unarmed,
// it does nothing.
func Fit(files int) {
	mu.Lock()
	defer mu.Unlock()
	if !armed {
		return
	}
	if want := For(files); want > limit {
		limit = want
		set(want)
	}
}
