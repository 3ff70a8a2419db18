package repo

import (
	"path/filepath"
	"strings"
	"testing"
)

// Issue 42 item 17: a recorded tip whose object is gone (a deleted branch,
// its commit pruned) excludes nothing that is still reachable, so it never
// turns the outcome judge's listing into a failure that holds every Stop.
func TestCommitsSkipsAnExcludedObjectThatIsGone(t *testing.T) {
	root := physTemp(t)
	top := filepath.Join(root, "repo")
	env := testEnv(filepath.Join(root, "home"))
	writeFile(t, filepath.Join(top, "a.txt"), "a\n", 0o644)
	runGit(t, top, env, "init", "-q", "-b", "main")
	runGit(t, top, env, "add", "-A")
	runGit(t, top, env, "commit", "-q", "-m", "one")
	first := strings.TrimSpace(runGit(t, top, env, "rev-parse", "HEAD"))
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
