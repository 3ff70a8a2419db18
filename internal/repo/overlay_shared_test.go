package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"unsafe"
)

// overlayReference builds, the long way, the view NewEditOverlay answers:
// a private copy of the index's entries, each edited path put over it by
// hand (its work-tree bytes' id, flags cleared, those bytes held; removed
// when gone; added when untracked and not ignored, as listed by ignored),
// every other path read from its staged blob.
func overlayReference(t *testing.T, g Git, top string, paths []string, ignored map[string]bool) *Snapshot {
	t.Helper()
	entries, err := g.Index(top)
	if err != nil {
		t.Fatal(err)
	}
	ents := slices.Clone(entries)
	_, store, _, err := g.snapshotIndex(top, false)
	if err != nil {
		t.Fatal(err)
	}
	held := map[string][]byte{}
	for _, p := range paths {
		i, tracked := slices.BinarySearchFunc(ents, p, func(e Entry, p string) int {
			switch {
			case e.Path < p:
				return -1
			case e.Path > p:
				return 1
			}
			return 0
		})
		fi, err := os.Lstat(filepath.Join(top, p))
		switch {
		case os.IsNotExist(err) && tracked:
			ents = slices.Delete(ents, i, i+1)
			continue
		case os.IsNotExist(err), ignored[p]:
			continue
		case err != nil:
			t.Fatal(err)
		}
		if !tracked {
			mode := ModeRegular
			if fi.Mode()&os.ModeSymlink != 0 {
				mode = ModeSymlink
			} else if fi.Mode()&0o111 != 0 {
				mode = ModeExecutable
			}
			ents = slices.Insert(ents, i, Entry{Path: p, Mode: mode})
		}
		var data []byte
		if ents[i].Mode == ModeSymlink {
			target, err := os.Readlink(filepath.Join(top, p))
			if err != nil {
				t.Fatal(err)
			}
			data = []byte(target)
		} else if data, err = os.ReadFile(filepath.Join(top, p)); err != nil {
			t.Fatal(err)
		}
		ents[i].Hash, ents[i].Flags = store.hashOf(data), 0
		held[p] = data
	}
	s := SnapshotOf(top, ents)
	s.staged, s.blobs = true, store
	for p, data := range held {
		e, _ := s.lookup(p)
		st := e.state()
		st.held, st.data = true, data
	}
	return s
}

