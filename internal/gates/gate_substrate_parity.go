package gates

// check-gate-substrate-parity: the dispatch seam stays honest. A gate may
// move into the binary, but not by dropping the declaration other readers
// use, by stranding a compiled rule no descriptor dispatches to, or by
// losing the record of what the move costs. Ten assertions, A to J, each
// finding tagged with its letter.

import (
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
	"github.com/gate-sdk/gates/internal/workflow"
	"go.yaml.in/yaml/v3"
)

// conservationHeading is the SPEC section recording each substrate-
// sensitive member's disposition.
const conservationHeading = "Meta-gate conservation for the binary substrate"

var parityHelps = map[string]string{
	"A": "[A] give each registered member exactly one declaration: delete the .sh or the .gate it no longer needs, or register only names a declaration carries",
	"B": "[B] a descriptor needs the compiled gate it names, and an in-scope compiled gate needs its descriptor (or a reference-only line in the conservation section)",
	"C": "[C] record the member's disposition for a .gate-dispatched member in the SPEC's conservation section, naming it",
	"D": "[D] manifest fields live in the .gate descriptor only: delete the annotation from the implementation tree",
	"E": "[E] keep implementation source out of the kit roots: move the file out of the kit, or keep the module outside every kit root",
	"F": "[F] keep the target roster well formed (one <os>/<arch> per live line) and the publish workflow's matrix values GitHub expressions",
	"G": "[G] # no-port: and # port-until: sit only on shell declarations, at most one of each, with a cause or a bare slug, never both",
	"H": "[H] a # port-until: declaration's # spec: section must say why the member is held (name port-until there)",
	"I": "[I] register each in-scope compiled gate in gates.list or declare it `# unregistered: <name> — <reason>`; register a descriptor only for a gate the binary carries",
	"J": "[J] each kit's smoke install registers or declares every gate it owns, and only those",
}

