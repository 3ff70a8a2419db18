package gates

// check-enforcement-fresh: the committed enforcement-map page is what the
// emitter derives from the registries now, byte for byte.

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/graph"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

var enforcementKnobs = []string{"GATE_SDK_ENFORCEMENT_FILE", "GATE_SDK_ENFORCE_SCAN_DIR", "GATE_SDK_PRUNE_DIRS", "GATE_SDK_PRUNE_EXTRA_DIRS", "GATE_SDK_KIT_DIRS", "GATE_SDK_GRAPH_ARTIFACT"}

// EnforcementEmission derives the enforcement-map page over a context:
// the function the --emit enforcement-map arm prints and the gate
// compares. Monitors are read from the tracked files under the scan dir,
// outside any templates/ directory and the prune set.
func EnforcementEmission(c *gate.Context) ([]byte, error) {
	if c.Coupling == nil {
		return nil, errors.New("no registry loader in this context")
	}
	reg, _, err := c.Coupling()
	if err != nil {
		return nil, err
	}
	page, err := c.Knobs.Scalar("GATE_SDK_ENFORCEMENT_FILE")
	if err != nil {
		return nil, err
	}
	scan, err := c.Knobs.Scalar("GATE_SDK_ENFORCE_SCAN_DIR")
	if err != nil {
		return nil, err
	}
	ps, err := pruneSet(c)
	if err != nil {
		return nil, err
	}
	files, err := c.Tree.Files()
	if err != nil {
		return nil, err
	}
	root := strings.Trim(strings.TrimPrefix(scan, "./"), "/")
	if root == "." {
		root = ""
	}
	prefix := root + "/"
	// Both tests read only the directory part: asked once per directory.
	pruned := walk.ByDir(func(rel string) bool { return ps.PathPruned(rel) || underTemplates(rel) })
	// The page is left out of its own scan. The scanned files are the
	// listing less what this filter drops, built only if the scan needs
	// them whole (§check-enforcement-fresh G).
	scanned := &listed{files: files, keep: func(f string) bool {
		rel, keep := f, true
		if root != "" {
			rel, keep = strings.CutPrefix(f, prefix)
		}
		return keep && !pruned(rel) && f != page
	}}
	monitors, err := scanListed(c, scanned, listingSelection(root, ps, page))
	if err != nil {
		return nil, err
	}
	// The listing is the tree's own: tracked is its index lookup, not a
	// second map of every path.
	tracked := func(p string) bool {
		_, ok := c.Tree.Mode(p)
		return ok
	}
	// assertion F: whether a tracked path matches a pattern is kept by
	// the listing's digest, and a prior tree listing the same paths
	// answers for this one.
	// assertion I: over a tree that names its paths apart from their
	// bytes, by that name, shared by every tree listing those paths.
	present, err := treePresent(c)
	if err != nil {
		return nil, err
	}
	return graph.EmitEnforcement(graph.EnforcementInput{Registry: reg, KitRoots: c.KitRoots, Page: page,
		Tracked: tracked, Read: c.Tree.Read, Headings: specHeadings(c), Present: present, Monitors: monitors})
}

// specHeadings answers a tracked file's headings (graph.Headings), kept in
// the monitor scan's set table by the file's path and blob id: a kit's
// SPEC is large, and its bytes change far less often than the tree.
func specHeadings(c *gate.Context) func(string) ([]string, error) {
	sets := c.SetResults(monitorSetTable, nil)
	blobs, _ := c.Tree.(gate.Blobs)
	seen := map[string][]string{} // the page asks one SPEC once per class
	return func(spec string) ([]string, error) {
		if hs, ok := seen[spec]; ok {
			return hs, nil
		}
		hs, err := specHeadingsOf(c, sets, blobs, spec)
		if err == nil {
			seen[spec] = hs
		}
		return hs, err
	}
}

// specHeadingsOf is one file's answer for specHeadings.
func specHeadingsOf(c *gate.Context, sets *gate.SetResults, blobs gate.Blobs, spec string) ([]string, error) {
	// assertion H: the headings are a function of the file's bytes,
	// kept under its path and blob id, so an unchanged kit SPEC is
	// neither read nor hashed.
	key := ""
	if sets != nil && blobs != nil {
		if id, ok := blobs.BlobID(spec); ok {
			var k cache.Config
			k.AddString("spec-headings", spec)
			k.AddString("blob", id)
			key = k.Digest()
			if v, hit := sets.Lookup(key); hit {
				return decodeHeadings(v), nil
			}
		}
	}
	data, err := c.Tree.Read(spec)
	if err != nil {
		return nil, err
	}
	hs := graph.Headings(data)
	if key != "" {
		sets.Store(key, encodeHeadings(hs))
	}
	return hs, nil
}

