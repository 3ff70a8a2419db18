package gates

// The scan every check-action-* member shares: the optional scan-root
// operand, the tracked listing narrowed to YAML (and, for job-ref,
// markdown) under it with the shared prune set, and each file read once
// through internal/workflow.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/walk"
	"github.com/gate-sdk/gates/internal/workflow"
)

// actionScan is a check-action-* member's corpus.
type actionScan struct {
	root  string   // the scan root as the operand spelled it, "." by default
	rel   string   // the scan root relative to the run directory, cleaned
	files []string // matching walked paths, relative to the run directory, sorted
	set   *scanSet
	// fromIndex counts the matching files that are tracked but not on disk
	// (a sparse checkout's skip-worktree entries; at commit time, staged
	// files removed from the work tree), read from their blobs.
	fromIndex int
}

var yamlExts = []string{".yml", ".yaml"}

// scanSet is one filesystem walk of a scan root with the shared prune set,
// and each walked file's bytes and reading, made at most once per process
// and shared by every check-action-* member that scans the same root of
// the same tree.
type scanSet struct {
	once    sync.Once
	files   []string
	offDisk map[string]bool // files read from the index, not found on disk
	err     error

	mu   sync.Mutex
	docs map[string]*scanDoc
}

type scanDoc struct {
	once sync.Once
	data []byte
	file *workflow.File
	err  error
}

// scanKey names a walk: the tree snapshot it serves (one per process run),
// the run directory, the canonical scan root and the prune set.
type scanKey struct {
	tree  gate.Tree
	dir   string
	root  string
	prune string
}

var scans sync.Map // scanKey -> *scanSet

// scanActions resolves the scan root (the one optional operand) and the
// files under it with one of exts. A second operand, or a root that leaves
// the run directory or is not a directory, is refused: the gate could not
// decide what to read.
func scanActions(c *gate.Context, exts ...string) (actionScan, error) {
	s := actionScan{root: "."}
	switch len(c.Args) {
	case 0:
	case 1:
		s.root = c.Args[0]
	default:
		return s, fmt.Errorf("takes at most one operand (the scan root), got %d", len(c.Args))
	}
	rel, err := scanRoot(c, s.root)
	if err != nil {
		return s, err
	}
	ps, err := pruneSet(c)
	if err != nil {
		return s, err
	}
	key := scanKey{tree: c.Tree, dir: c.Dir, root: rel, prune: strings.Join(ps.Names(), " ")}
	v, _ := scans.LoadOrStore(key, &scanSet{docs: map[string]*scanDoc{}})
	set := v.(*scanSet)
	set.once.Do(func() { set.files, set.offDisk, set.err = walkScan(c, rel, ps) })
	if set.err != nil {
		return s, set.err
	}
	s.set, s.rel = set, rel
	for _, f := range set.files {
		if hasExt(f, exts) {
			s.files = append(s.files, f)
			if set.offDisk[f] {
				s.fromIndex++
			}
		}
	}
	c.Recorder.Note(rel)
	return s, nil
}

// scanRoot answers the scan root relative to the run directory, cleaned,
// so every spelling of one directory (.github/./workflows, a//b,
// x/../.github) is the same root. One outside the run directory, or not a
// directory, is refused.
func scanRoot(c *gate.Context, root string) (string, error) {
	rel := treePath(c, root)
	if !walk.PathRoot(rel) {
		rel = path.Clean(rel)
	}
	if walk.PathRoot(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("scan root %s is outside the run directory", root)
	}
	full := c.Dir
	if rel != "." {
		full = c.Dir + "/" + rel
	}
	fi, err := os.Stat(full)
	if err != nil || !fi.IsDir() {
		return "", fmt.Errorf("scan root %s is not a directory", root)
	}
	if rel != "." {
		// A root reached through a symbolic link must still land inside
		// the run directory.
		top, err1 := walk.Canonicalize(c.Dir)
		real, err2 := walk.Canonicalize(full)
		if err1 != nil || err2 != nil {
			return "", fmt.Errorf("scan root %s cannot be resolved", root)
		}
		if _, inside := walk.RelUnder(top, real); !inside {
			return "", fmt.Errorf("scan root %s is outside the run directory", root)
		}
	}
	return rel, nil
}

