package githook

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
)

// assertion Y's footing: a passing pre-commit notes the tree it judged
// for the post-commit hook; a refused one, or one judging a commit that
// already landed, notes nothing.
func TestPreCommitNotesOnlyAPassingJudgementOfTheIndex(t *testing.T) {
	dir, env := scratchRepo(t)
	common := filepath.Join(dir, ".git")
	tree := func() string {
		cmd := exec.Command("git", "write-tree")
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	stage := func(body string) string {
		mustWrite(t, filepath.Join(dir, "doc.md"), body)
		gitT(t, dir, env, "add", "doc.md")
		return tree()
	}
	reg := func(name string) fakeRegistry {
		m := []Member{gateMember(name, registry.TierPrecommit)}
		return fakeRegistry{all: m, selected: m}
	}
	red := stage("red\n")
	h := newHookWorld(dir, env, reg("check-red"), nil)
	if code := RunHook([]string{PreCommit}, h.World); code != 1 || judgedTrees(common)[red] {
		t.Fatalf("a refused pre-commit: code %d, noted %v", code, judgedTrees(common)[red])
	}
	landed := stage("landed\n")
	snap, err := repo.Git{Env: env}.StagedSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	h = newHookWorld(dir, env, reg("check-a"), nil)
	h.World.Landed = &Landed{Tree: snap, Changes: []repo.Change{{Path: "doc.md", Status: 'M', OldMode: 0o100644, NewMode: 0o100644}}}
	if code := RunHook([]string{PreCommit}, h.World); code != 0 || judgedTrees(common)[landed] {
		t.Fatalf("a landed commit judged: code %d, noted %v (stderr %q)", code, judgedTrees(common)[landed], h.errb.String())
	}
	green := stage("green\n")
	h = newHookWorld(dir, env, reg("check-a"), nil)
	if code := RunHook([]string{PreCommit}, h.World); code != 0 || !judgedTrees(common)[green] {
		t.Fatalf("a passing pre-commit: code %d, noted %v (stderr %q)", code, judgedTrees(common)[green], h.errb.String())
	}
}
