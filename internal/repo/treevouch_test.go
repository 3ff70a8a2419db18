//go:build linux

package repo

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/treewatch"
)

// The watcher's vouch held to git's verdict (stop-gates K to N): after
// each change the Stop's answer is `git status`'s, and the vouch without a
// stat is taken only over an untouched tree.

// watchRepo is a memoRepo whose Stops ask a watcher; the watchers it
// starts run in this process and are stopped (and seen gone) at the end.
type watchRepo struct {
	*memoRepo
	servers []*runningWatch
}

type runningWatch struct {
	s    *treewatch.Server
	done chan struct{}
}

func newWatchRepo(t *testing.T) *watchRepo {
	t.Helper()
	r := &watchRepo{memoRepo: newMemoRepo(t)}
	r.g.TreeWatch = true
	prev := StartTreeWatch
	StartTreeWatch = func(top, stateDir string) { r.start(top, stateDir) }
	t.Cleanup(func() { StartTreeWatch = prev })
	return r
}

// start runs a watcher in process, as `--tree-watch` would in its own.
func (r *watchRepo) start(top, stateDir string) {
	t := r.t
	s, err := treewatch.Listen(treeWatchConfig(top, stateDir, time.Minute))
	if err != nil {
		t.Fatalf("the watcher could not listen: %v", err)
	}
	w := &runningWatch{s: s, done: make(chan struct{})}
	go func() {
		s.Serve()
		close(w.done)
	}()
	r.servers = append(r.servers, w)
	addr := treewatch.Address(stateDir, stateDir)
	t.Cleanup(func() {
		s.Close()
		select {
		case <-w.done:
		case <-time.After(10 * time.Second):
			t.Error("a watcher did not end when told to")
		}
		if _, err := treewatch.Ask(addr, "query"); err == nil {
			t.Error("a watcher still answers after the test")
		}
	})
}

// last is the watcher started last.
func (r *watchRepo) last() *runningWatch {
	r.t.Helper()
	if len(r.servers) == 0 {
		r.t.Fatal("no watcher was started")
	}
	return r.servers[len(r.servers)-1]
}

// kill stops the last watcher and waits for it to end.
func (r *watchRepo) kill() {
	w := r.last()
	w.s.Close()
	<-w.done
}

// stop is one Stop: its answer, and whether the watcher's vouch gave it.
func (r *watchRepo) stop() ([]string, bool) {
	r.t.Helper()
	before := watchVouched.Load()
	got, err := r.g.ChangedMemo(r.dir, r.state)
	if err != nil {
		r.t.Fatal(err)
	}
	return got, watchVouched.Load() != before
}

// warm runs Stops as an adopter's session would until one is vouched by
// the watcher: the first lists and starts it, the next proves the tree
// clean under its token, the third is vouched.
func (r *watchRepo) warm() {
	r.t.Helper()
	for i := 0; i < 6; i++ {
		got, vouched := r.stop()
		if len(got) != 0 {
			r.t.Fatalf("the clean tree lists %q", got)
		}
		if vouched {
			return
		}
	}
	r.t.Fatal("six Stops over an untouched tree were never vouched by the watcher")
}

