package payload

// Unit tests of the file primitives the packer, init and the consumer
// smoke share.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func mode(t *testing.T, p string) os.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode()
}

func TestParentOf(t *testing.T) {
	for in, want := range map[string]string{
		"a/b/c": "a/b",
		"a/b":   "a",
		"b":     ".",
		"/b":    ".",
		"":      ".",
	} {
		if got := parentOf(in); got != want {
			t.Errorf("parentOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPlaceArtifactKeepsTheModeAndMakesParents(t *testing.T) {
	dir := t.TempDir()
	from := filepath.Join(dir, "gates")
	if err := os.WriteFile(from, []byte("binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(dir, "out", "deep", "gates")
	if err := PlaceArtifact(from, to); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(to); string(data) != "binary" {
		t.Errorf("placed %q", data)
	}
	if m := mode(t, to).Perm(); m != 0o755 {
		t.Errorf("mode %v, want 0755", m)
	}
	if err := PlaceArtifact(filepath.Join(dir, "absent"), filepath.Join(dir, "x")); err == nil {
		t.Error("an absent artifact was placed")
	}
	// A parent that is a file cannot be made.
	if err := PlaceArtifact(from, filepath.Join(from, "x")); err == nil {
		t.Error("placed under a file")
	}
}

func TestCopyFileSetsTheModeAbsolutely(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(from, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, []byte("older and longer"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := CopyFile(from, to, 0o644); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(to); string(data) != "new" {
		t.Errorf("copied %q", data)
	}
	if m := mode(t, to).Perm(); m != 0o644 {
		t.Errorf("mode %v, want 0644", m)
	}
	if err := CopyFile(filepath.Join(dir, "absent"), to, 0o644); err == nil {
		t.Error("an absent file was copied")
	}
	if err := CopyFile(from, filepath.Join(dir, "no", "such"), 0o644); err == nil {
		t.Error("copied into a missing directory")
	}
	// A source that opens but cannot be read (a directory) is a failure,
	// whatever closing the copy answers.
	if err := CopyFile(dir, filepath.Join(dir, "c"), 0o644); err == nil {
		t.Error("a directory was copied as a file")
	}
}

func TestCopyTree(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	writeFile(t, src, "a.txt", "a")
	writeFile(t, src, "sub/deeper/b.sh", "b")
	if err := os.Chmod(filepath.Join(src, "sub", "deeper", "b.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(src, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	if err := CopyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	if s, _ := readFile(t, dst, "a.txt"); s != "a" {
		t.Errorf("a.txt %q", s)
	}
	if s, _ := readFile(t, dst, "sub/deeper/b.sh"); s != "b" {
		t.Errorf("b.sh %q", s)
	}
	if m := mode(t, filepath.Join(dst, "sub", "deeper", "b.sh")).Perm(); m != 0o755 {
		t.Errorf("b.sh mode %v", m)
	}
	if m := mode(t, filepath.Join(dst, "a.txt")).Perm(); m != 0o644 {
		t.Errorf("a.txt mode %v", m)
	}
	if !mode(t, filepath.Join(dst, "empty")).IsDir() {
		t.Error("empty directory not copied")
	}
	if m := mode(t, filepath.Join(dst, "link")); m&os.ModeSymlink == 0 {
		t.Errorf("link copied as %v", m)
	}
	if target, err := os.Readlink(filepath.Join(dst, "link")); err != nil || target != "a.txt" {
		t.Errorf("link names %q %v", target, err)
	}
	// Copying over what is there refuses rather than merges links.
	if err := CopyTree(src, dst); err == nil {
		t.Error("a second copy over the first placed its links again")
	}
}

func TestSidecarLineReadsBack(t *testing.T) {
	d := strings.Repeat("0f", 32)
	line := SidecarLine(d, "gates.exe")
	if line != d+"  gates.exe\n" {
		t.Fatalf("line %q", line)
	}
	got, name, err := ReadSidecar("s", []byte(line))
	if err != nil || got != d || name != "gates.exe" {
		t.Fatalf("read back %q %q %v", got, name, err)
	}
	// A CRLF line reads the same.
	if got, name, err := ReadSidecar("s", []byte(d+"  gates\r\n")); err != nil || got != d || name != "gates" {
		t.Fatalf("CRLF %q %q %v", got, name, err)
	}
	if _, _, err := ReadSidecar("s", []byte(d+"  gates\n\n")); err == nil || err.Error() != "s: a sidecar holds one line" {
		t.Fatalf("two lines: %v", err)
	}
	if _, _, err := ReadSidecar("s", []byte(d+"1  gates\n")); err == nil || !strings.HasPrefix(err.Error(), "s:1: not a ") {
		t.Fatalf("65 digits: %v", err)
	}
	for _, bad := range []string{d + "  a\\b\n", d + "  \n", d + "  *\n", strings.Repeat("0g", 32) + "  a\n"} {
		if _, _, err := ReadSidecar("s", []byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if d, err := FileDigest(filepath.Join(t.TempDir(), "absent")); err == nil {
		t.Errorf("absent file digested %q", d)
	}
}
