//go:build linux && !(amd64 || arm64)

package repo

// statCleanRange is trackedStatClean's test over entries in one pass: by
// path where the stat by directory descriptor is not built.
func statCleanRange(top string, entries []Entry, stop *statStop) bool {
	return statCleanRangeByPath(top, entries, stop)
}
