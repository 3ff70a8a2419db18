package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The action gates' scan over a staged tree holds only what the tree
// tracks: an untracked workflow on the disk is no part of a commit, at the
// pre-commit hook and in the landed judge alike, while the battery over
// the work tree still reads it (the original's walk). Added, the same
// workflow refuses the commit.
func TestActionScanOfAStagedTreeReadsOnlyWhatItTracks(t *testing.T) {
	t.Parallel()
	parent, _ := filepath.EvalSymlinks(t.TempDir())
	dir := filepath.Join(parent, "repo")
	os.MkdirAll(dir, 0o755)
	a := &adopter{t: t, dir: dir}
	a.env = baseEnv(t, "GIT_CEILING_DIRECTORIES="+parent)
	a.must("git", "init", "-q", "-b", "main")
	a.write("README.md", "# a project\n")
	a.write(".github/workflows/ci.yml", "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11 # v4.1.1\n")
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "-m", "initial")
	a.must(binPath, "init", "--hooks")
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "-m", "chore: adopt the gates")
	if !strings.Contains(a.must(binPath, "--list"), "check-action-pinning") {
		t.Fatal("check-action-pinning is not registered")
	}
	// A workflow pinned by tag, on the disk, not added.
	a.write(".github/workflows/new.yml", "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n")
	a.write("README.md", "# a project\n\nHow to use it.\n")
	a.must("git", "add", "README.md")
	if r := run(t, dir, a.env, "git", "commit", "-q", "-m", "docs: a guide"); r.code != 0 {
		t.Fatalf("assertion V: a commit that does not hold the untracked workflow was refused for it: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The battery over the work tree still reads it.
	if r := run(t, dir, a.env, binPath, "--only", "check-action-pinning"); r.code != 1 || !strings.Contains(r.stdout, "new.yml") {
		t.Fatalf("the battery no longer reads an untracked workflow: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Added, it is the commit's.
	a.must("git", "add", ".github/workflows/new.yml")
	if r := run(t, dir, a.env, "git", "commit", "-q", "-m", "ci: a new workflow"); r.code == 0 || !strings.Contains(r.stdout+r.stderr, "new.yml") {
		t.Fatalf("a commit holding a workflow pinned by tag passed: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
