package repo

import (
	"path/filepath"
	"testing"
)

// IndexFile answers the staged bytes, not the work tree's, and false for a
// path the index does not hold.
func TestIndexFile(t *testing.T) {
	fx := newFixture(t)
	top := fx.top
	writeFile(t, filepath.Join(top, "scripts", "gates.list"), "check-a\n", 0o644)
	runGit(t, top, fx.env, "add", "scripts/gates.list")
	writeFile(t, filepath.Join(top, "scripts", "gates.list"), "# check-a\n", 0o644)
	writeFile(t, filepath.Join(top, "untracked.txt"), "x\n", 0o644)
	g := Git{Env: fx.env}
	got, ok, err := g.IndexFile(top, "scripts/gates.list")
	if err != nil || !ok || string(got) != "check-a\n" {
		t.Fatalf("staged copy: %q %v %v", got, ok, err)
	}
	if _, ok, err := g.IndexFile(top, "untracked.txt"); ok || err != nil {
		t.Fatalf("untracked: %v %v", ok, err)
	}
	if _, _, err := g.IndexFile(top, "a\nb"); err == nil {
		t.Fatal("a name with a line end was asked")
	}
}
