package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// badCheckX is an agent-written consumer gate with three latent defects: an
// awk capture whose status nobody reads, a grep -q membership test fed by
// an array under pipefail, and no fixture pair. It prints clean today.
const badCheckX = `#!/usr/bin/env bash
# graph: couples=docs/*.md dir=one valve=none tier=precommit
# spec: scripts/SPEC.md §check-x — every doc names a known owner
set -euo pipefail
owners=(alice bob)
owner="$(awk '/^owner:/ {print $2}' docs/a.md)"
if printf '%s\n' "${owners[@]}" | grep -qxF "$owner"; then
	echo "X: clean (1 doc)"
	exit 0
fi
echo "docs/a.md:1: owner $owner is not known"
echo "help: name a known owner"
exit 1
`

// TestMetaGatesCatchABadConsumerGate runs one battery over a consumer
// registering the bad gate beside three meta-gates, and wants the three
// defects reported as three distinct findings by three gates.
func TestMetaGatesCatchABadConsumerGate(t *testing.T) {
	s := newScratch(t)
	s.copyTree(filepath.Join(moduleRoot, "kits", "gate-sdk", "checks"), filepath.Join(s.dir, "gate-sdk", "checks"))
	meta := []string{"check-gate-fail-closed", "check-pipe-membership", "check-gate-fixture-coverage"}
	for _, g := range meta {
		s.copyTree(filepath.Join(moduleRoot, "gate-tests", g), filepath.Join(s.dir, "gate-sdk", "gate-tests", g))
	}
	s.write("docs/a.md", "owner: alice\n", 0o644)
	s.write("scripts/check-x.sh", badCheckX, 0o755)
	s.write("scripts/gates.list", "check-x\n"+strings.Join(meta, "\n")+"\n", 0o644)
	s.git("add", "-A")

	code, out := s.frontEnd(nil)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{
		"===== check-gate-fail-closed =====\n" +
			`scripts/check-x.sh:6: owner="$(awk '/^owner:/ {print $2}' docs/a.md)" captures awk output with its exit status unchecked`,
		"===== check-pipe-membership =====\n" +
			"scripts/check-x.sh:7: printf of an array feeds grep -qxF under pipefail: grep -qxF stops at its first match, printf dies of SIGPIPE, and pipefail makes that the pipeline's status, so a present member can read as absent\n" +
			"help: test membership with a loop or a [[ ]] test, never a pipe",
		"===== check-gate-fixture-coverage =====\n" +
			"scripts/check-x.sh: check-x is registered (scripts/gates.list:1) with no fixture pair in scripts/gate-tests, gate-sdk/gate-tests and no # no-fixture: reason",
		"3 of 4 gates FAILED: check-gate-fail-closed check-pipe-membership check-gate-fixture-coverage\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("battery output lacks:\n%s\n--- output:\n%s", want, out)
		}
	}
	if strings.Contains(out, "===== check-x =====") {
		t.Errorf("check-x itself should still pass (its defects are latent):\n%s", out)
	}
}
