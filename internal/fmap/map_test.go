//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fmap

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Issue 42 items 4 and 8: a mapped read opens nothing it could block on
// and reads nothing without end: a FIFO and a link to /dev/zero are
// refused; a regular file, empty or not, reads whole.
func TestMapReadsOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"empty": "", "full": "bytes\n"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		data, release, err := Map(p)
		if err != nil || string(data) != body {
			t.Errorf("%s: %q %v", name, data, err)
		}
		if release != nil {
			release()
		}
	}
	fifo := filepath.Join(dir, "fifo")
	if err := exec.Command("mkfifo", fifo).Run(); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, zero, dir} {
		if _, _, err := Map(p); !errors.Is(err, ErrNotRegular) {
			t.Errorf("Map(%s) = %v, want ErrNotRegular", p, err)
		}
	}
}
