package gates

// check-kit-roots-dialect (publisher-only): one kit tree yields one
// kit-root-derived corpus whether it is vendored at the repository root
// or under a subdirectory.

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// dialectSubdir is where the nested vendoring puts the kits.
const dialectSubdir = "vendor"

// dialectArms are the compared arms: each reads kit roots joined with a
// fixed sub-path and nothing path-shaped from consumer config.
var dialectArms = [][]string{{"--emit", "kit-roots"}, {"--emit", "fixture-suites"}}

func checkKitRootsDialect(c *gate.Context) int {
	if len(c.Args) > 1 {
		return c.Refuse("usage: %s [tree]", c.Name)
	}
	tree := ""
	if len(c.Args) == 1 {
		tree = c.Args[0]
	} else {
		tests, err := c.Knobs.Scalar("GATE_SDK_TESTS_DIR")
		if err != nil {
			return c.RefuseErr(err)
		}
		tree = registry.Join(tests, c.Name+"/good/tree")
	}
	src := runPath(c, tree)
	if ok, err := isDirAt(c, tree); err != nil || !ok {
		return c.Refuse("no kit tree at %s to vendor", tree)
	}
	if ok, _ := isDirAt(c, registry.Join(tree, walk.DefaultSdkRoot)); !ok {
		return c.Refuse("%s carries no %s/ root, so no vendoring of it holds the gate-sdk root", tree, walk.DefaultSdkRoot)
	}
	env := withoutKnobs(armEnv(c))
	self, err := spawn.Self()
	if err != nil {
		return c.RefuseErr(err)
	}
	// Both vendorings live in a fresh directory of their own under the
	// scratch dir, so two runs never share one, and it goes when the run ends.
	if c.Scratch == "" {
		return c.Refuse("no scratch directory to vendor the kit tree into (GATE_SDK_TMP_DIR)")
	}
	if err := os.MkdirAll(c.Scratch, 0o755); err != nil {
		return c.RefuseErr(err)
	}
	work, err := os.MkdirTemp(c.Scratch, "kit-roots-dialect-")
	if err != nil {
		return c.RefuseErr(err)
	}
	defer os.RemoveAll(work)
	flat := walk.Child(work, "flat")
	nested := walk.Child(work, "nested")
	if err := vendorTree(c, src, flat, ""); err != nil {
		return c.RefuseErr(err)
	}
	if err := vendorTree(c, src, nested, dialectSubdir); err != nil {
		return c.RefuseErr(err)
	}
	layouts := []struct {
		dir, root string
	}{{flat, walk.DefaultSdkRoot}, {nested, dialectSubdir + "/" + walk.DefaultSdkRoot}}
	var rows [2][][]string // per layout, per arm
	for i, l := range layouts {
		if err := gitInit(c, l.dir, env); err != nil {
			return c.RefuseErr(err)
		}
		for _, arm := range dialectArms {
			done, err := spawn.Run(spawn.Cmd{Program: self, Args: arm, Dir: l.dir, Env: append(append([]string(nil), env...), "GATE_SDK_ROOT="+l.root), Recorder: c.Spawns})
			if err != nil {
				return c.RefuseErr(err)
			}
			out, ok := done.Stdout()
			if !ok {
				rep, _ := done.FailureReport()
				return c.Refuse("gates %s in the %s vendoring failed: %s", strings.Join(arm, " "), path.Base(l.dir), rep)
			}
			rows[i] = append(rows[i], nonBlankLines(string(out)))
		}
	}
	if len(rows[0][0]) == 0 {
		return c.Refuse("the flat vendoring of %s enumerates no kit root, so there is no corpus to compare", tree)
	}
	r := c.NewReport(map[string]string{
		"flat-spelling": "a reader joins kit roots in the kit-parent spelling; read them relative to the working directory (walk.KitRoots), which a nested vendoring spells under its subdirectory",
		"count":         "an arm's corpus shrank or grew with the layout: its reader joins a kit root in the wrong dialect",
	})
	// assertion A: the nested run answers nested roots with the flat basenames.
	flatNames, nestedNames := rootNames(rows[0][0]), rootNames(rows[1][0])
	for _, root := range rows[1][0] {
		if !strings.HasPrefix(root, dialectSubdir+"/") {
			r.Add(gate.Finding{Class: "flat-spelling", Msg: fmt.Sprintf("the nested vendoring answers kit root %q, the flat layout's spelling, not one under %s/", root, dialectSubdir)})
		}
	}
	if strings.Join(flatNames, " ") != strings.Join(nestedNames, " ") {
		r.Add(gate.Finding{Class: "flat-spelling", Msg: fmt.Sprintf("kit root names differ across layouts: flat %s, nested %s", strings.Join(flatNames, " "), strings.Join(nestedNames, " "))})
	}
	// assertion B: each arm emits one row count in both layouts.
	var counts []string
	for k, arm := range dialectArms {
		a, b := len(rows[0][k]), len(rows[1][k])
		counts = append(counts, fmt.Sprintf("%s %d flat, %d nested", strings.Join(arm, " "), a, b))
		if a != b {
			r.Add(gate.Finding{Class: "count", Msg: fmt.Sprintf("gates %s emits %d rows flat and %d nested", strings.Join(arm, " "), a, b)})
		}
	}
	if r.Failed() {
		fmt.Fprintf(c.Out, "counts: %s\n", strings.Join(counts, "; "))
	}
	return r.Done(strings.Join(counts, "; "))
}

// vendorTree copies src into dest, with every top-level entry but the
// gates dir under sub when sub is not empty.
func vendorTree(c *gate.Context, src, dest, sub string) error {
	top := strings.SplitN(strings.Trim(c.GatesDir, "/"), "/", 2)[0]
	return walk.Walk(src, walk.Options{Recorder: c.Recorder}, func(rel string, d fs.DirEntry) error {
		to := rel
		if sub != "" && strings.SplitN(rel, "/", 2)[0] != top {
			to = sub + "/" + rel
		}
		target := walk.Child(dest, to)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s in the kit tree is not a regular file; the vendoring copies files only", rel)
		}
		data, err := walk.ReadConfig(walk.Child(src, rel))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(parentDir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

func gitInit(c *gate.Context, dir string, env []string) error {
	done, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"init", "-q", "."}, Dir: dir, Env: env, Recorder: c.Spawns})
	if err != nil {
		return err
	}
	if _, ok := done.Stdout(); !ok {
		rep, _ := done.FailureReport()
		return fmt.Errorf("git init in %s: %s", dir, rep)
	}
	return nil
}

func rootNames(roots []string) []string {
	var out []string
	for _, r := range roots {
		out = append(out, path.Base(r))
	}
	sort.Strings(out)
	return out
}

func nonBlankLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

func parentDir(p string) string {
	if i := strings.LastIndexAny(p, "/\\"); i > 0 {
		return p[:i]
	}
	return p
}
