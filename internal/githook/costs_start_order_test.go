package githook

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
)

// recordingCosts counts the loads and saves of members' run times.
type recordingCosts struct{ loads, saves int }

func (c *recordingCosts) Load(*repo.Snapshot) map[string]time.Duration  { c.loads++; return nil }
func (c *recordingCosts) Save(*repo.Snapshot, map[string]time.Duration) { c.saves++ }

// Members' run times are read only when two or more members may run at
// once (they order the start), and kept only after a passing run.
func TestPreCommitKeepsRunTimesOnlyWhenTheyOrderAStart(t *testing.T) {
	dir, env := scratchRepo(t)
	mustWrite(t, filepath.Join(dir, "doc.md"), "staged\n")
	gitT(t, dir, env, "add", "doc.md")
	for _, c := range []struct {
		jobs         int
		member       string
		loads, saves int
	}{
		{1, "check-a", 0, 0},
		{2, "check-a", 1, 1},
		{3, "check-red", 1, 0},
	} {
		m := []Member{gateMember(c.member, registry.TierPrecommit), gateMember("check-b", registry.TierPrecommit)}
		h := newHookWorld(dir, env, fakeRegistry{all: m, selected: m}, nil)
		costs := &recordingCosts{}
		jobs := c.jobs
		h.World.Costs = costs
		h.World.Jobs = func() (int, error) { return jobs, nil }
		RunHook([]string{PreCommit}, h.World)
		if costs.loads != c.loads || costs.saves != c.saves {
			t.Errorf("%d jobs, %s: %d loads and %d saves, want %d and %d", c.jobs, c.member, costs.loads, costs.saves, c.loads, c.saves)
		}
	}
}
