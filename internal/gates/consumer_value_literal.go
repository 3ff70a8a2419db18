package gates

// check-consumer-value-literal: a string value the gates' own Go source
// spells, which names a path the tree tracks or a heading one of its
// markdown files carries, is a consumer value hard-wired into the binary.
// It must come from a knob (the kit tables and descriptor knob lines are
// the sanctioned producers) or its site must carry a
// consumer-value-exempt: valve with a reason. The corpus is derived from
// the registry: every registered member the binary dispatches, its rule's
// file, the sibling files that file leans on, and the first-party
// packages it imports, stopping at the universal layers and leaving the
// knob engine out. The publisher's own gate: no consumer holds the source.

import (
	"fmt"
	"os"
	"path"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gosrc"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

// consumerValve is the site declaration that discharges a literal.
const consumerValve = "consumer-value-exempt:"

// knobPackage is the knob engine's directory under the source root: the
// sanctioned producer of every consumer value, so never in the corpus.
const knobPackage = "knob"

// universalLayers are the source-root-relative packages and files every
// gate reaches (walking and the cwd, spawning, the registry, the rule
// contract, and the rule table): a member's cut stops at them.
var universalLayers = []string{"walk", "spawn", "registry", "gate", "gates/gates.go"}

// ruleModule answers the file a compiled rule is written in, relative to
// the module's source root ("gates/harness_literal.go"): the compiled
// member-to-module map, read off the function itself, so the registry stays
// the one table.
func ruleModule(rule gate.Rule) (string, bool) {
	if rule == nil {
		return "", false
	}
	fn := runtime.FuncForPC(reflect.ValueOf(rule).Pointer())
	if fn == nil {
		return "", false
	}
	file, _ := fn.FileLine(fn.Entry())
	name := fn.Name() // <import path>.<func>[.func1…]
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if dot < 0 {
		return "", false
	}
	pkg := name[:slash+1+dot]
	src := path.Dir(reflect.TypeOf(runFS{}).PkgPath())
	rel, ok := strings.CutPrefix(pkg, src+"/")
	if !ok {
		return "", false
	}
	return rel + "/" + path.Base(strings.ReplaceAll(file, "\\", "/")), true
}

// goTree is the module's source as the snapshot holds it: tracked non-test
// Go files by package directory, parsed at most once.
type goTree struct {
	c       *gate.Context
	crate   string // crate dir, listing-spelled ("" for the run dir)
	src     string // source root, listing-spelled
	module  string // the go.mod module path
	byDir   map[string][]string
	parsed  map[string]*gosrc.File
	pkgs    map[string]*gosrc.Package
	tracked map[string]bool
	dirs    map[string]bool
}

func (t *goTree) join(dir, rel string) string {
	if dir == "" {
		return rel
	}
	return dir + "/" + rel
}

// file parses one tracked file; an unparsable one refuses at its line.
func (t *goTree) file(p string) (*gosrc.File, error) {
	if f, ok := t.parsed[p]; ok {
		return f, nil
	}
	data, err := t.c.Tree.Read(p)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", p, unwrapPath(err))
	}
	f, err := gosrc.Parse(p, data)
	if err != nil {
		return nil, err
	}
	t.parsed[p] = f
	return f, nil
}

