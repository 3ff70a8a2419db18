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

// fakeIgnored hides, as rule, every asked path not negated by a "!/path"
// line of the simulated root .gitignore; the rule of a path comes from
// ruleOf, given that file (empty: the one on disk).
func fakeIgnored(asked *[][]string, ruleOf func(q, root string) string) func([]string, []byte) (map[string]string, error) {
	return func(paths []string, root []byte) (map[string]string, error) {
		*asked = append(*asked, append([]string(nil), paths...))
		out := map[string]string{}
		for _, q := range paths {
			if strings.Contains(string(root), "!/"+q+"\n") {
				continue
			}
			if r := ruleOf(q, string(root)); r != "" {
				out[q] = r
			}
		}
		return out, nil
	}
}

func TestPlanNegations(t *testing.T) {
	newPlan := func(files ...string) *Plan {
		p := &Plan{}
		for _, f := range files {
			p.Add(f, nil, false, false)
		}
		p.files = append(p.files, planned{path: "bin/gates", class: classBinary})
		p.Append(".gitignore", "# init's block", "/bin/gates")
		return p
	}
	t.Run("root rules are negated, deeper ones in later rounds", func(t *testing.T) {
		top := t.TempDir()
		if err := os.WriteFile(filepath.Join(top, ".gitignore"), []byte("out/\n*.txt"), 0o644); err != nil {
			t.Fatal(err)
		}
		var asked [][]string
		var out strings.Builder
		w := &InitWorld{Top: top, Stdout: &out, Ignored: fakeIgnored(&asked, func(q, root string) string {
			// Under an ignored directory, git names the directory's rule.
			switch {
			case q == "out/" || strings.HasPrefix(q, "out/") && !strings.Contains(root, "!/out/\n"):
				return ".gitignore:1:out/"
			case strings.HasSuffix(q, ".txt"):
				return ".gitignore:2:*.txt"
			}
			return ""
		})}
		p := newPlan("out/a.txt", "keep/b.go")
		if err := planNegations(w, p, "lock.json"); err != nil {
			t.Fatal(err)
		}
		if got := p.appends[0].lines; !reflect.DeepEqual(got, []string{"# init's block", "/bin/gates", "!/out/", "!/out/a.txt"}) {
			t.Errorf("appended %q", got)
		}
		if !reflect.DeepEqual(asked[0], []string{"keep/", "out/", "out/a.txt", "keep/b.go", "lock.json"}) {
			t.Errorf("asked %q", asked[0])
		}
		if len(asked) != 3 {
			t.Errorf("%d rounds, want 3", len(asked))
		}
		if want := "init: .gitignore would hide 1 files init writes: out/a.txt (.gitignore:1:out/); init adds !/out/ !/out/a.txt to .gitignore\n"; out.String() != want {
			t.Errorf("said %q, want %q", out.String(), want)
		}
	})
	t.Run("a rule outside the root file is refused", func(t *testing.T) {
		var asked [][]string
		w := &InitWorld{Top: t.TempDir(), Ignored: fakeIgnored(&asked, func(q, _ string) string {
			if q == "sub/x" {
				return "sub/.gitignore:1:x"
			}
			return ""
		})}
		err := planNegations(w, newPlan("sub/x"), "lock.json")
		var r refuse
		if !errors.As(err, &r) || !strings.Contains(err.Error(), "init: refused: sub/x would be hidden by sub/.gitignore:1:x") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("rounds are bounded", func(t *testing.T) {
		var asked [][]string
		w := &InitWorld{Top: t.TempDir(), Stdout: &strings.Builder{}, Ignored: fakeIgnored(&asked, func(string, string) string { return ".gitignore:1:*" })}
		err := planNegations(w, newPlan("a/b/c/d/e/f/g/h/i/j"), "lock.json")
		if err == nil || !strings.Contains(err.Error(), "after 8 rounds") {
			t.Fatalf("err = %v", err)
		}
		if len(asked) != ignoreRounds+1 {
			t.Errorf("%d rounds asked", len(asked))
		}
		// Eight levels are negated within the bound.
		asked = nil
		if err := planNegations(w, newPlan("a/b/c/d/e/f/g/h"), "lock.json"); err != nil {
			t.Fatalf("eight levels: %v", err)
		}
	})
	t.Run("nothing to ask", func(t *testing.T) {
		if err := planNegations(&InitWorld{}, newPlan("x"), "l"); err != nil {
			t.Fatal(err)
		}
		p := &Plan{}
		p.Add("x", nil, false, false)
		called := false
		w := &InitWorld{Ignored: func([]string, []byte) (map[string]string, error) { called = true; return nil, nil }}
		if err := planNegations(w, p, "l"); err != nil || called {
			t.Fatalf("no .gitignore block: %v, asked %v", err, called)
		}
		w.Ignored = func([]string, []byte) (map[string]string, error) { return nil, errors.New("git died") }
		w.Top = t.TempDir()
		if err := planNegations(w, newPlan("x"), "l"); err == nil || !strings.Contains(err.Error(), "git died") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestSimulatedIgnore(t *testing.T) {
	for _, tc := range []struct{ cur, want string }{
		{"", "b\n!/x\n"},
		{"a", "a\nb\n!/x\n"},
		{"a\n", "a\nb\n!/x\n"},
	} {
		if got := string(simulated([]byte(tc.cur), []string{"b"}, []string{"!/x"})); got != tc.want {
			t.Errorf("simulated(%q) = %q, want %q", tc.cur, got, tc.want)
		}
	}
}
