package repo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Holds answers what `git ls-tree` says of one path at a commit: a file,
// an executable or a link is held; a directory, a missing path or a path
// through a file is not.
func TestObjectsHoldsAPathAtACommit(t *testing.T) {
	dir := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.invalid", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.invalid")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q", "-b", "main")
	os.MkdirAll(filepath.Join(dir, "scripts", "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "scripts", "gates.list"), []byte("check-tree-terms\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "scripts", "sub", "run.sh"), []byte("#!/bin/sh\n"), 0o755)
	os.Symlink("gates.list", filepath.Join(dir, "scripts", "link"))
	run("add", "-A")
	run("commit", "-q", "-m", "start")
	head := run("rev-parse", "HEAD")
	gd := filepath.Join(dir, ".git")
	o, ok := OpenObjects(gd, gd, nil)
	if !ok {
		t.Fatal("the in-process reader did not open a plain repository")
	}
	for p, want := range map[string]bool{
		"scripts/gates.list": true, "scripts/sub/run.sh": true, "scripts/link": true,
		"scripts": false, "scripts/sub": false, "scripts/none": false, "scripts/gates.list/x": false, "none/gates.list": false,
	} {
		held, ok := o.Holds(head, p)
		if !ok || held != want {
			t.Errorf("Holds(%s) = %v, %v; want %v", p, held, ok, want)
		}
	}
	if _, ok := o.Holds(strings.Repeat("0", 40), "scripts/gates.list"); ok {
		t.Error("a commit the store lacks answered ok")
	}
}
