package gates

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
	"github.com/gate-sdk/gates/internal/graph"
)

// blobTree is a counting tree that vouches for each file's bytes with
// their hash, as a staged snapshot vouches with the index's id.
type blobTree struct{ *countTree }

func (t blobTree) BlobID(p string) (string, bool) {
	data, err := t.Tree.Read(p) // the wrapped tree: no read counted
	if err != nil {
		return "", false
	}
	sum := sha1.Sum(data)
	return hex.EncodeToString(sum[:]), true
}

func monitorScan(t *testing.T, c *gate.Context, files []string) []graph.Monitor {
	t.Helper()
	cached := c.PerFile(monitorsTable, nil)
	claim := c.ClaimReads(files)
	defer claim.Done()
	var out []graph.Monitor
	for _, f := range files {
		ms, err := monitorsOf(c, cached, claim, f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ms...)
	}
	if err := c.Cache.Flush(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMonitorsCache(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"ops/watch.md": "x\n" + graph.MonitorMarker + " uptime of the site\n\n" + graph.MonitorMarker + "\tqueue depth\n",
		"docs/a.md":    "no marker here\n",
		"docs/link":    graph.MonitorMarker + " a link's target string\n",
	}
	names := []string{"docs/a.md", "docs/link", "ops/watch.md"}
	open := func(stamp string) (*gate.Context, *countTree) {
		mt := memTree(files)
		mt.Modes["docs/link"] = 0o120000
		ct := &countTree{Tree: mt, reads: map[string]int{}, fail: map[string]bool{}}
		return &gate.Context{Tree: blobTree{ct}, Cache: cache.Open(stamp, func() (string, error) { return dir, nil })}, ct
	}
	c, ct := open("s1")
	cold := monitorScan(t, c, names)
	want := []graph.Monitor{
		{Path: "docs/link", Line: 1, Text: "a link's target string"},
		{Path: "ops/watch.md", Line: 2, Text: "uptime of the site"},
		{Path: "ops/watch.md", Line: 4, Text: "queue depth"},
	}
	if !reflect.DeepEqual(cold, want) {
		t.Fatalf("cold scan = %+v\nwant %+v", cold, want)
	}
	if ct.reads["ops/watch.md"] != 1 || ct.reads["docs/a.md"] != 1 {
		t.Fatalf("cold reads = %v", ct.reads)
	}
	// Warm: the same answer, and only the link is read again.
	c, ct = open("s1")
	if warm := monitorScan(t, c, names); !reflect.DeepEqual(warm, cold) {
		t.Fatalf("warm scan = %+v, want the cold %+v", warm, cold)
	}
	if ct.reads["ops/watch.md"] != 0 || ct.reads["docs/a.md"] != 0 || ct.reads["docs/link"] != 1 {
		t.Fatalf("warm reads = %v, want the link alone", ct.reads)
	}
	// A changed blob is read and scanned again.
	files["docs/a.md"] = graph.MonitorMarker + " new\n"
	c, ct = open("s1")
	got := monitorScan(t, c, names)
	if ct.reads["docs/a.md"] != 1 || len(got) != 4 || got[0] != (graph.Monitor{Path: "docs/a.md", Line: 1, Text: "new"}) {
		t.Fatalf("after an edit: reads %v, scan %+v", ct.reads, got)
	}
	// Another stamp names another table; no cache reads everything.
	c, ct = open("s2")
	monitorScan(t, c, names)
	if ct.reads["ops/watch.md"] != 1 {
		t.Fatalf("another stamp served the old table: %v", ct.reads)
	}
	c, ct = open("dev")
	if c.Cache != nil {
		t.Fatal("a dev stamp opened a store")
	}
	cached := c.PerFile(monitorsTable, nil)
	claim := c.ClaimReads(names)
	defer claim.Done()
	for _, f := range names {
		if _, err := monitorsOf(c, cached, claim, f); err != nil {
			t.Fatal(err)
		}
	}
	if ct.reads["ops/watch.md"] != 1 || ct.reads["docs/a.md"] != 1 {
		t.Fatalf("uncached reads = %v", ct.reads)
	}
}

// underTemplatesDir is the path.Dir walk underTemplates is held to.
func underTemplatesDir(rel string) bool {
	for d := path.Dir(rel); d != "." && d != "/"; d = path.Dir(d) {
		if path.Base(d) == "templates" {
			return true
		}
	}
	return false
}

func TestUnderTemplatesMatchesReference(t *testing.T) {
	for _, p := range []string{"templates", "templates/x", "a/templates/b/c", "a/templates", "a/templatesx/b", "xtemplates/b", "a/b/c", "a/b/templates/"} {
		if got, want := underTemplates(p), underTemplatesDir(p); got != want {
			t.Errorf("underTemplates(%q) = %v, the reference says %v", p, got, want)
		}
	}
}

func TestMonitorSetCache(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.md":   graph.MonitorMarker + " one\n",
		"b.md":   "nothing\n",
		"c/d.md": "x\n" + graph.MonitorMarker + " two\n",
	}
	names := []string{"a.md", "b.md", "c/d.md"}
	scan := func(names []string) ([]graph.Monitor, map[string]int, []cache.Stat) {
		mt := memTree(files)
		ct := &countTree{Tree: mt, reads: map[string]int{}, fail: map[string]bool{}}
		c := &gate.Context{Tree: blobTree{ct}, Cache: cache.Open("s1", func() (string, error) { return dir, nil })}
		got, err := scanMonitors(c, names, nil)
		if err != nil {
			t.Fatal(err)
		}
		stats := c.Cache.Stats()
		if err := c.Cache.Flush(); err != nil {
			t.Fatal(err)
		}
		return got, ct.reads, stats
	}
	cold, reads, _ := scan(names)
	if len(cold) != 2 || reads["b.md"] != 1 {
		t.Fatalf("cold: %+v, reads %v", cold, reads)
	}
	warm, reads, stats := scan(names)
	if !reflect.DeepEqual(warm, cold) || len(reads) != 0 {
		t.Fatalf("warm: %+v (want %+v), reads %v", warm, cold, reads)
	}
	for _, s := range stats {
		if s.Gate == monitorsTable && s.Hits+s.Misses != 0 {
			t.Fatalf("a set hit still looked files up: %+v", stats)
		}
	}
	// Each input of the key, changed, misses the set: a file dropped from
	// the scan, a blob changed, a mode changed.
	if got, _, _ := scan(names[:2]); len(got) != 1 {
		t.Fatalf("a smaller set answered %+v", got)
	}
	files["b.md"] = graph.MonitorMarker + " three\n"
	if got, reads, _ := scan(names); len(got) != 3 || reads["b.md"] != 1 {
		t.Fatalf("a changed blob answered %+v, reads %v", got, reads)
	}
}

