//go:build linux

package e2e

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// watchersOf answers the pids of the tree watchers serving dir.
func watchersOf(t *testing.T, dir string) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	want := []byte("--tree-watch\x00" + dir + "\x00")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(cmdline, want) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// With the watcher on, the Stop starts one that still lets every change
// be judged, and a stop request ends it: no test leaves one running.
func TestAgentStopTreeWatch(t *testing.T) {
	t.Parallel()
	s := agentScratch(t)
	top, err := filepath.EvalSymlinks(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	on := []string{"GATE_SDK_TREE_WATCH=on", "GATE_SDK_TREE_WATCH_IDLE=60"}
	t.Cleanup(func() {
		for _, pid := range watchersOf(t, top) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("a tree watcher (pid %d) outlived the test", pid)
		}
	})
	stop := map[string]any{"session_id": "s1", "cwd": s.dir, "hook_event_name": "Stop", "stop_hook_active": false}
	time.Sleep(50 * time.Millisecond)
	clean := func(when string) {
		t.Helper()
		if code, out, errs := s.hook("", "stop-gates", stop, on...); code != 0 || out != "" {
			t.Fatalf("%s: exit %d %q %q", when, code, out, errs)
		}
	}
	for i := 0; i < 4; i++ {
		clean("clean tree, Stop " + strconv.Itoa(i))
	}
	// Two Stops in a row may each start one before either answers; the
	// second finds the first holding the lock and ends at once.
	var pids []int
	for i := 0; i < 300 && len(pids) != 1; i++ {
		time.Sleep(10 * time.Millisecond)
		pids = watchersOf(t, top)
	}
	if len(pids) != 1 {
		t.Fatalf("clean Stops with the watcher on left %d watchers, want 1", len(pids))
	}
	s.write("docs/new.md", "see /ho"+"me/marta/x\n", 0o644)
	if _, out, _ := s.hook("", "stop-gates", stop, on...); !strings.Contains(out, "docs/new.md:1:") {
		t.Fatalf("a new file under the watcher was not judged: %s", out)
	}
	if err := os.Remove(filepath.Join(s.dir, "docs/new.md")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	for i := 0; i < 3; i++ {
		clean("clean again, Stop " + strconv.Itoa(i))
	}
	// Killed outright (its socket file left behind): a change is still
	// judged, and the next clean Stops start a new watcher.
	if err := syscall.Kill(pids[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300 && len(watchersOf(t, top)) != 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	s.write("docs/new.md", "see /ho"+"me/marta/z\n", 0o644)
	if _, out, _ := s.hook("", "stop-gates", stop, on...); !strings.Contains(out, "docs/new.md:1:") {
		t.Fatalf("a new file after the watcher was killed was not judged: %s", out)
	}
	if err := os.Remove(filepath.Join(s.dir, "docs/new.md")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	for i := 0; i < 3; i++ {
		clean("after the kill, Stop " + strconv.Itoa(i))
	}
	pids = nil
	for i := 0; i < 300 && len(pids) != 1; i++ {
		time.Sleep(10 * time.Millisecond)
		pids = watchersOf(t, top)
	}
	if len(pids) != 1 {
		t.Fatalf("clean Stops after the kill left %d watchers, want 1", len(pids))
	}
	s.write("docs/guide.md", "see /ho"+"me/marta/y\n", 0o644)
	if _, out, _ := s.hook("", "stop-gates", stop, on...); !strings.Contains(out, "docs/guide.md:1:") {
		t.Fatalf("a tracked file edited under the watcher was not judged: %s", out)
	}
	// A stop request ends it.
	c, err := net.Dial("unix", filepath.Join(top, ".git", "gates-agent", "tree-watch.sock"))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = c.Write([]byte("stop\n"))
	_, _ = c.Read(make([]byte, 64))
	c.Close()
	for i := 0; i < 500; i++ {
		if len(watchersOf(t, top)) == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the watcher did not end on a stop request")
}
