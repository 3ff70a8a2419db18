package knob

import (
	"os"
	"strings"
	"testing"
)

// Options.ReadFile, when set, is how every knob file is read: the
// pre-commit hook hands the index's copy, so a work-tree edit is not what
// the commit is judged under.
func TestLoadReadsThroughReadFile(t *testing.T) {
	dir := tree(t, map[string]string{tracked: "GATE_SDK_GH_HOST = disk\n"})
	e := env{}
	var asked []string
	s, err := Load(Options{Dir: dir, Lookup: e.lookup, Tables: testTables(t, allTestKits()...), AbsAgainst: absAgainst,
		ReadFile: func(p string) ([]byte, error) {
			asked = append(asked, p)
			if strings.HasSuffix(p, tracked) {
				return []byte("GATE_SDK_GH_HOST = index\n"), nil
			}
			return os.ReadFile(p)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := s.Scalar("GATE_SDK_GH_HOST"); err != nil || v != "index" {
		t.Fatalf("value %q %v, want the ReadFile copy", v, err)
	}
	if len(asked) == 0 {
		t.Fatal("ReadFile was never asked")
	}
	if v, _ := load(t, dir, e).Scalar("GATE_SDK_GH_HOST"); v != "disk" {
		t.Fatalf("without ReadFile: %q", v)
	}
}
