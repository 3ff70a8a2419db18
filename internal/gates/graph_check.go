package gates

// check-graph: every registered member's # graph: manifest is well formed
// and consistent, and the committed coupling-graph page is their faithful
// projection. The assertions live in internal/graph, which the --emit
// graph arm shares; this file picks the mode and reports.

import (
	"errors"
	"fmt"

	"os"
	"slices"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/glob"
	"github.com/gate-sdk/gates/internal/graph"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

var graphHelps = map[string]string{
	"A": "fix the manifest the line names: four required fields with legal values, tokens the member's knobs and the vocabulary admit, one declaration spelling per gate",
	"B": "widen trigger= so it covers every couples= surface (or drop trigger= to default it to couples=)",
	"C": "set valve= by the cycle rule: PROPOSED for a dir=bi gate spanning a leading and a lagging surface, none where no leading surface is coupled",
	"E": "regenerate the page: gates --emit graph > %s, and commit it",
	"F": "inline the asset in the theme part, or place it under the artifact's directory",
	"G": "fix the amendment's manifest: glob tokens only, each once, knob: tokens naming rows that take them",
	"H": "drop the external reference, or add its prefix to GATE_SDK_GRAPH_EXTERNAL_REFS",
	"I": "raise GATE_SDK_GRAPH_MAX_EDGES past the edge count, or split the registry's couplings",
	"M": "correct the couples= token to a path this tree tracks (a glob's \"**/\" also matches no directory), or drop it",
}

// graphKnobs is what check-graph and --emit graph read.
var graphKnobs = []string{
	"GATE_SDK_GRAPH_ARTIFACT", "GATE_SDK_GRAPH_VOCAB", "GATE_SDK_GRAPH_THEME_DIR",
	"GATE_SDK_GRAPH_MAX_EDGES", "GATE_SDK_GRAPH_EXTERNAL_REFS", "GATE_SDK_KIT_DIRS", "GATE_SDK_ENFORCEMENT_FILE",
	"GATE_SDK_PRUNE_DIRS", "GATE_SDK_PRUNE_EXTRA_DIRS", registry.EveryCouplesKnob,
}

// osFiles reads paths against the run directory.
type osFiles struct{ c *gate.Context }

func (f osFiles) ReadFile(name string) ([]byte, error) { return walk.ReadConfig(runPath(f.c, name)) }

// GraphEmission assembles the coupling-graph page over a context: the
// function check-graph compares and the --emit graph arm prints.
func GraphEmission(c *gate.Context) (*graph.Built, error) {
	if c.Coupling == nil {
		return nil, errors.New("no registry loader in this context")
	}
	reg, env, err := c.Coupling()
	if err != nil {
		return nil, err
	}
	vocab, err := c.Knobs.Scalar("GATE_SDK_GRAPH_VOCAB")
	if err != nil {
		return nil, err
	}
	theme, err := c.Knobs.Scalar("GATE_SDK_GRAPH_THEME_DIR")
	if err != nil {
		return nil, err
	}
	maxEdges, err := c.Knobs.Scalar("GATE_SDK_GRAPH_MAX_EDGES")
	if err != nil {
		return nil, err
	}
	present, err := treePresent(c)
	if err != nil {
		return nil, err
	}
	return graph.Assemble(graph.Input{Registry: reg, Env: env, Files: osFiles{c}, GatesDir: c.GatesDir, VocabPath: vocab, ThemeDir: theme, MaxEdges: maxEdges,
		Present: present})
}

// treePresent answers whether any tracked file matches a couples pattern:
// how the graph page and the enforcement map tell a kit's pattern this
// tree holds from one naming the tree the kit was written in. The two
// pages count as present whether or not they are tracked yet, so a page
// does not change on the commit that first adds it.
func treePresent(c *gate.Context) (func(string) bool, error) {
	files, err := c.Tree.Files()
	if err != nil {
		return nil, err
	}
	var pages []string
	for _, k := range []string{"GATE_SDK_GRAPH_ARTIFACT", "GATE_SDK_ENFORCEMENT_FILE"} {
		p, err := c.Knobs.Scalar(k)
		if err != nil {
			return nil, err
		}
		pages = append(pages, strings.TrimPrefix(p, "./"))
	}
	memo := map[string]bool{}
	// Over a tree naming its whole listing in one digest each answer is
	// kept, and one kept for a prior tree of the same listing answers.
	kept := keptPresence(c, pages)
	// The listing comes in index order; sorted, the paths opening with a
	// literal head are one run, found by a binary search.
	sorted, sortedKnown := false, false
	return func(pattern string) bool {
		if v, ok := memo[pattern]; ok {
			return v
		}
		if v, ok := kept.lookup(pattern); ok {
			memo[pattern] = v
			return v
		}
		if !sortedKnown {
			sorted, sortedKnown = slices.IsSorted(files), true
		}
		// Only a path opening with the pattern's literal head can match.
		head := pattern[:len(pattern)-len(strings.TrimLeft(pattern, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-"))]
		// Likewise a '*'-only pattern's literals: the cheap test first,
		// glob.Match still the judge.
		may := newLiteralFilter(pattern)
		match := func(f string) bool {
			return strings.HasPrefix(f, head) && may.may(f) && glob.Match(pattern, f)
		}
		v := slices.ContainsFunc(pages, match)
		if !v && sorted && head != "" {
			i, _ := slices.BinarySearch(files, head)
			for ; !v && i < len(files) && strings.HasPrefix(files[i], head); i++ {
				v = glob.Match(pattern, files[i])
			}
		} else if !v {
			v = slices.ContainsFunc(files, match)
		}
		memo[pattern] = v
		kept.store(pattern, v)
		return v
	}, nil
}

// presenceTable keeps treePresent's answers by the listing's digest, the
// pattern and the two pages.
const presenceTable = "TREE-PRESENT"

// presence is treePresent's kept answers: the tree's key and a prior
// tree's, nil when the tree names no digest or there is no cache.
type presence struct {
	sets          *gate.SetResults
	digest, prior string
}

func keptPresence(c *gate.Context, pages []string) *presence {
	d, ok := c.Tree.(gate.TreeDigests)
	if !ok {
		return nil
	}
	digest, ok := d.TreeDigest()
	if !ok {
		return nil
	}
	var config cache.Config
	for _, p := range pages {
		config.AddString("page", p)
	}
	sets := c.SetResults(presenceTable, &config)
	if sets == nil {
		return nil
	}
	k := &presence{sets: sets, digest: digest}
	// Over a tree naming its paths apart from their bytes
	// (gate.PathsDigests), the answers are kept by that name: whether a
	// path matches reads the paths alone, so every tree listing those
	// paths shares them, and none is copied from a prior tree
	// (check-enforcement-fresh I).
	if pd, ok := c.Tree.(gate.PathsDigests); ok {
		if paths, ok := pd.PathsDigest(); ok {
			k.digest = paths
			return k
		}
	}
	if p := c.TreePrior(); p != nil {
		k.prior = p.Digest
	}
	return k
}

func (k *presence) key(digest, pattern string) string {
	var sel cache.Config
	sel.AddString("pattern", pattern)
	key, _ := k.sets.KeyAt(digest, &sel)
	return key
}

// lookup answers pattern's kept answer for this tree, else for the prior
// tree (kept for this one in turn): whether a path matches a pattern
// reads the listing's paths alone, which a prior tree differing only in
// some files' bytes shares.
func (k *presence) lookup(pattern string) (bool, bool) {
	if k == nil {
		return false, false
	}
	key := k.key(k.digest, pattern)
	if v, hit := k.sets.Lookup(key); hit && len(v) == 1 {
		return v[0] == '1', true
	}
	if k.prior == "" {
		return false, false
	}
	// A prior tree's answer stands for a tree listing the same paths
	// (check-enforcement-fresh F).
	if v, hit := k.sets.Lookup(k.key(k.prior, pattern)); hit && len(v) == 1 {
		k.sets.Store(key, v)
		return v[0] == '1', true
	}
	return false, false
}

func (k *presence) store(pattern string, v bool) {
	if k == nil {
		return
	}
	b := []byte{'0'}
	if v {
		b[0] = '1'
	}
	k.sets.Store(k.key(k.digest, pattern), b)
}

func checkGraph(c *gate.Context) int {
	mode := ""
	if len(c.Args) > 0 {
		mode = c.Args[0]
	}
	switch mode {
	case "":
		if len(c.Args) > 0 {
			return c.Refuse("usage: check-graph [--amend-only [dir] | --refs-only [page] | --cap-only [page]]")
		}
		return graphWhole(c)
	case "--amend-only":
		if len(c.Args) > 2 {
			return c.Refuse("usage: check-graph --amend-only [dir]")
		}
		dir := "."
		if len(c.Args) == 2 {
			dir = c.Args[1]
		}
		r := c.NewReport(graphHelps)
		n, err := graphAmendments(c, r, dir)
		if err != nil {
			return c.RefuseErr(err)
		}
		return r.Done(fmt.Sprintf("%s under %s", plural(n, "amendment manifest", "amendment manifests"), dir))
	case "--refs-only", "--cap-only":
		if len(c.Args) > 2 {
			return c.Refuse("usage: check-graph %s [page]", mode)
		}
		page, where, err := graphPage(c)
		if err != nil {
			return c.RefuseErr(err)
		}
		r := c.NewReport(graphHelps)
		if mode == "--refs-only" {
			allowed, err := c.Knobs.Words("GATE_SDK_GRAPH_EXTERNAL_REFS")
			if err != nil {
				return c.RefuseErr(err)
			}
			addGraph(r, graph.CheckRefs(page, where, allowed))
			return r.Done(fmt.Sprintf("external references of %s within the allowed set", where))
		}
		addGraph(r, graph.CheckCap(page, where))
		limit, edges := graph.CapOf(page)
		return r.Done(fmt.Sprintf("%s draws %d of at most %d edges", where, edges, limit))
	}
	return c.Refuse("unknown mode %q; modes: --amend-only [dir], --refs-only [page], --cap-only [page] (no operand checks the whole tree)", mode)
}

// graphPage answers the page a hermetic H or I run reads: the operand's
// file, else the in-memory emission.
func graphPage(c *gate.Context) ([]byte, string, error) {
	if len(c.Args) == 2 {
		data, err := walk.ReadConfig(runPath(c, c.Args[1]))
		if err != nil {
			return nil, "", fmt.Errorf("cannot read %s: %w", c.Args[1], unwrapPath(err))
		}
		return data, c.Args[1], nil
	}
	b, err := GraphEmission(c)
	if err != nil {
		return nil, "", err
	}
	return b.Page, "the emission", nil
}

func graphWhole(c *gate.Context) int {
	artifact, err := c.Knobs.Scalar("GATE_SDK_GRAPH_ARTIFACT")
	if err != nil {
		return c.RefuseErr(err)
	}
	allowed, err := c.Knobs.Words("GATE_SDK_GRAPH_EXTERNAL_REFS")
	if err != nil {
		return c.RefuseErr(err)
	}
	if c.Coupling == nil {
		return c.Refuse("no registry loader in this context")
	}
	_, env, err := c.Coupling()
	if err != nil {
		return c.RefuseErr(err)
	}
	b, err := GraphEmission(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	helps := map[string]string{}
	for k, v := range graphHelps {
		helps[k] = v
	}
	helps["E"] = fmt.Sprintf(graphHelps["E"], artifact)
	r := c.NewReport(helps)
	// assertions A, B and C read the same expansion the hook selects by.
	addGraph(r, graph.CheckManifests(b.Model, b.Vocab, env.Declared))
	tracked, err := treePresent(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	addGraph(r, deadCouples(b.Model, tracked))
	// assertion E: the committed page is the emission, byte for byte.
	committed, present, err := readOptional(c, artifact)
	if err != nil {
		return c.RefuseErr(err)
	}
	switch {
	case !present:
		r.Add(gate.Finding{Class: "E", Path: artifact, Msg: "the coupling-graph page is missing"})
	case string(committed) != string(b.Page):
		r.Add(gate.Finding{Class: "E", Path: artifact, Msg: "the coupling-graph page is stale: it differs from what the registry's manifests emit now"})
	}
	hrefs, refs := graph.CheckLinks(b.Page, artifact, func(p string) bool {
		fi, err := os.Stat(runPath(c, p))
		return err == nil && fi.Mode().IsRegular()
	}, allowed)
	addGraph(r, hrefs)
	n, err := graphAmendments(c, r, ".")
	if err != nil {
		return c.RefuseErr(err)
	}
	addGraph(r, refs)
	addGraph(r, graph.CheckCap(b.Page, artifact))
	return r.Done(fmt.Sprintf("%s (%d resolving nowhere, skipped), %s, %s; %s fresh; %s",
		plural(len(b.Model.Nodes), "member", "members"), len(b.Model.Skipped),
		plural(len(b.Model.Surfaces()), "surface", "surfaces"), plural(b.Model.Edges(), "edge", "edges"),
		artifact, plural(n, "amendment manifest", "amendment manifests")))
}

func addGraph(r *gate.Report, fs []graph.Finding) {
	for _, f := range fs {
		r.Add(gate.Finding{Class: f.Assertion, Path: f.Path, Line: f.Line, Msg: f.Msg})
	}
}

// graphAmendments runs assertion G over every SPEC-*.md under dir (a walk
// with the shared prune set) and answers how many manifests it read.
func graphAmendments(c *gate.Context, r *gate.Report, dir string) (int, error) {
	ps, err := pruneSet(c)
	if err != nil {
		return 0, err
	}
	root := runPath(c, dir)
	// The listing of SPEC-*.md names is kept between runs, vouched for by
	// the stat data of every directory the walk entered (walk.Find); the
	// files themselves are read afresh every time.
	var config cache.Config
	config.AddString("root", root)
	for _, n := range ps.Names() {
		config.AddString("prune", n)
	}
	var memo walk.Memo
	if t := c.Cache.Table("GRAPH-AMENDMENT-LISTING", &config); t != nil {
		memo = tableMemo{t}
	}
	files, err := walk.Find(root, walk.Options{Prune: ps, Recorder: c.Recorder}, memo, func(name string) bool {
		return glob.Match("SPEC-*.md", name)
	})
	if err != nil {
		return 0, err
	}
	sort.Strings(files)
	shape := func(name string) (registry.Shape, bool) {
		if c.CouplesKnobs == nil {
			return 0, false
		}
		v, err := c.CouplesKnobs.Knob(name)
		if err != nil {
			return 0, false
		}
		return v.Shape, true
	}
	n := 0
	for _, f := range files {
		data, err := walk.ReadConfig(walk.Child(root, f))
		if err != nil {
			return 0, fmt.Errorf("cannot read %s: %w", f, unwrapPath(err))
		}
		shown := f
		if dir != "." {
			shown = strings.TrimSuffix(dir, "/") + "/" + f
		}
		for _, s := range graph.AmendManifests(data) {
			n++
			addGraph(r, graph.CheckAmendment(shown, s, shape))
		}
	}
	return n, nil
}

// tableMemo keeps a walk.Find listing as the one entry of a result-cache
// table.
type tableMemo struct{ t *cache.Table }

func (m tableMemo) Load() ([]byte, bool) { return m.t.Peek("", "listing") }
func (m tableMemo) Store(b []byte)       { m.t.Put("", "listing", b) }
func (m tableMemo) Served(hit bool)      { m.t.Tally(hit) }

// deadCouples is assertion M: a plain couples= token of one of the
// tree's own script members that names no place in the tree couples
// nothing, so no edit would ever fire the gate. A literal token must be a
// tracked path; a glob must match one, or at least open with a directory
// the tree tracks files under (a gate may watch for a kind of file not
// written yet, but not in a directory that does not exist). A kit's
// member and a compiled descriptor are left out: their tokens are written
// for every tree the kit serves. A kit: or knob: token is judged by its
// expansion elsewhere.
func deadCouples(m *graph.Model, present func(string) bool) []graph.Finding {
	var out []graph.Finding
	for _, n := range m.Nodes {
		if n.Kit || n.Compiled || n.Manifest == nil || n.Manifest.Graph == nil {
			continue
		}
		g := n.Manifest.Graph
		for _, t := range g.Couples {
			if strings.HasPrefix(t, registry.PrefixKit) || strings.HasPrefix(t, registry.PrefixKnob) || present(t) {
				continue
			}
			if i := strings.IndexAny(t, "*?[\\"); i >= 0 {
				dir := t[:strings.LastIndexByte(t[:i], '/')+1]
				if dir == "" || present(dir+"*") {
					continue
				}
			}
			// assertion M: a couple naming no place in the tree never fires.
			out = append(out, graph.Finding{Assertion: "M", Path: n.Decl, Line: g.Line, Msg: fmt.Sprintf("%s: couples= token %q names no tracked path, so no edit fires the gate", n.Name, t)})
		}
	}
	return out
}
