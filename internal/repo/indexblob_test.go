package repo

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// assertion Q: the in-process read answers what git cat-file --batch
// answers: the staged bytes (a commit's own GIT_INDEX_FILE, a subdirectory
// naming paths from the top, a symlink's target), and not-found for a path
// the index does not hold at stage 0.
func TestIndexFileInProcessAnswersAsCatFile(t *testing.T) {
	fx := newFixture(t)
	top := fx.top
	writeFile(t, filepath.Join(top, "scripts", "gates.list"), "check-a\n", 0o644)
	runGit(t, top, fx.env, "add", "scripts/gates.list")
	writeFile(t, filepath.Join(top, "scripts", "gates.list"), "# check-a\n", 0o644)
	other := filepath.Join(t.TempDir(), "other-index")
	alt := append(append([]string{}, fx.env...), "GIT_INDEX_FILE="+other)
	runGit(t, top, alt, "read-tree", "HEAD")
	writeFile(t, filepath.Join(top, "scripts", "gates.list"), "check-b\n", 0o644)
	runGit(t, top, alt, "add", "scripts/gates.list")
	for _, c := range []struct {
		env       []string
		dir, path string
		want      string
		found     bool
	}{
		{fx.env, top, "scripts/gates.list", "check-a\n", true},
		{fx.env, filepath.Join(top, "scripts"), "scripts/gates.list", "check-a\n", true},
		{alt, top, "scripts/gates.list", "check-b\n", true},
		{fx.env, top, "link", "nested/deep/x.go", true},
		{fx.env, top, "no-such-file", "", false},
	} {
		g := Git{Env: c.env}
		data, found, ok := g.indexFileInProcess(c.dir, c.path)
		if !ok || found != c.found || string(data) != c.want {
			t.Fatalf("%s in %s: %q %v %v, want %q %v", c.path, c.dir, data, found, ok, c.want, c.found)
		}
		raw, err := g.runStdin(c.dir, "cat-file", strings.NewReader(":"+c.path+"\n"), "cat-file", "--batch")
		if err != nil {
			t.Fatal(err)
		}
		out := string(raw)
		if c.found != !strings.HasSuffix(strings.SplitN(out, "\n", 2)[0], " missing") || c.found && !strings.Contains(out, c.want) {
			t.Fatalf("%s: git cat-file answered %q", c.path, out)
		}
	}
}

// assertion Q: a stateful reader decodes an unchanged index once per
// process, and every caller's listing is its own: filtering one in place
// (as StagedSnapshot does) leaves the next caller's whole.
func TestIndexDecodedOnceListingsOwnTheirSlices(t *testing.T) {
	fx := newFixture(t)
	g := Git{Env: fx.env, RecordVerified: true}
	src, err := g.LocateIndex(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	a, err := g.readIndex(fx.top, src)
	if err != nil {
		t.Fatal(err)
	}
	b, err := g.readIndex(fx.top, src)
	if err != nil || a != b {
		t.Fatalf("decoded twice (%p, %p) or failed: %v", a, b, err)
	}
	first, err := g.Index(fx.top)
	if err != nil || len(first) < 2 {
		t.Fatalf("listing: %d entries, %v", len(first), err)
	}
	want := first[1].Path
	first[0], first[1] = first[1], first[0]
	second, err := g.Index(fx.top)
	if err != nil || second[1].Path != want {
		t.Fatalf("a caller's change to its listing reached the next: %v %v", second[1].Path, err)
	}
	// The snapshots filter the shared decoding without writing it: the
	// intent-to-add entry is left out of the snapshot and stays in the
	// decoding.
	if err := os.WriteFile(filepath.Join(fx.top, "intent.md"), []byte("later\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runGit(t, fx.top, fx.env, "add", "-N", "intent.md")
	shared, _, err := g.indexAt(fx.top, src)
	if err != nil {
		t.Fatal(err)
	}
	before := slices.Clone(shared)
	if _, err := g.StagedSnapshot(fx.top); err != nil {
		t.Fatal(err)
	}
	if _, err := g.NewSnapshot(fx.top); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(shared, before) || !slices.ContainsFunc(shared, Entry.IntentToAdd) {
		t.Fatal("a snapshot wrote the shared decoding of the index (or the fixture holds no intent-to-add entry)")
	}
	plain := Git{Env: fx.env}
	if c, err := plain.readIndex(fx.top, src); err != nil || c == a {
		t.Fatalf("a stateless reader was served the kept decoding: %v", err)
	}
}

// An index the decoder leaves to git (a split index) is answered by git
// cat-file: the staged bytes, false for a path it does not hold, and git's
// own answer for a gitlink, whose commit the store here does not hold.
func TestIndexFileThroughGit(t *testing.T) {
	fx := indexRepo(t)
	top := fx.top
	writeFile(t, filepath.Join(top, "spaced name.md"), "staged\n", 0o644)
	runGit(t, top, fx.env, "add", "spaced name.md")
	writeFile(t, filepath.Join(top, "spaced name.md"), "work tree\n", 0o644)
	writeFile(t, filepath.Join(top, "empty.txt"), "", 0o644)
	runGit(t, top, fx.env, "add", "empty.txt")
	runGit(t, top, fx.env, "update-index", "--split-index")
	g := Git{Env: fx.env}
	if _, _, ok := g.indexFileInProcess(top, "plain.txt"); ok {
		t.Fatal("the split index was read in process; this test asks git")
	}
	for path, want := range map[string]string{"spaced name.md": "staged\n", "empty.txt": "", "nested/deep/x.go": "body of nested/deep/x.go\n"} {
		got, found, err := g.IndexFile(top, path)
		if err != nil || !found || string(got) != want {
			t.Errorf("%s: %q %v %v, want %q", path, got, found, err, want)
		}
	}
	for _, path := range []string{"absent.txt", "vendor/sub"} {
		if got, found, err := g.IndexFile(top, path); found || err != nil {
			t.Errorf("%s: %q %v %v, want not found", path, got, found, err)
		}
	}
	// Outside a repository git refuses, and so does IndexFile.
	if _, found, err := g.IndexFile(physTemp(t), "plain.txt"); err == nil || found {
		t.Errorf("outside a repository: %v %v", found, err)
	}
}

// A path that sorts after every entry of the index is not found, in
// process, without reading past the index's end.
func TestIndexFileInProcessPastTheLastEntry(t *testing.T) {
	fx := newFixture(t)
	g := Git{Env: fx.env}
	for _, p := range []string{"\u9999.txt", "\U0010FFFF"} {
		data, found, ok := g.indexFileInProcess(fx.top, p)
		if !ok || found || data != nil {
			t.Errorf("%q: %q %v %v", p, data, found, ok)
		}
	}
}
