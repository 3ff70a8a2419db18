package gates

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// The cached Actions members (SPEC.md §The Actions family, assertion T):
// over every corpus the package holds, a run with the result cache off, a
// run that fills it and a run served by it (a fresh process: a new store
// over the same directory, a new tree) say the same bytes with the same
// exit code. The served run must be served: it reads no YAML file (so it
// parses none) and misses no entry. An edited file misses, alone, and
// the run over the edit says what an uncached run says.

// cachedActionGates are the members that keep per-file memos.
var cachedActionGates = []string{"check-action-gh-repo", "check-action-job-ref", "check-action-permissions", "check-action-pinning", "check-action-run-path"}

// actionRun is one run of a member over files, with the result cache in
// cacheDir ("" off); it answers the run, the store's stats for the
// member's table and the YAML files the rule read.
func actionRun(t *testing.T, def gate.Def, dir string, files map[string]string, modes map[string]uint32, knobs gatetest.Knobs, cacheDir string) (gatetest.Run, cache.Stat, []string) {
	t.Helper()
	ct := &countTree{Tree: &gatetest.Tree{Data: files, Modes: modes}, reads: map[string]int{}, fail: map[string]bool{}}
	var store *cache.Store
	if cacheDir != "" {
		store = cache.Open("action-cache-test", func() (string, error) { return cacheDir, nil })
	}
	var out, errb bytes.Buffer
	env := map[string]string{"PATH": os.Getenv("PATH")}
	c := &gate.Context{
		Name: def.Name, Dir: dir, GatesDir: "scripts", Scratch: t.TempDir(),
		Env:   func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Knobs: knobs, Tree: blobTree{ct}, Out: &out, Err: &errb, Cache: store,
	}
	code := def.Rule(c)
	var st cache.Stat
	for _, s := range store.Stats() {
		if s.Gate == gate.ID(def.Name) {
			st = s
		}
	}
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	var read []string
	for p, n := range ct.reads {
		if n > 0 && hasExt(p, yamlExts) {
			read = append(read, p)
		}
	}
	sort.Strings(read)
	return gatetest.Run{Code: code, Stdout: out.String(), Stderr: errb.String()}, st, read
}

// cacheDifferential holds one member over one tree to the three-run
// agreement, then edits edit (when given) and holds the run over the edit
// to an uncached one.
func cacheDifferential(t *testing.T, def gate.Def, files map[string]string, modes map[string]uint32, knobs gatetest.Knobs, edit string) {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	cacheDir := t.TempDir()
	say := func(r gatetest.Run) string {
		return fmt.Sprintf("exit %d\n%s--- stderr\n%s", r.Code, r.Stdout, r.Stderr)
	}
	off, _, _ := actionRun(t, def, dir, files, modes, knobs, "")
	cold, _, _ := actionRun(t, def, dir, files, modes, knobs, cacheDir)
	warm, st, read := actionRun(t, def, dir, files, modes, knobs, cacheDir)
	if say(cold) != say(off) || say(warm) != say(off) {
		t.Fatalf("%s: cache off, cold and warm runs differ\n--- off\n%s\n--- cold\n%s\n--- warm\n%s", def.Name, say(off), say(cold), say(warm))
	}
	if off.Code == gate.Refused {
		return // a refusal is never stored: nothing more to hold
	}
	if strings.Contains(off.Stdout, "clean (") && !strings.Contains(off.Stdout, "YAML") && !strings.Contains(off.Stdout, "workflow") && !strings.Contains(off.Stdout, "run: bod") && !strings.Contains(off.Stdout, "file") {
		return // an inert clean line (nothing scanned)
	}
	if st.Misses != 0 || st.Hits == 0 || len(read) != 0 {
		t.Fatalf("%s: the warm run was not served by the cache: %d hits, %d misses, YAML read: %v", def.Name, st.Hits, st.Misses, read)
	}
	if edit == "" {
		return
	}
	edited := map[string]string{}
	for p, v := range files {
		edited[p] = v
	}
	edited[edit] = files[edit] + "\n# edited after the cache was filled\n"
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(edit)), []byte(edited[edit]), 0o644); err != nil {
		t.Fatal(err)
	}
	offE, _, _ := actionRun(t, def, dir, edited, modes, knobs, "")
	warmE, stE, _ := actionRun(t, def, dir, edited, modes, knobs, cacheDir)
	if say(warmE) != say(offE) {
		t.Fatalf("%s: after editing %s, the cached run differs from an uncached one\n--- off\n%s\n--- cached\n%s", def.Name, edit, say(offE), say(warmE))
	}
	if stE.Misses != 1 {
		t.Fatalf("%s: after editing %s, %d misses, want 1 (the edited file alone)", def.Name, edit, stE.Misses)
	}
}

func actionDef(t *testing.T, name string) gate.Def {
	t.Helper()
	for _, d := range actionGates() {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("no member %s", name)
	return gate.Def{}
}

// TestActionCacheAgrees runs the differential over testdata/workflows:
// each YAML file alone (beside the corpus's scripts and markdown), as the
// corpus test judges it, and the whole corpus at once, for every cached
// member.
func TestActionCacheAgrees(t *testing.T) {
	files, modes := readCorpus(t, corpusDir, "FINDINGS.txt")
	yamls, others := splitYAML(files)
	knobs := actionKnobs(corpusKnobs)
	for _, name := range cachedActionGates {
		def := actionDef(t, name)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, y := range yamls {
				tree := map[string]string{y: files[y]}
				for _, o := range others {
					tree[o] = files[o]
				}
				cacheDifferential(t, def, tree, modes, knobs, y)
			}
			cacheDifferential(t, def, files, modes, knobs, yamls[0])
		})
	}
}

// TestActionCacheAgreesOnSpellings runs it over the spellings corpus, the
// same workflows written many ways, whole.
func TestActionCacheAgreesOnSpellings(t *testing.T) {
	files, modes := readCorpus(t, spellingsDir)
	files["scripts/ci/lint.sh"] = "#!/bin/sh\n"
	modes["scripts/ci/lint.sh"] = 0o100755
	files["docs/jobs.md"] = "The `deploy-production` job follows `deploy-staging`; `deploy-preview` is gone.\n"
	yamls, _ := splitYAML(files)
	knobs := actionKnobs(corpusKnobs)
	for _, name := range cachedActionGates {
		def := actionDef(t, name)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, y := range yamls {
				tree := map[string]string{y: files[y], "scripts/ci/lint.sh": files["scripts/ci/lint.sh"], "docs/jobs.md": files["docs/jobs.md"]}
				cacheDifferential(t, def, tree, modes, knobs, y)
			}
			cacheDifferential(t, def, files, modes, knobs, yamls[0])
			if name == "check-action-job-ref" {
				cacheDifferential(t, def, files, modes, knobs, "docs/jobs.md")
			}
		})
	}
}
