package gates

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

// fakeCouplesKnobs answers knob: tokens from a map of scalars.
type fakeCouplesKnobs map[string]string

func (k fakeCouplesKnobs) Knob(name string) (registry.KnobValue, error) {
	if name == "GATE_SDK_GATES_DIR" || name == "GATE_SDK_ROOT" {
		return registry.KnobValue{Shape: registry.ShapeLocator, Value: k[name]}, nil
	}
	return registry.KnobValue{Shape: registry.ShapeScalar, Value: k[name]}, nil
}

func (k fakeCouplesKnobs) Field(string, string) ([]string, error) { return nil, nil }

// readsCase runs check-reads-couples over a tree on disk holding the
// given files, with one positional declaration, through lookup.
func readsCase(t *testing.T, lookup func(string) (gate.Def, bool), files map[string]string, decl string) gatetest.Run {
	t.Helper()
	dir := t.TempDir()
	tree := &gatetest.Tree{Data: map[string]string{}}
	for p, body := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		tree.Data[p] = body
	}
	rule := readsCouplesRule(lookup)
	var run gatetest.Run
	wrapped := func(c *gate.Context) int {
		c.CouplesKnobs = fakeCouplesKnobs{"GATE_SDK_GATES_DIR": "scripts", "GATE_SDK_GRAPH_VOCAB": "scripts/graph-vocab.knobs", "GATE_SDK_GRAPH_THEME_DIR": "scripts/graph-theme/", "GATE_SDK_GRAPH_ARTIFACT": "scripts/CHECK-GRAPH.html"}
		return rule(c)
	}
	run = gatetest.Exec(wrapped, "check-reads-couples", dir, tree, gatetest.Knobs{"GATE_SDK_PRUNE_DIRS": walk.DefaultPruneDirs}, nil, decl)
	return run
}

// TestWidenedReadsRedWithoutWidenedCouples plants exactly the defect the
// gate exists for: check-graph's compiled row walks wider than its
// shipped couples= (every markdown file, not only amendments), and the
// descriptor is unchanged.
func TestWidenedReadsRedWithoutWidenedCouples(t *testing.T) {
	desc, err := os.ReadFile("../../kits/gate-sdk/checks/check-graph.gate")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"scripts/check-graph.gate": string(desc),
		"SPEC-new.md":              "`# graph: couples=a dir=one valve=none tier=precommit`\n",
		"docs/guide.md":            "prose\n",
	}
	real := readsCase(t, findDef, files, "scripts/check-graph.gate")
	if real.Code != 0 {
		t.Fatalf("the shipped row reds: exit %d\n%s%s", real.Code, real.Stdout, real.Stderr)
	}
	widened := func(name string) (gate.Def, bool) {
		d, ok := findDef(name)
		if name == "check-graph" {
			d.Reads = []gate.Root{{Path: ".", Filter: "name:lit:*.md"}}
		}
		return d, ok
	}
	got := readsCase(t, widened, files, "scripts/check-graph.gate")
	if got.Code != 1 || !strings.Contains(got.Stdout, "check-graph walks . (name:lit:*.md) and reads docs/guide.md, which no couples= token covers") {
		t.Fatalf("widened reads: exit %d\n%s%s", got.Code, got.Stdout, got.Stderr)
	}
	if strings.Contains(got.Stdout, "reads SPEC-new.md") {
		t.Fatalf("a covered read was redded:\n%s", got.Stdout)
	}
}

func TestReadsCouplesShellArm(t *testing.T) {
	script := "#!/usr/bin/env bash\n# graph: couples=docs/*.md dir=one valve=none tier=precommit\n" +
		"find \"docs\" -name '*.md' -print\n" +
		"gate_find \"$REPO_ROOT/notes\" -type f\n" +
		"find \"$somewhere\" -type f\n" +
		"# reads-couples-exempt: the cache is rebuilt, never read back\n" +
		"find \"cache\" -type f\n"
	files := map[string]string{
		"scripts/check-x.sh": script,
		"docs/a.md":          "a\n",
		"docs/deep/b.md":     "b\n", // one segment couple covers a deep file
		"docs/c.txt":         "not selected by -name\n",
		"notes/n.txt":        "uncovered\n",
		"notes/gate-tests/x": "pruned by gate_find\n",
		"cache/blob":         "exempted\n",
	}
	got := readsCase(t, findDef, files, "scripts/check-x.sh")
	if got.Code != 1 || !strings.Contains(got.Stdout, "reads notes/n.txt") || strings.Contains(got.Stdout, "docs/") || strings.Contains(got.Stdout, "gate-tests") {
		t.Fatalf("exit %d\n%s%s", got.Code, got.Stdout, got.Stderr)
	}
	if !strings.Contains(got.Stdout, "help: widen the member's couples=") {
		t.Fatalf("no help line:\n%s", got.Stdout)
	}
}

