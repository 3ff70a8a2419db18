package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The footing: the placed git hooks verify the binary they run against
// the digest --install-hooks recorded, and refuse a commit when it
// differs or is gone, with the one command that restores it; an agent
// caller (CLAUDECODE in the environment) is never told --no-verify.

// agentCommit stages a leak and commits it as the agent's shell would,
// answering the commit's result and whether HEAD moved.
func agentCommit(t *testing.T, p *player) (result, bool) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(p.dir, "docs/leak.md"), []byte(leakLine), 0o644); err != nil {
		t.Fatal(err)
	}
	p.git("add", "docs/leak.md")
	head := p.git("rev-parse", "HEAD")
	r := run(t, p.dir, append(append([]string(nil), p.env...), "CLAUDECODE=1"), "git", "commit", "-q", "-m", "docs: add notes")
	return r, p.git("rev-parse", "HEAD") != head
}

func TestFootingReplacedBinaryIsRefused(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "footing replaced")
	if err := os.WriteFile(filepath.Join(p.dir, "bin/gates"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, moved := agentCommit(t, p)
	if moved || r.code == 0 {
		t.Fatalf("a commit ran on a replaced binary: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"bin/gates", "recorded", "cp .git/gate-hooks/pre-commit bin/gates"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "--no-verify") {
		t.Errorf("an agent caller was told --no-verify:\n%s", r.stderr)
	}
	// The restore command runs, and the hook then judges the commit.
	if out := run(t, p.dir, p.env, "sh", "-c", "cp .git/gate-hooks/pre-commit bin/gates"); out.code != 0 {
		t.Fatalf("restore: %s", out.stderr)
	}
	r, moved = agentCommit(t, p)
	if moved || !strings.Contains(r.stdout+r.stderr, "check-tree-terms") || strings.Contains(r.stdout+r.stderr, "--no-verify") {
		t.Fatalf("after the restore: moved %v exit %d\n%s%s", moved, r.code, r.stdout, r.stderr)
	}
}

func TestFootingCleanedBinaryIsRefused(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "footing cleaned")
	p.git("clean", "-q", "-fdx")
	if _, err := os.Stat(filepath.Join(p.dir, "bin/gates")); err == nil {
		t.Fatal("git clean -fdx left bin/gates")
	}
	r, moved := agentCommit(t, p)
	if moved || r.code == 0 || !strings.Contains(r.stderr, "cp .git/gate-hooks/pre-commit bin/gates") || strings.Contains(r.stderr, "--no-verify") {
		t.Fatalf("a commit with the binary gone: moved %v exit %d\n%s", moved, r.code, r.stderr)
	}
}

func TestFootingKnobRedirectIsRefused(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "footing knob")
	if err := os.WriteFile(filepath.Join(p.dir, "scripts/gate-sdk-config.local.knobs"), []byte("GATE_SDK_NATIVE_BIN = /bin/true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, moved := agentCommit(t, p)
	if moved || r.code == 0 {
		t.Fatalf("a knob pointing the hooks at /bin/true let the commit land: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"GATE_SDK_NATIVE_BIN", "/bin/true", "scripts/gate-sdk-config.local.knobs"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "--no-verify") {
		t.Errorf("an agent caller was told --no-verify:\n%s", r.stderr)
	}
}

// The judge's own footing: a state directory the command replaced by a
// file, or a ref git cannot list, is answered to the model (decision:
// block with the reason), after the command and at Stop, never only to
// the user.
func TestFootingJudgeFailuresReachTheModel(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "footing state")
	p.bashQuiet("git status --short")
	_, b, post := p.bash(`rm -rf .git/gates-agent && echo x > .git/gates-agent && printf '` + strings.TrimSuffix(leakLine, "\n") + `\n' > docs/leak.md && git add docs/leak.md && echo 'git commit -q -n -m "docs: notes"' | sh`)
	if b {
		t.Fatal("the command was blocked before it ran")
	}
	if !strings.Contains(post, "commit-audit") || !strings.Contains(post, ".git/gates-agent") {
		t.Fatalf("a broken state directory was not told to the model after the command:\n%q", post)
	}
	stop := p.stop(false)
	if !strings.Contains(stop, ".git/gates-agent") {
		t.Fatalf("a broken state directory was not told to the model at Stop:\n%q", stop)
	}
}

// git clean -x in an adopted clone would delete the binary every hook
// runs: it is stopped before it runs with the spelling that keeps the
// binary, which then runs; a clean that spares the binary is not stopped.
func TestFootingGitCleanKeepsTheBinary(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "footing clean")
	why, b, _ := p.bash("git clean -fdx")
	if !b || !strings.Contains(why, "bin/gates") || !strings.Contains(why, "-e /bin/gates") {
		t.Fatalf("git clean -fdx: blocked %v %q", b, why)
	}
	if _, err := os.Stat(filepath.Join(p.dir, "bin/gates")); err != nil {
		t.Fatal("the blocked clean ran")
	}
	for _, cmd := range []string{"git clean -fdx -e /bin/gates", "git clean -fd", "git clean -ndx", "git clean -fdx docs"} {
		if why, b, _ := p.bash(cmd); b {
			t.Errorf("%s was blocked: %s", cmd, why)
		}
	}
	if _, err := os.Stat(filepath.Join(p.dir, "bin/gates")); err != nil {
		t.Fatal("a clean that spares the binary removed it")
	}
}

// A knob that points the placed hooks away from the recorded binary is
// caught before the next command, with the repair.
func TestFootingKnobRedirectBlocksTheAgent(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "footing knob agent")
	p.bashQuiet("git status --short")
	if err := os.WriteFile(filepath.Join(p.dir, "scripts/gate-sdk-config.local.knobs"), []byte("GATE_SDK_NATIVE_BIN = /bin/true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	why, b, _ := p.bash("ls")
	if !b || !strings.Contains(why, "GATE_SDK_NATIVE_BIN") || !strings.Contains(why, "/bin/true") {
		t.Fatalf("a redirected knob: blocked %v %q", b, why)
	}
	// The repair it names runs through the harness and clears the block.
	_, repair, ok := strings.Cut(why, "Run ")
	repair, _, ok2 := strings.Cut(repair, " to put them back")
	if !ok || !ok2 {
		t.Fatalf("no repair named: %q", why)
	}
	if why, b, _ := p.bash(repair); b {
		t.Fatalf("the repair %q was blocked: %s", repair, why)
	}
	if why, b, _ := p.bash("ls"); b {
		t.Fatalf("still blocked after the repair %q: %s", repair, why)
	}
}

// One garbage ref does not turn the judge off: the refs git can read are
// listed and a red commit is still named.
func TestFootingGarbageRefKeepsTheJudge(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "footing garbage ref")
	p.bashQuiet("git status --short")
	p.bash("echo garbage > .git/refs/heads/bad")
	_, b, post := p.bash(`printf '` + strings.TrimSuffix(leakLine, "\n") + `\n' > docs/leak.md && git add docs/leak.md && echo 'git commit -q -n -m "docs: notes"' | sh`)
	id := p.git("rev-parse", "--short", "HEAD")
	if b || !strings.Contains(post, "Commit "+id) {
		t.Fatalf("with a garbage ref the red commit %s was not named: blocked %v\n%s", id, b, post)
	}
}

// A file in place of .git/worktrees no longer stops the judge: a landed
// commit is judged in process from its own tree, with no scratch worktree,
// and the red commit is named to the model after the command.
func TestFootingNoScratchReachesTheModel(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "footing scratch")
	p.bashQuiet("git status --short")
	_, b, post := p.bash(`rm -rf .git/worktrees && echo x > .git/worktrees && printf '` + strings.TrimSuffix(leakLine, "\n") + `\n' > docs/leak.md && git add docs/leak.md && echo 'git commit -q -n -m "docs: notes"' | sh`)
	id := p.git("rev-parse", "--short", "HEAD")
	if b || !strings.Contains(post, "Commit "+id) || !strings.Contains(post, "check-tree-terms") {
		t.Fatalf("a judge with no scratch worktree did not name the red commit %s: blocked %v, reason %q", id, b, post)
	}
}

