package e2e

import (
	"os"
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
	t.Parallel()
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
	// Allowed; the clone never opted in to the hooks, so the session's first
	// allowed call carries commit-guard's one-time notice, and nothing else.
	if code, out, errs := s.hook("", "commit-guard", agentMiscBash(s, good)); code != 0 || out != "" && !strings.Contains(out, "has not opted in") {
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
	t.Parallel()
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

// The harness wiring's lifecycle: init --harness claude registers the
// status line and allowlists .claude so the root gate stays green; doctor
// names a registration whose binary is gone; --uninstall takes out what the
// merge put in, the user's own entries staying, and removes a file that
// held nothing else.
func TestAgentMiscHarnessLifecycle(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.must(binPath, "init", "--harness", "claude")
	got := a.read(".claude/settings.json")
	if !strings.Contains(got, `"statusLine"`) || !strings.Contains(got, `gates-hook '$CLAUDE_PROJECT_DIR/bin/gates' --statusline`) {
		t.Fatalf("no status line registered:\n%s", got)
	}
	if allow := a.read("scripts/root-allowlist.list"); !strings.Contains(allow, "\n.claude\n") {
		t.Fatalf(".claude is not on the root allowlist:\n%s", allow)
	}
	a.must("git", "add", "-A")
	if r := a.runIn("", binPath, "check-root-tiering"); r.code != 0 {
		t.Fatalf("check-root-tiering after --harness: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A second run adds nothing twice.
	a.must(binPath, "init", "--harness", "claude")
	if n := strings.Count(a.read("scripts/root-allowlist.list"), ".claude\n"); n != 1 {
		t.Fatalf(".claude listed %d times", n)
	}

	// The binary the registrations name is gone: doctor says so.
	if err := os.Rename(filepath.Join(a.dir, "bin/gates"), filepath.Join(a.dir, "bin/gates.away")); err != nil {
		t.Fatal(err)
	}
	r := a.runIn("", filepath.Join(a.dir, "bin/gates.away"), "doctor")
	if r.code != 1 || !strings.Contains(r.stdout, "registers commit-guard for PreToolUse") || !strings.Contains(r.stdout, "the stub blocks each call") {
		t.Fatalf("doctor over a missing binary: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if err := os.Rename(filepath.Join(a.dir, "bin/gates.away"), filepath.Join(a.dir, "bin/gates")); err != nil {
		t.Fatal(err)
	}
	if r := a.runIn("", "bin/gates", "doctor"); strings.Contains(r.stdout, "exits 127") || strings.Contains(r.stdout, "the stub blocks") {
		t.Fatalf("doctor names a present binary:\n%s", r.stdout)
	}

	// --uninstall: the file init created goes, .claude with it.
	r = a.runIn("", binPath, "init", "--uninstall")
	if _, err := os.Stat(filepath.Join(a.dir, ".claude/settings.json")); !os.IsNotExist(err) {
		t.Fatalf("init's settings file stays after --uninstall (exit %d):\n%s%s", r.code, r.stdout, r.stderr)
	}

	// The user's own file: their entries stay, init's go.
	b := newAdopter(t)
	user := `{"model": "opus", "hooks": {"PostToolUse": [{"matcher": "Edit|Write|MultiEdit|NotebookEdit", "hooks": [{"type": "command", "command": "prettier --write ."}]}]}}` + "\n"
	b.write(".claude/settings.json", user)
	b.must(binPath, "init", "--harness", "claude")
	r = b.runIn("", binPath, "init", "--uninstall")
	left := b.read(".claude/settings.json")
	if !strings.Contains(left, "prettier --write .") || !strings.Contains(left, `"model": "opus"`) {
		t.Fatalf("the user's entries went with init's (exit %d):\n%s\n%s%s", r.code, left, r.stdout, r.stderr)
	}
	if strings.Contains(left, "--hook") || strings.Contains(left, "--statusline") || strings.Contains(left, "bin/gates") {
		t.Fatalf("init's entries stay after --uninstall:\n%s", left)
	}
}

// The pre-commit hook reads the registry and the knob file the commit
// records: an unstaged edit that comments a gate out, or points its
// pattern list at an empty file, disarms nothing. A merge runs the same
// members through pre-merge-commit.
func TestAgentMiscHookJudgesWithTheCommitsConfiguration(t *testing.T) {
	t.Parallel()
	s := agentScratch(t)
	s.write("scripts/gate-sdk-config.knobs", "# gate-sdk's knobs\n", 0o644)
	s.git("add", "scripts/gate-sdk-config.knobs")
	s.git("commit", "-q", "-m", "chore: knobs")
	if code, out := s.run(nil, binPath, "--install-hooks"); code != 0 || !strings.Contains(out, "pre-merge-commit") {
		t.Fatalf("--install-hooks: exit %d\n%s", code, out)
	}
	head := s.git("rev-parse", "HEAD")
	leak := "Notes live in /ho" + "me/marta/notes.\n"
	s.write("docs/leak.md", leak, 0o644)
	s.git("add", "docs/leak.md")
	// Unstaged: the registry with the tree gate commented out.
	s.write("scripts/gates.list", "# check-tree-terms\ncheck-action-pinning\ncheck-commit-subject\n", 0o644)
	code, out := s.run(nil, "git", "commit", "-m", "docs: notes")
	if code == 0 || !strings.Contains(out, "check-tree-terms") {
		t.Fatalf("an unstaged registry edit disarmed the hook: exit %d\n%s", code, out)
	}
	s.git("checkout", "--", "scripts/gates.list")
	// Unstaged: the knob file pointing the pattern list at an empty file.
	s.write("scripts/empty.list", "", 0o644)
	s.write("scripts/gate-sdk-config.knobs", "# gate-sdk's knobs\nGATE_SDK_MSG_PATTERN_FILES = scripts/empty.list\n", 0o644)
	code, out = s.run(nil, "git", "commit", "-m", "docs: notes")
	if code == 0 || !strings.Contains(out, "check-tree-terms") {
		t.Fatalf("an unstaged knob edit disarmed the hook: exit %d\n%s", code, out)
	}
	if got := s.git("rev-parse", "HEAD"); got != head {
		t.Fatalf("a commit landed: %s", got)
	}
	s.git("checkout", "--", "scripts/gate-sdk-config.knobs")
	os.Remove(filepath.Join(s.dir, "scripts/empty.list"))

	// A merge: the leak arrives on a branch committed past the hooks.
	s.git("checkout", "-q", "-b", "side")
	s.git("commit", "-q", "--no-verify", "-m", "docs: notes")
	s.git("checkout", "-q", "main")
	s.write("docs/other.md", "other\n", 0o644)
	s.git("add", "docs/other.md")
	s.git("commit", "-q", "-m", "docs: other")
	head = s.git("rev-parse", "HEAD")
	code, out = s.run(nil, "git", "merge", "--no-ff", "-m", "Merge branch 'side'", "side")
	if code == 0 || !strings.Contains(out, "check-tree-terms") || !strings.Contains(out, "pre-merge-commit") {
		t.Fatalf("a merge carrying a leak was not refused: exit %d\n%s", code, out)
	}
	if got := s.git("rev-parse", "HEAD"); got != head {
		t.Fatalf("the merge commit landed: %s", got)
	}
}

// The status line reads what the last whole battery recorded, and the
// front end with no binary declines at 0 with nothing on stdout.
func TestAgentMiscStatusline(t *testing.T) {
	t.Parallel()
	s := agentScratch(t)
	code, out, _ := s.runStreams("", nil, nil, binPath, "--statusline")
	if code != 0 || !strings.Contains(out, "hooks off") || !strings.Contains(out, "no battery run yet") {
		t.Fatalf("fresh: exit %d %q", code, out)
	}
	s.write("docs/leak.md", "see /ho"+"me/marta/x\n", 0o644)
	s.git("add", "docs/leak.md")
	if code, _ := s.run(nil, binPath, "--run"); code != 1 {
		t.Fatalf("battery: exit %d", code)
	}
	if code, out := s.run(nil, binPath, "--install-hooks"); code != 0 {
		t.Fatalf("--install-hooks: exit %d\n%s", code, out)
	}
	code, out, errs := s.runStreams("docs", []byte(`{"session_id": "s"}`), nil, binPath, "--statusline", "extra")
	if code != 0 || !strings.Contains(out, "hooks on") || !strings.Contains(out, "1 red") || !strings.Contains(out, "check-tree-terms") || !strings.Contains(errs, `ignoring "extra"`) {
		t.Fatalf("after a red battery: exit %d %q %q", code, out, errs)
	}
	// No binary, through the front end: exit 0, an empty line.
	code, out, _ = s.runStreams("", nil, []string{"GATE_SDK_NATIVE_BIN=" + filepath.Join(s.dir, "bin/nowhere")}, "bash", "gate-sdk/bin/run-gates.sh", "--statusline")
	if code != 0 || out != "" {
		t.Fatalf("no binary: exit %d %q", code, out)
	}
}
