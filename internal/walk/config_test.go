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

func TestReadConfigInKeepsLinksInTheTree(t *testing.T) {
	top, other := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(top, "real"), []byte("in\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "far"), []byte("out\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"in": "real", "out": filepath.Join(other, "far"), "up": "../" + filepath.Base(other) + "/far"} {
		if err := os.Symlink(target, filepath.Join(top, name)); err != nil {
			t.Fatal(err)
		}
	}
	if data, err := ReadConfigIn(top, filepath.Join(top, "in")); err != nil || string(data) != "in\n" {
		t.Errorf("a link inside the tree: %q %v", data, err)
	}
	for _, name := range []string{"out", "up"} {
		if _, err := ReadConfigIn(top, filepath.Join(top, name)); !errors.Is(err, ErrLeavesTree) {
			t.Errorf("%s: %v, want a refusal of a link that leaves the tree", name, err)
		}
	}
	// A path spelled outside the tree is read as it is named.
	if data, err := ReadConfigIn(top, filepath.Join(other, "far")); err != nil || string(data) != "out\n" {
		t.Errorf("a path outside the tree: %q %v", data, err)
	}
	if _, err := ReadConfigIn(top, filepath.Join(top, "absent")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an absent file: %v, want ErrNotExist", err)
	}
}

// resolveFile answers what filepath.EvalSymlinks answers: a plain file, a
// file under a linked directory, a link to a file, a relative name; and an
// absent name is an error, as there.
func TestResolveFileIsEvalSymlinks(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "real", "sub", "f.list"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("sub", "f.list"), filepath.Join(dir, "real", "to-f.list")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{
		filepath.Join(dir, "real", "sub", "f.list"),
		filepath.Join(dir, "linked", "sub", "f.list"),
		filepath.Join(dir, "linked", "to-f.list"),
		filepath.Join(dir, "real", "sub", ".", "f.list"),
	} {
		want, err := filepath.EvalSymlinks(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := resolveFile(name)
		if err != nil || got != want {
			t.Errorf("resolveFile(%s) = %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := resolveFile(filepath.Join(dir, "real", "absent")); err == nil {
		t.Error("an absent name resolved")
	}
	// A relative name resolves from the working directory: spelled
	// relative to it, never by entering another.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, filepath.Join(dir, "linked", "sub", "f.list"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(rel)
	if got, err := resolveFile(rel); err != nil || got != want {
		t.Errorf("a relative name resolved to %q, %v; want %q", got, err, want)
	}
}

// A dangling link exists (the link is there) but cannot be read, so it
// is not absent: a reader of an optional file must refuse it rather than
// take its defaults, or a knob file linked to a place this clone lacks
// would silently read as no configuration at all. A path whose directory
// is missing is still absent.
func TestReadConfigRefusesADanglingLink(t *testing.T) {
	top := t.TempDir()
	for name, target := range map[string]string{"dangling": "nowhere", "deep": "missing/dir/f.list", "far": "/nonexistent/gates/knobs"} {
		p := filepath.Join(top, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		for reader, read := range map[string]func(string) ([]byte, error){
			"ReadConfig":   ReadConfig,
			"ReadConfigIn": func(n string) ([]byte, error) { return ReadConfigIn(top, n) },
		} {
			_, err := read(p)
			if err == nil || errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), target) {
				t.Errorf("%s(%s -> %s) = %v; want a refusal naming the link and its target, not absent", reader, name, target, err)
			}
		}
	}
	if _, err := ReadConfig(filepath.Join(top, "no-dir", "f.list")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file in a missing directory: %v, want ErrNotExist", err)
	}
}
