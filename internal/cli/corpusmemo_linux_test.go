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
