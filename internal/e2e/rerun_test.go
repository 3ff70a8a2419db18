package e2e

// A later init follows the repository as it grows: it adds to the
// registry an earlier one wrote what now applies, keeps every line the
// adopter wrote, leaves a gate the adopter dropped out, recreates a
// deleted registry, and never accepts the graph page's staleness.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInitRerunAdoptsWhatNowApplies(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	if r := a.runIn("", binPath, "init"); r.code != 0 {
		t.Fatalf("first init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The adopter's edits: a comment, a gate dropped, a gate left out for
	// a reason of their own, and init's line for another gate deleted.
	reg := a.read("scripts/gates.list")
	if !strings.Contains(reg, "\ncheck-exec-bit\n") || !strings.Contains(reg, "# unregistered: check-workflow-tiering") {
		t.Fatalf("the first registry lacks the lines this test edits:\n%s", reg)
	}
	var kept []string
	for _, l := range strings.Split(strings.TrimSuffix(reg, "\n"), "\n") {
		switch {
		case l == "check-exec-bit":
			continue
		case strings.HasPrefix(l, "# unregistered: check-kit-registration "):
			l = "# unregistered: check-kit-registration \u2014 we publish no kit, and never will"
		case strings.HasPrefix(l, "# unregistered: check-workflow-tiering "):
			continue
		}
		kept = append(kept, l)
	}
	kept = append(kept, "# ours: reviewed 2026-12-01")
	mine := strings.Join(kept, "\n") + "\n"
	a.write("scripts/gates.list", mine)
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "--no-verify", "-m", "chore: vendor gate-sdk")
	a.write("scripts/check-local.gate", "# graph: couples=*.md dir=one valve=none tier=precommit\n")
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "--no-verify", "-m", "feat: a gate of our own")

	r := a.runIn("", binPath, "init")
	if r.code != 0 {
		t.Fatalf("second init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	got := verdicts(t, r.stdout)
	for _, g := range []string{"check-gate-output", "check-graph", "check-shellcheck", "check-gate-fail-closed"} {
		if !strings.HasPrefix(got[g], "registered") {
			t.Errorf("%s once the repository has a gate of its own: %q", g, got[g])
		}
	}
	if !strings.Contains(r.stdout, "init: added ") || !strings.Contains(r.stdout, " to scripts/gates.list: ") || !strings.Contains(r.stdout, "every line you wrote is kept") {
		t.Errorf("init does not say what it added:\n%s", r.stdout)
	}
	if _, said := got["check-exec-bit"]; said {
		t.Errorf("init decided again a gate the adopter dropped: %q", got["check-exec-bit"])
	}
	reg = a.read("scripts/gates.list")
	// Every line the adopter wrote is there, unchanged and in order.
	at := 0
	for _, l := range kept {
		if strings.HasPrefix(l, "# unregistered: ") && !strings.Contains(l, "we publish no kit") {
			continue // init's own lines may turn into member lines
		}
		i := strings.Index(reg[at:], l+"\n")
		if i < 0 {
			t.Fatalf("the adopter's line %q is gone or moved:\n%s", l, reg)
		}
		at += i + len(l) + 1
	}
	for _, l := range strings.Split(reg, "\n") {
		if l == "check-exec-bit" || l == "check-kit-registration" {
			t.Errorf("init registered %s against the adopter's decision:\n%s", l, reg)
		}
		if strings.HasPrefix(l, "# unregistered: check-gate-output ") {
			t.Errorf("init's old line for an adopted gate is left:\n%s", reg)
		}
	}
	if !strings.Contains(reg, "\n# unregistered: check-workflow-tiering \u2014 on-surface: ") {
		t.Errorf("a kit gate the registry no longer names is not named again:\n%s", reg)
	}
	if bl, err := os.ReadFile(filepath.Join(a.dir, "scripts", "gates.baseline")); err == nil && strings.Contains(string(bl), "\ncheck-graph\t") {
		t.Fatalf("the graph page's staleness was accepted:\n%s", bl)
	}
	a.must("git", "add", "-A")
	if b := a.battery(); b.code != 0 {
		t.Fatalf("the battery after the second init: exit %d\n%s%s", b.code, b.stdout, b.stderr)
	}
	a.must("git", "commit", "-q", "--no-verify", "-m", "chore: adopt the gates that judge gates")

	// A third run has nothing to add.
	if r := a.runIn("", binPath, "init"); r.code != 0 || strings.Contains(r.stdout, "init: added") || strings.Contains(r.stdout, ": registered") {
		t.Fatalf("third init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A deleted registry is written again, and init says so.
	if err := os.Remove(filepath.Join(a.dir, "scripts", "gates.list")); err != nil {
		t.Fatal(err)
	}
	r = a.runIn("", binPath, "init")
	if r.code != 0 || !strings.Contains(r.stdout, "init: wrote scripts/gates.list (") || !strings.Contains(r.stdout, "recreated: it was removed since init") {
		t.Fatalf("init over a deleted registry: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(a.read("scripts/gates.list"), "\ncheck-gate-output\n") {
		t.Fatalf("the recreated registry lacks what applies:\n%s", a.read("scripts/gates.list"))
	}
}