func TestReadsCouplesRefusals(t *testing.T) {
	files := map[string]string{"scripts/check-nope.gate": "# graph: couples=a dir=one valve=none tier=precommit\n"}
	if got := readsCase(t, findDef, files, "scripts/check-nope.gate"); got.Code != 2 || !strings.Contains(got.Stderr, "does not carry") {
		t.Fatalf("a name the substrate lacks: exit %d %s", got.Code, got.Stderr)
	}
	unresolvable := func(name string) (gate.Def, bool) {
		return gate.Def{Name: name, Reads: []gate.Root{{Path: ".", Filter: "glob:knob:GATE_SDK_NO_SUCH"}}}, true
	}
	files = map[string]string{"scripts/check-graph.gate": "# graph: couples=a dir=one valve=none tier=precommit\n"}
	dir := t.TempDir()
	for p, b := range files {
		_ = os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		_ = os.WriteFile(filepath.Join(dir, p), []byte(b), 0o644)
	}
	rule := readsCouplesRule(unresolvable)
	got := gatetest.Exec(func(c *gate.Context) int { c.CouplesKnobs = refusingKnobs{}; return rule(c) }, "check-reads-couples", dir,
		&gatetest.Tree{Data: map[string]string{"scripts/check-graph.gate": files["scripts/check-graph.gate"]}}, gatetest.Knobs{}, nil, "scripts/check-graph.gate")
	if got.Code != 2 || !strings.Contains(got.Stderr, "unresolvable") {
		t.Fatalf("an unresolvable filter knob: exit %d %s", got.Code, got.Stderr)
	}
	// A dynamic root is counted, never analyzed.
	dynamic := func(name string) (gate.Def, bool) {
		return gate.Def{Name: name, Reads: []gate.Root{{Dynamic: true, Ground: "dynamic@internal/gates/x.go:1"}}}, true
	}
	got = gatetest.Exec(readsCouplesRule(dynamic), "check-reads-couples", dir, &gatetest.Tree{Data: map[string]string{}}, gatetest.Knobs{}, nil, "scripts/check-graph.gate")
	if got.Code != 0 || !strings.Contains(got.Stdout, "1 ? root") {
		t.Fatalf("a ? root: exit %d %s%s", got.Code, got.Stdout, got.Stderr)
	}
}

type refusingKnobs struct{}

func (refusingKnobs) Knob(name string) (registry.KnobValue, error) {
	return registry.KnobValue{}, &registry.Error{Msg: name + " is owned by no kit"}
}
func (refusingKnobs) Field(string, string) ([]string, error) { return nil, nil }

var groundRe = regexp.MustCompile(`^dynamic@[A-Za-z0-9_./-]+\.go:[1-9][0-9]*( via [A-Za-z0-9_.]+)?$`)

// TestRootDeclarationsAreWellFormed stands in for the compile-time rule:
// a ? root carries a ground and nothing else, a declared root carries a
// kind-led filter and no ground.
func TestRootDeclarationsAreWellFormed(t *testing.T) {
	for _, d := range All() {
		for _, r := range d.Reads {
			switch {
			case r.Dynamic && (!groundRe.MatchString(r.Ground) || r.Filter != "" || len(r.Prune) > 0 || r.Path != ""):
				t.Errorf("%s: a ? root takes a ground (dynamic@<file>:<line>[ via <symbol>]) and no path, filter or prune: %+v", d.Name, r)
			case !r.Dynamic && (r.Ground != "" || r.Path == ""):
				t.Errorf("%s: a declared root takes a path and no ground: %+v", d.Name, r)
			case !r.Dynamic && r.Filter != "" && !regexp.MustCompile(`^(glob|name|ext):(knob:[A-Z][A-Z0-9_]*|lit:[^,]+(,[^,]+)*)$`).MatchString(r.Filter):
				t.Errorf("%s: filter %q is not <kind>:<source>", d.Name, r.Filter)
			}
		}
	}
}

