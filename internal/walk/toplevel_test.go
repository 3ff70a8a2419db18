package walk

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/spawn"
)

func skipUnlessPOSIX(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("POSIX layout")
	}
}

// sandbox is a temp dir git will not ascend out of.
func sandbox(t *testing.T) (dir string, env []string) {
	t.Helper()
	dir = physTemp(t)
	return dir, testEnv(t, "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
}

// assertion F: one spawn answers toplevel and prefix; H: absent is no
// error; K: Toplevel folds absent into "not a git repository".
func TestLocateAnswers(t *testing.T) {
	skipUnlessPOSIX(t)
	root, env := sandbox(t)
	repo := filepath.Join(root, "repo")
	mkdirs(t, filepath.Join(repo, "a", "b"), filepath.Join(repo, "a\nnl", "x"))
	runGit(t, repo, env, "init", "-q")

	t.Run("toplevel", func(t *testing.T) {
		loc, ok, err := Locate(repo, env)
		if err != nil || !ok || loc.Top != NormalizeAbs(repo) || loc.Prefix != "" {
			t.Fatalf("Locate = %+v, %v, %v", loc, ok, err)
		}
		top, err := Toplevel(filepath.Join(repo, "a", "b"), env)
		if err != nil || top != NormalizeAbs(repo) {
			t.Fatalf("Toplevel = %q, %v", top, err)
		}
	})
	t.Run("prefix", func(t *testing.T) {
		loc, ok, err := Locate(filepath.Join(repo, "a", "b"), env)
		if err != nil || !ok || loc.Prefix != "a/b/" {
			t.Fatalf("Locate = %+v, %v, %v", loc, ok, err)
		}
	})
	t.Run("newline in prefix survives", func(t *testing.T) {
		loc, ok, err := Locate(filepath.Join(repo, "a\nnl", "x"), env)
		if err != nil || !ok || loc.Prefix != "a\nnl/x/" || loc.Top != NormalizeAbs(repo) {
			t.Fatalf("Locate = %+v, %v, %v", loc, ok, err)
		}
	})
	t.Run("absent", func(t *testing.T) {
		plain := filepath.Join(root, "plain")
		mkdirs(t, plain)
		top, ok, err := ToplevelOpt(plain, env)
		if err != nil || ok || top != "" {
			t.Fatalf("ToplevelOpt = %q, %v, %v; want absent", top, ok, err)
		}
		_, err = Toplevel(plain, env)
		var nr *NotRepoError
		if !errors.As(err, &nr) || !strings.Contains(err.Error(), "not a git repository") {
			t.Fatalf("Toplevel folded absent into %v", err)
		}
	})
	t.Run("non-directory anchor is never marked", func(t *testing.T) {
		f := filepath.Join(repo, "a", "file")
		writeFile(t, f, "x")
		_, ok, err := ToplevelOpt(f, env)
		if err != nil || ok {
			t.Fatalf("file anchor: ok=%v err=%v; want absent", ok, err)
		}
	})
}

// assertion G: a dead git is the spawn's own error, not absent.
func TestLocateDeadGit(t *testing.T) {
	skipUnlessPOSIX(t)
	root, env := sandbox(t)
	env = append(env, "PATH=/nonexistent")
	_, ok, err := ToplevelOpt(root, env)
	var se *spawn.StartError
	if ok || !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "could not run git: ") {
		t.Fatalf("dead git: ok=%v err=%v", ok, err)
	}
}

