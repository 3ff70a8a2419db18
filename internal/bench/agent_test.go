//go:build unix

package bench

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkAgentEditGates: one PostToolUse edit-gates call naming one
// markdown file of the 20,000-file consumer, every shipped gate
// registered: the wait an agent pays after each edit.
func BenchmarkAgentEditGates(b *testing.B) {
	if err := setup(); err != nil {
		b.Fatal(err)
	}
	members := shipped(b)
	if err := write(repoDir, "scripts/gates.list", strings.Join(members, "\n")+"\n", 0o644); err != nil {
		b.Fatal(err)
	}
	payload := `{"session_id":"bench","cwd":"` + repoDir + `","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"` +
		filepath.Join(repoDir, "docs/d000/note-00000.md") + `","old_string":"a","new_string":"b"},"tool_response":{"success":true}}`
	var walls []time.Duration
	var peak int64
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(binPlain, "--hook", "edit-gates")
		cmd.Dir = repoDir
		cmd.Env = benchEnv()
		cmd.Stdin = strings.NewReader(payload)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("edit-gates: %v\n%s", err, out.String())
		}
		walls = append(walls, time.Since(start))
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peak = max(peak, ru.Maxrss)
		}
		if i == 0 && out.Len() > 0 {
			b.Logf("edit-gates answered: %s", out.String())
		}
	}
	report(b, walls, peak)
}
