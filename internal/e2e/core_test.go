package e2e

import (
	"strings"
	"testing"
)

// TestKitRootsUnderSubdirectoryVendoring: gate-sdk vendored at
// tools/gate-sdk beside tools/canon-kit (which has checks/) and tools/zz
// (which has neither checks/ nor smoke/).
func TestKitRootsUnderSubdirectoryVendoring(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.write("tools/gate-sdk/bin/.keep", "", 0o644)
	s.write("tools/canon-kit/checks/.keep", "", 0o644)
	s.write("tools/zz/notes.txt", "", 0o644)
	code, out := s.run([]string{"GATE_SDK_ROOT=tools/gate-sdk"}, binPath, "--emit", "kit-roots")
	if code != 0 || out != "tools/gate-sdk\ntools/canon-kit\n" {
		t.Fatalf("exit %d %q", code, out)
	}
}

// TestKnobValuesPrecedence: the default, then a knob file, then the
// environment, for the prune set.
func TestKnobValuesPrecedence(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	get := func(extra ...string) string {
		code, out := s.run(extra, binPath, "--emit", "knob-values", "GATE_SDK_PRUNE_DIRS")
		if code != 0 {
			t.Fatalf("exit %d %q", code, out)
		}
		return out
	}
	if got := get(); got != "GATE_SDK_PRUNE_DIRS\tscalar\ttarget .git node_modules .tmp gate-tests worktrees\n" {
		t.Fatalf("default: %q", got)
	}
	s.write("scripts/gate-sdk-config.knobs", "GATE_SDK_PRUNE_DIRS = vendor build\n", 0o644)
	if got := get(); !strings.HasSuffix(got, "\tvendor build\n") {
		t.Fatalf("from the knob file: %q", got)
	}
	if got := get("GATE_SDK_PRUNE_DIRS=exported"); !strings.HasSuffix(got, "\texported\n") {
		t.Fatalf("exported: %q", got)
	}
	s.write("scripts/gate-sdk-config.knobs", "GATE_SDK_JOBS = 4\n", 0o644)
	if code, out := s.run(nil, binPath, "--emit", "knob-values", "GATE_SDK_PRUNE_DIRS"); code != 2 || !strings.Contains(out, "scripts/gate-sdk-config.knobs:1") {
		t.Fatalf("an env-only name in a file: exit %d %q", code, out)
	}
}

// TestUsageAndRefusals: the command line's three exits.
func TestUsageAndRefusals(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	if code, out := s.run(nil, binPath, "--help"); code != 0 || !strings.HasPrefix(out, "usage: gates") {
		t.Fatalf("--help: exit %d %q", code, out)
	}
	if code, out := s.run(nil, binPath, "--bogus"); code != 2 || !strings.Contains(out, "unrecognized option '--bogus'") || !strings.Contains(out, "usage: gates") {
		t.Fatalf("--bogus: exit %d %q", code, out)
	}
	if code, out := s.run(nil, binPath, "no-such-gate"); code != 2 || !strings.Contains(out, "gates --list") || strings.Contains(out, "check-tree-terms") {
		t.Fatalf("unknown gate: exit %d %q", code, out)
	}
	if code, out := s.run(nil, binPath, "check-tree-term"); code != 2 || !strings.Contains(out, "did you mean check-tree-terms?") {
		t.Fatalf("a gate typo: exit %d %q", code, out)
	}
	if code, out := s.run(nil, binPath, "--emit", "nope"); code != 2 || !strings.Contains(out, "kit-roots") || strings.Contains(out, "check-tree-terms") {
		t.Fatalf("unknown emit arm: exit %d %q", code, out)
	}
	if code, out := s.run(nil, binPath, "completion", "bash"); code != 0 || !strings.Contains(out, "bash completion") {
		t.Fatalf("completion: exit %d %.80q", code, out)
	}
}
