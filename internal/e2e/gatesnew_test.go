package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGatesNewScaffoldsAGreenGate: gates new writes the gate, its pair and
// its registration; the pair passes as written, the battery runs the gate
// green, and the next steps are printed.
func TestGatesNewScaffoldsAGreenGate(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.write("scripts/gates.list", "# this repository's gates\n", 0o644)
	s.write("docs/guide.md", "# Guide\n", 0o644)
	s.git("add", "-A")
	code, out := s.gates(nil, "new", "no-fixme")
	if code != 0 {
		t.Fatalf("gates new: exit %d\n%s", code, out)
	}
	for _, w := range []string{"new: wrote scripts/check-no-fixme.sh", "new: wrote scripts/gate-tests/check-no-fixme/bad/expect.txt",
		"new: registered check-no-fixme in scripts/gates.list", "next:\n  1. write the rule", "  2. bin/gates --run-gate-tests && bin/gates check-no-fixme", "  3. git add "} {
		if !strings.Contains(out, w) {
			t.Fatalf("missing %q in:\n%s", w, out)
		}
	}
	if got := s.read("scripts/gates.list"); got != "# this repository's gates\ncheck-no-fixme\n" {
		t.Fatalf("registry %q", got)
	}
	gate := s.read("scripts/check-no-fixme.sh")
	for _, w := range []string{"GATE=check-no-fixme\n", "# graph: couples=*.md dir=one valve=none tier=precommit\n", "#   couples=", "#   dir=", "#   valve=", "#   tier=", "docs/**/*.md matches docs/index.md"} {
		if !strings.Contains(gate, w) {
			t.Fatalf("the gate lacks %q:\n%s", w, gate)
		}
	}
	if strings.Contains(gate, "no-port:") || strings.Contains(gate, "check-example") {
		t.Fatalf("the skeleton's own lines were kept:\n%s", gate)
	}
	if info, err := os.Stat(filepath.Join(s.dir, "scripts/check-no-fixme.sh")); err != nil || info.Mode()&0o111 == 0 {
		t.Fatalf("the gate is not executable: %v", err)
	}
	// --run-gate-tests with no operand runs the repository's own pairs.
	if code, out := s.gates(nil, "--run-gate-tests"); code != 0 || !strings.Contains(out, "run-gate-tests: scripts/gate-tests: 1 pair (0 failed)") {
		t.Fatalf("the scaffold's pair: exit %d\n%s", code, out)
	}
	s.git("add", "-A")
	if code, out := s.gates(nil, "--run"); code != 0 || !strings.Contains(out, "The 1 gate passed.") {
		t.Fatalf("battery: exit %d\n%s", code, out)
	}
	// The pair proves the rule: a bad case the rule no longer flags fails.
	s.write("scripts/gate-tests/check-no-fixme/bad/notes.md", "# Notes\n\nall written out\n", 0o644)
	if code, out := s.gates(nil, "--run-gate-tests"); code == 0 {
		t.Fatalf("a bad case that no longer fires passed:\n%s", out)
	}
}

// TestGatesNewRefuses: a taken name, an existing file, a bad name and a
// tree without a registry are refused, and nothing is written.
func TestGatesNewRefuses(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	if code, out := s.gates(nil, "new", "x"); code != 2 || !strings.Contains(out, "no registry at scripts/gates.list; run gates init first") {
		t.Fatalf("no registry: exit %d\n%s", code, out)
	}
	s.write("scripts/gates.list", "check-tree-terms\ncheck-listed\n", 0o644)
	s.write("scripts/gate-tests/check-pairless/good/a.md", "a\n", 0o644)
	for _, c := range []struct{ name, want string }{
		{"tree-terms", "check-tree-terms is a gate this binary carries"},
		{"listed", "scripts/gates.list already registers check-listed"},
		{"pairless", "scripts/gate-tests/check-pairless exists; gates new writes only new files"},
		{"Bad_Name", `"Bad_Name" is not a gate name`},
	} {
		if code, out := s.gates(nil, "new", c.name); code != 2 || !strings.Contains(out, c.want) {
			t.Fatalf("%s: exit %d\n%s", c.name, code, out)
		}
	}
	if _, err := os.Stat(filepath.Join(s.dir, "scripts/check-pairless.sh")); err == nil {
		t.Fatal("a refused scaffold wrote its gate")
	}
	if got := s.read("scripts/gates.list"); got != "check-tree-terms\ncheck-listed\n" {
		t.Fatalf("a refused scaffold touched the registry: %q", got)
	}
}

// TestUnregisteredGateHintsRegistration: a gate the gates dir declares
// but the registry does not list is told how to register it.
func TestUnregisteredGateHintsRegistration(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.write("scripts/gates.list", "check-tree-terms\n", 0o644)
	s.write("scripts/check-mine.sh", recordingGate("couples=*.md dir=one valve=none tier=precommit"), 0o755)
	code, out := s.gates(nil, "check-mine")
	if code != 2 || !strings.Contains(out, "scripts/check-mine.sh declares check-mine, but scripts/gates.list does not register it") ||
		!strings.Contains(out, "echo check-mine >> scripts/gates.list") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}