func TestTreeWatchAgreesWithGitStatus(t *testing.T) {
	env := func(dir string) []string { return testEnv(filepath.Join(filepath.Dir(dir), "home")) }
	old := time.Now().Add(-time.Hour)
	for _, tc := range []struct {
		name   string
		prep   func(t *testing.T, r *watchRepo)
		change func(t *testing.T, r *watchRepo)
		clean  bool // git's verdict after the change
	}{
		{"untouched", nil, func(*testing.T, *watchRepo) {}, true},
		{"edited in place, size and times kept", nil, func(t *testing.T, r *watchRepo) {
			// git compares whole seconds of the change time: the write
			// waits for the next second, so git too sees the edit.
			time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(1100 * time.Millisecond)))
			p := filepath.Join(r.dir, "docs/a.md")
			var st syscall.Stat_t
			if err := syscall.Stat(p, &st); err != nil {
				t.Fatal(err)
			}
			writeFile(t, p, "ALPHA\n", 0o644)
			if err := os.Chtimes(p, time.Unix(st.Atim.Sec, st.Atim.Nsec), time.Unix(st.Mtim.Sec, st.Mtim.Nsec)); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a file created in a nested directory", nil, func(t *testing.T, r *watchRepo) {
			writeFile(t, filepath.Join(r.dir, "docs/deep/new.md"), "new\n", 0o644)
		}, false},
		{"an ignored file created", nil, func(t *testing.T, r *watchRepo) {
			writeFile(t, filepath.Join(r.dir, "docs/deep/run.log"), "log\n", 0o644)
		}, true},
		{"a file removed in a nested directory", nil, func(t *testing.T, r *watchRepo) {
			if err := os.Remove(filepath.Join(r.dir, "docs/deep/b.md")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a file renamed in a nested directory", nil, func(t *testing.T, r *watchRepo) {
			if err := os.Rename(filepath.Join(r.dir, "docs/deep/b.md"), filepath.Join(r.dir, "docs/deep/c.md")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a new directory", nil, func(t *testing.T, r *watchRepo) {
			if err := os.MkdirAll(filepath.Join(r.dir, "docs/deep/fresh/sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(r.dir, "docs/deep/fresh/sub/x.md"), "x\n", 0o644)
		}, false},
		{"chmod +x", nil, func(t *testing.T, r *watchRepo) {
			if err := os.Chmod(filepath.Join(r.dir, "docs/a.md"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a .gitignore edit", nil, func(t *testing.T, r *watchRepo) {
			writeFile(t, filepath.Join(r.dir, ".gitignore"), "out/\n", 0o644)
		}, false},
		{"git reset --soft HEAD^", func(t *testing.T, r *watchRepo) {
			p := filepath.Join(r.dir, "docs/a.md")
			writeFile(t, p, "alpha two\n", 0o644)
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
			runGit(t, r.dir, env(r.dir), "commit", "-q", "-am", "two")
		}, func(t *testing.T, r *watchRepo) {
			runGit(t, r.dir, env(r.dir), "reset", "-q", "--soft", "HEAD^")
		}, false},
		{"git add of an edit", nil, func(t *testing.T, r *watchRepo) {
			writeFile(t, filepath.Join(r.dir, "docs/a.md"), "staged\n", 0o644)
			runGit(t, r.dir, env(r.dir), "add", "docs/a.md")
		}, false},
		{"the watcher killed", nil, func(t *testing.T, r *watchRepo) {
			r.kill()
		}, true},
		{"the watcher killed and a file edited", nil, func(t *testing.T, r *watchRepo) {
			r.kill()
			writeFile(t, filepath.Join(r.dir, "docs/a.md"), "ALPHA\n", 0o644)
		}, false},
		{"the watcher's queue overflowed", nil, func(t *testing.T, r *watchRepo) {
			r.last().s.Inject(syscall.IN_Q_OVERFLOW)
		}, true},
		{"a fake watcher answering the recorded token over an edit", nil, func(t *testing.T, r *watchRepo) {
			tok := r.last().s.Status()
			r.kill()
			startFakeWatch(t, treewatch.Address(r.state, r.state),
				"ok "+tok.Epoch+" "+strconv.FormatUint(tok.Count, 10)+" "+tok.Digest+" 1")
			writeFile(t, filepath.Join(r.dir, "docs/deep/new.md"), "new\n", 0o644)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newWatchRepo(t)
			if tc.prep != nil {
				tc.prep(t, r)
				time.Sleep(30 * time.Millisecond)
			}
			r.warm()
			tc.change(t, r)
			got, vouched := r.stop()
			if vouched && tc.name != "untouched" {
				t.Fatalf("the watcher vouched for a tree after %s", tc.name)
			}
			if tc.name == "untouched" && !vouched {
				t.Fatal("the watcher did not vouch for the untouched tree")
			}
			want, err := r.g.Changed(r.dir)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("the Stop answered %q, git status %q", got, want)
			}
			if (len(want) == 0) != tc.clean {
				t.Fatalf("git status lists %q; the case expects clean = %v", want, tc.clean)
			}
		})
	}
}

// A tracked file with a second name outside the watched directories (a
// hard link) changes with no event on its directory: the watch on the
// file's own inode sees a write through the other name, and a link made
// after the vouch was recorded.
func TestTreeWatchSeesAWriteThroughAHardLink(t *testing.T) {
	for _, linkFirst := range []bool{true, false} {
		t.Run(map[bool]string{true: "linked before", false: "linked after"}[linkFirst], func(t *testing.T) {
			r := newWatchRepo(t)
			outside := filepath.Join(filepath.Dir(r.dir), "outside.md")
			link := func() {
				// In a later second than the index's record of the file:
				// git compares whole seconds of the change time, and
				// refreshes its record only when it sees one move.
				time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(1100 * time.Millisecond)))
				if err := os.Link(filepath.Join(r.dir, "docs/a.md"), outside); err != nil {
					t.Fatal(err)
				}
			}
			if linkFirst {
				link()
			}
			r.warm()
			if !linkFirst {
				link()
				if got, vouched := r.stop(); len(got) != 0 || vouched {
					t.Fatalf("after a link made from outside: %q, vouched %v", got, vouched)
				}
				r.warm()
			}
			// Through the other name, keeping the size: only the file's
			// own watch can see it.
			time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(1100 * time.Millisecond)))
			f, err := os.OpenFile(outside, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteAt([]byte("A"), 0); err != nil {
				t.Fatal(err)
			}
			f.Close()
			got, vouched := r.stop()
			if vouched || !slices.Equal(got, []string{"docs/a.md"}) {
				t.Fatalf("after a write through the other name: %q, vouched %v", got, vouched)
			}
		})
	}
}

// With the watcher off (the knob), no Stop asks one or starts one.
func TestTreeWatchOffStartsNone(t *testing.T) {
	r := newWatchRepo(t)
	r.g.TreeWatch = false
	for i := 0; i < 4; i++ {
		if got, vouched := r.stop(); len(got) != 0 || vouched {
			t.Fatalf("Stop %d: %q, vouched %v", i, got, vouched)
		}
	}
	if len(r.servers) != 0 {
		t.Fatalf("%d watchers started with the watcher off", len(r.servers))
	}
	if _, err := os.Stat(filepath.Join(r.state, treewatch.SocketName)); err == nil && !strings.HasPrefix(treewatch.Address(r.state, r.state), "@") {
		t.Fatal("a socket was left with the watcher off")
	}
}
