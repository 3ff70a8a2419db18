package e2e

import (
	"os"
	"strings"
	"testing"
)

// scratchGate is a consumer shell gate that writes scratch under the tmp
// dir knob and fails when its case holds bad.md.
const scratchGate = `#!/usr/bin/env bash
# graph: couples=bad.md dir=one valve=none tier=precommit
tmp="${GATE_SDK_TMP_DIR:-.tmp}"
mkdir -p "$tmp" && echo scratch > "$tmp/check-scratch.out"
if [ -f bad.md ]; then
  echo "bad.md:1: the file is bad"
  echo "help: delete bad.md"
  exit 1
fi
echo "SCRATCH: clean (1 case)"
`

func fixtureScratch(t *testing.T) *scratch {
	s := newScratch(t)
	s.write("scripts/check-scratch.sh", scratchGate, 0o755)
	s.write("scripts/gates.list", "check-scratch\n", 0o644)
	s.write("scripts/gate-tests/check-scratch/good/a.md", "fine\n", 0o644)
	s.write("scripts/gate-tests/check-scratch/bad/bad.md", "bad\n", 0o644)
	s.write("scripts/gate-tests/check-scratch/bad/args", "# no operands needed\n\n", 0o644)
	s.write("scripts/gate-tests/check-scratch/bad/expect.txt", "bad.md:1: the file is bad\n\n", 0o644)
	s.git("add", "-A")
	s.git("commit", "-q", "-m", "test: fixtures")
	return s
}

func TestFixtureRunnerPassesAndLeavesCaseDirsClean(t *testing.T) {
	t.Parallel()
	s := fixtureScratch(t)
	code, out := s.run(nil, binPath, "--run-gate-tests")
	if code != 0 || !strings.Contains(out, "1 pair (0 failed), 0 tests") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, c := range []string{"good", "bad"} {
		if _, err := os.Stat(s.dir + "/scripts/gate-tests/check-scratch/" + c + "/.tmp"); err == nil {
			t.Fatalf("the %s case wrote scratch inside its own directory", c)
		}
	}
	// Each case's scratch is a dir of its own under the invoker's tmp
	// dir, removed after the case (§The fixture runner, J).
	if left := scratchLeftovers(t, s.dir+"/.tmp", "check-scratch.out"); len(left) > 0 {
		t.Fatalf("case scratch left in the invoker's tmp dir: %v", left)
	}
	if st := s.git("status", "--porcelain", "scripts/gate-tests"); st != "" {
		t.Fatalf("the run changed the fixture tree:\n%s", st)
	}
}

func TestFixtureRunnerNamesTheMissingLine(t *testing.T) {
	t.Parallel()
	s := fixtureScratch(t)
	s.write("scripts/gate-tests/check-scratch/bad/expect.txt", "bad.md:1: the file is bad\nbad.md:2: never printed\n", 0o644)
	code, out := s.run(nil, binPath, "--run-gate-tests")
	if code != 1 || !strings.Contains(out, "missing expected line: bad.md:2: never printed") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, out = s.run(nil, binPath, "--run-gate-tests", "scripts/gate-tests", "no-such-dir")
	if code != 2 || !strings.Contains(out, "no-such-dir") {
		t.Fatalf("a checks dir that does not exist: exit %d:\n%s", code, out)
	}
	code, out = s.run(nil, binPath, "--run-gate-tests", "nowhere")
	if code != 2 || !strings.Contains(out, "nowhere") {
		t.Fatalf("a tests dir that does not exist: exit %d:\n%s", code, out)
	}
}

// TestBespokeTestIsHermeticWhenRunDirectly: a *.test.sh run straight from
// bash reads no knob file of the repository around it.
func TestBespokeTestIsHermeticWhenRunDirectly(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	// A knob file that refuses (exit 2) if anything reads it.
	s.write("scripts/gate-sdk-config.knobs", "GATE_SDK_TMP_DIR = poisoned\nNOT A KNOB LINE\n", 0o644)
	s.write("gate-sdk/gate-tests/probe.test.sh", `#!/usr/bin/env bash
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"
val="$("$GATE_SDK_NATIVE_BIN" --emit knob-values GATE_SDK_TMP_DIR)" || exit 1
case "$val" in *poisoned*) exit 1 ;; esac
printf '%s\n' "$val"
`, 0o755)
	s.git("add", "-A")
	code, out := s.run(nil, "bash", "gate-sdk/gate-tests/probe.test.sh")
	if code != 0 || !strings.Contains(out, ".tmp") {
		t.Fatalf("a bespoke test read the repository's knob file: exit %d\n%s", code, out)
	}
	// Control: the same read without the hermetic library does see it.
	code, out = s.run(nil, binPath, "--emit", "knob-values", "GATE_SDK_TMP_DIR")
	if code != 2 {
		t.Fatalf("control: the poisoned knob file should refuse, exit %d\n%s", code, out)
	}
}
