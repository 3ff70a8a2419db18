package githook

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/registry"
)

// Two rankings are the same when the members fall in one order, longest
// first and ties by name: a tie that one run breaks changes the order.
func TestSameRankingTies(t *testing.T) {
	ms := func(x, y int) map[string]time.Duration {
		return map[string]time.Duration{"x": time.Duration(x) * time.Millisecond, "y": time.Duration(y) * time.Millisecond}
	}
	for _, c := range []struct {
		kept, took map[string]time.Duration
		same       bool
	}{
		{ms(1, 1), ms(1, 2), false},
		{ms(1, 1), ms(2, 1), true},
		{ms(2, 1), ms(1, 1), true},
		{ms(1, 2), ms(1, 1), false},
	} {
		if got := sameRanking(c.kept, c.took); got != c.same {
			t.Errorf("sameRanking(%v, %v) = %v, want %v", c.kept, c.took, got, c.same)
		}
	}
}

// A member that met git-lfs pointers says so on the clean line: they are
// no judged file.
func TestPreCommitNamesTheLFSPointersItPassedOver(t *testing.T) {
	dir, env := scratchRepo(t)
	mustWrite(t, filepath.Join(dir, "doc.md"), "staged\n")
	gitT(t, dir, env, "add", "doc.md")
	m := []Member{gateMember("check-a", registry.TierPrecommit)}
	h := newHookWorld(dir, env, fakeRegistry{all: m, selected: m}, nil)
	h.World.Compiled = func(run CompiledRun) (int, []byte) {
		if run.LFSPointers != nil {
			run.LFSPointers(2)
		}
		return 0, []byte(run.Name + ": clean (1 file)\n")
	}
	if code := RunHook([]string{PreCommit}, h.World); code != 0 || h.out.String() != "pre-commit: 1 gate(s) passed; 2 git-lfs pointer(s) not judged (check-a 2).\n" {
		t.Fatalf("code %d stdout %q stderr %q", code, h.out.String(), h.errb.String())
	}
}
