package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 42 item 17: the outcome judge over an unborn HEAD, in a session
// whose first call is a Stop. The Stop is not held, the green first commit
// is judged green, and a red one after it is named (the green one is not).
func TestOutcomeJudgeOverAnUnbornHead(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.copyTree(filepath.Join(moduleRoot, "kits", "gate-sdk", "checks"), filepath.Join(s.dir, "gate-sdk", "checks"))
	patterns, err := os.ReadFile(filepath.Join(moduleRoot, "templates", "msg-patterns.list"))
	if err != nil {
		t.Fatal(err)
	}
	s.write("scripts/msg-patterns.list", string(patterns), 0o644)
	s.write("scripts/gates.list", "check-tree-terms\ncheck-commit-subject\n", 0o644)
	s.write("docs/guide.md", "# Guide\n", 0o644)
	payload := func(event string) map[string]any {
		return map[string]any{"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": s.dir, "hook_event_name": event,
			"tool_name": "Bash", "tool_input": map[string]any{"command": "git commit"}, "stop_hook_active": false}
	}
	stop := map[string]any{"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": s.dir, "hook_event_name": "Stop", "stop_hook_active": false}
	if code, out, errs := s.hook("", "stop-gates", stop); code != 0 || out != "" {
		t.Fatalf("a first Stop over an unborn HEAD: exit %d %q %q", code, out, errs)
	}
	if code, out, errs := s.hook("", "commit-audit", payload("PreToolUse")); code != 0 || out != "" {
		t.Fatalf("before the first commit: exit %d %q %q", code, out, errs)
	}
	s.git("add", "-A")
	s.git("commit", "-q", "--no-verify", "-m", "chore: start")
	if code, out, errs := s.hook("", "commit-audit", payload("PostToolUse")); code != 0 || out != "" {
		t.Fatalf("a green first commit: exit %d %q %q", code, out, errs)
	}
	if code, out, errs := s.hook("", "stop-gates", stop); code != 0 || out != "" {
		t.Fatalf("a Stop after a green first commit: exit %d %q %q", code, out, errs)
	}
	s.hook("", "commit-audit", payload("PreToolUse"))
	s.write("docs/guide.md", "see /ho"+"me/alice/x\n", 0o644)
	s.git("commit", "-q", "--no-verify", "-am", "docs: a path")
	_, out, _ := s.hook("", "commit-audit", payload("PostToolUse"))
	if !strings.Contains(out, `"decision"`) || !strings.Contains(out, "docs: a path") || strings.Contains(out, "chore: start") {
		t.Fatalf("the red second commit: %s", out)
	}
}