// TestObservedRootsAreDeclared runs every member declaring roots over its
// own fixture cases with the recorder on: each observed root must be a
// declared one (a case relocating its walk through an operand is held to
// nothing), and at least one case must walk at all.
func TestObservedRootsAreDeclared(t *testing.T) {
	walked := 0
	for _, d := range All() {
		if len(d.Reads) == 0 {
			continue
		}
		for _, kase := range []string{"good", "bad"} {
			dir, err := filepath.Abs(filepath.Join("../../gate-tests", d.Name, kase))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(dir); err != nil {
				continue
			}
			args := caseArgs(t, dir)
			if len(args) > 0 && !strings.HasPrefix(args[0], "-") || len(args) > 1 && d.Name == "check-graph" {
				continue // the walk is relocated by an operand
			}
			tree := &gatetest.Tree{Data: map[string]string{}}
			_ = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
				if err == nil && !e.IsDir() {
					rel, _ := filepath.Rel(dir, p)
					b, _ := os.ReadFile(p)
					tree.Data[filepath.ToSlash(rel)] = string(b)
				}
				return nil
			})
			rec := &walk.Recorder{}
			rule := func(c *gate.Context) int { c.Recorder = rec; return protectRule(d.Rule, c) }
			gatetest.Exec(rule, d.Name, dir, tree, gatetest.Knobs{"GATE_SDK_PRUNE_DIRS": walk.DefaultPruneDirs}, nil, args...)
			for _, root := range rec.Roots() {
				walked++
				rel := root
				if r, ok := walk.RelUnder(walk.NormalizeAbs(dir), walk.NormalizeAbs(root)); ok {
					rel = r
				}
				if rel == "" {
					rel = "."
				}
				declared := false
				for _, r := range d.Reads {
					if r.Path == rel || strings.TrimPrefix(r.Path, "./") == rel {
						declared = true
					}
				}
				if !declared {
					t.Errorf("%s over %s walked %s, which its row does not declare", d.Name, kase, rel)
				}
			}
		}
	}
	if walked == 0 {
		t.Fatal("no fixture case walked; the check held over nothing")
	}
}

func protectRule(rule gate.Rule, c *gate.Context) (code int) {
	defer func() {
		if recover() != nil {
			code = 2
		}
	}()
	return rule(c)
}

func caseArgs(t *testing.T, dir string) []string {
	data, err := os.ReadFile(filepath.Join(dir, "args"))
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, strings.Fields(l)...)
		}
	}
	return out
}

// TestEveryWalkCarriesTheRecorder: a walk the recorder cannot see is a
// walk no declaration is held to, so every walk.Walk and every scan-root
// note in the rules passes the context's recorder.
func TestEveryWalkCarriesTheRecorder(t *testing.T) {
	calls := 0
	inspectRules(t, func(fset *token.FileSet, f string, n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == "walk" && sel.Sel.Name == "Walk" {
			calls++
			if len(call.Args) < 2 || !strings.Contains(exprText(fset, f, call.Args[1]), "Recorder: c.Recorder") {
				t.Errorf("%s: walk.Walk without the context's recorder", fset.Position(call.Pos()))
			}
		}
		return true
	})
	if calls == 0 {
		t.Fatal("found no walk.Walk call; the pin holds over nothing")
	}
}

// inspectRules parses every non-test Go file of this package (the rules)
// and hands each node to fn with its file set and file name.
func inspectRules(t *testing.T, fn func(fset *token.FileSet, file string, n ast.Node) bool) {
	t.Helper()
	fset := token.NewFileSet()
	matches, _ := filepath.Glob("*.go")
	for _, f := range matches {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool { return fn(fset, f, n) })
	}
}

func exprText(fset *token.FileSet, file string, e ast.Expr) string {
	data, _ := os.ReadFile(file)
	return string(data[fset.Position(e.Pos()).Offset:fset.Position(e.End()).Offset])
}

// prunedBySplit is the segment-joining reference prunedBy is held to.
func prunedBySplit(prunes []string, rel string) bool {
	segs := strings.Split(rel, "/")
	for i := 1; i < len(segs); i++ {
		dir := strings.Join(segs[:i], "/")
		for _, p := range prunes {
			if componentMatch(p, dir) {
				return true
			}
		}
	}
	return false
}

func TestPrunedByMatchesReference(t *testing.T) {
	paths := []string{"a", "a/b", "a/b/c.md", "x/vendor/y.go", "vendor/z", "docs/gen/deep/f", "a//b", "/a/b", "a/b/"}
	for _, prunes := range [][]string{nil, {"vendor"}, {"docs/gen"}, {"**/deep"}, {"a", "x/*"}} {
		for _, p := range paths {
			if got, want := prunedBy(prunes, p), prunedBySplit(prunes, p); got != want {
				t.Errorf("prunedBy(%q, %q) = %v, the reference says %v", prunes, p, got, want)
			}
		}
	}
}

