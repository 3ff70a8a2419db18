package repo

// Unit tests of the uncommitted-change listing and the working and edit
// snapshots over a real repository.

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// changedFixture is newFixture with every kind of uncommitted change: an
// unstaged edit, a staged new file, a staged and then edited file, a
// deletion, a rename (its two sides), an untracked file in a new
// directory, and an ignored file.
func changedFixture(t *testing.T) fixture {
	t.Helper()
	fx := newFixture(t)
	writeFile(t, filepath.Join(fx.top, "plain.txt"), "edited\n", 0o644)
	writeFile(t, filepath.Join(fx.top, "staged.txt"), "staged\n", 0o644)
	runGit(t, fx.top, fx.env, "add", "staged.txt")
	writeFile(t, filepath.Join(fx.top, "staged.txt"), "staged, then edited\n", 0o644)
	if err := os.Remove(filepath.Join(fx.top, "nested", "top.sh")); err != nil {
		t.Fatal(err)
	}
	runGit(t, fx.top, fx.env, "mv", "run.sh", "moved.sh")
	writeFile(t, filepath.Join(fx.top, "new", "u.txt"), "untracked\n", 0o644)
	writeFile(t, filepath.Join(fx.top, ".git", "info", "exclude"), "*.log\n", 0o644)
	writeFile(t, filepath.Join(fx.top, "x.log"), "ignored\n", 0o644)
	return fx
}

func TestChangedListsEveryUncommittedPathOnce(t *testing.T) {
	fx := changedFixture(t)
	got, err := Git{Env: fx.env}.Changed(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"moved.sh", "nested/top.sh", "new/u.txt", "plain.txt", "run.sh", "staged.txt"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Changed = %q, want %q", got, want)
	}
	// Asked from a subdirectory, the paths are still the toplevel's.
	got, err = Git{Env: fx.env}.Changed(filepath.Join(fx.top, "nested"))
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("from a subdirectory: %q %v", got, err)
	}
	// A clean tree has no change.
	runGit(t, fx.top, fx.env, "add", "-A")
	runGit(t, fx.top, fx.env, "commit", "-q", "-m", "all")
	if got, err := (Git{Env: fx.env}).Changed(fx.top); err != nil || len(got) != 0 {
		t.Errorf("a clean tree: %q %v", got, err)
	}
	// Outside a repository: an error, never an empty list.
	if got, err := (Git{Env: fx.env}).Changed(physTemp(t)); err == nil {
		t.Errorf("outside a repository: %q", got)
	}
}

