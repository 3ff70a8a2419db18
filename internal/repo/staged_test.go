package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// assertion G, H: a staged snapshot answers the index's bytes: a partially
// staged file its staged half, a file deleted from the work tree its blob,
// an intent-to-add entry nothing, a packed object through go-git and the
// CLI alike.
func TestStagedSnapshot(t *testing.T) {
	fx := newFixture(t)
	top := fx.top
	writeFile(t, filepath.Join(top, "plain.txt"), "staged\n", 0o644)
	runGit(t, top, fx.env, "add", "plain.txt")
	writeFile(t, filepath.Join(top, "plain.txt"), "unstaged\n", 0o644)
	if err := os.Remove(filepath.Join(top, "run.sh")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(top, "ita.md"), "not staged\n", 0o644)
	runGit(t, top, fx.env, "add", "-N", "ita.md")
	for _, packed := range []bool{false, true} {
		if packed {
			runGit(t, top, fx.env, "gc", "-q")
		}
		s, err := Git{Env: fx.env}.StagedSnapshot(top)
		if err != nil {
			t.Fatal(err)
		}
		if !s.Staged() || s.Has("ita.md") || !s.Has("run.sh") || !s.Exists("run.sh") {
			t.Fatalf("staged %v, ita listed %v, deleted file listed %v", s.Staged(), s.Has("ita.md"), s.Has("run.sh"))
		}
		for path, want := range map[string]string{"plain.txt": "staged\n", "run.sh": "#!/bin/sh\n", "spaced name.md": "body of spaced name.md\n", "link": "nested/deep/x.go"} {
			got, err := s.Read(path)
			if err != nil || string(got) != want {
				t.Fatalf("packed=%v Read(%s) = %q, %v; want %q", packed, path, got, err, want)
			}
		}
		// The CLI reads the same blob when go-git cannot.
		b := newBlobStore(Git{Env: fx.env}, top, IndexSource{HashLen: 20, CommonDir: filepath.Join(top, "no-such-dir")})
		e := s.mustLookup("plain.txt")
		if got, err := b.read("plain.txt", e.hash); err != nil || string(got) != "staged\n" {
			t.Fatalf("cat-file fallback: %q, %v", got, err)
		}
		if _, err := b.read("plain.txt", "0000000000000000000000000000000000000001"); err == nil {
			t.Fatal("a missing object read")
		}
	}
	// The work-tree snapshot still reads the work tree.
	w, err := Git{Env: fx.env}.NewSnapshot(top)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := w.Read("plain.txt"); string(got) != "unstaged\n" {
		t.Fatalf("work-tree snapshot read %q", got)
	}
	if _, err := w.Read("run.sh"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("work-tree snapshot over a deleted file: %v", err)
	}
	// assertion O: the work-tree snapshot leaves the intent-to-add entry
	// out too, though its file is on disk: a commit would not hold it.
	if _, listed := w.Mode("ita.md"); w.Has("ita.md") || listed {
		t.Fatal("the work-tree snapshot counts an intent-to-add entry as tracked")
	}
	for _, f := range w.Files() {
		if f == "ita.md" {
			t.Fatal("the work-tree listing holds an intent-to-add entry")
		}
	}
}