// A rooted walk reads exactly its root's files: a sibling whose name
// extends the root's, sorting on either side of it, is not under it.
func TestDeclaredWalkRootRun(t *testing.T) {
	files := []string{"a-b/x", "a.c/y", "a/1", "a/z/2", "a0/3", "ab/4", "b/a/5"}
	w := declaredWalk{root: "a"}
	got := w.selects(files, walk.NewPruneSet("", ""))
	if want := []string{"a/1", "a/z/2"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("selects = %q, want %q", got, want)
	}
	if got := (declaredWalk{}).selects(files, walk.NewPruneSet("z", "")); len(got) != 6 {
		t.Fatalf("the top walk with z pruned = %q", got)
	}
}

// TestReadsCouplesUnquotedWords reads a walk the way the shell does when
// its root or its -name pattern is a bare word, and honours a -name that
// follows -type f: the walk reads docs/index.md only, not all of docs.
func TestReadsCouplesUnquotedWords(t *testing.T) {
	script := "#!/usr/bin/env bash\n# graph: couples=docs/**/index.md dir=one valve=none tier=precommit\n" +
		"gate_find docs -type f -name index.md\n" +
		"gate_find \"$REPO_ROOT/docs\" -type f -name index.md -print\n" +
		"x=$(find docs/deep -name index.md)\n" +
		"gate_find notes -type f\n"
	files := map[string]string{
		"scripts/check-x.sh":  script,
		"docs/index.md":       "i\n",
		"docs/deep/index.md":  "i\n",
		"docs/other.md":       "not read\n",
		"docs/deep/other.txt": "not read\n",
		"notes/n.txt":         "read, uncovered\n",
	}
	got := readsCase(t, findDef, files, "scripts/check-x.sh")
	if got.Code != 1 || strings.Contains(got.Stdout, "reads docs/") || !strings.Contains(got.Stdout, "check-x walks notes and reads notes/n.txt") {
		t.Fatalf("exit %d\n%s%s", got.Code, got.Stdout, got.Stderr)
	}
	files["scripts/check-x.sh"] = strings.Replace(script, "gate_find notes -type f\n", "", 1)
	clean := readsCase(t, findDef, files, "scripts/check-x.sh")
	if clean.Code != 0 || !strings.Contains(clean.Stdout, "3 walk roots covering 5 tracked reads") {
		t.Fatalf("every bare-word walk is a root, filtered by its -name: exit %d\n%s%s", clean.Code, clean.Stdout, clean.Stderr)
	}
}