func checkGateSubstrateParity(c *gate.Context) int {
	s, code, ok := seamOperands(c, 2, "[gates-dir [conservation-doc]]")
	if !ok {
		return code
	}
	pub, err := publishing(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	cons, err := loadConservation(c, pub)
	if err != nil {
		return c.RefuseErr(err)
	}
	r := c.NewReport(parityHelps)
	add := func(letter, p string, line int, format string, args ...any) {
		r.Add(gate.Finding{Class: letter, Path: p, Line: line, Msg: "[" + letter + "] " + fmt.Sprintf(format, args...)})
	}
	var clean []string

	// assertion A: each registered member resolves to exactly one declaration.
	for _, m := range s.reg.Distinct() {
		switch m.Kind {
		case registry.Ambiguous:
			add("A", m.Path, 0, "ambiguous dispatch: %s and %s both declare %s", m.Path, m.Alt, m.Name)
		case registry.Unresolved:
			add("A", s.reg.Path, m.Line, "registered member %s resolves to no <name>.sh or <name>.gate", m.Name)
		}
	}
	clean = append(clean, fmt.Sprintf("A: %d members", len(s.reg.Distinct())))

	// assertion B: the descriptor set equals the roster in scope.
	in := parityInput{
		descriptors: declNames(s.descriptors),
		roster:      rosterOf(All()),
		vendored:    vendoredKits(c.KitRoots),
		publishing:  pub,
		refOnly:     cons.refOnly(),
	}
	for _, f := range rosterParity(in) {
		p := ""
		if d, ok := declByName(s.descriptors, f.name); ok {
			p = d.Path
		}
		add("B", p, 0, "%s", f.msg)
	}
	inScope, outScope := in.scoped()
	clean = append(clean, fmt.Sprintf("B: %d descriptors, %d compiled gates in scope, %d out of scope", len(s.descriptors), len(inScope), len(outScope)))

	// assertion C: every substrate-sensitive member carries a disposition.
	sensitive, err := substrateSensitive(c, s)
	if err != nil {
		return c.RefuseErr(err)
	}
	undisp := 0
	for _, m := range sensitive {
		if cons == nil || !cons.present {
			undisp++
			continue
		}
		if !cons.mentions(m.Name) {
			add("C", cons.path, 0, "substrate-sensitive member %s (its couples reach a registered declaration) has no disposition in §%s", m.Name, conservationHeading)
		}
	}
	if cons.present {
		clean = append(clean, fmt.Sprintf("C: %d substrate-sensitive members dispositioned", len(sensitive)))
	} else {
		clean = append(clean, fmt.Sprintf("C: not asserted, no conservation doc (%d undispositioned)", undisp))
	}

	// assertion D: no manifest-class annotation in the implementation tree.
	scanned, err := manifestInSource(c, func(p string, line int, text string) {
		add("D", p, line, "manifest-class annotation in the implementation tree: %s", strings.TrimSpace(text))
	})
	if err != nil {
		return c.RefuseErr(err)
	}
	clean = append(clean, fmt.Sprintf("D: %d implementation files", scanned))

	// assertion E: no implementation source inside the vendoring set.
	siblings, err := vendoredImplementation(c, s, func(p, msg string) { add("E", p, 0, "%s", msg) })
	if err != nil {
		return c.RefuseErr(err)
	}
	clean = append(clean, fmt.Sprintf("E: %d kit files against %d descriptors", siblings, len(s.descriptors)))

	// assertion F: one owner for the target roster.
	fnote, err := targetRoster(c, pub, len(s.dispatching) > 0, func(p string, line int, msg string) { add("F", p, line, "%s", msg) })
	if err != nil {
		return c.RefuseErr(err)
	}
	clean = append(clean, "F: "+fnote)

	// assertion G: port-declaration placement, and assertion H over its holders.
	decl, tree, held, err := portDeclarations(c, s, pub, func(letter, p string, line int, msg string) { add(letter, p, line, "%s", msg) })
	if err != nil {
		return c.RefuseErr(err)
	}
	clean = append(clean, fmt.Sprintf("G: %d declarations, %d tracked scripts", decl, tree), fmt.Sprintf("H: %d held grounds verified", held))

	// assertion I: the roster joined to the registration.
	for _, f := range registrationJoin(in, s.reg.List, dispatchedNames(s.reg)) {
		add("I", s.reg.Path, f.line, "%s", f.msg)
	}
	clean = append(clean, fmt.Sprintf("I: %d declared unregistered", len(s.reg.Unregistered)))

	// assertion J: each kit's smoke registry joined to the kit's members.
	jnote, err := smokeRegistries(c, in, pub, func(p string, line int, msg string) { add("J", p, line, "%s", msg) })
	if err != nil {
		return c.RefuseErr(err)
	}
	clean = append(clean, "J: "+jnote)
	return r.Done(strings.Join(clean, "; "))
}

// ---- the roster (B) and the registration (I), as pure functions ----

// rosterEntry is one compiled gate and its owner ("-" for consumer-declared).
type rosterEntry struct{ name, owner string }

func rosterOf(defs []gate.Def) []rosterEntry {
	var out []rosterEntry
	for _, d := range defs {
		o := d.Owner
		if o == "" {
			o = "-"
		}
		out = append(out, rosterEntry{d.Name, o})
	}
	return out
}

// parityInput is everything B and I compare.
type parityInput struct {
	descriptors []string        // .gate names across the resolve dirs
	roster      []rosterEntry   // the compiled gates and their owners
	vendored    []string        // the kit names this tree vendored
	publishing  bool            // the tree the binary is built from
	refOnly     map[string]bool // reference-only dispositions
}

// inScope reports whether a compiled gate's descriptor is owed here: a
// kit-owned one iff its kit is vendored, a consumer-declared one iff this
// is the publishing tree.
func (in parityInput) inScope(e rosterEntry) bool {
	if e.owner == "-" {
		return in.publishing
	}
	return hasName(in.vendored, e.owner)
}

func (in parityInput) scoped() (inScope, outScope []rosterEntry) {
	for _, e := range in.roster {
		if in.inScope(e) {
			inScope = append(inScope, e)
		} else {
			outScope = append(outScope, e)
		}
	}
	return inScope, outScope
}

type nameFinding struct {
	name string
	line int
	msg  string
}

// rosterParity is assertion B: descriptors naming no compiled gate (always
// red), and in-scope compiled gates with no descriptor (red unless
// reference-only).
func rosterParity(in parityInput) []nameFinding {
	var out []nameFinding
	compiled := map[string]bool{}
	for _, e := range in.roster {
		compiled[e.name] = true
	}
	for _, d := range in.descriptors {
		if !compiled[d] {
			out = append(out, nameFinding{name: d, msg: fmt.Sprintf("descriptor %s names no compiled gate (gates --list lacks it)", d)})
		}
	}
	for _, e := range in.roster {
		if in.inScope(e) && !hasName(in.descriptors, e.name) && !in.refOnly[e.name] {
			out = append(out, nameFinding{name: e.name, msg: fmt.Sprintf("compiled gate %s (owner %s) has no .gate descriptor in the resolve dirs: a stranded implementation", e.name, e.owner)})
		}
	}
	return out
}

// registrationJoin is assertion I against one registry: an in-scope
// compiled gate neither registered nor declared, a registered dispatch the
// binary lacks, and stale or reasonless declarations.
func registrationJoin(in parityInput, l *registry.List, dispatched map[string]int) []nameFinding {
	var out []nameFinding
	registered := map[string]int{}
	for _, e := range l.Entries {
		if _, ok := registered[e.Name]; !ok {
			registered[e.Name] = e.Line
		}
	}
	declared := map[string]bool{}
	for _, u := range l.Unregistered {
		declared[u.Name] = true
		if line, ok := registered[u.Name]; ok {
			out = append(out, nameFinding{name: u.Name, line: u.Line, msg: fmt.Sprintf("# unregistered: %s, but line %d registers it", u.Name, line)})
		}
		if strings.TrimSpace(u.Reason) == "" {
			out = append(out, nameFinding{name: u.Name, line: u.Line, msg: fmt.Sprintf("# unregistered: %s carries no reason (write <name> — <reason>)", u.Name)})
		}
	}
	compiled := map[string]bool{}
	for _, e := range in.roster {
		compiled[e.name] = true
		if !in.inScope(e) {
			continue
		}
		if _, ok := registered[e.name]; !ok && !declared[e.name] {
			out = append(out, nameFinding{name: e.name, msg: fmt.Sprintf("compiled gate %s is in scope but neither registered nor declared # unregistered:", e.name)})
		}
	}
	var names []string
	for n := range dispatched {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !compiled[n] {
			out = append(out, nameFinding{name: n, line: dispatched[n], msg: fmt.Sprintf("registered member %s dispatches to the binary, which carries no gate of that name", n)})
		}
	}
	return out
}

// dispatchedNames answers the registered members resolving to a descriptor.
func dispatchedNames(reg *registry.Registry) map[string]int {
	out := map[string]int{}
	for _, m := range reg.Distinct() {
		if m.Kind == registry.Descriptor {
			out[m.Name] = m.Line
		}
	}
	return out
}

func declNames(ds []registry.Declaration) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

func declByName(ds []registry.Declaration, name string) (registry.Declaration, bool) {
	for _, d := range ds {
		if d.Name == name {
			return d, true
		}
	}
	return registry.Declaration{}, false
}

// vendoredKits answers each kit root's directory name, the owner --list prints.
func vendoredKits(roots []string) []string {
	var out []string
	for _, r := range roots {
		out = append(out, path.Base(strings.TrimRight(walk.CrossArg(r), "/")))
	}
	return out
}

// ---- the conservation section (B's allowance, C) ----

type conservation struct {
	present bool
	path    string
	body    []string
}

// loadConservation reads the conservation doc: the second operand, else
// <gate-sdk kit root>/SPEC.md. A named doc that is absent, a default doc
// absent in the publishing tree, and a doc with no conservation section
// refuse; elsewhere an absent default leaves C unasserted.
func loadConservation(c *gate.Context, pub bool) (*conservation, error) {
	var p string
	named := len(c.Args) > 1
	if named {
		p = c.Args[1]
	} else {
		for _, r := range c.KitRoots {
			if path.Base(strings.TrimRight(walk.CrossArg(r), "/")) == kitOwner {
				p = registry.Join(strings.TrimRight(r, "/"), "SPEC.md")
				break
			}
		}
	}
	if p == "" {
		if pub {
			return nil, fmt.Errorf("no %s kit root here, so the conservation doc cannot be read, and this tree authors the dispositions", kitOwner)
		}
		return &conservation{}, nil
	}
	data, present, err := readOptional(c, p)
	if err != nil {
		return nil, err
	}
	if !present {
		if named || pub {
			return nil, fmt.Errorf("conservation doc %s does not exist", p)
		}
		return &conservation{path: p}, nil
	}
	body, ok := markdownSection(string(data), conservationHeading)
	if !ok {
		return nil, fmt.Errorf("%s has no section %q", p, conservationHeading)
	}
	return &conservation{present: true, path: p, body: body}, nil
}

// mentions reports whether the section names the member (any mention counts).
func (cs *conservation) mentions(name string) bool {
	for _, l := range cs.body {
		if containsWord(l, name) {
			return true
		}
	}
	return false
}

// refOnly answers the members a section line dispositions reference-only.
func (cs *conservation) refOnly() map[string]bool {
	out := map[string]bool{}
	if cs == nil {
		return out
	}
	for _, l := range cs.body {
		if !strings.Contains(l, "reference-only") {
			continue
		}
		for _, w := range strings.FieldsFunc(l, func(r rune) bool { return !(r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
			if strings.HasPrefix(w, "check-") {
				out[w] = true
			}
		}
	}
	return out
}

// containsWord reports whether name occurs in line not flanked by a
// name character, so check-foo does not match check-foo-bar.
func containsWord(line, name string) bool {
	for i := 0; ; {
		k := strings.Index(line[i:], name)
		if k < 0 {
			return false
		}
		start, end := i+k, i+k+len(name)
		before := start == 0 || !nameByte(line[start-1])
		after := end == len(line) || !nameByte(line[end])
		if before && after {
			return true
		}
		i = start + 1
	}
}

func nameByte(b byte) bool {
	return b == '-' || b == '_' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9'
}

// markdownSection answers the lines under the ATX heading whose text is
// title, up to the next heading at the same or a shallower level.
func markdownSection(doc, title string) ([]string, bool) {
	lines := strings.Split(doc, "\n")
	level := 0
	var body []string
	fence := false
	for _, raw := range lines {
		l := strings.TrimSuffix(raw, "\r")
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		lv, text := headingOf(l)
		if !fence && lv > 0 {
			if level > 0 && lv <= level {
				break
			}
			if level == 0 && text == title {
				level = lv
				continue
			}
		}
		if level > 0 {
			body = append(body, l)
		}
	}
	return body, level > 0
}

// ---- C: the substrate-sensitive set ----

// substrateSensitive answers the registered members whose expanded
// couples= reach the declaration path of some registered member.
func substrateSensitive(c *gate.Context, s *seam) ([]registry.Member, error) {
	var paths []string
	for _, m := range s.reg.Distinct() {
		if m.Kind == registry.Shell || m.Kind == registry.Descriptor {
			paths = append(paths, m.Path)
		}
	}
	knobs := couplesKnobs(c)
	var out []registry.Member
	for _, m := range s.reg.Distinct() {
		if m.Manifest == nil || m.Manifest.Graph == nil {
			continue
		}
		pats, err := registry.Expand(m.Manifest.Graph.Couples, c.KitRoots, knobs)
		if err != nil {
			return nil, fmt.Errorf("%s: couples=: %w", m.Path, err)
		}
		for _, p := range paths {
			if registry.MatchesAny(pats, p) {
				out = append(out, m)
				break
			}
		}
	}
	return out, nil
}

// CouplesKnobSource is a gate.Knobs that can also answer knob values in the
// shapes couples= expansion reads; the command line's knob view is one.
type CouplesKnobSource interface {
	CouplesKnobs() registry.Knobs
}

// couplesKnobs answers the expansion view of the gate's knobs. A knob view
// that offers none expands only scalar and indexed knobs.
func couplesKnobs(c *gate.Context) registry.Knobs {
	if src, ok := c.Knobs.(CouplesKnobSource); ok {
		return src.CouplesKnobs()
	}
	return plainCouplesKnobs{c}
}

type plainCouplesKnobs struct{ c *gate.Context }

func (k plainCouplesKnobs) Knob(name string) (registry.KnobValue, error) {
	if name == "GATE_SDK_GATES_DIR" {
		return registry.KnobValue{Shape: registry.ShapeLocator, Value: k.c.GatesDir}, nil
	}
	if elems, err := k.c.Knobs.List(name); err == nil {
		return registry.KnobValue{Shape: registry.ShapeIndexed, Elems: elems}, nil
	}
	v, err := k.c.Knobs.Scalar(name)
	return registry.KnobValue{Shape: registry.ShapeScalar, Value: v}, err
}

func (k plainCouplesKnobs) Field(name, field string) ([]string, error) {
	return nil, fmt.Errorf("knob %s: packed fields are not readable through this knob view", name)
}

// ---- D: the implementation tree ----

// manifestFields are the descriptor-only (manifest-class) fields.
var manifestFields = []string{"graph", "install", "armed-by", "projection", "no-fixture"}

// manifestInSource reports each manifest-class comment under
// GATE_SDK_NATIVE_SRC among the tracked files; Go files are read as Go
// (comments only, so a string holding a header is not an annotation),
// every other file by its comment leader (#, // or /*).
func manifestInSource(c *gate.Context, found func(p string, line int, text string)) (int, error) {
	src, err := c.Knobs.Scalar("GATE_SDK_NATIVE_SRC")
	if err != nil {
		return 0, err
	}
	prefix := treePath(c, src)
	files, err := trackedUnder(c, prefix)
	if err != nil {
		return 0, err
	}
	for _, p := range files {
		data, err := c.Tree.Read(p)
		if err != nil {
			return 0, err
		}
		if strings.HasSuffix(p, ".go") {
			goCommentLines(p, data, func(line int, text string) {
				if manifestLine(text) {
					found(p, line, text)
				}
			})
			continue
		}
		for i, l := range strings.Split(string(data), "\n") {
			if manifestLine(l) {
				found(p, i+1, l)
			}
		}
	}
	return len(files), nil
}

// manifestLine reports whether a line opens with a comment leader and a
// manifest-class field.
func manifestLine(l string) bool {
	t := strings.TrimLeft(l, " \t")
	for _, lead := range []string{"//", "/*", "#", "*"} {
		if rest, ok := strings.CutPrefix(t, lead); ok {
			rest = strings.TrimLeft(rest, " \t")
			for _, f := range manifestFields {
				if strings.HasPrefix(rest, f+":") {
					return true
				}
			}
			return false
		}
	}
	return false
}

// goCommentLines calls fn with every line of every comment in a Go file.
func goCommentLines(name string, data []byte, fn func(line int, text string)) {
	fset := token.NewFileSet()
	f := fset.AddFile(name, -1, len(data))
	var s scanner.Scanner
	s.Init(f, data, nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return
		}
		if tok != token.COMMENT {
			continue
		}
		start := fset.Position(pos).Line
		for i, l := range strings.Split(lit, "\n") {
			fn(start+i, l)
		}
	}
}

// trackedUnder answers the tracked files under a tree-relative prefix.
func trackedUnder(c *gate.Context, prefix string) ([]string, error) {
	all, err := c.Tree.Files()
	if err != nil {
		return nil, err
	}
	if prefix == "." {
		return all, nil
	}
	under := prefix + "/"
	if sort.StringsAreSorted(all) {
		// A listing in byte order (the index's) holds the prefix's files
		// as one run: search for its first and stop after its last.
		lo := sort.SearchStrings(all, under)
		hi := lo
		for hi < len(all) && strings.HasPrefix(all[hi], under) {
			hi++
		}
		return all[lo:hi:hi], nil
	}
	var out []string
	for _, p := range all {
		if strings.HasPrefix(p, under) {
			out = append(out, p)
		}
	}
	return out, nil
}

// ---- E: the vendoring set ----

// vendoredImplementation reports a tracked <name>.<ext> under a kit root
// for a declared descriptor (any extension but .gate and .sh), and a
// module root inside a kit root. It answers how many kit files it read.
func vendoredImplementation(c *gate.Context, s *seam, found func(p, msg string)) (int, error) {
	names := map[string]bool{}
	for _, d := range s.descriptors {
		names[d.Name] = true
	}
	n := 0
	for _, r := range c.KitRoots {
		files, err := trackedUnder(c, treePath(c, r))
		if err != nil {
			return 0, err
		}
		n += len(files)
		for _, p := range files {
			b := path.Base(p)
			dot := strings.LastIndexByte(b, '.')
			if dot <= 0 {
				continue // an extensionless name is an artifact question, not this one
			}
			stem, ext := b[:dot], b[dot+1:]
			if names[stem] && ext != "gate" && ext != "sh" {
				found(p, fmt.Sprintf("%s sits in a kit root beside the descriptor set, so the payload would vendor an implementation of %s", p, stem))
			}
		}
	}
	crate, _, err := crateDir(c)
	if err != nil {
		return 0, err
	}
	cp := treePath(c, crate)
	for _, r := range c.KitRoots {
		rp := treePath(c, r)
		if cp == rp || strings.HasPrefix(cp, rp+"/") {
			found(crate, fmt.Sprintf("the module root %s (GATE_SDK_NATIVE_CRATE) lies inside the kit root %s, so the payload would carry the source", crate, r))
		}
	}
	return n, nil
}

// ---- F: the target roster ----

var targetLine = lazyre.New(`^[a-z0-9]+/[a-z0-9]+$`)

// targetRoster holds the roster's form, its presence in a publishing tree
// that dispatches, and the publish workflows' matrix values.
func targetRoster(c *gate.Context, pub, dispatches bool, found func(p string, line int, msg string)) (string, error) {
	file, err := c.Knobs.Scalar("GATE_SDK_NATIVE_TARGETS_FILE")
	if err != nil {
		return "", err
	}
	data, present, err := readOptional(c, file)
	if err != nil {
		return "", err
	}
	var note []string
	switch {
	case present:
		live := 0
		for i, raw := range strings.Split(string(data), "\n") {
			l := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			live++
			if !targetLine.Get().MatchString(l) {
				found(file, i+1, fmt.Sprintf("target %q is not <os>/<arch>", l))
			}
		}
		if live == 0 {
			found(file, 0, "the target roster names no target, so it asserts no platform support")
		}
		note = append(note, fmt.Sprintf("%d targets", live))
	case pub && dispatches:
		found(file, 0, "no target roster (GATE_SDK_NATIVE_TARGETS_FILE) in the tree that builds and dispatches to the binary")
	default:
		note = append(note, "no roster, not owed here")
	}
	wfs, err := c.Knobs.Words("GATE_SDK_NATIVE_PUBLISH_WORKFLOW")
	if err != nil {
		return "", err
	}
	var absent []string
	read := 0
	for _, wf := range wfs {
		data, ok, err := readOptional(c, wf)
		if err != nil {
			return "", err
		}
		if !ok {
			absent = append(absent, wf)
			continue
		}
		read++
		lits, err := matrixLiterals(wf, data)
		if err != nil {
			return "", err
		}
		for _, l := range lits {
			found(wf, l.line, fmt.Sprintf("matrix value %q is a literal; derive the build matrix from the target roster with a GitHub expression", l.text))
		}
	}
	note = append(note, fmt.Sprintf("%d publish workflows read", read))
	if len(absent) > 0 {
		note = append(note, "absent: "+strings.Join(absent, " "))
	}
	return strings.Join(note, ", "), nil
}

type lineText struct {
	line int
	text string
}

// matrixLiterals answers each scalar value under a job's strategy.matrix
// that is not a GitHub expression (mapping keys are names, not values). A
// file the YAML reader rejects is refused: its matrix cannot be seen.
func matrixLiterals(file string, data []byte) ([]lineText, error) {
	f := workflow.Read(file, data)
	if f.Rejected != nil {
		return nil, f.Rejected
	}
	var out []lineText
	var visit func(n *yaml.Node)
	visit = func(n *yaml.Node) {
		if n == nil {
			return
		}
		switch n.Kind {
		case yaml.ScalarNode:
			if v := strings.TrimSpace(n.Value); v != "" && !strings.HasPrefix(v, "${{") {
				out = append(out, lineText{n.Line, v})
			}
		case yaml.MappingNode:
			for k := 1; k < len(n.Content); k += 2 {
				visit(n.Content[k])
			}
		case yaml.SequenceNode, yaml.DocumentNode:
			for _, c := range n.Content {
				visit(c)
			}
		}
	}
	for _, j := range f.Jobs {
		if m := mappingValue(mappingValue(j.Node, "strategy"), "matrix"); m != nil {
			visit(m)
		}
	}
	return out, nil
}

// mappingValue answers the value under key in a YAML mapping, nil otherwise.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for k := 0; k+1 < len(n.Content); k += 2 {
		if n.Content[k].Value == key {
			return n.Content[k+1]
		}
	}
	return nil
}