// assertion G: a conflict is judged by stage 2; one without it is
// unresolved. The work-tree snapshot takes stage 2's mode too.
func TestStagedSnapshotConflict(t *testing.T) {
	fx := newFixture(t)
	top := fx.top
	runGit(t, top, fx.env, "checkout", "-q", "-b", "side")
	writeFile(t, filepath.Join(top, "plain.txt"), "theirs\n", 0o755)
	if err := os.Remove(filepath.Join(top, "run.sh")); err != nil {
		t.Fatal(err)
	}
	runGit(t, top, fx.env, "add", "-A")
	runGit(t, top, fx.env, "commit", "-q", "-m", "side")
	runGit(t, top, fx.env, "checkout", "-q", "main")
	writeFile(t, filepath.Join(top, "plain.txt"), "ours\n", 0o644)
	writeFile(t, filepath.Join(top, "run.sh"), "#!/bin/sh\necho ours\n", 0o755)
	runGit(t, top, fx.env, "commit", "-q", "-am", "main")
	runGit(t, top, fx.env, "rm", "-q", "run.sh")
	runGit(t, top, fx.env, "commit", "-q", "-m", "drop run.sh")
	runGit(t, top, fx.env, "checkout", "-q", "side")
	runGit(t, top, fx.env, "checkout", "-q", "-b", "side2")
	writeFile(t, filepath.Join(top, "run.sh"), "#!/bin/sh\necho theirs\n", 0o755)
	runGit(t, top, fx.env, "add", "-A")
	runGit(t, top, fx.env, "commit", "-q", "-m", "side2")
	runGit(t, top, fx.env, "checkout", "-q", "main")
	cmd := exec.Command("git", "merge", "-q", "side2")
	cmd.Dir, cmd.Env = top, fx.env
	if cmd.Run() == nil {
		t.Fatal("no conflict")
	}
	s, err := Git{Env: fx.env}.StagedSnapshot(top)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.Read("plain.txt"); err != nil || string(got) != "ours\n" {
		t.Fatalf("conflicted plain.txt read %q, %v; want stage 2", got, err)
	}
	if m, _ := s.Mode("plain.txt"); m != ModeRegular {
		t.Fatalf("conflicted plain.txt mode %o, want stage 2's 100644", m)
	}
	if got := s.Unresolved(); !reflect.DeepEqual(got, []string{"run.sh"}) {
		t.Fatalf("Unresolved = %q, want [run.sh] (deleted by us)", got)
	}
	w, err := Git{Env: fx.env}.NewSnapshot(top)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := w.Mode("plain.txt"); m != ModeRegular {
		t.Fatalf("work-tree snapshot: conflicted plain.txt mode %o, want stage 2's", m)
	}
}

