package gates

import (
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

var rootKnobs = gatetest.Knobs{
	"GATE_SDK_ROOT_ALLOWLIST": "scripts/root-allowlist.list",
	"GATE_SDK_QUEUE_FILE":     "TASK-QUEUE.md",
	"GATE_SDK_AGENT_FILE":     "CLAUDE.md",
}

func rootRun(t *testing.T, tracked map[string]string, disk map[string]string, knobs gatetest.Knobs, args ...string) gatetest.Run {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, disk)
	k := gatetest.Knobs{}
	for n, v := range rootKnobs {
		k[n] = v
	}
	for n, v := range knobs {
		k[n] = v
	}
	var tree gate.Tree = memTree(tracked)
	if tracked == nil {
		tree = errTree{}
	}
	return run{rule: checkRootTiering, name: "check-root-tiering", dir: dir, tree: tree, knobs: k, args: args}.exec()
}

func TestRootTieringBuiltInSet(t *testing.T) {
	ok := map[string]string{"README.md": "", "CLAUDE.md": "", ".gitignore": "", "SPEC-rename.md": "", "LICENSE": "", "TASK-QUEUE.md": ""}
	got := rootRun(t, ok, nil, nil)
	wantCode(t, got, 0)
	wantOut(t, got, "ROOT-TIERING: clean (6 top-level entries allowed by the built-in set, no scripts/root-allowlist.list)")

	bad := map[string]string{"README.md": "", "notes.txt": "", "scratch/tmp.md": "", "scratch/b.md": "", "AGENTS.md": ""}
	got = rootRun(t, bad, nil, nil)
	wantCode(t, got, 1)
	wantOut(t, got, "notes.txt: tracked top-level entry is not on the root allowlist", "scratch: tracked top-level entry", "AGENTS.md: tracked", "help: ")
	wantNotOut(t, got, "README.md:", "scratch/")

	// The agent-file knob moves the built-in entry.
	got = rootRun(t, map[string]string{"AGENTS.md": ""}, nil, gatetest.Knobs{"GATE_SDK_AGENT_FILE": "AGENTS.md"})
	wantCode(t, got, 0)
	// A queue file under a directory admits that directory.
	got = rootRun(t, map[string]string{".workflow/queue.md": ""}, nil, gatetest.Knobs{"GATE_SDK_QUEUE_FILE": ".workflow/queue.md"})
	wantCode(t, got, 0)
}

func TestRootTieringAllowlist(t *testing.T) {
	disk := map[string]string{"scripts/root-allowlist.list": "# roots\nsrc\n\ndocs/\n./SPEC-*.md\nscripts\n"}
	got := rootRun(t, map[string]string{"src/a.go": "", "docs/x.md": "", "tools/x.sh": "", "SPEC-a.md": "", "README.md": "", "scripts/root-allowlist.list": ""}, disk, nil)
	wantCode(t, got, 1)
	// A present file replaces the built-in set: README.md is not on it.
	wantOut(t, got, "tools: tracked top-level entry is not on the root allowlist (scripts/root-allowlist.list)", "README.md: tracked")
	wantNotOut(t, got, "src:", "docs:", "SPEC-a.md:", "scripts:")

	// An unreadable allowlist refuses; absent is not unreadable.
	wantCode(t, rootRun(t, map[string]string{"a": ""}, map[string]string{"scripts/root-allowlist.list/x": ""}, nil), 2)
	// Outside a repository: exit 2.
	wantCode(t, rootRun(t, nil, nil, nil), 2)
}

func TestRootTieringPositionals(t *testing.T) {
	disk := map[string]string{"cfg/root-allowlist.list": "keep\n"}
	// The gates-dir positional relocates the allowlist; the root scopes the scan.
	got := rootRun(t, map[string]string{"sub/keep/a": "", "sub/drop/b": "", "other/c": ""}, disk, nil, "cfg", "sub")
	wantCode(t, got, 1)
	wantOut(t, got, "drop: tracked top-level entry is not on the root allowlist (cfg/root-allowlist.list)")
	wantNotOut(t, got, "keep:", "other")
	wantCode(t, rootRun(t, map[string]string{"a": ""}, nil, nil, "a", "b", "c"), 2)
}

// TestRootTieringRootNamesSomething pins that a root operand is spelled as
// the listing spells it and that one naming nothing is refused, never a
// clean "0 top-level entries".
func TestRootTieringRootNamesSomething(t *testing.T) {
	tracked := map[string]string{"pkg/README.md": "", "pkg/stray.txt": "", "pkg/f": ""}
	for _, root := range []string{"pkg", "./pkg/", "pkg/."} {
		got := rootRun(t, tracked, nil, nil, "scripts", root)
		wantCode(t, got, 1)
		wantOut(t, got, "stray.txt: tracked top-level entry")
	}
	for _, root := range []string{"pgk", "pkg/f"} {
		got := rootRun(t, tracked, nil, nil, "scripts", root)
		wantCode(t, got, 2)
		if got.Stdout != "" {
			t.Errorf("root %q: want no clean line, got %q", root, got.Stdout)
		}
	}
}

// Issue 42 item 14: a gates-dir operand that leaves the run directory is
// refused, named; the allowlist beyond it is never read.
func TestRootTieringGatesDirOutsideIsRefused(t *testing.T) {
	for _, dir := range []string{"..", "../elsewhere", "cfg/../..", "/etc"} {
		got := rootRun(t, map[string]string{"README.md": ""}, nil, nil, dir)
		wantCode(t, got, 2)
		if !strings.Contains(got.Stderr, "gates-dir "+dir+" lies outside the run directory") {
			t.Errorf("gates-dir %s: stderr %q, want the refusal naming it", dir, got.Stderr)
		}
	}
	// Inside, spelled any way, it still relocates the allowlist.
	disk := map[string]string{"cfg/root-allowlist.list": "keep\n"}
	got := rootRun(t, map[string]string{"keep/a": "", "drop/b": ""}, disk, nil, "./cfg/")
	wantCode(t, got, 1)
	wantOut(t, got, "drop: tracked top-level entry is not on the root allowlist (cfg/root-allowlist.list)")
}
