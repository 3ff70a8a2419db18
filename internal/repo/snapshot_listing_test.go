package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// keepEntries answers the admitted entries in order, each once, whichever
// entry is the first left out, and never writes the slice it is given.
func TestKeepEntriesLeavesOutInOrder(t *testing.T) {
	var all []Entry
	for _, p := range []string{"a", "b", "c", "d", "e"} {
		all = append(all, Entry{Path: p})
	}
	paths := func(es []Entry) (out []string) {
		for _, e := range es {
			out = append(out, e.Path)
		}
		return out
	}
	for _, c := range []struct {
		drop string
		want []string
	}{
		{"", []string{"a", "b", "c", "d", "e"}},
		{"a", []string{"b", "c", "d", "e"}},
		{"b", []string{"a", "c", "d", "e"}},
		{"c", []string{"a", "b", "d", "e"}},
		{"e", []string{"a", "b", "c", "d"}},
		{"bd", []string{"a", "c", "e"}},
		{"abcde", nil},
	} {
		in := slices.Clone(all)
		asked := 0
		got := keepEntries(in, func(e Entry) bool {
			asked++
			return !containsByte(c.drop, e.Path[0])
		})
		if !slices.Equal(paths(got), c.want) {
			t.Errorf("leaving out %q: %v, want %v", c.drop, paths(got), c.want)
		}
		if asked != len(all) {
			t.Errorf("leaving out %q: keep asked %d times, want %d", c.drop, asked, len(all))
		}
		if !slices.Equal(in, all) {
			t.Errorf("leaving out %q: the given entries were written: %v", c.drop, paths(in))
		}
	}
}

func containsByte(s string, b byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return true
		}
	}
	return false
}

// assertion S: a listing in ascending order, a path's conflict stages
// side by side included, is handed out by Files itself, not a copy; a
// listing out of order is found by name all the same and handed out as a
// fresh slice each time.
func TestSnapshotFilesSharedOnlyInOrder(t *testing.T) {
	shared := func(s *Snapshot) bool {
		a, b := s.Files(), s.Files()
		return len(a) > 0 && &a[0] == &b[0]
	}
	once := SnapshotOf(t.TempDir(), []Entry{{Path: "a"}, {Path: "b"}, {Path: "c"}})
	stages := SnapshotOf(t.TempDir(), []Entry{{Path: "a"}, {Path: "b", Stage: 1}, {Path: "b", Stage: 2, Mode: ModeExecutable}, {Path: "b", Stage: 3}, {Path: "c"}})
	for name, s := range map[string]*Snapshot{"each path once": once, "conflict stages": stages} {
		if !shared(s) {
			t.Errorf("%s: Files copied an ascending listing", name)
		}
		if !slices.Equal(s.Files(), []string{"a", "b", "c"}) {
			t.Errorf("%s: Files = %v", name, s.Files())
		}
	}
	if m, ok := stages.Mode("b"); !ok || m != ModeExecutable {
		t.Errorf("a conflicted path's mode = %o %v, want stage 2's", m, ok)
	}
	for _, order := range [][]string{{"c", "b", "a"}, {"b", "a", "c"}, {"a", "c", "b"}} {
		var es []Entry
		for _, p := range order {
			es = append(es, Entry{Path: p})
		}
		s := SnapshotOf(t.TempDir(), es)
		if shared(s) {
			t.Errorf("%v: Files handed out the snapshot's own listing", order)
		}
		if !slices.Equal(s.Files(), order) {
			t.Errorf("%v: Files = %v", order, s.Files())
		}
		for _, p := range order {
			if !s.Has(p) {
				t.Errorf("%v: %s not found", order, p)
			}
		}
	}
}

// assertion S: the lookup slots: a path at a slot's place or up to two
// past it is found there and moves the slot to it; any other path is
// searched for and takes the next slot.
func TestSnapshotNearSlots(t *testing.T) {
	var es []Entry
	for i := 0; i < 20; i++ {
		es = append(es, Entry{Path: fmt.Sprintf("f%02d", i)})
	}
	s := SnapshotOf(t.TempDir(), es)
	slots := func() [4]int32 {
		var out [4]int32
		for k := range s.near {
			out[k] = s.near[k].Load()
		}
		return out
	}
	for _, step := range []struct {
		find int
		want [4]int32
	}{
		{0, [4]int32{0, 0, 0, 0}},   // at slot 0's place
		{1, [4]int32{1, 0, 0, 0}},   // one past: slot 0 moves
		{3, [4]int32{3, 0, 0, 0}},   // two past
		{6, [4]int32{3, 6, 0, 0}},   // three past: searched, the next slot
		{7, [4]int32{3, 7, 0, 0}},   // one past slot 1
		{19, [4]int32{3, 7, 19, 0}}, // the last, searched
		{18, [4]int32{3, 7, 19, 18}},
		{2, [4]int32{2, 7, 19, 18}}, // before every slot: searched, the slots taken in turn
	} {
		if i, ok := s.find(es[step.find].Path); !ok || i != step.find {
			t.Fatalf("find(%s) = %d %v", es[step.find].Path, i, ok)
		}
		if got := slots(); got != step.want {
			t.Errorf("after finding %d: slots %v, want %v", step.find, got, step.want)
		}
	}
	for k := range s.near {
		s.near[k].Store(19)
	}
	if _, ok := s.find("f19x"); ok {
		t.Error("a path past the last was found")
	}
}

