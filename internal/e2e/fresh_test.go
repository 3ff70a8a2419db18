package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// publisherClone copies this repository's tracked and untracked-unignored
// files into a fresh scratch repository with one commit: the publisher's
// tree as the next commit would carry it, with no bin/ of its own.
func publisherClone(t *testing.T) *scratch {
	t.Helper()
	dir := t.TempDir()
	s := &scratch{t: t, dir: dir}
	s.env = append(cleanEnv(dir), "GATE_SDK_NATIVE_BIN=bin/gates")
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = moduleRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("listing the publisher's tree: %v", err)
	}
	for _, rel := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		src := filepath.Join(moduleRoot, filepath.FromSlash(rel))
		info, err := os.Lstat(src)
		if err != nil {
			continue // listed, deleted in the worktree: the next commit drops it
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		s.write(rel, string(data), info.Mode().Perm())
	}
	s.git("init", "-q", "-b", "main")
	s.git("add", "-A")
	s.git("commit", "-q", "--no-verify", "-m", "chore: the publisher's tree")
	return s
}

// TestBinaryFreshFollowsTheBuild is the acceptance path of
// check-gate-binary-fresh over a copy of this repository: make build is
// green, a Go edit without a rebuild is red, make build greens it again,
// and a plain go build (no stamp baked) is exit 2, never green.
func TestBinaryFreshFollowsTheBuild(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary twice in a copy of the repository")
	}
	s := publisherClone(t)
	build := func() {
		t.Helper()
		if code, out := s.run(nil, "make", "-s", "build"); code != 0 {
			t.Fatalf("make build: exit %d\n%s", code, out)
		}
	}
	fresh := func() (int, string) { return s.run(nil, "bin/gates", "check-gate-binary-fresh") }

	build()
	if code, out := fresh(); code != 0 || !strings.Contains(out, "GATE-BINARY-FRESH: clean (") {
		t.Fatalf("after make build: exit %d\n%s", code, out)
	}
	stamp, _ := s.run(nil, "bin/gates", "--source-stamp")
	if stamp != 0 {
		t.Fatal("the make-built binary answers no source stamp")
	}

	edited := filepath.Join(s.dir, "internal", "gates", "gates.go")
	data, err := os.ReadFile(edited)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edited, append(bytes.Clone(data), "\n// an edit the binary has not seen\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := fresh()
	if code != 1 || !strings.Contains(out, "the binary was not built from this tree") || !strings.Contains(out, "help: rebuild the binary") {
		t.Fatalf("a Go edit without a rebuild: exit %d, want 1\n%s", code, out)
	}
	// The battery reds on it too: the gate is registered.
	if code, out := s.run(nil, "bash", "kits/gate-sdk/bin/run-gates.sh", "--only", "check-gate-binary-fresh"); code != 1 {
		t.Fatalf("the battery over a stale binary: exit %d\n%s", code, out)
	}

	build()
	if code, out := fresh(); code != 0 {
		t.Fatalf("after the rebuild: exit %d\n%s", code, out)
	}

	// A plain go build bakes no stamp: the gate cannot verify, exit 2.
	plain := exec.Command("go", "build", "-trimpath", "-o", "bin/gates", "./cmd/gates")
	plain.Dir = s.dir
	plain.Env = s.env
	if msg, err := plain.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	if code, out := s.run(nil, "bin/gates", "--source-stamp"); code != 2 {
		t.Fatalf("an unstamped binary's --source-stamp: exit %d, want 2\n%s", code, out)
	}
	code, out = fresh()
	if code != 2 || !strings.Contains(out, "answers no source stamp") {
		t.Fatalf("an unstamped binary: exit %d, want 2\n%s", code, out)
	}
}
