package e2e

import (
	"os"
	"strings"
	"testing"
)

// TestStandaloneOutputEqualsBatteryBlock: a compiled gate prints the same
// bytes run alone as inside the battery, where it runs in process.
func TestStandaloneOutputEqualsBatteryBlock(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	desc, err := os.ReadFile(moduleRoot + "/kits/gate-sdk/checks/check-action-pinning.gate")
	if err != nil {
		t.Fatal(err)
	}
	s.write("scripts/check-action-pinning.gate", string(desc), 0o644)
	s.write("scripts/gates.list", "check-action-pinning\n", 0o644)
	s.write(".github/workflows/ci.yml", "name: ci\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: ./.github/actions/local\n", 0o644)
	s.git("add", "-A")
	alone, aloneOut := s.run(nil, binPath, "check-action-pinning")
	code, out := s.frontEnd(nil)
	if alone != 1 || code != 1 {
		t.Fatalf("standalone exit %d, battery exit %d\n%s\n%s", alone, code, aloneOut, out)
	}
	block := strings.TrimPrefix(out, "===== check-action-pinning =====\n")
	block = block[:strings.Index(block, "  FAIL: check-action-pinning (exit 1)\n")]
	if block != aloneOut {
		t.Fatalf("battery block differs from the standalone run:\nbattery:\n%s\nalone:\n%s", block, aloneOut)
	}
	if !strings.Contains(aloneOut, ".github/workflows/ci.yml:7:") {
		t.Fatalf("the finding should name ci.yml:7:\n%s", aloneOut)
	}
}

// TestClosedStdoutKeepsTheStatus: a reader that has gone changes no exit
// status, for a document arm and for a red verdict.
func TestClosedStdoutKeepsTheStatus(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.write("scripts/gates.list", "check-x\n", 0o644)
	s.write("scripts/check-x.sh", "#!/usr/bin/env bash\n# graph: couples=* dir=one valve=none tier=precommit\nfor i in $(seq 1 2000); do echo \"a.md:$i: finding $i\"; done\necho 'help: fix'\nexit 1\n", 0o755)
	s.git("add", "-A")
	cases := []struct {
		cmd  string
		want string
	}{
		{binPath + " --emit knob-roster | head -c0; echo \"${PIPESTATUS[0]}\"", "0"},
		{"GATE_SDK_ROOT=gate-sdk " + binPath + " --emit kit-roots | head -c0; echo \"${PIPESTATUS[0]}\"", "0"},
		{binPath + " --run | head -n1 >/dev/null; echo \"${PIPESTATUS[0]}\"", "1"},
	}
	for _, c := range cases {
		code, out := s.run(nil, "bash", "-c", c.cmd)
		if code != 0 || strings.TrimSpace(out) != c.want {
			t.Errorf("%s: got %q (bash exit %d), want status %s", c.cmd, out, code, c.want)
		}
	}
}
