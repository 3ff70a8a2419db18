package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// check-kit-roots-dialect re-runs the binary in a flat and a nested
// vendoring of its fixture trees.
func TestKitRootsDialect(t *testing.T) {
	t.Parallel()
	cases := filepath.Join(moduleRoot, "scripts", "gate-tests", "check-kit-roots-dialect")
	s := newScratch(t)
	s.copyTree(filepath.Join(cases, "good", "tree"), filepath.Join(s.dir, "good"))
	s.copyTree(filepath.Join(cases, "bad", "tree"), filepath.Join(s.dir, "bad"))
	s.write("rootless/other-kit/checks/check-x.gate", "# graph: couples=* dir=one valve=none tier=precommit\n", 0o644)

	code, out := s.run(nil, binPath, "check-kit-roots-dialect", "good")
	if code != 0 || !strings.Contains(out, "KIT-ROOTS-DIALECT: clean (--emit kit-roots 2 flat, 2 nested; --emit fixture-suites 2 flat, 2 nested)") {
		t.Fatalf("good: exit %d\n%s", code, out)
	}
	// A hook's relative index and an exported kit roster reach no child:
	// the vendorings' own config speaks.
	code, out = s.run([]string{"GIT_INDEX_FILE=.git/index.lock-elsewhere", "GATE_SDK_KIT_DIRS=gate-sdk other-kit"}, binPath, "check-kit-roots-dialect", "good")
	if code != 0 {
		t.Fatalf("good under a hook's environment: exit %d\n%s", code, out)
	}
	code, out = s.run(nil, binPath, "check-kit-roots-dialect", "bad")
	if code != 1 || !strings.Contains(out, `answers kit root "gate-sdk", the flat layout's spelling`) || !strings.Contains(out, "counts: --emit kit-roots 2 flat, 2 nested; --emit fixture-suites 2 flat, 0 nested") {
		t.Fatalf("bad: exit %d\n%s", code, out)
	}
	for _, tree := range []string{"rootless", "absent"} {
		if code, out := s.run(nil, binPath, "check-kit-roots-dialect", tree); code != 2 || !strings.Contains(out, tree) {
			t.Errorf("%s: exit %d\n%s", tree, code, out)
		}
	}
	// With no operand the tree is the gate's own good/ case under the tests dir.
	s.copyTree(filepath.Join(cases, "good", "tree"), filepath.Join(s.dir, "scripts", "gate-tests", "check-kit-roots-dialect", "good", "tree"))
	if code, out := s.run(nil, binPath, "check-kit-roots-dialect"); code != 0 {
		t.Errorf("default tree: exit %d\n%s", code, out)
	}
}
