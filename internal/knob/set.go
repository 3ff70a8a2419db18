package knob

import (
	"errors"
	"fmt"
	"strings"
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
