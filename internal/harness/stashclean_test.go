package harness

import (
	"os"
	"path/filepath"
	"testing"
)

// Issue 41's acceptance (branch work55): `git stash push --all` takes the
// ignored gates binary off the disk into the stash, so every hook after it
// refused the next call (the pop among them) and the restore it offered
// made the pop fail; a stash that takes ignored files is read like a
// clean of them.
func TestInspectStashAll(t *testing.T) {
	for cmd, want := range map[string]int{
		"git stash push -q --all -m x":             1,
		"git stash -a":                             1,
		"git stash save -a wip":                    1,
		"git stash push -am msg":                   1,
		"cd docs && git stash --all":               1,
		"git stash push --all -- ':!/bin/gates'":   1,
		"git stash -u":                             0,
		"git stash push -q -u -m all":              0,
		"git stash -m -a":                          0,
		"git stash pop":                            0,
		"git stash show -p --include-untracked -a": 0,
	} {
		v, err := Inspect(cmd)
		if err != nil {
			t.Fatalf("%q: %v", cmd, err)
		}
		if len(v.Cleans) != want {
			t.Errorf("%q: %d stashes of ignored files, want %d (%+v)", cmd, len(v.Cleans), want, v.Cleans)
		}
		for _, c := range v.Cleans {
			if !c.Stash {
				t.Errorf("%q: read as a clean: %+v", cmd, c)
			}
		}
	}
}

// Which clean or stash takes the binary: a stash of ignored files takes it
// from any directory unless a pathspec leaves it out; under -X a plain -e
// pattern is one more ignored file to remove (git clean -fdX -e /bin/gates
// removes bin/), and only its negation keeps the binary.
func TestCleanTakesStashAndOnlyIgnored(t *testing.T) {
	top := t.TempDir()
	bin := filepath.Join(top, "bin", "gates")
	c := &Call{Payload: &Payload{Cwd: top}}
	for _, r := range []struct {
		name string
		cl   Clean
		want bool
	}{
		{"stash --all", Clean{Stash: true}, true},
		{"stash --all from docs", Clean{Stash: true, Dir: "docs"}, true},
		{"stash --all -- ':!/bin/gates'", Clean{Stash: true, Paths: []string{":!/bin/gates"}}, false},
		{"stash --all -- ':(exclude)bin/gates'", Clean{Stash: true, Paths: []string{":(exclude)bin/gates"}}, false},
		{"stash --all -- ':^bin'", Clean{Stash: true, Paths: []string{":^bin"}}, false},
		{"stash --all -- ':!docs'", Clean{Stash: true, Paths: []string{":!docs"}}, true},
		{"stash --all -- docs", Clean{Stash: true, Paths: []string{"docs"}}, false},
		{"clean -fdX", Clean{Only: true}, true},
		{"clean -fdX -e /bin/gates", Clean{Only: true, Excludes: []string{"/bin/gates"}}, true},
		{"clean -fdX -e '!/bin/gates'", Clean{Only: true, Excludes: []string{"!/bin/gates"}}, false},
		{"clean -fdX -e '!/bin'", Clean{Only: true, Excludes: []string{"!/bin"}}, true},
		{"clean -fdX -e '!/bin/gates' -e /bin/gates", Clean{Only: true, Excludes: []string{"!/bin/gates", "/bin/gates"}}, true},
		{"clean -fdx -e /bin/gates", Clean{Excludes: []string{"/bin/gates"}}, false},
		{"clean -fdx -e /bin/gates -e '!/bin/gates'", Clean{Excludes: []string{"/bin/gates", "!/bin/gates"}}, true},
		{"clean -fdx -- ':!bin/gates'", Clean{Paths: []string{":!bin/gates"}}, false},
		{"clean -fdx -- docs", Clean{Paths: []string{"docs"}}, false},
		{"clean -fdx -- '*.o'", Clean{Paths: []string{"*.o"}}, true},
	} {
		if got := cleanTakes(c, top, bin, "bin/gates", r.cl); got != r.want {
			t.Errorf("%s: takes the binary %v, want %v", r.name, got, r.want)
		}
	}
}

// The hooks' scratch (the default GATE_SDK_TMP_DIR, ignoring itself) is
// named with the binary: the hooks write it again between the stash and
// its pop, which then fails on it.
func TestHooksScratch(t *testing.T) {
	top := t.TempDir()
	if got := hooksScratch(top); got != "" {
		t.Errorf("no scratch: %q", got)
	}
	writeScratch := func(body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(top, ".tmp"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(top, ".tmp", ".gitignore"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeScratch("build/\n")
	if got := hooksScratch(top); got != "" {
		t.Errorf("a .tmp of the project's own: %q", got)
	}
	writeScratch("*\n")
	if got := hooksScratch(top); got != ".tmp" {
		t.Errorf("the hooks' scratch: %q", got)
	}
	c := &Call{Payload: &Payload{Cwd: top}}
	if !cleanTakes(c, top, filepath.Join(top, ".tmp"), ".tmp", Clean{Stash: true, Paths: []string{":!/bin/gates"}}) {
		t.Error("a stash leaving out the binary alone takes the scratch")
	}
	if cleanTakes(c, top, filepath.Join(top, ".tmp"), ".tmp", Clean{Stash: true, Paths: []string{":!/bin/gates", ":!/.tmp"}}) {
		t.Error("the spelling offered takes the scratch")
	}
}
