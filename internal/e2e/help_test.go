package e2e

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// The help a user reaches from the shell: on stdout, exit 0, with the
// invariant and the knob table; an arm's too.
func TestGateAndArmHelpOnStdout(t *testing.T) {
	s := redScratch(t)
	s.write("scripts/gate-sdk-config.knobs", "GATE_SDK_PRUNE_EXTRA_DIRS = vendor\n", 0o644)
	var out, errb bytes.Buffer
	cmd := exec.Command(binPath, "check-tree-terms", "--help")
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = s.dir, s.env, &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() != 0 {
		t.Fatalf("check-tree-terms --help: %v\nstderr %q", err, errb.String())
	}
	for _, want := range []string{
		"check-tree-terms — no tracked file matches the banned-pattern set",
		"spec: gate-sdk/SPEC.md §check-tree-terms (declared in gate-sdk/checks/check-tree-terms.gate)",
		"  GATE_SDK_PRUNE_EXTRA_DIRS = vendor  [scripts/gate-sdk-config.knobs:1]",
		"  GATE_SDK_MSG_PATTERN_FILES = scripts/msg-patterns.list  [default]",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, out.String())
		}
	}
	for _, arm := range []string{"--run", "--install-hooks", "--hook", "--git-hook", "--run-demo"} {
		if code, out := s.stdout(nil, arm, "--help"); code != 0 || !strings.HasPrefix(out, "usage: gates "+arm) {
			t.Errorf("%s --help: exit %d %q", arm, code, out)
		}
	}
}

// A refusal names what the user typed: the binary, or the front end.
func TestRefusalNamesTheInvokedProgram(t *testing.T) {
	s := redScratch(t)
	if code, out := s.run(nil, binPath, "--bogus"); code != 2 || !strings.HasPrefix(out, "gates: unrecognized option '--bogus'\n") {
		t.Errorf("binary: exit %d %q", code, out)
	}
	if code, out := s.frontEnd(nil, "--bogus"); code != 2 || !strings.HasPrefix(out, "run-gates: unrecognized option '--bogus'\n") {
		t.Errorf("front end: exit %d %q", code, out)
	}
}

// In a pipe a battery longer than a second draws no progress: stderr
// stays empty and stdout is the transcript alone.
func TestNoProgressInAPipe(t *testing.T) {
	s := newScratch(t)
	s.write("scripts/check-slow.sh", "#!/usr/bin/env bash\n# graph: couples=* dir=one valve=none tier=precommit\nsleep 1.3\necho 'SLOW: clean (waited)'\n", 0o755)
	s.write("scripts/gates.list", "check-slow\n", 0o644)
	s.git("add", "-A")
	var out, errb bytes.Buffer
	cmd := exec.Command(binPath, "--run")
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = s.dir, s.env, &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() != 0 || out.String() != "All 1 gates passed.\n" {
		t.Fatalf("%v stdout %q stderr %q", err, out.String(), errb.String())
	}
}

// A bare `go build ./cmd/gates` at the top writes ./gates (./gates.exe on
// Windows); the clone ignores both, and nothing deeper of that name.
func TestBareBuildOutputIsIgnored(t *testing.T) {
	for path, ignored := range map[string]bool{"gates": true, "gates.exe": true, "cmd/gates": false} {
		err := exec.Command("git", "-C", moduleRoot, "check-ignore", "-q", "--no-index", path).Run()
		if (err == nil) != ignored {
			t.Errorf("%s: ignored=%v, want %v", path, err == nil, ignored)
		}
	}
}
