package gates

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// metaDefaults are the kit defaults a meta-gate's case reads when its knob
// file says nothing.
var metaDefaults = map[string]string{
	"GATE_SDK_TESTS_DIR":    "scripts/gate-tests",
	"GATE_SDK_PRUNE_DIRS":   "target .git node_modules .tmp gate-tests worktrees",
	"GATE_SDK_NATIVE_CRATE": ".",
	"GATE_SDK_NATIVE_SRC":   "internal",
	"GATE_SDK_QUEUE_FILE":   "TASK-QUEUE.md",
}

// loadCase reads a fixture case dir into an in-memory tree (every file is
// tracked) and its knob file over the defaults.
func loadCase(t *testing.T, dir string) (*gatetest.Tree, gatetest.Knobs, []string) {
	t.Helper()
	tree := &gatetest.Tree{Data: map[string]string{}}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		tree.Data[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	knobs := gatetest.Knobs{}
	for k, v := range metaDefaults {
		knobs[k] = v
	}
	if f, err := os.Open(filepath.Join(dir, "scripts/gate-sdk-config.knobs")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), "="); ok {
				knobs[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
		f.Close()
	}
	var args []string
	if data, err := os.ReadFile(filepath.Join(dir, "args")); err == nil {
		args = readArgsText(string(data))
	}
	return tree, knobs, args
}

func readArgsText(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		out = append(out, strings.Fields(l)...)
	}
	return out
}

// TestMetaLetterCasesRedOnlyTheirLetter runs every meta-gate's fixture
// cases in process: good/ is clean, each bad-<X>/ reds assertion X and no
// other, and bad/ reds every letter the gate's cases name.
func TestMetaLetterCasesRedOnlyTheirLetter(t *testing.T) {
	rules := map[string]gate.Rule{}
	for _, d := range metaGates() {
		rules[d.Name] = d.Rule
	}
	for name, rule := range rules {
		root := filepath.Join("../../gate-tests", name)
		entries, err := os.ReadDir(root)
		if err != nil {
			t.Errorf("%s: no fixture pair: %v", name, err)
			continue
		}
		var letters []string
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "bad-") {
				letters = append(letters, strings.TrimPrefix(e.Name(), "bad-"))
			}
		}
		if len(letters) == 0 {
			t.Errorf("%s: no bad-<letter> case", name)
		}
		for _, c := range append([]string{"good", "bad"}, prefixed("bad-", letters)...) {
			dir, _ := filepath.Abs(filepath.Join(root, c))
			tree, knobs, args := loadCase(t, dir)
			c := c
			t.Run(name+"/"+c, func(t *testing.T) {
				ctx := gatetest.Exec(rule, name, dir, tree, knobs, map[string]string{"PATH": os.Getenv("PATH")}, args...)
				if kits := knobs["GATE_SDK_KIT_DIRS"]; kits != "" {
					// Exec fixes the kit roots empty; rerun with the case's.
					ctx = execWithKits(rule, name, dir, tree, knobs, strings.Fields(kits), args)
				}
				classes := map[string]bool{}
				for _, f := range ctx.Ctx.Findings() {
					classes[f.Class] = true
				}
				got := keys(classes)
				switch {
				case c == "good":
					if ctx.Code != 0 {
						t.Fatalf("good exited %d\n%s%s", ctx.Code, ctx.Stdout, ctx.Stderr)
					}
				case c == "bad":
					if ctx.Code != 1 || strings.Join(got, " ") != strings.Join(letters, " ") {
						t.Fatalf("bad exited %d with classes %v, want 1 with every letter %v\n%s%s", ctx.Code, got, letters, ctx.Stdout, ctx.Stderr)
					}
				default:
					want := strings.TrimPrefix(c, "bad-")
					if ctx.Code != 1 || len(got) != 1 || got[0] != want {
						t.Fatalf("%s exited %d with classes %v, want 1 with %s alone\n%s%s", c, ctx.Code, got, want, ctx.Stdout, ctx.Stderr)
					}
				}
			})
		}
	}
}

func execWithKits(rule gate.Rule, name, dir string, tree gate.Tree, knobs gate.Knobs, kits, args []string) gatetest.Run {
	var out, errb strings.Builder
	c := &gate.Context{Name: name, Args: args, Dir: dir, GatesDir: "scripts", KitRoots: kits,
		Env: func(k string) (string, bool) { return os.LookupEnv(k) }, Knobs: knobs, Tree: tree, Out: &out, Err: &errb}
	code := rule(c)
	return gatetest.Run{Code: code, Stdout: out.String(), Stderr: errb.String(), Ctx: c}
}

func prefixed(p string, xs []string) []string {
	var out []string
	for _, x := range xs {
		out = append(out, p+x)
	}
	return out
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
