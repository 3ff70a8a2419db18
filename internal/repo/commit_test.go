package repo

import (
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The listing of a commit built from the index and git's list of their
// differences is the commit's tree as `git ls-tree -r` lists it, for a
// commit behind the index (paths it lacks, paths it changes, paths only
// it holds), the commit the index holds, and a root commit of another
// history; an intent-to-add entry sends the read to ls-tree.
func TestCommitSnapshotIsTheTree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.invalid"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(rel, body string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write("a.txt", "a\n", 0o644)
	write("d/b.txt", "b\n", 0o644)
	write("d/gone.txt", "gone\n", 0o644)
	write("run.sh", "echo\n", 0o755)
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	first := git("rev-parse", "HEAD")
	write("d/b.txt", "b2\n", 0o644)
	write("d.txt", "sorts between\n", 0o644)
	write("d/new/c.txt", "c\n", 0o644)
	if err := os.Remove(filepath.Join(dir, "d/gone.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "two")
	second := git("rev-parse", "HEAD")
	git("checkout", "-q", "--orphan", "other")
	git("rm", "-q", "-r", "--cached", ".")
	write("z/only.txt", "z\n", 0o644)
	git("add", "z/only.txt")
	git("commit", "-q", "-m", "root")
	root := git("rev-parse", "HEAD")
	git("checkout", "-q", "-f", "main")
	listing := func(rev string) []Entry {
		t.Helper()
		es, err := parseLsTree([]byte(git("ls-tree", "-r", "-z", "--full-tree", rev)))
		if err != nil {
			t.Fatal(err)
		}
		return es
	}
	same := func(what string, s *Snapshot, want []Entry) {
		t.Helper()
		var got []string
		for _, p := range s.Files() {
			mode, id, _ := s.ModeAndBlob(p)
			got = append(got, p+" "+id+" "+strconv.FormatUint(uint64(mode), 8))
		}
		var w []string
		for _, e := range want {
			w = append(w, e.Path+" "+e.Hash+" "+strconv.FormatUint(uint64(e.Mode), 8))
		}
		if !slices.Equal(got, w) {
			t.Errorf("%s: listed\n%s\nls-tree lists\n%s", what, strings.Join(got, "\n"), strings.Join(w, "\n"))
		}
	}
	for _, rev := range []string{first, second, root} {
		if _, _, ok := (Git{}).entriesFromIndex(dir, rev); !ok {
			t.Errorf("%s: not read from the index", rev)
		}
		s, err := Git{}.CommitSnapshot(dir, "", rev)
		if err != nil {
			t.Fatal(err)
		}
		same(rev, s, listing(rev))
	}
	write("later.txt", "later\n", 0o644)
	git("add", "-N", "later.txt")
	if _, _, ok := (Git{}).entriesFromIndex(dir, first); ok {
		t.Errorf("an intent-to-add entry was read from the index")
	}
	s, err := Git{}.CommitSnapshot(dir, "", first)
	if err != nil {
		t.Fatal(err)
	}
	same("with an intent-to-add entry", s, listing(first))
}

// assertion M (commit-audit): a commit whose tree is the index's
// cache-tree root is the index's listing with no git asked (the commit
// read in process); an index changed since, or a repository holding a
// replace ref, is not taken so.
func TestCommitTreeFromTheCacheTree(t *testing.T) {
	fx := newFixture(t)
	top := fx.top
	g := Git{Env: fx.env}
	head := strings.TrimSpace(runGit(t, top, fx.env, "rev-parse", "HEAD"))
	tree := strings.TrimSpace(runGit(t, top, fx.env, "rev-parse", "HEAD^{tree}"))
	src, err := g.LocateIndex(top)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := g.readIndex(top, src)
	if err != nil {
		t.Fatal(err)
	}
	if idx.Tree != tree {
		t.Fatalf("the cache-tree root read %q, the commit's tree is %s", idx.Tree, tree)
	}
	if got, ok := commitTreeOf(src, head); !ok || got != tree {
		t.Fatalf("the commit read in process: %q %v, want %s", got, ok, tree)
	}
	// No git on the path: the listing still comes from the index.
	noGit := Git{Env: append(append([]string(nil), fx.env...), "PATH="+t.TempDir())}
	if entries, _, ok := noGit.entriesFromIndex(top, head); !ok || len(entries) != len(idx.Entries) {
		t.Fatalf("the commit the cache-tree records asked git: ok %v, %d entries", ok, len(entries))
	}
	// The tree's id is the snapshot's digest: no hash over the listing.
	snap, err := noGit.CommitSnapshot(top, "", head)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := snap.TreeDigest(); !ok || d != "tree "+tree {
		t.Fatalf("the commit snapshot's digest is %q, want the tree's id", d)
	}
	// A replace ref: left to git.
	runGit(t, top, fx.env, "replace", head, head+"^{commit}")
	if _, ok := commitTreeOf(src, head); ok {
		t.Fatal("a repository holding a replace ref was read in process")
	}
	runGit(t, top, fx.env, "replace", "-d", head)
	// The index changed: its root no longer names the commit's tree.
	writeFile(t, filepath.Join(top, "more.txt"), "more\n", 0o644)
	runGit(t, top, fx.env, "add", "more.txt")
	if idx, err = g.readIndex(top, src); err != nil {
		t.Fatal(err)
	}
	if idx.Tree == tree {
		t.Fatal("the cache-tree root still names the commit's tree after a change was staged")
	}
	if _, _, ok := noGit.entriesFromIndex(top, head); ok {
		t.Fatal("an index that differs from the commit was taken for its listing without git")
	}
	// Listed with git's help, the snapshot digests its listing.
	if snap, err = g.CommitSnapshot(top, "", head); err != nil {
		t.Fatal(err)
	}
	if d, ok := snap.TreeDigest(); !ok || !strings.HasPrefix(d, "listing ") {
		t.Fatalf("a commit listed through git digests as %q", d)
	}
}

func TestCacheTreeRoot(t *testing.T) {
	id := strings.Repeat("ab", 20)
	raw := string([]byte{0}) + "3 1\n" + string(mustHex(t, id))
	for _, c := range []struct{ ext, want string }{
		{raw, id},
		{string([]byte{0}) + "-1 1\n", ""},
		{"d" + raw, ""},
		{string([]byte{0}) + "3 1\n" + "short", ""},
		{string([]byte{0}) + "x 1\n" + string(mustHex(t, id)), ""},
		{"", ""},
	} {
		if got := cacheTreeRoot([]byte(c.ext), 20); got != c.want {
			t.Errorf("cacheTreeRoot(%q) = %q, want %q", c.ext, got, c.want)
		}
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// CommitChanges lists a root commit's every path as added, and a commit's
// changes against its parent, a rename as its two sides.
func TestCommitChanges(t *testing.T) {
	root := physTemp(t)
	top := filepath.Join(root, "repo")
	env := testEnv(filepath.Join(root, "home"))
	writeFile(t, filepath.Join(top, "a.txt"), "a\n", 0o644)
	writeFile(t, filepath.Join(top, "b.txt"), "b\n", 0o644)
	writeFile(t, filepath.Join(top, "d/c.sh"), "c\n", 0o644)
	runGit(t, top, env, "init", "-q", "-b", "main")
	runGit(t, top, env, "add", "-A")
	runGit(t, top, env, "commit", "-q", "-m", "one")
	first := strings.TrimSpace(runGit(t, top, env, "rev-parse", "HEAD"))
	writeFile(t, filepath.Join(top, "a.txt"), "a, changed\n", 0o644)
	runGit(t, top, env, "mv", "b.txt", "moved.txt")
	if err := os.Chmod(filepath.Join(top, "d", "c.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, top, env, "add", "-A")
	runGit(t, top, env, "commit", "-q", "-m", "two")
	second := strings.TrimSpace(runGit(t, top, env, "rev-parse", "HEAD"))
	g := Git{Env: env}
	got, err := g.CommitChanges(top, "", first)
	want := []Change{{Path: "a.txt", Status: 'A', NewMode: 0o100644}, {Path: "b.txt", Status: 'A', NewMode: 0o100644}, {Path: "d/c.sh", Status: 'A', NewMode: 0o100644}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("root commit: %+v %v, want %+v", got, err, want)
	}
	got, err = g.CommitChanges(top, first, second)
	want = []Change{
		{Path: "a.txt", Status: 'M', OldMode: 0o100644, NewMode: 0o100644},
		{Path: "b.txt", Status: 'D', OldMode: 0o100644},
		{Path: "d/c.sh", Status: 'M', OldMode: 0o100644, NewMode: 0o100755},
		{Path: "moved.txt", Status: 'A', NewMode: 0o100644},
	}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("second commit: %+v %v, want %+v", got, err, want)
	}
	if got, err := g.CommitChanges(top, first, "no-such-rev"); err == nil {
		t.Errorf("an unknown commit: %+v", got)
	}
	// A tree read through ls-tree, the common dir given: the commit's own
	// paths and modes, whatever the index holds.
	common := filepath.ToSlash(filepath.Join(top, ".git"))
	runGit(t, top, env, "rm", "-q", "a.txt")
	s, err := g.CommitSnapshot(top, common, first)
	if err != nil {
		t.Fatal(err)
	}
	if files := strings.Join(s.Files(), " "); files != "a.txt b.txt d/c.sh" {
		t.Errorf("the first commit's files: %s", files)
	}
	if data, err := s.Read("a.txt"); err != nil || string(data) != "a\n" {
		t.Errorf("a.txt: %q %v", data, err)
	}
	if _, err := g.CommitSnapshot(top, common, "no-such-rev"); err == nil {
		t.Error("an unknown commit answered a snapshot")
	}
}

// A commit's snapshot through ls-tree: in a bare repository, which has
// no index to locate, the common dir the caller gives names the store;
// and an empty tree, read past an intent-to-add entry, is a snapshot of
// nothing.
func TestCommitSnapshotThroughLsTree(t *testing.T) {
	root, top, env, rev := oneCommitRepo(t)
	bare := bareClone(t, root, top, env)
	g := Git{Env: env}
	s, err := g.CommitSnapshot(bare, filepath.ToSlash(bare), rev)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := s.Read("a.txt"); err != nil || string(data) != "a\n" || strings.Join(s.Files(), " ") != "a.txt" {
		t.Errorf("the bare repository's commit: %q %v %q", data, err, s.Files())
	}
	empty := filepath.Join(root, "empty")
	runGit(t, root, env, "init", "-q", "-b", "main", empty)
	runGit(t, empty, env, "commit", "-q", "--allow-empty", "-m", "nothing")
	writeFile(t, filepath.Join(empty, "n.txt"), "n\n", 0o644)
	runGit(t, empty, env, "add", "-N", "n.txt")
	s, err = g.CommitSnapshot(empty, filepath.ToSlash(filepath.Join(empty, ".git")), "HEAD")
	if err != nil || s.Len() != 0 {
		t.Errorf("an empty tree: %v %v", s, err)
	}
}
