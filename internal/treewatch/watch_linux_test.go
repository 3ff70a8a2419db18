//go:build linux

package treewatch

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/spawn"
)

const (
	fakeEnv     = "GATES_TEST_TREEWATCH_FAKE_ADDR"
	fakeLineEnv = "GATES_TEST_TREEWATCH_FAKE_LINE"
)

func TestMain(m *testing.M) {
	if addr := os.Getenv(fakeEnv); addr != "" {
		// A copy of this binary playing a watcher: another executable.
		_ = os.Remove(addr)
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
			_, _ = c.Write([]byte(os.Getenv(fakeLineEnv) + "\n"))
			c.Close()
		}
	}
	os.Exit(m.Run())
}

// served is a watcher of a scratch tree run in this process; it is stopped
// and seen gone at the test's end.
type served struct {
	s    *Server
	done chan struct{}
	addr string
	top  string
}

func serve(t *testing.T, idle time.Duration, dirs []string) *served {
	t.Helper()
	root := t.TempDir()
	top := filepath.Join(root, "tree")
	state := filepath.Join(root, "state")
	for _, d := range append([]string{state}, dirs...) {
		p := d
		if d != state {
			p = filepath.Join(top, d)
		}
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	addr := Address(state, state)
	s, err := Listen(Config{Top: top, GitDir: state, Socket: addr, Idle: idle, Dirs: func() ([]string, error) { return dirs, nil }})
	if err != nil {
		t.Fatal(err)
	}
	w := &served{s: s, done: make(chan struct{}), addr: addr, top: top}
	go func() {
		s.Serve()
		close(w.done)
	}()
	t.Cleanup(func() {
		s.Close()
		select {
		case <-w.done:
		case <-time.After(10 * time.Second):
			t.Error("the watcher did not end")
		}
		if _, err := Ask(addr, "query"); err == nil {
			t.Error("a watcher still answers after the test")
		}
	})
	// Requests are accepted once the first arming is done: one query
	// waits for it.
	if _, err := Ask(addr, "query"); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *served) gone(t *testing.T, within time.Duration) {
	t.Helper()
	select {
	case <-w.done:
	case <-time.After(within):
		t.Fatal("the watcher is still running")
	}
}

func TestWatcherCountsEveryEvent(t *testing.T) {
	w := serve(t, time.Minute, []string{"", "a", "a/b"})
	st, err := Ask(w.addr, "query")
	if err != nil {
		t.Fatal(err)
	}
	if !st.Armed || st.Digest != DirsDigest([]string{"a/b", "", "a"}) || st.Epoch == "" {
		t.Fatalf("a fresh watcher answered %+v", st)
	}
	again, err := Ask(w.addr, "query")
	if err != nil || again != st {
		t.Fatalf("an untouched tree moved the token: %+v then %+v (%v)", st, again, err)
	}
	// The write is answered by the very next query: the watcher reads
	// what the kernel queued before it answers.
	if err := os.WriteFile(filepath.Join(w.top, "a/b/f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	moved, err := Ask(w.addr, "query")
	if err != nil || !moved.Armed || moved.Epoch != st.Epoch || moved.Count <= st.Count {
		t.Fatalf("a write in a watched directory left the token at %+v (before %+v, %v)", moved, st, err)
	}
	// A watched directory removed: the count vouches for nothing until
	// the watches are placed anew.
	if err := os.RemoveAll(filepath.Join(w.top, "a/b")); err != nil {
		t.Fatal(err)
	}
	lost, err := Ask(w.addr, "query")
	if err != nil || lost.Armed {
		t.Fatalf("a watched directory gone left the watcher armed: %+v (%v)", lost, err)
	}
	// Arming on a set with a directory that is gone fails: still unarmed,
	// under a new epoch.
	if _, err := Ask(w.addr, "arm"); err != nil {
		t.Fatal(err)
	}
	re, err := Ask(w.addr, "query")
	if err != nil || re.Armed || re.Epoch == st.Epoch {
		t.Fatalf("arming over a missing directory answered %+v (%v)", re, err)
	}
}

// TestWatcherOverBudgetReleasesItsWatches: a tree needing more watches
// than the watcher's share of the user's limit is not armed, and the
// watches placed before it knew are given back at once.
func TestWatcherOverBudgetReleasesItsWatches(t *testing.T) {
	for _, c := range []struct {
		budget int
		armed  bool
	}{{3, false}, {7, true}} {
		root := t.TempDir()
		top, state := filepath.Join(root, "tree"), filepath.Join(root, "state")
		for _, d := range []string{filepath.Join(top, "a"), state} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range []string{"x", "y", "a/z", "a/w"} { // 2 dirs + 4 files = 6 watches
			if err := os.WriteFile(filepath.Join(top, f), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s, err := Listen(Config{Top: top, GitDir: state, Socket: Address(state, state), Idle: time.Minute, Budget: c.budget,
			Dirs: func() ([]string, error) { return []string{"", "a"}, nil }})
		if err != nil {
			t.Fatal(err)
		}
		s.mu.Lock()
		s.armLocked()
		armed, open := s.status.Armed, s.file != nil
		s.closeLocked()
		s.mu.Unlock()
		s.ln.Close()
		syscall.Close(s.lock)
		if armed != c.armed || open != c.armed {
			t.Errorf("budget %d for 6 watches: armed %v, instance open %v; want both %v", c.budget, armed, open, c.armed)
		}
	}
}

func TestWatcherOverflowDisarms(t *testing.T) {
	w := serve(t, time.Minute, []string{""})
	w.s.Inject(0x4000) // IN_Q_OVERFLOW
	st, err := Ask(w.addr, "query")
	if err != nil || st.Armed {
		t.Fatalf("an overflowed queue left the watcher armed: %+v (%v)", st, err)
	}
}

func TestWatcherStopsOnRequestIdleAndTreeGone(t *testing.T) {
	w := serve(t, time.Minute, []string{""})
	if _, err := Ask(w.addr, "stop"); err != nil {
		t.Fatal(err)
	}
	w.gone(t, 5*time.Second)

	idle := serve(t, 200*time.Millisecond, []string{""})
	idle.gone(t, 5*time.Second)

	tree := serve(t, time.Minute, []string{""})
	if err := os.RemoveAll(tree.top); err != nil {
		t.Fatal(err)
	}
	tree.gone(t, 5*time.Second)
}

// A listener that is not this binary (a copy of it: another file) is
// refused before it is asked anything, whatever it would answer.
func TestAskRefusesAForeignListener(t *testing.T) {
	self, err := spawn.SelfImage()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake")
	if err := os.WriteFile(fake, data, 0o755); err != nil {
		t.Fatal(err)
	}
	addr := filepath.Join(dir, SocketName)
	cmd := exec.Command(fake)
	cmd.Env = append(os.Environ(), fakeEnv+"="+addr, fakeLineEnv+"=ok e 0 d 1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	for i := 0; ; i++ {
		if c, err := net.Dial("unix", addr); err == nil {
			c.Close()
			break
		}
		if i > 500 {
			t.Fatal("the fake never listened")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st, err := Ask(addr, "query"); !IsForeign(err) {
		t.Fatalf("a foreign listener was answered: %+v, %v", st, err)
	}
	// The same listener taken for this binary (its identity is the
	// caller's own) is answered: the refusal above is the identity's.
	selfExe = fake
	defer func() { selfExe = "/proc/self/exe" }()
	if st, err := Ask(addr, "query"); err != nil || !st.Armed || st.Epoch != "e" {
		t.Fatalf("the listener as this binary: %+v, %v", st, err)
	}
}

// A file made in a watched directory after the arming is watched on its
// own inode from the next answer on: a write through another name of it
// (a hard link outside the watched directories) moves the count.
func TestWatcherWatchesAFileMadeLater(t *testing.T) {
	w := serve(t, time.Minute, []string{"", "a"})
	p := filepath.Join(w.top, "a", "late")
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Ask(w.addr, "query"); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(filepath.Dir(w.top), "outside")
	if err := os.Link(p, outside); err != nil {
		t.Fatal(err)
	}
	before, err := Ask(w.addr, "query")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	after, err := Ask(w.addr, "query")
	if err != nil || !after.Armed || after.Count <= before.Count {
		t.Fatalf("a write through a hard link left the token at %+v (before %+v, %v)", after, before, err)
	}
}

// A state directory whose socket path would not fit a socket address is
// served on an abstract name derived from it, and answered there.
func TestWatcherOnAnAbstractNameForALongPath(t *testing.T) {
	root := t.TempDir()
	state := filepath.Join(root, strings.Repeat("s", 60), strings.Repeat("t", 60))
	top := filepath.Join(root, "tree")
	for _, d := range []string{state, top} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	addr := Address(state, state)
	if !strings.HasPrefix(addr, "@") || Address(state+"x", state+"x") == addr {
		t.Fatalf("a %d-byte state path answered %q", len(state), addr)
	}
	if short := Address(root, root); short != filepath.Join(root, SocketName) {
		t.Fatalf("a short state path answered %q", short)
	}
	s, err := Listen(Config{Top: top, GitDir: state, Socket: addr, Idle: time.Minute, Dirs: func() ([]string, error) { return []string{""}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		s.Serve()
		close(done)
	}()
	st, err := Ask(addr, "query")
	if err != nil || !st.Armed {
		t.Fatalf("the watcher on %q answered %+v, %v", addr, st, err)
	}
	if _, err := Ask(addr, "stop"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.Close()
		t.Fatal("the watcher did not end on a stop request")
	}
	if _, err := Ask(addr, "query"); err == nil {
		t.Fatal("the abstract name still answers")
	}
}
