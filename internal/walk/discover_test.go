//go:build linux

package walk

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/spawn"
)

// gitAnswer is what git itself answers to the question discover answers
// in process, or ok false where git refuses.
func gitAnswer(t *testing.T, anchor string, env []string) (Location, IndexPlace, bool) {
	t.Helper()
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: gitArgs(anchor, "rev-parse", "--show-toplevel", "--show-object-format", "--path-format=absolute", "--git-path", "index", "--git-common-dir", "--show-prefix"), Env: env})
	if err != nil {
		t.Fatal(err)
	}
	out, ok := c.Stdout()
	if !ok {
		return Location{}, IndexPlace{}, false
	}
	lines := strings.SplitN(string(out), "\n", 5)
	if len(lines) != 5 {
		t.Fatalf("git answered %q", out)
	}
	prefix := strings.TrimSuffix(lines[4], "\n")
	return Location{Top: NormalizeAbs(lines[0]), Prefix: prefix}, IndexPlace{File: lines[2], CommonDir: lines[3], Format: lines[1], Prefix: prefix}, true
}

// TestDiscoverAgreesWithGit holds every answer discover gives to git's own
// over layouts it answers and layouts it must leave to git, and checks it
// answers (saves the spawn) where it should.
func TestDiscoverAgreesWithGit(t *testing.T) {
	env := testEnv(t)
	base := physTemp(t)
	plain := filepath.Join(base, "plain repo")
	mkdirs(t, filepath.Join(plain, "sub", "dé ep"), filepath.Join(plain, "nl\ndir"))
	runGit(t, plain, env, "init", "-q", "-b", "main")
	writeFile(t, filepath.Join(plain, "a.txt"), "a\n")
	runGit(t, plain, env, "add", "a.txt")
	runGit(t, plain, env, "commit", "-q", "-m", "one")
	wt := filepath.Join(base, "linked")
	runGit(t, plain, env, "worktree", "add", "-q", "-b", "side", wt)
	mkdirs(t, filepath.Join(wt, "inner"))
	sep := filepath.Join(base, "separate")
	runGit(t, base, env, "init", "-q", "--separate-git-dir", filepath.Join(base, "sep.git"), sep)
	rel := filepath.Join(base, "relgitfile")
	mkdirs(t, rel)
	runGit(t, base, env, "init", "-q", "--bare", filepath.Join(base, "rel.git"))
	writeFile(t, filepath.Join(base, "rel.git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(rel, ".git"), "gitdir: ../rel.git\n")
	runGit(t, base, env, "--git-dir", filepath.Join(base, "rel.git"), "config", "core.bare", "false")
	sha := filepath.Join(base, "sha256")
	if c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"init", "-q", "--object-format=sha256", sha}, Env: env}); err != nil || !c.Succeeded() {
		t.Log("this git cannot make a sha256 repository; that layout is not checked")
		sha = ""
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(filepath.Join(plain, "sub"), link); err != nil {
		t.Fatal(err)
	}
	// Layouts discover must leave to git.
	upstream := filepath.Join(base, "upstream")
	mkdirs(t, upstream)
	runGit(t, upstream, env, "init", "-q")
	runGit(t, upstream, env, "commit", "-q", "--allow-empty", "-m", "one")
	runGit(t, plain, env, "-c", "protocol.file.allow=always", "submodule", "add", "-q", upstream, "mod")
	bare := filepath.Join(base, "bare.git")
	runGit(t, base, env, "init", "-q", "--bare", bare)
	worktreeSet := filepath.Join(base, "worktree-set")
	mkdirs(t, worktreeSet)
	runGit(t, worktreeSet, env, "init", "-q")
	runGit(t, worktreeSet, env, "config", "core.worktree", base)
	included := filepath.Join(base, "included")
	mkdirs(t, included)
	runGit(t, included, env, "init", "-q")
	writeFile(t, filepath.Join(base, "inc.cfg"), "[core]\n\tworktree = /\n")
	runGit(t, included, env, "config", "include.path", filepath.Join(base, "inc.cfg"))
	// An adopted clone: init's include for linked worktrees, which sets
	// only their hooks path, and one linked worktree it applies in.
	adopted := filepath.Join(base, "adopted")
	mkdirs(t, adopted)
	runGit(t, adopted, env, "init", "-q")
	runGit(t, adopted, env, "commit", "-q", "--allow-empty", "-m", "one")
	writeFile(t, filepath.Join(adopted, ".git", "gate-hooks.worktree"), "[core]\n\thooksPath = "+filepath.Join(adopted, ".git", "gate-hooks")+"\n")
	runGit(t, adopted, env, "config", "includeIf.gitdir:**/.git/worktrees/**.path", "gate-hooks.worktree")
	adoptedWT := filepath.Join(base, "adopted-wt")
	runGit(t, adopted, env, "worktree", "add", "-q", "--detach", adoptedWT)
	bareInc := filepath.Join(base, "bare-include")
	mkdirs(t, bareInc)
	runGit(t, bareInc, env, "init", "-q")
	writeFile(t, filepath.Join(bareInc, ".git", "b.cfg"), "[core]\n\tbare = true\n")
	runGit(t, bareInc, env, "config", "includeIf.gitdir:**/.git/worktrees/**.path", "b.cfg")
	emptyMark := filepath.Join(plain, "sub", "empty")
	mkdirs(t, filepath.Join(emptyMark, ".git"))
	badFile := filepath.Join(base, "badgitfile")
	writeFile(t, filepath.Join(badFile, ".git"), "not a gitfile\n")
	none := physTemp(t)
	baseLink := filepath.Join(physTemp(t), "base")
	if err := os.Symlink(base, baseLink); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(plain, ".git", "next-index-4242.lock"), "DIRC")
	with := func(kv ...string) []string { return append(append([]string(nil), env...), kv...) }
	ceil := func(list string) []string { return with("GIT_CEILING_DIRECTORIES=" + list) }

	cases := []struct {
		name, anchor string
		env          []string
		answers      bool // discover must answer here (the saved spawn)
	}{
		{"top", plain, env, true},
		{"subdirectory", filepath.Join(plain, "sub"), env, true},
		{"deep non-ASCII subdirectory", filepath.Join(plain, "sub", "dé ep"), env, true},
		{"newline in the prefix", filepath.Join(plain, "nl\ndir"), env, true},
		{"linked worktree", wt, env, true},
		{"linked worktree subdirectory", filepath.Join(wt, "inner"), env, true},
		{"separate git dir", sep, env, true},
		{"relative gitfile", rel, env, true},
		{"through a symlink", link, env, true},
		{"anchor spelled with ..", filepath.Join(plain, "sub", "dé ep", ".."), env, true},
		{"submodule (its config names the work tree)", filepath.Join(plain, "mod"), env, false},
		{"sha256", sha, env, sha != ""},
		{"bare repository", bare, env, false},
		{"inside .git", filepath.Join(plain, ".git"), env, false},
		{"inside .git/refs", filepath.Join(plain, ".git", "refs"), env, false},
		{"core.worktree", worktreeSet, env, false},
		{"include in config", included, env, false},
		{"an adopted clone's include for linked worktrees", adopted, env, true},
		{"a linked worktree of an adopted clone", adoptedWT, env, true},
		{"an include that could make the repository bare", bareInc, env, false},
		{"empty .git below a repository", emptyMark, env, false},
		{"gitfile without gitdir", badFile, env, false},
		{"no repository", none, env, false},
		{"a transport variable set", plain, with("GIT_SSL_CAINFO=/nonexistent"), true},
		{"replace refs turned off (the landed judge's git)", plain, with("GIT_NO_REPLACE_OBJECTS=1"), true},
		{"GIT_DIR set", plain, with("GIT_DIR=" + filepath.Join(plain, ".git")), false},
		{"GIT_INDEX_FILE absolute", plain, with("GIT_INDEX_FILE=" + filepath.Join(base, "idx")), true},
		{"GIT_INDEX_FILE as a hook sees it", filepath.Join(plain, "sub"), with("GIT_INDEX_FILE=.git/index", "GIT_EXEC_PATH=/usr/lib/git-core", "GIT_PREFIX=sub/", "GIT_EDITOR=:"), true},
		{"GIT_INDEX_FILE relative, from a subdirectory", filepath.Join(plain, "sub", "dé ep"), with("GIT_INDEX_FILE=sub/other-index"), true},
		{"GIT_INDEX_FILE as a partial commit sets it", filepath.Join(plain, "sub"), with("GIT_INDEX_FILE=" + filepath.Join(plain, ".git", "next-index-4242.lock")), true},
		{"GIT_INDEX_FILE as commit -a sets it", plain, with("GIT_INDEX_FILE=" + filepath.Join(plain, ".git", "index.lock")), true},
		{"GIT_INDEX_FILE through a symlinked directory", filepath.Join(plain, "sub"), with("GIT_INDEX_FILE=" + filepath.Join(baseLink, "idx")), true},
		{"GIT_INDEX_FILE in a linked worktree", wt, with("GIT_INDEX_FILE=.git/index"), false},
		{"GIT_INDEX_FILE naming a directory", plain, with("GIT_INDEX_FILE=sub"), false},
		{"GIT_INDEX_FILE empty", plain, with("GIT_INDEX_FILE="), false},
		{"GIT_INDEX_FILE with ..", filepath.Join(plain, "sub"), with("GIT_INDEX_FILE=sub/../.git/index"), false},
		{"GIT_INDEX_FILE in a missing directory", plain, with("GIT_INDEX_FILE=missing/idx"), false},
		{"GIT_INDEX_FILE and GIT_DIR", plain, with("GIT_INDEX_FILE=.git/index", "GIT_DIR="+filepath.Join(plain, ".git")), false},
		{"ceiling at the top, anchor below it", filepath.Join(plain, "sub"), ceil(plain), false},
		{"ceiling between the anchor and its top", filepath.Join(plain, "sub", "dé ep"), ceil(filepath.Join(plain, "sub")), false},
		{"ceiling above the top", filepath.Join(plain, "sub"), ceil(base), true},
		{"ceiling at the anchor itself", plain, ceil(plain), true},
		{"ceiling below the anchor", filepath.Join(plain, "sub"), ceil(filepath.Join(plain, "sub", "dé ep")), true},
		{"ceiling spelled through a symlink", filepath.Join(plain, "sub"), ceil(baseLink + "/"), true},
		{"ceiling list with a relative entry", filepath.Join(plain, "sub"), ceil("relative/dir:" + plain + ":" + base), false},
		{"ceiling list with a relative entry, above the top", filepath.Join(plain, "sub"), ceil("relative/dir:" + base), true},
		{"ceiling list with an empty entry", filepath.Join(plain, "sub"), ceil(":" + base), false},
		{"ceiling naming no directory", filepath.Join(plain, "sub"), ceil(filepath.Join(base, "missing") + ":" + base), false},
		{"ceiling at the root", filepath.Join(plain, "sub"), ceil("/"), true},
		{"anchor missing", filepath.Join(base, "missing"), env, false},
	}
	for _, tc := range cases {
		if tc.anchor == "" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			anchor := tc.anchor
			loc, place, ok := discover(anchor, tc.env)
			if ok != tc.answers {
				t.Fatalf("discover answered %v, want %v (%+v %+v)", ok, tc.answers, loc, place)
			}
			if !ok {
				return
			}
			gl, gp, gok := gitAnswer(t, anchor, tc.env)
			if !gok {
				t.Fatalf("discover answered %+v where git refuses", loc)
			}
			if loc != gl || place != gp {
				t.Fatalf("discover and git differ\n discover %+v %+v\n git      %+v %+v", loc, place, gl, gp)
			}
		})
	}
}

// TestDiscoverSavesTheSpawn: at a plain repository Locate and LocateIndex
// answer with no git on PATH at all; where discover declines, the same
// environment reaches for git and fails to start it.
func TestDiscoverSavesTheSpawn(t *testing.T) {
	env := testEnv(t)
	dir := physTemp(t)
	runGit(t, dir, env, "init", "-q")
	noGit := append(append([]string(nil), env...), "PATH=/nonexistent")
	if loc, ok, err := locate(dir, noGit); err != nil || !ok || loc.Top != NormalizeAbs(dir) {
		t.Fatalf("locate with no git = %+v %v %v", loc, ok, err)
	}
	if place, err := locateIndex(dir, noGit); err != nil || place.File != filepath.Join(dir, ".git", "index") {
		t.Fatalf("locateIndex with no git = %+v %v", place, err)
	}
	withDir := append(append([]string(nil), noGit...), "GIT_DIR="+filepath.Join(dir, ".git"))
	var se *spawn.StartError
	if _, _, err := locate(dir, withDir); !errors.As(err, &se) {
		t.Fatalf("GIT_DIR set, no git: err = %v, want git's start failure", err)
	}
}
