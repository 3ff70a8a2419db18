package registry

import (
	"fmt"
	"slices"
	"strings"
)

// FixtureDirName is the directory a kit root, a gates dir or the
// authoring module keeps its fixture pairs in: the convention
// --run-gate-tests and every suite derivation share.
const FixtureDirName = "gate-tests" // consumer-value-exempt: the kit's own fixture-tree convention; a consumer relocates its tree with GATE_SDK_TESTS_DIR and GATE_SDK_KIT_TESTS_DIR

// EmbeddedSuite is the tests-dir operand naming the core kit's fixture
// pairs as the binary embeds them: a consumer that vendors no pairs still
// runs them (--emit fixture-suites names it, --run-gate-tests lays it out).
const EmbeddedSuite = "embedded:gate-sdk"

// KitTestsKnob names the knob that relocates the gate-sdk kit's fixture
// tree: in the tree that authors the kit the pairs sit at the module's
// top-level gate-tests/, outside the kit root, beside the code they prove.
const KitTestsKnob = "GATE_SDK_KIT_TESTS_DIR"

// KitTestsDirs answers each kit root's fixture tree, index-aligned with
// roots: <root>/gate-tests, except that a non-empty override (the words of
// KitTestsKnob) names the first root's, gate-sdk's. More than one word is
// refused: the knob names one directory.
func KitTestsDirs(roots []string, override []string) ([]string, error) {
	return kitDirs(roots, override, FixtureDirName, KitTestsKnob, "fixture tree")
}

// kitDirs answers <root>/<child> for each of roots, the first root's
// replaced by override's one word when it has one; knob and what name
// the relocating knob and the tree in the refusal of a longer override.
func kitDirs(roots []string, override []string, child, knob, what string) ([]string, error) {
	if len(override) > 1 {
		return nil, fmt.Errorf("%s names %d directories (%s); it names the one %s of the gate-sdk kit", knob, len(override), strings.Join(override, " "), what)
	}
	out := make([]string, len(roots))
	for i, r := range roots {
		out[i] = Join(strings.TrimRight(r, "/"), child)
		if i == 0 && len(override) == 1 {
			out[i] = strings.TrimRight(override[0], "/")
		}
	}
	return out, nil
}

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
// listed twice is read once. kitTests is the override KitTestsDirs takes:
// the first kit root's suite then reads that tree, still named for the kit
// and resolving against its checks/.
func FixtureSuites(fsys FS, kitRoots []string, gatesDir string, kitTests []string) ([]Suite, error) {
	testsDirs, err := KitTestsDirs(kitRoots, kitTests)
	if err != nil {
		return nil, err
	}
	testsDirs = append(testsDirs, Join(strings.TrimRight(gatesDir, "/"), FixtureDirName))
	var out []Suite
	var done []string
	for i, dir := range append(slices.Clone(kitRoots), gatesDir) {
		dir = strings.TrimRight(dir, "/")
		if slices.Contains(done, dir) {
			continue
		}
		done = append(done, dir)
		tests := testsDirs[i]
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

// FixtureDirs answers the tests dirs a member's pair may live in: the
// consumer's tests dir (GATE_SDK_TESTS_DIR), then each kit fixture tree
// (KitTestsDirs). check-gate-fixture-coverage and port-blockers' c2=
// column read this one resolution.
func FixtureDirs(testsDir string, kitTests []string) []string {
	dirs := []string{strings.TrimRight(testsDir, "/")}
	for _, d := range kitTests {
		if d != dirs[0] {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// Fixture is where a member's fixture pair was found.
type Fixture struct {
	Pair    string // the pair's dir when complete
	Half    string // the dir of a half pair
	Missing string // which case the half pair lacks
}

// FindFixture looks for <dir>/<name>/{good,bad} in each tests dir. The
// first complete pair answers; a <name>/ dir lacking a case anywhere is a
// half pair.
func FindFixture(fsys FS, dirs []string, name string) (Fixture, error) {
	var out Fixture
	for _, d := range dirs {
		base := Join(d, name)
		has := map[string]bool{}
		for _, k := range []string{"good", "bad"} {
			ok, err := isDir(fsys, Join(base, k))
			if err != nil {
				return out, err
			}
			has[k] = ok
		}
		switch {
		case has["good"] && has["bad"]:
			if out.Pair == "" {
				out.Pair = base
			}
		case has["good"] || has["bad"]:
			out.Half = base
			out.Missing = "good"
			if has["good"] {
				out.Missing = "bad"
			}
			return out, nil
		}
	}
	return out, nil
}
