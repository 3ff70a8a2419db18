package harness

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAuditAfterAFailedCommand: a command that lands a red commit and then
// fails is followed by PostToolUseFailure; the look runs all the same and
// the model reads the commit in the event's context field.
func TestAuditAfterAFailedCommand(t *testing.T) {
	r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c1aaaa": nil}, red: map[string]bool{}}
	r.tips = []Tip{{"HEAD", "c1aaaa"}, {"refs/heads/main", "c1aaaa"}}
	bash := map[string]any{"command": "git commit -qam x && make test"}
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	if code, out, _ := call(t, r, "commit-audit", PostToolUseFailure, "Bash", bash); code != 0 || out != "" || len(r.judged) != 0 {
		t.Fatalf("a failed command that moved no ref: %d %q judged %v", code, out, r.judged)
	}
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	r.graph["c2bbbb"] = []string{"c1aaaa"}
	r.red["c2bbbb"] = true
	r.tips = []Tip{{"HEAD", "c2bbbb"}, {"refs/heads/main", "c2bbbb"}}
	code, out, _ := call(t, r, "commit-audit", PostToolUseFailure, "Bash", bash)
	var env struct {
		Decision string `json:"decision"`
		Specific struct {
			Event   string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &env) != nil || strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Fatalf("assertion S: not one envelope: %d %q", code, out)
	}
	if env.Decision != "" || env.Specific.Event != PostToolUseFailure || !strings.Contains(env.Specific.Context, "Commit c2bb") || !strings.Contains(env.Specific.Context, "check-tree-terms") {
		t.Fatalf("assertion S: the red commit is not the model's context: %q", out)
	}
	// Named once: the next look after a success is quiet.
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	if _, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); out != "" {
		t.Fatalf("named again: %q", out)
	}
}
