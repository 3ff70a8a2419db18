package walk

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// assertion N: the prune set's composition and leaf match.
func TestPruneSet(t *testing.T) {
	def := NewPruneSet(DefaultPruneDirs, "")
	if !reflect.DeepEqual(def.Names(), []string{"target", ".git", "node_modules", ".tmp", "gate-tests", "worktrees"}) {
		t.Fatalf("default names %q", def.Names())
	}
	extra := NewPruneSet(DefaultPruneDirs, "vendor  dist target")
	if got := extra.Names(); !reflect.DeepEqual(got[len(got)-2:], []string{"vendor", "dist"}) {
		t.Fatalf("extra appended as %q", got)
	}
	replaced := NewPruneSet("build", "")
	if replaced.Match("target") || !replaced.Match("build") {
		t.Fatal("PRUNE_DIRS did not replace the default")
	}
	if NewPruneSet("", "x").Match("target") {
		t.Fatal("an empty PRUNE_DIRS kept the default")
	}
	cases := map[string]bool{
		"a/target/x.md":      true,
		"target/x":           true,
		"a/b/worktrees/c/d":  true,
		"a/targets/x":        false,
		"target":             false, // the leaf itself is the file
		"a/x.target/y":       false,
		"docs/gate-tests.md": false,
	}
	for rel, want := range cases {
		if got := def.PathPruned(rel); got != want {
			t.Errorf("PathPruned(%q) = %v, want %v", rel, got, want)
		}
	}
	// Empty segments, a leading or trailing separator: each judged as the
	// split spelling judges it ("" is a segment, never pruned here).
	edge := NewPruneSet("", "t")
	for rel, want := range map[string]bool{"": false, "/": false, "t/": true, "/t/x": true, "a//t/x": true, "a//x": false, "x/t": false} {
		if got := edge.PathPruned(rel); got != want {
			t.Errorf("PathPruned(%q) = %v, want %v", rel, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { def.PathPruned("a/b/c/d/e/f.md") }); n != 0 {
		t.Errorf("PathPruned allocates %v times a call, want 0", n)
	}
}

func buildTree(t *testing.T) string {
	t.Helper()
	root := physTemp(t)
	for _, f := range []string{
		"b.md", "a.md", "docs/z.md", "docs/a/deep.md",
		"target/out.bin", "docs/target/skip.md", "docs/worktrees/w/copy.md",
		"node_modules/x/index.js", "keep/target.md",
	} {
		writeFile(t, filepath.Join(root, f), f)
	}
	mkdirs(t, filepath.Join(root, ".git", "objects"))
	if runtime.GOOS != "windows" {
		if err := os.Symlink(filepath.Join(root, "docs"), filepath.Join(root, "link")); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// assertion O: the one walker visits in name order, never follows a
// symlink, and neither visits nor enters a pruned leaf.
func TestWalk(t *testing.T) {
	root := buildTree(t)
	rec := &Recorder{}
	var got []string
	err := Walk(root, Options{Prune: NewPruneSet(DefaultPruneDirs, ""), Recorder: rec}, func(rel string, d fs.DirEntry) error {
		got = append(got, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.md", "b.md", "docs", "docs/a", "docs/a/deep.md", "docs/z.md", "keep", "keep/target.md"}
	if runtime.GOOS != "windows" {
		want = append(want, "link")
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("visited\n %q\nwant\n %q", got, want)
	}
	if !reflect.DeepEqual(rec.Roots(), []string{root}) {
		t.Errorf("recorded roots %q", rec.Roots())
	}
	wantDirs := []string{root, root + "/docs", root + "/docs/a", root + "/keep"}
	if !reflect.DeepEqual(rec.Dirs(), wantDirs) {
		t.Errorf("recorded dirs %q, want %q", rec.Dirs(), wantDirs)
	}

	// Without a prune set everything is visited.
	n := 0
	if err := Walk(root, Options{}, func(string, fs.DirEntry) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if n <= len(want) {
		t.Errorf("unpruned walk visited %d entries", n)
	}
}

func TestWalkControl(t *testing.T) {
	root := buildTree(t)
	var got []string
	err := Walk(root, Options{}, func(rel string, d fs.DirEntry) error {
		got = append(got, rel)
		switch rel {
		case "docs":
			return fs.SkipDir
		case "keep/target.md":
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(got, ","), "docs/") || got[len(got)-1] != "keep/target.md" {
		t.Fatalf("SkipDir/SkipAll not honoured: %q", got)
	}
	boom := errors.New("boom")
	if err := Walk(root, Options{}, func(string, fs.DirEntry) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("callback error lost: %v", err)
	}
	if err := Walk(filepath.Join(root, "missing"), Options{}, func(string, fs.DirEntry) error { return nil }); err == nil {
		t.Fatal("walked a missing root")
	}
	if err := Walk(filepath.Join(root, "a.md"), Options{}, func(string, fs.DirEntry) error { return nil }); err == nil {
		t.Fatal("walked a file")
	}
}

func TestWalkRefusesNonUTF8(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs a filesystem admitting non-UTF-8 names")
	}
	root := physTemp(t)
	writeFile(t, filepath.Join(root, "sub", "bad\xff.md"), "x")
	err := Walk(root, Options{}, func(string, fs.DirEntry) error { return nil })
	var nu *NonUTF8Error
	if !errors.As(err, &nu) || nu.Path != "sub/bad\uFFFD.md" || !strings.Contains(err.Error(), "not UTF-8") {
		t.Fatalf("err = %v", err)
	}
	if _, err := ListDir(filepath.Join(root, "sub")); !errors.As(err, &nu) {
		t.Fatalf("ListDir err = %v", err)
	}
}

func TestListDir(t *testing.T) {
	root := buildTree(t)
	entries, err := ListDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if names[0] != ".git" || names[1] != "a.md" {
		t.Fatalf("ListDir order %q", names)
	}
	if _, err := ListDir(filepath.Join(root, "missing")); err == nil {
		t.Fatal("listed a missing dir")
	}
}

// assertion P: the tmp dir ignores itself once; an existing .gitignore is
// the consumer's, and a value naming the cwd gets none.
func TestEnsureTmpDir(t *testing.T) {
	cwd := physTemp(t)
	if err := EnsureTmpDir(".tmp", cwd); err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(filepath.Join(cwd, ".tmp", ".gitignore"))
	if err != nil || string(body) != "*\n" {
		t.Fatalf("fresh .gitignore = %q, %v", body, err)
	}
	mine := filepath.Join(cwd, "mine")
	writeFile(t, filepath.Join(mine, ".gitignore"), "consumer\n")
	if err := EnsureTmpDir("mine", cwd); err != nil {
		t.Fatal(err)
	}
	if body, _ := os.ReadFile(filepath.Join(mine, ".gitignore")); string(body) != "consumer\n" {
		t.Fatalf("existing .gitignore rewritten: %q", body)
	}
	for _, same := range []string{".", "./", cwd, "sub/.."} {
		mkdirs(t, filepath.Join(cwd, "sub"))
		if err := EnsureTmpDir(same, cwd); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(cwd, ".gitignore")); err == nil {
			t.Fatalf("value %q naming the cwd got a .gitignore", same)
		}
	}
	abs := filepath.Join(physTemp(t), "scratch", "deep")
	if err := EnsureTmpDir(abs, cwd); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(abs, ".gitignore")); err != nil {
		t.Fatalf("absolute tmp dir: %v", err)
	}
	if err := EnsureTmpDir("", cwd); err == nil {
		t.Fatal("an empty value was accepted")
	}
	writeFile(t, filepath.Join(cwd, "afile"), "x")
	if err := EnsureTmpDir("afile/x", cwd); err == nil {
		t.Fatal("a tmp dir under a file was accepted")
	}
}

// ByDir answers what its predicate answers for every path of a listing,
// asking once per run of one directory's files.
func TestByDirAsksOncePerDirectory(t *testing.T) {
	ps := NewPruneSet("vendor", "")
	paths := []string{"a", "b", "d/x", "d/y", "d/vendor/z", "d/vendor/zz", "vendor", "vendor/q", "e/f/g", "e/f/h", "x/vendor"}
	asked := 0
	memo := ByDir(func(rel string) bool { asked++; return ps.PathPruned(rel) })
	for _, p := range paths {
		if got, want := memo(p), ps.PathPruned(p); got != want {
			t.Errorf("%s: %v, the prune set says %v", p, got, want)
		}
	}
	if asked != 7 {
		t.Errorf("asked %d times, want once for each of the 7 directory runs", asked)
	}
}
