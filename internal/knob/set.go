package knob

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"
)

// Origin says which layer a resolved value came from.
type Origin int

// Layers, lowest first. OriginPlaceholder marks a locator rendered as
// ${NAME} by the roster, which prints defaults rather than values.
const (
	OriginDefault Origin = iota + 1
	OriginFile
	OriginOverlay
	OriginEnv
	OriginPlaceholder
)

func (o Origin) String() string {
	switch o {
	case OriginDefault:
		return "default"
	case OriginFile:
		return "file"
	case OriginOverlay:
		return "overlay"
	case OriginEnv:
		return "env"
	case OriginPlaceholder:
		return "placeholder"
	}
	return "unknown"
}

// Value is one resolved knob.
type Value struct {
	Name   string
	Shape  Shape
	Origin Origin
	File   string // the knob file that set it, as spelled (file and overlay origins)
	Line   int    // first line naming the knob in File
	Scalar string
	Elems  []string
	Pairs  []Pair

	elemLines []int // per element, the line that supplied it (validator findings)
}

// Wire is the value's one serialization: a scalar as is, elements
// tab-joined, keyed entries as key=value tab-joined in key order.
func (v *Value) Wire() string {
	// assertion O: the wire form.
	switch v.Shape {
	case Indexed:
		return strings.Join(v.Elems, "\t")
	case Keyed:
		parts := make([]string, len(v.Pairs))
		for i, p := range v.Pairs {
			parts[i] = p.Key + "=" + p.Value
		}
		return strings.Join(parts, "\t")
	}
	return v.Scalar
}

// Options configures Load.
type Options struct {
	// Dir is the absolute directory relative knob-file paths resolve
	// against: the repository toplevel, or a fixture case directory.
	Dir string
	// Lookup reads the environment (production: os.LookupEnv). It is
	// called at every resolution, never cached.
	Lookup func(string) (string, bool)
	// Environ lists the environment as NAME=value entries (production:
	// os.Environ). Only Family needs it; nil makes Family refuse.
	Environ func() []string
	// Tables are the kit tables; nil means every embedded kit
	// (DefaultTables). gate-sdk's table must be among them: it owns the
	// locators.
	Tables []*Table
	// AbsAgainst turns a spelled path into the path to open, given Dir
	// (production: walk.AbsAgainst). Absoluteness is walk's question, so
	// the engine never asks it itself.
	AbsAgainst func(base, p string) string
	// ReadFile reads a knob file by the path AbsAgainst answered; nil is
	// the file on disk. The pre-commit hook reads the copy the commit
	// records through it.
	ReadFile func(string) ([]byte, error)
}

// Set resolves knobs for one invocation. It is safe for concurrent use:
// each kit's files are read once, at the kit's first resolution, and the
// environment is read at every call.
type Set struct {
	opts    Options
	tables  []*Table
	kits    []*kitState // index-aligned with tables
	rows    map[string]*Row
	envOnly map[string]EnvOnly
}

type kitState struct {
	set *Set
	t   *Table

	once1 sync.Once
	p1    *phase1

	once2 sync.Once
	err2  error
	colls map[string]*Value
}

// phase1 is what a kit's files say, read once: parsed, checked line by line
// against the kit's table, and grouped per knob.
type phase1 struct {
	gatesDir string
	tracked  *layer // nil when absent
	overlay  *layer // nil when absent
	findings []*Finding
}

type layer struct {
	origin  Origin
	path    string // as spelled
	entries map[string]*entry
}

// entry is everything one file says about one knob.
type entry struct {
	name      string
	line      int      // first line naming the knob
	empty     *lineVal // the NAME = form (scalar value, or empty collection)
	items     []item   // elements and references in file order
	pairs     []Pair   // keyed pairs in file order
	pairLines map[string]int
	hasRef    bool
	member    bool // a family or open-kit member, not a row
	spliced   []string
	splLines  []int
}

type lineVal struct {
	value string
	line  int
}

type item struct {
	value string
	ref   string
	line  int
}

