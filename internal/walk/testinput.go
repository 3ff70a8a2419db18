package walk

import "strings"

// TestInputDirs are the directory names that hold test inputs by
// convention (Go's testdata, and the fixtures directories of most other
// ecosystems), matched at any depth of a slash path.
// consumer-value-exempt: ecosystem conventions matched in any consumer's tree, not a path of this one
var TestInputDirs = []string{"testdata", "_testdata", "fixtures", "__fixtures__"}

// InTestInputDir reports whether a directory of the slash path p (not its
// last element) is one of TestInputDirs.
func InTestInputDir(p string) bool {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return false
	}
	// The segments are visited in place: a scan asks this of every tracked
	// path, and a split allocated for each.
	dirs := p[:i]
	for {
		seg, rest, more := strings.Cut(dirs, "/")
		for _, d := range TestInputDirs {
			if seg == d {
				return true
			}
		}
		if !more {
			return false
		}
		dirs = rest
	}
}
