package digest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A file's digest is its bytes' digest; a missing file is an error, never
// the digest of nothing.
func TestFileIsItsBytes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got := Bytes([]byte("abc")); got != want {
		t.Fatalf("Bytes = %s, want %s", got, want)
	}
	if got, err := File(p); err != nil || got != want {
		t.Fatalf("File = %s, %v; want %s", got, err, want)
	}
	if _, err := File(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Fatal("a missing file has a digest")
	}
}

// Issue 42 item 8: a FIFO or a device is no file to digest: an error,
// never a blocked open or a read without end.
func TestFileRefusesWhatIsNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := exec.Command("mkfifo", fifo).Run(); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, zero} {
		if _, err := File(p); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("File(%s) = %v, want a refusal", p, err)
		}
	}
}
