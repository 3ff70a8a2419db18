package repo

import (
	"path/filepath"
	"strings"
	"testing"
)

// assertion L: a blob id is the id git gives the bytes Read answers: the
// index's in a staged snapshot, the hash of the work-tree bytes in a
// work-tree one (an edited file no longer has its index id).
func TestBlobID(t *testing.T) {
	fx := newFixture(t)
	top := fx.top
	writeFile(t, filepath.Join(top, "run.sh"), "#!/bin/sh\necho edited\n", 0o755)
	idx := map[string]string{}
	for _, e := range mustIndex(t, fx) {
		idx[e.Path] = e.Hash
	}
	wt, err := Git{Env: fx.env}.NewSnapshot(top)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Git{Env: fx.env}.StagedSnapshot(top)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.TrimSpace(runGit(t, top, fx.env, "hash-object", "run.sh"))
	for path, want := range map[string]string{"run.sh": edited, "link": idx["link"], "spaced name.md": idx["spaced name.md"]} {
		if got, ok := wt.BlobID(path); !ok || got != want {
			t.Errorf("work tree BlobID(%s) = %q %v, want %q", path, got, ok, want)
		}
	}
	if got, ok := st.BlobID("run.sh"); !ok || got != idx["run.sh"] {
		t.Errorf("staged BlobID(run.sh) = %q %v, want the index's %q", got, ok, idx["run.sh"])
	}
	if _, ok := wt.BlobID("no-such-file"); ok {
		t.Error("an untracked path has a blob id")
	}
}

// assertion K: past the byte budget a read is not kept (a second read
// reads again) and a work-tree file changed between the two reads is
// refused, never answered with other bytes.
func TestByteBudget(t *testing.T) {
	fx := newFixture(t)
	top := fx.top
	s, err := Git{Env: fx.env}.NewSnapshot(top)
	if err != nil {
		t.Fatal(err)
	}
	s.SetByteBudget(0)
	first, err := s.Read("run.sh")
	if err != nil || string(first) != "#!/bin/sh\n" {
		t.Fatalf("first read %q %v", first, err)
	}
	if s.entries["run.sh"].held {
		t.Fatal("a read past the budget was kept")
	}
	if again, err := s.Read("run.sh"); err != nil || string(again) != string(first) {
		t.Fatalf("unchanged re-read %q %v", again, err)
	}
	writeFile(t, filepath.Join(top, "run.sh"), "#!/bin/sh\nchanged\n", 0o755)
	if got, err := s.Read("run.sh"); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("changed re-read answered %q %v", got, err)
	}
	// Within the budget the first bytes are kept and served.
	k, err := Git{Env: fx.env}.NewSnapshot(top)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := k.Read("spaced name.md")
	writeFile(t, filepath.Join(top, "spaced name.md"), "other\n", 0o644)
	if b, err := k.Read("spaced name.md"); err != nil || string(b) != string(a) {
		t.Fatalf("kept read changed: %q %v", b, err)
	}
}

func mustIndex(t *testing.T, fx fixture) []Entry {
	t.Helper()
	es, err := Git{Env: fx.env}.IndexModes(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	return es
}
