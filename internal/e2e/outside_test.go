package e2e

// Operands and --for paths that leave the repository are refused, named,
// never answered green: a scan over no tracked file and a selection for a
// file no gate can judge would both read as a pass nobody earned.

import (
	"strings"
	"testing"
)

func TestPathsOutsideTheTreeAreRefused(t *testing.T) {
	t.Parallel()
	s := batteryScratch(t)
	s.write("scripts/gates.list", "check-pass\n", 0o644)
	s.write("scripts/msg-patterns.list", "ban-this-word\n", 0o644)
	s.git("add", "-A")
	for _, p := range []string{"../x.md", "/etc/passwd", "docs/../../x.md"} {
		code, out := s.frontEnd(nil, "--for", p)
		if code != 2 || !strings.Contains(out, "--for "+p+" does not name a path inside the repository") || strings.Contains(out, "passed") {
			t.Errorf("--for %s: exit %d, want a refusal naming it:\n%s", p, code, out)
		}
	}
	// An absolute spelling of a path inside the tree selects as the relative one does.
	code, out := s.frontEnd([]string{"GATE_SDK_VERBOSE=1"}, "--for", s.dir+"/docs/a.md")
	if code != 0 || !strings.Contains(out, "===== check-pass =====") {
		t.Fatalf("--for an absolute path inside the tree: exit %d:\n%s", code, out)
	}
	for _, root := range []string{"..", "../..", "docs/../.."} {
		code, out := s.run(nil, binPath, "check-tree-terms", root)
		if code != 2 || strings.Contains(out, "clean") || !strings.Contains(out, "operand "+root+" does not name a path inside the repository") {
			t.Errorf("check-tree-terms %s: exit %d, want a refusal:\n%s", root, code, out)
		}
	}
}
