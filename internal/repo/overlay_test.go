package repo

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// assertion D (edit-gates): the overlay is the index with the edited
// paths put over it: a file the edit did not touch is its staged blob
// (named by the index's id, whatever the work tree holds), an edited one
// its work-tree bytes under its own id, a deleted one is gone, an ignored
// one never joins; and it declines an index it cannot stand for.
func TestEditOverlay(t *testing.T) {
	fx := newFixture(t)
	top := fx.top
	g := Git{Env: fx.env}
	// An untouched file changed in the work tree: the overlay keeps the
	// index's bytes for it.
	writeFile(t, filepath.Join(top, "plain.txt"), "staged\n", 0o644)
	runGit(t, top, fx.env, "add", "plain.txt")
	writeFile(t, filepath.Join(top, "plain.txt"), "unstaged, not edited\n", 0o644)
	writeFile(t, filepath.Join(top, "edited.md"), "before\n", 0o644)
	runGit(t, top, fx.env, "add", "edited.md")
	writeFile(t, filepath.Join(top, "edited.md"), "after the edit\n", 0o644)
	writeFile(t, filepath.Join(top, "new.md"), "a new file\n", 0o644)
	writeFile(t, filepath.Join(top, ".git/info/exclude"), "/ignored.md\n", 0o644)
	writeFile(t, filepath.Join(top, "ignored.md"), "ignored\n", 0o644)
	if err := os.Remove(filepath.Join(top, "run.sh")); err != nil {
		t.Fatal(err)
	}
	staged, err := g.StagedSnapshot(top)
	if err != nil {
		t.Fatal(err)
	}
	s, ok, err := g.NewEditOverlay(top, []string{"edited.md", "new.md", "ignored.md", "run.sh"})
	if err != nil || !ok {
		t.Fatalf("overlay: ok %v, %v", ok, err)
	}
	for path, want := range map[string]string{"plain.txt": "staged\n", "edited.md": "after the edit\n", "new.md": "a new file\n"} {
		if got, err := s.Read(path); err != nil || string(got) != want {
			t.Errorf("Read(%s) = %q, %v; want %q", path, got, err, want)
		}
	}
	if id, _ := s.BlobID("plain.txt"); id != staged.mustLookup("plain.txt").hash {
		t.Errorf("an untouched file is not named by the index's id: %s", id)
	}
	if id, _ := s.BlobID("edited.md"); id != s.blobs.hashOf([]byte("after the edit\n")) {
		t.Errorf("the edited file is not named by its work-tree bytes' id: %s", id)
	}
	if s.Has("run.sh") || s.Has("ignored.md") || !s.Has("new.md") || s.Len() != staged.Len() {
		t.Errorf("listing: deleted %v, ignored %v, new %v, %d paths beside the index's %d", s.Has("run.sh"), s.Has("ignored.md"), s.Has("new.md"), s.Len(), staged.Len())
	}
	// The digest names the overlay, never the index alone.
	d1, _ := s.TreeDigest()
	d0, _ := staged.TreeDigest()
	if d1 == d0 || d1 == "" {
		t.Errorf("the overlay's digest %q stands for the index's %q", d1, d0)
	}
	// An intent-to-add entry: the overlay declines.
	writeFile(t, filepath.Join(top, "later.md"), "later\n", 0o644)
	runGit(t, top, fx.env, "add", "-N", "later.md")
	if _, ok, err := g.NewEditOverlay(top, []string{"edited.md"}); ok || err != nil {
		t.Errorf("an index with an intent-to-add entry: ok %v, %v", ok, err)
	}
}

// An edit overlay whose edited paths are all tracked and present names
// the index it lies over and its paths in byte order; an overlay with an
// untracked path, a staged snapshot and a work-tree one name none.
func TestEditOverlayNamesItsIndex(t *testing.T) {
	fx := newFixture(t)
	top := fx.top
	g := Git{Env: fx.env}
	writeFile(t, filepath.Join(top, "run.sh"), "#!/bin/sh\nedited\n", 0o755)
	writeFile(t, filepath.Join(top, "plain.txt"), "edited\n", 0o644)
	a, ok, err := g.NewEditOverlay(top, []string{"run.sh", "plain.txt"})
	if err != nil || !ok {
		t.Fatalf("overlay: ok %v, %v", ok, err)
	}
	b, ok, err := g.NewEditOverlay(top, []string{"plain.txt"})
	if err != nil || !ok {
		t.Fatalf("overlay: ok %v, %v", ok, err)
	}
	ia, pa, oka := a.EditOverlay()
	ib, pb, okb := b.EditOverlay()
	if !oka || !okb || ia == "" || ia != ib {
		t.Errorf("two overlays of one index: %q %v, %q %v", ia, oka, ib, okb)
	}
	if !slices.Equal(pa, []string{"plain.txt", "run.sh"}) || !slices.Equal(pb, []string{"plain.txt"}) {
		t.Errorf("paths put over the index: %q, %q", pa, pb)
	}
	writeFile(t, filepath.Join(top, "new.md"), "new\n", 0o644)
	c, ok, err := g.NewEditOverlay(top, []string{"plain.txt", "new.md"})
	if err != nil || !ok {
		t.Fatalf("overlay with a new path: ok %v, %v", ok, err)
	}
	staged, err := g.StagedSnapshot(top)
	if err != nil {
		t.Fatal(err)
	}
	work, err := g.NewSnapshot(top)
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*Snapshot{"an overlay with an untracked path": c, "a staged snapshot": staged, "a work-tree snapshot": work} {
		if index, puts, ok := s.EditOverlay(); ok || index != "" || puts != nil {
			t.Errorf("%s: EditOverlay = %q %q %v", name, index, puts, ok)
		}
	}
}

// The overlay's edited paths: a symbolic link is put over the index as
// its target's text; a path that is neither a file nor a link (a
// directory, a FIFO) declines the overlay; an untracked file the edit did
// not name never joins the view.
func TestEditOverlayEditedShapes(t *testing.T) {
	fx := newFixture(t)
	top := fx.top
	g := Git{Env: fx.env}
	writeFile(t, filepath.Join(top, "stray.md"), "untracked, not edited\n", 0o644)
	if err := os.Remove(filepath.Join(top, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("plain.txt", filepath.Join(top, "link")); err != nil {
		t.Fatal(err)
	}
	s, ok, err := g.NewEditOverlay(top, []string{"link"})
	if err != nil || !ok {
		t.Fatalf("an edited link: ok %v, %v", ok, err)
	}
	if got, err := s.Read("link"); err != nil || string(got) != "plain.txt" {
		t.Errorf("the edited link reads %q %v", got, err)
	}
	if s.Has("stray.md") {
		t.Error("an untracked file the edit did not name joined the view")
	}
	if _, _, ok := s.EditOverlay(); !ok {
		t.Error("an overlay of one tracked, present path names no index")
	}
	if err := os.Remove(filepath.Join(top, "plain.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(top, "plain.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := g.NewEditOverlay(top, []string{"plain.txt"}); ok || err != nil {
		t.Errorf("a tracked path now a directory: ok %v, %v; want the overlay declined", ok, err)
	}
	fifo := filepath.Join(top, "pipe")
	if err := exec.Command("mkfifo", fifo).Run(); err != nil {
		t.Skip("no mkfifo")
	}
	if _, ok, err := g.NewEditOverlay(top, []string{"pipe"}); ok || err != nil {
		t.Errorf("an edited FIFO: ok %v, %v; want the overlay declined", ok, err)
	}
}
