package githook

import (
	"errors"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
)

// A commit judged after the fact: each hook shows its plan to the caller
// before any member runs, and a plan the caller refuses refuses the hook
// (exit 2, the reason on stderr) with no member run; with no Planned the
// hook goes on as usual.
func TestLandedPlanRefusedStopsTheHook(t *testing.T) {
	dir, env := scratchRepo(t)
	tree, err := repo.Git{Env: env}.StagedSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	changes := []repo.Change{{Path: "doc.md", Status: 'M', OldMode: 0o100644, NewMode: 0o100644}}
	all := []Member{gateMember("check-a", registry.TierPrecommit), gateMember("check-msg", registry.TierCommitMsg)}
	for _, hook := range []string{PreCommit, CommitMsg} {
		args := []string{hook}
		if hook == CommitMsg {
			args = append(args, "m")
		}
		h := newHookWorld(dir, env, fakeRegistry{all: all}, nil)
		var shown []string
		h.World.Landed = &Landed{Tree: tree, Changes: changes, Planned: func(hk string, plan []Step) error {
			shown = append(shown, hk)
			return errors.New("judged another way")
		}}
		if code := RunHook(args, h.World); code != 2 || !strings.Contains(h.errb.String(), "judged another way") || len(h.runs) != 0 {
			t.Errorf("%s refused plan: code %d stderr %q runs %+v", hook, code, h.errb.String(), h.runs)
		}
		if len(shown) != 1 || shown[0] != hook {
			t.Errorf("%s: plans shown for %v", hook, shown)
		}
		h = newHookWorld(dir, env, fakeRegistry{all: all}, nil)
		h.World.Landed = &Landed{Tree: tree, Changes: changes}
		if code := RunHook(args, h.World); code != 0 || h.errb.Len() != 0 {
			t.Errorf("%s with no Planned: code %d stderr %q runs %+v", hook, code, h.errb.String(), h.runs)
		}
	}
}
