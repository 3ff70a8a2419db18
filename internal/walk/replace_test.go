package walk

import (
	"os"
	"path/filepath"
	"testing"
)

// ReplaceFile leaves the new bytes and no sibling; a rename it cannot make
// (the name is a directory) keeps the old state and removes the sibling.
func TestReplaceFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "rec")
	for _, body := range []string{"one\n", "two\n"} {
		if err := ReplaceFile(p, []byte(body)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(p); string(got) != body {
			t.Fatalf("read %q, want %q", got, body)
		}
	}
	taken := filepath.Join(dir, "taken")
	if err := os.MkdirAll(filepath.Join(taken, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceFile(taken, []byte("z")); err == nil {
		t.Fatal("a rename over a non-empty directory answered no error")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(m) != 0 {
		t.Fatalf("siblings left: %v", m)
	}
}
