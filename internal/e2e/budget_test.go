package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// slowGate is a registered shell gate that starts a background job and
// then waits on it far past any budget the test sets.
const slowGate = `#!/usr/bin/env bash
# graph: couples=src/*.c dir=one valve=none tier=precommit
# spec: scripts/SPEC.md §slow — a gate that never ends
sleep 120 &
echo "$!" >> "$SLOW_PIDS"
echo "slow gate started"
wait
`

// TestGateBudgetStopsASlowGate: under a one-second GATE_SDK_GATE_TIMEOUT
// the battery, the pre-commit hook and the agent's edit hook each stop
// the gate with its child, report it as exit 2 naming it and the budget,
// and still run the other gate.
func TestGateBudgetStopsASlowGate(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.write("scripts/gates.list", "check-slow\ncheck-fast\n", 0o644)
	s.write("scripts/check-slow.sh", slowGate, 0o755)
	s.write("scripts/check-fast.sh", recordingGate("couples=src/*.c dir=one valve=none tier=precommit"), 0o755)
	s.write("src/a.c", "int a;\n", 0o644)
	s.git("add", "-A")
	pids := filepath.Join(t.TempDir(), "pids")
	extra := []string{"GATE_SDK_GATE_TIMEOUT=1", "SLOW_PIDS=" + pids}
	want := "check-slow: timed out after 1 s (GATE_SDK_GATE_TIMEOUT); stopped with its child processes"
	for _, argv := range [][]string{{"--run"}, {"--git-hook", "pre-commit"}} {
		start := time.Now()
		code, out := s.gates(extra, argv...)
		if took := time.Since(start); took > 30*time.Second {
			t.Fatalf("%v waited %v", argv, took)
		}
		if code != 1 || !strings.Contains(out, want) || !strings.Contains(out, "slow gate started") {
			t.Fatalf("%v: exit %d\n%s", argv, code, out)
		}
		if strings.Contains(out, "===== check-fast") {
			t.Fatalf("%v: the fast gate went red:\n%s", argv, out)
		}
	}
	payload := map[string]any{"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": s.dir,
		"hook_event_name": "PostToolUse", "tool_name": "Edit",
		"tool_input":    map[string]any{"file_path": filepath.Join(s.dir, "src/a.c"), "old_string": "x", "new_string": "y"},
		"tool_response": map[string]any{"success": true}}
	code, out, errs := s.hook("", "edit-gates", payload, extra...)
	if code != 0 || !strings.Contains(out, "timed out after 1 s") || !strings.Contains(out, "check-slow") {
		t.Fatalf("edit hook: exit %d\n%s\n%s", code, out, errs)
	}
	// Every background job the slow gate started is gone.
	data, err := os.ReadFile(pids)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for syscall.Kill(pid, 0) == nil {
			if time.Now().After(deadline) {
				t.Fatalf("the slow gate's child %d outlived its budget", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// TestGateBudgetKnobRefusesAWord: a budget that is not a number of
// seconds is refused, not read as no budget.
func TestGateBudgetKnobRefusesAWord(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.write("scripts/gates.list", "check-fast\n", 0o644)
	s.write("scripts/check-fast.sh", recordingGate("couples=src/*.c dir=one valve=none tier=precommit"), 0o755)
	s.git("add", "-A")
	code, out := s.gates([]string{"GATE_SDK_GATE_TIMEOUT=soon"}, "--run")
	if code != 2 || !strings.Contains(out, "GATE_SDK_GATE_TIMEOUT") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}
