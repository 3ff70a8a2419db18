//go:build unix

package e2e

// A tracked workflow whose work-tree path holds something other than a
// regular file (a directory, a FIFO) was left out of the Actions scan by
// the disk walk, so every Actions gate printed clean on a workflow it had
// not read, and the pre-commit hook let the staged blob through. The scan
// now keeps such an entry: the hook reads the staged blob, the battery
// refuses it (exit 2) naming the path and what is there.

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

func TestTrackedWorkflowThatIsNoFileOnDisk(t *testing.T) {
	t.Parallel()
	const wf = "on: push\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
	s := newScratch(t)
	s.write(".github/workflows/ci.yml", wf, 0o644)
	s.write("scripts/gates.list", "check-action-pinning\n", 0o644)
	s.write("scripts/check-action-pinning.gate", string(mustRead(t, moduleRoot+"/kits/gate-sdk/checks/check-action-pinning.gate")), 0o644)
	s.git("add", "-A")
	s.git("commit", "-q", "-m", "init")
	ci := s.dir + "/.github/workflows/ci.yml"
	gates := []string{"check-action-pinning", "check-action-permissions", "check-action-run-shell", "check-action-run-path", "check-action-gh-repo"}
	replace := func(kind string) {
		t.Helper()
		if err := os.Remove(ci); err != nil {
			t.Fatal(err)
		}
		switch kind {
		case "directory":
			if err := os.Mkdir(ci, 0o755); err != nil {
				t.Fatal(err)
			}
		case "named pipe":
			if err := syscall.Mkfifo(ci, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// "missing from the work tree": deleted without git rm, as
	// check-tree-terms refuses it too.
	for _, kind := range []string{"directory", "named pipe", "missing from the work tree"} {
		replace(kind)
		for _, g := range gates {
			code, out := s.run(nil, binPath, g)
			if code != 2 || !strings.Contains(out, ".github/workflows/ci.yml") || !strings.Contains(out, kind) {
				t.Errorf("%s over a tracked workflow that is a %s on disk: exit %d, want 2 naming the path and what is there\n%s", g, kind, code, out)
			}
		}
		// Staged, the commit records the blob whatever the disk holds:
		// the hook judges that blob.
		if err := os.RemoveAll(ci); err != nil {
			t.Fatal(err)
		}
		s.write(".github/workflows/ci.yml", wf+"# staged\n", 0o644)
		s.git("add", ".github/workflows/ci.yml")
		replace(kind)
		code, out := s.run(nil, binPath, "--git-hook", "pre-commit")
		if code != 1 || !strings.Contains(out, ".github/workflows/ci.yml:7: uses: actions/checkout@v4 is pinned to @v4") {
			t.Errorf("the hook over a staged workflow that is a %s on disk: exit %d, want 1 naming the tag pin\n%s", kind, code, out)
		}
		if err := os.RemoveAll(ci); err != nil {
			t.Fatal(err)
		}
		s.git("reset", "-q")
		s.write(".github/workflows/ci.yml", wf, 0o644)
	}
}
