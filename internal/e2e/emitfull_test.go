//go:build linux

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// A projection is its stdout: a caller redirects it into a file and uses
// that file. Written to a full disk, every emit arm answers exit 2 and
// says the projection was not written, instead of exit 0 over a file left
// empty or cut short (fixture-suites and port-blockers dropped the write
// error). /dev/full, which answers every write with ENOSPC, is Linux's.
func TestEmitToAFullDiskIsExitTwo(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.copyTree(filepath.Join(moduleRoot, "kits", "gate-sdk", "checks"), filepath.Join(s.dir, "gate-sdk", "checks"))
	s.write("scripts/gates.list", "check-tree-terms\ncheck-shellcheck\n", 0o644)
	s.git("add", "-A")
	for _, emit := range [][]string{
		{"kit-roots"}, {"knob-values", "GATE_SDK_KIT_DIRS"}, {"knob-roster"}, {"fixture-suites"},
		{"port-blockers"}, {"port-blockers", "--group"}, {"port-blockers", "--tree"},
	} {
		argv := append([]string{"--emit"}, emit...)
		if code, out := s.run(nil, binPath, argv...); code != 0 || out == "" {
			t.Errorf("%s to a pipe: exit %d, want 0 with output\n%s", strings.Join(emit, " "), code, out)
			continue
		}
		sh := append([]string{"-c", `exec "$0" "$@" >/dev/full`, binPath}, argv...)
		code, out := s.run(nil, "sh", sh...)
		if code != 2 || !strings.Contains(out, "no space left on device") {
			t.Errorf("%s to a full disk: exit %d, want 2 naming the failed write\n%s", strings.Join(emit, " "), code, out)
		}
	}
}
