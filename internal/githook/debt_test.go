package githook

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
)

// assertion V: the record keeps one line per top and member, this run's
// count replacing the member's earlier one; W: a green battery settles the
// lines of its top for the members it ran, a red one keeps every line.
func TestDebtRecordAndSettle(t *testing.T) {
	common := t.TempDir()
	if d, err := ReadDebt(common); err != nil || d != nil {
		t.Fatalf("no record: %v %v", d, err)
	}
	top, other := "/w/main", "/w/linked \"two\""
	if err := AddDebt(common, top, map[string]int{"check-tree-terms": 10}); err != nil {
		t.Fatal(err)
	}
	if err := AddDebt(common, other, map[string]int{"check-tree-terms": 3}); err != nil {
		t.Fatal(err)
	}
	if err := AddDebt(common, top, map[string]int{"check-tree-terms": 7, "check-x": 2}); err != nil {
		t.Fatal(err)
	}
	got, err := ReadDebt(common)
	want := []Debt{{other, "check-tree-terms", 3}, {top, "check-tree-terms", 7}, {top, "check-x", 2}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("record = %+v, %v; want %+v", got, err, want)
	}
	// A red battery settles nothing.
	if s, err := SettleDebt(common, top, []string{"check-tree-terms", "check-x"}, false); s != nil || err != nil {
		t.Fatalf("red settled %+v %v", s, err)
	}
	// A green one settles the members it ran at its own top only.
	s, err := SettleDebt(common, top, []string{"check-tree-terms"}, true)
	if err != nil || !reflect.DeepEqual(s, []Debt{{top, "check-tree-terms", 7}}) {
		t.Fatalf("settled %+v %v", s, err)
	}
	if got, _ := ReadDebt(common); !reflect.DeepEqual(got, []Debt{{other, "check-tree-terms", 3}, {top, "check-x", 2}}) {
		t.Fatalf("kept %+v", got)
	}
	SettleDebt(common, top, []string{"check-x"}, true)
	SettleDebt(common, other, []string{"check-tree-terms"}, true)
	if _, err := os.Stat(filepath.Join(common, DebtName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("an empty record was kept: %v", err)
	}
	// A record this binary cannot read is an error, never settled.
	if err := os.WriteFile(filepath.Join(common, DebtName), []byte("gates debt v1\nnonsense\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := SettleDebt(common, top, []string{"check-x"}, true); err == nil || !strings.Contains(err.Error(), "malformed line") {
		t.Fatalf("a malformed record: %v", err)
	}
	if err := AddDebt(common, top, map[string]int{"check-x": 1}); err == nil {
		t.Fatal("a malformed record was overwritten")
	}
}

// assertion V: members are told which paths the commit leaves unchanged;
// what they leave is said on the clean line and recorded; a failure
// records nothing, and a debt that cannot be recorded refuses the commit.
func TestPreCommitLeftToTheBattery(t *testing.T) {
	dir, env := scratchRepo(t)
	mustWrite(t, filepath.Join(dir, "doc.md"), "staged\n")
	gitT(t, dir, env, "add", "doc.md")
	reg := fakeRegistry{selected: []Member{gateMember("check-a", registry.TierPrecommit), gateMember("check-b", registry.TierPrecommit)}}
	h := newHookWorld(dir, env, reg, nil)
	inner := h.Compiled
	var unchanged = map[string]bool{}
	h.Compiled = func(run CompiledRun) (int, []byte) {
		if run.Unchanged == nil || run.Left == nil {
			return 2, []byte("not told what is unchanged\n")
		}
		unchanged["doc.md"], unchanged["notes.md"] = run.Unchanged("doc.md"), run.Unchanged("notes.md")
		if run.Name == "check-a" {
			run.Left(1)
		}
		return inner(run)
	}
	var recorded map[string]int
	h.Debt = func(tree *repo.Snapshot, left map[string]int) error { recorded = left; return nil }
	code := RunHook([]string{PreCommit}, h.World)
	want := "pre-commit: 2 gate(s) passed over the staged files; unchanged files were left to the battery (check-a 1), their rule inputs or this binary having changed since their last whole judgement: run gates --run to settle.\n"
	if code != 0 || h.out.String() != want {
		t.Fatalf("code %d stdout %q stderr %q", code, h.out.String(), h.errb.String())
	}
	if unchanged["doc.md"] || !unchanged["notes.md"] {
		t.Fatalf("unchanged answers %v: the staged path must be judged", unchanged)
	}
	if !reflect.DeepEqual(recorded, map[string]int{"check-a": 1}) {
		t.Fatalf("recorded %v", recorded)
	}
	// A debt that cannot be recorded refuses the commit.
	h.out.Reset()
	h.Debt = func(*repo.Snapshot, map[string]int) error { return errors.New("read-only") }
	if code := RunHook([]string{PreCommit}, h.World); code != 2 || !strings.Contains(h.errb.String(), "could not record the files left to the battery: read-only") {
		t.Fatalf("unrecorded debt: code %d stderr %q", code, h.errb.String())
	}
	// Without a debt recorder nothing may be left: members are not told.
	h = newHookWorld(dir, env, reg, nil)
	h.Compiled = func(run CompiledRun) (int, []byte) {
		if run.Unchanged != nil {
			return 2, []byte("told without a recorder\n")
		}
		return 0, nil
	}
	if code := RunHook([]string{PreCommit}, h.World); code != 0 || h.out.String() != "pre-commit: 2 gate(s) passed.\n" {
		t.Fatalf("no recorder: code %d stdout %q", code, h.out.String())
	}
}
