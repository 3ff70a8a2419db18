//go:build !windows

package walk

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadConfigRefusesWhatIsNotASmallRegularFile(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "reg")
	if err := os.WriteFile(reg, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("reg", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{reg, link} {
		if data, err := ReadConfig(p); err != nil || string(data) != "a\n" {
			t.Errorf("ReadConfig(%s) = %q, %v; want its bytes", p, data, err)
		}
	}
	if _, err := ReadConfig(filepath.Join(dir, "absent")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an absent file: %v, want ErrNotExist", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, zero, dir} {
		_, err := ReadConfig(p)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), p) {
			t.Errorf("ReadConfig(%s) = %v, want a not-regular refusal naming it", p, err)
		}
	}
	big := filepath.Join(dir, "big")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxConfigBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := ReadConfig(big); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), big) {
		t.Errorf("ReadConfig(big) = %v, want a size refusal naming it", err)
	}
}
