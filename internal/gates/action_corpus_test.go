package gates

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

var updateCorpus = flag.Bool("update", false, "rewrite testdata/workflows/FINDINGS.txt from the rules' output")

const corpusDir = "../../testdata/workflows"

// corpusKnobs configure the two knob-driven members for the corpus: job
// names shaped like the deploy and release jobs, and a toolchain action
// the Go jobs must run first.
var corpusKnobs = map[string]string{
	"GATE_SDK_JOB_REF_PATTERNS":      "(deploy|release)-[a-z0-9-]+\tgoreleaser",
	"GATE_LOCAL_STEP_ORDER_ACTION":   "./.github/actions/setup-toolchain",
	"GATE_LOCAL_STEP_ORDER_PROGRAMS": "go\tgofmt",
}

// TestActionCorpus runs all seven rules over the real-world-style corpus
// and compares what they say with the hand-reviewed listing. Each YAML
// file is judged alone (beside the corpus's scripts and markdown), since
// a refusal ends a whole run; job-ref, whose job set spans files, runs
// once over the whole corpus.
func TestActionCorpus(t *testing.T) {
	files, modes := readCorpus(t, corpusDir, "FINDINGS.txt")
	yamls, others := splitYAML(files)
	if len(yamls) < 30 {
		t.Fatalf("the corpus holds %d YAML files, want at least 30", len(yamls))
	}
	env := map[string]string{"PATH": os.Getenv("PATH")}
	run := func(def gate.Def, tree map[string]string) gatetest.Run {
		dir := t.TempDir()
		writeFiles(t, dir, tree)
		return gatetest.ExecScratch(def.Rule, def.Name, dir, t.TempDir(), &gatetest.Tree{Data: tree, Modes: modes}, actionKnobs(corpusKnobs), env)
	}
	perFile := map[string][]string{}
	note := func(path, name, line string) {
		perFile[path] = append(perFile[path], fmt.Sprintf("  %-26s %s", name, line))
	}
	for _, def := range actionGates() {
		if def.Name == "check-action-job-ref" {
			continue
		}
		for _, y := range yamls {
			tree := map[string]string{y: files[y]}
			for _, o := range others {
				tree[o] = files[o]
			}
			r := run(def, tree)
			switch r.Code {
			case gate.Clean:
			case gate.Failed:
				for _, l := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
					if !strings.HasPrefix(l, "help: ") {
						note(y, def.Name, l)
					}
				}
			case gate.Refused:
				note(y, def.Name, "refused (exit 2): "+strings.TrimPrefix(strings.TrimSpace(r.Stderr), def.Name+": "))
			default:
				t.Fatalf("%s on %s: exit %d", def.Name, y, r.Code)
			}
		}
	}
	jr := run(gate.Def{Name: "check-action-job-ref", Rule: checkActionJobRef}, files)
	if jr.Code == gate.Refused {
		t.Fatalf("job-ref refused the corpus: %s", jr.Stderr)
	}
	for _, l := range strings.Split(strings.TrimSpace(jr.Stdout), "\n") {
		if strings.HasPrefix(l, "help: ") || jr.Code == gate.Clean {
			continue
		}
		p, _, _ := strings.Cut(l, ":")
		note(p, "check-action-job-ref", l)
	}

	var b strings.Builder
	b.WriteString("# What the seven check-action-* rules say about this corpus, per file.\n")
	b.WriteString("# Each YAML file is judged alone; check-action-job-ref reads the whole corpus.\n")
	b.WriteString("# Knobs: GATE_SDK_JOB_REF_PATTERNS = (deploy|release)-[a-z0-9-]+, goreleaser;\n")
	b.WriteString("#        GATE_LOCAL_STEP_ORDER_ACTION = ./.github/actions/setup-toolchain;\n")
	b.WriteString("#        GATE_LOCAL_STEP_ORDER_PROGRAMS = go, gofmt.\n")
	b.WriteString("# Regenerate with go test ./internal/gates -run TestActionCorpus -update, then review every line.\n")
	paths := append([]string(nil), yamls...)
	for p := range perFile {
		if !strings.HasSuffix(p, ".yml") && !strings.HasSuffix(p, ".yaml") {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		b.WriteString("\n" + p + "\n")
		if len(perFile[p]) == 0 {
			b.WriteString("  (no finding)\n")
		}
		for _, l := range perFile[p] {
			b.WriteString(l + "\n")
		}
	}
	got := b.String()
	golden := corpusDir + "/FINDINGS.txt"
	if *updateCorpus {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it, then review it)", err)
	}
	if got != string(want) {
		t.Errorf("the rules' findings over the corpus changed; review and rerun with -update\n--- got\n%s", got)
	}
}