// assertion I: non-zero at a marked anchor is refused, naming the mark and
// git -C <anchor> status.
func TestLocateRefused(t *testing.T) {
	skipUnlessPOSIX(t)
	root, env := sandbox(t)
	broken := filepath.Join(root, "broken")
	mkdirs(t, filepath.Join(broken, ".git"), filepath.Join(broken, "sub"))

	for _, anchor := range []string{broken, filepath.Join(broken, "sub")} {
		_, ok, err := ToplevelOpt(anchor, env)
		var re *RefusedError
		if ok || !errors.As(err, &re) || re.Skipped {
			t.Fatalf("anchor %s: ok=%v err=%v; want a refusal", anchor, ok, err)
		}
		wantMark := NormalizeAbs(filepath.Join(broken, ".git"))
		if re.Mark != wantMark || !strings.Contains(err.Error(), wantMark) || !strings.Contains(err.Error(), "git -C "+anchor+" status") {
			t.Fatalf("refusal text %q", err)
		}
	}

	t.Run("gitfile mark", func(t *testing.T) {
		gf := filepath.Join(root, "gitfile")
		writeFile(t, filepath.Join(gf, ".git"), "gitdir: /nonexistent/dir\n")
		_, _, err := ToplevelOpt(gf, env)
		var re *RefusedError
		if !errors.As(err, &re) {
			t.Fatalf("gitfile to nowhere: %v", err)
		}
	})
	t.Run("GIT_DIR marks", func(t *testing.T) {
		plain := filepath.Join(root, "plain")
		mkdirs(t, plain)
		_, _, err := ToplevelOpt(plain, append(env, "GIT_DIR=/nonexistent/git"))
		var re *RefusedError
		if !errors.As(err, &re) || re.Mark != "/nonexistent/git" {
			t.Fatalf("GIT_DIR: %v", err)
		}
	})
	t.Run("ceiling stops the ascent", func(t *testing.T) {
		anchor := filepath.Join(broken, "sub")
		_, ok, err := ToplevelOpt(anchor, append(env, "GIT_CEILING_DIRECTORIES="+broken))
		if ok || err != nil {
			t.Fatalf("ceiling at the mark's dir: ok=%v err=%v; want absent", ok, err)
		}
		// A relative ceiling entry is ignored, by git and by the mark.
		_, _, err = ToplevelOpt(anchor, append(env, "GIT_CEILING_DIRECTORIES=broken:"+filepath.Dir(root)))
		var re *RefusedError
		if !errors.As(err, &re) {
			t.Fatalf("relative ceiling honoured: %v", err)
		}
	})
	t.Run("anchor resolved physically", func(t *testing.T) {
		deep := filepath.Join(broken, "sub", "deeper")
		mkdirs(t, deep)
		links := filepath.Join(root, "links")
		mkdirs(t, links)
		link := filepath.Join(links, "l")
		if err := os.Symlink(deep, link); err != nil {
			t.Fatal(err)
		}
		// <symlink>/.. is broken/sub physically, links/ lexically.
		_, _, err := ToplevelOpt(link+"/..", env)
		var re *RefusedError
		if !errors.As(err, &re) || re.Mark != NormalizeAbs(filepath.Join(broken, ".git")) {
			t.Fatalf("symlink/.. anchor: %v", err)
		}
	})
}

// assertion J: exit 0 whose prefix crosses a .git entry is a skipped
// nested repository, named with git --git-dir=<mark> status; the
// repository git selected is no skip.
func TestLocateSkippedNested(t *testing.T) {
	skipUnlessPOSIX(t)
	root, env := sandbox(t)
	repo := filepath.Join(root, "repo")
	nested := filepath.Join(repo, "vendor", "nested")
	mkdirs(t, filepath.Join(nested, ".git"), filepath.Join(nested, "deep"))
	runGit(t, repo, env, "init", "-q")

	for _, anchor := range []string{nested, filepath.Join(nested, "deep")} {
		_, ok, err := ToplevelOpt(anchor, env)
		var re *RefusedError
		if ok || !errors.As(err, &re) || !re.Skipped {
			t.Fatalf("anchor %s: ok=%v err=%v; want a skip refusal", anchor, ok, err)
		}
		mark := NormalizeAbs(filepath.Join(nested, ".git"))
		if re.Mark != mark || re.Top != NormalizeAbs(repo) || !strings.Contains(err.Error(), "git --git-dir="+mark+" status") {
			t.Fatalf("skip text %q", err)
		}
	}

	t.Run("GIT_DIR set: no skip counts", func(t *testing.T) {
		e := append(append([]string(nil), env...), "GIT_DIR="+filepath.Join(repo, ".git"), "GIT_WORK_TREE="+repo)
		top, ok, err := ToplevelOpt(nested, e)
		if err != nil || !ok || top != NormalizeAbs(repo) {
			t.Fatalf("ToplevelOpt = %q, %v, %v", top, ok, err)
		}
	})

	t.Run("GIT_WORK_TREE above the selected repository", func(t *testing.T) {
		w := filepath.Join(root, "wt")
		inner := filepath.Join(w, "inner")
		mkdirs(t, inner)
		runGit(t, inner, env, "init", "-q")
		e := append(append([]string(nil), env...), "GIT_WORK_TREE="+w)
		loc, ok, err := Locate(inner, e)
		if err != nil || !ok || loc.Top != NormalizeAbs(w) || loc.Prefix != "inner/" {
			t.Fatalf("Locate = %+v, %v, %v", loc, ok, err)
		}
		// The same through a gitfile whose line carries a CR.
		w2 := filepath.Join(root, "wt2")
		inner2 := filepath.Join(w2, "inner")
		store := filepath.Join(root, "store.git")
		mkdirs(t, inner2)
		runGit(t, inner2, env, "init", "-q", "--separate-git-dir="+store)
		writeFile(t, filepath.Join(inner2, ".git"), "gitdir: "+store+"\r\n")
		e2 := append(append([]string(nil), env...), "GIT_WORK_TREE="+w2)
		if _, ok, err := Locate(inner2, e2); err != nil || !ok {
			t.Fatalf("gitfile selected repo: ok=%v err=%v", ok, err)
		}
		// A broken repository nearer the anchor than the selected one is
		// still a skip.
		deeper := filepath.Join(inner, "sub")
		mkdirs(t, filepath.Join(deeper, ".git"))
		_, _, err = Locate(deeper, e)
		var re *RefusedError
		if !errors.As(err, &re) || !re.Skipped || re.Mark != NormalizeAbs(filepath.Join(deeper, ".git")) {
			t.Fatalf("nearer broken repo under GIT_WORK_TREE: %v", err)
		}
	})
}