// registeredStatusLine runs the status line .claude/settings.json
// registers, through a shell as the harness does.
func (p *player) registeredStatusLine() result {
	p.t.Helper()
	var doc struct {
		StatusLine struct {
			Command string `json:"command"`
		} `json:"statusLine"`
	}
	data, err := os.ReadFile(filepath.Join(p.dir, ".claude/settings.json"))
	if err != nil {
		p.t.Fatal(err)
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.StatusLine.Command == "" {
		p.t.Fatalf("no status line registered (%v):\n%s", err, data)
	}
	s := &scratch{t: p.t, dir: p.dir, env: p.env}
	code, o, e := s.runStreams("", []byte(`{"session_id": "`+p.session+`"}`), nil, "sh", "-c", doc.StatusLine.Command)
	return result{code: code, stdout: o, stderr: e}
}

// everyHookRefuses fires event and wants each registered command to block
// (exit 2) with the restore command and why on stderr.
func everyHookRefuses(t *testing.T, as []answer, why string) {
	t.Helper()
	if len(as) == 0 {
		t.Fatal("nothing registered for the event")
	}
	for _, a := range as {
		if a.code != 2 || !strings.Contains(a.errs, "cp .git/gate-hooks/pre-commit bin/gates") || !strings.Contains(a.errs, why) {
			t.Errorf("%v: exit %d, want 2 with the restore command and %q:\n%s", a.argv, a.code, why, a.errs)
		}
		if strings.Contains(a.errs, "--no-verify") {
			t.Errorf("%v: the agent was told --no-verify:\n%s", a.argv, a.errs)
		}
	}
}

// The agent hooks and the status line run the binary through the stub
// init registers: once the binary is deleted, each agent hook blocks (exit
// 2, the reason to the model) with the one command that restores it, the
// status line says the binary is missing, and the restore clears both.
func TestFootingAgentHooksRefuseAMissingBinary(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "footing agent missing")
	if err := os.Remove(filepath.Join(p.dir, "bin/gates")); err != nil {
		t.Fatal(err)
	}
	in := map[string]any{"tool_input": map[string]any{"command": "ls", "description": "x"}}
	everyHookRefuses(t, p.fire("PreToolUse", "Bash", in), "missing")
	everyHookRefuses(t, p.fire("PostToolUse", "Edit", map[string]any{"tool_input": map[string]any{"file_path": filepath.Join(p.dir, "README.md")}}), "missing")
	everyHookRefuses(t, p.fire("Stop", "", map[string]any{"stop_hook_active": false}), "missing")
	sl := p.registeredStatusLine()
	if sl.code != 0 || !strings.Contains(sl.stdout, "gates: binary missing — cp .git/gate-hooks/pre-commit bin/gates") {
		t.Fatalf("the status line over a missing binary: exit %d %q %q", sl.code, sl.stdout, sl.stderr)
	}
	if out := run(t, p.dir, p.env, "sh", "-c", "cp .git/gate-hooks/pre-commit bin/gates"); out.code != 0 {
		t.Fatalf("restore: %s", out.stderr)
	}
	if why, b, _ := p.bash("ls"); b {
		t.Fatalf("still blocked after the restore: %s", why)
	}
	if sl := p.registeredStatusLine(); sl.code != 0 || strings.Contains(sl.stdout, "binary") || !strings.Contains(sl.stdout, "gates") {
		t.Fatalf("the status line after the restore: exit %d %q %q", sl.code, sl.stdout, sl.stderr)
	}
}

