package payload

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/kits"
)

func TestLockHoldsFixtures(t *testing.T) {
	pre := path.Join("gate-sdk", kits.FixtureTree)
	for _, tc := range []struct {
		files []string
		want  bool
	}{
		{nil, false},
		{[]string{"gate-sdk/checks/check-a.gate"}, false},
		{[]string{"gate-sdk/checks/check-a.gate", pre + "/check-a/good/x"}, true},
		{[]string{pre + "x/y"}, false},
		{[]string{"other/" + kits.FixtureTree + "/a"}, false},
	} {
		l := &Lock{KitRoot: "gate-sdk"}
		for _, f := range tc.files {
			l.Files = append(l.Files, LockFile{Path: f})
		}
		if got := lockHoldsFixtures(l); got != tc.want {
			t.Errorf("lockHoldsFixtures(%q) = %v, want %v", tc.files, got, tc.want)
		}
	}
}

func TestPlanWrites(t *testing.T) {
	p := &Plan{}
	p.Add("a/b", nil, false, false)
	p.Add("c", nil, true, true)
	p.Append(".gitignore", "x")
	if got := p.writes("lock.json"); !reflect.DeepEqual(got, []string{"a/b", "c", ".gitignore", "lock.json"}) {
		t.Fatalf("writes = %q", got)
	}
	if p.files[0].class != classKit || p.files[1].class != classSeed || !p.files[1].exec {
		t.Errorf("classes %+v", p.files)
	}
}

// A write through a link that leaves the tree, or resolves nowhere, is
// refused with each link named; a link inside the tree is not.
func TestRefuseEscapes(t *testing.T) {
	top := t.TempDir()
	outside := t.TempDir()
	for _, d := range []string{"real/sub", "in"} {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{"out": outside, "gone": filepath.Join(top, "missing"), "inside": filepath.Join(top, "real")} {
		if err := os.Symlink(target, filepath.Join(top, name)); err != nil {
			t.Fatal(err)
		}
	}
	p := &Plan{}
	for _, f := range []string{"real/sub/a", "inside/b", "fresh/dir/c", "in/d"} {
		p.Add(f, nil, false, false)
	}
	if err := refuseEscapes(top, p, "lock"); err != nil {
		t.Fatalf("a plan inside the tree refused: %v", err)
	}
	p.Add("out/x", nil, false, false)
	p.Add("out/y", nil, false, false)
	p.Append("gone/z", "line")
	err := refuseEscapes(top, p, "lock")
	var r refuse
	if !errors.As(err, &r) {
		t.Fatalf("err = %v, want a refusal", err)
	}
	msg := err.Error()
	for _, want := range []string{
		"init: refused: out is a symbolic link to " + outside + ", outside the repository",
		"init: refused: gone is a symbolic link to " + filepath.Join(top, "missing") + ", which resolves nowhere",
		"init: nothing written",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("refusal lacks %q:\n%s", want, msg)
		}
	}
	if strings.Count(msg, "out is a symbolic link") != 1 || strings.Contains(msg, "inside is") {
		t.Errorf("refusal:\n%s", msg)
	}
}
