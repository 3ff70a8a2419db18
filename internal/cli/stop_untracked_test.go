package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// hookOver runs member over payload in l, as the harness would.
func (l *landedRepo) hookOver(member string, payload map[string]any) string {
	l.t.Helper()
	data, err := json.Marshal(payload)
	if err != nil {
		l.t.Fatal(err)
	}
	var out bytes.Buffer
	Main([]string{"--hook", member}, IO{Stdin: bytes.NewReader(data), Stdout: &out, Stderr: &out, Env: l.env(l.dir)})
	return out.String()
}

// stop-gates P: what the uncommitted change wrote is never taken for
// HEAD's. An untracked workflow with a tag pin, which HEAD does not hold,
// holds the Stop and is told after its Edit.
func TestStopNeverTakesTheChangesFindingForHeads(t *testing.T) {
	l := newLandedRepo(t)
	l.write(".github/workflows/ci.yml", "name: ci\non: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n")
	edit := l.hookOver("edit-gates", map[string]any{"session_id": "s1", "cwd": l.dir, "hook_event_name": "PostToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": l.dir + "/.github/workflows/ci.yml", "content": "x"}, "tool_response": map[string]any{"success": true}})
	if !strings.Contains(edit, "check-action-pinning") {
		t.Fatalf("the Write of a tag-pinned workflow was not told:\n%s", edit)
	}
	stop := l.hookOver("stop-gates", map[string]any{"session_id": "s1", "cwd": l.dir, "hook_event_name": "Stop", "stop_hook_active": false})
	if !strings.Contains(stop, "check-action-pinning") {
		t.Fatalf("the Stop let a tag-pinned workflow through:\n%s", stop)
	}
}
