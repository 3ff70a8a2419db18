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
	if code, out, errs := s.hook("", "stop-gates", stop); code != 0 || out != "" {
		t.Fatalf("a Stop with an empty base over an unborn HEAD: exit %d %q %q", code, out, errs)
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
	s.write("docs/guide.md", "see /ho"+"me/marta/x\n", 0o644)
	s.git("commit", "-q", "--no-verify", "-am", "docs: a path")
	_, out, _ := s.hook("", "commit-audit", payload("PostToolUse"))
	if !strings.Contains(out, `"decision"`) || !strings.Contains(out, "docs: a path") || strings.Contains(out, "chore: start") {
		t.Fatalf("the red second commit: %s", out)
	}
}

// Issue 42 item 17: a tip recorded before a command whose commit is gone
// after it (the branch deleted, its commit pruned) holds no Stop and
// blocks no command: it excludes nothing still reachable, and a green
// commit made beside it is judged green.
func TestOutcomeJudgeOverAPrunedRecordedTip(t *testing.T) {
	t.Parallel()
	s := agentScratch(t)
	s.git("checkout", "-q", "-b", "tmp")
	s.git("commit", "-q", "--allow-empty", "--no-verify", "-m", "chore: scratch")
	s.git("checkout", "-q", "main")
	payload := func(event string) map[string]any {
		return map[string]any{"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": s.dir, "hook_event_name": event,
			"tool_name": "Bash", "tool_input": map[string]any{"command": "git commit"}, "stop_hook_active": false}
	}
	stop := map[string]any{"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": s.dir, "hook_event_name": "Stop", "stop_hook_active": false}
	if code, out, errs := s.hook("", "commit-audit", payload("PreToolUse")); code != 0 || out != "" {
		t.Fatalf("before: exit %d %q %q", code, out, errs)
	}
	s.git("branch", "-q", "-D", "tmp")
	s.git("reflog", "expire", "--expire=now", "--all")
	s.git("gc", "-q", "--prune=now")
	// A fetch left main's tip, so the fetched commits are set apart too.
	head := strings.TrimSpace(s.git("rev-parse", "HEAD"))
	s.write(".git/FETCH_HEAD", head+"\t\tbranch 'main' of example\n", 0o644)
	s.write("docs/more.md", "# More\n", 0o644)
	s.git("add", "-A")
	s.git("commit", "-q", "--no-verify", "-m", "docs: more")
	if code, out, errs := s.hook("", "commit-audit", payload("PostToolUse")); code != 0 || out != "" {
		t.Fatalf("a green commit beside a pruned recorded tip: exit %d %q %q", code, out, errs)
	}
	if code, out, errs := s.hook("", "stop-gates", stop); code != 0 || out != "" {
		t.Fatalf("the Stop after it: exit %d %q %q", code, out, errs)
	}
}