// walkScan walks the scan root once: every regular file (or symbolic link
// to one) below it, outside the pruned directories and nested
// repositories, spelled relative to the run directory and sorted. A
// tracked file under the root that the disk lacks but the tree reads from
// its blob (a sparse entry; a staged file deleted from the work tree) is
// added too, and answered in offDisk: a walk of the disk alone would judge
// the tree without it and call the result clean.
func walkScan(c *gate.Context, rel string, ps walk.PruneSet) ([]string, map[string]bool, error) {
	out, err := walkDisk(c, rel, ps)
	if err != nil {
		return nil, nil, err
	}
	// assertion S: tracked entries not on disk are read from the index.
	bb, ok := c.Tree.(gate.BlobBacked)
	if !ok {
		return out, nil, nil
	}
	tracked, err := c.Tree.Files()
	if err != nil {
		return nil, nil, err
	}
	walked := make(map[string]bool, len(out))
	for _, p := range out {
		walked[p] = true
	}
	var offDisk map[string]bool
	for _, p := range tracked {
		under := p
		if rel != "." {
			var in bool
			if under, in = strings.CutPrefix(p, rel+"/"); !in {
				continue
			}
		}
		if walked[p] || ps.PathPruned(under) || !bb.FromBlob(p) {
			continue
		}
		if _, err := os.Lstat(runPath(c, p)); err == nil || !errors.Is(err, fs.ErrNotExist) {
			continue // on disk (the walk chose to skip it), or unreadable: the walk's own call
		}
		if offDisk == nil {
			offDisk = map[string]bool{}
		}
		offDisk[p] = true
		out = append(out, p)
	}
	sort.Strings(out)
	return out, offDisk, nil
}

// fromIndexNote is the clean-line clause naming the files a scan read from
// the index because the work tree lacks them; "" when there were none.
func (s actionScan) fromIndexNote() string {
	if s.fromIndex == 0 {
		return ""
	}
	return "; " + plural(s.fromIndex, "file", "files") + " read from the index (not on disk)"
}

