//go:build linux && !(amd64 || arm64)

package repo

import "sync/atomic"

// statCleanRange is trackedStatClean's test over entries in one pass: by
// path where the stat by directory descriptor is not built.
func statCleanRange(top string, entries []Entry, stop *atomic.Bool) bool {
	return statCleanRangeByPath(top, entries, stop)
}
