package registry

import (
	"slices"
	"strings"
)

// Suite is one fixture suite: a directory carrying a gate-tests/ tree.
type Suite struct {
	Name      string // the directory's basename with '-' turned to '_'
	TestsDir  string // <dir>/gate-tests, the --run-gate-tests operand
	ChecksDir string // <dir>/checks when it exists, else ""
}

// Row spells the suite as a --emit fixture-suites line, without its
// newline.
func (s Suite) Row() string { return s.Name + "\t" + s.TestsDir + "\t" + s.ChecksDir }

// FixtureSuites derives one suite per directory carrying a gate-tests/
// directory: the kit roots in order, then the gates directory. A directory
// listed twice is read once.
func FixtureSuites(fsys FS, kitRoots []string, gatesDir string) ([]Suite, error) {
	var out []Suite
	var done []string
	for _, dir := range append(slices.Clone(kitRoots), gatesDir) {
		dir = strings.TrimRight(dir, "/")
		if slices.Contains(done, dir) {
			continue
		}
		done = append(done, dir)
		tests := Join(dir, "gate-tests")
		// assertion E: a suite is a directory carrying a gate-tests/ tree.
		ok, err := isDir(fsys, tests)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		s := Suite{Name: strings.ReplaceAll(base(dir), "-", "_"), TestsDir: tests}
		checks := Join(dir, "checks")
		hasChecks, err := isDir(fsys, checks)
		if err != nil {
			return nil, err
		}
		if hasChecks {
			s.ChecksDir = checks
		}
		out = append(out, s)
	}
	return out, nil
}