// walkDisk is walkScan's walk of the disk.
func walkDisk(c *gate.Context, rel string, ps walk.PruneSet) ([]string, error) {
	base := c.Dir
	if rel != "." {
		base = c.Dir + "/" + rel
	}
	var out []string
	err := walk.Walk(base, walk.Options{Prune: ps, Recorder: c.Recorder}, func(p string, d fs.DirEntry) error {
		if d.IsDir() {
			// A nested repository (a directory holding its own .git, a
			// vendored clone say) is another project, with its own CI.
			if _, err := os.Lstat(base + "/" + p + "/.git"); err == nil {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			fi, err := os.Stat(base + "/" + p)
			if err != nil || !fi.Mode().IsRegular() {
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		if rel != "." {
			p = rel + "/" + p
		}
		out = append(out, p)
		return nil
	})
	sort.Strings(out)
	return out, err
}

func hasExt(p string, exts []string) bool {
	for _, e := range exts {
		if strings.HasSuffix(p, e) && len(p) > len(e) && !strings.HasSuffix(p, "/"+e) {
			return true
		}
	}
	return false
}

func (s actionScan) doc(p string) *scanDoc {
	s.set.mu.Lock()
	defer s.set.mu.Unlock()
	d := s.set.docs[p]
	if d == nil {
		d = &scanDoc{}
		s.set.docs[p] = d
	}
	return d
}

// readBytes answers a walked file's bytes, read once per process: a
// tracked file through the shared snapshot, an untracked one (or a link,
// followed) from the disk.
func (s actionScan) readBytes(c *gate.Context, p string) ([]byte, error) {
	d := s.doc(p)
	d.once.Do(func() {
		mode, tracked := c.Tree.Mode(p)
		if tracked && mode != 0o120000 {
			d.data, d.err = c.Tree.Read(p)
		} else {
			d.data, d.err = walk.ReadConfig(runPath(c, p))
		}
		if d.err != nil {
			d.err = fmt.Errorf("cannot read %s: %w", p, d.err)
			return
		}
		if hasExt(p, yamlExts) {
			d.file = workflow.Read(p, d.data)
		}
	})
	return d.data, d.err
}

// read answers a walked YAML file's reading through the shared reader.
func (s actionScan) read(c *gate.Context, p string) (*workflow.File, error) {
	if _, err := s.readBytes(c, p); err != nil {
		return nil, err
	}
	return s.doc(p).file, nil
}

// plural spells a count with its noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// causes renders skip counts by cause in a stable order.
func causes(order []string, counts map[string]int) string {
	var parts []string
	for _, k := range order {
		if counts[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// shapes tallies what a scan met: the workflows it judged, and the
// composite actions and other YAML files the Actions-shape predicate
// passed over (unparsable ones among them counted apart).
type shapes struct{ workflows, actions, other, unparsable int }

// note counts one file the predicate passed over.
func (n *shapes) note(f *workflow.File) {
	switch {
	case f.Rejected != nil:
		n.unparsable++
	case f.Shape.Composite():
		n.actions++
	default:
		n.other++
	}
}

// unparsed renders the count of skipped unparsable files for a clean line
// ("" when there are none, so clean lines over parsable trees keep their
// words).
func (n shapes) unparsed() string {
	if n.unparsable == 0 {
		return ""
	}
	return "; " + plural(n.unparsable, "YAML file", "YAML files") + " the parser rejects skipped (none looks like a workflow or an action)"
}

// unparsedOutside renders, for a clean line that already counts the files
// outside the Actions shape, how many of them the parser rejected.
func unparsedOutside(n int) string {
	if n == 0 {
		return ""
	}
	return " (" + plural(n, "of them", "of them") + " the parser rejects)"
}

// readParsed reads a walked YAML file and answers it with parsed true, or
// with parsed false for a file the parser rejects that looks like neither
// a workflow nor an action (the caller skips and counts it); a rejected
// file that looks like one is the error.
func (s actionScan) readParsed(c *gate.Context, p string) (f *workflow.File, parsed bool, err error) {
	f, err = s.read(c, p)
	if err == nil {
		err = rejected(f)
	}
	if err != nil {
		return nil, false, err
	}
	return f, f.Rejected == nil, nil
}

// rejected answers the refusal of a file the parser rejected that looks
// like a workflow or an action; nil for any other file.
func rejected(f *workflow.File) error {
	if f.Rejected != nil && f.Suspect {
		return f.Rejected
	}
	return nil
}

// eachWorkflow reads every scanned file through the shared reader and
// hands each file of the workflow shape to fn, counting the rest. A file
// that cannot be read, a rejected file that looks like a workflow or an
// action, or an error fn returns, ends the scan.
func eachWorkflow(c *gate.Context, scan actionScan, fn func(path string, f *workflow.File) error) (shapes, error) {
	var n shapes
	for _, p := range scan.files {
		f, _, err := scan.readParsed(c, p)
		if err != nil {
			return n, err
		}
		if !f.Shape.Workflow() {
			n.note(f)
			continue
		}
		n.workflows++
		if err := fn(p, f); err != nil {
			return n, err
		}
	}
	return n, nil
}

// markerFindings reports each exemption marker of a class (bare: no
// reason; dangling: it precedes no step and no job), none of which exempts
// anything.
func markerFindings(class, path, marker string, lines []int) []gate.Finding {
	why := map[string]string{"bare": "carries no reason", "dangling": "precedes no step and no job"}[class]
	var out []gate.Finding
	for _, l := range lines {
		out = append(out, gate.Finding{Class: class, Path: path, Line: l,
			Msg: "# " + marker + ": " + why + ", so it exempts nothing"})
	}
	return out
}

// byLine orders one file's findings by line, keeping equal lines stable.
func byLine(fs []gate.Finding) []gate.Finding {
	sort.SliceStable(fs, func(i, k int) bool { return fs[i].Line < fs[k].Line })
	return fs
}

// fileMemo is what a check-action-* member derives from one file alone:
// the file's kind, the member's tallies over it and its findings (for
// run-path and job-ref, the candidates the cross-file half joins). It is
// kept in the result cache by the file's path and blob id, so a warm run
// reads a memo instead of parsing.
type fileMemo struct {
	kind  int
	n     []int
	found []gate.Finding
}

// The kinds a memo records, as eachWorkflow's tallies count them.
const (
	memoWorkflow = iota
	memoAction
	memoOther
	memoUnparsable
)

// memoKind answers the kind of a file the Actions-shape predicate read.
func memoKind(f *workflow.File) int {
	switch {
	case f.Shape.Workflow():
		return memoWorkflow
	case f.Rejected != nil:
		return memoUnparsable
	case f.Shape.Composite():
		return memoAction
	}
	return memoOther
}

func encodeMemo(m fileMemo) []byte {
	var b []byte
	b = binary.AppendUvarint(b, uint64(m.kind))
	b = binary.AppendUvarint(b, uint64(len(m.n)))
	for _, x := range m.n {
		b = binary.AppendUvarint(b, uint64(x))
	}
	return append(b, gate.EncodeFindings(m.found)...)
}

func decodeMemo(data []byte) (fileMemo, bool) {
	var m fileMemo
	num := func() (int, bool) {
		x, k := binary.Uvarint(data)
		if k <= 0 || x > 1<<40 {
			return 0, false
		}
		data = data[k:]
		return int(x), true
	}
	kind, ok1 := num()
	count, ok2 := num()
	if !ok1 || !ok2 || kind > memoUnparsable || count > len(data) {
		return m, false
	}
	m.kind = kind
	for i := 0; i < count; i++ {
		x, ok := num()
		if !ok {
			return m, false
		}
		m.n = append(m.n, x)
	}
	fs, err := gate.DecodeFindings(data)
	if err != nil {
		return m, false
	}
	m.found = fs
	return m, true
}

// memoTable is a member's per-file memo table; every memo in it carries
// exactly tallies counts. A nil t (the run keeps no cache) misses every
// lookup and stores nothing.
type memoTable struct {
	t       *gate.PerFile
	tallies int
}

// openMemos opens a member's per-file memo table. Besides the file's path
// and bytes (the entry's key) and the binary (the store's), a memo depends
// on the scan root (run-path resolves against it) and whatever the member
// adds (job-ref: its patterns).
func openMemos(c *gate.Context, scan actionScan, tallies int, extra *cache.Config) memoTable {
	var config cache.Config
	config.AddString("memo", "check-action v1")
	config.AddString("root", scan.rel)
	if extra != nil {
		config.AddString("extra", extra.Digest())
	}
	return memoTable{t: c.PerFile(gate.ID(c.Name), &config), tallies: tallies}
}

// memo answers one scanned file's memo: the table's when the file is
// tracked as a regular file whose blob the table holds, else judge's,
// stored for the next run. A file judge refuses is never stored, so it
// refuses again, at the same place in the scan. A tracked link is read
// through to its target, whose bytes its blob id does not name, and an
// untracked file (or one read from the index) has no id the table may
// trust: they are judged every run.
func (s actionScan) memo(c *gate.Context, t memoTable, p string, judge func() (fileMemo, error)) (fileMemo, error) {
	// A memo is served only for the exact bytes it was made from, under
	// the same binary and rule inputs (SPEC.md §The per-file memos); one
	// that does not decode to the member's shape is a miss.
	var blob string
	cacheable := false
	if mode, tracked := c.Tree.Mode(p); tracked && mode != 0o120000 && !s.set.offDisk[p] {
		cacheable = true
		var data []byte
		var hit bool
		if data, blob, hit = t.t.Lookup(p); hit {
			if m, ok := decodeMemo(data); ok && len(m.n) == t.tallies {
				return m, nil
			}
		}
	}
	m, err := judge()
	if err != nil {
		return m, err
	}
	for len(m.n) < t.tallies {
		m.n = append(m.n, 0)
	}
	if cacheable {
		t.t.Store(p, blob, encodeMemo(m))
	}
	return m, nil
}

// eachWorkflowMemo is eachWorkflow through the memo table: fn derives a
// workflow's memo, and the answer holds every workflow's memo in scan
// order.
func eachWorkflowMemo(c *gate.Context, scan actionScan, t memoTable, fn func(path string, f *workflow.File) (fileMemo, error)) (shapes, []fileMemo, error) {
	var n shapes
	var out []fileMemo
	for _, p := range scan.files {
		m, err := scan.memo(c, t, p, func() (fileMemo, error) {
			f, _, err := scan.readParsed(c, p)
			if err != nil {
				return fileMemo{}, err
			}
			if kind := memoKind(f); kind != memoWorkflow {
				return fileMemo{kind: kind}, nil
			}
			m, err := fn(p, f)
			m.kind = memoWorkflow
			return m, err
		})
		if err != nil {
			return n, nil, err
		}
		switch m.kind {
		case memoWorkflow:
			n.workflows++
			out = append(out, m)
		case memoAction:
			n.actions++
		case memoOther:
			n.other++
		case memoUnparsable:
			n.unparsable++
		}
	}
	return n, out, nil
}
