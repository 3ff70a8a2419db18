package e2e

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// failingBash plays a Bash call as the harness does when the command
// exits non-zero: PreToolUse, the command, then PostToolUseFailure (not
// PostToolUse). It answers the PreToolUse refusal, if any, and what the
// failure hooks handed the model (additionalContext) and anything else
// they printed.
func (p *player) failingBash(command string) (refused, context, other string) {
	p.t.Helper()
	in := map[string]any{"tool_input": map[string]any{"command": command, "description": "x"}}
	if why, ok := blocked(p.fire("PreToolUse", "Bash", in)); ok {
		return why, "", ""
	}
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = p.dir
	cmd.Env = p.env
	if err := cmd.Run(); err == nil {
		p.t.Fatalf("the command was meant to fail: %s", command)
	}
	in["error"] = "Command exited with non-zero status code 1"
	in["is_interrupt"] = false
	for _, a := range p.fire("PostToolUseFailure", "Bash", in) {
		if a.code != 0 {
			other += a.errs
		}
		for _, line := range strings.Split(strings.TrimSpace(a.stdout), "\n") {
			if line == "" {
				continue
			}
			var env struct {
				Specific struct {
					Event   string `json:"hookEventName"`
					Context string `json:"additionalContext"`
				} `json:"hookSpecificOutput"`
			}
			if json.Unmarshal([]byte(line), &env) == nil && env.Specific.Context != "" && env.Specific.Event == "PostToolUseFailure" {
				context += env.Specific.Context + "\n"
			} else {
				other += line + "\n"
			}
		}
	}
	return refused, context, other
}

// TestAgentFailedCommandIsJudged: the harness follows a command that
// exits non-zero with PostToolUseFailure; a red commit the command landed
// before it failed is handed to the model right then, and a failing
// command that landed nothing red says nothing.
func TestAgentFailedCommandIsJudged(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "failed")
	if r := p.stop(false); r != "" {
		t.Fatalf("first Stop: %s", r)
	}
	// A failing command that made no commit, and one whose green commit
	// landed before the test run failed: nothing said.
	if refused, ctx, other := p.failingBash(`git status --short && false`); refused+ctx+other != "" {
		t.Errorf("a failing command that landed nothing: %q %q %q", refused, ctx, other)
	}
	if refused, ctx, other := p.failingBash(`printf 'More.\n' > docs/more.md && git add docs/more.md && git commit -q -m "docs: more to read" && false`); refused+ctx+other != "" {
		t.Errorf("a green commit, then a failure: %q %q %q", refused, ctx, other)
	}
	// A red commit landed past the hooks, then the command fails.
	refused, ctx, other := p.failingBash(`printf '` + strings.TrimSuffix(leakLine, "\n") + `\n' > docs/notes.md && git add docs/notes.md && c=$(git commit-tree -p HEAD -m "docs: add notes" $(git write-tree)) && git update-ref refs/heads/main $c && exit 3`)
	if refused != "" {
		t.Fatalf("refused before it ran (this row wants the landing): %s", refused)
	}
	id := p.git("rev-parse", "--short=7", "HEAD")
	if !strings.Contains(ctx, "Commit "+id) || !strings.Contains(ctx, "check-tree-terms") {
		t.Errorf("the red commit %s landed by a failing command was not handed to the model: context %q, other %q", id, ctx, other)
	}
	if other != "" {
		t.Errorf("the failure hooks printed more than the context: %q", other)
	}
}
