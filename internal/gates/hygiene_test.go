package gates

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
	"github.com/gate-sdk/gates/internal/repo"
)

// run is one rule invocation for the hygiene tests.
type run struct {
	rule     gate.Rule
	name     string
	dir      string
	tree     gate.Tree
	knobs    gatetest.Knobs
	env      map[string]string
	kitRoots []string
	args     []string
	cache    *cache.Store
	prior    *gate.Prior
}

func (r run) exec() gatetest.Run {
	var out, errb bytes.Buffer
	env := r.env
	c := &gate.Context{
		Name:     r.name,
		Args:     r.args,
		Dir:      r.dir,
		GatesDir: "scripts",
		KitRoots: r.kitRoots,
		Env:      func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Knobs:    r.knobs,
		Tree:     r.tree,
		Out:      &out,
		Err:      &errb,
		Cache:    r.cache,
		Prior:    r.prior,
	}
	code := r.rule(c)
	return gatetest.Run{Code: code, Stdout: out.String(), Stderr: errb.String(), Ctx: c}
}

// memTree builds an in-memory tracked tree.
func memTree(files map[string]string) *gatetest.Tree {
	return &gatetest.Tree{Data: files, Modes: map[string]uint32{}}
}

// writeFiles writes each file under dir, creating parents.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// git runs git in dir, failing the test on error.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// scratchRepo initialises a repository in a temp dir holding files, with
// the tracked ones added to the index.
func scratchRepo(t testing.TB, tracked, untracked map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	writeFiles(t, dir, tracked)
	if len(tracked) > 0 {
		git(t, dir, "add", "-A")
	}
	writeFiles(t, dir, untracked)
	return dir
}

// nonRepoDir answers a temp dir git places in no work tree, skipping the
// test where the temp root itself sits inside a repository.
func nonRepoDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("git", "rev-parse", "--is-inside-work-tree")
	cmd.Dir = dir
	if out, err := cmd.Output(); err == nil && strings.TrimSpace(string(out)) == "true" {
		t.Skip("the temp root is inside a git work tree")
	}
	return dir
}

// snapTree adapts a repo snapshot to gate.Tree.
type snapTree struct{ s *repo.Snapshot }

func (t snapTree) Files() ([]string, error)       { return t.s.Files(), nil }
func (t snapTree) Read(p string) ([]byte, error)  { return t.s.Read(p) }
func (t snapTree) Mode(p string) (uint32, bool)   { return t.s.Mode(p) }
func diskTree(t testing.TB, dir string) gate.Tree { return snapTree{mustSnap(t, dir)} }
func mustSnap(t testing.TB, dir string) *repo.Snapshot {
	t.Helper()
	s, err := repo.NewSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// errTree is a tree that cannot be listed, as outside a repository.
type errTree struct{}

func (errTree) Files() ([]string, error)    { return nil, os.ErrNotExist }
func (errTree) Read(string) ([]byte, error) { return nil, os.ErrNotExist }
func (errTree) Mode(string) (uint32, bool)  { return 0, false }

// wantCode fails unless the run exited with code; it prints both streams.
func wantCode(t *testing.T, got gatetest.Run, code int) {
	t.Helper()
	if got.Code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%sstderr:\n%s", got.Code, code, got.Stdout, got.Stderr)
	}
}

// wantOut fails unless every line is in stdout.
func wantOut(t *testing.T, got gatetest.Run, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains(got.Stdout, l) {
			t.Errorf("stdout lacks %q\nstdout:\n%s", l, got.Stdout)
		}
	}
}

// wantNotOut fails if any string appears in stdout.
func wantNotOut(t *testing.T, got gatetest.Run, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if strings.Contains(got.Stdout, s) {
			t.Errorf("stdout holds %q\nstdout:\n%s", s, got.Stdout)
		}
	}
}

func TestHygieneFamilyRegistered(t *testing.T) {
	want := []string{"check-commit-msg", "check-commit-subject", "check-core-files", "check-exec-bit", "check-harness-literal",
		"check-identity", "check-portability-floor", "check-root-tiering", "check-tree-terms", "check-workflow-tiering"}
	got := map[string]bool{}
	for _, d := range hygieneGates() {
		if d.Rule == nil {
			t.Errorf("%s has no rule", d.Name)
		}
		got[d.Name] = true
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("%s not registered", w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("registered %d gates, want %d", len(got), len(want))
	}
}

func TestValveWindow(t *testing.T) {
	lines := splitLines([]byte("a\n# mark: why\nX\n\n# mark:\nX\n<!-- mark: -->\nX\n<!-- mark: --> tail\nX\n<!-- mark: real reason -->\nX\nX"))
	cases := []struct {
		i    int
		want bool
	}{
		{2, true},   // valve on the line above
		{1, true},   // valve on the line itself
		{5, false},  // empty reason above
		{7, false},  // empty reason before the closer
		{9, false},  // reason closed mid-line, the tail is not a reason
		{11, true},  // reason inside the comment
		{12, false}, // two lines below the valve
		{0, false},
	}
	for _, c := range cases {
		if got := valved(lines, c.i, "mark:"); got != c.want {
			t.Errorf("line %d (%q): valved = %v, want %v", c.i+1, lines[c.i], got, c.want)
		}
	}
}

func TestSplitLines(t *testing.T) {
	cases := map[string][]string{
		"":         nil,
		"a":        {"a"},
		"a\n":      {"a"},
		"a\n\nb":   {"a", "", "b"},
		"\n":       {""},
		"a\r\nb\n": {"a\r", "b"},
	}
	for in, want := range cases {
		got := splitLines([]byte(in))
		if len(got) != len(want) {
			t.Errorf("%q: %d lines, want %d", in, len(got), len(want))
			continue
		}
		for i := range want {
			if string(got[i]) != want[i] {
				t.Errorf("%q line %d = %q, want %q", in, i, got[i], want[i])
			}
		}
	}
}

func TestTreePath(t *testing.T) {
	c := &gate.Context{Dir: "/r/top"}
	cases := map[string]string{
		"scripts/x.list":        "scripts/x.list",
		"./scripts/x.list":      "scripts/x.list",
		"/r/top/scripts/x.list": "scripts/x.list",
		"/elsewhere/x.list":     "/elsewhere/x.list",
		"dir/":                  "dir",
		".":                     ".",
	}
	for in, want := range cases {
		if got := treePath(c, in); got != want {
			t.Errorf("treePath(%q) = %q, want %q", in, got, want)
		}
	}
}