// Load prepares a Set. It checks the options and the tables; it reads no
// file (each kit's files are read at its first resolution).
func Load(opts Options) (*Set, error) {
	if opts.Lookup == nil {
		return nil, errors.New("knob: Options.Lookup is required")
	}
	if opts.AbsAgainst == nil {
		return nil, errors.New("knob: Options.AbsAgainst is required")
	}
	if opts.Dir == "" {
		return nil, errors.New("knob: Options.Dir is required")
	}
	tables := opts.Tables
	if tables == nil {
		var err error
		if tables, err = DefaultTables(); err != nil {
			return nil, err
		}
	} else if err := CheckTables(tables); err != nil {
		return nil, err
	}
	s := &Set{opts: opts, tables: tables, rows: map[string]*Row{}, envOnly: map[string]EnvOnly{}}
	for _, t := range tables {
		s.kits = append(s.kits, &kitState{set: s, t: t})
		for _, r := range t.Rows {
			s.rows[r.Name] = r
		}
		for _, e := range t.EnvOnly {
			if e.Locator && !isLocator(e.Name) {
				return nil, fmt.Errorf("knob table %s: %s is marked locator; the locators are %s and %s", t.Name, e.Name, GatesDirVar, RootVar)
			}
			s.envOnly[e.Name] = e
		}
	}
	for _, n := range []string{GatesDirVar, RootVar} {
		if e, ok := s.envOnly[n]; !ok || !e.Locator {
			return nil, fmt.Errorf("knob: no table declares the locator %s (gate-sdk's table must be loaded)", n)
		}
	}
	return s, nil
}

// Tables answers the tables the set resolves against, in order.
func (s *Set) Tables() []*Table { return s.tables }

// Declared reports whether a table declares name: a row, an env-only name,
// or one of a kit's engine-owned locator names.
func (s *Set) Declared(name string) bool {
	if s.rows[name] != nil {
		return true
	}
	if _, ok := s.envOnly[name]; ok {
		return true
	}
	k := s.owner(name)
	return k != nil && isEngineVar(k.t, name)
}

func isEngineVar(t *Table, name string) bool {
	return name == t.KnobFileVar() || name == t.LocalKnobFileVar() || name == t.ConfigFileVar()
}

// owner answers the kit whose prefix spells name, or nil.
func (s *Set) owner(name string) *kitState {
	for _, k := range s.kits {
		if k.t.owns(name) {
			return k
		}
	}
	return nil
}

func (s *Set) lookup(name string) (string, bool) { return s.opts.Lookup(name) }

func (s *Set) abs(spelled string) string { return s.opts.AbsAgainst(s.opts.Dir, spelled) }

// locator answers GATE_SDK_GATES_DIR or GATE_SDK_ROOT: the environment,
// where an empty export reads as unset, else the table default.
func (s *Set) locator(name string) (string, Origin) {
	if v, ok := s.lookup(name); ok && v != "" {
		return v, OriginEnv
	}
	return s.envOnly[name].Default, OriginDefault
}

// Resolve answers one knob's resolved value, whatever its shape.
func (s *Set) Resolve(name string) (*Value, error) {
	if e, ok := s.envOnly[name]; ok {
		if e.Locator {
			v, o := s.locator(name)
			return &Value{Name: name, Shape: Scalar, Origin: o, Scalar: v}, nil
		}
		if v, ok := s.lookup(name); ok {
			return &Value{Name: name, Shape: Scalar, Origin: OriginEnv, Scalar: v}, nil
		}
		return &Value{Name: name, Shape: Scalar, Origin: OriginDefault, Scalar: e.Default}, nil
	}
	k := s.owner(name)
	if k == nil {
		return nil, refuse(name, "%s is not a statically owned knob", name)
	}
	if isEngineVar(k.t, name) {
		v, ok := s.lookup(name)
		o := OriginDefault
		if ok {
			o = OriginEnv
		}
		return &Value{Name: name, Shape: Scalar, Origin: o, Scalar: v}, nil
	}
	if r, ok := k.t.retired[name]; ok {
		return nil, refuse(name, "%s", retiredMsg(r))
	}
	row := k.t.rows[name]
	if row == nil {
		if msg := k.memberName(name); msg != "" {
			return nil, refuse(name, "%s", msg)
		}
	}
	if err := k.ensure(); err != nil {
		return nil, err
	}
	if row == nil {
		return k.member(name)
	}
	if row.Shape == Scalar {
		return s.scalar(row)
	}
	// A copy: the settled value is shared by every reader.
	v := *k.colls[name]
	v.Elems = append([]string{}, v.Elems...)
	v.Pairs = append([]Pair{}, v.Pairs...)
	v.elemLines = append([]int(nil), v.elemLines...)
	return &v, nil
}

