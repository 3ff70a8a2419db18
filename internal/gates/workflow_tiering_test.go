package gates

import (
	"bytes"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
	"github.com/gate-sdk/gates/internal/spawn"
)

func wfRun(t *testing.T, dir string, knobs gatetest.Knobs) gatetest.Run {
	t.Helper()
	k := gatetest.Knobs{"GATE_SDK_WORKFLOW_DIR": ".workflow"}
	for n, v := range knobs {
		k[n] = v
	}
	return run{rule: checkWorkflowTiering, name: "check-workflow-tiering", dir: dir, tree: diskTree(t, dir), knobs: k}.exec()
}

func TestWorkflowTiering(t *testing.T) {
	dir := scratchRepo(t, map[string]string{
		".gitignore":                ".workflow/cache/\n.workflow/*.log\n",
		".workflow/queue.md":        "# contract: SPEC.md §The queue\n- a\n",
		".workflow/state.txt":       "# contract: gate-sdk/SPEC.md §State — <slug> <status>\n",
		".workflow/manifest.txt":    "# contract: evidence-manifest v2\n",
		".workflow/notes.md":        "# Notes\n",
		".workflow/empty.md":        "",
		".workflow/crlf.md":         "# contract: SPEC.md §X\r\nbody\r\n",
		".workflow/bom.md":          "\ufeff# contract: SPEC.md §X\nbody\n",
		".workflow/late-bom.md":     "# contract: SPEC.md §X\ufeff\n",
		".workflow/bom-only.md":     "\ufeff\n# contract: SPEC.md §X\n",
		".workflow/sub/deep.md":     "no header needed below a directory member\n",
		".workflow/bad-version.txt": "# contract: Evidence v2\n",
		".workflow/bad-pointer.md":  "# contract: SPEC.md\n",
		".workflow/no-section.md":   "# contract: SPEC.md §\n",
		"elsewhere/untracked-ok.md": "x\n",
	}, map[string]string{
		".workflow/scratch.md":   "untracked, unignored\n",
		".workflow/cache/blob":   "ignored\n",
		".workflow/run.log":      "ignored\n",
		".workflow/newdir/a.md":  "an untracked directory\n",
		".workflow/sub/stray.md": "untracked inside a tracked directory\n",
		"outside/untracked.md":   "not the workflow dir\n",
	})
	got := wfRun(t, dir, nil)
	wantCode(t, got, 1)
	wantOut(t, got,
		".workflow/scratch.md: neither tracked nor ignored",
		".workflow/newdir/: neither tracked nor ignored",
		".workflow/sub/stray.md: neither tracked nor ignored",
		`.workflow/notes.md:1: first line "# Notes" is not a # contract: header`,
		".workflow/empty.md:1: first line",
		".workflow/bad-version.txt:1:",
		".workflow/bad-pointer.md:1:",
		".workflow/no-section.md:1:",
		".workflow/bom-only.md:1:",
		"help: commit the member", "help: open the file with")
	// A byte-order mark opening the file is its encoding mark, not the
	// header's first character (a Windows editor writes one); the header
	// still has to be the first line, and a mark later in it is text.
	wantNotOut(t, got, "bom.md:", "queue.md", "state.txt", "manifest.txt", "crlf.md", "cache", "run.log", "deep.md", "outside", "elsewhere")
}

func TestWorkflowTieringClean(t *testing.T) {
	dir := scratchRepo(t, map[string]string{
		".gitignore":         "/.workflow/*.log\n",
		".workflow/queue.md": "# contract: SPEC.md §The queue\n",
	}, map[string]string{".workflow/a.log": "x\n"})
	got := wfRun(t, dir, nil)
	wantCode(t, got, 0)
	wantOut(t, got, "WORKFLOW-TIERING: clean (every member of .workflow is tracked or ignored; 1 tracked files carry a contract header)")
	// The knob names a directory the tree lacks: exit 2.
	wantCode(t, wfRun(t, dir, gatetest.Knobs{"GATE_SDK_WORKFLOW_DIR": "missing"}), 2)
	wantCode(t, wfRun(t, dir, gatetest.Knobs{"GATE_SDK_WORKFLOW_DIR": ".gitignore"}), 2)
	// Outside a repository: exit 2.
	out := t.TempDir()
	writeFiles(t, out, map[string]string{".workflow/a.md": "x\n"})
	got = run{rule: checkWorkflowTiering, name: "check-workflow-tiering", dir: out, tree: errTree{},
		knobs: gatetest.Knobs{"GATE_SDK_WORKFLOW_DIR": ".workflow"}}.exec()
	wantCode(t, got, 2)
}

