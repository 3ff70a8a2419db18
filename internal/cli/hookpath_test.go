package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// The hook's in-tree test reads physical paths: a file_path through a
// symbolic link to the tree, a relative one, and one not created yet are
// each spelled relative to the top; a path outside is not.
func TestHookRunnerRelCanonicalises(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	top := filepath.Join(base, "repo")
	if err := os.MkdirAll(filepath.Join(top, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, "docs", "a.md"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(top, link); err != nil {
		t.Fatal(err)
	}
	r := hookRunner{top: link, cwd: filepath.Join(top, "docs")}
	for in, want := range map[string]string{
		filepath.Join(link, "docs", "a.md"):         "docs/a.md",
		filepath.Join(top, "docs", "a.md"):          "docs/a.md",
		"a.md":                                      "docs/a.md",
		"../docs/./a.md":                            "docs/a.md",
		filepath.Join(link, "docs", "new", "b.md"):  "docs/new/b.md",
		filepath.Join(link, "docs", "..", "top.md"): "top.md",
	} {
		if got, ok := r.Rel(in); !ok || got != want {
			t.Errorf("Rel(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, out := range []string{filepath.Join(base, "elsewhere.md"), link} {
		if got, ok := r.Rel(out); ok {
			t.Errorf("Rel(%q) = %q inside the tree", out, got)
		}
	}
}