// assertion I: a sparse checkout's off-disk entries read their blobs in
// both snapshots.
func TestSnapshotSparse(t *testing.T) {
	fx := newFixture(t)
	runGit(t, fx.top, fx.env, "sparse-checkout", "set", "--no-cone", "/nested/")
	if _, err := os.Stat(filepath.Join(fx.top, "plain.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("plain.txt is still on disk: %v", err)
	}
	g := Git{Env: fx.env}
	for name, mk := range map[string]func(string) (*Snapshot, error){"work tree": g.NewSnapshot, "staged": g.StagedSnapshot} {
		s, err := mk(fx.top)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s.Read("plain.txt"); err != nil || string(got) != "body of plain.txt\n" {
			t.Fatalf("%s: off-disk plain.txt read %q, %v", name, got, err)
		}
	}
}

// assertion H: a checkout filter's bytes are not the staged bytes; the
// blob is read.
func TestStagedSnapshotAutocrlf(t *testing.T) {
	fx := newFixture(t)
	runGit(t, fx.top, fx.env, "config", "core.autocrlf", "true")
	writeFile(t, filepath.Join(fx.top, "crlf.txt"), "a\r\nb\r\n", 0o644)
	runGit(t, fx.top, fx.env, "add", "crlf.txt")
	s, err := Git{Env: fx.env}.StagedSnapshot(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Read("crlf.txt"); string(got) != "a\nb\n" {
		t.Fatalf("staged crlf.txt read %q, want the blob's LF bytes", got)
	}
}

// assertion N: a staged snapshot's tree digest names its whole listing:
// the same index digests alike, a staged change (or a change of scope)
// digests otherwise, an index written without a checksum digests its
// listing instead, and a work-tree snapshot offers none.
func TestTreeDigest(t *testing.T) {
	fx := newFixture(t)
	top := fx.top
	g := Git{Env: fx.env}
	digest := func(dir string) string {
		t.Helper()
		s, err := g.StagedSnapshot(dir)
		if err != nil {
			t.Fatal(err)
		}
		d, ok := s.TreeDigest()
		if !ok || d == "" {
			t.Fatal("a staged snapshot offered no digest")
		}
		return d
	}
	first := digest(top)
	if again := digest(top); again != first {
		t.Fatalf("one index, two digests: %q %q", first, again)
	}
	if sub := digest(filepath.Join(top, "nested")); sub == first {
		t.Fatal("a subdirectory's scoped listing digested as the whole tree's")
	}
	writeFile(t, filepath.Join(top, "plain.txt"), "changed and staged\n", 0o644)
	runGit(t, top, fx.env, "add", "plain.txt")
	changed := digest(top)
	if changed == first {
		t.Fatal("a staged change left the digest unchanged")
	}
	// index.skipHash (git 2.40) writes a zero checksum: the listing is
	// digested instead. The zeros are written here by hand.
	zeroSum := func() {
		t.Helper()
		p := filepath.Join(top, ".git", "index")
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i := len(data) - 20; i < len(data); i++ {
			data[i] = 0
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	zeroSum()
	unsummed := digest(top)
	if unsummed == changed || unsummed[:8] != "listing " {
		t.Fatalf("an index without a checksum digested as %q", unsummed)
	}
	writeFile(t, filepath.Join(top, "plain.txt"), "changed again\n", 0o644)
	runGit(t, top, fx.env, "add", "plain.txt")
	zeroSum()
	if d := digest(top); d == unsummed || d[:8] != "listing " {
		t.Fatalf("a staged change without a checksum: digest %q (before %q)", d, unsummed)
	}
	w, err := g.NewSnapshot(top)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := w.TreeDigest(); ok {
		t.Fatal("a work-tree snapshot offered a tree digest")
	}
}

// A path listed more than once keeps its first place and takes stage 2's
// mode and id, whether its entries sit side by side (the index's order) or
// apart.
func TestSnapshotOfRepeats(t *testing.T) {
	for name, entries := range map[string][]Entry{
		"side by side": {{Path: "a", Mode: ModeRegular, Hash: "1", Stage: 1}, {Path: "a", Mode: ModeExecutable, Hash: "2", Stage: 2}, {Path: "a", Mode: ModeRegular, Hash: "3", Stage: 3}, {Path: "b", Mode: ModeRegular, Hash: "4"}},
		"apart":        {{Path: "a", Mode: ModeRegular, Hash: "1", Stage: 1}, {Path: "b", Mode: ModeRegular, Hash: "4"}, {Path: "a", Mode: ModeExecutable, Hash: "2", Stage: 2}, {Path: "a", Mode: ModeRegular, Hash: "3", Stage: 3}},
	} {
		s := SnapshotOf(t.TempDir(), entries)
		if got := s.Files(); !reflect.DeepEqual(got, []string{"a", "b"}) {
			t.Errorf("%s: files %v", name, got)
		}
		if m, id, _ := s.ModeAndBlob("a"); m != ModeExecutable || id != "" && id != "2" {
			t.Errorf("%s: a is %o %q, want stage 2's", name, m, id)
		}
		if s.mustLookup("a").hash != "2" || s.mustLookup("b").idx != 1 || s.mustLookup("a").idx != 0 {
			t.Errorf("%s: entries %+v %+v", name, s.mustLookup("a"), s.mustLookup("b"))
		}
	}
}

// assertion S: lookups answered from where recent ones were found agree
// with the search, in order, backwards, at random and from several
// goroutines at once, and an unlisted path is never found.
func TestSnapshotFindsNearAndFar(t *testing.T) {
	var entries []Entry
	for i := 0; i < 2000; i++ {
		entries = append(entries, Entry{Path: fmt.Sprintf("d%02d/f%05d.md", i%37, i), Mode: ModeRegular})
	}
	slices.SortFunc(entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	s := SnapshotOf(t.TempDir(), entries)
	check := func(order []int) {
		for _, i := range order {
			if j, ok := s.find(entries[i].Path); !ok || j != i {
				t.Errorf("find(%s) = %d %v, want %d", entries[i].Path, j, ok, i)
				return
			}
			if _, ok := s.find(entries[i].Path + "x"); ok {
				t.Errorf("an unlisted path beside %s was found", entries[i].Path)
				return
			}
		}
	}
	n := len(entries)
	var forward, backward []int
	for i := 0; i < n; i++ {
		forward, backward = append(forward, i), append(backward, n-1-i)
	}
	check(forward)
	check(backward)
	check(rand.New(rand.NewSource(1)).Perm(n))
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var mine []int
			for i := w; i < n; i += 6 {
				mine = append(mine, i)
			}
			check(mine)
		}(w)
	}
	wg.Wait()
}
