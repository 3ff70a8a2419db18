package gates

// check-tree-terms: no tracked file matches the banned-pattern set. It is
// the tree half of the leak ban and reads the one resolution
// check-commit-msg uses (msgPatterns), so the halves cannot drift apart.
//
// Authoring rule: this file is in the corpus it scans, so it spells no
// banned shape; its tests compose theirs at run time.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf16"

	"go.yaml.in/yaml/v3"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/patterns"
	"github.com/gate-sdk/gates/internal/walk"
)

// treeTermsHelp is the remedy for the one failure class.
const treeTermsHelp = "remove the banned term from each listed line (a binary: rebuild it without the term). If the prose is true and the pattern over-reaches, narrow the pattern or add a spare (a ! line) in the list, never reword the prose; a line that must stay as it is (a quoted log, an example marked bad) is accepted with `gates baseline`"

func checkTreeTerms(c *gate.Context) int {
	rootArg, operands := ".", []string(nil)
	if len(c.Args) > 0 {
		rootArg, operands = c.Args[0], c.Args[1:]
	}
	// assertion A: the pattern set resolves and every pattern compiles
	// (once, here, for the whole scan), or the gate refuses.
	// The effective configuration a file's verdict depends on, besides its
	// bytes and path: the key of the gate's result-cache table.
	var config cache.Config
	for _, op := range operands {
		config.AddString("operand", op)
	}
	set, err := msgPatternsSeen(c, operands, func(path string, data []byte) {
		config.AddString("pattern-file", path)
		config.Add("pattern-bytes", data)
	})
	if err != nil {
		return c.RefuseErr(err)
	}
	files, err := c.Tree.Files()
	if err != nil {
		return c.RefuseErr(err)
	}
	// assertion G: the scan root is spelled as the listing spells it, and
	// one that names nothing (a misspelling, a file) is refused, never a
	// clean "0 files".
	root, err := listingRoot(c, rootArg, files)
	if err != nil {
		return c.RefuseErr(err)
	}
	config.AddString("root", root)
	if set.Empty() {
		return c.NewReport(nil).Nothing("no banned pattern configured: tree unchecked")
	}
	prune, err := pruneSet(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	// A handful of paths, asked of every tracked file: comparing a short
	// list is cheaper than hashing each path into a map.
	var exemptList []string
	for _, src := range set.Read {
		exemptList = append(exemptList, treePath(c, src.Path))
	}
	tdirs, err := kitTemplateDirs(c, c.KitRoots, "")
	if err != nil {
		return c.RefuseErr(err)
	}
	for _, td := range tdirs {
		exemptList = append(exemptList, treePath(c, td+"/msg-patterns.list"))
	}
	exempt := func(p string) bool {
		for _, e := range exemptList {
			if e == p {
				return true
			}
		}
		return false
	}

	// assertion E: the bytes are the snapshot's, the ones the commit
	// records: a link's target string, never the file it points at.
	// assertion H: a regular file's verdict is cached by its path and blob
	// id under the table of this configuration; a link is judged afresh.
	for _, kr := range c.KitRoots {
		config.AddString("kit-root", kr)
	}
	for _, k := range []string{"GATE_SDK_PRUNE_DIRS", "GATE_SDK_PRUNE_EXTRA_DIRS"} {
		v, _ := c.Knobs.Scalar(k) // read once already by pruneSet
		config.AddString(k, v)
	}

	// assertion B: the cheap filter runs first and reads nothing: the scan
	// root, the shared prune set, the resolved pattern files and the kits'
	// starter rosters, and a submodule (no bytes of its own).
	pruned := walk.ByDir(prune.PathPruned)
	// A test-input directory is a test of the directory part alone:
	// asked once per directory, as the prune test is.
	inTestDir := walk.ByDir(walk.InTestInputDir)
	classify := func(p string) (termsClass, uint32) {
		if !underRoot(root, p) || pruned(p) || exempt(p) {
			return termsSkipped, 0
		}
		// assertion M: a test input by convention is left out unread and
		// counted on the clean line: captured logs, recorded errors and a
		// scanner's planted secrets hold real-looking paths on purpose.
		if testInputName(p) || inTestDir(p) {
			return termsInput, 0
		}
		mode, ok := c.Tree.Mode(p)
		if !ok || !committedMode(mode) {
			return termsSkipped, 0
		}
		// assertion K: a shard judges (and reads) only its part's files.
		if !c.Judges(p) {
			return termsOtherPart, mode
		}
		return termsJudged, mode
	}
	nTodo, inputs := 0, 0 // the files judged; test inputs left out (assertion L)
	var left atomic.Int64 // files left to the battery (Verdicts.Leave)
	done := func(records [][]gate.Finding) int {
		r := c.NewReport(map[string]string{"leak": treeTermsHelp})
		notes := "" // what the clean line adds: prompt data left out, LFS pointers not judged
		// assertion N: a git-lfs pointer is matched as the bytes git
		// records, but not counted as a judged file: the clean line says
		// how many pointers stood in for content the scan never read.
		pointers, promptData := 0, 0
		for _, fs := range records {
			for _, f := range fs {
				switch f.Class {
				case lfsPointerClass:
					pointers++
					continue
				case promptDataClass:
					promptData++
					continue
				}
				r.Add(f)
			}
		}
		if promptData > 0 {
			notes += "; " + plural(promptData, "matching line", "matching lines") + " of prompt-file test data left out"
		}
		if pointers > 0 {
			notes += fmt.Sprintf("; %d git-lfs pointers not judged: their content is not in the tree", pointers)
			if c.LFSPointers != nil {
				c.LFSPointers(pointers)
			}
		}
		if n := int(left.Load()); n > 0 {
			return r.Done(fmt.Sprintf("%d tracked files the commit changes match none of %d banned patterns; %d unchanged files left to the battery (not yet judged under this binary and these patterns)%s", nTodo-n-pointers, len(set.Patterns), n, notes))
		}
		return r.Done(fmt.Sprintf("%d tracked files match none of %d banned patterns%s%s", nTodo-pointers, len(set.Patterns), inputsNote(inputs), notes))
	}
	// assertion I: over a tree naming its whole listing in one digest (the
	// hook's staged snapshot) the scan's findings are also kept whole,
	// under that digest and everything that chose todo from the listing;
	// a hit reads no file and looks up no file's entry. A miss falls back
	// to the per-file entries. The listing's counts are kept beside them
	// (what the filter chose from the listing), so a hit, or a tree
	// differing from a prior one only in bytes, visits no listed path.
	var sets, countSets *gate.SetResults
	var sel *cache.Config
	setKey, keyed := "", false
	if c.WholeListing() {
		sets = c.SetResults(treeTermsSetTable, &config)
		countSets = c.SetResults(treeTermsCountTable, &config)
		sel = listingSelection(root, prune, exemptList...)
		if part, ok := c.Part(); ok {
			sel.AddString("part", part.String())
		}
		setKey, keyed = sets.KeyOf(sel, nil)
	}
	if keyed {
		if n, ok := keptCounts(countSets, setKey); ok {
			if v, hit := sets.Lookup(setKey); hit {
				if fs, err := gate.DecodeFindings(v); err == nil {
					nTodo, inputs = n.todo, n.inputs
					c.JudgedPart(n.todo, n.whole)
					return done([][]gate.Finding{fs})
				}
			}
			if fs, ok := treeTermsFromPriorCounts(c, sets, countSets, sel, set, &config, classify); ok {
				nTodo, inputs = n.todo, n.inputs
				c.JudgedPart(n.todo, n.whole)
				sets.Store(setKey, gate.EncodeFindings(fs))
				return done([][]gate.Finding{fs})
			}
		} else if prior := c.TreePrior(); prior != nil {
			if pk, ok := sets.KeyAt(prior.Digest, sel); ok {
				if n, ok := keptCounts(countSets, pk); ok {
					if fs, ok := treeTermsFromPriorCounts(c, sets, countSets, sel, set, &config, classify); ok {
						nTodo, inputs = n.todo, n.inputs
						c.JudgedPart(n.todo, n.whole)
						countSets.Store(setKey, encodeCounts(n))
						sets.Store(setKey, gate.EncodeFindings(fs))
						return done([][]gate.Finding{fs})
					}
				}
			}
		}
	}
	todo := make([]string, 0, len(files))
	modes := make([]uint32, 0, len(files))
	whole := 0 // the files a whole run would judge
	for _, p := range files {
		class, mode := classify(p)
		switch class {
		case termsInput:
			inputs++
		case termsOtherPart:
			whole++
		case termsJudged:
			whole++
			todo = append(todo, p)
			modes = append(modes, mode)
		}
	}
	nTodo = len(todo)
	c.JudgedPart(len(todo), whole)
	if keyed {
		// The counts are the listing's and the selection's alone: kept
		// whatever the scan below reads.
		countSets.Store(setKey, encodeCounts(termsCounts{todo: len(todo), whole: whole, inputs: inputs, sorted: slices.IsSorted(todo)}))
		if v, hit := sets.Lookup(setKey); hit {
			if fs, err := gate.DecodeFindings(v); err == nil {
				return done([][]gate.Finding{fs})
			}
		}
		if records, ok := treeTermsFromPrior(c, sets, sel, set, &config, todo, modes); ok {
			var all []gate.Finding
			for _, fs := range records {
				all = append(all, fs...)
			}
			sets.Store(setKey, gate.EncodeFindings(all))
			return done(records)
		}
	}
	// The per-file table is opened only past the set, so a run the set
	// answers reports no per-file use.
	verdicts := c.Verdicts(&config)
	// Reading and matching run on every CPU; records are kept per file and
	// reported in listing order, so the output never depends on the pool.
	// (Made only past the set: a set hit needs neither.)
	records := make([][]gate.Finding, len(todo))
	failed := make([]error, len(todo))
	// The cached verdicts are looked up first, so only the files the scan
	// will read are claimed (a claim and its drop cost a lookup and a lock
	// per file: over a warm 20,000-file tree, more than the lookups).
	blobs := make([]string, len(todo))
	var misses []int
	var missMu sync.Mutex
	eachIndex(len(todo), func(i int, cand []int) []int {
		p := todo[i]
		if modes[i] != 0o120000 {
			var hit bool
			if records[i], blobs[i], hit = verdicts.Lookup(p); hit {
				return cand
			}
			// assertion J: a miss the commit leaves unchanged, under
			// inputs newer than the latest whole judgement, is left to
			// the battery: not read, not stored, counted.
			if verdicts.Leave(p) {
				left.Add(1)
				return cand
			}
		}
		missMu.Lock()
		misses = append(misses, i)
		missMu.Unlock()
		return cand
	})
	claim := claimMisses(c, misses, todo)
	defer claim.Done()
	eachIndex(len(misses), func(k int, cand []int) []int {
		i := misses[k]
		p := todo[i]
		data, err := claim.Read(p)
		if err != nil {
			failed[i] = err
			return cand
		}
		records[i], cand = judgeTerms(set, p, data, cand)
		if modes[i] != 0o120000 && isLFSPointer(data) {
			// A marker kept with the file's verdict (cached with it), so a
			// hit counts the pointer too; never reported as a finding.
			records[i] = append(records[i], gate.Finding{Class: lfsPointerClass, Path: p})
		}
		if modes[i] != 0o120000 {
			verdicts.Store(p, blobs[i], records[i])
		}
		return cand
	})
	// assertion F: a tracked file the scan could not read refuses the whole
	// verdict, naming every such file: a clean line short by one file
	// would claim a check that never ran.
	var unread []string
	for i, err := range failed {
		if err != nil {
			unread = append(unread, fmt.Sprintf("  %s: %v", gate.QuotePath(todo[i]), err))
		}
	}
	if len(unread) > 0 {
		return c.Refuse("%d tracked file(s) could not be read, so the tree is unchecked:\n%s\nrestore each file (git checkout -- <path>), make it readable, or remove it from the index (git rm --cached <path>)", len(unread), strings.Join(unread, "\n"))
	}
	if n := int(left.Load()); n > 0 {
		// A partial scan is no whole verdict: no set entry, no
		// completion, and the hook is told what was left.
		if c.LeftToBattery != nil {
			c.LeftToBattery(n)
		}
		return done(records)
	}
	verdicts.Complete()
	if keyed {
		var all []gate.Finding
		for _, fs := range records {
			all = append(all, fs...)
		}
		sets.Store(setKey, gate.EncodeFindings(all))
	}
	return done(records)
}

// treeTermsFromPrior answers the scan's records from the whole result kept
// for the prior tree (gate.Context.Prior) under the same selection and
// configuration: its records of every unchanged path as kept, each changed
// path judged afresh (its per-file entry, or its bytes). ok is false, and
// the scan runs as before, when there is no prior tree, no result kept for
// it, a kept record names a path the scan does not list, or a changed path
// cannot be read.
func treeTermsFromPrior(c *gate.Context, sets *gate.SetResults, sel *cache.Config, set *patterns.Set, config *cache.Config, todo []string, modes []uint32) ([][]gate.Finding, bool) {
	prior := c.TreePrior()
	// assertion P: a tree that differs from the prior one only in the
	// bytes of some listed paths is judged from the prior tree's whole
	// result, each changed path judged again: the records equal a whole
	// scan's, at the cost of the change.
	kept, ok := priorKept(c, sets, sel, todo)
	if !ok {
		return nil, false
	}
	verdicts := c.Verdicts(config)
	var changed []gate.Finding // the changed paths', in path order
	for _, p := range prior.Changed {
		i, found := slices.BinarySearch(todo, p)
		if !found {
			continue // not one the scan judges
		}
		fs, ok := judgeChanged(c, verdicts, set, p, modes[i])
		if !ok {
			return nil, false
		}
		changed = append(changed, fs...)
	}
	return [][]gate.Finding{mergeByPath(kept, changed)}, true
}

// claimMisses sorts the indexes of the listing a scan must read (its
// cache misses) and claims their paths before the first read, so a file
// another whole-tree reader also reads is read once and let go after both
// (see gate.Claimer).
func claimMisses(c *gate.Context, misses []int, listing []string) gate.Claim {
	slices.Sort(misses)
	paths := make([]string, len(misses))
	for k, i := range misses {
		paths[k] = listing[i]
	}
	return c.ClaimReads(paths)
}

// priorKept answers the findings a whole result kept for the prior tree
// (gate.Context.TreePrior) under the same selection holds for the paths
// the prior change left alone, in the sorted listing's order, which is
// path order. ok is false when there is no prior tree, no result kept
// for it, or a kept finding names a path the listing lacks: the caller
// then scans as before. No slot per listed path is made: a tree's
// findings are few, its paths many.
func priorKept(c *gate.Context, sets *gate.SetResults, sel *cache.Config, listing []string) ([]gate.Finding, bool) {
	if !slices.IsSorted(listing) {
		return nil, false
	}
	out, _, ok := priorRecords(c, sets, sel, func(p string) bool {
		_, found := slices.BinarySearch(listing, p)
		return found
	})
	return out, ok
}

// priorRecords answers the whole result kept for the prior tree under sel,
// less the findings on paths its change touched, in path order, with the
// key it was kept under. stands says whether a kept record's path may
// stand; one that may not refuses the whole prior (ok false), as does no
// prior tree, no result kept for it, or records out of path order (a
// result this scan would not have kept).
func priorRecords(c *gate.Context, sets *gate.SetResults, sel *cache.Config, stands func(path string) bool) (out []gate.Finding, key string, ok bool) {
	prior := c.TreePrior()
	if prior == nil {
		return nil, "", false
	}
	key, ok = sets.KeyAt(prior.Digest, sel)
	if !ok {
		return nil, "", false
	}
	v, hit := sets.Lookup(key)
	if !hit {
		return nil, "", false
	}
	kept, err := gate.DecodeFindings(v)
	if err != nil {
		return nil, "", false
	}
	out = make([]gate.Finding, 0, len(kept))
	for _, f := range kept {
		if prior.IsChanged(f.Path) {
			continue
		}
		if !stands(f.Path) {
			return nil, "", false
		}
		out = append(out, f)
	}
	if !slices.IsSortedFunc(out, func(a, b gate.Finding) int { return strings.Compare(a.Path, b.Path) }) {
		return nil, "", false
	}
	return out, key, true
}

// mergeByPath merges two runs of findings, each in path order and with no
// path in common, into one in path order, each path's findings in the
// order its run gave them.
func mergeByPath(a, b []gate.Finding) []gate.Finding {
	out := make([]gate.Finding, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].Path < a[0].Path {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// judgeChanged judges path p, which a prior tree's change touched: from
// its bytes, a large regular file's per-file entry looked up first. ok is
// false when p cannot be read.
func judgeChanged(c *gate.Context, verdicts *gate.Verdicts, set *patterns.Set, p string, mode uint32) ([]gate.Finding, bool) {
	data, err := c.Tree.Read(p)
	if err != nil {
		return nil, false
	}
	// A small changed file is judged from its bytes, its per-file entry
	// neither looked up nor stored: the lookup maps and checks the whole
	// per-file table, dearer than matching a few pages. A large one's
	// entry may spare the match.
	blob := ""
	if mode != 0o120000 && len(data) > priorLookupBytes {
		fs, id, hit := verdicts.Lookup(p)
		if hit {
			return fs, true
		}
		blob = id
	}
	fs, _ := judgeTerms(set, p, data, nil)
	if mode != 0o120000 && isLFSPointer(data) {
		fs = append(fs, gate.Finding{Class: lfsPointerClass, Path: p})
	}
	if blob != "" {
		verdicts.Store(p, blob, fs)
	}
	return fs, true
}

// termsClass is what check-tree-terms' filter makes of a listed path.
type termsClass int

const (
	termsSkipped   termsClass = iota // outside the root, pruned, exempt, or no committed bytes
	termsInput                       // a test input, left out and counted
	termsOtherPart                   // another shard's: counted in the whole, not judged
	termsJudged                      // judged here
)

// treeTermsCountTable keeps, beside a whole result, what the filter chose
// from the listing: the judged and whole counts, the test inputs, and
// whether the judged paths came in path order.
const treeTermsCountTable = "TREE-TERMS-COUNTS"

type termsCounts struct {
	todo, whole, inputs int
	sorted              bool
}

func encodeCounts(n termsCounts) []byte {
	return []byte(fmt.Sprintf("%d %d %d %t", n.todo, n.whole, n.inputs, n.sorted))
}

func keptCounts(sets *gate.SetResults, key string) (termsCounts, bool) {
	v, hit := sets.Lookup(key)
	if !hit {
		return termsCounts{}, false
	}
	var n termsCounts
	if k, err := fmt.Sscanf(string(v), "%d %d %d %t", &n.todo, &n.whole, &n.inputs, &n.sorted); err != nil || k != 4 {
		return termsCounts{}, false
	}
	return n, true
}

// treeTermsFromPriorCounts is treeTermsFromPrior for a run that keeps the
// listing unvisited: the prior tree's counts and whole result kept, its
// judged paths in path order, each kept record's path and each changed
// path put through the filter alone. The records come in path order,
// which was the listing's.
func treeTermsFromPriorCounts(c *gate.Context, sets, countSets *gate.SetResults, sel *cache.Config, set *patterns.Set, config *cache.Config, classify func(string) (termsClass, uint32)) ([]gate.Finding, bool) {
	prior := c.TreePrior()
	if prior == nil {
		return nil, false
	}
	out, pk, ok := priorRecords(c, sets, sel, func(p string) bool {
		class, _ := classify(p)
		return class == termsJudged // a record of a path this scan does not judge refuses the prior
	})
	if !ok {
		return nil, false
	}
	if n, ok := keptCounts(countSets, pk); !ok || !n.sorted {
		return nil, false
	}
	verdicts := c.Verdicts(config)
	var changed []gate.Finding
	for _, p := range prior.Changed {
		class, mode := classify(p)
		if class != termsJudged {
			continue
		}
		fs, ok := judgeChanged(c, verdicts, set, p, mode)
		if !ok {
			return nil, false
		}
		changed = append(changed, fs...)
	}
	return mergeByPath(out, changed), true
}

// priorLookupBytes is the size past which a file a prior tree's change
// touched is looked up in the per-file table before it is matched.
const priorLookupBytes = 64 << 10

// listingSelection spells what chose a scan's files from the tracked
// listing (its root, the prune words, the paths it leaves out), the
// selection a whole-listing set key is made with (gate.SetResults.KeyOf).
func listingSelection(root string, prune walk.PruneSet, exempt ...string) *cache.Config {
	var sel cache.Config
	sel.AddString("root", root)
	for _, n := range prune.Names() {
		sel.AddString("prune", n)
	}
	for _, e := range exempt {
		sel.AddString("exempt", e)
	}
	return &sel
}

// testInputNames is the file suffix of a Go test file.
const testInputNames = "_test.go"

// testInputRule spells the rule for the clean line.
const testInputRule = "testdata/, _testdata/, fixtures/, __fixtures__/, *_test.go"

// testInput reports whether the listed path p is a test input by
// convention: under a directory of walk.TestInputDirs at any depth, or a Go
// test file (a name with something before _test.go).
func testInput(p string) bool {
	return testInputName(p) || walk.InTestInputDir(p)
}

// testInputName reports whether p's name is a Go test file's.
func testInputName(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	return len(base) > len(testInputNames) && strings.HasSuffix(base, testInputNames)
}

// inputsNote is the clean line's count of test inputs left out.
func inputsNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %d test inputs left out: %s", n, testInputRule)
}

// treeTermsSetTable names the cache table of whole scans.
const treeTermsSetTable = "TREE-TERMS-SETS"

// judgeTerms answers one file's records, matching its bytes in place. A
// file no record comes from that is UTF-16 text with its byte-order mark
// is judged again as the text it spells.
func judgeTerms(set *patterns.Set, p string, data []byte, cand []int) ([]gate.Finding, []int) {
	records, cand := judgeBytes(set, p, data, cand)
	if len(records) > 0 {
		return records, cand
	}
	// assertion Q: a UTF-16 file is judged as the text it spells.
	if text, ok := utf16Text(data); ok {
		return judgeBytes(set, p, text, cand)
	}
	return records, cand
}

// utf16Text answers data decoded to UTF-8 when it opens with a UTF-16
// byte-order mark (either order) and is well formed: an even length and
// every surrogate paired. ok is false for anything else.
func utf16Text(data []byte) ([]byte, bool) {
	if len(data) < 2 || len(data)%2 != 0 {
		return nil, false
	}
	var order binary.ByteOrder
	switch {
	case data[0] == 0xFF && data[1] == 0xFE:
		order = binary.LittleEndian
	case data[0] == 0xFE && data[1] == 0xFF:
		order = binary.BigEndian
	default:
		return nil, false
	}
	units := make([]uint16, 0, len(data)/2-1)
	for i := 2; i < len(data); i += 2 {
		units = append(units, order.Uint16(data[i:]))
	}
	for i := 0; i < len(units); i++ {
		switch u := units[i]; {
		case u >= 0xDC00 && u <= 0xDFFF:
			return nil, false
		case u >= 0xD800 && u <= 0xDBFF:
			if i+1 >= len(units) || units[i+1] < 0xDC00 || units[i+1] > 0xDFFF {
				return nil, false
			}
			i++
		}
	}
	return []byte(string(utf16.Decode(units))), true
}

// judgeBytes is judgeTerms over bytes as they are.
func judgeBytes(set *patterns.Set, p string, data []byte, cand []int) ([]gate.Finding, []int) {
	if cand = set.CandidatesBytes(data, cand); len(cand) == 0 {
		return nil, cand
	}
	var records []gate.Finding
	// assertion C: a file holding a NUL byte is binary; a hit on any of
	// its lines is one path-only record.
	binary := bytes.IndexByte(data, 0) >= 0
	// assertion D: every other file yields one path:lineno:line record per
	// matching line, however many patterns hit it, with no dedup across
	// identical lines.
	// assertion L: a record's fingerprint is the pattern and the text it
	// matched (a binary file's: every such pair the file holds, so banned
	// content added to an accepted binary is a new finding); its note names
	// the pattern by its list's file and line, never by its text, which
	// would match itself.
	var hits map[string]bool
	var firstPattern = -1
	// assertion O: the testData: of a GitHub Models prompt file is test
	// input: a hit there is not reported, only counted. Read at the first
	// hit, so a file with none is never parsed.
	from, to, read := 0, 0, false
	for n, line, text := 0, []byte(nil), data; len(text) > 0; {
		n++
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			line, text = text, nil
		}
		k := set.FirstOfBytes(line, cand)
		if k < 0 {
			continue
		}
		id := termsIdentity(set, k, line)
		if binary {
			if hits == nil {
				hits, firstPattern = map[string]bool{}, k
			}
			hits[id] = true
			continue
		}
		if !read {
			from, to = promptTestData(p, data)
			read = true
		}
		if n >= from && n < to {
			records = append(records, gate.Finding{Class: promptDataClass, Path: p, Line: n})
			continue
		}
		// The record shows the line as it was matched: its content, the
		// CR of a CRLF ending dropped (patterns.Set's one line rule).
		if k := len(line); k > 0 && line[k-1] == '\r' {
			line = line[:k-1]
		}
		records = append(records, gate.Finding{Class: "leak", Path: p, Line: n, Msg: string(line), Text: fmt.Sprintf("%s:%d:%s", gate.QuotePath(p), n, line),
			Identity: id, About: termsAbout(set, k)})
	}
	if hits != nil {
		ids := make([]string, 0, len(hits))
		for id := range hits {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		about := "binary file, " + termsAbout(set, firstPattern)
		if len(ids) > 1 {
			about += fmt.Sprintf(" and %d more match(es)", len(ids)-1)
		}
		records = append(records, gate.Finding{Class: "leak", Path: p, Text: gate.QuotePath(p),
			Identity: "binary\x00" + strings.Join(ids, "\x00"), About: about})
	}
	return records, cand
}

// termsIdentity answers what pattern k flags on line: the pattern as
// written and the text it matched.
func termsIdentity(set *patterns.Set, k int, line []byte) string {
	return "pattern=" + set.Patterns[k].Text + "\x01matched=" + set.Matched(k, line)
}

// termsAbout names pattern k by its place: its list's file and line.
func termsAbout(set *patterns.Set, k int) string {
	pat := set.Patterns[k]
	return fmt.Sprintf("pattern %s:%d", pat.File, pat.Line)
}

// underRoot reports whether the listed path p lies under the scan root.
func underRoot(root, p string) bool {
	return root == "." || len(p) > len(root) && p[:len(root)] == root && p[len(root)] == '/'
}

// committedText reports whether the tracked path carries bytes of its own
// in a commit: a regular file, or a link (whose committed bytes are its
// target string). A submodule entry carries none. It reads nothing.
func committedText(c *gate.Context, p string) bool {
	mode, ok := c.Tree.Mode(p)
	return ok && committedMode(mode)
}

// committedMode reports whether an index mode carries bytes of its own.
func committedMode(mode uint32) bool {
	switch mode {
	case 0o100644, 0o100755, 0o120000:
		return true
	}
	return false
}

// eachIndex calls fn for every index below n on one worker per CPU. Each
// worker threads its own scratch slice through its calls (fn answers it
// back), so per-call buffers are reused without being shared.
func eachIndex(n int, fn func(i int, scratch []int) []int) {
	workers := runtime.GOMAXPROCS(0)
	if workers > n {
		workers = n
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var scratch []int
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				scratch = fn(i, scratch)
			}
		}()
	}
	wg.Wait()
}