func (s *Set) resolveShape(name string, want Shape, hint string) (*Value, error) {
	v, err := s.Resolve(name)
	if err != nil {
		return nil, err
	}
	if v.Shape != want {
		return nil, refuse(name, "%s is %s, not %s%s", name, v.Shape, want, hint)
	}
	return v, nil
}

// Scalar answers a scalar knob's value.
func (s *Set) Scalar(name string) (string, error) {
	v, err := s.resolveShape(name, Scalar, "; read it with List or Keyed")
	if err != nil {
		return "", err
	}
	return v.Scalar, nil
}

// Words answers a scalar split on blanks (space, tab, newline). The split
// expands nothing: a glob reaches the reader as written.
func (s *Set) Words(name string) ([]string, error) {
	v, err := s.Scalar(name)
	if err != nil {
		return nil, err
	}
	return strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }), nil
}

// List answers an indexed knob's elements in order; resolved-empty is an
// empty slice.
func (s *Set) List(name string) ([]string, error) {
	v, err := s.resolveShape(name, Indexed, "")
	if err != nil {
		return nil, err
	}
	return append([]string{}, v.Elems...), nil
}

// Keyed answers a keyed knob's pairs sorted by key.
func (s *Set) Keyed(name string) ([]Pair, error) {
	v, err := s.resolveShape(name, Keyed, "")
	if err != nil {
		return nil, err
	}
	return append([]Pair{}, v.Pairs...), nil
}

// Wire answers a knob's wire form (see Value.Wire).
func (s *Set) Wire(name string) (string, error) {
	v, err := s.Resolve(name)
	if err != nil {
		return "", err
	}
	return v.Wire(), nil
}

// Origin answers which layer supplied a knob's value.
func (s *Set) Origin(name string) (Origin, error) {
	v, err := s.Resolve(name)
	if err != nil {
		return 0, err
	}
	return v.Origin, nil
}

// scalar resolves a scalar row through the layers. It needs only the
// owning kit's files (phase 1), never another kit's validation, so a
// derivation crossing kits cannot wait on itself.
func (s *Set) scalar(row *Row) (*Value, error) {
	k := s.kitOf(row)
	p := k.load1()
	if len(p.findings) > 0 {
		return nil, &ConfigError{Kit: k.t.Name, Findings: p.findings}
	}
	v := &Value{Name: row.Name, Shape: Scalar}
	useDefault := true
	// assertion P: the environment is read at every call, never cached.
	// assertion I: the environment first (scalars only), an exported
	// empty value included unless the row takes the default for empty.
	if env, ok := s.lookup(row.Name); ok {
		// assertion S: a value holding only blanks is empty to a row that
		// takes the default for empty, so blanks cannot switch a gate off.
		if !blank(env) || !row.EmptyTakesDefault {
			v.Scalar, v.Origin, useDefault = env, OriginEnv, false
		}
	} else {
		for _, l := range []*layer{p.overlay, p.tracked} {
			if l == nil {
				continue
			}
			e := l.entries[row.Name]
			if e == nil || e.empty == nil {
				continue
			}
			if !blank(e.empty.value) || !row.EmptyTakesDefault {
				v.Scalar, v.Origin, v.File, v.Line, useDefault = e.empty.value, l.origin, l.path, e.empty.line, false
			}
			break
		}
	}
	if useDefault {
		v.Origin = OriginDefault
		def, err := row.DeriveWith(s.deriveInput)
		if err != nil {
			return nil, err
		}
		v.Scalar = def
	}
	if row.TrimTrailingSlash {
		for len(v.Scalar) > 1 && strings.HasSuffix(v.Scalar, "/") {
			v.Scalar = strings.TrimSuffix(v.Scalar, "/")
		}
	}
	if msg := checkScalar(row, v.Scalar); msg != "" {
		f := refuse(row.Name, "%s", msg)
		switch v.Origin {
		case OriginEnv:
			f.File = envFile
		case OriginFile, OriginOverlay:
			f.File, f.Line = v.File, v.Line
		}
		return nil, f
	}
	return v, nil
}