// encodeHeadings writes each heading followed by a newline (a heading
// holds none), so an empty heading and no heading differ.
func encodeHeadings(hs []string) []byte {
	var b []byte
	for _, h := range hs {
		b = append(append(b, h...), '\n')
	}
	return b
}

// decodeHeadings reads encodeHeadings' bytes.
func decodeHeadings(v []byte) []string {
	out := []string{}
	for len(v) > 0 {
		i := bytes.IndexByte(v, '\n')
		if i < 0 {
			i = len(v) // not written so; read as one last heading
		}
		out = append(out, string(v[:i]))
		v = v[min(i+1, len(v)):]
	}
	return out
}

// listed is a scan's files: the listing less what keep drops (nil keeps
// every file), the filtered slice built only when a reader asks for it
// whole. Not safe for concurrent use.
type listed struct {
	files  []string
	keep   func(string) bool
	built  bool
	sorted int8 // whether files is in path order: 0 not yet asked, 1 yes, -1 no
	all    []string
}

// list answers the scanned files, in listing order, shared with the
// listing when keep drops none (read only).
func (l *listed) list() []string {
	if !l.built {
		l.all, l.built = l.files, true
		if l.keep != nil {
			l.all = keepListed(l.files, l.keep)
		}
	}
	return l.all
}

// inOrder reports whether the listing is in path order, asked once.
func (l *listed) inOrder() bool {
	if l.sorted == 0 {
		l.sorted = -1
		if slices.IsSorted(l.files) {
			l.sorted = 1
		}
	}
	return l.sorted > 0
}

// has reports whether p is a scanned file; only for a listing in path
// order (inOrder).
func (l *listed) has(p string) bool {
	if _, ok := slices.BinarySearch(l.files, p); !ok {
		return false
	}
	return l.keep == nil || l.keep(p)
}

// treeDigest answers the digest naming the context tree's whole listing,
// when it offers one (a staged snapshot, an edit overlay).
func treeDigest(c *gate.Context) (string, bool) {
	if d, ok := c.Tree.(gate.TreeDigests); ok {
		return d.TreeDigest()
	}
	return "", false
}

// scanMonitors answers the monitor declarations of the scanned files, in
// order.
func scanMonitors(c *gate.Context, scanned []string, selection *cache.Config) ([]graph.Monitor, error) {
	return scanListed(c, &listed{files: scanned}, selection)
}

// scanListed is scanMonitors over the files l lists.
func scanListed(c *gate.Context, l *listed, selection *cache.Config) ([]graph.Monitor, error) {
	// assertion D: the scan's whole answer is cached under a digest of the
	// scanned files' paths, modes and blob ids (or, over a staged
	// snapshot, the index's digest and the selection): a warm run over an
	// unchanged set reads no file and looks up no file's entry.
	sets := c.SetResults(monitorSetTable, nil)
	var key string
	var keyed bool
	if digest, ok := treeDigest(c); ok {
		// assertion G: a key that names the tree by its digest needs no
		// file of the scan.
		key, keyed = sets.KeyAt(digest, selection)
	} else {
		key, keyed = sets.KeyOf(selection, l.list())
	}
	if v, hit := sets.Lookup(key); hit {
		if fs, err := gate.DecodeFindings(v); err == nil {
			out := make([]graph.Monitor, 0, len(fs))
			for _, x := range fs {
				out = append(out, graph.Monitor{Path: x.Path, Line: x.Line, Text: x.Msg})
			}
			return out, nil
		}
	}
	// assertion C: a file's monitor declarations are a function of its
	// path and bytes alone, so they are cached by path and blob id under
	// one table the gate and the emit arm share.
	cached := c.PerFile(monitorsTable, nil)
	if keyed {
		if found, ok := monitorsFromPrior(c, sets, selection, cached, l); ok {
			return joinMonitors(sets, key, found), nil
		}
	}
	scanned := l.list()
	found := make([][]graph.Monitor, len(scanned))
	failed := make([]error, len(scanned))
	// The cached answers first, so only the files to read are claimed (a
	// claim and its drop cost a lookup and a lock per file).
	blobs := make([]string, len(scanned))
	var misses []int
	var missMu sync.Mutex
	eachIndex(len(scanned), func(i int, scratch []int) []int {
		out, blob, hit := cachedMonitors(c, cached, scanned[i])
		if hit {
			found[i] = out
			return scratch
		}
		blobs[i] = blob
		missMu.Lock()
		misses = append(misses, i)
		missMu.Unlock()
		return scratch
	})
	claim := claimMisses(c, misses, scanned)
	defer claim.Done()
	// Read and scanned on every CPU, joined in listing order: the answer
	// (and the first error, in that order) never depends on the pool.
	eachIndex(len(misses), func(k int, scratch []int) []int {
		i := misses[k]
		found[i], failed[i] = monitorsRead(c, cached, claim, scanned[i], blobs[i])
		return scratch
	})
	for i := range scanned {
		if failed[i] != nil {
			return nil, failed[i]
		}
	}
	if !keyed {
		key = ""
	}
	return joinMonitors(sets, key, found), nil
}

