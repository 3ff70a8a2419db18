package repo

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/spawn"
)

// A process that is not this binary's watcher listening where the watcher
// answers: a copy of the test binary (another file, so another inode),
// answering every request with one fixed line.
const (
	fakeWatchEnv     = "GATES_TEST_FAKE_WATCH_ADDR"
	fakeWatchLineEnv = "GATES_TEST_FAKE_WATCH_LINE"
)

// fakeWatch serves line to every caller at addr until killed.
func fakeWatch(addr, line string) {
	if !strings.HasPrefix(addr, "@") {
		_ = os.Remove(addr)
	}
	ln, err := net.Listen("unix", addr)
	if err != nil {
		os.Exit(3)
	}
	for {
		c, err := ln.Accept()
		if err != nil {
			os.Exit(0)
		}
		_, _ = bufio.NewReader(c).ReadString('\n')
		_, _ = c.Write([]byte(line + "\n"))
		c.Close()
	}
}

// startFakeWatch runs a copy of the test binary as a fake watcher at addr
// answering line, and stops it (and waits for it) at the test's end.
func startFakeWatch(t *testing.T, addr, line string) {
	t.Helper()
	self, err := spawn.SelfImage()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	// consumer-value-exempt: a scratch file of the test's own
	copyPath := filepath.Join(t.TempDir(), "fake-watcher")
	if err := os.WriteFile(copyPath, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(copyPath)
	cmd.Env = append(os.Environ(), fakeWatchEnv+"="+addr, fakeWatchLineEnv+"="+line)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	for i := 0; ; i++ {
		c, err := net.Dial("unix", addr)
		if err == nil {
			c.Close()
			return
		}
		if i > 500 {
			t.Fatalf("the fake watcher never listened at %s: %v", addr, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
