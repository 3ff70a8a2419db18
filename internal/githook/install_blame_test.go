package githook

import (
	"path/filepath"
	"strings"
	"testing"
)

// assertion F: blame's ignore list set says nothing on stderr; a key
// that is not set unsets without complaint.
func TestInstallBlameQuietAndUnsetAbsentKey(t *testing.T) {
	r := newInstallRig(t)
	mustWrite(t, filepath.Join(r.dir, ".git-blame-ignore-revs"), "")
	if code := r.install(); code != 0 || strings.Contains(r.errb.String(), "blame") {
		t.Fatalf("exit %d, stderr %q", code, r.errb.String())
	}
	if err := unsetConfig(r.dir, "gates.never-set"); err != nil {
		t.Fatalf("unsetting an absent key: %v", err)
	}
	if err := unsetConfig(r.dir, "blame.ignoreRevsFile"); err != nil {
		t.Fatalf("unsetting a set key: %v", err)
	}
	if v, set := r.config("blame.ignoreRevsFile"); set {
		t.Fatalf("blame.ignoreRevsFile still %q", v)
	}
}
