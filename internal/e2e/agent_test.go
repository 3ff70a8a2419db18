package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// agentScratch is a consumer with three shipped gates registered: a
// content gate, an Actions gate and a commit-msg gate.
func agentScratch(t *testing.T) *scratch {
	s := newScratch(t)
	s.copyTree(filepath.Join(moduleRoot, "kits", "gate-sdk", "checks"), filepath.Join(s.dir, "gate-sdk", "checks"))
	patterns, err := os.ReadFile(filepath.Join(moduleRoot, "templates", "msg-patterns.list"))
	if err != nil {
		t.Fatal(err)
	}
	s.write("scripts/msg-patterns.list", string(patterns), 0o644)
	s.write("scripts/gates.list", "check-tree-terms\ncheck-action-pinning\ncheck-commit-subject\n", 0o644)
	s.write("docs/guide.md", "# Guide\n\nKeep notes in the wiki.\n", 0o644)
	s.write(".github/workflows/ci.yml", "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11 # v4.1.1\n", 0o644)
	s.git("add", "-A")
	s.git("commit", "-q", "-m", "chore: start")
	return s
}

// hook runs `gates --hook member` in dir (relative to the scratch) with the
// payload on stdin, answering status, stdout and stderr apart.
func (s *scratch) hook(dir, member string, payload any, extra ...string) (int, string, string) {
	s.t.Helper()
	var stdin []byte
	switch p := payload.(type) {
	case nil:
	case string:
		stdin = []byte(p)
	default:
		b, err := json.Marshal(p)
		if err != nil {
			s.t.Fatal(err)
		}
		stdin = b
	}
	return s.runStreams(dir, stdin, extra, binPath, "--hook", member)
}

func envelope(t *testing.T, out string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("stdout is not one JSON envelope: %v\n%s", err, out)
	}
	return v
}

func TestAgentEditGatesHandsFindingsBack(t *testing.T) {
	t.Parallel()
	s := agentScratch(t)
	payload := func(file string) map[string]any {
		return map[string]any{
			"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": s.dir,
			"hook_event_name": "PostToolUse", "tool_name": "Edit",
			"tool_input":    map[string]any{"file_path": filepath.Join(s.dir, file), "old_string": "x", "new_string": "y"},
			"tool_response": map[string]any{"success": true},
		}
	}
	// Clean: silent.
	if code, out, errs := s.hook("docs", "edit-gates", payload("docs/guide.md")); code != 0 || out != "" {
		t.Fatalf("clean edit: exit %d stdout %q stderr %q", code, out, errs)
	}
	s.write("docs/guide.md", "# Guide\n\nKeep notes in /ho"+"me/marta/notes.\n", 0o644)
	code, out, _ := s.hook("docs", "edit-gates", payload("docs/guide.md"))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	v := envelope(t, out)
	reason, _ := v["reason"].(string)
	if v["decision"] != "block" || !strings.Contains(reason, "docs/guide.md:3:") || !strings.Contains(reason, "help:") || !strings.Contains(reason, "check-tree-terms") {
		t.Fatalf("envelope %s", out)
	}
	// An edit outside the tree fires nothing.
	if code, out, _ := s.hook("", "edit-gates", map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": "/tmp/elsewhere.md", "content": "x"}}); code != 0 || out != "" {
		t.Fatalf("outside edit: exit %d %q", code, out)
	}
}

func TestAgentStopGatesHoldsADirtyTree(t *testing.T) {
	t.Parallel()
	s := agentScratch(t)
	stop := map[string]any{"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": s.dir, "hook_event_name": "Stop", "stop_hook_active": false}
	if code, out, errs := s.hook("", "stop-gates", stop); code != 0 || out != "" {
		t.Fatalf("clean tree: exit %d %q %q", code, out, errs)
	}
	s.write(".github/workflows/ci.yml", "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n", 0o644)
	code, out, _ := s.hook("", "stop-gates", stop)
	v := envelope(t, out)
	reason, _ := v["reason"].(string)
	if code != 0 || v["decision"] != "block" || !strings.Contains(reason, ".github/workflows/ci.yml:6:") || !strings.Contains(reason, "check-action-pinning") {
		t.Fatalf("dirty tree: exit %d %s", code, out)
	}
	// An untracked file counts too.
	s.git("checkout", "--", ".github/workflows/ci.yml")
	s.write("docs/new.md", "see /ho"+"me/marta/x\n", 0o644)
	if _, out, _ := s.hook("", "stop-gates", stop); !strings.Contains(out, "docs/new.md:1:") {
		t.Fatalf("untracked file not judged: %s", out)
	}
	stop["stop_hook_active"] = true
	if code, out, _ := s.hook("", "stop-gates", stop); code != 0 || out != "" {
		t.Fatalf("loop guard: exit %d %q", code, out)
	}
}

