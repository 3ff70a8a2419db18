//go:build unix

package githook

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A placed hook is 0755 whatever the umask the placement ran under.
func TestPlaceMakesTheHookExecutableUnderAnyUmask(t *testing.T) {
	dir, src, p, _ := setup(t)
	old := syscall.Umask(0o177)
	defer syscall.Umask(old)
	if err := p.Place(src, PreCommit); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, PreCommit))
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("placed hook: %v %v, want mode 0755", fi.Mode(), err)
	}
}
