package walk

import (
	"path/filepath"
	"testing"
)

// assertion R: the index git reads at a directory, in one spawn.
func TestLocateIndex(t *testing.T) {
	root := physTemp(t)
	top := filepath.Join(root, "repo")
	mkdirs(t, filepath.Join(top, "sub"))
	env := testEnv(t)
	runGit(t, top, env, "init", "-q")
	runGit(t, top, env, "commit", "-q", "--allow-empty", "-m", "i")
	got, err := LocateIndex(filepath.Join(top, "sub"), env)
	if err != nil {
		t.Fatal(err)
	}
	want := IndexPlace{File: filepath.Join(top, ".git/index"), CommonDir: filepath.Join(top, ".git"), Format: "sha1", Prefix: "sub/"}
	if got != want {
		t.Fatalf("LocateIndex = %+v, want %+v", got, want)
	}
	wt := filepath.Join(root, "wt")
	runGit(t, top, env, "worktree", "add", "-q", wt)
	got, err = LocateIndex(wt, env)
	if err != nil {
		t.Fatal(err)
	}
	if got.File != filepath.Join(top, ".git/worktrees/wt/index") || got.CommonDir != filepath.Join(top, ".git") || got.Prefix != "" {
		t.Fatalf("linked worktree: %+v", got)
	}
	got, err = LocateIndex(top, append(env, "GIT_INDEX_FILE="+filepath.Join(root, "other")))
	if err != nil || got.File != filepath.Join(root, "other") {
		t.Fatalf("GIT_INDEX_FILE: %+v %v", got, err)
	}
	if _, err := LocateIndex(root, append(env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(root))); err == nil {
		t.Fatal("outside a repository answered")
	}
}