// ---- G and H: port declarations ----

// portDeclarations runs G over the declaration set (every declaration in
// the resolve dirs) and, in the publishing tree, over the tracked shell
// scripts' header blocks; then H over every held declaration. It answers
// the two corpus sizes and the verified held grounds.
func portDeclarations(c *gate.Context, s *seam, pub bool, found func(letter, p string, line int, msg string)) (int, int, int, error) {
	seen := map[string]bool{}
	held := 0
	check := func(p string) error {
		data, err := os.ReadFile(runPath(c, p))
		if err != nil {
			return fmt.Errorf("cannot read declaration %s: %w", p, unwrapPath(err))
		}
		m, err := registry.ParseHeader(p, data)
		for _, e := range registry.Problems(err) {
			// assertion G: the one header reader's port-field faults.
			if e.Kind == registry.KindShellOnly || strings.Contains(e.Msg, "no-port") || strings.Contains(e.Msg, "port-until") {
				found("G", p, e.Line, e.Msg)
			}
		}
		if m != nil && m.PortUntil != nil {
			// assertion H: the held ground is one hop away.
			ok, msg, err := heldGround(c, p, m)
			if err != nil {
				return err
			}
			if ok {
				held++
			} else {
				found("H", p, m.PortUntil.Line, msg)
			}
		}
		return nil
	}
	for _, d := range s.decls {
		seen[d.Path] = true
		if err := check(d.Path); err != nil {
			return 0, 0, 0, err
		}
	}
	tree := 0
	if pub {
		files, err := c.Tree.Files()
		if err != nil {
			return 0, 0, 0, err
		}
		prune, err := pruneSet(c)
		if err != nil {
			return 0, 0, 0, err
		}
		for _, p := range files {
			if !strings.HasSuffix(p, ".sh") || seen[p] || prune.PathPruned(p) {
				continue
			}
			tree++
			if err := check(p); err != nil {
				return 0, 0, 0, err
			}
		}
	}
	return len(s.decls), tree, held, nil
}

