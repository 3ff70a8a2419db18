package githook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnjudgedRecord(t *testing.T) {
	common := t.TempDir()
	a, b, c := strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 64)
	added, err := addUnjudged(common, []Landing{{a, PostCommit, "/one"}, {b, PostRewrite, "/two"}, {a, PostMerge, "/one"}})
	if err != nil || len(added) != 2 {
		t.Fatalf("add: %v %v; want two landings, the repeat dropped", added, err)
	}
	// A commit already recorded is not added again.
	if added, err = addUnjudged(common, []Landing{{b, PostMerge, "/two"}, {c, PostApplypatch, "/one"}}); err != nil || len(added) != 1 || added[0].Commit != c {
		t.Fatalf("second add: %v %v; want only %s", added, err, c)
	}
	// Settling one work tree keeps the other's.
	settled, err := SettleUnjudged(common, "/one")
	if err != nil || len(settled) != 2 || settled[0].Commit != a || settled[1].Commit != c {
		t.Fatalf("settle /one: %v %v", settled, err)
	}
	left, err := ReadUnjudged(common)
	if err != nil || len(left) != 1 || left[0].Commit != b || left[0].Top != "/two" {
		t.Fatalf("after settling /one: %v %v", left, err)
	}
	if _, err := SettleUnjudged(common, "/two"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(common, UnjudgedName)); !os.IsNotExist(err) {
		t.Fatalf("an empty record is removed: %v", err)
	}
	// A record this binary cannot read is an error, never "nothing".
	for _, bad := range []string{"other header\n", unjudgedHeader + "\nnot-an-id post-commit \"/x\"\n", unjudgedHeader + "\n" + a + " post-commit unquoted\n"} {
		os.WriteFile(filepath.Join(common, UnjudgedName), []byte(bad), 0o644)
		if _, err := ReadUnjudged(common); err == nil {
			t.Errorf("record %q read without an error", bad)
		}
		if _, err := SettleUnjudged(common, "/x"); err == nil {
			t.Errorf("record %q settled without an error", bad)
		}
	}
}

func TestJudgedRecordKeepsTheLatest(t *testing.T) {
	common := t.TempDir()
	var last string
	for i := 0; i < judgedKept+5; i++ {
		last = strings.Repeat(string(rune('a'+i%6)), 39) + string(rune('0'+i%10))
		if err := NoteJudged(common, last+string(rune('a'+i/10))); err != nil {
			t.Fatal(err)
		}
	}
	got := judgedTrees(common)
	if len(got) != judgedKept {
		t.Fatalf("kept %d trees, want %d", len(got), judgedKept)
	}
	if !got[last+string(rune('a'+(judgedKept+4)/10))] {
		t.Fatal("the latest tree was not kept")
	}
}
