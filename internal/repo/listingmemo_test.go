//go:build linux

package repo

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/fmap"
)

// sameView fails unless got answers what want answers: the listing, each
// path's mode, id and bytes, the tree digest and the overlay's record.
func sameView(t *testing.T, name string, got, want *Snapshot) {
	t.Helper()
	if !slices.Equal(got.Files(), want.Files()) {
		t.Fatalf("%s: listing %q, want %q", name, got.Files(), want.Files())
	}
	for _, p := range want.Files() {
		gm, _ := got.Mode(p)
		wm, _ := want.Mode(p)
		gid, _ := got.BlobID(p)
		wid, _ := want.BlobID(p)
		gb, gerr := got.Read(p)
		wb, werr := want.Read(p)
		if gm != wm || gid != wid || string(gb) != string(wb) || (gerr == nil) != (werr == nil) || got.Exists(p) != want.Exists(p) {
			t.Errorf("%s: %s is %o %s %q %v, want %o %s %q %v", name, p, gm, gid, gb, gerr, wm, wid, wb, werr)
		}
	}
	gd, gok := got.TreeDigest()
	wd, wok := want.TreeDigest()
	if gd != wd || gok != wok {
		t.Errorf("%s: digest %q %v, want %q %v", name, gd, gok, wd, wok)
	}
	gi, gp, gok := got.EditOverlay()
	wi, wp, wok := want.EditOverlay()
	if gi != wi || !slices.Equal(gp, wp) || gok != wok {
		t.Errorf("%s: overlay record %q %q %v, want %q %q %v", name, gi, gp, gok, wi, wp, wok)
	}
}

// assertion H (edit-gates): the overlay read from the listing memo answers
// what the overlay over a fresh decode of the index answers, over edits of
// tracked files and over every change of the index the memo was made
// from (a path staged, a mode changed, the index rewritten with the same
// entries, touched in place, the memo damaged or made for another index);
// the memo is taken only where it was made from the very index file.
func TestEditOverlayFromTheListingMemo(t *testing.T) {
	// Once as a fresh memo is read (checked whole each time), once with
	// every memo checked once recorded at once, so the later loads skip
	// the checksum.
	t.Run("checked whole", func(t *testing.T) { overlayMemoStates(t) })
	t.Run("recorded as checked", func(t *testing.T) {
		old := listingCheckedAge
		listingCheckedAge = -time.Hour
		defer func() { listingCheckedAge = old }()
		overlayMemoStates(t)
	})
}

