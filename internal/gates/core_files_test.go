package gates

import (
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

func coreRun(t *testing.T, tracked []string, disk map[string]string, kitRoots []string, args ...string) gatetest.Run {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, disk)
	var tree gate.Tree = errTree{}
	if tracked != nil {
		m := map[string]string{}
		for _, p := range tracked {
			m[p] = ""
		}
		tree = memTree(m)
	}
	return run{rule: checkCoreFiles, name: "check-core-files", dir: dir, tree: tree,
		knobs: gatetest.Knobs{"GATE_SDK_CORE_FILES_FILE": "scripts/core-files.list"}, kitRoots: kitRoots, args: args}.exec()
}

func TestCoreFiles(t *testing.T) {
	disk := map[string]string{
		"scripts/core-files.list": "# pinned\nREADME.md\n./docs/\nkit:SPEC.md\n\ngone.md\nuntracked.md\n",
		"README.md":               "", "docs/a.md": "", "a-kit/SPEC.md": "", "untracked.md": "",
	}
	tracked := []string{"README.md", "docs/a.md", "a-kit/SPEC.md", "b-kit/SPEC.md", "gone.md", "scripts/core-files.list"}
	got := coreRun(t, tracked, disk, []string{"a-kit", "b-kit/"})
	wantCode(t, got, 1)
	wantOut(t, got,
		"b-kit/SPEC.md: core file listed in scripts/core-files.list:4 as kit:SPEC.md is missing from the worktree",
		"gone.md: core file listed in scripts/core-files.list:6 is missing from the worktree",
		"untracked.md: core file listed in scripts/core-files.list:7 exists but is not tracked",
		"help: restore the file", "help: git add the file")
	wantNotOut(t, got, "README.md:", "docs:", "a-kit/SPEC.md:")

	// All present and tracked.
	got = coreRun(t, tracked, map[string]string{"scripts/core-files.list": "README.md\nkit:SPEC.md\n", "README.md": "", "a-kit/SPEC.md": "", "b-kit/SPEC.md": ""}, []string{"a-kit", "b-kit"})
	wantCode(t, got, 0)
	wantOut(t, got, "CORE-FILES: clean (3 core files present and tracked)")
}

func TestCoreFilesPostures(t *testing.T) {
	got := coreRun(t, []string{"a"}, nil, nil)
	wantCode(t, got, 0)
	wantOut(t, got, "CORE-FILES: clean (no manifest at scripts/core-files.list: no core file pinned)")

	got = coreRun(t, []string{"a"}, map[string]string{"scripts/core-files.list": "# nothing\n\n"}, nil)
	wantCode(t, got, 0)
	wantOut(t, got, "lists no path")

	wantCode(t, coreRun(t, []string{"a"}, map[string]string{"scripts/core-files.list/x": ""}, nil), 2)
	wantCode(t, coreRun(t, nil, map[string]string{"scripts/core-files.list": "a\n"}, nil), 2)

	for _, w := range []string{"kit:checks/*.sh", "kit:a?.md", "kit:[ab].md"} {
		got := coreRun(t, []string{"a"}, map[string]string{"scripts/core-files.list": w + "\n"}, []string{"k"})
		wantCode(t, got, 2)
		if !strings.Contains(got.Stderr, "wildcard") || !strings.Contains(got.Stderr, "scripts/core-files.list:1") {
			t.Errorf("%s: refusal %q does not name the limit and line", w, got.Stderr)
		}
	}
	// kit: with no kit root resolved refuses rather than checking nothing.
	wantCode(t, coreRun(t, []string{"a"}, map[string]string{"scripts/core-files.list": "kit:SPEC.md\n"}, nil), 2)

	// The positional overrides the knob.
	got = coreRun(t, []string{"x"}, map[string]string{"m.list": "x\n", "x": ""}, nil, "m.list")
	wantCode(t, got, 0)
	wantOut(t, got, "1 core files present and tracked")
}

// A listed path the tracked listing cannot spell (one through "..", one
// outside the repository, the top itself) cannot be judged tracked: it is
// refused naming its manifest line, never reported as "exists but is not
// tracked" over a file git does track. A line the filesystem refuses to
// look up names its line too.
func TestCoreFilesRefusesAPathTheListingCannotSpell(t *testing.T) {
	tracked := []string{"README.md", "scripts/core-files.list", "scripts/x"}
	disk := map[string]string{"README.md": "", "scripts/x": ""}
	for _, line := range []string{"scripts/../README.md", "../outside", "/etc/passwd", ".", "./", "kit:../README.md", "READ\x00ME.md"} {
		disk["scripts/core-files.list"] = "README.md\n" + line + "\n"
		got := coreRun(t, tracked, disk, []string{"scripts"})
		wantCode(t, got, 2)
		if !strings.Contains(got.Stderr, "scripts/core-files.list:2") {
			t.Errorf("%q: refusal %q does not name the manifest line", line, got.Stderr)
		}
		wantNotOut(t, got, "not tracked", "clean")
	}
}
