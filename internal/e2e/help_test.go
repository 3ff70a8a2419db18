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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	s := newScratch(t)
	s.write("scripts/check-slow.sh", "#!/usr/bin/env bash\n# graph: couples=* dir=one valve=none tier=precommit\nsleep 1.3\necho 'SLOW: clean (waited)'\n", 0o755)
	s.write("scripts/gates.list", "check-slow\n", 0o644)
	s.git("add", "-A")
	var out, errb bytes.Buffer
	cmd := exec.Command(binPath, "--run")
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = s.dir, s.env, &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() != 0 || out.String() != "The 1 gate passed.\n" {
		t.Fatalf("%v stdout %q stderr %q", err, out.String(), errb.String())
	}
}

// A bare `go build ./cmd/gates` at the top writes ./gates (./gates.exe on
// Windows); the clone ignores both, and nothing deeper of that name.
func TestBareBuildOutputIsIgnored(t *testing.T) {
	t.Parallel()
	for path, ignored := range map[string]bool{"gates": true, "gates.exe": true, "cmd/gates": false} {
		err := exec.Command("git", "-C", moduleRoot, "check-ignore", "-q", "--no-index", path).Run()
		if (err == nil) != ignored {
			t.Errorf("%s: ignored=%v, want %v", path, err == nil, ignored)
		}
	}
}

// A consumer's registered .sh gate, which completion offers at the first
// word, runs standalone like a compiled one, and has help of its own.
func TestRegisteredShellGateRunsStandalone(t *testing.T) {
	t.Parallel()
	s := batteryScratch(t)
	if code, out := s.run(nil, binPath, "check-fail"); code != 1 || out != "docs/a.md:1: bad word\nhelp: remove the bad word\n" {
		t.Errorf("check-fail: exit %d %q", code, out)
	}
	if code, out := s.run(nil, binPath, "check-pass"); code != 0 || out != "PASS: clean (1 file)\n" {
		t.Errorf("check-pass: exit %d %q", code, out)
	}
	code, out := s.stdout(nil, "check-fail", "--help")
	if code != 0 || !strings.HasPrefix(out, "check-fail — nothing bad in docs\n") || !strings.Contains(out, "declared in scripts/check-fail.sh") {
		t.Errorf("check-fail --help: exit %d %q", code, out)
	}
	code, out = s.stdout(nil, "check-fail", "--format", "json")
	if code != 1 || !strings.Contains(out, `"path": "docs/a.md"`) || !strings.Contains(out, `"help": "remove the bad word"`) {
		t.Errorf("check-fail --format json: exit %d\n%s", code, out)
	}
	if code, _ := s.run(nil, binPath, "check-missing"); code != 2 {
		t.Errorf("an unresolved registered name is no gate: exit %d", code)
	}
}

// A battery asked of a repository with no registry says how to get one,
// and a mistyped option answers in a few lines with the nearest spelling.
func TestCommandLineGuidesANewcomer(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	code, out := s.run(nil, binPath, "--run")
	if code != 2 || !strings.Contains(out, "no registry at scripts/gates.list") || !strings.Contains(out, "run `gates init`") {
		t.Errorf("--run with no registry: exit %d %q", code, out)
	}
	code, out = s.run(nil, binPath, "--rnu")
	if code != 2 || !strings.Contains(out, "did you mean --run?") || strings.Count(out, "\n") > 5 {
		t.Errorf("--rnu: exit %d %q", code, out)
	}
}
