package e2e

import (
	"strings"
	"testing"
)

// TestPreCommitRunsTouchedPairs: a commit touching a gate of the
// repository's own, or its fixture pair, runs that pair in the pre-commit
// hook, and a failing case refuses the commit where it is made.
func TestPreCommitRunsTouchedPairs(t *testing.T) {
	t.Parallel()
	s := newScratchBare(t)
	s.write("README.md", "# demo\n", 0o644)
	s.git("add", "-A")
	s.git("commit", "-q", "-m", "chore: start")
	for _, argv := range [][]string{{"init"}, {"new", "mine"}, {"init", "--hooks"}} {
		if code, out := s.gates(nil, argv...); code != 0 {
			t.Fatalf("gates %v: exit %d\n%s", argv, code, out)
		}
	}
	s.git("add", "-A")
	code, out := s.run(nil, "git", "commit", "-m", "feat: check-mine")
	if code != 0 || !strings.Contains(out, "run-gate-tests: scripts/gate-tests: 1 pair (0 failed)") {
		t.Fatalf("a commit adding a passing gate: exit %d\n%s", code, out)
	}
	// A bad case the rule no longer fires on.
	bad := "scripts/gate-tests/check-mine/bad/notes.md"
	s.write(bad, "# Notes\n\nall written out\n", 0o644)
	s.git("add", bad)
	code, out = s.run(nil, "git", "commit", "-m", "test: a weaker bad case")
	if code == 0 || !strings.Contains(out, "FAIL: scripts/gate-tests/check-mine/bad") || !strings.Contains(out, "the self-test of a gate this commit touches failed") {
		t.Fatalf("a bad case that no longer fires was committed: exit %d\n%s", code, out)
	}
	s.git("checkout", "HEAD", "--", bad)
	// A rule that never fires, committed alone.
	gate := "scripts/check-mine.sh"
	s.write(gate, strings.Replace(s.read(gate), "/TODO-EXAMPLE/", "/NEVER-MATCHES-ANYTHING/", 1), 0o755)
	s.git("add", gate)
	code, out = s.run(nil, "git", "commit", "-m", "fix: the rule")
	if code == 0 || !strings.Contains(out, "FAIL: scripts/gate-tests/check-mine/bad") {
		t.Fatalf("a rule that never fires was committed: exit %d\n%s", code, out)
	}
	// An edit elsewhere runs no pair.
	s.git("checkout", "HEAD", "--", gate)
	s.write("README.md", "# demo, edited\n", 0o644)
	s.git("add", "README.md")
	code, out = s.run(nil, "git", "commit", "-m", "docs: notes")
	if code != 0 || strings.Contains(out, "run-gate-tests") {
		t.Fatalf("an unrelated commit: exit %d\n%s", code, out)
	}
}

// TestAgentEditHookRunsTouchedPairs: an agent's edit to a fixture case of
// the repository's own gate runs that pair, and a failing case goes back
// to the model.
func TestAgentEditHookRunsTouchedPairs(t *testing.T) {
	t.Parallel()
	s := newScratchBare(t)
	s.write("README.md", "# demo\n", 0o644)
	s.git("add", "-A")
	s.git("commit", "-q", "-m", "chore: start")
	for _, argv := range [][]string{{"init"}, {"new", "mine"}} {
		if code, out := s.gates(nil, argv...); code != 0 {
			t.Fatalf("gates %v: exit %d\n%s", argv, code, out)
		}
	}
	bad := "scripts/gate-tests/check-mine/bad/notes.md"
	s.write(bad, "# Notes\n\nall written out\n", 0o644)
	payload := map[string]any{"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": s.dir,
		"hook_event_name": "PostToolUse", "tool_name": "Edit",
		"tool_input":    map[string]any{"file_path": s.dir + "/" + bad, "old_string": "x", "new_string": "y"},
		"tool_response": map[string]any{"success": true}}
	code, out, errs := s.hook("", "edit-gates", payload)
	if code != 0 || !strings.Contains(out, "the fixture pair of an edited gate") || !strings.Contains(out, "FAIL: scripts/gate-tests/check-mine/bad") {
		t.Fatalf("edit hook: exit %d\n%s\n%s", code, out, errs)
	}
}
