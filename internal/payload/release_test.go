package payload

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestKnobNames(t *testing.T) {
	got := knobNames([]byte("[meta]\nname = \"not a knob\"\n[[knob]]\n  name = \"A\"\n  name = \"ignored second\"\n[[env_only]]\nname=B\n[[other]]\nname = \"C\"\n[[knob]]\ndefault = 1\n[[knob]]\nname \"no equals\"\n"))
	if want := map[string]bool{"A": true, "B": true}; !reflect.DeepEqual(got, want) {
		t.Fatalf("knobNames = %v, want %v", got, want)
	}
}

func TestReleaseChanges(t *testing.T) {
	top := t.TempDir()
	if err := os.MkdirAll(filepath.Join(top, "kit"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, "kit", "knobs.toml"), []byte("[[knob]]\nname = \"OLD\"\n[[knob]]\nname = \"KEPT\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := func(path, verb, class string, data string) step {
		return step{planned: planned{path: path, data: []byte(data), class: class}, verb: verb}
	}
	steps := []step{
		st("kit/checks/check-b.gate", "create", classKit, ""),
		st("kit/checks/check-a.gate", "create", classKit, ""),
		st("kit/checks/check-old.gate", "update", classKit, ""),
		st("kit/checks/notes.txt", "create", classKit, ""),
		st("kit/templates/z.md", "update", classKit, ""),
		st("kit/templates/a.md", "update", classKit, ""),
		st("kit/templates/new.md", "create", classKit, ""),
		st("kit/templates/seed.md", "update", classSeed, ""),
		st("kit/templates/kept.md", "present", classKit, ""),
		st("other/checks/check-x.gate", "create", classKit, ""),
		st("kit/knobs.toml", "update", classKit, "[[knob]]\nname = \"KEPT\"\n[[env_only]]\nname = \"NEW\"\n"),
	}
	got, err := releaseChanges(top, "kit", steps)
	if err != nil {
		t.Fatal(err)
	}
	want := []releaseChange{
		{"gates new in this release", []string{"check-a", "check-b"}},
		{"templates changed", []string{"kit/templates/a.md", "kit/templates/z.md"}},
		{"knobs added", []string{"NEW"}},
		{"knobs no longer read (a value you set for one is ignored now)", []string{"OLD"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("releaseChanges =\n%v\nwant\n%v", got, want)
	}
	var b strings.Builder
	printReleaseChanges(&b, "s1", "s2", got[:2])
	if w := "init: the kit moves from the build stamped s1 to s2; against the kit vendored here:\n" +
		"init:   gates new in this release: check-a, check-b\n" +
		"init:   templates changed: kit/templates/a.md, kit/templates/z.md\n"; b.String() != w {
		t.Errorf("printed\n%s\nwant\n%s", b.String(), w)
	}
	b.Reset()
	printReleaseChanges(&b, "s1", "s2", nil)
	if b.Len() != 0 {
		t.Errorf("no change printed %q", b.String())
	}
	// Nothing changed: no line.
	if got, err := releaseChanges(top, "kit", steps[8:9]); err != nil || got != nil {
		t.Errorf("an unchanged kit: %v %v", got, err)
	}
	// The knob table on disk unreadable: refused, naming it.
	if _, err := releaseChanges(t.TempDir(), "kit", steps[10:]); err == nil || !strings.Contains(err.Error(), "kit/knobs.toml") {
		t.Errorf("an unreadable knob table: %v", err)
	}
}