func overlayMemoStates(t *testing.T) {
	fx := newFixture(t)
	top := fx.top
	memo := Git{Env: fx.env, RecordVerified: true}
	fresh := Git{Env: fx.env}
	for i := 0; i < 40; i++ {
		writeFile(t, filepath.Join(top, fmt.Sprintf("docs/n%02d.md", i)), fmt.Sprintf("note %d\n", i), 0o644)
	}
	runGit(t, top, fx.env, "add", "-A")
	runGit(t, top, fx.env, "commit", "-q", "-m", "notes")
	memoFile := filepath.Join(top, ".git", verifiedDir, listingMemoName)
	index := filepath.Join(top, ".git", "index")
	states := []struct {
		name  string
		edit  func()
		paths []string
		// taken: whether the memo answers (false where it was made from
		// another index, or the edit is one the memo's view leaves to
		// the decode).
		taken bool
	}{
		{"the first Edit: no memo yet", func() { writeFile(t, filepath.Join(top, "docs/n03.md"), "edited\n", 0o644) }, []string{"docs/n03.md"}, false},
		{"the next Edit of the same index", func() { writeFile(t, filepath.Join(top, "docs/n03.md"), "EDITED\n", 0o644) }, []string{"docs/n03.md"}, true},
		{"two tracked files at either end", func() {
			writeFile(t, filepath.Join(top, "docs/n00.md"), "first\n", 0o644)
			writeFile(t, filepath.Join(top, "run.sh"), "#!/bin/sh\nlast\n", 0o755)
		}, []string{"run.sh", "docs/n00.md"}, true},
		{"a file back at the index's bytes", func() { writeFile(t, filepath.Join(top, "docs/n03.md"), "note 3\n", 0o644) }, []string{"docs/n03.md"}, true},
		{"a tracked link retargeted", func() {
			os.Remove(filepath.Join(top, "link"))
			if err := os.Symlink("docs/n05.md", filepath.Join(top, "link")); err != nil {
				t.Fatal(err)
			}
		}, []string{"link"}, true},
		{"a path staged since the memo", func() {
			writeFile(t, filepath.Join(top, "docs/n10.md"), "staged\n", 0o644)
			runGit(t, top, fx.env, "add", "docs/n10.md")
			writeFile(t, filepath.Join(top, "docs/n11.md"), "edited\n", 0o644)
		}, []string{"docs/n11.md"}, false},
		{"the memo of the staged index", func() { writeFile(t, filepath.Join(top, "docs/n11.md"), "again\n", 0o644) }, []string{"docs/n11.md"}, true},
		{"a new path staged since the memo", func() {
			writeFile(t, filepath.Join(top, "docs/zz-new.md"), "new\n", 0o644)
			runGit(t, top, fx.env, "add", "docs/zz-new.md")
		}, []string{"docs/n11.md"}, false},
		{"a mode changed in the index", func() {
			memo.NewEditOverlay(top, []string{"docs/n11.md"})
			runGit(t, top, fx.env, "update-index", "--chmod=+x", "docs/n12.md")
		}, []string{"docs/n11.md"}, false},
		{"the index rewritten with the same entries", func() {
			memo.NewEditOverlay(top, []string{"docs/n11.md"})
			runGit(t, top, fx.env, "update-index", "--index-version", "4")
		}, []string{"docs/n11.md"}, false},
		{"a version 4 index's memo", func() {}, []string{"docs/n11.md"}, true},
		{"the index touched in place", func() {
			future := time.Now().Add(3 * time.Second)
			if err := os.Chtimes(index, future, future); err != nil {
				t.Fatal(err)
			}
		}, []string{"docs/n11.md"}, false},
		{"a damaged memo", func() {
			memo.NewEditOverlay(top, []string{"docs/n11.md"})
			data, err := os.ReadFile(memoFile)
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)/2] ^= 0x20
			// Past the time stamps' grain: the damage moves the file's
			// identity, as any later write does.
			time.Sleep(10 * time.Millisecond)
			if err := os.WriteFile(memoFile, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"docs/n11.md"}, false},
		{"a memo cut short", func() {
			memo.NewEditOverlay(top, []string{"docs/n11.md"})
			data, err := os.ReadFile(memoFile)
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(10 * time.Millisecond)
			if err := os.WriteFile(memoFile, data[:len(data)-9], 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"docs/n11.md"}, false},
		{"an untracked edited file", func() {
			memo.NewEditOverlay(top, []string{"docs/n11.md"})
			writeFile(t, filepath.Join(top, "docs/untracked.md"), "new\n", 0o644)
		}, []string{"docs/untracked.md"}, false},
		{"a tracked file deleted", func() { os.Remove(filepath.Join(top, "docs/n20.md")) }, []string{"docs/n20.md"}, false},
		{"an edited directory", func() {
			os.Remove(filepath.Join(top, "docs/n21.md"))
			if err := os.Mkdir(filepath.Join(top, "docs/n21.md"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, []string{"docs/n21.md"}, false},
		{"a memo made for another index file", func() {
			other := filepath.Join(top, ".git", "other-index")
			data, err := os.ReadFile(index)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(other, data, 0o644); err != nil {
				t.Fatal(err)
			}
			g := memo
			g.Env = append(slices.Clone(fx.env), "GIT_INDEX_FILE="+other)
			if _, ok, err := g.NewEditOverlay(top, []string{"docs/n11.md"}); !ok || err != nil {
				t.Fatalf("overlay of the other index: %v %v", ok, err)
			}
			writeFile(t, filepath.Join(top, "docs/n11.md"), "other\n", 0o644)
		}, []string{"docs/n11.md"}, false},
	}
	for _, st := range states {
		st.edit()
		// Each Edit is a process of its own: none holds a decoding of
		// the index an earlier one made.
		forgetDecoded()
		got, ok, err := memo.NewEditOverlay(top, st.paths)
		want, wok, werr := fresh.NewEditOverlay(top, st.paths)
		if (err == nil) != (werr == nil) || ok != wok {
			t.Fatalf("%s: overlay ok %v, %v; without the memo ok %v, %v", st.name, ok, err, wok, werr)
		}
		if !ok {
			if st.taken {
				t.Fatalf("%s: no overlay", st.name)
			}
			continue
		}
		if taken := got.tab != nil; taken != st.taken {
			t.Fatalf("%s: memo taken %v, want %v", st.name, taken, st.taken)
		}
		if want.tab != nil {
			t.Fatalf("%s: the overlay without the cache read the memo", st.name)
		}
		sameView(t, st.name, got, want)
	}
}

// forgetDecoded drops the process's decodings of index files (decoded),
// as a new process starts without them.
func forgetDecoded() {
	decoded.Lock()
	decoded.m = nil
	decoded.Unlock()
}

// With the cache off (RecordVerified unset) no memo is written or read.
func TestEditOverlayWithoutTheCacheKeepsNoMemo(t *testing.T) {
	fx := newFixture(t)
	g := Git{Env: fx.env}
	writeFile(t, filepath.Join(fx.top, "run.sh"), "#!/bin/sh\nedited\n", 0o755)
	for range 2 {
		s, ok, err := g.NewEditOverlay(fx.top, []string{"run.sh"})
		if !ok || err != nil || s.tab != nil {
			t.Fatalf("overlay ok %v, %v, memo taken %v", ok, err, s != nil && s.tab != nil)
		}
	}
	if _, err := os.Stat(filepath.Join(fx.top, ".git", verifiedDir, listingMemoName)); !os.IsNotExist(err) {
		t.Fatalf("a memo was written with the cache off: %v", err)
	}
}

// A memo file recorded as checked whole (its identity, checksum and key)
// is not checked again; a memo changed in place since (a new identity) is
// checked whole and refused when its checksum fails.
func TestListingMemoCheckedRecord(t *testing.T) {
	old := listingCheckedAge
	listingCheckedAge = -time.Hour
	defer func() { listingCheckedAge = old }()
	fx := newFixture(t)
	g := Git{Env: fx.env, RecordVerified: true}
	writeFile(t, filepath.Join(fx.top, "run.sh"), "#!/bin/sh\nedited\n", 0o755)
	memoFile := filepath.Join(fx.top, ".git", verifiedDir, listingMemoName)
	taken := func() bool {
		t.Helper()
		forgetDecoded()
		s, ok, err := g.NewEditOverlay(fx.top, []string{"run.sh"})
		if !ok || err != nil {
			t.Fatalf("overlay ok %v, %v", ok, err)
		}
		return s.tab != nil
	}
	if taken() || !taken() {
		t.Fatal("the memo was not made by the first Edit and taken by the second")
	}
	if _, err := os.Stat(memoFile + listingCheckedExt); err != nil {
		t.Fatalf("no record of the memo checked whole: %v", err)
	}
	// Damaged in place: a new identity, so the checksum is asked again.
	data, err := os.ReadFile(memoFile)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x20
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(memoFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if taken() {
		t.Fatal("a memo damaged in place was taken under the record of the file before")
	}
	// A record naming a damaged file as it now is (its identity, its
	// checksum trailer, the key) is taken at its word: the checksum is not
	// asked, which is what the record saves. (The Edit above made the
	// memo again; it is damaged again here.)
	if data, err = os.ReadFile(memoFile); err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x20
	if err := os.WriteFile(memoFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, release, stamp, err := fmap.MapStamp(memoFile)
	if err != nil || stamp == "" {
		t.Fatalf("identity of the memo: %q, %v", stamp, err)
	}
	release()
	src, err := g.LocateIndex(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	key, _ := listingMemoKey(src)
	rec := stamp + "\x00" + hex.EncodeToString(data[len(data)-4:]) + "\x00" + key + "\n"
	if err := os.WriteFile(memoFile+listingCheckedExt, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	if !taken() {
		t.Fatal("a memo its record names as checked was checked again")
	}
}
