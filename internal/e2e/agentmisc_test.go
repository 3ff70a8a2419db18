package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

func agentMiscBash(s *scratch, cmd string) map[string]any {
	return map[string]any{"session_id": "s-misc", "cwd": s.dir, "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": cmd, "description": "x"}}
}

// A heredoc message the commit-msg gates refuse is refused before the
// commit runs, in Claude Code's own form and the other heredoc spellings,
// with a refusal that names no scratch file; a good one is allowed and
// commits when the command runs.
func TestAgentMiscHeredocMessageRefusedBeforeCommit(t *testing.T) {
	s := agentScratch(t)
	s.write("docs/more.md", "more\n", 0o644)
	s.git("add", "docs/more.md")
	head := s.git("rev-parse", "HEAD")
	bad := []string{
		"git commit -m \"$(cat <<'EOF'\nwip: more docs\n\nCo-Authored-By: someone\nEOF\n)\"",
		"git commit -m \"$(cat <<EOF\nwip more docs\nEOF\n)\"",
		"git commit -m \"$(cat <<-'EOF'\n\twip more docs\n\tEOF\n)\"",
		"git commit -F - <<'EOF'\nwip more docs\nEOF\n",
		"git commit --file=- <<< 'wip more docs'",
		"f() { git commit -m \"$(cat <<'EOF'\nwip\nEOF\n)\"; }; f",
		"time -p git commit -m \"$(cat <<'EOF'\nwip\nEOF\n)\"",
	}
	for _, cmd := range bad {
		code, out, errs := s.hook("docs", "commit-guard", agentMiscBash(s, cmd))
		if code != 2 || out != "" || !strings.Contains(errs, "check-commit-subject") {
			t.Errorf("%q: exit %d stdout %q stderr %q", cmd, code, out, errs)
			continue
		}
		if strings.Contains(errs, "COMMIT_EDITMSG") || strings.Contains(errs, "gates-hook-") || strings.Contains(errs, "is kept in") {
			t.Errorf("%q: the refusal names the deleted scratch file:\n%s", cmd, errs)
		}
		if !strings.Contains(errs, "<proposed commit message>:1:") || !strings.Contains(errs, "was not run") {
			t.Errorf("%q: the refusal is not worded for a check before the command:\n%s", cmd, errs)
		}
	}
	// -F with a file the command does not write is read before the commit.
	s.write(".tmp/msg.txt", "wip notes\n", 0o644)
	if code, _, errs := s.hook("", "commit-guard", agentMiscBash(s, "git commit -F .tmp/msg.txt")); code != 2 || !strings.Contains(errs, "check-commit-subject") {
		t.Errorf("-F file: exit %d %q", code, errs)
	}
	if code, _, errs := s.hook("", "commit-guard", agentMiscBash(s, "git commit --file="+filepath.Join(s.dir, ".tmp/msg.txt"))); code != 2 || !strings.Contains(errs, "check-commit-subject") {
		t.Errorf("--file=abs: exit %d %q", code, errs)
	}
	if got := s.git("rev-parse", "HEAD"); got != head {
		t.Fatalf("HEAD moved: %s -> %s", head, got)
	}
	good := "git commit -q -m \"$(cat <<'EOF'\ndocs: more notes\n\nA body line.\nEOF\n)\""
	if code, out, errs := s.hook("", "commit-guard", agentMiscBash(s, good)); code != 0 || out != "" {
		t.Fatalf("good heredoc: exit %d %q %q", code, out, errs)
	}
	if code, out := s.run(nil, "bash", "-c", good); code != 0 {
		t.Fatalf("running the good command: exit %d %s", code, out)
	}
	if msg := s.git("log", "-1", "--format=%B"); !strings.HasPrefix(msg, "docs: more notes\n\nA body line.") {
		t.Fatalf("commit message %q", msg)
	}
}

// A program named by an expansion the line does not assign is allowed with
// the advise envelope; one the line assigns is judged.
func TestAgentMiscExpansionInCommandPosition(t *testing.T) {
	s := agentScratch(t)
	code, out, _ := s.hook("", "commit-guard", agentMiscBash(s, `$GIT_BIN commit -n -m "feat: x"`))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	v := envelope(t, out)
	hso, _ := v["hookSpecificOutput"].(map[string]any)
	ctx, _ := hso["additionalContext"].(string)
	if hso["hookEventName"] != "PreToolUse" || !strings.Contains(ctx, "$GIT_BIN") || !strings.Contains(ctx, "not enforced") {
		t.Fatalf("advise envelope %s", out)
	}
	if code, _, errs := s.hook("", "commit-guard", agentMiscBash(s, `g=git; $g commit -n -m "feat: x"`)); code != 2 || !strings.Contains(errs, "--no-verify") {
		t.Fatalf("assigned program: exit %d %q", code, errs)
	}
	for _, cmd := range []string{`f() { git commit -n -m "feat: x"; }; f`, `time -p git commit -n -m "feat: x"`, `env -S "git commit -n -m x"`,
		`builtin exec git commit -n -m x`, `coproc git commit -n -m x`, `nice -n 5 git commit -n -m x`, `command -p git commit -n -m x`, `env -i git commit -n -m x`} {
		if code, _, errs := s.hook("", "commit-guard", agentMiscBash(s, cmd)); code != 2 || !strings.Contains(errs, "--no-verify") {
			t.Errorf("%q: exit %d %q", cmd, code, errs)
		}
	}
}