// joinMonitors joins the scan's declarations in listing order and keeps
// them whole under key (none kept for "").
func joinMonitors(sets *gate.SetResults, key string, found [][]graph.Monitor) []graph.Monitor {
	var monitors []graph.Monitor
	for _, f := range found {
		monitors = append(monitors, f...)
	}
	if key != "" {
		fs := make([]gate.Finding, 0, len(monitors))
		for _, m := range monitors {
			fs = append(fs, gate.Finding{Path: m.Path, Line: m.Line, Msg: m.Text})
		}
		sets.Store(key, gate.EncodeFindings(fs))
	}
	return monitors
}

// monitorsFromPrior answers the scan's declarations, file by file, from
// the whole answer kept for the prior tree (gate.Context.Prior) under the
// same selection: every unchanged file's as kept, each changed file's
// from its per-file entry or its bytes. ok is false, and the scan runs as
// before, when there is no prior tree, no answer kept for it, a kept
// declaration names a file the scan does not list, or a changed file
// cannot be read.
func monitorsFromPrior(c *gate.Context, sets *gate.SetResults, selection *cache.Config, cached *gate.PerFile, scanned *listed) ([][]graph.Monitor, bool) {
	prior := c.TreePrior()
	if !c.WholeListing() {
		return nil, false
	}
	// assertion E: a tree that differs from the prior one only in some
	// listed files' bytes takes the prior tree's whole answer and scans
	// the changed files again: the answer equals a whole scan's.
	// assertion G: a path is asked of the listing and the filter, one at
	// a time, never the filtered listing built whole.
	if !scanned.inOrder() {
		return nil, false
	}
	kept, _, ok := priorRecords(c, sets, selection, scanned.has)
	if !ok {
		return nil, false
	}
	var changed []gate.Finding // the changed files', in path order
	for _, p := range prior.Changed {
		if !scanned.has(p) {
			continue // not one the scan reads
		}
		// The changed file's bytes are scanned, its per-file entry not
		// looked up: a marker search is a pass over the bytes, where a
		// lookup maps and checks the whole per-file table.
		data, err := c.Tree.Read(p)
		if err != nil {
			return nil, false
		}
		var ms []graph.Monitor
		if bytes.Contains(data, monitorMarker) {
			ms = graph.FindMonitors(p, data)
		}
		for _, m := range ms {
			changed = append(changed, gate.Finding{Path: m.Path, Line: m.Line, Msg: m.Text})
		}
	}
	all := mergeByPath(kept, changed)
	found := make([]graph.Monitor, 0, len(all))
	for _, x := range all {
		found = append(found, graph.Monitor{Path: x.Path, Line: x.Line, Text: x.Msg})
	}
	return [][]graph.Monitor{found}, true
}

// monitorSetTable names the cache table of whole monitor scans.
const monitorSetTable = "ENFORCEMENT-MONITOR-SETS"

// monitorsTable names the cache table of the per-file monitor scan.
const monitorsTable = "ENFORCEMENT-MONITORS"