// A file the stat test vouched for, then removed, reads as missing on
// every read: the missing file's error is kept, not held to the index's id.
func TestVouchedFileRemovedReadsAsMissing(t *testing.T) {
	dir, env := statRepo(t, map[string]string{"a.txt": "alpha\n"})
	s, err := Git{Env: env}.NewSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.BlobID("a.txt"); !ok {
		t.Fatal("no id")
	}
	if e, _ := s.lookup("a.txt"); e.clean == nil || e.clean.Load() != cleanVouched {
		t.Fatal("the clean file was not vouched for")
	}
	if err := os.Remove(filepath.Join(dir, "a.txt")); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := s.Read("a.txt"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("read %d of the removed file: %v, want it missing", i+1, err)
		}
	}
}

// assertion F: bytes that fill the byte budget exactly are kept; bytes
// past it are not, and leave the budget as they found it, so a smaller
// file read after them is kept.
func TestByteBudgetExactAndGivenBack(t *testing.T) {
	_, s := unbudgeted(t)
	s.SetByteBudget(int64(len("#!/bin/sh\n")))
	if _, err := s.Read("run.sh"); err != nil {
		t.Fatal(err)
	}
	if st := s.mustLookup("run.sh").state(); !st.held {
		t.Error("bytes filling the budget exactly were not kept")
	}
	_, s = unbudgeted(t)
	s.SetByteBudget(int64(len("#!/bin/sh\n")))
	if _, err := s.Read("spaced name.md"); err != nil {
		t.Fatal(err)
	}
	if s.kept.Load() != 0 {
		t.Errorf("a read past the budget left %d bytes counted", s.kept.Load())
	}
	if _, err := s.Read("run.sh"); err != nil {
		t.Fatal(err)
	}
	if st := s.mustLookup("run.sh").state(); !st.held {
		t.Error("a file within what was left of the budget was not kept")
	}
}

// assertion M: the same for the claim budget, and a claim's count of
// what it still has to read falls to 0 as it reads and drops.
func TestClaimBudgetExactAndGivenBack(t *testing.T) {
	_, s := unbudgeted(t)
	s.SetClaimBudget(int64(len("#!/bin/sh\n")))
	a, b := s.Claim([]string{"spaced name.md", "run.sh", "link"}), s.Claim([]string{"spaced name.md", "run.sh"})
	if a.left.Load() != 3 || b.left.Load() != 2 {
		t.Fatalf("claims outstanding %d and %d, want 3 and 2", a.left.Load(), b.left.Load())
	}
	if _, err := a.Read("spaced name.md"); err != nil {
		t.Fatal(err)
	}
	if st := s.mustLookup("spaced name.md").state(); st.held || s.claimKept.Load() != 0 {
		t.Errorf("a claimed read past the claim budget: held %v, %d bytes counted", st.held, s.claimKept.Load())
	}
	if _, err := a.Read("run.sh"); err != nil {
		t.Fatal(err)
	}
	if st := s.mustLookup("run.sh").state(); !st.held || !st.claimed {
		t.Error("claimed bytes filling the claim budget exactly were not kept")
	}
	if a.left.Load() != 1 {
		t.Errorf("after two reads %d claims outstanding, want 1", a.left.Load())
	}
	a.Drop("link")
	if a.left.Load() != 0 {
		t.Errorf("after the drop %d claims outstanding, want 0", a.left.Load())
	}
	b.Done()
	if b.left.Load() != 0 || s.claimKept.Load() != 0 {
		t.Errorf("after Done: %d claims outstanding, %d bytes kept for claims", b.left.Load(), s.claimKept.Load())
	}
}

// assertion I: a staged read takes the work-tree file when it hashes to
// the staged id, without the object store (here the staged blob's loose
// object is gone).
func TestStagedReadTakesAMatchingWorkTreeFile(t *testing.T) {
	dir, env := statRepo(t, map[string]string{"a.txt": "alpha\n"})
	writeFile(t, filepath.Join(dir, "a.txt"), "a body no other object holds\n", 0o644)
	runGit(t, dir, env, "add", "a.txt")
	id := blobOf(t, dir, env, "a.txt")
	if err := os.Remove(filepath.Join(dir, ".git", "objects", id[:2], id[2:])); err != nil {
		t.Fatal(err)
	}
	s, err := Git{Env: env}.StagedSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := s.Read("a.txt"); err != nil || string(data) != "a body no other object holds\n" {
		t.Fatalf("Read = %q %v, want the work-tree bytes", data, err)
	}
}

// A path in conflict with no stage 2 (deleted on our side, changed and
// made executable on theirs) is its first stage in every work-tree view:
// the working listing, which sorts the untracked files in, answers what
// the index's own listing answers.
func TestConflictWithoutOursIsItsFirstStageInEveryView(t *testing.T) {
	dir, env := statRepo(t, map[string]string{"f.sh": "base\n", "keep.txt": "k\n"})
	runGit(t, dir, env, "checkout", "-q", "-b", "theirs")
	writeFile(t, filepath.Join(dir, "f.sh"), "theirs\n", 0o755)
	if err := os.Chmod(filepath.Join(dir, "f.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, env, "commit", "-q", "-am", "theirs")
	runGit(t, dir, env, "checkout", "-q", "main")
	runGit(t, dir, env, "rm", "-q", "f.sh")
	runGit(t, dir, env, "commit", "-q", "-m", "ours")
	cmd := exec.Command("git", "merge", "-q", "theirs")
	cmd.Dir, cmd.Env = dir, env
	if err := cmd.Run(); err == nil {
		t.Fatal("the merge did not conflict")
	}
	writeFile(t, filepath.Join(dir, "untracked.txt"), "u\n", 0o644)
	g := Git{Env: env}
	index, err := g.NewSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	working, err := g.NewWorkingSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	mi, oki := index.Mode("f.sh")
	mw, okw := working.Mode("f.sh")
	if !oki || !okw || mi != ModeRegular || mw != mi {
		t.Errorf("f.sh: the index's view %o %v, the working view %o %v; want both stage 1's %o", mi, oki, mw, okw, ModeRegular)
	}
}