// promptDataClass marks, among a file's records, a hit inside the test
// data of a prompt file: counted on the clean line, never reported.
const promptDataClass = "prompt-test-data"

// promptTestData answers the lines [from, to) of a GitHub Models prompt
// file's testData: value (a .yml or .yaml file whose top-level mapping
// holds messages: and testData:), 0, 0 when p is no such file or does not
// parse (its hits are then reported as any file's). The entries are the
// inputs the prompt is evaluated on, quoted from elsewhere by design, as a
// fixture's are. The value runs to the next top-level key, or to the end.
func promptTestData(p string, data []byte) (int, int) {
	if !strings.HasSuffix(p, ".yml") && !strings.HasSuffix(p, ".yaml") || !bytes.Contains(data, []byte("testData")) {
		return 0, 0
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return 0, 0
	}
	top := doc.Content[0].Content
	from, to, messages := 0, 0, false
	for i := 0; i+1 < len(top); i += 2 {
		switch top[i].Value {
		case "messages":
			messages = true
		case "testData":
			from = top[i].Line
			to = bytes.Count(data, []byte("\n")) + 1 // past the last line
			if !bytes.HasSuffix(data, []byte("\n")) {
				to++
			}
			for k := 0; k+1 < len(top); k += 2 {
				if l := top[k].Line; l > from && l < to {
					to = l
				}
			}
		}
	}
	if !messages || from == 0 {
		return 0, 0
	}
	return from, to
}
