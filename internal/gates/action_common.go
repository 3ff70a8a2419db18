package gates

// The scan every check-action-* member shares: the optional scan-root
// operand, the tracked listing narrowed to YAML (and, for job-ref,
// markdown) under it with the shared prune set, and each file read once
// through internal/workflow.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"sync"
	"syscall"

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
	// nested counts the matching files under a nested project's .github/
	// directory that GitHub does not load.
	nested int
	// testInputs counts the matching files under a testdata/ directory
	// below the scan root that GitHub does not load, left out of files.
	testInputs int
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

	// runnable is the set of action metadata files a workflow or action
	// of the scan runs through a uses: ./ path, made on first need.
	runnableOnce sync.Once
	runnable     map[string]bool
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
		if !hasExt(f, exts) {
			continue
		}
		if s.testInput(f) && !s.loads(c, f) {
			s.testInputs++
			continue
		}
		// A nested project's own .github/ (a vendored
		// library's CI) is no workflow or action GitHub runs here: it is
		// skipped and counted, unless a workflow of this repository runs
		// the action through uses: ./ or the scan root is that project.
		if s.nestedGitHub(f) && !s.loads(c, f) {
			s.nested++
			continue
		}
		s.files = append(s.files, f)
		if set.offDisk[f] {
			s.fromIndex++
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
// the tree without it and call the result clean. So is a tracked file
// whose path holds something the walk passes over (a directory, a FIFO, a
// socket, a dangling link) or nothing at all: the staged snapshot reads
// its blob, and the work tree's read refuses it, naming what is there.
func walkScan(c *gate.Context, rel string, ps walk.PruneSet) ([]string, map[string]bool, error) {
	out, err := walkDisk(c, rel, ps)
	if err != nil {
		return nil, nil, err
	}
	if out, err = dropIgnored(c, rel, out); err != nil {
		return nil, nil, err
	}
	if gate.IsStaged(c.Tree) {
		// assertion V: a staged tree (the index a commit records, a
		// landed commit's tree) holds only what it tracks: a file on the
		// disk it does not hold is no part of the commit judged.
		kept := out[:0]
		for _, p := range out {
			if _, tracked := c.Tree.Mode(p); tracked {
				kept = append(kept, p)
			}
		}
		out = kept
	}
	tracked, err := c.Tree.Files()
	if err != nil {
		return nil, nil, err
	}
	bb, _ := c.Tree.(gate.BlobBacked)
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
		if walked[p] || ps.PathPruned(under) {
			continue
		}
		if mode, _ := c.Tree.Mode(p); mode == 0o120000 || mode == 0o160000 {
			continue // a link or a submodule: the walk's own call
		}
		fromBlob := bb != nil && bb.FromBlob(p)
		fi, err := os.Lstat(runPath(c, p))
		switch {
		case err == nil && fi.Mode().IsRegular():
			// A regular file the walk did not yield under this name: one
			// reached through a linked directory, or another spelling of
			// a walked name on a case-insensitive disk. The walk's call.
			continue
		case err == nil || !gone(err):
			// assertion U: a tracked file the walk passed over is read.
			if inNestedRepo(c, rel, under) {
				continue
			}
		case fromBlob:
			// assertion S: tracked entries not on disk are read from the index.
			if offDisk == nil {
				offDisk = map[string]bool{}
			}
			offDisk[p] = true
		default:
			// Deleted from the work tree but still tracked: the commit
			// keeps it, so its read refuses (assertion U), as
			// check-tree-terms refuses it, rather than judge without it.
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out, offDisk, nil
}

// gone reports whether an Lstat error means nothing is at the path: it is
// absent, or a directory on its way is a file.
func gone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// inNestedRepo reports whether under (a path below the scan root) lies in
// a directory below the root that holds its own .git: the walk leaves a
// nested repository to its own CI, and so does the tracked-entry pass.
func inNestedRepo(c *gate.Context, rel, under string) bool {
	base := c.Dir
	if rel != "." {
		base = c.Dir + "/" + rel
	}
	for dir := path.Dir(under); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if _, err := os.Lstat(base + "/" + dir + "/.git"); err == nil {
			return true
		}
	}
	return false
}

// dropIgnored removes from a walk the untracked files git ignores (a
// .venv/ or node_modules/ holding YAML of other projects): a clone of the
// same commit has none of them, so the local verdict would differ from
// CI's. An untracked file git does not ignore (a workflow not yet added)
// stays. Git is asked only when the walk met an untracked Actions file,
// and only inside a repository: a directory git places in none (a
// fixture tree) keeps its whole walk.
func dropIgnored(c *gate.Context, rel string, walked []string) ([]string, error) {
	var untracked []string
	for _, p := range walked {
		if !hasExt(p, yamlExts) && !hasExt(p, []string{".md"}) {
			continue
		}
		if _, tracked := c.Tree.Mode(p); !tracked {
			untracked = append(untracked, p)
		}
	}
	if len(untracked) == 0 {
		return walked, nil
	}
	if _, inRepo, err := walk.ToplevelOpt(c.Dir, c.ChildEnviron()); err != nil || !inRepo {
		return walked, err
	}
	// assertion T: an untracked file git ignores is not in the scan set.
	spec := "."
	if rel != "." {
		spec = rel + "/"
	}
	out, err := runGit(c, "ls-files", "-z", "--others", "--exclude-standard", "--", spec)
	if err != nil {
		return nil, err
	}
	visible := map[string]bool{}
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) > 0 {
			visible[string(rec)] = true
		}
	}
	hidden := map[string]bool{}
	for _, p := range untracked {
		if !visible[p] {
			hidden[p] = true
		}
	}
	if len(hidden) == 0 {
		return walked, nil
	}
	kept := make([]string, 0, len(walked)-len(hidden))
	for _, p := range walked {
		if !hidden[p] {
			kept = append(kept, p)
		}
	}
	return kept, nil
}