// pkg answers the package in a listing-spelled directory.
func (t *goTree) pkg(dir, importPath string) (*gosrc.Package, error) {
	if p, ok := t.pkgs[dir]; ok {
		return p, nil
	}
	var files []*gosrc.File
	for _, p := range t.byDir[dir] {
		f, err := t.file(p)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	p := gosrc.NewPackage(importPath, files)
	t.pkgs[dir] = p
	return p, nil
}

// importDir answers the listing-spelled directory of a first-party import.
func (t *goTree) importDir(ip string) (string, bool) {
	rest, ok := strings.CutPrefix(ip, t.module+"/")
	if !ok {
		return "", false
	}
	return t.join(t.crate, rest), true
}

func (t *goTree) resolve(ip string) (*gosrc.Package, error) {
	dir, ok := t.importDir(ip)
	if !ok {
		return nil, nil
	}
	return t.pkg(dir, ip)
}

// srcRel answers a listing-spelled path relative to the source root.
func (t *goTree) srcRel(p string) (string, bool) {
	return strings.CutPrefix(p, t.src+"/")
}

// excluded reports a source-root-relative file or directory the cut never
// takes: the knob engine, and the universal layers.
func excluded(rel string) bool {
	if rel == knobPackage || strings.HasPrefix(rel, knobPackage+"/") {
		return true
	}
	for _, u := range universalLayers {
		if rel == u || (!strings.HasSuffix(u, ".go") && strings.HasPrefix(rel, u+"/") && !strings.Contains(rel[len(u)+1:], "/")) {
			return true
		}
	}
	return false
}

// cut answers a member's corpus: its module, the sibling files of its
// package that declare a name the module leans on, and every file of each
// first-party package it imports under the source root, less what
// excluded names.
func (t *goTree) cut(module string) ([]string, error) {
	own := t.join(t.src, module)
	f, err := t.file(own)
	if err != nil {
		return nil, err
	}
	out := []string{own}
	// The sibling hop: a package-level name the module uses and a sibling
	// declares puts that sibling in the cut.
	leans := f.Leans()
	for _, sib := range t.byDir[path.Dir(own)] {
		if sib == own {
			continue
		}
		if rel, _ := t.srcRel(sib); excluded(rel) {
			continue
		}
		sf, err := t.file(sib)
		if err != nil {
			return nil, err
		}
		for _, d := range sf.Declares() {
			if slices.Contains(leans, d) {
				out = append(out, sib)
				break
			}
		}
	}
	// The import hop: every file of a first-party package under the root.
	for _, ip := range f.Imports() {
		dir, ok := t.importDir(ip)
		if !ok {
			continue
		}
		rel, under := t.srcRel(dir)
		if !under || excluded(rel) {
			continue
		}
		out = append(out, t.byDir[dir]...)
	}
	return out, nil
}

// heading is one markdown heading line and the file carrying it.
type heading struct {
	line, text, file string
}

func checkConsumerValueLiteral(c *gate.Context) int {
	if len(c.Args) > 0 {
		return c.Refuse("usage: check-consumer-value-literal (takes no operand; GATE_SDK_NATIVE_CRATE and GATE_SDK_NATIVE_SRC name the source)")
	}
	crate, err := c.Knobs.Scalar("GATE_SDK_NATIVE_CRATE")
	if err != nil {
		return c.RefuseErr(err)
	}
	src, err := c.Knobs.Scalar("GATE_SDK_NATIVE_SRC")
	if err != nil {
		return c.RefuseErr(err)
	}
	// assertion A: no readable source root, no go.mod, no listing or no
	// dispatched member is could-not-decide: a gate that read no source
	// cannot call it clean.
	if strings.TrimSpace(src) == "" {
		return c.Refuse("GATE_SDK_NATIVE_SRC is empty, so there is no gate source to read")
	}
	if st, err := os.Stat(runPath(c, src)); err != nil || !st.IsDir() {
		return c.Refuse("GATE_SDK_NATIVE_SRC names %s, which is not a directory, so there is no gate source to read", src)
	}
	if crate == "" {
		crate = "."
	}
	gomod := registry.Join(crate, goModFile)
	modData, err := c.Tree.Read(treePath(c, gomod))
	if err != nil {
		return c.Refuse("cannot read the module file %s (GATE_SDK_NATIVE_CRATE): %v", gomod, unwrapPath(err))
	}
	module, err := gosrc.ModulePath(gomod, modData)
	if err != nil {
		return c.RefuseErr(err)
	}
	files, err := c.Tree.Files()
	if err != nil {
		return c.Refuse("cannot list the tracked tree: %v", err)
	}
	t := &goTree{c: c, crate: treeSpelling(c, crate), src: treeSpelling(c, src), module: module,
		byDir: map[string][]string{}, parsed: map[string]*gosrc.File{}, pkgs: map[string]*gosrc.Package{},
		tracked: map[string]bool{}, dirs: map[string]bool{}}
	for _, p := range files {
		t.tracked[p] = true
		for d := path.Dir(p); d != "." && !t.dirs[d]; d = path.Dir(d) {
			t.dirs[d] = true
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			t.byDir[path.Dir(p)] = append(t.byDir[path.Dir(p)], p)
		}
	}

	reg, err := registryAt(c, c.GatesDir)
	if err != nil {
		return c.RefuseErr(err)
	}
	compiled := map[string]gate.Def{}
	for _, d := range All() {
		compiled[d.Name] = d
	}
	// assertion B: the corpus is derived from the registry — each member
	// resolving to a descriptor, shipped or withheld, contributes its
	// rule's cut; a member resolving nowhere, or to a shell file, adds none.
	inCorpus := map[string]bool{}
	swept := 0
	for _, m := range reg.Distinct() {
		if m.Kind != registry.Descriptor {
			continue
		}
		def, ok := compiled[m.Name]
		if !ok {
			continue
		}
		module, ok := ruleModule(def.Rule)
		if !ok {
			return c.Refuse("cannot locate the source file of %s's compiled rule", m.Name)
		}
		if !t.tracked[t.join(t.src, module)] {
			return c.Refuse("%s's rule is compiled from %s, which %s does not track: the source is not the binary's", m.Name, module, src)
		}
		swept++
		cut, err := t.cut(module)
		if err != nil {
			return c.RefuseErr(err)
		}
		for _, p := range cut {
			inCorpus[p] = true
		}
	}
	if swept == 0 {
		return c.Refuse("no registered member resolves to a descriptor the binary compiles, so there is no gate source to read")
	}
	corpus := make([]string, 0, len(inCorpus))
	for p := range inCorpus {
		corpus = append(corpus, p)
	}
	sort.Strings(corpus)

	headings, err := trackedHeadings(c, files)
	if err != nil {
		return c.RefuseErr(err)
	}
	declare := "or declare the site with a `// consumer-value-exempt: <reason>` comment on its line or the line above"
	r := c.NewReport(map[string]string{
		"path":    "read the path from a knob with this literal as its default (a row of the owning kit's knobs.toml, or a knob line on the reading gate's descriptor), " + declare,
		"heading": "read the heading from a knob with this literal as its default (a row of the owning kit's knobs.toml, or a knob line on the reading gate's descriptor), " + declare,
		"valve":   "give the consumer-value-exempt: valve its reason (why this value is the mechanism's, not a consumer's), or remove it",
	})
	literals, valvedSites := 0, 0
	for _, p := range corpus {
		f, err := t.file(p)
		if err != nil {
			return c.RefuseErr(err)
		}
		pkg, err := t.pkg(path.Dir(p), "")
		if err != nil {
			return c.RefuseErr(err)
		}
		lits, err := gosrc.Literals(f, pkg, t.resolve)
		if err != nil {
			return c.RefuseErr(err)
		}
		literals += len(lits)
		open, found := siteValves(p, f)
		for _, l := range lits {
			arm, msg := consumerArm(t, c.KitRoots, headings, l.Value)
			if arm == "" {
				continue
			}
			// The valve on the literal's opening line or the line above
			// declares the site.
			if open[l.Line] || open[l.Line-1] {
				valvedSites++
				continue
			}
			found = append(found, gate.Finding{Class: arm, Path: p, Line: l.Line, Msg: fmt.Sprintf("%s %s", strconv.Quote(l.Value), msg)})
		}
		addInLineOrder(r, found)
	}
	return r.Done(fmt.Sprintf("%d members swept, %d files read, %d literals read, %d sites valved", swept, len(corpus), literals, valvedSites))
}

// consumerArm answers which arm a value meets ("path", "heading" or ""),
// and what it names.
func consumerArm(t *goTree, kitRoots []string, headings []heading, v string) (string, string) {
	// assertion C: the path arm — the value, spelled as a clean relative
	// path, is a tracked file or a directory holding one, and lies neither
	// at, under nor above a kit root (a kit's own files are its vocabulary).
	if p, ok := cleanRelPath(v); ok && (t.tracked[p] || t.dirs[p]) && !kitVocabulary(t.c, kitRoots, p) {
		what := "file"
		if !t.tracked[p] {
			what = "directory"
		}
		return "path", fmt.Sprintf("names the tracked %s %s (path arm)", what, p)
	}
	// assertion D: the heading arm — the value is a heading line with its
	// marker, or a bare heading text of two or more words.
	for _, h := range headings {
		if v == h.line || (v == h.text && len(strings.Fields(h.text)) >= 2) {
			return "heading", fmt.Sprintf("matches the heading %q of %s (heading arm)", h.line, h.file)
		}
	}
	return "", ""
}

// siteValves answers the lines carrying a consumer-value-exempt: valve
// with its reason. A valve with no reason is answered as a finding.
func siteValves(p string, f *gosrc.File) (map[int]bool, []gate.Finding) {
	open := map[int]bool{}
	var malformed []gate.Finding
	for _, cm := range f.Comments() {
		reason, found := valveReason([]byte(cm.Text), consumerValve)
		if !found {
			continue
		}
		// assertion E: a valve declares the site of the literal on its line
		// or the line below only with a reason; an empty one is its own
		// finding, the line printed, and declares nothing.
		if reason == "" {
			malformed = append(malformed, gate.Finding{Class: "valve", Path: p, Line: cm.Line, Msg: fmt.Sprintf("malformed consumer-value-exempt: valve, no reason: %s", strings.TrimSpace(cm.Text))})
			continue
		}
		open[cm.Line] = true
	}
	return open, malformed
}

// cleanRelPath answers a value read as a repository-relative path with
// its equivalent spellings collapsed ("./a/", "a//b" read as "a", "a/b"):
// empty, rooted, multi-line, blank-carrying or upward values are none.
func cleanRelPath(v string) (string, bool) {
	if v == "" || strings.ContainsAny(v, "\n\r\t \x00") || walk.PathRoot(v) {
		return "", false
	}
	p := path.Clean(v)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// kitVocabulary reports a path at, under or above one of the kit roots.
func kitVocabulary(c *gate.Context, kitRoots []string, p string) bool {
	for _, k := range kitRoots {
		k = treeSpelling(c, k)
		if p == k || strings.HasPrefix(p, k+"/") || strings.HasPrefix(k, p+"/") {
			return true
		}
	}
	return false
}

// treeSpelling answers a knob path as the listing spells it ("" for the
// run directory itself).
func treeSpelling(c *gate.Context, p string) string {
	s := treePath(c, p)
	if s == "." {
		return ""
	}
	return s
}

// trackedHeadings answers every heading line outside a fence in the
// tracked markdown files that lie under no kit root and no pruned dir.
func trackedHeadings(c *gate.Context, files []string) ([]heading, error) {
	prune, err := pruneSet(c)
	if err != nil {
		return nil, err
	}
	var out []heading
	for _, p := range files {
		if !strings.HasSuffix(p, ".md") || prune.PathPruned(p) || kitVocabulary(c, c.KitRoots, p) {
			continue
		}
		data, err := c.Tree.Read(p)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %v", p, unwrapPath(err))
		}
		fence := ""
		for _, raw := range splitLines(data) {
			line := strings.TrimRight(string(raw), " \t\r")
			trimmed := strings.TrimLeft(line, " ")
			if fence != "" {
				if strings.HasPrefix(trimmed, fence) {
					fence = ""
				}
				continue
			}
			if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
				fence = trimmed[:3]
				continue
			}
			if !strings.HasPrefix(line, "#") {
				continue
			}
			text := strings.TrimSpace(strings.TrimLeft(line, "#"))
			out = append(out, heading{line: line, text: text, file: p})
		}
	}
	return out, nil
}
