package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ccWrite plays one Write tool call through the player's hooks and
// answers everything the hooks said.
func ccWrite(p *player, rel, body string) string {
	p.t.Helper()
	path := filepath.Join(p.dir, rel)
	in := map[string]any{"tool_input": map[string]any{"file_path": path, "content": body}}
	reason, refusal, other := words2(p.fire("PreToolUse", "Write", in))
	if refusal != "" {
		return "refused: " + refusal
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		p.t.Fatal(err)
	}
	r2, refusal2, other2 := words2(p.fire("PostToolUse", "Write", in))
	return strings.TrimSpace(reason + refusal2 + r2 + other + other2)
}

// TestAgentClaudeCodeWorktreeSession plays the harness's own worktree
// flow (`claude --worktree feat`): a linked worktree made inside the
// clone under .claude/worktrees/<name> on branch worktree-<name>, a
// session whose project directory is that worktree, while the session in
// the main checkout goes on. The worktree's session works quietly and is
// told of its leak; the main session is not bothered by the worktree
// nested in its tree, and merges its branch when it is done.
func TestAgentClaudeCodeWorktreeSession(t *testing.T) {
	t.Parallel()
	for _, v := range []struct {
		name             string
		ignored, entered bool
	}{
		{"worktrees dir not ignored", false, false},
		{"worktrees dir ignored", true, false},
		{"entered mid-session with EnterWorktree: one session, two directories", true, true},
	} {
		ignored, entered := v.ignored, v.entered
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			main := outcomeClone(t, "ccwt")
			if ignored {
				main.bashQuiet(`printf '.claude/worktrees/\n' >> .gitignore && git commit -q -am "build: ignore the harness's worktrees"`)
			}
			if r := main.stop(false); r != "" {
				t.Fatalf("main session's first Stop: %s", r)
			}
			main.git("worktree", "add", "-q", "-b", "worktree-feat", ".claude/worktrees/feat")
			wt := &player{t: t, dir: filepath.Join(main.dir, ".claude/worktrees/feat"), env: main.env, session: main.session + "-wt"}
			if entered {
				in := map[string]any{"tool_input": map[string]any{"name": "feat"}}
				if r, refusal, other := words2(main.fire("PreToolUse", "EnterWorktree", in)); r+refusal+other != "" {
					t.Errorf("PreToolUse EnterWorktree: %q %q %q", r, refusal, other)
				}
				if r, refusal, other := words2(main.fire("PostToolUse", "EnterWorktree", in)); r+refusal+other != "" {
					t.Errorf("PostToolUse EnterWorktree: %q %q %q", r, refusal, other)
				}
				wt.session, wt.project = main.session, main.dir
			}
			quiet := func(p *player, what, said string) {
				t.Helper()
				if said != "" {
					t.Errorf("%s: the hooks said %q", what, said)
				}
			}
			quiet(wt, "worktree Write", ccWrite(wt, "docs/feat.md", "A feature page.\n"))
			why, refused, post := wt.bash(`git add docs/feat.md && git commit -q -m "docs: a feature page"`)
			if refused {
				t.Fatalf("worktree commit refused: %s", why)
			}
			quiet(wt, "worktree commit", post)
			quiet(wt, "worktree Stop", wt.stop(false))
			if s := wt.registeredStatusLine(); s.code != 0 || !strings.Contains(s.stdout, "hooks on") || strings.Contains(s.stdout, "red") {
				t.Errorf("worktree status line: %+v", s)
			} else {
				t.Logf("worktree status line: %s", s.stdout)
			}
			// The main session goes on while the worktree holds work.
			quiet(main, "main Write", ccWrite(main, "docs/main.md", "A main page.\n"))
			why, refused, post = main.bash(`git add docs/main.md && git commit -q -m "docs: a main page" && git status --short`)
			if refused {
				t.Fatalf("main commit refused: %s", why)
			}
			quiet(main, "main commit", post)
			quiet(main, "main Stop with a worktree nested in the tree", main.stop(false))
			// A leak written in the worktree and left there is told to the
			// worktree's session at its Stop, not to the main one.
			said := ccWrite(wt, "docs/leak.md", leakLine)
			atStop := wt.stop(false)
			if !strings.Contains(said+atStop, "leak.md") {
				t.Errorf("a leak left in the worktree was told neither at the Write (%q) nor at its Stop (%q)", said, atStop)
			}
			// Committed there, the placed hooks refuse it as in the main
			// checkout: nothing lands.
			head := wt.git("rev-parse", "HEAD")
			wt.bash(`git add docs/leak.md && git commit -q -m "docs: notes"`)
			if now := wt.git("rev-parse", "HEAD"); now != head {
				t.Errorf("a leak committed in the worktree landed: %s", now)
			}
			wt.git("rm", "-q", "--cached", "docs/leak.md")
			os.Remove(filepath.Join(wt.dir, "docs/leak.md"))
			quiet(wt, "worktree Stop after the leak is gone", wt.stop(false))
			quiet(main, "main Stop while the worktree had a leak", main.stop(false))
			// Done: the main session merges the branch and removes the worktree.
			why, refused, post = main.bash(`git merge -q --no-edit worktree-feat && git worktree remove .claude/worktrees/feat && git branch -q -d worktree-feat && git log --oneline -3`)
			if refused {
				t.Fatalf("merge refused: %s", why)
			}
			quiet(main, "merge and remove", post)
			quiet(main, "last Stop", main.stop(false))
		})
	}
}
