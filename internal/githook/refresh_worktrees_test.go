package githook

import (
	"os"
	"path/filepath"
	"testing"
)

// A refresh points linked worktrees at the hooks again: the include
// file, lost since the opt-in, is written back.
func TestInstallRefreshPointsLinkedWorktreesAgain(t *testing.T) {
	r := newInstallRig(t)
	if code := r.install(); code != 0 {
		t.Fatal(r.errb.String())
	}
	inc := filepath.Join(filepath.Dir(r.hooksDir()), WorktreeInclude)
	if err := os.Remove(inc); err != nil {
		t.Fatalf("no include file after the opt-in: %v", err)
	}
	if code := r.install("--refresh"); code != 0 {
		t.Fatalf("refresh: exit %d %q", code, r.errb.String())
	}
	if _, err := os.Stat(inc); err != nil {
		t.Fatalf("the refresh did not write the include file back: %v", err)
	}
}
