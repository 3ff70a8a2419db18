package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 42 item 14: a standalone gate's operands resolve from the caller's
// directory, as --files and --run --for do; one that leaves the tree is
// refused, named, with exit 2, and never read.
func TestStandaloneGateOperandsFromCaller(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	term := "forbidden" + "-word"
	write(t, filepath.Join(c.dir, "scripts/msg-patterns.list"), "# none\n", 0o644)
	write(t, filepath.Join(c.dir, "lists/p.list"), term+"\n", 0o644)
	write(t, filepath.Join(c.dir, "docs/a.md"), "holds "+term+"\n", 0o644)
	write(t, filepath.Join(c.dir, "notes.md"), "clean\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "seed")
	// A pattern list outside the repository, beside it.
	outside := filepath.Join(filepath.Dir(c.dir), filepath.Base(c.dir)+"-outside.list")
	write(t, outside, "clean\n", 0o644)
	t.Cleanup(func() { os.Remove(outside) })
	gates := filepath.Join(c.dir, "bin/gates")
	docs := filepath.Join(c.dir, "docs")

	for _, tc := range []struct {
		name string
		dir  string
		args []string
		code int
		want string
	}{
		{"from the top", c.dir, []string{"docs", "lists/p.list"}, 1, "docs/a.md"},
		{"from docs, its own root", docs, []string{".", "../lists/p.list"}, 1, "docs/a.md"},
		{"from docs, the top as root", docs, []string{"..", "../lists/p.list"}, 1, "docs/a.md"},
		{"root leaving the tree", c.dir, []string{"..", "lists/p.list"}, 2, ".."},
		{"pattern list leaving the tree", c.dir, []string{".", "../" + filepath.Base(outside)}, 2, "../" + filepath.Base(outside)},
		{"rooted pattern list outside", c.dir, []string{".", outside}, 2, outside},
		{"from docs, climbing out", docs, []string{"../..", "../lists/p.list"}, 2, "../.."},
	} {
		r := run(t, tc.dir, c.env, gates, append([]string{"check-tree-terms"}, tc.args...)...)
		if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, tc.want) {
			t.Errorf("%s: exit %d, want %d naming %q\n%s%s", tc.name, r.code, tc.code, tc.want, r.stdout, r.stderr)
		}
	}
	// check-root-tiering's gates dir: `..` from docs is the top's scripts'
	// parent, the top itself; from the top it leaves the tree.
	if r := run(t, c.dir, c.env, gates, "check-root-tiering", ".."); r.code != 2 || !strings.Contains(r.stderr, "operand ..") {
		t.Errorf("check-root-tiering .. from the top: exit %d, want 2 naming it\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := run(t, docs, c.env, gates, "check-root-tiering", "../scripts"); r.code == 2 {
		t.Errorf("check-root-tiering ../scripts from docs: exit 2\n%s%s", r.stdout, r.stderr)
	}
	// A word operand is no path: the version after --dist's directory
	// reaches the rule as written from a subdirectory too.
	r := run(t, docs, c.env, gates, "check-release-assets", "--dist", "../dist", "1.2.3")
	if strings.Contains(r.stdout+r.stderr, "docs/1.2.3") || strings.Contains(r.stdout+r.stderr, "does not name a path") {
		t.Errorf("the version was read as a path: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