var slugRe = lazyre.New(`^[a-z0-9][a-z0-9-]*$`)

// heldGround opens the section the declaration's # spec: names and
// reports whether it names port-until.
func heldGround(c *gate.Context, decl string, m *registry.Manifest) (bool, string, error) {
	if !slugRe.Get().MatchString(m.PortUntil.Text) {
		return false, fmt.Sprintf("# port-until: %q is not a queue slug ([a-z0-9-])", m.PortUntil.Text), nil
	}
	if m.Spec == nil {
		return false, "# port-until: with no # spec: field, so its ground is unreachable", nil
	}
	file, section, ok := strings.Cut(m.Spec.Location, " §")
	if !ok || strings.TrimSpace(section) == "" {
		return false, fmt.Sprintf("# port-until: whose # spec: %q names no §section", m.Spec.Location), nil
	}
	p := specPath(c, decl, strings.TrimSpace(file))
	data, present, err := readOptional(c, p)
	if err != nil {
		return false, "", err
	}
	if !present {
		return false, fmt.Sprintf("# spec: names %s, which does not exist", file), nil
	}
	body, _ := markdownSection(string(data), strings.TrimSpace(section))
	if !strings.Contains(strings.Join(body, "\n"), "port-until") {
		return false, fmt.Sprintf("section §%s of %s does not state the hold (no port-until there)", strings.TrimSpace(section), file), nil
	}
	return true, "", nil
}

