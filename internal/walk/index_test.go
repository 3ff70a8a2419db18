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

// assertion W: the one spawn answers Locate's answer and LocateIndex's
// place wherever both answer; elsewhere Locate's own answer and no place.
func TestLocateBothAnswersLocateAndLocateIndex(t *testing.T) {
	root := physTemp(t)
	top := filepath.Join(root, "repo")
	mkdirs(t, filepath.Join(top, "sub"))
	env := testEnv(t)
	runGit(t, top, env, "init", "-q")
	runGit(t, top, env, "commit", "-q", "--allow-empty", "-m", "i")
	wt := filepath.Join(root, "wt")
	runGit(t, top, env, "worktree", "add", "-q", wt)
	for _, c := range []struct {
		anchor string
		env    []string
	}{
		{top, env},
		{filepath.Join(top, "sub"), env},
		{wt, env},
		{top, append(append([]string{}, env...), "GIT_INDEX_FILE="+filepath.Join(root, "other"))},
	} {
		loc, ok, err, place := locateBoth(c.anchor, c.env)
		wantLoc, wantOK, wantErr := locate(c.anchor, c.env)
		if loc != wantLoc || ok != wantOK || (err == nil) != (wantErr == nil) {
			t.Fatalf("%s: locateBoth = %+v %v %v, locate = %+v %v %v", c.anchor, loc, ok, err, wantLoc, wantOK, wantErr)
		}
		wantPlace, err := locateIndex(c.anchor, c.env)
		if err != nil {
			t.Fatal(err)
		}
		if place == nil || *place != wantPlace {
			t.Fatalf("%s: place %+v, LocateIndex %+v", c.anchor, place, wantPlace)
		}
	}
	outside := append(append([]string{}, env...), "GIT_CEILING_DIRECTORIES="+filepath.Dir(root))
	loc, ok, err, place := locateBoth(root, outside)
	if ok || err != nil || place != nil || loc != (Location{}) {
		t.Fatalf("outside a repository: %+v %v %v %+v", loc, ok, err, place)
	}
	runGit(t, top, env, "init", "-q", "--bare", filepath.Join(root, "bare.git"))
	gitDirEnv := append(append([]string{}, env...), "GIT_DIR="+filepath.Join(root, "bare.git"))
	_, ok, err, place = locateBoth(root, gitDirEnv)
	_, wantOK, wantErr := locate(root, gitDirEnv)
	if ok != wantOK || (err == nil) != (wantErr == nil) || place != nil {
		t.Fatalf("bare GIT_DIR: %v %v %+v, locate %v %v", ok, err, place, wantOK, wantErr)
	}
}
