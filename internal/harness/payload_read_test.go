package harness

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// TestPayloadStdinNeverCloses: a stdin that never closes does not hang the
// read: with nothing on it the read gives up at the wait, and after a
// whole value it answers that value at once.
func TestPayloadStdinNeverCloses(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	start := time.Now()
	if _, err := readPayload(r, 200*time.Millisecond, MaxPayload); err == nil || !strings.Contains(err.Error(), "not complete") {
		t.Fatalf("silent open stdin: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}

	r2, w2 := io.Pipe()
	defer w2.Close()
	go w2.Write([]byte(`{"hook_event_name": "Stop", "stop_hook_active": true}`))
	start = time.Now()
	p, err := readPayload(r2, 10*time.Second, MaxPayload)
	if err != nil || p.HookEventName != "Stop" || !p.StopHookActive {
		t.Fatalf("open stdin after a value: %+v %v", p, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("waited %v for a stdin that held a whole value", d)
	}

	// Half a value and then silence: no payload, after the wait.
	r3, w3 := io.Pipe()
	defer w3.Close()
	go w3.Write([]byte(`{"hook_event_name": `))
	if _, err := readPayload(r3, 200*time.Millisecond, MaxPayload); err == nil {
		t.Fatal("half a value read as a payload")
	}
}

// TestPayloadLargeWrite: a Write of a few megabytes, its content echoed in
// tool_response as the harness does, is read for its file_path; the
// content itself is not kept.
func TestPayloadLargeWrite(t *testing.T) {
	content := strings.Repeat("line of text with \"quotes\" and \\ slashes\n", 60000) // ~2.6 MB
	doc := map[string]any{
		"session_id": "s", "cwd": "/srv/p", "hook_event_name": "PostToolUse", "tool_name": "Write",
		"tool_input":    map[string]any{"file_path": "/srv/p/big.txt", "content": content},
		"tool_response": map[string]any{"filePath": "/srv/p/big.txt", "content": content, "type": "create"},
	}
	b, _ := json.Marshal(doc)
	if len(b) < 5<<20 {
		t.Fatalf("payload only %d bytes", len(b))
	}
	p, err := ReadPayload(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	var in struct {
		FilePath string  `json:"file_path"`
		Content  *string `json:"content"`
	}
	if !p.Input(&in) || in.FilePath != "/srv/p/big.txt" || in.Content != nil {
		t.Fatalf("tool_input read as %+v", in)
	}
	if len(p.ToolInput) > 1024 {
		t.Fatalf("tool_input kept %d bytes", len(p.ToolInput))
	}
	// The Bash command is kept whole, however long.
	cmd := "cat > big.txt <<'EOF'\n" + content + "EOF\n"
	b, _ = json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": cmd}})
	p, err = ReadPayload(strings.NewReader(string(b)))
	var bi bashInput
	if err != nil || !p.Input(&bi) || bi.Command == nil || *bi.Command != cmd {
		t.Fatalf("long command not kept: %v", err)
	}
	// Past the stream bound: unreadable, never truncated.
	if _, err := readPayload(strings.NewReader(string(b)), time.Second, 1<<20); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("over the bound: %v", err)
	}
	if _, err := ReadPayload(strings.NewReader(`{"a": 1} {"b": 2}`)); err == nil || !strings.Contains(err.Error(), "more than one") {
		t.Fatalf("two values: %v", err)
	}
}
