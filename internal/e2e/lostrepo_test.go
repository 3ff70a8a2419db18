package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A tree adopted with the harness hooks whose repository is moved away
// or broken: every call says so to the model (a decline told only the
// user), the Stop is held once, the status line shows the footing broken,
// and once the repository is back the commit made in its absence is named.
func TestAgentLostRepositoryIsTold(t *testing.T) {
	t.Parallel()
	const dropHooks = `GIT_DIR=../g GIT_WORK_TREE=. `
	for _, c := range []struct{ name, lose, back string }{
		{"moved away", `mv .git ../g`, `mv ../g .git`},
		{"a gitfile to nowhere in its place", `mv .git ../g && echo 'gitdir: /nonexistent/x' > .git`, `rm .git && mv ../g .git`},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := outcomeClone(t, "lost "+c.name)
			p.env = append(p.env, "CLAUDECODE=1")
			p.bashQuiet("git status --short")
			told := func(step, command string) {
				t.Helper()
				in := map[string]any{"tool_input": map[string]any{"command": command, "description": "x"}}
				pre := p.fire("PreToolUse", "Bash", in)
				if why, ok := blocked(pre); ok {
					t.Fatalf("%s: refused before it ran: %s", step, why)
				}
				run(t, p.dir, p.env, "bash", "-c", command)
				reason, _, _ := words2(p.fire("PostToolUse", "Bash", in))
				if !strings.Contains(reason, "registers the gates' hooks") || !strings.Contains(reason, "git status") {
					t.Errorf("%s: the model was not told the repository is gone: %q", step, reason)
				}
			}
			told("losing it", c.lose)
			told("a commit there", `printf 'Keep notes in /ho''me/marta/notes.\n' > docs/leak.md && `+dropHooks+`git add docs/leak.md && `+dropHooks+`git -c core.hooksPath=/dev/null commit -q -m "docs: add notes"`)
			if sl := p.statusline(); !strings.Contains(sl, "hooks broken") {
				t.Errorf("the status line reads %q", sl)
			}
			reason, _, _ := words2(p.fire("Stop", "", map[string]any{"stop_hook_active": false}))
			if !strings.Contains(reason, "registers the gates' hooks") {
				t.Errorf("the Stop was not held: %q", reason)
			}
			if reason, _, _ := words2(p.fire("Stop", "", map[string]any{"stop_hook_active": true})); reason != "" {
				t.Errorf("the loop guard's Stop was held again: %q", reason)
			}
			// Put back, the commit made meanwhile is named.
			_, after := p.bash2(c.back)
			if !p.namesRed(after, "check-tree-terms") {
				t.Errorf("the commit made while the repository was away was not named once it was back: %q", after)
			}
		})
	}
}

// Where no repository opens, only a tree whose own settings register the
// gates is a lost footing: the same settings as the user's (a home
// directory's .claude) or settings that register nothing of ours leave the
// decline as it was.
func TestHookLostRepositoryNeedsAnAdoptedTree(t *testing.T) {
	t.Parallel()
	const ours = `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "gates", "args": ["--hook", "stop-gates"], "timeout": 60}]}]}}`
	const theirs = `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send", "args": ["done"]}]}]}}`
	for _, c := range []struct {
		name, settings string
		home, lost     bool
	}{
		{"a tree registering the gates", ours, false, true},
		{"the user's home registering the gates", ours, true, false},
		{"a tree registering other hooks", theirs, false, false},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tree := t.TempDir()
			sub := filepath.Join(tree, "sub")
			must(t, run(t, tree, baseEnv(t), "mkdir", "-p", ".claude", "sub"), "mkdir")
			if err := os.WriteFile(filepath.Join(tree, ".claude", "settings.json"), []byte(c.settings), 0o644); err != nil {
				t.Fatal(err)
			}
			env := baseEnv(t, "GIT_CEILING_DIRECTORIES="+filepath.Dir(tree))
			if c.home {
				env = append(env, "HOME="+tree)
			}
			cmd := exec.Command(binPath, "--hook", "stop-gates")
			cmd.Dir, cmd.Env = sub, env
			cmd.Stdin = strings.NewReader(`{"session_id": "s", "hook_event_name": "Stop", "stop_hook_active": false, "cwd": "` + sub + `"}`)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("exit: %v", err)
			}
			held := strings.Contains(string(out), `"decision": "block"`) && strings.Contains(string(out), "registers the gates' hooks")
			if held != c.lost {
				t.Errorf("held %v, want %v: %s", held, c.lost, out)
			}
			if !c.lost && !strings.Contains(string(out), "the hook guards of this tree are not running") {
				t.Errorf("not the decline: %s", out)
			}
		})
	}
}