func TestNewWorkingSnapshotIsTheWorkTree(t *testing.T) {
	fx := changedFixture(t)
	writeFile(t, filepath.Join(fx.top, "new", "u.sh"), "#!/bin/sh\n", 0o755)
	if runtime.GOOS != "windows" {
		if err := os.Symlink("u.txt", filepath.Join(fx.top, "new", "ul")); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Git{Env: fx.env}.NewWorkingSnapshot(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	files := strings.Join(s.Files(), "\n")
	for _, p := range []string{"moved.sh", "new/u.txt", "new/u.sh", "plain.txt", "staged.txt"} {
		if !s.Has(p) {
			t.Errorf("%s missing from:\n%s", p, files)
		}
	}
	for _, p := range []string{"nested/top.sh", "run.sh", "x.log"} {
		if s.Has(p) {
			t.Errorf("%s in the view", p)
		}
	}
	modes := map[string]uint32{"new/u.txt": 0o100644, "new/u.sh": 0o100755, "moved.sh": 0o100755, "plain.txt": 0o100644}
	if runtime.GOOS != "windows" {
		modes["new/ul"] = 0o120000
		modes["link"] = 0o120000
	}
	for p, want := range modes {
		if m, ok := s.Mode(p); !ok || m != want {
			t.Errorf("%s: mode %o %v, want %o", p, m, ok, want)
		}
	}
	for i := 1; i < len(s.Files()); i++ {
		if s.Files()[i-1] >= s.Files()[i] {
			t.Errorf("out of order: %q before %q", s.Files()[i-1], s.Files()[i])
		}
	}
	if got, err := (Git{Env: fx.env}).NewWorkingSnapshot(physTemp(t)); err == nil {
		t.Errorf("outside a repository: %v", got.Files())
	}
}

func TestNewEditSnapshotAsksOnlyOfThePaths(t *testing.T) {
	fx := changedFixture(t)
	writeFile(t, filepath.Join(fx.top, "other.sh"), "#!/bin/sh\n", 0o755)
	s, err := Git{Env: fx.env}.NewEditSnapshot(fx.top, []string{"new/u.txt", "plain.txt", "x.log", "absent.txt", "other.sh"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"new/u.txt", "plain.txt", "moved.sh", "staged.txt", "other.sh"} {
		if !s.Has(p) {
			t.Errorf("%s missing from %q", p, s.Files())
		}
	}
	for _, p := range []string{"x.log", "absent.txt", "nested/top.sh", "run.sh"} {
		if s.Has(p) {
			t.Errorf("%s in the view", p)
		}
	}
	if m, ok := s.Mode("other.sh"); !ok || m != 0o100755 {
		t.Errorf("other.sh: mode %o %v", m, ok)
	}
	// An untracked file not asked about is not in the view; a path
	// holding a pathspec's magic is asked about literally.
	writeFile(t, filepath.Join(fx.top, "a*"), "star\n", 0o644)
	s, err = Git{Env: fx.env}.NewEditSnapshot(fx.top, []string{"a*"})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Has("a*") || s.Has("new/u.txt") || s.Has("other.sh") {
		t.Errorf("view %q", s.Files())
	}
	// Only tracked paths asked: git is not asked at all.
	s, err = Git{Env: fx.env}.NewEditSnapshot(fx.top, []string{"plain.txt"})
	if err != nil || !s.Has("plain.txt") || s.Has("new/u.txt") {
		t.Errorf("view %v %v", s, err)
	}
}

func TestWorkingSnapshotKeepsAGitlink(t *testing.T) {
	fx := indexRepo(t)
	if err := os.RemoveAll(filepath.Join(fx.top, "vendor", "sub")); err != nil {
		t.Fatal(err)
	}
	s, err := Git{Env: fx.env}.NewWorkingSnapshot(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := s.Mode("vendor/sub"); !ok || m != 0o160000 {
		t.Errorf("the gitlink: mode %o %v in %q", m, ok, s.Files())
	}
}

// FromBlob: a staged snapshot's listed files, and a work-tree snapshot's
// skip-worktree entries, never a link or a gitlink; CommonDir names the
// object store a snapshot reads, none for one built from entries alone.
func TestFromBlobAndCommonDir(t *testing.T) {
	fx := indexRepo(t)
	g := Git{Env: fx.env}
	staged, err := g.StagedSnapshot(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	work, err := g.NewSnapshot(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path         string
		staged, work bool
	}{
		{"plain.txt", true, false},
		{"run.sh", true, true}, // skip-worktree
		{"vendor/sub", false, false},
		{"absent.txt", false, false},
	} {
		if got := staged.FromBlob(tc.path); got != tc.staged {
			t.Errorf("staged FromBlob(%s) = %v", tc.path, got)
		}
		if got := work.FromBlob(tc.path); got != tc.work {
			t.Errorf("work FromBlob(%s) = %v", tc.path, got)
		}
	}
	if runtime.GOOS != "windows" && staged.FromBlob("link") {
		t.Error("a link is read from its blob")
	}
	want := filepath.ToSlash(filepath.Join(fx.top, ".git"))
	if got := staged.CommonDir(); got != want {
		t.Errorf("CommonDir = %q, want %q", got, want)
	}
	if w, err := g.NewWorkingSnapshot(fx.top); err != nil || w.FromBlob("run.sh") || w.CommonDir() != "" {
		t.Errorf("a working snapshot holds no store: %v", err)
	}
	bare := SnapshotOf(fx.top, []Entry{{Path: "plain.txt", Mode: 0o100644}})
	if bare.CommonDir() != "" || bare.FromBlob("plain.txt") {
		t.Errorf("a snapshot of entries alone: %q %v", bare.CommonDir(), bare.FromBlob("plain.txt"))
	}
}

// A one-letter path makes the shortest status entry there is, "?? u".
func TestChangedReadsTheShortestEntry(t *testing.T) {
	fx := newFixture(t)
	writeFile(t, filepath.Join(fx.top, "u"), "x\n", 0o644)
	got, err := Git{Env: fx.env}.Changed(fx.top)
	if err != nil || !reflect.DeepEqual(got, []string{"u"}) {
		t.Errorf("Changed = %q %v", got, err)
	}
}

// Unstaged lists the work tree's differences from the index: an edit, a
// deletion, an intent-to-add entry; not a staged change, not an untracked
// file; and refuses outside a repository.
func TestUnstaged(t *testing.T) {
	fx := newFixture(t)
	writeFile(t, filepath.Join(fx.top, "plain.txt"), "edited\n", 0o644)
	writeFile(t, filepath.Join(fx.top, "staged.txt"), "s\n", 0o644)
	runGit(t, fx.top, fx.env, "add", "staged.txt")
	writeFile(t, filepath.Join(fx.top, "ita.md"), "i\n", 0o644)
	runGit(t, fx.top, fx.env, "add", "-N", "ita.md")
	if err := os.Remove(filepath.Join(fx.top, "nested", "top.sh")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(fx.top, "untracked.txt"), "u\n", 0o644)
	got, err := Git{Env: fx.env}.Unstaged(fx.top)
	if want := []string{"ita.md", "nested/top.sh", "plain.txt"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Unstaged = %q %v, want %q", got, err, want)
	}
	if got, err := (Git{Env: fx.env}).Unstaged(physTemp(t)); err == nil {
		t.Errorf("outside a repository: %q", got)
	}
}
