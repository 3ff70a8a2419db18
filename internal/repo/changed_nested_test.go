package repo

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

// assertion S (stop-gates): a clone nested untracked in the tree is no
// change, at any depth; an untracked file beside it still is.
func TestChangedLeavesANestedRepositoryOut(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	gitIn := func(d string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = d
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.invalid", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.invalid")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitIn(dir, "init", "-q")
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("a\n"), 0o644)
	gitIn(dir, "add", "a.md")
	gitIn(dir, "commit", "-q", "-m", "a")
	for _, nested := range []string{"examples/lib", "deep/er/repo"} {
		d := filepath.Join(dir, nested)
		os.MkdirAll(d, 0o755)
		gitIn(d, "init", "-q")
		os.WriteFile(filepath.Join(d, "x.md"), []byte("x\n"), 0o644)
	}
	got, err := Changed(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Fatalf("nested repositories listed as change: %q", got)
	}
	os.WriteFile(filepath.Join(dir, "examples", "notes.md"), []byte("n\n"), 0o644)
	if got, err = Changed(dir); err != nil || !reflect.DeepEqual(got, []string{"examples/notes.md"}) {
		t.Fatalf("beside a nested repository: %q %v", got, err)
	}
}
