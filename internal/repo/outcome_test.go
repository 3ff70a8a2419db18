package repo

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Issue 42 item 17: a recorded tip whose object is gone (a deleted branch,
// its commit pruned) excludes nothing that is still reachable, so it never
// turns the outcome judge's listing into a failure that holds every Stop.
func TestCommitsSkipsAnExcludedObjectThatIsGone(t *testing.T) {
	_, top, env, first := oneCommitRepo(t)
	runGit(t, top, env, "commit", "-q", "--allow-empty", "-m", "two")
	second := strings.TrimSpace(runGit(t, top, env, "rev-parse", "HEAD"))
	gone := strings.Repeat("1", len(first))
	ids, more, err := Git{Env: env}.Commits(top, []string{second}, []string{gone, first}, 0, 10)
	if err != nil || more || len(ids) != 1 || ids[0] != second {
		t.Fatalf("Commits over a gone exclude: %v %v %v; want [%s]", ids, more, err, second)
	}
	// A gone include is still an error: what it names cannot be listed.
	if _, _, err := (Git{Env: env}).Commits(top, []string{gone}, nil, 0, 10); err == nil {
		t.Fatal("a gone include listed nothing in silence")
	}
}

// HooksPath answers git's own resolution, absolute; Tips lists HEAD
// first and nothing in an empty repository; Run feeds stdin when given.
func TestHooksPathTipsAndRun(t *testing.T) {
	root := physTemp(t)
	top := filepath.Join(root, "repo")
	env := testEnv(filepath.Join(root, "home"))
	writeFile(t, filepath.Join(top, "a.txt"), "a\n", 0o644)
	runGit(t, top, env, "init", "-q", "-b", "main")
	g := Git{Env: env}
	if tips, err := g.Tips(top); err != nil || len(tips) != 0 {
		t.Errorf("an empty repository's tips: %v %v", tips, err)
	}
	hooks, err := g.HooksPath(top)
	if want := filepath.ToSlash(filepath.Join(top, ".git", "hooks")); err != nil || hooks != want {
		t.Errorf("HooksPath = %q %v, want %q", hooks, err, want)
	}
	runGit(t, top, env, "config", "core.hooksPath", "my hooks")
	if hooks, err := g.HooksPath(filepath.Join(top)); err != nil || hooks != filepath.ToSlash(filepath.Join(top, "my hooks")) {
		t.Errorf("a relative core.hooksPath: %q %v", hooks, err)
	}
	runGit(t, top, env, "add", "-A")
	runGit(t, top, env, "commit", "-q", "-m", "one")
	runGit(t, top, env, "branch", "side")
	head := strings.TrimSpace(runGit(t, top, env, "rev-parse", "HEAD"))
	tips, err := g.Tips(top)
	if err != nil || len(tips) != 3 || tips[0] != (Tip{Ref: "HEAD", ID: head}) || tips[1].Ref != "refs/heads/main" || tips[2].Ref != "refs/heads/side" {
		t.Errorf("tips %+v %v", tips, err)
	}
	outside := physTemp(t)
	if _, err := g.HooksPath(outside); err == nil {
		t.Error("HooksPath outside a repository answered")
	}
	if _, err := g.Tips(outside); err == nil {
		t.Error("Tips outside a repository answered none in silence")
	}
	out, err := g.Run(top, "hash a blob", []byte("x\n"), "hash-object", "--stdin")
	if err != nil || strings.TrimSpace(string(out)) != "587be6b4c3f93f93c489c0111bba5596147a26cb" {
		t.Errorf("Run with stdin: %q %v", out, err)
	}
	out, err = g.Run(top, "name HEAD", nil, "rev-parse", "HEAD")
	if err != nil || strings.TrimSpace(string(out)) != head {
		t.Errorf("Run: %q %v", out, err)
	}
	if _, err := g.Run(top, "fail", nil, "rev-parse", "--verify", "no-such-ref"); err == nil {
		t.Error("a failing git answered no error")
	}
}

// Commits answers at most max commits, newest first, and says when more
// were left out; since keeps the commits made at or after it.
func TestCommitsMaxAndSince(t *testing.T) {
	root := physTemp(t)
	top := filepath.Join(root, "repo")
	env := testEnv(filepath.Join(root, "home"))
	writeFile(t, filepath.Join(top, "a.txt"), "a\n", 0o644)
	runGit(t, top, env, "init", "-q", "-b", "main")
	runGit(t, top, env, "add", "-A")
	var ids []string
	for i, date := range []string{"2001-01-01T00:00:00Z", "2002-01-01T00:00:00Z", "2003-01-01T00:00:00Z"} {
		cenv := append(append([]string(nil), env...), "GIT_COMMITTER_DATE="+date, "GIT_AUTHOR_DATE="+date)
		runGit(t, top, cenv, "commit", "-q", "--allow-empty", "-m", "c"+strconv.Itoa(i))
		ids = append([]string{strings.TrimSpace(runGit(t, top, env, "rev-parse", "HEAD"))}, ids...)
	}
	g := Git{Env: env}
	for _, tc := range []struct {
		max   int
		since int64
		want  []string
		more  bool
	}{
		{3, 0, ids, false},
		{4, 0, ids, false},
		{2, 0, ids[:2], true},
		{1, 0, ids[:1], true},
		{3, 1009843200, ids[:2], false}, // 2002-01-01
		{3, 1041379201, nil, false},     // after the last
	} {
		got, more, err := g.Commits(top, []string{"HEAD"}, nil, tc.since, tc.max)
		if err != nil || more != tc.more || strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("max %d since %d: %q %v %v, want %q %v", tc.max, tc.since, got, more, err, tc.want, tc.more)
		}
	}
	if got, more, err := g.Commits(top, nil, nil, 0, 3); got != nil || more || err != nil {
		t.Errorf("nothing included: %q %v %v", got, more, err)
	}
}
