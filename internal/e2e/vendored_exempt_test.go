package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVendoredExemptionCoversOnlyWhatShipped: in a tree gates init
// adopted, the gates that judge gates leave the vendored kit alone while
// it is what the lock records, and judge a check-*.sh dropped into its
// checks/ (no lock entry) and a shipped file edited since (digest off).
func TestVendoredExemptionCoversOnlyWhatShipped(t *testing.T) {
	t.Parallel()
	s := newScratchBare(t)
	s.write("README.md", "# demo\n", 0o644)
	s.git("add", "-A")
	s.git("commit", "-q", "-m", "chore: start")
	if code, out := s.gates(nil, "init"); code != 0 {
		t.Fatalf("gates init: exit %d\n%s", code, out)
	}
	// A gate of the repository's own, so the gates that judge gates have
	// a subject.
	if code, out := s.gates(nil, "new", "mine"); code != 0 {
		t.Fatalf("gates new: exit %d\n%s", code, out)
	}
	list := s.read("scripts/gates.list")
	s.write("scripts/gates.list", list+"check-gate-fail-closed\ncheck-gate-fixture-coverage\n", 0o644)
	s.git("add", "-A")
	only := []string{"--only", "check-gate-fail-closed", "check-gate-fixture-coverage"}
	if code, out := s.gates(nil, only...); code != 0 {
		t.Fatalf("the pristine vendored kit is judged: exit %d\n%s", code, out)
	}
	dropped := "#!/usr/bin/env bash\n# graph: couples=*.md dir=one valve=none tier=precommit\n# spec: scripts/SPEC.md §dropped — a gate no release shipped\n" +
		"out=\"$(awk '/x/ {print}' README.md)\"\necho \"DROPPED: clean (${#out} bytes)\"\n"
	s.write("gate-sdk/checks/check-dropped.sh", dropped, 0o755)
	s.write("scripts/gates.list", s.read("scripts/gates.list")+"check-dropped\n", 0o644)
	s.git("add", "-A")
	code, out := s.gates(nil, only...)
	if code != 1 || !strings.Contains(out, "gate-sdk/checks/check-dropped.sh:4: out=") ||
		!strings.Contains(out, "gate-sdk/checks/check-dropped.sh: check-dropped is registered") {
		t.Fatalf("a dropped gate under the vendored kit went unjudged: exit %d\n%s", code, out)
	}
	// With the dropped file gone, the vendored kit is exempt again.
	if err := os.Remove(filepath.Join(s.dir, "gate-sdk/checks/check-dropped.sh")); err != nil {
		t.Fatal(err)
	}
	s.write("scripts/gates.list", strings.Replace(s.read("scripts/gates.list"), "check-dropped\n", "", 1), 0o644)
	s.git("add", "-A")
	if code, out := s.gates(nil, only...); code != 0 {
		t.Fatalf("after the drop is undone: exit %d\n%s", code, out)
	}
	// A shipped descriptor edited since init is the repository's own too.
	desc := "gate-sdk/checks/check-tree-terms.gate"
	s.write(desc, s.read(desc)+"# edited here\n", 0o644)
	s.git("add", "-A")
	if code, out := s.gates(nil, only...); code != 1 || !strings.Contains(out, desc+": check-tree-terms is registered") {
		t.Fatalf("an edited shipped descriptor went unjudged: exit %d\n%s", code, out)
	}
}