func TestContractHeader(t *testing.T) {
	ok := []string{"# contract: SPEC.md §The queue", "# contract: a/b.md §S — <slug> TAB <n>", "# contract: fmt v1", "# contract: evidence-manifest v12"}
	bad := []string{"# contract:", "# contract: ", "#contract: SPEC.md §X", "# Contract: SPEC.md §X", "# contract: SPEC.md", "# contract: two words §X",
		"# contract: Fmt v1", "# contract: fmt v", "# contract: fmt v1x", "# contract: SPEC.md § — tail", " # contract: SPEC.md §X"}
	for _, l := range ok {
		if !contractHeader(l) {
			t.Errorf("%q refused", l)
		}
	}
	for _, l := range bad {
		if contractHeader(l) {
			t.Errorf("%q accepted", l)
		}
	}
}

// TestWorkflowTieringSpellings pins that every spelling of the directory
// gets the one verdict: none drops the header check.
func TestWorkflowTieringSpellings(t *testing.T) {
	dir := scratchRepo(t, map[string]string{".workflow/notes.md": "# Notes\n"}, nil)
	for _, spelling := range []string{".workflow", ".workflow/.", "./.workflow/", ".workflow//", dir + "/.workflow", dir + "/.workflow/."} {
		got := wfRun(t, dir, gatetest.Knobs{"GATE_SDK_WORKFLOW_DIR": spelling})
		wantCode(t, got, 1)
		wantOut(t, got, ".workflow/notes.md:1: first line")
	}
	for _, spelling := range []string{".", "./", dir, "/elsewhere/.workflow"} {
		got := wfRun(t, dir, gatetest.Knobs{"GATE_SDK_WORKFLOW_DIR": spelling})
		wantCode(t, got, 2)
	}
}

// TestWorkflowTieringAsksGitOnlyForUnlisted pins assertion D: a directory
// whose every file is listed is judged without starting git, and one
// holding anything unlisted (an ignored file included: only git knows the
// ignore rules) asks git, with A's answer unchanged.
func TestWorkflowTieringAsksGitOnlyForUnlisted(t *testing.T) {
	spawned := func(dir string) (gatetest.Run, []string) {
		rec := &spawn.Recorder{}
		c := &gate.Context{Name: "check-workflow-tiering", Dir: dir, GatesDir: "scripts",
			Env:   func(string) (string, bool) { return "", false },
			Knobs: gatetest.Knobs{"GATE_SDK_WORKFLOW_DIR": ".workflow"}, Tree: diskTree(t, dir),
			Out: &bytes.Buffer{}, Err: &bytes.Buffer{}, Spawns: rec}
		code := checkWorkflowTiering(c)
		return gatetest.Run{Code: code, Stdout: c.Out.(*bytes.Buffer).String()}, rec.Names()
	}
	tracked := map[string]string{".gitignore": "/.workflow/*.log\n", ".workflow/queue.md": "# contract: SPEC.md §The queue\n", ".workflow/sub/x.md": "x\n"}
	clean := scratchRepo(t, tracked, nil)
	got, names := spawned(clean)
	wantCode(t, got, 0)
	if len(names) != 0 {
		t.Fatalf("every member listed, yet the gate started %v", names)
	}
	for _, untracked := range []map[string]string{{".workflow/a.log": "ignored\n"}, {".workflow/sub/stray.md": "drift\n"}} {
		dir := scratchRepo(t, tracked, untracked)
		got, names := spawned(dir)
		if len(names) != 1 {
			t.Fatalf("%v on disk: the gate started %v, want one git", untracked, names)
		}
		if _, drift := untracked[".workflow/sub/stray.md"]; drift {
			wantCode(t, got, 1)
			wantOut(t, got, ".workflow/sub/stray.md: neither tracked nor ignored")
		} else {
			wantCode(t, got, 0)
		}
	}
}
