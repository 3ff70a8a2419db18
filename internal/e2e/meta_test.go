package e2e

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// badCheckX is an agent-written consumer gate with three latent defects: an
// awk capture whose status nobody reads, a grep -q membership test fed by
// an array under pipefail, and no fixture pair. It prints clean today, and
// every time: the owner it looks for is the array's last member, so grep
// matches only after printf's last write and no write can meet a closed
// pipe. Put alice first and grep may match, exit and close the pipe
// before printf writes "bob": SIGPIPE, which pipefail makes the status,
// and the gate reads a known owner as unknown (now and then, on a loaded
// machine; always, under stretchedWrites).
const badCheckX = `#!/usr/bin/env bash
# graph: couples=docs/*.md dir=one valve=none tier=precommit
# spec: scripts/SPEC.md §check-x — every doc names a known owner
set -euo pipefail
owners=(bob alice)
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
	t.Parallel()
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
	// Latent means it passes under any schedule: run it again and again
	// with every CPU kept busy, and once with each write stretched.
	for i, argv := range passUnderLoad(t, 20) {
		if code, out := s.run(nil, argv[0], append(argv[1:], "scripts/check-x.sh")...); code != 0 {
			t.Fatalf("run %d of check-x under load (%s): exit %d, want 0\n%s", i+1, strings.Join(argv, " "), code, out)
		}
	}
}

// passUnderLoad keeps every CPU busy until the test ends and answers the
// command lines to run a shell gate by: n plain bash runs, then one under
// stretchedWrites where strace can trace here.
func passUnderLoad(t *testing.T, n int) [][]string {
	t.Helper()
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	for i := 0; i < runtime.NumCPU(); i++ {
		go func() {
			for x := 0; ; x++ {
				select {
				case <-stop:
					return
				default:
				}
			}
		}()
	}
	var runs [][]string
	for i := 0; i < n; i++ {
		runs = append(runs, []string{"bash"})
	}
	if st := stretchedWrites(); st != nil {
		runs = append(runs, append(st, "bash"))
	} else {
		t.Log("strace cannot trace here: the stretched-write run is left out, the loaded runs stand")
	}
	return runs
}

// stretchedWrites answers a prefix under which every write of the command
// and its children returns 20 ms late (strace's delay injection): the
// schedule a loaded machine gives now and then — the writer descheduled
// between two writes while the reader runs — made certain. nil when
// strace is absent or may not trace here.
func stretchedWrites() []string {
	p, err := exec.LookPath("strace")
	if err != nil {
		return nil
	}
	argv := []string{p, "-f", "-qq", "-o", "/dev/null", "-e", "trace=write", "-e", "inject=write:delay_exit=20000"}
	if exec.Command(argv[0], append(argv[1:], "true")...).Run() != nil {
		return nil
	}
	return argv
}
