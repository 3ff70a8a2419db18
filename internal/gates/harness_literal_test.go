package gates

import (
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

func hlRun(t *testing.T, dir string, knobs gatetest.Knobs) gatetest.Run {
	t.Helper()
	k := gatetest.Knobs{"GATE_SDK_HARNESS_LITERALS": "HARNESS_PROJECT_DIR A.*B", "GATE_SDK_HARNESS_LITERAL_PATHS": "*.md :(exclude)docs/adapters/"}
	for n, v := range knobs {
		k[n] = v
	}
	return run{rule: checkHarnessLiteral, name: "check-harness-literal", dir: dir, tree: diskTree(t, dir), knobs: k}.exec()
}

func TestHarnessLiteral(t *testing.T) {
	dir := scratchRepo(t, map[string]string{
		"README.md": "# R\n\n<!-- harness-binding: adapter section reads it -->\nexport $HARNESS_PROJECT_DIR\n" +
			"export $HARNESS_PROJECT_DIR <!-- harness-binding: same-line reason -->\n",
		"docs/bad.md": "export $HARNESS_PROJECT_DIR\n" +
			"<!-- harness-binding: -->\nuses HARNESS_PROJECT_DIR\n" +
			"<!-- harness-binding: --> reads it\nuses HARNESS_PROJECT_DIR\n" +
			"<!-- harness-binding: far away -->\n\nuses HARNESS_PROJECT_DIR\n" +
			"pattern text A.*B here\nAxxB is not the literal\n",
		"docs/adapters/x.md":     "bare HARNESS_PROJECT_DIR in an excluded adapter file\n",
		"notes.txt":              "HARNESS_PROJECT_DIR outside the pathspecs\n",
		"bin.md":                 "\x00HARNESS_PROJECT_DIR",
		"sub/name with space.md": "HARNESS_PROJECT_DIR\n",
	}, nil)
	got := hlRun(t, dir, nil)
	wantCode(t, got, 1)
	wantOut(t, got,
		"docs/bad.md:1:export $HARNESS_PROJECT_DIR (harness literal HARNESS_PROJECT_DIR)",
		"docs/bad.md:3:uses HARNESS_PROJECT_DIR",
		"docs/bad.md:5:uses HARNESS_PROJECT_DIR",
		"docs/bad.md:8:uses HARNESS_PROJECT_DIR",
		"docs/bad.md:9:pattern text A.*B here (harness literal A.*B)",
		"sub/name with space.md:1:HARNESS_PROJECT_DIR",
		"help: reword the line")
	wantNotOut(t, got, "README.md", "adapters", "notes.txt", "bin.md", "AxxB")
	if n := strings.Count(got.Stdout, "docs/bad.md:"); n != 5 {
		t.Errorf("%d findings in docs/bad.md, want 5:\n%s", n, got.Stdout)
	}

	got = hlRun(t, dir, gatetest.Knobs{"GATE_SDK_HARNESS_LITERAL_PATHS": "README.md bin.md docs/adapters"})
	wantCode(t, got, 1) // the adapter file is in the corpus once no exclude takes it out
	got = hlRun(t, dir, gatetest.Knobs{"GATE_SDK_HARNESS_LITERAL_PATHS": "README.md bin.md"})
	wantCode(t, got, 0)
	wantOut(t, got, "HARNESS-LITERAL: clean (1 files carry none of 2 harness literals outside a harness-binding; 1 binary members skipped)")
}

func TestHarnessLiteralPostures(t *testing.T) {
	dir := scratchRepo(t, map[string]string{"a.md": "HARNESS_PROJECT_DIR\n"}, nil)
	got := hlRun(t, dir, gatetest.Knobs{"GATE_SDK_HARNESS_LITERAL_PATHS": ""})
	wantCode(t, got, 0)
	wantOut(t, got, "HARNESS-LITERAL: clean (no corpus configured: GATE_SDK_HARNESS_LITERAL_PATHS is empty, gate off)")
	got = hlRun(t, dir, gatetest.Knobs{"GATE_SDK_HARNESS_LITERALS": ""})
	wantCode(t, got, 0)
	wantOut(t, got, "HARNESS-LITERAL: clean (no literal listed: GATE_SDK_HARNESS_LITERALS is empty, gate off)")
	got = hlRun(t, dir, nil)
	wantCode(t, got, 1)
	wantOut(t, got, "a.md:1:HARNESS_PROJECT_DIR (harness literal HARNESS_PROJECT_DIR)")

	out := nonRepoDir(t)
	got = run{rule: checkHarnessLiteral, name: "check-harness-literal", dir: out, tree: errTree{},
		knobs: gatetest.Knobs{"GATE_SDK_HARNESS_LITERALS": "X", "GATE_SDK_HARNESS_LITERAL_PATHS": "*.md"}}.exec()
	wantCode(t, got, 2)
	wantCode(t, run{rule: checkHarnessLiteral, name: "check-harness-literal", dir: dir, tree: diskTree(t, dir), knobs: gatetest.Knobs{}, args: []string{"x"}}.exec(), 2)
}
