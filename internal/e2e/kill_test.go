//go:build unix

package e2e

// An install or a hook placement killed at any moment leaves the old state
// or the new one plus what the next run cleans: a rerun of init finishes
// (and the battery is green), `init --uninstall` restores the tree, and a
// rerun of --install-hooks leaves no placement file behind.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// killAfter starts name args in dir under env and kills it (SIGKILL) after
// d, or lets it finish first; it answers whether the kill landed.
func killAfter(t *testing.T, dir string, env []string, d time.Duration, name string, args ...string) bool {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	// Its own process group, so the kill takes the probes it started too:
	// a kill leaves no child writing into the tree afterwards.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		return false
	case <-time.After(d):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return true
	}
}

// withoutScratch drops the scratch dir init's probes use from a status
// listing: it is ignored (it writes its own .gitignore of "*"), and a
// killed run cannot remove it.
func withoutScratch(status string) string {
	var keep []string
	for _, l := range strings.Split(status, "\n") {
		if !strings.HasSuffix(l, " .tmp/") && !strings.Contains(l, " .tmp/") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

func TestKilledInstallIsFinishedOrUndone(t *testing.T) {
	t.Parallel()
	// How long a whole init takes here, to spread the kills across it.
	probe := newAdopter(t)
	start := time.Now()
	probe.must(binPath, "init")
	whole := time.Since(start)
	const tries = 6
	for k := 1; k <= tries; k++ {
		d := whole * time.Duration(k) / (tries + 1)
		a := newAdopter(t)
		before := withoutScratch(a.status())
		killed := killAfter(t, a.dir, a.env, d, binPath, "init")
		lock := filepath.Join(a.dir, "scripts", "gates.lock")
		if _, err := os.Stat(lock); err != nil {
			// Killed before its journal: nothing may have been written.
			if after := withoutScratch(a.status()); killed && after != before {
				t.Fatalf("kill %d (%v): no lock, yet the tree changed:\n%s", k, d, after)
			}
		}
		// The same interrupted state, twice: one copy finished, one undone.
		undo := &adopter{t: t, dir: t.TempDir(), env: a.env}
		copyDir(t, a.dir, undo.dir)
		if r := a.runIn("", binPath, "init"); r.code != 0 {
			t.Fatalf("kill %d (%v, killed=%v): the rerun of init: exit %d\n%s%s", k, d, killed, r.code, r.stdout, r.stderr)
		}
		if b := a.battery(); b.code != 0 {
			t.Fatalf("kill %d (%v): battery after the rerun: exit %d\n%s%s", k, d, b.code, b.stdout, b.stderr)
		}
		if r := a.runIn("", binPath, "init"); r.code != 0 || !strings.Contains(r.stdout, "nothing to do") {
			t.Fatalf("kill %d (%v): a third init still found work: exit %d\n%s", k, d, r.code, r.stdout)
		}
		if _, err := os.Stat(filepath.Join(undo.dir, "scripts", "gates.lock")); err == nil {
			undo.env = a.env
			r := run(t, undo.dir, cleanGitEnv(a.env, undo.dir), binPath, "init", "--uninstall")
			if r.code != 0 {
				t.Fatalf("kill %d (%v): uninstall of the interrupted install: exit %d\n%s%s", k, d, r.code, r.stdout, r.stderr)
			}
			if after := withoutScratch(run(t, undo.dir, cleanGitEnv(a.env, undo.dir), "git", "status", "--porcelain", "--ignored", "--untracked-files=all").stdout); after != before {
				t.Fatalf("kill %d (%v): uninstall left the tree as\n%s\nnot as before:\n%s", k, d, after, before)
			}
		}
	}
}

// cleanGitEnv points an adopter's environment's ceiling at dir's parent.
func cleanGitEnv(env []string, dir string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GIT_CEILING_DIRECTORIES=") {
			out = append(out, kv)
		}
	}
	return append(out, "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
}

func TestKilledHookPlacementLeavesNothingBehind(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.must(binPath, "init")
	start := time.Now()
	a.must("bin/gates", "--install-hooks")
	whole := time.Since(start)
	hooks := strings.TrimSpace(a.must("git", "config", "core.hooksPath"))
	if !filepath.IsAbs(hooks) {
		hooks = filepath.Join(a.dir, hooks)
	}
	const tries = 6
	for k := 1; k <= tries; k++ {
		killAfter(t, a.dir, a.env, whole*time.Duration(k)/(tries+1), "bin/gates", "--install-hooks", "--refresh")
		a.must("bin/gates", "--install-hooks", "--refresh")
		ents, err := os.ReadDir(hooks)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".placing") {
				t.Fatalf("kill %d: %s is left in %s after the next placement", k, e.Name(), hooks)
			}
		}
		bin, err := os.ReadFile(filepath.Join(a.dir, "bin", "gates"))
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []string{"pre-commit", "commit-msg"} {
			placed, err := os.ReadFile(filepath.Join(hooks, h))
			if err != nil || string(placed) != string(bin) {
				t.Fatalf("kill %d: the %s hook is not the placed binary after the next placement (%v)", k, h, err)
			}
		}
	}
}

// A run killed between writing the lock's temporary copy and its rename
// leaves that copy; the next init and an uninstall both take it away
// (TestKilledInstallIsFinishedOrUndone met it at its last kill point).
func TestLockLeftoverIsRemoved(t *testing.T) {
	for _, args := range [][]string{{"init", "--uninstall"}, {"init"}} {
		a := newAdopter(t)
		before := withoutScratch(a.status())
		a.must(binPath, "init")
		left := filepath.Join(a.dir, "scripts", "gates.lock.gates-init.tmp")
		if err := os.WriteFile(left, []byte("half a lock"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := run(t, a.dir, cleanGitEnv(a.env, a.dir), binPath, args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		if _, err := os.Stat(left); !os.IsNotExist(err) {
			t.Errorf("%v left the lock's temporary copy (%v)", args, err)
		}
		if args[len(args)-1] == "--uninstall" {
			if after := withoutScratch(a.status()); after != before {
				t.Errorf("uninstall left the tree as\n%s\nnot as before:\n%s", after, before)
			}
		}
	}
}
