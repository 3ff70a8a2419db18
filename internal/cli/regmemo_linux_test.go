//go:build linux

package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/registry"
)

// assertion J (edit-gates): the registry the memo answers is the one
// registry.Load answers, over a list and declarations unchanged, a
// declaration edited (a new size, the same size), a .sh added in the
// gates dir shadowing a kit's .gate, a declaration removed, made
// unparseable (the same refusal, from the kept bytes) and mended,
// replaced by a link, the list edited, and a dangling link in an earlier
// dir; anything written too recently is read again rather than kept.
func TestRegistryMemoAgreesWithLoad(t *testing.T) {
	root := t.TempDir()
	at := func(rel string) string { return filepath.Join(root, rel) }
	write := func(rel, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(at(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(at(rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	decl := func(rel, knob string) {
		t.Helper()
		write(rel, "# graph: couples=knob:"+knob+"/x.list dir=one valve=none tier=precommit\n# install: on-surface\n")
	}
	write("scripts/gates.list", "check-a\ncheck-b\ncheck-gone\n")
	decl("scripts/check-a.gate", "KNOB_A")
	decl("k/checks/check-b.gate", "KNOB_B")
	gatesDir, roots := at("scripts"), []string{at("k")}
	memoDir := t.TempDir()
	old := corpusSettled
	defer func() { corpusSettled = old }()
	corpusSettled = -time.Hour
	type state struct {
		name   string
		edit   func()
		hit    bool // the memo answered, reading no declaration
		stored bool // the load was recorded
	}
	states := []state{
		{"no memo yet", func() {}, false, true},
		{"unchanged", func() {}, true, true},
		{"a declaration edited to a new size", func() { decl("scripts/check-a.gate", "KNOB_A_LONGER") }, false, true},
		{"unchanged after the edit", func() {}, true, true},
		{"a declaration edited to the same size", func() {
			time.Sleep(10 * time.Millisecond)
			decl("k/checks/check-b.gate", "KNOB_X")
		}, false, true},
		{"a .sh in the gates dir shadowing a kit's .gate", func() {
			write("scripts/check-b.sh", "#!/bin/sh\n# graph: couples=knob:KNOB_SH/x.list dir=one valve=none tier=precommit\n# install: on-surface\n")
		}, false, true},
		{"the shadowing .sh removed", func() { os.Remove(at("scripts/check-b.sh")) }, false, true},
		{"a declaration removed", func() { os.Remove(at("scripts/check-a.gate")) }, false, true},
		{"a declaration that does not parse", func() {
			write("k/checks/check-b.gate", "# graph: couples=knob: dir=sideways\n")
		}, false, true},
		{"still not parsing: the refusal comes from the kept bytes", func() {}, true, true},
		{"the declaration mended", func() { decl("k/checks/check-b.gate", "KNOB_B_AGAIN") }, false, true},
		{"a declaration replaced by a link", func() {
			decl("k/other.gate.txt", "KNOB_LINKED")
			os.Remove(at("k/checks/check-b.gate"))
			if err := os.Symlink("../other.gate.txt", at("k/checks/check-b.gate")); err != nil {
				t.Fatal(err)
			}
		}, false, true},
		{"the link's target edited", func() { decl("k/other.gate.txt", "KNOB_LINKED_EDITED") }, false, true},
		{"the list edited", func() { write("scripts/gates.list", "check-b\ncheck-a\n") }, false, true},
		{"a dangling link in an earlier dir", func() {
			if err := os.Symlink("../elsewhere/now.sh", at("scripts/check-b.sh")); err != nil {
				t.Fatal(err)
			}
		}, false, false},
		{"the dangling link's target created", func() {
			write("elsewhere/now.sh", "#!/bin/sh\n# graph: couples=knob:KNOB_NOW/x.list dir=one valve=none tier=precommit\n# install: on-surface\n")
		}, false, true},
		{"a declaration written just now, under the settling rule", func() {
			corpusSettled = time.Hour
			decl("scripts/check-a.gate", "KNOB_NEW")
		}, false, false},
		{"the one written just now is read again", func() { corpusSettled = -time.Hour }, false, true},
		{"unchanged at the end", func() {}, true, true},
	}
	memoFile := filepath.Join(memoDir, regMemoName)
	for _, st := range states {
		st.edit()
		want, werr := registry.Load(registry.OS{}, gatesDir, roots)
		_, hit := lookupRegistryMemo(memoDir, "stamp", root, gatesDir, roots)
		before, _ := os.Stat(memoFile)
		got, gerr := loadRegistryMemo(registry.OS{}, memoDir, "stamp", root, gatesDir, roots)
		if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
			t.Fatalf("%s: memo error %v, Load error %v", st.name, gerr, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: memo answers %+v, Load %+v", st.name, got, want)
		}
		if hit != st.hit {
			t.Fatalf("%s: memo answered %v, want %v", st.name, hit, st.hit)
		}
		after, _ := os.Stat(memoFile)
		stored := after != nil && (before == nil || !os.SameFile(before, after))
		if !hit && stored != st.stored {
			t.Fatalf("%s: load recorded %v, want %v", st.name, stored, st.stored)
		}
	}
	// Another build's memo, another working directory's or another
	// registry's, is not read.
	for _, k := range [][3]string{{"other-stamp", root, gatesDir}, {"stamp", root + "/elsewhere", gatesDir}, {"stamp", root, at("k/checks")}} {
		if _, ok := lookupRegistryMemo(memoDir, k[0], k[1], k[2], roots); ok {
			t.Fatalf("a memo of %q was read", k)
		}
	}
	// A memo that does not parse is no memo.
	if err := os.WriteFile(memoFile, []byte("{\"Head\":"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := lookupRegistryMemo(memoDir, "stamp", root, gatesDir, roots); ok {
		t.Fatal("a memo that does not parse was trusted")
	}
}