// A Stop over a clean tree leaves a memo the next Stop trusts instead of
// git status; a red file written after it, tracked or new, still holds
// the turn.
func TestAgentStopGatesMemoStillSeesTheChange(t *testing.T) {
	t.Parallel()
	s := agentScratch(t)
	stop := map[string]any{"session_id": "s1", "cwd": s.dir, "hook_event_name": "Stop", "stop_hook_active": false}
	// Past the time stamps' grain: the scratch's directories are older
	// than the memo's clock, so a memo is made.
	time.Sleep(50 * time.Millisecond)
	for i := 0; i < 2; i++ {
		if code, out, errs := s.hook("", "stop-gates", stop); code != 0 || out != "" {
			t.Fatalf("clean tree, Stop %d: exit %d %q %q", i, code, out, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(s.dir, ".git", "gates-agent", "tree-memo")); err != nil {
		t.Fatalf("a clean Stop left no memo: %v", err)
	}
	s.write("docs/new.md", "see /ho"+"me/marta/x\n", 0o644)
	if _, out, _ := s.hook("", "stop-gates", stop); !strings.Contains(out, "docs/new.md:1:") {
		t.Fatalf("a new file after the memo was not judged: %s", out)
	}
	if err := os.Remove(filepath.Join(s.dir, "docs/new.md")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if code, out, errs := s.hook("", "stop-gates", stop); code != 0 || out != "" {
		t.Fatalf("clean again: exit %d %q %q", code, out, errs)
	}
	s.write("docs/guide.md", "see /ho"+"me/marta/y\n", 0o644)
	if _, out, _ := s.hook("", "stop-gates", stop); !strings.Contains(out, "docs/guide.md:1:") {
		t.Fatalf("a tracked file edited after the memo was not judged: %s", out)
	}
}

func TestAgentCommitGuard(t *testing.T) {
	t.Parallel()
	s := agentScratch(t)
	bash := func(cmd string) map[string]any {
		return map[string]any{"session_id": "s1", "cwd": s.dir, "hook_event_name": "PreToolUse", "tool_name": "Bash",
			"tool_input": map[string]any{"command": cmd, "description": "x"}}
	}
	if code, out, errs := s.hook("docs", "commit-guard", bash(`git commit --no-verify -m "feat: x"`)); code != 2 || out != "" || !strings.Contains(errs, "--no-verify") {
		t.Fatalf("--no-verify: exit %d %q %q", code, out, errs)
	}
	code, out, errs := s.hook("", "commit-guard", bash(`git commit -m "wip"`))
	if code != 2 || out != "" || !strings.Contains(errs, "check-commit-subject") || !strings.Contains(errs, "wip") {
		t.Fatalf("wip: exit %d %q %q", code, out, errs)
	}
	// This scratch never opted in to the hooks: the first call allowed
	// carries the one notice of the session, and no other does.
	if code, out, errs := s.hook("", "commit-guard", bash(`git commit -m "feat(docs): explain the notes"`)); code != 0 || !strings.Contains(out, "not opted in") {
		t.Fatalf("good subject: exit %d %q %q", code, out, errs)
	}
	if code, out, _ := s.hook("", "commit-guard", bash(`git status`)); code != 0 || out != "" {
		t.Fatalf("git status: exit %d %q", code, out)
	}
}

// Every way the arm cannot run allows the call with an envelope; after an
// edit, gates that cannot run are told to the model as the edit's reason.
func TestAgentHookFailsOpen(t *testing.T) {
	t.Parallel()
	s := agentScratch(t)
	edit := `{"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"` + filepath.Join(s.dir, "docs/guide.md") + `"}}`
	check := func(what string, code int, out string) {
		t.Helper()
		if code != 0 {
			t.Errorf("%s: exit %d", what, code)
			return
		}
		v := envelope(t, out)
		if _, ok := v["systemMessage"]; !ok {
			if _, ok := v["hookSpecificOutput"]; !ok {
				t.Errorf("%s: envelope %s", what, out)
			}
		}
	}
	// The binary absent, through the front end.
	cmd := exec.Command(filepath.Join(s.dir, "gate-sdk/bin/run-gates.sh"), "--hook", "edit-gates")
	cmd.Dir = s.dir
	cmd.Env = append(append([]string(nil), s.env...), "GATE_SDK_NATIVE_BIN="+filepath.Join(s.dir, "bin/nowhere"))
	cmd.Stdin = strings.NewReader(edit)
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	check("binary absent", code, out.String())

	// Outside any repository.
	outside := t.TempDir()
	c2 := exec.Command(binPath, "--hook", "edit-gates")
	c2.Dir = outside
	c2.Env = append(append([]string(nil), s.env...), "GIT_CEILING_DIRECTORIES="+filepath.Dir(outside))
	c2.Stdin = strings.NewReader(edit)
	o2, err := c2.Output()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	check("outside a repository", code, string(o2))

	// A repository git refuses: a .git that is no repository.
	broken := filepath.Join(s.dir, "vendor", "broken")
	if err := os.MkdirAll(filepath.Join(broken, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	c, o, _ := s.hook("vendor/broken", "edit-gates", edit)
	check("refused repository", c, o)

	// A malformed knob file after an edit: the call is allowed (exit 0)
	// and the model is told what to repair (§edit-gates P), not the user
	// alone.
	s.write("scripts/gate-sdk-config.knobs", "GATE_SDK_GATES_DIR scripts\n", 0o644)
	c, o, _ = s.hook("", "edit-gates", edit)
	if v := envelope(t, o); c != 0 || v["decision"] != "block" || !strings.Contains(fmt.Sprint(v["reason"]), "gate-sdk-config.knobs:1") {
		t.Errorf("malformed knob file: exit %d, envelope %s", c, o)
	}
	os.Remove(filepath.Join(s.dir, "scripts/gate-sdk-config.knobs"))

	c, o, _ = s.hook("", "edit-gates", "not json")
	check("stdin not json", c, o)
	c, o, _ = s.hook("", "edit-gates", nil)
	check("empty stdin", c, o)
	c, o, _ = s.hook("", "stop-gates", "")
	check("stop-gates, empty stdin", c, o)
	c, o, _ = s.hook("", "commit-guard", "[1]")
	check("commit-guard, wrong shape", c, o)
}

// `gates init --harness claude` merges the three registrations into the
// user's settings, keeps the user's entries, changes nothing the second
// time, and refuses a file it cannot read, leaving it as it was.
func TestInitWiresTheClaudeHarness(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	user := `{"permissions": {"allow": ["Bash(make:*)"]}, "hooks": {"PostToolUse": [{"matcher": "Edit|Write|MultiEdit|NotebookEdit", "hooks": [{"type": "command", "command": "prettier --write ."}]}]}}` + "\n"
	a.write(".claude/settings.json", user)
	a.must(binPath, "init", "--harness", "claude")
	got := a.read(".claude/settings.json")
	var doc struct {
		Permissions map[string][]string `json:"permissions"`
		Hooks       map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(got), &doc); err != nil {
		t.Fatalf("merged settings are not JSON: %v\n%s", err, got)
	}
	if len(doc.Permissions["allow"]) != 1 || !strings.Contains(got, "prettier --write .") {
		t.Fatalf("the user's entries were disturbed:\n%s", got)
	}
	members := map[string]string{}
	for event, groups := range doc.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				// sh -c <stub> gates-hook <binary> --hook <member>
				if len(h.Args) == 6 && h.Args[4] == "--hook" {
					if h.Command != "sh" || h.Args[0] != "-c" || h.Args[3] != "$CLAUDE_PROJECT_DIR/bin/gates" {
						t.Errorf("%s registers %q %q", event, h.Command, h.Args)
					}
					members[h.Args[5]] += event + " "
				}
			}
		}
	}
	if members["edit-gates"] != "PostToolUse " || members["commit-guard"] != "PreToolUse " || !strings.Contains(members["stop-gates"], "Stop ") {
		t.Fatalf("registrations: %v\n%s", members, got)
	}
	audit := strings.Fields(members["commit-audit"])
	sort.Strings(audit)
	if strings.Join(audit, " ") != "PostToolUse PostToolUseFailure PreToolUse" || members["git-dir-guard"] != "PreToolUse ConfigChange " && members["git-dir-guard"] != "ConfigChange PreToolUse " {
		t.Fatalf("the outcome members are not registered: %v\n%s", members, got)
	}
	if n := len(doc.Hooks["PostToolUse"]); n != 2 {
		t.Errorf("edit-gates did not join the user's matcher group, beside commit-audit's Bash group (%d groups)", n)
	}
	out := a.must(binPath, "init", "--harness", "claude")
	if a.read(".claude/settings.json") != got || !strings.Contains(out, "already registers") {
		t.Fatalf("the second run changed the settings:\n%s", out)
	}
	// A file that is not JSON is refused and left untouched.
	a.write(".claude/settings.json", "{ not json\n")
	r := a.runIn("", binPath, "init", "--harness", "claude")
	if r.code != 2 || a.read(".claude/settings.json") != "{ not json\n" || !strings.Contains(r.stderr, ".claude/settings.json") {
		t.Fatalf("unreadable settings: exit %d, file %q\n%s", r.code, a.read(".claude/settings.json"), r.stderr)
	}
	if r := a.runIn("", binPath, "init", "--harness", "nope"); r.code != 2 {
		t.Fatalf("unknown harness: exit %d", r.code)
	}
}
