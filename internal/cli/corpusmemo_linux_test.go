//go:build linux

package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/registry"
)

// countingMemo counts the names the corpus memo answered.
type countingMemo struct {
	*corpusMemo
	hits int
}

func (c *countingMemo) Lookup(path string) ([]string, bool) {
	names, ok := c.corpusMemo.Lookup(path)
	if ok {
		c.hits++
	}
	return names, ok
}

// assertion I (edit-gates): the knob names the corpus memo answers are
// the ones the corpus read whole answers, over declarations unchanged,
// edited (a new size, the same size), added, removed, made unparseable
// (refused both ways, never kept) and mended, a declaration replaced by
// a link, and a registered one edited; a declaration written too
// recently is read again rather than kept.
func TestCorpusKnobNamesMemoAgreesWithTheCorpus(t *testing.T) {
	root := t.TempDir()
	at := func(rel string) string { return filepath.Join(root, rel) }
	decl := func(rel, knob string) {
		t.Helper()
		rel = at(rel)
		body := "# graph: couples=knob:" + knob + "/x.list dir=one valve=none tier=precommit\n# install: on-surface\n"
		if err := os.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(rel, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(at("scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(at("scripts/gates.list"), []byte("check-a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	decl("scripts/check-a.gate", "KNOB_A")
	decl("scripts/extra-1.gate", "KNOB_ONE")
	decl("k/checks/extra-2.gate", "KNOB_TWO")
	memoDir := t.TempDir()
	old := corpusSettled
	defer func() { corpusSettled = old }()
	corpusSettled = -time.Hour
	type state struct {
		name     string
		edit     func()
		minHits  int // at least this many names answered by the memo
		recorded bool
	}
	states := []state{
		{"no memo yet", func() {}, 0, true},
		{"unchanged", func() {}, 2, true},
		{"a declaration edited to a new size", func() { decl("scripts/extra-1.gate", "KNOB_ONE_LONGER") }, 1, true},
		{"a declaration edited to the same size", func() {
			time.Sleep(10 * time.Millisecond)
			decl("k/checks/extra-2.gate", "KNOB_TWX")
		}, 1, true},
		{"a declaration added", func() { decl("k/checks/extra-3.gate", "KNOB_THREE") }, 2, true},
		{"a declaration removed", func() { os.Remove(at("scripts/extra-1.gate")) }, 2, true},
		{"a declaration that does not parse", func() {
			os.WriteFile(at("k/checks/extra-3.gate"), []byte("# graph: couples=knob: dir=sideways\n"), 0o644)
		}, 0, true},
		{"the declaration mended", func() { decl("k/checks/extra-3.gate", "KNOB_THREE_AGAIN") }, 1, true},
		{"a declaration replaced by a link", func() {
			decl("k/other.gate.txt", "KNOB_LINKED")
			os.Remove(at("k/checks/extra-2.gate"))
			if err := os.Symlink("../other.gate.txt", at("k/checks/extra-2.gate")); err != nil {
				t.Fatal(err)
			}
		}, 1, true},
		{"a registered declaration edited", func() { decl("scripts/check-a.gate", "KNOB_A_EDITED") }, 2, true},
		{"a declaration written just now, under the settling rule", func() {
			corpusSettled = time.Hour
			decl("scripts/extra-4.gate", "KNOB_FOUR")
		}, 2, false},
		{"the one written just now is read again", func() { corpusSettled = -time.Hour }, 2, true},
	}
	for _, st := range states {
		st.edit()
		reg, err := registry.Load(registry.OS{}, at("scripts"), []string{at("k")})
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		corpus, werr := reg.CorpusReusing(registry.OS{})
		want := registry.CouplesKnobNames(corpus)
		memo := &countingMemo{corpusMemo: openCorpusMemo(memoDir, "stamp", root)}
		got, gerr := reg.CorpusKnobNames(registry.OS{}, memo)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("%s: memo error %v, corpus error %v", st.name, gerr, werr)
		}
		if gerr != nil {
			if gerr.Error() != werr.Error() {
				t.Fatalf("%s: memo refuses %q, the corpus %q", st.name, gerr, werr)
			}
			continue
		}
		memo.flush()
		if !slices.Equal(got, want) {
			t.Fatalf("%s: memo answers %q, the corpus %q", st.name, got, want)
		}
		if memo.hits < st.minHits {
			t.Fatalf("%s: %d names answered by the memo, want at least %d", st.name, memo.hits, st.minHits)
		}
		if st.name == "a declaration written just now, under the settling rule" {
			if _, kept := openCorpusMemo(memoDir, "stamp", root).kept[at("scripts/extra-4.gate")]; kept {
				t.Fatalf("%s: a declaration written just now was recorded", st.name)
			}
		}
	}
	// Another build's memo, or another working directory's, is not read.
	if len(openCorpusMemo(memoDir, "other-stamp", root).kept) != 0 || len(openCorpusMemo(memoDir, "stamp", root+"/elsewhere").kept) != 0 {
		t.Fatal("a memo of another build or directory was read")
	}
}

// listingCounter counts the search dirs whose listing the memo answered.
type listingCounter struct {
	*corpusMemo
	hits int
}

func (c *listingCounter) Listing(dir string) ([]string, bool) {
	names, ok := c.corpusMemo.Listing(dir)
	if ok {
		c.hits++
	}
	return names, ok
}

// assertion M (edit-gates): the search dirs' listings the corpus memo
// answers give the knob names and the refusals the corpus read whole
// gives, over dirs unchanged, a declaration added, removed and renamed, a
// file of another kind added, a declaration replaced by a directory of
// its name and by a link, a search dir removed and made again, and a
// search dir replaced by a link to another; a dir changed just now is
// listed again rather than kept.
func TestCorpusListingMemoAgreesWithTheCorpus(t *testing.T) {
	root := t.TempDir()
	at := func(rel string) string { return filepath.Join(root, rel) }
	decl := func(rel, knob string) {
		t.Helper()
		body := "# graph: couples=knob:" + knob + "/x.list dir=one valve=none tier=precommit\n# install: on-surface\n"
		if err := os.MkdirAll(filepath.Dir(at(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(at(rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(at("scripts"), 0o755))
	must(os.WriteFile(at("scripts/gates.list"), []byte("check-a\n"), 0o644))
	decl("scripts/check-a.gate", "KNOB_A")
	decl("scripts/extra-1.gate", "KNOB_ONE")
	decl("k/checks/extra-2.gate", "KNOB_TWO")
	decl("k/checks/extra-3.gate", "KNOB_THREE")
	decl("elsewhere/checks/extra-9.gate", "KNOB_NINE")
	memoDir := t.TempDir()
	oldC, oldL := corpusSettled, listingSettled
	defer func() { corpusSettled, listingSettled = oldC, oldL }()
	corpusSettled, listingSettled = -time.Hour, -time.Hour
	type state struct {
		name    string
		edit    func()
		minHits int // at least this many dirs answered by the memo
	}
	states := []state{
		{"no memo yet", func() {}, 0},
		{"unchanged", func() {}, 2},
		{"a declaration added", func() { decl("k/checks/extra-4.gate", "KNOB_FOUR") }, 1},
		{"a declaration removed", func() { must(os.Remove(at("k/checks/extra-3.gate"))) }, 1},
		{"a declaration renamed", func() { must(os.Rename(at("k/checks/extra-4.gate"), at("k/checks/extra-5.gate"))) }, 1},
		{"a file of another kind added", func() { must(os.WriteFile(at("k/checks/notes.txt"), []byte("x\n"), 0o644)) }, 1},
		{"a shell declaration added", func() { must(os.WriteFile(at("k/checks/extra-6.sh"), []byte("#!/bin/sh\n"), 0o755)) }, 1},
		{"a declaration replaced by a directory of its name", func() {
			must(os.Remove(at("k/checks/extra-5.gate")))
			must(os.Mkdir(at("k/checks/extra-5.gate"), 0o755))
		}, 1},
		{"a declaration replaced by a link", func() {
			must(os.Remove(at("k/checks/extra-2.gate")))
			must(os.Symlink("../../elsewhere/checks/extra-9.gate", at("k/checks/extra-2.gate")))
		}, 1},
		{"the search dir removed", func() { must(os.RemoveAll(at("k/checks"))) }, 1},
		{"the search dir made again", func() { decl("k/checks/extra-7.gate", "KNOB_SEVEN") }, 1},
		{"the search dir replaced by a link to another", func() {
			must(os.RemoveAll(at("k/checks")))
			must(os.Symlink("../elsewhere/checks", at("k/checks")))
		}, 1},
		{"unchanged again", func() {}, 2},
	}
	for _, st := range states {
		// A dir's times move on a coarse clock: each change lands on a
		// later tick than the listing recorded before it.
		time.Sleep(20 * time.Millisecond)
		st.edit()
		reg, err := registry.Load(registry.OS{}, at("scripts"), []string{at("k")})
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		corpus, werr := reg.CorpusReusing(registry.OS{})
		want := registry.CouplesKnobNames(corpus)
		memo := &listingCounter{corpusMemo: openCorpusMemo(memoDir, "stamp", root)}
		got, gerr := reg.CorpusKnobNames(registry.OS{}, memo)
		if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Fatalf("%s: memo error %v, corpus error %v", st.name, gerr, werr)
		}
		memo.flush()
		if !slices.Equal(got, want) {
			t.Fatalf("%s: memo answers %q, the corpus %q", st.name, got, want)
		}
		if memo.hits < st.minHits {
			t.Fatalf("%s: %d dirs answered by the memo, want at least %d", st.name, memo.hits, st.minHits)
		}
	}
	// A dir changed just now is not recorded: the next call lists it.
	listingSettled = time.Hour
	decl("k/checks/extra-8.gate", "KNOB_EIGHT") // k/checks is elsewhere/checks now
	reg, err := registry.Load(registry.OS{}, at("scripts"), []string{at("k")})
	if err != nil {
		t.Fatal(err)
	}
	memo := openCorpusMemo(memoDir, "stamp", root)
	if _, err := reg.CorpusKnobNames(registry.OS{}, memo); err != nil {
		t.Fatal(err)
	}
	memo.flush()
	if _, kept := openCorpusMemo(memoDir, "stamp", root).keptDirs[at("k/checks")]; kept {
		t.Fatal("a search dir changed just now was recorded")
	}
}