// specPath resolves a # spec: file: a leading kit name maps to that kit's
// root; any other path is taken relative to the run directory, or, when
// absent there, to the declaration's own directory.
func specPath(c *gate.Context, decl, file string) string {
	head, rest, _ := strings.Cut(file, "/")
	for i, name := range vendoredKits(c.KitRoots) {
		if name == head && rest != "" {
			return registry.Join(strings.TrimRight(c.KitRoots[i], "/"), rest)
		}
	}
	if _, err := os.Stat(runPath(c, file)); err == nil {
		return file
	}
	return registry.Join(path.Dir(decl), file)
}

// ---- J: smoke registries ----

var smokeHeredoc = lazyre.New(`^cat\s+>>?\s*"?([^"\s]*gates\.list)"?\s+<<-?\s*'?"?([A-Za-z_][A-Za-z0-9_]*)`)

// smokeRegistries joins each kit's smoke/install.sh registry heredoc to
// the compiled gates the kit owns. Publishing tree only.
func smokeRegistries(c *gate.Context, in parityInput, pub bool, found func(p string, line int, msg string)) (string, error) {
	if !pub {
		return "out of scope (not the publishing tree)", nil
	}
	noSmoke := 0
	joined := 0
	for i, r := range c.KitRoots {
		kit := vendoredKits(c.KitRoots)[i]
		var owned []rosterEntry
		for _, e := range in.roster {
			if e.owner == kit {
				owned = append(owned, e)
			}
		}
		script := registry.Join(strings.TrimRight(r, "/"), "smoke/install.sh")
		data, present, err := readOptional(c, script)
		if err != nil {
			return "", err
		}
		if !present {
			noSmoke++
			if len(owned) > 0 {
				found(script, 0, fmt.Sprintf("kit %s owns %d compiled gates and ships no smoke install registering them", kit, len(owned)))
			}
			continue
		}
		bodies := heredocRegistries(string(data))
		if len(owned) == 0 {
			continue
		}
		if len(bodies) != 1 {
			found(script, 0, fmt.Sprintf("kit %s owns compiled gates, and its smoke install has %d gates.list heredocs (want one)", kit, len(bodies)))
			continue
		}
		joined++
		body := bodies[0]
		l, err := registry.ParseList(script, []byte(body.text))
		if err != nil {
			return "", err
		}
		// A smoke script's own "# smoke-unregistered:" lines declare
		// members the heredoc leaves out, as the consumer smoke reads them.
		for i, raw := range strings.Split(string(data), "\n") {
			t := strings.TrimSpace(raw)
			if rest, ok := strings.CutPrefix(t, "# smoke-unregistered:"); ok {
				name, reason := registry.ParseUnregistered(rest)
				l.Unregistered = append(l.Unregistered, registry.Unregistered{Name: name, Reason: reason, Line: i + 1 - body.line})
			}
		}
		kin := in
		kin.roster = owned
		kin.vendored = []string{kit}
		for _, f := range registrationJoin(kin, l, nil) {
			found(script, body.line+f.line, f.msg)
		}
		for _, e := range l.Entries {
			if hasOwner(owned, e.Name) {
				continue
			}
			if ok, err := isFileAt(c, registry.Join(strings.TrimRight(r, "/"), "checks/"+e.Name+".sh")); err != nil {
				return "", err
			} else if !ok {
				found(script, body.line+e.Line, fmt.Sprintf("the smoke registry registers %s, which kit %s neither owns nor declares as a shell gate", e.Name, kit))
			}
		}
	}
	return fmt.Sprintf("%d kit smoke registries joined, %d kit roots ship no smoke install", joined, noSmoke), nil
}

func hasOwner(es []rosterEntry, name string) bool {
	for _, e := range es {
		if e.name == name {
			return true
		}
	}
	return false
}

func isFileAt(c *gate.Context, p string) (bool, error) {
	st, err := os.Stat(runPath(c, p))
	if err != nil {
		if os.IsNotExist(err) {
			return false, nil
		}
		return false, err
	}
	return !st.IsDir(), nil
}

type heredoc struct {
	line int // the line before the body's first line
	text string
}

// heredocRegistries answers every heredoc opened at column 0 by a cat
// whose > or >> target's basename is gates.list.
func heredocRegistries(script string) []heredoc {
	lines := strings.Split(script, "\n")
	var out []heredoc
	for i := 0; i < len(lines); i++ {
		m := smokeHeredoc.Get().FindStringSubmatch(lines[i])
		if m == nil || path.Base(m[1]) != "gates.list" {
			continue
		}
		var body []string
		j := i + 1
		for ; j < len(lines) && strings.TrimLeft(lines[j], "\t") != m[2]; j++ {
			body = append(body, lines[j])
		}
		out = append(out, heredoc{line: i + 1, text: strings.Join(body, "\n")})
		i = j
	}
	return out
}