// assertion E: a tree that differs from a prior one only in some files'
// bytes takes the verdict kept for the prior tree under the same plans
// and prune set; every answer equals an uncached run's, and a changed
// declaration, knob or listing is judged again.
func TestReadsCouplesFromThePriorTree(t *testing.T) {
	cacheDir := filepath.Join(t.TempDir(), "c")
	dir := t.TempDir()
	script := func(couples string) string {
		return "#!/usr/bin/env bash\n# graph: couples=" + couples + " dir=one valve=none tier=precommit\n" +
			"gate_find \"$REPO_ROOT/notes\" -type f\nfind \"docs\" -name '*.md' -print\n"
	}
	writeFiles(t, dir, map[string]string{"scripts/check-x.sh": script("docs/*.md")})
	var stats map[string]cache.Stat
	scan := func(digest string, files map[string]string, knobs gatetest.Knobs, prior *gate.Prior, cached bool) gatetest.Run {
		t.Helper()
		k := gatetest.Knobs{"GATE_SDK_PRUNE_DIRS": walk.DefaultPruneDirs}
		for n, v := range knobs {
			k[n] = v
		}
		rule := readsCouplesRule(findDef)
		r := run{rule: func(c *gate.Context) int {
			c.CouplesKnobs = fakeCouplesKnobs{"GATE_SDK_GATES_DIR": "scripts"}
			return rule(c)
		}, name: "check-reads-couples", dir: dir, tree: digestTree{blobTree{newCountTree(files)}, digest}, knobs: k,
			args: []string{"scripts/check-x.sh"}, prior: prior}
		var store *cache.Store
		if cached {
			store = cache.Open("s1", func() (string, error) { return cacheDir, nil })
			r.cache = store
		}
		got := r.exec()
		stats = map[string]cache.Stat{}
		for _, st := range store.Stats() {
			stats[st.Gate] = st
		}
		if err := store.Flush(); err != nil {
			t.Fatal(err)
		}
		return got
	}
	same := func(what string, got, want gatetest.Run) {
		t.Helper()
		if got.Stdout != want.Stdout || got.Code != want.Code || got.Stderr != want.Stderr {
			t.Fatalf("%s: exit %d\n%s%s\nwant exit %d\n%s%s", what, got.Code, got.Stdout, got.Stderr, want.Code, want.Stdout, want.Stderr)
		}
	}
	base := map[string]string{
		"scripts/check-x.sh": script("docs/*.md"),
		"docs/a.md":          "a\n",
		"notes/n.txt":        "uncovered\n",
		"notes/old/m.txt":    "uncovered too\n",
	}
	with := func(files map[string]string, p, body string) map[string]string {
		out := map[string]string{}
		for k, v := range files {
			out[k] = v
		}
		out[p] = body
		return out
	}
	first := scan("t1", base, nil, nil, true)
	wantCode(t, first, 1)
	same("the first tree", first, scan("t1", base, nil, nil, false))
	// An unrelated edit: the verdict kept for the prior tree, reused.
	edited := with(base, "docs/a.md", "a, edited\n")
	want := scan("t2", edited, nil, nil, false)
	got := scan("t2", edited, nil, &gate.Prior{Digest: "t1", Changed: []string{"docs/a.md"}}, true)
	same("an unrelated edit", got, want)
	if st := stats[readsCoupleSetTable]; st.Hits != 1 {
		t.Fatalf("the prior tree's verdict was not taken: %+v", st)
	}
	// ...and kept for the new tree in turn.
	same("the new tree warm", scan("t2", edited, nil, nil, true), want)
	if st := stats[readsCoupleSetTable]; st.Hits != 1 || st.Misses != 0 {
		t.Fatalf("the new tree's verdict was not kept: %+v", st)
	}
	// A finding added: the declaration narrows its couples (it is read
	// from disk, so the plans change and the kept verdict answers other
	// plans).
	writeFiles(t, dir, map[string]string{"scripts/check-x.sh": script("docs/z.md")})
	added := with(edited, "scripts/check-x.sh", script("docs/z.md"))
	want = scan("t3", added, nil, nil, false)
	if !strings.Contains(want.Stdout, "reads docs/a.md") {
		t.Fatalf("the narrowed couples find nothing:\n%s", want.Stdout)
	}
	got = scan("t3", added, nil, &gate.Prior{Digest: "t2", Changed: []string{"scripts/check-x.sh"}}, true)
	same("a finding added", got, want)
	// A finding removed: the couples widened to cover notes/.
	writeFiles(t, dir, map[string]string{"scripts/check-x.sh": script("docs/*.md,*.txt")})
	removed := with(added, "scripts/check-x.sh", script("docs/*.md,*.txt"))
	want = scan("t4", removed, nil, nil, false)
	wantCode(t, want, 0)
	got = scan("t4", removed, nil, &gate.Prior{Digest: "t3", Changed: []string{"scripts/check-x.sh"}}, true)
	same("a finding removed", got, want)
	// A knob changed: notes pruned, under the same listing.
	writeFiles(t, dir, map[string]string{"scripts/check-x.sh": script("docs/*.md")})
	restored := with(removed, "scripts/check-x.sh", script("docs/*.md"))
	extra := gatetest.Knobs{"GATE_SDK_PRUNE_EXTRA_DIRS": "old"}
	want = scan("t5", restored, extra, nil, false)
	if wantCode(t, want, 1); strings.Contains(want.Stdout, "notes/old/m.txt") || !strings.Contains(want.Stdout, "notes/n.txt") {
		t.Fatalf("the pruned directory is still read:\n%s", want.Stdout)
	}
	got = scan("t5", restored, extra, &gate.Prior{Digest: "t1", Changed: []string{"docs/a.md"}}, true)
	same("a knob changed", got, want)
	if st := stats[readsCoupleSetTable]; st.Hits != 0 {
		t.Fatalf("a verdict kept under other knobs was served: %+v", st)
	}
	// A new file: another listing, judged whole (no prior: the listings differ).
	grown := with(restored, "notes/new.txt", "new\n")
	want = scan("t6", grown, nil, nil, false)
	if !strings.Contains(want.Stdout, "reads notes/new.txt") {
		t.Fatalf("the new file is not read:\n%s", want.Stdout)
	}
	same("a new file", scan("t6", grown, nil, nil, true), want)
}