// deriveInput is what a derivation reads: a locator from the environment
// or its default, a sibling through the table.
func (s *Set) deriveInput(name string) (string, error) {
	if isLocator(name) {
		v, _ := s.locator(name)
		return v, nil
	}
	row := s.rows[name]
	if row == nil || row.Shape != Scalar {
		return "", refuse(name, "derivation input %s is not a scalar row", name)
	}
	v, err := s.scalar(row)
	if err != nil {
		return "", err
	}
	return v.Scalar, nil
}

func (s *Set) kitOf(row *Row) *kitState {
	for _, k := range s.kits {
		if k.t == row.kit {
			return k
		}
	}
	return s.owner(row.Name)
}

// ensure runs the kit's first resolution once: files, references,
// validators. Its error is every finding, and it repeats on every read.
func (k *kitState) ensure() error {
	// assertion P: a kit's files are read and settled once per Set, at the
	// kit's first resolution; a kit nobody reads is never read.
	k.once2.Do(func() { k.err2 = k.resolveAll() })
	return k.err2
}

func (k *kitState) load1() *phase1 {
	k.once1.Do(func() { k.p1 = k.read() })
	return k.p1
}

// joinDir spells name inside dir, as the derivation templates join paths.
func joinDir(dir, name string) string {
	switch {
	case dir == "" || dir == ".":
		return name
	case strings.HasSuffix(dir, "/"):
		return dir + name
	}
	return dir + "/" + name
}

// read is phase 1: the legacy refusals, the two locators, and both files.
func (k *kitState) read() *phase1 {
	s, t := k.set, k.t
	p := &phase1{}
	p.gatesDir, _ = s.locator(GatesDirVar)
	add := func(f *Finding) { p.findings = append(p.findings, f) }

	// assertion L: a shell config left at upgrade is refused, never ignored.
	for _, name := range t.LegacyFiles() {
		spelled := joinDir(p.gatesDir, name)
		_, err := os.Lstat(s.abs(spelled))
		switch {
		case err == nil:
			add(&Finding{File: spelled, Msg: fmt.Sprintf("legacy shell config; move its values into %s (knob-file grammar) and delete it", joinDir(p.gatesDir, t.TrackedFile()))})
		case !errors.Is(err, fs.ErrNotExist):
			add(&Finding{File: spelled, Msg: fmt.Sprintf("cannot tell whether the legacy shell config exists: %v", err)})
		}
	}
	if v, ok := s.lookup(t.ConfigFileVar()); ok && v != "" {
		fi, err := os.Stat(s.abs(v))
		switch {
		case err == nil && (!fi.Mode().IsRegular() || fi.Size() > 0):
			add(&Finding{File: v, Knob: t.ConfigFileVar(), Msg: fmt.Sprintf("%s names a non-empty file; shell configs are no longer read: move its values into a knob file (export %s to name one)", t.ConfigFileVar(), t.KnobFileVar())})
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			add(&Finding{File: v, Knob: t.ConfigFileVar(), Msg: fmt.Sprintf("%s names a file that cannot be read: %v", t.ConfigFileVar(), err)})
		}
	}
	// assertion K: an exported retired name is refused, naming its replacement.
	for _, r := range t.Retired {
		if v, ok := s.lookup(r.Name); ok && v != "" {
			add(&Finding{File: envFile, Knob: r.Name, Msg: "exported " + retiredMsg(r)})
		}
	}
	// assertion J: each layer moves by its own locator alone; the overlay
	// stays in the gates directory when the tracked file is relocated.
	p.tracked = k.readLayer(p, OriginFile, t.KnobFileVar(), joinDir(p.gatesDir, t.TrackedFile()))
	p.overlay = k.readLayer(p, OriginOverlay, t.LocalKnobFileVar(), joinDir(p.gatesDir, t.OverlayFile()))
	return p
}