// assertion G (edit-gates): an overlay whose edited paths are tracked and
// present puts them over the process's decoded index without copying it,
// and answers what a private copy with the same paths put over it
// answers: the listing, each path's mode, id and bytes. An overlay that
// removes or adds a path answers the same; the shared decoding is never
// written.
func TestEditOverlayOverTheSharedDecode(t *testing.T) {
	fx := newFixture(t)
	top := fx.top
	g := Git{Env: fx.env, RecordVerified: true}
	writeFile(t, filepath.Join(top, ".git/info/exclude"), "/ignored.md\n", 0o644)
	for i := 0; i < 40; i++ {
		writeFile(t, filepath.Join(top, fmt.Sprintf("docs/n%02d.md", i)), fmt.Sprintf("note %d\n", i), 0o644)
	}
	runGit(t, top, fx.env, "add", "-A")
	runGit(t, top, fx.env, "commit", "-q", "-m", "notes")
	before, err := g.Index(top)
	if err != nil {
		t.Fatal(err)
	}
	states := []struct {
		name  string
		edit  func()
		paths []string
	}{
		{"one tracked file edited", func() { writeFile(t, filepath.Join(top, "docs/n03.md"), "edited\n", 0o644) }, []string{"docs/n03.md"}},
		{"the same file, the same size", func() { writeFile(t, filepath.Join(top, "docs/n03.md"), "EDITED\n", 0o644) }, []string{"docs/n03.md"}},
		{"two tracked files, the first and the last", func() {
			writeFile(t, filepath.Join(top, "docs/n00.md"), "first\n", 0o644)
			writeFile(t, filepath.Join(top, "run.sh"), "#!/bin/sh\nlast\n", 0o755)
		}, []string{"run.sh", "docs/n00.md"}},
		{"an edited file back at the index's bytes", func() { writeFile(t, filepath.Join(top, "docs/n03.md"), "note 3\n", 0o644) }, []string{"docs/n03.md"}},
		{"a tracked link retargeted", func() {
			if runtime.GOOS == "windows" {
				return
			}
			os.Remove(filepath.Join(top, "link"))
			if err := os.Symlink("docs/n05.md", filepath.Join(top, "link")); err != nil {
				t.Fatal(err)
			}
		}, []string{"link"}},
		{"a tracked file deleted", func() { os.Remove(filepath.Join(top, "docs/n07.md")) }, []string{"docs/n07.md", "docs/n08.md"}},
		{"an untracked file and an ignored one", func() {
			writeFile(t, filepath.Join(top, "docs/new.md"), "new\n", 0o644)
			writeFile(t, filepath.Join(top, "ignored.md"), "ignored\n", 0o644)
		}, []string{"docs/new.md", "ignored.md", "docs/n09.md"}},
	}
	for _, st := range states {
		st.edit()
		got, ok, err := g.NewEditOverlay(top, st.paths)
		if err != nil || !ok {
			t.Fatalf("%s: overlay ok %v, %v", st.name, ok, err)
		}
		want := overlayReference(t, g, top, st.paths, map[string]bool{"ignored.md": true})
		if !slices.Equal(got.Files(), want.Files()) {
			t.Fatalf("%s: listing %q, want %q", st.name, got.Files(), want.Files())
		}
		for _, p := range want.Files() {
			gm, _ := got.Mode(p)
			wm, _ := want.Mode(p)
			gid, _ := got.BlobID(p)
			wid, _ := want.BlobID(p)
			gb, gerr := got.Read(p)
			wb, werr := want.Read(p)
			if gm != wm || gid != wid || string(gb) != string(wb) || (gerr == nil) != (werr == nil) {
				t.Errorf("%s: %s is %o %s %q %v, want %o %s %q %v", st.name, p, gm, gid, gb, gerr, wm, wid, wb, werr)
			}
		}
		// The shared decoding is as the index file holds it.
		now, err := g.Index(top)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(now, before, func(a, b Entry) bool {
			return a.Path == b.Path && a.Hash == b.Hash && a.Mode == b.Mode && a.Flags == b.Flags
		}) {
			t.Fatalf("%s: the decoded index changed under the overlay", st.name)
		}
	}
}

// An overlay of one tracked edited file over a large index costs less than
// one copy of its entries once the index is decoded (the process's shared
// decoding): the overlay is put over the decoding, never a copy of it.
func TestEditOverlayCopiesNoEntry(t *testing.T) {
	fx := newFixture(t)
	top := fx.top
	g := Git{Env: fx.env, RecordVerified: true}
	const n = 3000
	for i := 0; i < n; i++ {
		writeFile(t, filepath.Join(top, fmt.Sprintf("d%02d/note-%04d.md", i%30, i)), "x\n", 0o644)
	}
	runGit(t, top, fx.env, "add", "-A")
	runGit(t, top, fx.env, "commit", "-q", "-m", "notes")
	writeFile(t, filepath.Join(top, "d00/note-0000.md"), "edited\n", 0o644)
	edited := []string{"d00/note-0000.md"}
	if _, ok, err := g.NewEditOverlay(top, edited); !ok || err != nil {
		t.Fatalf("overlay: ok %v, %v", ok, err)
	}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	s, ok, err := g.NewEditOverlay(top, edited)
	runtime.ReadMemStats(&m1)
	if !ok || err != nil || s.Len() < n {
		t.Fatalf("overlay: ok %v, %v, %d paths", ok, err, s.Len())
	}
	copyCost := uint64(s.Len()) * uint64(unsafe.Sizeof(Entry{}))
	if got := m1.TotalAlloc - m0.TotalAlloc; got >= copyCost {
		t.Errorf("the overlay allocated %d bytes, one copy of its %d entries is %d", got, s.Len(), copyCost)
	}
}
