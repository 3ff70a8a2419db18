package e2e

// A sparse checkout leaves entries out of the work tree; the Actions scan
// walks the disk, so it reads such entries from their blobs rather than
// judge the tree without them and call that clean.

import (
	"strings"
	"testing"
)

func TestSparseEntriesAreReadFromTheIndex(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.write(".github/workflows/ci.yml", "on: push\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n", 0o644)
	s.write("src/a.txt", "x\n", 0o644)
	s.git("add", "-A")
	s.git("commit", "-q", "-m", "init")
	s.git("sparse-checkout", "set", "src")
	if code, out := s.run(nil, "test", "-e", ".github"); code == 0 {
		t.Fatalf("the sparse checkout left .github on disk:\n%s", out)
	}
	code, out := s.run(nil, binPath, "check-action-pinning")
	if code != 1 || !strings.Contains(out, ".github/workflows/ci.yml:7: uses: actions/checkout@v4 is pinned to @v4") {
		t.Fatalf("a tag-pinned workflow outside the cone: exit %d\n%s", code, out)
	}
	// The battery reads it the same way.
	s.git("sparse-checkout", "set", "src", "scripts")
	s.write("scripts/gates.list", "check-action-pinning\n", 0o644)
	s.write("scripts/check-action-pinning.gate", string(mustRead(t, moduleRoot+"/kits/gate-sdk/checks/check-action-pinning.gate")), 0o644)
	s.git("add", "scripts")
	if code, out := s.run(nil, binPath, "--run"); code != 1 || !strings.Contains(out, "checkout@v4 is pinned to @v4") {
		t.Fatalf("the battery over a sparse checkout: exit %d\n%s", code, out)
	}
	// Pinned, it is clean, and the clean line says what came from the index.
	s.git("sparse-checkout", "disable")
	s.write(".github/workflows/ci.yml", "on: push\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n", 0o644)
	s.git("commit", "-q", "-am", "pin")
	s.git("sparse-checkout", "set", "src")
	code, out = s.run(nil, binPath, "check-action-pinning")
	if code != 0 || !strings.Contains(out, "ACTION-PINNING: clean (1 uses: ref pinned across 1 YAML file; 1 file read from the index (not on disk))") {
		t.Fatalf("a pinned workflow outside the cone: exit %d\n%s", code, out)
	}

	// At commit time a staged workflow that was then deleted from the work
	// tree is what the commit holds: the hook reads it from the index.
	s.git("sparse-checkout", "disable")
	s.write(".github/workflows/new.yml", "on: push\npermissions: {}\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-go@v5\n", 0o644)
	s.git("add", ".github/workflows/new.yml")
	s.run(nil, "rm", ".github/workflows/new.yml")
	code, out = s.run(nil, binPath, "--git-hook", "pre-commit")
	if code != 1 || !strings.Contains(out, ".github/workflows/new.yml:7: uses: actions/setup-go@v5 is pinned to @v5") {
		t.Fatalf("the hook over a staged workflow missing from disk: exit %d\n%s", code, out)
	}
}

// A directory git ignores (a virtual environment, an install cache)
// holding other projects' YAML is not read: a clone of the commit has no
// such directory, so reading it would make the local verdict differ from
// CI's. An untracked file git does not ignore is still read.
func TestIgnoredYAMLIsNotRead(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.write(".gitignore", ".venv/\n", 0o644)
	s.write(".github/workflows/ci.yml", "on: push\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n", 0o644)
	s.git("add", "-A")
	s.git("commit", "-q", "-m", "init")
	s.write(".venv/lib/pkg/.github/workflows/theirs.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n", 0o644)
	s.write(".venv/lib/pkg/action.yml", "runs:\n  using: composite\n  steps: [\n", 0o644)
	code, out := s.run(nil, binPath, "check-action-pinning")
	if code != 0 || !strings.Contains(out, "ACTION-PINNING: clean (1 uses: ref pinned across 1 YAML file") {
		t.Fatalf("YAML under an ignored directory was read: exit %d\n%s", code, out)
	}
	// Not ignored, the nested project's workflow is skipped and counted
	// (GitHub loads only the top .github/), and an untracked workflow of
	// this repository is read before it is added.
	s.write(".gitignore", "", 0o644)
	if code, out := s.run(nil, binPath, "check-action-pinning"); code != 0 || !strings.Contains(out, "1 file of a nested project's .github/ skipped") {
		t.Fatalf("the nested project's workflow was not skipped and counted: exit %d\n%s", code, out)
	}
	s.write(".github/workflows/untracked.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n", 0o644)
	if code, out := s.run(nil, binPath, "check-action-pinning"); code == 0 {
		t.Fatalf("an untracked, unignored workflow was not read: exit %d\n%s", code, out)
	}
}