func (k *kitState) readLayer(p *phase1, origin Origin, locatorVar, defaultPath string) *layer {
	s := k.set
	spelled, named := defaultPath, false
	if v, ok := s.lookup(locatorVar); ok && v != "" {
		spelled, named = v, true
	}
	read := os.ReadFile
	if s.opts.ReadFile != nil {
		read = s.opts.ReadFile
	}
	data, err := read(s.abs(spelled))
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist) && !named:
			return nil // an absent default file leaves the defaults in place
		case errors.Is(err, fs.ErrNotExist):
			// assertion J: a named file that is missing is refused.
			p.findings = append(p.findings, &Finding{File: spelled, Knob: locatorVar, Msg: fmt.Sprintf("%s names this file, which does not exist", locatorVar)})
		default:
			p.findings = append(p.findings, &Finding{File: spelled, Msg: fmt.Sprintf("cannot read knob file: %v", err)})
		}
		return nil
	}
	lines, findings := ParseFile(spelled, data)
	p.findings = append(p.findings, findings...)
	l := &layer{origin: origin, path: spelled, entries: map[string]*entry{}}
	for _, ln := range lines {
		if f := k.admit(l, ln); f != nil {
			f.File, f.Line = spelled, ln.Num
			p.findings = append(p.findings, f)
		}
	}
	return l
}

// admit checks one parsed line against the kit's table and records it.
func (k *kitState) admit(l *layer, ln Line) *Finding {
	row, member, msg := k.classify(ln.Name, ln.Kind)
	if msg != "" {
		return refuse(ln.Name, "%s", msg)
	}
	if ln.Kind == KindRef && (row == nil || row.Shape != Indexed) {
		// assertion H: NAME must be a declared indexed knob.
		return refuse(ln.Name, "%s[] <- %s: %s is not a declared indexed knob; a reference splices elements into one", ln.Name, ln.Other, ln.Name)
	}
	if row != nil {
		// assertion D: the table's shape decides; a line in another form is refused.
		if msg := shapeMismatch(row, ln); msg != "" {
			return refuse(ln.Name, "%s", msg)
		}
	}
	e := l.entries[ln.Name]
	if e == nil {
		e = &entry{name: ln.Name, line: ln.Num, member: member, pairLines: map[string]int{}}
		l.entries[ln.Name] = e
	}
	// assertion F: duplicates within one file, and the empty form mixed
	// with element, pair or reference lines.
	switch ln.Kind {
	case KindScalar:
		if e.empty != nil {
			return refuse(ln.Name, "%s is set twice in this file (first at line %d)", ln.Name, e.empty.line)
		}
		if len(e.items) > 0 || len(e.pairs) > 0 {
			return refuse(ln.Name, "empty %s = cannot stand beside its element, pair or reference lines (line %d)", ln.Name, e.line)
		}
		e.empty = &lineVal{value: ln.Value, line: ln.Num}
	case KindElement, KindRef:
		if e.empty != nil {
			return refuse(ln.Name, "%s has an empty %s = line (line %d); it cannot also have element or reference lines", ln.Name, ln.Name, e.empty.line)
		}
		e.items = append(e.items, item{value: ln.Value, ref: ln.Other, line: ln.Num})
		if ln.Kind == KindRef {
			e.hasRef = true
		}
	case KindPair:
		if e.empty != nil {
			return refuse(ln.Name, "%s has an empty %s = line (line %d); it cannot also have pair lines", ln.Name, ln.Name, e.empty.line)
		}
		if first, ok := e.pairLines[ln.Key]; ok {
			return refuse(ln.Name, "%s[%s] is given twice in this file (first at line %d)", ln.Name, ln.Key, first)
		}
		e.pairLines[ln.Key] = ln.Num
		e.pairs = append(e.pairs, Pair{ln.Key, ln.Value})
	}
	return nil
}

