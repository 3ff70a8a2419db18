//go:build unix

package spawn

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCtxKillsTheWholeGroup: a bounded child's end kills its group, so a
// background job the child started dies with it, and the child's status
// reads as killed.
func TestCtxKillsTheWholeGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	cmd := shell(`sleep 30 & echo $! > "$1"; echo started; wait`)
	cmd.Args = append(cmd.Args, "sh", pidFile)
	cmd.Ctx = ctx
	m, err := RunMerged(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("the child outlived its context by %v", took)
	}
	if m.ReportedCode() != 128+int(syscall.SIGKILL) || !strings.Contains(string(m.Output()), "started") {
		t.Fatalf("code %d, output %q", m.ReportedCode(), m.Output())
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("the background job %d outlived its group's kill", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestCtxUnspentLeavesTheChildAlone: a context that never ends changes
// nothing about a child that exits on its own.
func TestCtxUnspentLeavesTheChildAlone(t *testing.T) {
	cmd := shell("echo out; exit 3")
	cmd.Ctx = context.Background()
	m, err := RunMerged(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if m.ReportedCode() != 3 || string(m.Output()) != "out\n" {
		t.Fatalf("code %d, output %q", m.ReportedCode(), m.Output())
	}
}