// testdataDir is the directory name that holds a project's test inputs
// (the go tool's convention, and common beyond Go).
// consumer-value-exempt: a fixed convention naming what the files are, like .github/workflows/, no choice of the consumer's
const testdataDir = "testdata"

// testInput reports whether p lies in a testdata/ directory below the scan
// root. A scan root inside one is what the user asked to judge, so only
// the part of p under the root is looked at.
func (s actionScan) testInput(p string) bool {
	rest := p
	if s.rel != "." {
		rest = strings.TrimPrefix(p, s.rel+"/")
	}
	dir := path.Dir(rest)
	for dir != "." && dir != "/" {
		if path.Base(dir) == testdataDir {
			return true
		}
		dir = path.Dir(dir)
	}
	return false
}

// nestedGitHub reports whether p lies in a .github/ directory below the
// top of the scan root: another project's, whose workflows GitHub never
// loads for this repository.
func (s actionScan) nestedGitHub(p string) bool {
	rest := p
	if s.rel != "." {
		rest = strings.TrimPrefix(p, s.rel+"/")
	}
	// consumer-value-exempt: GitHub's own fixed directory name, no choice of the consumer's
	const gh = ".github/"
	i := strings.Index(rest, "/"+gh)
	return i > 0 && !strings.HasPrefix(rest, gh)
}