// A binary replaced by a script that exits 0 is not run by the agent
// hooks: its digest differs from the install record, and each hook
// refuses as for a missing one.
func TestFootingAgentHooksRefuseAReplacedBinary(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "footing agent replaced")
	if err := os.WriteFile(filepath.Join(p.dir, "bin/gates"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	in := map[string]any{"tool_input": map[string]any{"command": "git commit -q -n -m x", "description": "x"}}
	everyHookRefuses(t, p.fire("PreToolUse", "Bash", in), "differs from the install record")
	everyHookRefuses(t, p.fire("Stop", "", map[string]any{"stop_hook_active": false}), "differs from the install record")
	sl := p.registeredStatusLine()
	if sl.code != 0 || !strings.Contains(sl.stdout, "gates: binary differs from the install record") || !strings.Contains(sl.stdout, "cp .git/gate-hooks/pre-commit bin/gates") {
		t.Fatalf("the status line over a replaced binary: exit %d %q %q", sl.code, sl.stdout, sl.stderr)
	}
}

// An older init registered the binary directly (no stub): init --harness
// claude rewrites those registrations through the stub, and --uninstall
// then leaves no trace of them.
func TestFootingHarnessRegistrationUpgrades(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "footing upgrade")
	old := strings.NewReplacer(`"sh", "args": ["-c", "@GATE_SDK_STUB@", "gates-hook", "@GATE_SDK_NATIVE_BIN@", `, `"$CLAUDE_PROJECT_DIR/bin/gates", "args": [`,
		`"sh -c '@GATE_SDK_STUB@' gates-hook '@GATE_SDK_NATIVE_BIN@' --statusline"`, `"\"$CLAUDE_PROJECT_DIR/bin/gates\" --statusline"`).Replace(readTemplate(t))
	if strings.Contains(old, "@GATE_SDK") {
		t.Fatalf("the older registration still holds a placeholder:\n%s", old)
	}
	if err := os.WriteFile(filepath.Join(p.dir, ".claude/settings.json"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, p.dir, p.env, filepath.Join(p.dir, "bin/gates"), "init", "--harness", "claude"); r.code != 0 || !strings.Contains(r.stdout, "merged") {
		t.Fatalf("init over an older registration: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	got, _ := os.ReadFile(filepath.Join(p.dir, ".claude/settings.json"))
	if strings.Contains(string(got), `"command": "$CLAUDE_PROJECT_DIR/bin/gates"`) || strings.Count(string(got), `"gates-hook"`) != 9 || !strings.Contains(string(got), "gates-hook '$CLAUDE_PROJECT_DIR/bin/gates' --statusline") {
		t.Fatalf("the older registrations were not rewritten through the stub:\n%s", got)
	}
	os.Remove(filepath.Join(p.dir, "bin/gates"))
	why, b, _ := p.bash("ls")
	if !b || !strings.Contains(why, "cp .git/gate-hooks/pre-commit bin/gates") {
		t.Fatalf("after the upgrade a missing binary: blocked %v %q", b, why)
	}
	run(t, p.dir, p.env, "sh", "-c", "cp .git/gate-hooks/pre-commit bin/gates")
	// Exit 1: the clone changed two files init wrote, which it keeps.
	if r := run(t, p.dir, p.env, filepath.Join(p.dir, "bin/gates"), "init", "--uninstall"); r.code == 2 || !strings.Contains(r.stdout, "removed .claude/settings.json") {
		t.Fatalf("--uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(p.dir, ".claude")); !os.IsNotExist(err) {
		left, _ := os.ReadFile(filepath.Join(p.dir, ".claude/settings.json"))
		t.Fatalf("--uninstall left .claude:\n%s", left)
	}
}

// readTemplate answers the kit's harness settings template.
func readTemplate(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot, "templates/claude-settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The stub digests the binary only when its inode changed after the
// install record: with no digest tool on PATH, an untouched binary still
// runs (no digest needed), and one rewritten since (the same bytes, a new
// change time) is refused as unverified, never run unchecked.
func TestFootingStubDigestsOnlyAChangedBinary(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "footing stub digest")
	data, err := os.ReadFile(filepath.Join(p.dir, ".claude/settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc settingsDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	args := doc.Hooks["PreToolUse"][0].Hooks[0].Args
	if len(args) < 4 || args[0] != "-c" {
		t.Fatalf("not the stub's form: %q", args)
	}
	// A PATH with git and find only: no sha256sum, no shasum.
	tools := t.TempDir()
	for _, name := range []string{"git", "find"} {
		at, err := exec.LookPath(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(at, filepath.Join(tools, name)); err != nil {
			t.Fatal(err)
		}
	}
	var env []string
	for _, kv := range p.env {
		if !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+tools)
	shell, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	version := func() result {
		return run(t, p.dir, env, shell, "-c", args[1], args[2], args[3], "--version")
	}
	// The binary older than the time the record's text holds for the
	// placed hooks: no digest taken.
	if r := version(); r.code != 0 || !strings.HasPrefix(r.stdout, "gates ") {
		t.Fatalf("an untouched binary with no digest tool: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	// The same bytes written again, and the record touched after them:
	// the record's own file times move, the times its text holds do not,
	// so this is a change the stub must digest.
	if out := run(t, p.dir, p.env, "sh", "-c", "cp .git/gate-hooks/pre-commit bin/gates.new && mv bin/gates.new bin/gates && touch .git/gate-hooks.placed"); out.code != 0 {
		t.Fatalf("rewrite: %s", out.stderr)
	}
	if r := version(); r.code != 2 || !strings.Contains(r.stderr, "binary bin/gates unverified") || !strings.Contains(r.stderr, "put sha256sum or shasum on PATH") {
		t.Fatalf("a rewritten binary with no digest tool: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	// With the digest tools back, the same bytes pass.
	if r := run(t, p.dir, p.env, shell, "-c", args[1], args[2], args[3], "--version"); r.code != 0 {
		t.Fatalf("a rewritten binary of the recorded bytes: exit %d %q", r.code, r.stderr)
	}
}

// A landed commit whose pre-commit plan holds a shell member (it reads the
// work tree itself) is judged on a checkout of the commit, not in process:
// the shell member sees the commit's files and the red commit is named.
func TestLandedShellMemberIsJudgedOnTheCommit(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "landed shell member")
	p.bashQuiet(`printf '%s\n' '#!/usr/bin/env bash' '# graph: couples=*.md dir=one valve=none tier=precommit trigger=*.md' ` +
		`'if grep -rl --include=*.md FIXME docs; then echo "check-no-fixme: a FIXME is left"; exit 1; fi' 'echo "check-no-fixme: clean"' > scripts/check-no-fixme.sh && ` +
		`chmod +x scripts/check-no-fixme.sh && printf 'check-no-fixme\n' >> scripts/gates.list && ` +
		`git add scripts && git commit -q -m "chore: register check-no-fixme"`)
	// The work tree no longer holds the FIXME when the judge runs.
	_, b, post := p.bash(`printf 'FIXME later\n' > docs/todo.md && git add docs/todo.md && echo 'git commit -q -n -m "docs: todo"' | sh && printf 'done\n' > docs/todo.md`)
	id := p.git("rev-parse", "--short", "HEAD")
	if b || !strings.Contains(post, "Commit "+id) || !strings.Contains(post, "check-no-fixme: a FIXME is left") {
		t.Fatalf("the shell member's red commit %s was not named: blocked %v, reason %q", id, b, post)
	}
}
