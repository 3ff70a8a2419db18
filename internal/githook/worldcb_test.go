package githook

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
)

// Issue 42 item 19: pre-commit refuses (exit 2, naming what) when a
// reader it was handed cannot answer: the baseline, what the baseline
// adds, the worker count, the budget, the fixture pairs; it prints each
// entry the commit adds to the baseline before its members run; and a
// fixture pair that fails refuses the commit.
func TestPreCommitWorldReadersFailClosed(t *testing.T) {
	dir, env := scratchRepo(t)
	mustWrite(t, filepath.Join(dir, "doc.md"), "staged\n")
	gitT(t, dir, env, "add", "doc.md")
	reg := fakeRegistry{selected: []Member{gateMember("check-a", registry.TierPrecommit)}}
	boom := errors.New("scripts/gates.baseline:3: malformed")
	for name, set := range map[string]func(w *World){
		"baseline": func(w *World) { w.Baseline = func(*repo.Snapshot) error { return boom } },
		"baseline added": func(w *World) {
			w.BaselineAdded = func(*repo.Snapshot, []string) ([]string, error) { return nil, boom }
		},
		"jobs":   func(w *World) { w.Jobs = func() (int, error) { return 0, boom } },
		"budget": func(w *World) { w.Budget = func() (time.Duration, error) { return 0, boom } },
		"pairs":  func(w *World) { w.Pairs = func([]string) (bool, int, []byte, error) { return false, 0, nil, boom } },
	} {
		h := newHookWorld(dir, env, reg, nil)
		set(&h.World)
		if code := RunHook([]string{PreCommit}, h.World); code != 2 || h.errb.String() != "pre-commit: scripts/gates.baseline:3: malformed\n" {
			t.Errorf("%s: code %d stderr %q", name, code, h.errb.String())
		}
	}
	h := newHookWorld(dir, env, reg, nil)
	h.BaselineAdded = func(_ *repo.Snapshot, staged []string) ([]string, error) {
		return []string{"check-tree-terms doc.md leak", "staged " + strings.Join(staged, ",")}, nil
	}
	h.Jobs = func() (int, error) { return 1, nil }
	h.Budget = func() (time.Duration, error) { return time.Minute, nil }
	h.Pairs = func([]string) (bool, int, []byte, error) { return true, 1, []byte("case bad/x failed"), nil }
	code := RunHook([]string{PreCommit}, h.World)
	out := h.out.String()
	if code != 1 || !strings.HasPrefix(out, "pre-commit: check-tree-terms doc.md leak\npre-commit: staged doc.md\n") ||
		!strings.Contains(out, "case bad/x failed\n\npre-commit: the self-test of a gate this commit touches failed: its fixture pair or its registration (see above).\n") {
		t.Errorf("added entries and a failing pair: code %d stdout %q stderr %q", code, out, h.errb.String())
	}
	h = newHookWorld(dir, env, reg, nil)
	h.Pairs = func([]string) (bool, int, []byte, error) { return true, 0, []byte("pairs: clean"), nil }
	if code := RunHook([]string{PreCommit}, h.World); code != 0 || !strings.Contains(h.out.String(), "pairs: clean\n") {
		t.Errorf("a passing pair: code %d stdout %q stderr %q", code, h.out.String(), h.errb.String())
	}
}

// Issue 42 item 19: a malformed debt line is refused naming its own line
// (the header is line 1), whichever field is wrong.
func TestReadDebtNamesTheMalformedLine(t *testing.T) {
	common := t.TempDir()
	good := "3 check-x " + `"/srv/p"`
	for bad, line := range map[string]int{
		"two fields":           2,
		"0 check-x \"/srv/p\"": 3,
		"x check-x \"/srv/p\"": 3,
		"3 check-x /srv/p":     3,
	} {
		data := debtHeader + "\n" + good + "\n" + bad + "\n"
		if line == 2 {
			data = debtHeader + "\n" + bad + "\n"
		}
		mustWrite(t, filepath.Join(common, DebtName), data)
		_, err := ReadDebt(common)
		if want := DebtName + ":" + strconv.Itoa(line) + ": malformed line"; err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%q: %v, want a refusal ending %q", bad, err, want)
		}
	}
}

// Issue 42 item 19: commit-msg refuses (exit 2, naming the line) on a
// baseline it cannot read, before any member runs, and runs them on one
// it can.
func TestCommitMsgRefusesAnUnreadableBaseline(t *testing.T) {
	dir, env := scratchRepo(t)
	all := []Member{gateMember("check-msg", registry.TierCommitMsg)}
	h := newHookWorld(dir, env, fakeRegistry{all: all}, nil)
	h.Baseline = func(tree *repo.Snapshot) error {
		if tree != nil {
			t.Error("commit-msg read the baseline of a snapshot; it reads the work tree's")
		}
		return errors.New("scripts/gates.baseline:2: malformed")
	}
	if code := RunHook([]string{CommitMsg, ".git/COMMIT_EDITMSG"}, h.World); code != 2 || h.errb.String() != "commit-msg: scripts/gates.baseline:2: malformed\n" || len(h.runs) != 0 {
		t.Errorf("code %d stderr %q runs %d", code, h.errb.String(), len(h.runs))
	}
	h = newHookWorld(dir, env, fakeRegistry{all: all}, nil)
	h.Baseline = func(*repo.Snapshot) error { return nil }
	if code := RunHook([]string{CommitMsg, ".git/COMMIT_EDITMSG"}, h.World); code != 0 || len(h.runs) != 1 {
		t.Errorf("a readable baseline: code %d stderr %q", code, h.errb.String())
	}
}
