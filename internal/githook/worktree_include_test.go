package githook

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// assertion E: a relative core.hooksPath gets the include file and the
// conditional include that point linked worktrees at the absolute
// directory, an absolute one needs neither; dropping them removes both,
// and a failed removal is an error.
func TestWorktreeIncludeMadeAndDropped(t *testing.T) {
	r := newInstallRig(t)
	dir := filepath.Join(r.dir, ".git", HooksDirName)
	inc := filepath.Join(r.dir, ".git", WorktreeInclude)
	if err := pointLinkedWorktrees(r.dir, dir, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(inc); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("an absolute hooksPath wrote the include file: %v", err)
	}
	if err := pointLinkedWorktrees(r.dir, dir, ".git/"+HooksDirName); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(inc); err != nil {
		t.Fatalf("no include file: %v", err)
	}
	if v, set := r.config(worktreeIncludeKey); !set || v != WorktreeInclude {
		t.Fatalf("%s = %q %v", worktreeIncludeKey, v, set)
	}
	if err := DropWorktreeInclude(r.dir, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(inc); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the include file was kept: %v", err)
	}
	if _, set := r.config(worktreeIncludeKey); set {
		t.Fatal("the conditional include was kept")
	}
	// Its place taken by a directory that holds a file: an error.
	if err := os.MkdirAll(filepath.Join(inc, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := DropWorktreeInclude(r.dir, dir); err == nil {
		t.Fatal("an include file that could not be removed was reported dropped")
	}
}