// classify decides what a name in this kit's file is: a row, a member, or
// a refusal (msg non-empty).
func (k *kitState) classify(name string, kind LineKind) (row *Row, member bool, msg string) {
	s, t := k.set, k.t
	// assertion E: the owning kit must declare or admit the name.
	if !t.owns(name) {
		switch {
		case strings.HasPrefix(name, "GATE_LOCAL_"):
			return nil, false, name + " is a gate-local knob: it is declared by a descriptor's # knob: line and never set in a knob file"
		case s.owner(name) != nil:
			o := s.owner(name).t
			return nil, false, fmt.Sprintf("%s belongs to %s, not %s; set it in %s", name, o.Name, t.Name, o.TrackedFile())
		}
		return nil, false, fmt.Sprintf("%s is not a %s knob (%s's names start %s_)", name, t.Name, t.Name, t.Prefix)
	}
	switch name {
	case t.KnobFileVar(), t.LocalKnobFileVar():
		return nil, false, name + " is an environment-only locator; a knob file cannot say where a knob file is"
	case t.ConfigFileVar():
		return nil, false, fmt.Sprintf("%s is the retired shell-config locator; export %s to name a knob file", name, t.KnobFileVar())
	}
	// assertion K: env-only and retired names are refused with their own reason.
	if _, ok := t.envOnly[name]; ok {
		return nil, false, name + " is environment-only; export it instead of setting it in a knob file"
	}
	if r, ok := t.retired[name]; ok {
		return nil, false, retiredMsg(r)
	}
	if r := t.rows[name]; r != nil {
		return r, false, ""
	}
	for _, f := range t.Families {
		if !strings.HasPrefix(name, f.Prefix) {
			continue
		}
		suffix := strings.TrimPrefix(name, f.Prefix)
		if suffix == "" {
			return nil, false, fmt.Sprintf("%s names the %s family without a member suffix", name, f.Prefix)
		}
		if kind != KindScalar {
			return nil, false, fmt.Sprintf("%s is a member of the %s family, whose members are scalars; write %s = value", name, f.Prefix, name)
		}
		return nil, true, ""
	}
	if t.Open {
		if kind != KindScalar {
			return nil, false, fmt.Sprintf("%s is not declared by %s; an open kit admits an undeclared name as a scalar only", name, t.Name)
		}
		return nil, true, ""
	}
	return nil, false, fmt.Sprintf("%s is not a knob %s declares (gates --emit knob-roster lists them)", name, t.Name)
}

// memberName checks that an undeclared, owned name may be read as a
// member; msg is non-empty when it may not.
func (k *kitState) memberName(name string) string {
	t := k.t
	for _, f := range t.Families {
		if strings.HasPrefix(name, f.Prefix) {
			if !validSuffix(strings.TrimPrefix(name, f.Prefix)) {
				return fmt.Sprintf("%s is not a member name of the %s family", name, f.Prefix)
			}
			return ""
		}
	}
	if t.Open {
		return ""
	}
	return fmt.Sprintf("%s is not a knob %s declares", name, t.Name)
}

