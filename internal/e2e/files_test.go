package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gates --files, the hook managers' arm: a commit (GIT_INDEX_FILE set)
// is judged on the staged content whatever paths come with it; outside
// one, every tracked file is the whole battery and fewer are the gates
// they trigger, over the work tree.
func TestFilesArmModes(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	c.gate("check-md", "couples=*.md dir=one valve=none tier=precommit", "", 0)
	c.gate("check-yml", "couples=*.yml dir=one valve=none tier=precommit", "", 0)
	c.gate("check-far", "couples=never/*.txt dir=one valve=none tier=precommit", "", 0)
	c.registry("check-md", "check-yml", "check-far")
	write(t, filepath.Join(c.dir, ".gitignore"), "/bin/\n/.tmp/\n", 0o644)
	write(t, filepath.Join(c.dir, "doc.md"), "hello\n", 0o644)
	write(t, filepath.Join(c.dir, "ci.yml"), "on: push\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "seed")
	tracked := strings.Split(strings.TrimSuffix(c.git("ls-files", "-z").stdout, "\x00"), "\x00")

	ran := func(args []string, env ...string) (result, string) {
		t.Helper()
		os.RemoveAll(filepath.Join(c.dir, ".tmp"))
		r := run(t, c.dir, append(append([]string(nil), c.env...), env...), filepath.Join(c.dir, "bin/gates"), append([]string{"--files"}, args...)...)
		var names []string
		for _, g := range []string{"check-md", "check-yml", "check-far"} {
			if c.ran(g) {
				names = append(names, g)
			}
		}
		return r, strings.Join(names, " ")
	}

	// Every tracked file: the battery, check-far (coupled to no tracked
	// path) included.
	r, got := ran(tracked)
	if r.code != 0 || got != "check-md check-yml check-far" {
		t.Fatalf("every tracked file: exit %d, ran %q; want the battery\n%s%s", r.code, got, r.stdout, r.stderr)
	}
	// "./" spellings are the same paths.
	var dotted []string
	for _, p := range tracked {
		dotted = append(dotted, "./"+p)
	}
	if r, got := ran(dotted); r.code != 0 || got != "check-md check-yml check-far" {
		t.Fatalf("./ spellings: exit %d, ran %q; want the battery", r.code, got)
	}
	// A subset: the gates it triggers.
	if r, got := ran([]string{"doc.md"}); r.code != 0 || got != "check-md" {
		t.Fatalf("doc.md alone: exit %d, ran %q; want check-md\n%s%s", r.code, got, r.stdout, r.stderr)
	}
	// A tracked file gone from the work tree is not one a manager lists.
	if err := os.Remove(filepath.Join(c.dir, "ci.yml")); err != nil {
		t.Fatal(err)
	}
	var present []string
	for _, p := range tracked {
		if p != "ci.yml" {
			present = append(present, p)
		}
	}
	if r, got := ran(present); got != "check-md check-yml check-far" {
		t.Fatalf("every file the work tree holds: exit %d, ran %q; want the battery", r.code, got)
	}
	c.git("checkout", "--", "ci.yml")

	// Inside a commit: the staged set decides, not the paths.
	write(t, filepath.Join(c.dir, "doc.md"), "changed\n", 0o644)
	c.git("add", "doc.md")
	if r, got := ran(tracked, "GIT_INDEX_FILE=.git/index"); r.code != 0 || got != "check-md" || !strings.Contains(r.stdout, "pre-commit: 1 gate(s) passed.") {
		t.Fatalf("in a commit: exit %d, ran %q; want the staged doc.md's check-md\n%s%s", r.code, got, r.stdout, r.stderr)
	}
	// No path at all is the staged run too.
	if r, got := ran(nil); r.code != 0 || got != "check-md" {
		t.Fatalf("no path: exit %d, ran %q; want the staged doc.md's check-md\n%s%s", r.code, got, r.stdout, r.stderr)
	}
}

// Issue 42 items 6 and 14: every operand after --files is a path (a tracked
// file named --help or -h is judged, not read as a request for usage), a
// leading -- is honoured, and operands resolve from the caller's directory.
func TestFilesArmOperandsArePaths(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	c.gate("check-md", "couples=*.md dir=one valve=none tier=precommit", "", 0)
	c.gate("check-dash", "couples=-* dir=one valve=none tier=precommit", "", 0)
	c.registry("check-md", "check-dash")
	write(t, filepath.Join(c.dir, ".gitignore"), "/bin/\n/.tmp/\n", 0o644)
	write(t, filepath.Join(c.dir, "doc.md"), "hello\n", 0o644)
	write(t, filepath.Join(c.dir, "sub/inner.md"), "hello\n", 0o644)
	write(t, filepath.Join(c.dir, "--help"), "leak\n", 0o644)
	write(t, filepath.Join(c.dir, "-h"), "leak\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "seed")
	tracked := strings.Split(strings.TrimSuffix(c.git("ls-files", "-z").stdout, "\x00"), "\x00")

	ran := func(dir string, args []string) (result, string) {
		t.Helper()
		os.RemoveAll(filepath.Join(c.dir, ".tmp"))
		r := run(t, dir, c.env, filepath.Join(c.dir, "bin/gates"), append([]string{"--files"}, args...)...)
		var names []string
		for _, g := range []string{"check-md", "check-dash"} {
			if c.ran(g) {
				names = append(names, g)
			}
		}
		return r, strings.Join(names, " ")
	}
	for _, tc := range []struct {
		name string
		dir  string
		args []string
		want string
	}{
		{"every tracked file, --help among them", c.dir, tracked, "check-md check-dash"},
		{"--help first", c.dir, []string{"--help", "doc.md"}, "check-md check-dash"},
		{"-h alone", c.dir, []string{"-h"}, "check-dash"},
		{"-- then -h", c.dir, []string{"--", "-h"}, "check-dash"},
		{"-- then doc.md", c.dir, []string{"--", "doc.md"}, "check-md"},
		{"from a subdirectory, ../doc.md", filepath.Join(c.dir, "sub"), []string{"../doc.md"}, "check-md"},
		{"from a subdirectory, ../-h", filepath.Join(c.dir, "sub"), []string{"../-h"}, "check-dash"},
	} {
		r, got := ran(tc.dir, tc.args)
		if r.code != 0 || got != tc.want || strings.Contains(r.stdout, "usage") {
			t.Errorf("%s: exit %d, ran %q; want %q\n%s%s", tc.name, r.code, got, tc.want, r.stdout, r.stderr)
		}
	}
	// An operand that leaves the tree is refused, named.
	r, _ := ran(filepath.Join(c.dir, "sub"), []string{"../../elsewhere.md"})
	if r.code != 2 || !strings.Contains(r.stderr, "../../elsewhere.md") {
		t.Errorf("outside operand: exit %d, want 2 naming it\n%s%s", r.code, r.stdout, r.stderr)
	}
}