// fromIndexNote is the clean-line clause naming the files a scan left out
// as test inputs (under testdata/, not loaded by GitHub) and those it read
// from the index because the work tree lacks them; "" when there were none.
func (s actionScan) fromIndexNote() string {
	out := ""
	if s.testInputs > 0 {
		out += "; " + plural(s.testInputs, "test input", "test inputs") + " under testdata/ skipped (GitHub loads none of them)"
	}
	if s.nested > 0 {
		out += "; " + plural(s.nested, "file", "files") + " of a nested project's .github/ skipped (GitHub loads only the top one)"
	}
	if s.fromIndex > 0 {
		out += "; " + plural(s.fromIndex, "file", "files") + " read from the index (not on disk)"
	}
	return out
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
// passed over (unparsable ones GitHub does not load counted apart). broken
// holds a finding per unparsable file GitHub loads.
type shapes struct {
	workflows, actions, other, unparsable int
	broken                                []gate.Finding
}

// passOver counts one file the predicate passed over: an unparsable one is a
// finding when GitHub loads it, a counted skip otherwise.
func (n *shapes) passOver(c *gate.Context, scan actionScan, p string, f *workflow.File) {
	switch {
	case f.Rejected != nil:
		n.reject(c, scan, p, unparseable(p, f))
	case f.Shape.Composite():
		n.actions++
	default:
		n.other++
	}
}

// reject counts one file the parser rejected, its finding already made.
func (n *shapes) reject(c *gate.Context, scan actionScan, p string, found []gate.Finding) {
	if scan.loads(c, p) {
		n.broken = append(n.broken, found...)
		return
	}
	n.unparsable++
}

// unparsed renders the count of skipped unparsable files for a clean line
// ("" when there are none, so clean lines over parsable trees keep their
// words).
func (n shapes) unparsed() string {
	if n.unparsable == 0 {
		return ""
	}
	return "; " + plural(n.unparsable, "unparseable YAML file", "unparseable YAML files") + " skipped (GitHub loads none of them)"
}

// unparseableClass is the finding class of a file GitHub loads that the
// YAML parser rejects; every Actions gate reports it.
const unparseableClass = "unparseable"

const unparseableHelp = "make the listed file valid YAML at the line named: GitHub loads it (a workflow under .github/workflows/, or an action a workflow here runs) and cannot run what it cannot parse"

// withUnparseable answers a gate's help table with the unparseable class's
// help added.
func withUnparseable(h map[string]string) map[string]string {
	out := make(map[string]string, len(h)+1)
	for k, v := range h {
		out[k] = v
	}
	out[unparseableClass] = unparseableHelp
	return out
}

// unparseable answers the finding of a file the parser rejected, as it
// reads when GitHub loads the file: the file, the parser's line and its
// message. It is made for every rejected file (and kept in a memo); the
// caller reports it only for a file GitHub loads.
func unparseable(p string, f *workflow.File) []gate.Finding {
	return refusalFinding(p, f.Rejected)
}

// refusalFinding is unparseable's finding for any construct the reader
// refuses in a file (the parser's rejection, a ${{ that never closes, a
// permissions: or shell value that is no value GitHub takes): GitHub
// refuses each of them too.
func refusalFinding(p string, r *workflow.Refusal) []gate.Finding {
	return []gate.Finding{{Class: unparseableClass, Path: p, Line: r.Line,
		Msg: "cannot read " + r.Construct + " (GitHub loads this file)"}}
}

// refusedMemo answers the memo of a file whose reading err refused: its
// finding, which the caller reports when GitHub loads the file (and skips
// and counts otherwise), so one file never refuses the whole gate. Any
// other error stays the gate's.
func refusedMemo(p string, err error) (fileMemo, error) {
	var r *workflow.Refusal
	if !errors.As(err, &r) {
		return fileMemo{}, err
	}
	return fileMemo{kind: memoUnparsable, found: refusalFinding(p, r)}, nil
}

// loads reports whether GitHub loads the file at p (relative to the run
// directory): a workflow (a YAML file directly in .github/workflows/), the
// repository's own action metadata (action.yml or action.yaml at the top,
// which other repositories run), or an action metadata file in a
// directory some workflow or action of the scan runs through a uses: ./
// path. Any other YAML file (a test fixture, a config of another tool, a
// vendored project's workflow) GitHub never parses.
func (s actionScan) loads(c *gate.Context, p string) bool {
	// consumer-value-exempt: GitHub's own fixed workflow directory, no choice of the consumer's
	if dir, name := path.Split(p); dir == ".github/workflows/" && hasExt(name, yamlExts) {
		return true
	}
	base := path.Base(p)
	if base != "action.yml" && base != "action.yaml" {
		return false
	}
	if path.Dir(p) == "." {
		return true
	}
	s.set.runnableOnce.Do(func() { s.set.runnable = s.runnableActions(c) })
	return s.set.runnable[p]
}

// runnableActions answers the action metadata files the scan's parsed
// workflows and actions run through uses: ./<dir> (commented-out steps
// left out): <dir>/action.yml and <dir>/action.yaml.
func (s actionScan) runnableActions(c *gate.Context) map[string]bool {
	out := map[string]bool{}
	for _, p := range s.set.files {
		if !hasExt(p, yamlExts) {
			continue
		}
		f, err := s.read(c, p)
		if err != nil || f.Rejected != nil || !f.Shape.Actions() {
			continue
		}
		for _, u := range workflow.UsesRefs(f) {
			rest, local := strings.CutPrefix(u.Ref, "./")
			if u.Commented || !local {
				continue
			}
			dir := path.Clean(rest)
			out[path.Join(dir, "action.yml")] = true
			out[path.Join(dir, "action.yaml")] = true
		}
	}
	return out
}

// readParsed reads a walked YAML file and answers it with parsed true, or
// with parsed false for a file the parser rejects (the caller reports it
// when GitHub loads it, and skips and counts it otherwise: one bad file
// never switches a gate off). Only a file that cannot be read is the
// error.
func (s actionScan) readParsed(c *gate.Context, p string) (f *workflow.File, parsed bool, err error) {
	f, err = s.read(c, p)
	if err != nil {
		return nil, false, err
	}
	return f, f.Rejected == nil, nil
}

// eachWorkflow reads every scanned file through the shared reader and
// hands each file of the workflow shape to fn, counting the rest (an
// unparsable file GitHub loads becomes a finding in the tallies). A file
// that cannot be read, or an error fn returns, ends the scan.
func eachWorkflow(c *gate.Context, scan actionScan, fn func(path string, f *workflow.File) error) (shapes, error) {
	var n shapes
	for _, p := range scan.files {
		f, _, err := scan.readParsed(c, p)
		if err != nil {
			return n, err
		}
		if !f.Shape.Workflow() {
			n.passOver(c, scan, p, f)
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
				m := fileMemo{kind: kind}
				if kind == memoUnparsable {
					m.found = unparseable(p, f)
				}
				return m, nil
			}
			m, err := fn(p, f)
			if m.kind != memoUnparsable { // a refusal fn made a finding
				m.kind = memoWorkflow
			}
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
			n.reject(c, scan, p, m.found)
		}
	}
	return n, out, nil
}