// TestMonitorSetKeyMode: the mode is part of a set's key.
func TestMonitorSetKeyMode(t *testing.T) {
	mt := memTree(map[string]string{"a": "x"})
	c := &gate.Context{Tree: blobTree{&countTree{Tree: mt, reads: map[string]int{}}}, Cache: cache.Open("s1", func() (string, error) { return t.TempDir(), nil })}
	sets := c.SetResults(monitorSetTable, nil)
	k1, ok := sets.Key([]string{"a"})
	mt.Modes["a"] = 0o100755
	k2, _ := sets.Key([]string{"a"})
	if !ok || k1 == k2 {
		t.Fatalf("the mode did not move the key: %q %q", k1, k2)
	}
}

// assertion E: a tree that differs from a prior one only in some files'
// bytes takes the prior tree's whole answer: equal to a whole uncached
// scan (a declaration kept in an unchanged file, one gone from a changed
// file, one new in another), reading only the changed files; a prior tree
// with no answer kept, or a kept declaration of a file the scan lacks, is
// scanned as before.
func TestMonitorScanFromThePriorTree(t *testing.T) {
	dir := t.TempDir()
	var lookups int // the last cached scan's per-file entries looked up
	scan := func(digest string, files map[string]string, names []string, prior *gate.Prior, cached bool) ([]graph.Monitor, map[string]int) {
		t.Helper()
		ct := &countTree{Tree: memTree(files), reads: map[string]int{}, fail: map[string]bool{}}
		c := &gate.Context{Tree: digestTree{blobTree{ct}, digest}, Prior: prior}
		if cached {
			c.Cache = cache.Open("s1", func() (string, error) { return dir, nil })
		}
		got, err := scanMonitors(c, names, nil)
		if err != nil {
			t.Fatal(err)
		}
		lookups = 0
		for _, st := range c.Cache.Stats() {
			if st.Gate == monitorsTable {
				lookups = st.Hits + st.Misses
			}
		}
		if err := c.Cache.Flush(); err != nil {
			t.Fatal(err)
		}
		return got, ct.reads
	}
	base := map[string]string{
		"a.md":   graph.MonitorMarker + " one\n",
		"b.md":   "x\n" + graph.MonitorMarker + " two\n",
		"c/d.md": "nothing\n",
		"e.md":   graph.MonitorMarker + " five\n",
	}
	names := []string{"a.md", "b.md", "c/d.md", "e.md"}
	scan("t1", base, names, nil, true)
	next := map[string]string{"a.md": base["a.md"], "b.md": "gone\n", "c/d.md": graph.MonitorMarker + " three\n", "e.md": base["e.md"]}
	want, _ := scan("t2", next, names, nil, false)
	got, reads := scan("t2", next, names, &gate.Prior{Digest: "t1", Changed: []string{"b.md", "c/d.md"}}, true)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("from the prior tree: %+v\nwant %+v", got, want)
	}
	// The changed files are read and scanned, no per-file entry looked up.
	if len(reads) != 2 || reads["b.md"] != 1 || reads["c/d.md"] != 1 || lookups != 0 {
		t.Fatalf("from the prior tree read %v and looked up %d entries; want the two changed files read, no entry", reads, lookups)
	}
	if warm, reads := scan("t2", next, names, nil, true); !reflect.DeepEqual(warm, want) || len(reads) != 0 {
		t.Fatalf("the new tree's answer was not kept: %+v, reads %v", warm, reads)
	}
	third := map[string]string{"a.md": "plain\n", "b.md": next["b.md"], "c/d.md": next["c/d.md"], "e.md": base["e.md"]}
	want3, _ := scan("t3", third, names, nil, false)
	if got3, reads := scan("t3", third, names, &gate.Prior{Digest: "never-judged", Changed: []string{"a.md"}}, true); !reflect.DeepEqual(got3, want3) || reads["a.md"] != 1 {
		t.Fatalf("a prior tree with no answer: %+v (want %+v), reads %v", got3, want3, reads)
	}
	fewer := []string{"a.md", "c/d.md"}
	want4, _ := scan("t4", base, fewer, nil, false)
	if got4, _ := scan("t4", base, fewer, &gate.Prior{Digest: "t1", Changed: []string{"c/d.md"}}, true); !reflect.DeepEqual(got4, want4) {
		t.Fatalf("a kept declaration of a file the scan lacks: %+v, want %+v", got4, want4)
	}
}