// validSuffix is a family member's suffix: [A-Za-z_][A-Za-z0-9_]*.
func validSuffix(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alpha := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'
		if !alpha && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func shapeMismatch(row *Row, ln Line) string {
	want := map[Shape]string{
		Scalar:  "write " + row.Name + " = value",
		Indexed: "write one " + row.Name + "[] = element line per element, or " + row.Name + " = for none",
		Keyed:   "write one " + row.Name + "[key] = value line per pair, or " + row.Name + " = for none",
	}[row.Shape]
	switch ln.Kind {
	case KindScalar:
		if row.Shape == Scalar || ln.Value == "" {
			return ""
		}
	case KindElement, KindRef:
		if row.Shape == Indexed {
			return ""
		}
	case KindPair:
		if row.Shape == Keyed {
			return ""
		}
	}
	article := "a"
	if row.Shape == Indexed {
		article = "an"
	}
	return fmt.Sprintf("%s is %s %s knob, so this %s line does not fit; %s", row.Name, article, row.Shape, ln.Kind, want)
}

func retiredMsg(r Retired) string {
	if r.Replacement != "" {
		return fmt.Sprintf("%s is retired; use %s instead (%s)", r.Name, r.Replacement, r.Note)
	}
	return fmt.Sprintf("%s is retired with no replacement (%s)", r.Name, r.Note)
}

// resolveAll is phase 2, the kit's first resolution: splice references,
// settle every collection, run every validator, and collect all findings.
func (k *kitState) resolveAll() error {
	s, t := k.set, k.t
	p := k.load1()
	findings := append([]*Finding(nil), p.findings...)
	var foreign []*Finding
	reached := map[*kitState]bool{k: true}
	addErr := func(err error) {
		var ce *ConfigError
		var f *Finding
		switch {
		case errors.As(err, &ce):
			if ce.Kit == t.Name {
				return // our own phase-1 findings are already listed
			}
			for _, o := range s.kits {
				if o.t.Name == ce.Kit && !reached[o] {
					reached[o] = true
					foreign = append(foreign, ce.Findings...)
				}
			}
		case errors.As(err, &f):
			findings = append(findings, f)
		default:
			findings = append(findings, &Finding{Msg: err.Error()})
		}
	}

	// assertion H: references splice in one pass; every reference in
	// either file is checked at this first resolution.
	for _, l := range []*layer{p.tracked, p.overlay} {
		if l == nil {
			continue
		}
		for _, e := range sortedEntries(l) {
			for _, it := range e.items {
				if it.ref == "" {
					e.spliced = append(e.spliced, it.value)
					e.splLines = append(e.splLines, it.line)
					continue
				}
				elems, f, err := k.splice(e.name, it.ref)
				if err != nil {
					addErr(err)
				}
				if f != nil {
					f.File, f.Line = l.path, it.line
					findings = append(findings, f)
					continue
				}
				for range elems {
					e.splLines = append(e.splLines, it.line)
				}
				e.spliced = append(e.spliced, elems...)
			}
		}
	}

	// assertion G: a file naming a knob replaces it whole; the overlay
	// beats the tracked file; pairs sort by key.
	k.colls = map[string]*Value{}
	for _, row := range t.Rows {
		if row.Shape == Scalar {
			continue
		}
		v := &Value{Name: row.Name, Shape: row.Shape, Origin: OriginDefault, Elems: []string{}, Pairs: []Pair{}}
		var e *entry
		var from *layer
		for _, l := range []*layer{p.overlay, p.tracked} {
			if l != nil && l.entries[row.Name] != nil {
				e, from = l.entries[row.Name], l
				break
			}
		}
		if e == nil {
			v.Elems = append(v.Elems, row.Elems...)
			v.Pairs = append(v.Pairs, row.Pairs...)
		} else {
			v.Origin, v.File, v.Line = from.origin, from.path, e.line
			v.Elems = append(v.Elems, e.spliced...)
			v.elemLines = append(v.elemLines, e.splLines...)
			v.Pairs = append(v.Pairs, e.pairs...)
			sortPairs(v.Pairs)
		}
		k.colls[row.Name] = v
	}

	// assertion N: every row's validator, and the kit's own rules, at the
	// first resolution; every finding is collected before refusing.
	if len(p.findings) == 0 {
		for _, row := range t.Rows {
			if row.Shape == Scalar {
				if _, err := s.scalar(row); err != nil {
					addErr(err)
				}
				continue
			}
			if msg := checkPairs(row, k.colls[row.Name].Pairs); msg != "" {
				v := k.colls[row.Name]
				findings = append(findings, &Finding{File: v.File, Line: v.Line, Knob: row.Name, Msg: msg})
			}
		}
		for _, c := range t.Checks {
			findings = append(findings, runKitCheck(c, k.colls)...)
		}
	}
	if len(findings)+len(foreign) == 0 {
		return nil
	}
	return &ConfigError{Kit: t.Name, Findings: append(findings, foreign...)}
}

// splice answers OTHER's resolved elements for a reference line in NAME's
// file. f is this line's refusal; err carries another kit's refusal.
func (k *kitState) splice(name, other string) (elems []string, f *Finding, err error) {
	s := k.set
	if other == name {
		return nil, refuse(name, "%s[] <- %s: a knob cannot splice itself", name, other), nil
	}
	ok := s.owner(other)
	var row *Row
	if ok != nil {
		row = ok.t.rows[other]
	}
	if row == nil {
		return nil, refuse(name, "%s[] <- %s: %s is not a statically owned knob", name, other, other), nil
	}
	if row.Shape != Indexed {
		return nil, refuse(name, "%s[] <- %s: %s is %s; only an indexed knob's elements can be spliced", name, other, other, row.Shape), nil
	}
	op := ok.load1()
	if ok != k && len(op.findings) > 0 {
		return nil, refuse(name, "%s[] <- %s: %s's knob configuration is refused (its findings follow)", name, other, ok.t.Name),
			&ConfigError{Kit: ok.t.Name, Findings: op.findings}
	}
	for _, l := range []*layer{op.overlay, op.tracked} {
		if l == nil || l.entries[other] == nil {
			continue
		}
		oe := l.entries[other]
		if oe.hasRef {
			return nil, refuse(name, "%s[] <- %s: %s's own value splices a reference (%s:%d); references resolve in one pass", name, other, other, l.path, oe.line), nil
		}
		for _, it := range oe.items {
			elems = append(elems, it.value)
		}
		return elems, nil, nil
	}
	return append(elems, row.Elems...), nil, nil
}

func sortedEntries(l *layer) []*entry {
	out := make([]*entry, 0, len(l.entries))
	for _, e := range l.entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].line < out[j].line })
	return out
}

