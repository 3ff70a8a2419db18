package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// A consumer registering its own shell gates beside compiled ones: the
// default arm names what each shell gate starts beyond the floor, --group
// partitions the still-shell members, --tree reads every tracked script's
// disposition; all through the vendored front end.
func TestPortBlockersInAConsumer(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.copyTree(filepath.Join(moduleRoot, "kits", "gate-sdk", "checks"), filepath.Join(s.dir, "gate-sdk", "checks"))
	s.write("scripts/gates.list", "check-tree-terms\ncheck-shellcheck\ncheck-house\ncheck-held\ncheck-forever\ncheck-missing\n", 0o644)
	s.write("scripts/check-house.sh", "#!/usr/bin/env bash\n# graph: couples=*.yml dir=one valve=none tier=precommit\nset -u\n"+
		"command -v yq >/dev/null || exit 2\nfor f in $(git ls-files '*.yml'); do yq . \"$f\" | jq -e . >/dev/null; done\necho 'HOUSE: clean (ok)'\n", 0o755)
	s.write("scripts/check-held.sh", "#!/usr/bin/env bash\n# graph: couples=*.md dir=one valve=none tier=precommit\n# port-until: port-held\n"+
		"roots=\"$(gate_kit_roots)\"\nls $roots/*.md\n", 0o755)
	s.write("scripts/check-forever.sh", "#!/usr/bin/env bash\n# graph: couples=*.md dir=one valve=none tier=precommit\n# no-port: the house ruling keeps it shell\nxmllint x\n", 0o755)
	s.write("tools/setup.sh", "#!/bin/sh\necho set up\n", 0o755)
	s.write("tools/setup.test.sh", "#!/bin/sh\necho a test\n", 0o755)
	s.git("add", "-A")

	code, out := s.runSplit(nil, "bash", "gate-sdk/bin/run-gates.sh", "--emit", "port-blockers")
	want := "check-shellcheck\tshellcheck\tgate-sdk/checks/check-shellcheck.gate (--needs)\n" +
		"check-house\tyq\tscripts/check-house.sh:4\n" +
		"check-house\tjq\tscripts/check-house.sh:5\n" +
		"check-forever\txmllint\tscripts/check-forever.sh:4\n" +
		"check-missing\t?\t(resolves to no declaration)\n" +
		"# 6 members scanned: 2 compiled, 3 shell, 1 other; 1 undecidable\n"
	if code != 0 || out != want {
		t.Fatalf("default arm: exit %d\n%s\nwant\n%s", code, out, want)
	}

	code, out = s.runSplit(nil, "bash", "gate-sdk/bin/run-gates.sh", "--emit", "port-blockers", "--group")
	want = "group 1: 1 members\tcalls=-\tglobs=*.yml\n" +
		"check-house\tlines=6\tc2=none\tc3=precommit\tc7=yq,jq\tcouples=*.yml\n" +
		"?\tcheck-missing\tlines=0\t-\n" +
		"# 6 members scanned, 1 groups, 1 undecidable, 2 ported, 1 permanently shell, 1 held; still owed 3, takeable at this cut 2\n"
	if code != 0 || out != want {
		t.Fatalf("--group: exit %d\n%s\nwant\n%s", code, out, want)
	}

	code, out = s.runSplit(nil, "bash", "gate-sdk/bin/run-gates.sh", "--emit", "port-blockers", "--tree")
	for _, row := range []string{"scripts/check-house.sh\towed\tlines=6\n", "scripts/check-held.sh\tport-until:port-held\tlines=5\n",
		"scripts/check-forever.sh\tno-port\tlines=4\n", "tools/setup.sh\towed\tlines=2\n", "gate-sdk/bin/run-gates.sh\tno-port\t"} {
		if !strings.Contains(out, row) {
			t.Errorf("--tree lacks %q:\n%s", row, out)
		}
	}
	if code != 0 || strings.Contains(out, "setup.test.sh") || !strings.HasSuffix(out, " 1 held, 2 owed\n") {
		t.Fatalf("--tree: exit %d\n%s", code, out)
	}

	// Refusals: exclusive arms, unknown words, and --tree outside git.
	for _, args := range [][]string{{"--group", "--tree"}, {"--bogus"}, {"--gates-dir"}} {
		code, out = s.runSplit(nil, binPath, append([]string{"--emit", "port-blockers"}, args...)...)
		if code != 2 || !strings.Contains(out, "usage: gates --emit port-blockers") {
			t.Errorf("%v: want a usage refusal, got exit %d\n%s", args, code, out)
		}
	}
	plain := t.TempDir()
	code, _, errs := s.runStreams("", nil, nil, "sh", "-c", "cd \"$1\" && exec \"$2\" --emit port-blockers --tree", "_", plain, binPath)
	if code != 2 || !strings.Contains(errs, "git cannot list one here") {
		t.Fatalf("--tree outside a repository must refuse: exit %d %s", code, errs)
	}

	// --needs answers a compiled row and refuses a shell member.
	code, out = s.runSplit(nil, binPath, "--needs", "check-shellcheck")
	if code != 0 || out != "shellcheck\n" {
		t.Fatalf("--needs check-shellcheck: exit %d %q", code, out)
	}
	if code, out = s.runSplit(nil, binPath, "--needs", "check-house"); code != 2 || !strings.Contains(out, "not a compiled gate") {
		t.Fatalf("--needs on a shell member must refuse: exit %d %q", code, out)
	}
}

// The parity arm through the vendored front end, with the binary under
// test behind every binary-backed case.
func TestFrontEndParityArm(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	code, out := s.frontEnd(nil, "--run-front-end-parity")
	if code != 0 || !strings.HasPrefix(out, "FRONT-END-PARITY: clean (18 cases, ") || !strings.Contains(out, "bash, dash, busybox sh") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "pwsh") {
		t.Fatalf("the clean line must say what became of pwsh: %s", out)
	}
	code, out = s.frontEnd(nil, "--with-foreign-shells", "sh", "-c", "echo $((6*7))")
	if code != 0 || !strings.HasPrefix(out, "42\nWITH-FOREIGN-SHELLS: clean (1 case, 3 runs") {
		t.Fatalf("--with-foreign-shells: exit %d\n%s", code, out)
	}
	code, out = s.frontEnd(nil, "--with-foreign-shells", "sh", "-c", "printf '%s\\n' $'x'")
	if code != 1 || !strings.Contains(out, "dash as sh differs from bash as sh") {
		t.Fatalf("--with-foreign-shells must report a divergence: exit %d\n%s", code, out)
	}
}
