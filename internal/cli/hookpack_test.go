package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// packRepo is a small repository for the pack scan: a few commits, and a
// hook reader over it.
func packRepo(t *testing.T) (*landedRepo, func() hookRepo) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l := &landedRepo{t: t, dir: filepath.Join(root, "repo"), root: root}
	if err := os.MkdirAll(l.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	l.git(l.dir, "init", "-q", "-b", "main")
	for i := 0; i < 3; i++ {
		l.write("a.md", strings.Repeat("a\n", i+1))
		l.commit("docs: one more")
	}
	return l, func() hookRepo {
		s := newSession(IO{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Env: l.env(l.dir)})
		t.Cleanup(s.close)
		return newHookRepo(s, l.dir)
	}
}

// mark answers a time after everything written so far (the command's
// start), a second boundary passed so the reflog's whole seconds tell
// before from after; it is a file's time, as the hook's record is (the
// file system's clock runs a little behind time.Now).
func mark(t *testing.T) time.Time {
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(1100 * time.Millisecond)))
	p := filepath.Join(t.TempDir(), "stamp")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	return fi.ModTime()
}

func gitIn(t *testing.T, dir string, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.invalid"}, args...)...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// assertion P (commit-audit): a commit written into a pack after the
// command began and reached by no tip is made; one a gc, a repack or a
// fetch moved into a pack that a tip or an older reflog entry reaches is
// not; a new pack that does not read is an error, not "nothing".
func TestMadeSinceReadsNewPacks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Parallel()
	t.Run("fast-import", func(t *testing.T) {
		l, open := packRepo(t)
		since := mark(t)
		stream := "commit refs/heads/fi\ncommitter t <t@example.invalid> 1700000000 +0000\ndata 11\ndocs: fast\nfrom refs/heads/main\nM 644 inline b.md\ndata 4\nleak\n\n"
		gitIn(t, l.dir, stream, "-c", "fastimport.unpackLimit=1", "fast-import", "--quiet")
		id := l.git(l.dir, "rev-parse", "refs/heads/fi")
		l.git(l.dir, "update-ref", "-d", "refs/heads/fi")
		got, err := open().MadeSince(since)
		if err != nil || !slices.Equal(got, []string{id}) {
			t.Fatalf("MadeSince = %v, %v; want [%s]", got, err, id)
		}
	})
	t.Run("repack of a commit then left on no ref", func(t *testing.T) {
		l, open := packRepo(t)
		since := mark(t)
		id := l.git(l.dir, "commit-tree", "-p", "HEAD", "-m", "docs: packed", "HEAD^{tree}")
		l.git(l.dir, "update-ref", "refs/heads/t", id)
		l.git(l.dir, "repack", "-adq")
		l.git(l.dir, "update-ref", "-d", "refs/heads/t")
		if _, err := os.Stat(filepath.Join(l.dir, ".git", "objects", id[:2], id[2:])); err == nil {
			t.Fatal("the commit is still loose")
		}
		got, err := open().MadeSince(since)
		if err != nil || !slices.Equal(got, []string{id}) {
			t.Fatalf("MadeSince = %v, %v; want [%s]", got, err, id)
		}
	})
	t.Run("gc of old work on the reflog only", func(t *testing.T) {
		l, open := packRepo(t)
		l.write("b.md", "b\n")
		l.commit("docs: undone")
		l.git(l.dir, "reset", "-q", "--hard", "HEAD^")
		since := mark(t)
		l.git(l.dir, "gc", "-q")
		l.git(l.dir, "repack", "-adq")
		got, err := open().MadeSince(since)
		if err != nil || len(got) != 0 {
			t.Fatalf("MadeSince = %v, %v; want none", got, err)
		}
	})
	t.Run("a fetched pack", func(t *testing.T) {
		l, open := packRepo(t)
		up := filepath.Join(l.root, "up")
		l.git(l.root, "clone", "-q", l.dir, up)
		for i := 0; i < 3; i++ {
			gitIn(t, up, "", "commit", "-q", "--allow-empty", "-m", "docs: theirs")
		}
		l.git(l.dir, "remote", "add", "up", up)
		since := mark(t)
		l.git(l.dir, "-c", "fetch.unpackLimit=1", "fetch", "-q", "up")
		packs, _ := filepath.Glob(filepath.Join(l.dir, ".git", "objects", "pack", "*.idx"))
		if len(packs) == 0 {
			t.Fatal("the fetch wrote no pack")
		}
		got, err := open().MadeSince(since)
		if err != nil || len(got) != 0 {
			t.Fatalf("MadeSince = %v, %v; want none", got, err)
		}
	})
	t.Run("a new pack that does not read", func(t *testing.T) {
		l, open := packRepo(t)
		since := mark(t)
		bad := filepath.Join(l.dir, ".git", "objects", "pack", "pack-"+strings.Repeat("0", 40))
		if err := os.WriteFile(bad+".idx", []byte("not an index"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bad+".pack", []byte("PACK"), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := open().MadeSince(since)
		if err == nil || !strings.Contains(err.Error(), "pack-") {
			t.Fatalf("MadeSince = %v, %v; want an error naming the pack", got, err)
		}
	})
}

// TestMadeSinceLeavesAStashOut: the commits a stash writes (its work
// tree, index and untracked-files commits) are not made work, read in
// process from the loose objects; a commit made beside them is. The
// answer is git's own reading of the same subjects and parents.
func TestMadeSinceLeavesAStashOut(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Parallel()
	l, open := packRepo(t)
	since := mark(t)
	l.write("a.md", "changed\n")
	l.write("new.md", "untracked\n")
	gitIn(t, l.dir, "", "stash", "push", "-u", "-q", "-m", "keep this")
	l.write("b.md", "b\n")
	l.commit("docs: b")
	head := gitIn(t, l.dir, "", "rev-parse", "HEAD")
	got, err := open().MadeSince(since)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{head}) {
		stash := gitIn(t, l.dir, "", "log", "--no-walk", "--format=%H %P %s", "refs/stash")
		t.Errorf("made since the mark: %v, want only %s (the stash: %s)", got, head, stash)
	}
	m, ok := looseCommitMeta(filepath.Join(l.dir, ".git", "objects", head[:2], head[2:]))
	want := strings.Fields(gitIn(t, l.dir, "", "log", "--no-walk", "--format=%P", head))
	if !ok || m.subject != "docs: b" || !slices.Equal(m.parents, want) {
		t.Errorf("looseCommitMeta(HEAD) = %+v, %v; want parents %v and subject %q", m, ok, want, "docs: b")
	}
}