func TestReadGitfile(t *testing.T) {
	dir := physTemp(t)
	cases := map[string]string{
		"gitdir: /a/b\n":      "/a/b",
		"gitdir: /a/b\r\n":    "/a/b",
		"gitdir: /a/b \n":     "/a/b ",
		"gitdir:/a\nsecond\n": "/a",
		"gitdir: rel/dir":     "rel/dir",
	}
	for body, want := range cases {
		p := filepath.Join(dir, "g")
		writeFile(t, p, body)
		got, err := readGitfile(p)
		if err != nil || got != want {
			t.Errorf("readGitfile(%q) = %q, %v; want %q", body, got, err, want)
		}
	}
	writeFile(t, filepath.Join(dir, "bad"), "nope\n")
	if _, err := readGitfile(filepath.Join(dir, "bad")); err == nil {
		t.Error("a file without gitdir: read as a gitfile")
	}
}

// assertion L: capture writes from a linked worktree land in the main
// checkout.
func TestMainCheckoutAndCapturePath(t *testing.T) {
	skipUnlessPOSIX(t)
	root, env := sandbox(t)
	main := filepath.Join(root, "main")
	mkdirs(t, main)
	runGit(t, main, env, "init", "-q")
	runGit(t, main, env, "commit", "-q", "--allow-empty", "-m", "init")
	wt := filepath.Join(root, "linked")
	runGit(t, main, env, "worktree", "add", "-q", wt)

	if got, ok := MainCheckoutRoot(wt, env); !ok || got != NormalizeAbs(main) {
		t.Fatalf("MainCheckoutRoot(linked) = %q, %v", got, ok)
	}
	if _, ok := MainCheckoutRoot(main, env); ok {
		t.Fatal("the main checkout answered a main checkout")
	}
	if _, ok := MainCheckoutRoot(filepath.Join(root, "nowhere"), env); ok {
		t.Fatal("a missing dir answered a main checkout")
	}
	wtTop := NormalizeAbs(wt)
	if got := CapturePath(".workflow/x.log", wtTop, env); got != NormalizeAbs(main)+"/.workflow/x.log" {
		t.Errorf("capture from a worktree = %q", got)
	}
	if got := CapturePath("/abs/x.log", wtTop, env); got != "/abs/x.log" {
		t.Errorf("absolute capture = %q", got)
	}
	if got := CapturePath("x.log", NormalizeAbs(main), env); got != NormalizeAbs(main)+"/x.log" {
		t.Errorf("capture from the main checkout = %q", got)
	}
}

func TestCwdAndCanonicalize(t *testing.T) {
	cwd, err := Cwd()
	if err != nil || !PathRoot(cwd) || cwd != NormalizeAbs(cwd) {
		t.Fatalf("Cwd = %q, %v", cwd, err)
	}
	skipUnlessPOSIX(t)
	dir := physTemp(t)
	mkdirs(t, filepath.Join(dir, "a", "b"))
	if err := os.Symlink(filepath.Join(dir, "a", "b"), filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	got, err := Canonicalize(filepath.Join(dir, "l") + "/..")
	if err != nil || got != filepath.Join(dir, "a") {
		t.Fatalf("Canonicalize(l/..) = %q, %v", got, err)
	}
	if _, err := Canonicalize(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("canonicalized a missing path")
	}
}

func TestGitDirs(t *testing.T) {
	skipUnlessPOSIX(t)
	root, env := sandbox(t)
	main := filepath.Join(root, "main")
	mkdirs(t, filepath.Join(main, "sub"))
	runGit(t, main, env, "init", "-q")
	runGit(t, main, env, "commit", "-q", "--allow-empty", "-m", "init")
	wt := filepath.Join(root, "linked")
	runGit(t, main, env, "worktree", "add", "-q", wt)
	gd, common, err := GitDirs(filepath.Join(main, "sub"), env)
	want := NormalizeAbs(filepath.Join(main, ".git"))
	if err != nil || gd != want || common != want {
		t.Fatalf("GitDirs(main/sub) = %q %q %v", gd, common, err)
	}
	gd, common, err = GitDirs(wt, env)
	if err != nil || common != want || gd != want+"/worktrees/linked" {
		t.Fatalf("GitDirs(linked) = %q %q %v", gd, common, err)
	}
	plain := filepath.Join(root, "plain")
	mkdirs(t, plain)
	if _, _, err := GitDirs(plain, env); err == nil || !strings.Contains(err.Error(), "could not answer") {
		t.Fatalf("GitDirs outside a repository: %v", err)
	}
}