// assertion F: treePresent's answers over a tree naming its listing in
// one digest are kept, and a prior tree listing the same paths answers
// for the next; every answer equals an uncached one's, and a new file
// (another listing) or other pages are asked afresh.
func TestTreePresentFromThePriorTree(t *testing.T) {
	dir := t.TempDir()
	patterns := []string{"*.ps1", "*.md", "docs/*", "src/*.go", "docs/graph.html", "nowhere/*"}
	var hits int
	ask := func(digest string, files map[string]string, pages gatetest.Knobs, prior *gate.Prior, cached bool) []bool {
		t.Helper()
		knobs := gatetest.Knobs{"GATE_SDK_GRAPH_ARTIFACT": "docs/graph.html", "GATE_SDK_ENFORCEMENT_FILE": "docs/enforcement.md"}
		for k, v := range pages {
			knobs[k] = v
		}
		c := &gate.Context{Tree: digestTree{blobTree{newCountTree(files)}, digest}, Knobs: knobs, Prior: prior}
		if cached {
			c.Cache = cache.Open("s1", func() (string, error) { return dir, nil })
		}
		present, err := treePresent(c)
		if err != nil {
			t.Fatal(err)
		}
		var out []bool
		for _, p := range patterns {
			out = append(out, present(p))
		}
		hits = 0
		for _, st := range c.Cache.Stats() {
			if st.Gate == presenceTable {
				hits = st.Hits
			}
		}
		if err := c.Cache.Flush(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	base := map[string]string{"docs/a.md": "a\n", "src/x.go": "package x\n", "data/t.txt": "t\n"}
	same := func(what string, got, want []bool) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}
	same("the first tree", ask("t1", base, nil, nil, true), ask("t1", base, nil, nil, false))
	edited := map[string]string{"docs/a.md": "a, edited\n", "src/x.go": "package x\n", "data/t.txt": "t\n"}
	want := ask("t2", edited, nil, nil, false)
	same("an edit from the prior tree", ask("t2", edited, nil, &gate.Prior{Digest: "t1", Changed: []string{"docs/a.md"}}, true), want)
	if hits != len(patterns) {
		t.Fatalf("the prior tree's answers were not taken: %d hits", hits)
	}
	same("the new tree warm", ask("t2", edited, nil, nil, true), want)
	if hits != len(patterns) {
		t.Fatalf("the new tree's answers were not kept: %d hits", hits)
	}
	grown := map[string]string{"docs/a.md": "a\n", "src/x.go": "package x\n", "data/t.txt": "t\n", "tools/run.ps1": "x\n"}
	wantGrown := ask("t3", grown, nil, nil, false)
	if !wantGrown[0] {
		t.Fatal("the new file's pattern is absent")
	}
	same("a new file", ask("t3", grown, nil, nil, true), wantGrown)
	other := gatetest.Knobs{"GATE_SDK_GRAPH_ARTIFACT": "nowhere/page.html"}
	wantOther := ask("t2", edited, other, nil, false)
	if !wantOther[5] {
		t.Fatal("the page knob does not count as present")
	}
	same("other pages", ask("t2", edited, other, &gate.Prior{Digest: "t1", Changed: []string{"docs/a.md"}}, true), wantOther)
}

// assertion G: from a prior tree the monitor scan asks each path of the
// listing and the filter one at a time and never builds the filtered
// listing; its answer equals a whole scan's over the filtered listing,
// for an edit, a changed file the filter drops, a listing out of path
// order and a kept declaration in a file the filter now drops.
func TestMonitorScanFiltersPathByPath(t *testing.T) {
	dir := t.TempDir()
	scan := func(digest string, files map[string]string, l *listed, prior *gate.Prior, cached bool) []graph.Monitor {
		t.Helper()
		c := &gate.Context{Tree: digestTree{blobTree{newCountTree(files)}, digest}, Prior: prior}
		if cached {
			c.Cache = cache.Open("s1", func() (string, error) { return dir, nil })
		}
		got, err := scanListed(c, l, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Cache.Flush(); err != nil {
			t.Fatal(err)
		}
		return got
	}
	dropTemplates := func(p string) bool { return !strings.HasPrefix(p, "templates/") }
	base := map[string]string{
		"a.md":           graph.MonitorMarker + " one\n",
		"b.md":           "x\n" + graph.MonitorMarker + " two\n",
		"c/d.md":         "nothing\n",
		"e.md":           graph.MonitorMarker + " five\n",
		"templates/x.md": graph.MonitorMarker + " never\n",
	}
	names := []string{"a.md", "b.md", "c/d.md", "e.md", "templates/x.md"}
	whole := func(digest string, files map[string]string, names []string, keep func(string) bool) []graph.Monitor {
		return scan(digest, files, &listed{files: keepListed(names, keep)}, nil, false)
	}
	scan("t1", base, &listed{files: names, keep: dropTemplates}, nil, true)
	next := map[string]string{"a.md": base["a.md"], "b.md": "gone\n", "c/d.md": graph.MonitorMarker + " three\n",
		"e.md": base["e.md"], "templates/x.md": graph.MonitorMarker + " still never\n"}
	want := whole("t2", next, names, dropTemplates)
	l := &listed{files: names, keep: dropTemplates}
	got := scan("t2", next, l, &gate.Prior{Digest: "t1", Changed: []string{"b.md", "c/d.md", "templates/x.md"}}, true)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("from the prior tree: %+v\nwant %+v", got, want)
	}
	if l.built {
		t.Fatal("the prior tree's answer built the filtered listing")
	}
	if len(want) != 3 {
		t.Fatalf("the whole scan found %+v: the case asks nothing", want)
	}
	// A listing out of path order is scanned whole, to the same answer.
	rev := slices.Clone(names)
	slices.Reverse(rev)
	wantRev := whole("t3", next, rev, dropTemplates)
	lr := &listed{files: rev, keep: dropTemplates}
	if got := scan("t3", next, lr, &gate.Prior{Digest: "t1", Changed: []string{"b.md"}}, true); !reflect.DeepEqual(got, wantRev) || !lr.built {
		t.Fatalf("an unordered listing: %+v (built %v), want %+v", got, lr.built, wantRev)
	}
	// A kept declaration of a file the filter now drops: scanned whole.
	dropE := func(p string) bool { return dropTemplates(p) && p != "e.md" }
	want4 := whole("t4", next, names, dropE)
	l4 := &listed{files: names, keep: dropE}
	if got := scan("t4", next, l4, &gate.Prior{Digest: "t2", Changed: []string{"a.md"}}, true); !reflect.DeepEqual(got, want4) || !l4.built {
		t.Fatalf("a kept declaration the filter drops: %+v (built %v), want %+v", got, l4.built, want4)
	}
}

// assertion H: a SPEC's headings are kept by its path and blob id: a
// later run over the same bytes reads nothing and answers the same, an
// edited SPEC is read and answers its new headings, and with no cache the
// answer is the same again.
func TestSpecHeadingsKeptByBlob(t *testing.T) {
	dir := t.TempDir()
	const spec = "kits/gate-sdk/SPEC.md"
	ask := func(body string, cached bool) ([]string, int) {
		t.Helper()
		ct := newCountTree(map[string]string{spec: body})
		c := &gate.Context{Tree: digestTree{blobTree{ct}, "t"}}
		if cached {
			c.Cache = cache.Open("s1", func() (string, error) { return dir, nil })
		}
		ask := specHeadings(c)
		hs, err := ask(spec)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ask(spec) // asked once per class: kept for the run
		if err != nil || !slices.Equal(again, hs) {
			t.Fatalf("a second ask in one run: %q %v, want %q", again, err, hs)
		}
		if err := c.Cache.Flush(); err != nil {
			t.Fatal(err)
		}
		return hs, ct.reads[spec]
	}
	v1 := "# gate-sdk\n\n## The enforcement map\n#  \ntext\n### Blocking gates\r\n"
	want := graph.Headings([]byte(v1))
	if got, reads := ask(v1, true); !slices.Equal(got, want) || reads != 1 {
		t.Fatalf("cold: %q after %d reads, want %q after one", got, reads, want)
	}
	if got, reads := ask(v1, true); !slices.Equal(got, want) || reads != 0 {
		t.Fatalf("warm: %q after %d reads, want %q after none", got, reads, want)
	}
	v2 := "# gate-sdk\n\n## Something else\n"
	want2 := graph.Headings([]byte(v2))
	if got, reads := ask(v2, true); !slices.Equal(got, want2) || reads != 1 || slices.Equal(want2, want) {
		t.Fatalf("edited: %q after %d reads, want %q after one", got, reads, want2)
	}
	if got, _ := ask(v1, false); !slices.Equal(got, want) {
		t.Fatalf("uncached: %q, want %q", got, want)
	}
	for _, hs := range [][]string{{}, {""}, {"a", "", "b"}, want} {
		if got := decodeHeadings(encodeHeadings(hs)); !slices.Equal(got, hs) {
			t.Fatalf("round trip of %q: %q", hs, got)
		}
	}
}

// pathsTree is a digestTree that names its paths apart from their bytes.
type pathsTree struct {
	digestTree
	paths string
}

func (t pathsTree) PathsDigest() (string, bool) { return t.paths, true }

// assertion I: over trees naming their paths apart from their bytes, the
// presence answers are kept by that name: a tree of the same paths and
// other bytes (another whole-listing digest, no prior) takes every answer
// and stores none, and a tree of other paths computes its own; every
// answer equals an uncached one.
func TestTreePresentKeptByThePaths(t *testing.T) {
	dir := t.TempDir()
	patterns := []string{"*.ps1", "*.md", "docs/*", "src/*.go", "docs/graph.html", "nowhere/*"}
	var hits int
	ask := func(tree gate.Tree, cached bool) []bool {
		t.Helper()
		knobs := gatetest.Knobs{"GATE_SDK_GRAPH_ARTIFACT": "docs/graph.html", "GATE_SDK_ENFORCEMENT_FILE": "docs/enforcement.md"}
		c := &gate.Context{Tree: tree, Knobs: knobs}
		if cached {
			c.Cache = cache.Open("s1", func() (string, error) { return dir, nil })
		}
		present, err := treePresent(c)
		if err != nil {
			t.Fatal(err)
		}
		var out []bool
		for _, p := range patterns {
			out = append(out, present(p))
		}
		hits = 0
		for _, st := range c.Cache.Stats() {
			if st.Gate == presenceTable {
				hits = st.Hits
			}
		}
		if err := c.Cache.Flush(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	journal := func() int64 {
		var n int64
		ms, _ := filepath.Glob(filepath.Join(dir, "*.log"))
		for _, m := range ms {
			if fi, err := os.Stat(m); err == nil {
				n += fi.Size()
			}
		}
		return n
	}
	same := func(what string, got, want []bool) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}
	tree := func(files map[string]string, digest, paths string) gate.Tree {
		return pathsTree{digestTree{blobTree{newCountTree(files)}, digest}, paths}
	}
	base := map[string]string{"docs/a.md": "a\n", "src/x.go": "package x\n", "data/t.txt": "t\n"}
	want := ask(tree(base, "t1", "p1"), false)
	same("the first tree", ask(tree(base, "t1", "p1"), true), want)
	if hits != 0 {
		t.Fatalf("the first tree: %d hits", hits)
	}
	before := journal()
	for i, body := range []string{"a, edited\n", "a, edited again\n", "a\n"} {
		edited := map[string]string{"docs/a.md": body, "src/x.go": "package x\n", "data/t.txt": "t\n"}
		digest := fmt.Sprintf("t1-edit-%d", i)
		want := ask(tree(edited, digest, "p1"), false)
		same("an edit of the same paths", ask(tree(edited, digest, "p1"), true), want)
		if hits != len(patterns) {
			t.Fatalf("edit %d of the same paths: %d hits, want %d", i, hits, len(patterns))
		}
	}
	if after := journal(); after != before {
		t.Fatalf("edits of the same paths stored answers: the journals grew from %d to %d bytes", before, after)
	}
	grown := map[string]string{"docs/a.md": "a\n", "src/x.go": "package x\n", "data/t.txt": "t\n", "tools/run.ps1": "x\n"}
	wantGrown := ask(tree(grown, "t3", "p3"), false)
	if !wantGrown[0] {
		t.Fatal("the new file's pattern is absent")
	}
	same("other paths", ask(tree(grown, "t3", "p3"), true), wantGrown)
	if hits != 0 {
		t.Fatalf("other paths: %d hits", hits)
	}
}
