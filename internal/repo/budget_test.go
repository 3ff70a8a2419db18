package repo

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/walk"
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
	// ModeAndBlob is Mode and BlobID in one answer, on both kinds.
	for name, s := range map[string]*Snapshot{"work tree": wt, "staged": st} {
		for _, p := range append(s.Files(), "no-such-file") {
			m, id, ok := s.ModeAndBlob(p)
			wm, _ := s.Mode(p)
			wid, wok := s.BlobID(p)
			if m != wm || id != wid || ok != wok {
				t.Errorf("%s ModeAndBlob(%s) = %o %q %v, Mode and BlobID say %o %q %v", name, p, m, id, ok, wm, wid, wok)
			}
		}
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
	if st := s.mustLookup("run.sh").st.Load(); st != nil && st.held {
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

// unbudgeted answers a fixture's top and a work-tree snapshot of it that
// keeps no unclaimed bytes.
func unbudgeted(t *testing.T) (string, *Snapshot) {
	t.Helper()
	fx := newFixture(t)
	s, err := Git{Env: fx.env}.NewSnapshot(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	s.SetByteBudget(0)
	return fx.top, s
}

func mustIndex(t *testing.T, fx fixture) []Entry {
	t.Helper()
	es, err := Git{Env: fx.env}.IndexModes(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// assertion M: a file two readers have claimed is read once and kept for
// the second, whatever the byte budget, and let go once both have read
// it; a reader that comes after is held to those first bytes.
func TestClaimsKeepBytesUntilTheLastClaimant(t *testing.T) {
	top, s := unbudgeted(t)
	a, b := s.Claim([]string{"run.sh", "spaced name.md", "no-such-file"}), s.Claim([]string{"run.sh", "run.sh"})
	if e := s.mustLookup("run.sh").state(); e.pending != 2 {
		t.Fatalf("run.sh has %d claims, want 2 (a repeated path counts once)", e.pending)
	}
	first, err := a.Read("run.sh")
	if err != nil || string(first) != "#!/bin/sh\n" {
		t.Fatalf("first claimed read %q %v", first, err)
	}
	if e := s.mustLookup("run.sh").state(); !e.held || !e.claimed {
		t.Fatal("bytes a second claimant has still to read were not kept")
	}
	// An edit between the two claimed reads is not seen: the second
	// claimant is served the kept bytes, not a second read.
	writeFile(t, filepath.Join(top, "run.sh"), "#!/bin/sh\nchanged\n", 0o755)
	if again, err := a.Read("run.sh"); err != nil || string(again) != string(first) {
		t.Fatalf("a claimant's own second read %q %v", again, err)
	}
	if e := s.mustLookup("run.sh").state(); !e.held {
		t.Fatal("a claimant's second read ended another claimant's claim")
	}
	if second, err := b.Read("run.sh"); err != nil || string(second) != string(first) {
		t.Fatalf("second claimant read %q %v, want the kept bytes", second, err)
	}
	if e := s.mustLookup("run.sh").state(); e.held || e.data != nil || s.claimKept.Load() != 0 {
		t.Fatalf("bytes still kept after the last claim: held %v, claim bytes %d", e.held, s.claimKept.Load())
	}
	// After the release a reader reads again and is held to the first bytes.
	if got, err := s.Read("run.sh"); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("a read after the release answered %q %v, want the changed refusal", got, err)
	}
	// Done drops what a claimant never read; Drop ends one claim.
	if e := s.mustLookup("spaced name.md").state(); e.pending != 1 {
		t.Fatalf("spaced name.md has %d claims, want 1", e.pending)
	}
	a.Done()
	b.Done()
	if e := s.mustLookup("spaced name.md").state(); e.pending != 0 {
		t.Fatalf("Done left %d claims", e.pending)
	}
	c, d := s.Claim([]string{"link"}), s.Claim([]string{"link"})
	if _, err := c.Read("link"); err != nil {
		t.Fatal(err)
	}
	d.Drop("link")
	if e := s.mustLookup("link").state(); e.held || e.pending != 0 {
		t.Fatalf("a dropped last claim kept the bytes: held %v pending %d", e.held, e.pending)
	}
}

// assertion M: past the claim budget a claimed file is handed out unkept
// and its later claimant reads it again, held to the first bytes.
func TestClaimBudget(t *testing.T) {
	top, s := unbudgeted(t)
	s.SetClaimBudget(0)
	a, b := s.Claim([]string{"run.sh"}), s.Claim([]string{"run.sh"})
	if _, err := a.Read("run.sh"); err != nil {
		t.Fatal(err)
	}
	if st := s.mustLookup("run.sh").st.Load(); st != nil && st.held {
		t.Fatal("a claimed read past the claim budget was kept")
	}
	writeFile(t, filepath.Join(top, "run.sh"), "#!/bin/sh\nchanged\n", 0o755)
	if got, err := b.Read("run.sh"); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("the second claimant's re-read answered %q %v, want the changed refusal", got, err)
	}
}

// readFile answers what os.ReadFile answers: the bytes of files empty,
// small and larger than one read, and the same error for a missing file
// and a directory.
func TestReadFileIsReadFile(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"empty": "", "small": "x\n", "large": strings.Repeat("0123456789", 100000)} {
		p := filepath.Join(dir, name)
		writeFile(t, p, body, 0o644)
		got, err := readFile(p)
		want, werr := os.ReadFile(p)
		if err != nil || werr != nil || string(got) != string(want) || cap(got) != len(body) && len(body) > 0 {
			t.Errorf("%s: %d bytes (cap %d) %v, want %d bytes %v", name, len(got), cap(got), err, len(want), werr)
		}
	}
	p := filepath.Join(dir, "missing")
	_, err := readFile(p)
	_, werr := os.ReadFile(p)
	if err == nil || werr == nil || err.Error() != werr.Error() || errors.Is(err, fs.ErrNotExist) != errors.Is(werr, fs.ErrNotExist) {
		t.Errorf("%s: error %v, os.ReadFile's %v", p, err, werr)
	}
	// Issue 42 item 8: what is not a regular file is refused, never read
	// (a FIFO's open does not wait for a writer, /dev/zero is not read).
	fifo := filepath.Join(dir, "fifo")
	if err := exec.Command("mkfifo", fifo).Run(); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, fifo, zero} {
		if _, err := readFile(p); !errors.Is(err, walk.ErrNotRegular) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %v, want a not-regular refusal naming it", p, err)
		}
	}
}

// mustLookup answers a listed path's entry, for the tests that look at
// its read state.
func (s *Snapshot) mustLookup(path string) *snapEntry {
	e, ok := s.lookup(path)
	if !ok {
		panic(path + " is not listed")
	}
	return &e
}

// assertion W: an index mode is read as git reads it.
func TestCanonMode(t *testing.T) {
	for in, want := range map[uint32]uint32{0o100644: 0o100644, 0o100755: 0o100755, 0o100604: 0o100644, 0o100744: 0o100755, 0o100600: 0o100644, 0o120777: 0o120000, 0o120000: 0o120000, 0o160000: 0o160000} {
		if got := CanonMode(in); got != want {
			t.Errorf("CanonMode(%06o) = %06o, want %06o", in, got, want)
		}
	}
}