// cachedMonitors answers the monitor declarations tracked file f holds
// when its blob was scanned before (hit), else the blob id to store its
// scan under. A link is never served from the cache: its bytes are its
// target string, read afresh.
func cachedMonitors(c *gate.Context, cached *gate.PerFile, f string) ([]graph.Monitor, string, bool) {
	if mode, _ := c.Tree.Mode(f); mode == 0o120000 {
		return nil, "", false
	}
	v, id, hit := cached.Lookup(f)
	if !hit {
		return nil, id, false
	}
	fs, err := gate.DecodeFindings(v)
	if err != nil {
		return nil, id, false
	}
	out := make([]graph.Monitor, 0, len(fs))
	for _, x := range fs {
		out = append(out, graph.Monitor{Path: f, Line: x.Line, Text: x.Msg})
	}
	return out, id, true
}

// monitorsRead reads tracked file f through claim and answers its
// monitor declarations, storing them under blob (a link's are not
// stored).
func monitorsRead(c *gate.Context, cached *gate.PerFile, claim gate.Claim, f, blob string) ([]graph.Monitor, error) {
	link := false
	if mode, _ := c.Tree.Mode(f); mode == 0o120000 {
		link = true
	}
	data, err := claim.Read(f)
	if err != nil {
		return nil, err
	}
	var found []graph.Monitor
	// Matched on the shared bytes in place, never copied to a string.
	if bytes.Contains(data, monitorMarker) {
		found = graph.FindMonitors(f, data)
	}
	if !link {
		fs := make([]gate.Finding, 0, len(found))
		for _, m := range found {
			fs = append(fs, gate.Finding{Line: m.Line, Msg: m.Text})
		}
		cached.Store(f, blob, gate.EncodeFindings(fs))
	}
	return found, nil
}

// monitorsOf answers the monitor declarations tracked file f holds: from
// the cache when its blob was scanned before (the claim on it dropped),
// else read through claim and scanned (and stored).
func monitorsOf(c *gate.Context, cached *gate.PerFile, claim gate.Claim, f string) ([]graph.Monitor, error) {
	out, blob, hit := cachedMonitors(c, cached, f)
	if hit {
		claim.Drop(f)
		return out, nil
	}
	return monitorsRead(c, cached, claim, f, blob)
}

var monitorMarker = []byte(graph.MonitorMarker)

func underTemplates(rel string) bool {
	// Any directory component (every segment but the last) named templates.
	for {
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			return false
		}
		if rel[:i] == registry.TemplatesDirName {
			return true
		}
		rel = rel[i+1:]
	}
}

func checkEnforcementFresh(c *gate.Context) int {
	var committed, want []byte
	var where string
	switch len(c.Args) {
	case 0:
		page, err := c.Knobs.Scalar("GATE_SDK_ENFORCEMENT_FILE")
		if err != nil {
			return c.RefuseErr(err)
		}
		where = page
		data, present, err := readOptional(c, page)
		if err != nil {
			return c.RefuseErr(err)
		}
		if !present {
			// assertion B: a missing projection is a red that could not compare.
			return c.Refuse("no enforcement-map page at %s (GATE_SDK_ENFORCEMENT_FILE); write it with gates --emit enforcement-map > %s", page, page)
		}
		committed = data
		if want, err = EnforcementEmission(c); err != nil {
			return c.Refuse("the enforcement-map emitter failed: %v", err)
		}
	case 2:
		where = c.Args[0]
		var err error
		if committed, err = readFile(c, c.Args[0]); err != nil {
			return c.Refuse("cannot read projection %s: %v", c.Args[0], unwrapPath(err))
		}
		if want, err = walk.ReadConfig(runPath(c, c.Args[1])); err != nil {
			return c.Refuse("cannot read emit source %s: %v", c.Args[1], unwrapPath(err))
		}
	default:
		return c.Refuse("usage: check-enforcement-fresh [projection-file emit-file]")
	}
	r := c.NewReport(map[string]string{"stale": fmt.Sprintf("regenerate the page: gates --emit enforcement-map > %s, and commit it", where)})
	if string(committed) != string(want) {
		// assertion A: the committed page is the emission, byte for byte.
		line := firstDiffLine(committed, want)
		r.Add(gate.Finding{Class: "stale", Path: where, Line: line, Msg: "the enforcement map is stale: it differs from what the registries emit now"})
		reportStaleDiff(c, where, committed, want)
	}
	return r.Done(fmt.Sprintf("%s matches the emission (%d bytes)", where, len(want)))
}

// firstDiffLine answers the first line at which two texts differ.
func firstDiffLine(a, b []byte) int {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}