// member resolves a family or open-kit member: environment, overlay,
// tracked file. It has no default; absent everywhere is ErrNoMember.
func (k *kitState) member(name string) (*Value, error) {
	v := &Value{Name: name, Shape: Scalar}
	if env, ok := k.set.lookup(name); ok {
		v.Scalar, v.Origin = env, OriginEnv
		return v, nil
	}
	p := k.load1()
	for _, l := range []*layer{p.overlay, p.tracked} {
		if l == nil {
			continue
		}
		if e := l.entries[name]; e != nil && e.member && e.empty != nil {
			v.Scalar, v.Origin, v.File, v.Line = e.empty.value, l.origin, l.path, e.empty.line
			return v, nil
		}
	}
	return nil, &Finding{Knob: name, Msg: name + " is set by no layer (environment, overlay or tracked file)", Err: ErrNoMember}
}

// Member is one family member.
type Member struct {
	Name   string
	Suffix string
	Value  string
	Origin Origin
}

// Family answers every member under prefix, a declared family prefix or an
// open kit's PREFIX_, from the environment and both files, sorted by name.
// It is a resolution set, never a roster: a reader looks up the names its
// own roster gives and refuses a missing one.
func (s *Set) Family(prefix string) ([]Member, error) {
	k := s.owner(prefix)
	if k == nil {
		return nil, refuse(prefix, "%s is not under any kit's prefix", prefix)
	}
	declared := k.t.Open && prefix == k.t.Prefix+"_"
	for _, f := range k.t.Families {
		declared = declared || f.Prefix == prefix
	}
	if !declared {
		return nil, refuse(prefix, "%s is neither a declared family nor an open kit's prefix", prefix)
	}
	if s.opts.Environ == nil {
		return nil, refuse(prefix, "reading the %s family needs the environment's names (Options.Environ)", prefix)
	}
	if err := k.ensure(); err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, kv := range s.opts.Environ() {
		n, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(n, prefix) && k.memberName(n) == "" && k.isMember(n) {
			names[n] = true
		}
	}
	p := k.load1()
	for _, l := range []*layer{p.tracked, p.overlay} {
		if l == nil {
			continue
		}
		for n, e := range l.entries {
			if e.member && strings.HasPrefix(n, prefix) {
				names[n] = true
			}
		}
	}
	out := make([]Member, 0, len(names))
	for n := range names {
		v, err := k.member(n)
		if err != nil {
			return nil, err
		}
		out = append(out, Member{Name: n, Suffix: strings.TrimPrefix(n, prefix), Value: v.Scalar, Origin: v.Origin})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// isMember reports whether an owned name is neither a row nor any of the
// kit's reserved names, so it can only be a member.
func (k *kitState) isMember(name string) bool {
	t := k.t
	if t.rows[name] != nil || isEngineVar(t, name) {
		return false
	}
	if _, ok := t.envOnly[name]; ok {
		return false
	}
	_, retired := t.retired[name]
	return !retired
}
