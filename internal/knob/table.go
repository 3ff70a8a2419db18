package knob

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/gate-sdk/gates/kits"
)

// Shape is a knob's declared shape. The owner declares it; a file line in
// another form is refused.
type Shape int

// The three shapes.
const (
	Scalar Shape = iota + 1
	Indexed
	Keyed
)

func (s Shape) String() string {
	switch s {
	case Scalar:
		return "scalar"
	case Indexed:
		return "indexed"
	case Keyed:
		return "keyed"
	}
	return "unknown"
}

func parseShape(s string) (Shape, bool) {
	switch s {
	case "scalar":
		return Scalar, true
	case "indexed":
		return Indexed, true
	case "keyed":
		return Keyed, true
	}
	return 0, false
}

// Pair is one entry of a keyed knob.
type Pair struct{ Key, Value string }

// Row is one statically owned knob.
type Row struct {
	Name              string
	Shape             Shape
	Words             bool      // scalar read as a blank-separated word list
	Default           string    // scalar default (when Derive is nil)
	Elems             []string  // indexed default
	Pairs             []Pair    // keyed default, sorted by key
	Derive            *template // scalar derivation, nil for a literal default
	Reads             []string  // names Derive asks for
	EmptyTakesDefault bool      // an empty layered value answers the default
	TrimTrailingSlash bool      // strip trailing "/" from the resolved value
	Enum              []string  // admitted values, when non-empty
	Check             string    // named value rule ("uint", "slug-keys")
	Description       string
	kit               *Table
}

// Kit is the table owning the row.
func (r *Row) Kit() *Table { return r.kit }

// Derived reports whether the default is computed.
func (r *Row) Derived() bool { return r.Derive != nil }

// DeriveWith evaluates the row's derivation, asking resolve for every input.
// It exists so a test can hold the asked names to Reads.
func (r *Row) DeriveWith(resolve func(name string) (string, error)) (string, error) {
	if r.Derive == nil {
		return r.Default, nil
	}
	return r.Derive.eval(resolve)
}

// EnvOnly is a name read from the environment only.
type EnvOnly struct {
	Name        string
	Default     string // what an unset (or, for a locator, empty) variable reads as
	Locator     bool
	Description string
}

// Retired is a name no longer read; naming it is refused.
type Retired struct {
	Name        string
	Replacement string
	Note        string
}

// Family is a declared scalar family prefix.
type Family struct {
	Prefix      string
	Description string
}

// KitCheck is a kit-level validator rule over several rows.
type KitCheck struct {
	Rule    string
	Roster  string
	Aliases string
	Roles   []string
}

// Table is one kit's parsed knob table.
type Table struct {
	Name     string // kit root name, e.g. "canon-kit"
	Stem     string // knob-file stem: Name less "-kit"
	Prefix   string // env prefix, e.g. "CANON_KIT"
	Open     bool
	Rows     []*Row
	EnvOnly  []EnvOnly
	Retired  []Retired
	Families []Family
	Checks   []KitCheck

	rows    map[string]*Row
	envOnly map[string]EnvOnly
	retired map[string]Retired
}

// Row answers the row declaring name, or nil.
func (t *Table) Row(name string) *Row { return t.rows[name] }

// KnobFileVar, LocalKnobFileVar and ConfigFileVar are the kit's
// engine-owned environment names.
func (t *Table) KnobFileVar() string      { return t.Prefix + "_KNOB_FILE" }
func (t *Table) LocalKnobFileVar() string { return t.Prefix + "_LOCAL_KNOB_FILE" }
func (t *Table) ConfigFileVar() string    { return t.Prefix + "_CONFIG_FILE" }

// TrackedFile and OverlayFile are the default knob-file names in the gates
// directory; LegacyFiles are the shell configs whose presence is refused.
func (t *Table) TrackedFile() string { return t.Stem + "-config.knobs" }
func (t *Table) OverlayFile() string { return t.Stem + "-config.local.knobs" }
func (t *Table) LegacyFiles() []string {
	return []string{t.Stem + "-config.sh", t.Stem + "-config.local.sh"}
}

// owns reports whether name is spelled under the kit's prefix.
func (t *Table) owns(name string) bool { return strings.HasPrefix(name, t.Prefix+"_") }

// The TOML schema. Field names are the file's keys; kits/gate-sdk/knobs.toml
// documents them. The types are named so tables_gen.go can spell a decoded
// table as a Go value (see DefaultTables).
type tomlTable struct {
	Kit     tomlKit       `toml:"kit"`
	Knob    []tomlKnob    `toml:"knob"`
	EnvOnly []tomlEnvOnly `toml:"env_only"`
	Retired []tomlRetired `toml:"retired"`
	Family  []tomlFamily  `toml:"family"`
	Check   []tomlCheck   `toml:"check"`
}

type tomlKit struct {
	Name   string `toml:"name"`
	Prefix string `toml:"prefix"`
	Open   bool   `toml:"open"`
}

type tomlKnob struct {
	Name              string   `toml:"name"`
	Shape             string   `toml:"shape"`
	Words             bool     `toml:"words"`
	Default           any      `toml:"default"`
	Derive            *string  `toml:"derive"`
	Reads             []string `toml:"reads"`
	EmptyTakesDefault bool     `toml:"empty_takes_default"`
	TrimTrailingSlash bool     `toml:"trim_trailing_slash"`
	Enum              []string `toml:"enum"`
	Check             string   `toml:"check"`
	Description       string   `toml:"description"`
}

type tomlEnvOnly struct {
	Name        string `toml:"name"`
	Default     string `toml:"default"`
	Locator     bool   `toml:"locator"`
	Description string `toml:"description"`
}

type tomlRetired struct {
	Name        string `toml:"name"`
	Replacement string `toml:"replacement"`
	Note        string `toml:"note"`
}

type tomlFamily struct {
	Prefix      string `toml:"prefix"`
	Description string `toml:"description"`
}

type tomlCheck struct {
	Rule    string   `toml:"rule"`
	Roster  string   `toml:"roster"`
	Aliases string   `toml:"aliases"`
	Roles   []string `toml:"roles"`
}

// ParseTable reads one kit's knob table from TOML. src names it in errors.
// It checks everything one table can check alone; CheckTables checks what
// crosses tables (derivation inputs, prefixes).
func ParseTable(src string, data []byte) (*Table, error) {
	raw, err := decodeTable(src, data)
	if err != nil {
		return nil, err
	}
	return buildTable(src, raw)
}

// decodeTable decodes a table's TOML and refuses a key the schema does
// not name.
func decodeTable(src string, data []byte) (tomlTable, error) {
	var raw tomlTable
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&raw)
	if err != nil {
		return tomlTable{}, fmt.Errorf("knob table %s: %w", src, err)
	}
	var unknown []string
	for _, k := range md.Undecoded() {
		// A keyed default's own keys are data the decoder reports as
		// undecoded because they land in an interface value.
		if len(k) > 2 && k[0] == "knob" && k[1] == "default" {
			continue
		}
		unknown = append(unknown, k.String())
	}
	if len(unknown) > 0 {
		return tomlTable{}, fmt.Errorf("knob table %s: unknown keys %s", src, strings.Join(unknown, ", "))
	}
	return raw, nil
}

// buildTable checks a decoded table and builds it.
func buildTable(src string, raw tomlTable) (*Table, error) {
	fail := func(format string, args ...any) (*Table, error) {
		return nil, fmt.Errorf("knob table %s: %s", src, fmt.Sprintf(format, args...))
	}
	t := &Table{
		Name:    raw.Kit.Name,
		Stem:    strings.TrimSuffix(raw.Kit.Name, "-kit"),
		Prefix:  raw.Kit.Prefix,
		Open:    raw.Kit.Open,
		rows:    map[string]*Row{},
		envOnly: map[string]EnvOnly{},
		retired: map[string]Retired{},
	}
	if t.Name == "" || t.Stem == "" {
		return fail("[kit] name is missing")
	}
	if !screaming(t.Prefix) {
		return fail("[kit] prefix %q is not SCREAMING_SNAKE", t.Prefix)
	}
	taken := map[string]string{}
	claim := func(name, what string) error {
		if !screaming(name) || !t.owns(name) {
			return fmt.Errorf("%s %q is not a SCREAMING_SNAKE name under %s_", what, name, t.Prefix)
		}
		for _, engine := range []string{t.KnobFileVar(), t.LocalKnobFileVar(), t.ConfigFileVar()} {
			if name == engine {
				return fmt.Errorf("%s %s is engine-owned and needs no entry", what, name)
			}
		}
		if prev, ok := taken[name]; ok {
			return fmt.Errorf("%s %s is already declared as %s", what, name, prev)
		}
		taken[name] = what
		return nil
	}
	for _, k := range raw.Knob {
		if err := claim(k.Name, "knob"); err != nil {
			return fail("%v", err)
		}
		shape, ok := parseShape(k.Shape)
		if !ok {
			return fail("knob %s: shape %q is not scalar, indexed or keyed", k.Name, k.Shape)
		}
		r := &Row{
			Name: k.Name, Shape: shape, Words: k.Words, Reads: k.Reads,
			EmptyTakesDefault: k.EmptyTakesDefault, TrimTrailingSlash: k.TrimTrailingSlash,
			Enum: k.Enum, Check: k.Check, Description: k.Description, kit: t,
		}
		if err := r.setDefault(k.Default, k.Derive); err != nil {
			return fail("knob %s: %v", k.Name, err)
		}
		if shape != Scalar && (k.Words || k.EmptyTakesDefault || k.TrimTrailingSlash || len(k.Enum) > 0) {
			return fail("knob %s: words, empty_takes_default, trim_trailing_slash and enum apply to scalars only", k.Name)
		}
		switch k.Check {
		case "":
		case "uint":
			if shape != Scalar {
				return fail("knob %s: check uint applies to scalars only", k.Name)
			}
		case "slug-keys":
			if shape != Keyed {
				return fail("knob %s: check slug-keys applies to keyed knobs only", k.Name)
			}
		default:
			return fail("knob %s: unknown check %q", k.Name, k.Check)
		}
		if k.Description == "" {
			return fail("knob %s: description is missing", k.Name)
		}
		t.Rows = append(t.Rows, r)
		t.rows[r.Name] = r
	}
	for _, e := range raw.EnvOnly {
		if err := claim(e.Name, "env_only"); err != nil {
			return fail("%v", err)
		}
		eo := EnvOnly{Name: e.Name, Default: e.Default, Locator: e.Locator, Description: e.Description}
		t.EnvOnly = append(t.EnvOnly, eo)
		t.envOnly[e.Name] = eo
	}
	for _, r := range raw.Retired {
		if err := claim(r.Name, "retired"); err != nil {
			return fail("%v", err)
		}
		if r.Note == "" {
			return fail("retired %s: note is missing", r.Name)
		}
		rt := Retired{Name: r.Name, Replacement: r.Replacement, Note: r.Note}
		t.Retired = append(t.Retired, rt)
		t.retired[r.Name] = rt
	}
	for _, f := range raw.Family {
		if !t.owns(f.Prefix) || !strings.HasSuffix(f.Prefix, "_") || !screaming(strings.TrimSuffix(f.Prefix, "_")) {
			return fail("family prefix %q must be %s_..._ in SCREAMING_SNAKE", f.Prefix, t.Prefix)
		}
		t.Families = append(t.Families, Family{Prefix: f.Prefix, Description: f.Description})
	}
	for _, c := range raw.Check {
		kc := KitCheck{Rule: c.Rule, Roster: c.Roster, Aliases: c.Aliases, Roles: c.Roles}
		switch c.Rule {
		case "release-sections":
			for _, n := range []string{c.Roster, c.Aliases} {
				if r := t.rows[n]; r == nil || r.Shape != Indexed {
					return fail("check %s: %q is not an indexed row of this table", c.Rule, n)
				}
			}
			if len(c.Roles) == 0 {
				return fail("check %s: roles is empty", c.Rule)
			}
		default:
			return fail("unknown check rule %q", c.Rule)
		}
		t.Checks = append(t.Checks, kc)
	}
	return t, nil
}

func (r *Row) setDefault(def any, derive *string) error {
	if derive != nil {
		if r.Shape != Scalar {
			return fmt.Errorf("derive applies to scalars only")
		}
		if def != nil {
			return fmt.Errorf("default and derive are exclusive")
		}
		if strings.ContainsAny(*derive, "\t\n\r") {
			return fmt.Errorf("derive cannot carry a tab or line break")
		}
		tpl, err := compileTemplate(*derive)
		if err != nil {
			return err
		}
		// assertion M: a derivation declares every name it reads.
		got, want := tpl.names(), append([]string(nil), r.Reads...)
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			return fmt.Errorf("reads %v does not match the names derive asks for %v", want, got)
		}
		r.Derive = tpl
		return nil
	}
	if len(r.Reads) > 0 {
		return fmt.Errorf("reads without derive")
	}
	switch r.Shape {
	case Scalar:
		if def == nil {
			return nil
		}
		s, ok := def.(string)
		if !ok {
			return fmt.Errorf("a scalar default is a string")
		}
		r.Default = s
	case Indexed:
		if def == nil {
			return nil
		}
		list, ok := def.([]any)
		if !ok {
			return fmt.Errorf("an indexed default is an array of strings")
		}
		for _, e := range list {
			s, ok := e.(string)
			if !ok || s == "" || strings.ContainsAny(s, "\t\n") {
				return fmt.Errorf("indexed default element %v is not a non-empty string free of tabs and newlines", e)
			}
			r.Elems = append(r.Elems, s)
		}
	case Keyed:
		if def == nil {
			return nil
		}
		m, ok := def.(map[string]any)
		if !ok {
			return fmt.Errorf("a keyed default is a table of strings")
		}
		for k, v := range m {
			s, ok := v.(string)
			if !ok || k == "" || strings.ContainsAny(k, "]=\t\n") || strings.ContainsAny(s, "\t\n") {
				return fmt.Errorf("keyed default %q = %v is not expressible in a knob file", k, v)
			}
			r.Pairs = append(r.Pairs, Pair{k, s})
		}
		sortPairs(r.Pairs)
	}
	if r.Shape == Scalar && strings.ContainsAny(r.Default, "\t\n") {
		return fmt.Errorf("a scalar default cannot carry a tab or newline")
	}
	return nil
}

func sortPairs(p []Pair) { sort.Slice(p, func(i, j int) bool { return p[i].Key < p[j].Key }) }

// DefaultTables parses every embedded kit table (package kits), gate-sdk
// first, and checks them together.
func DefaultTables() ([]*Table, error) {
	all, err := kits.All()
	if err != nil {
		return nil, fmt.Errorf("knob tables: %w", err)
	}
	tables := make([]*Table, 0, len(all))
	for _, k := range all {
		t, err := embeddedTable(k.Kit, k.Data)
		if err != nil {
			return nil, err
		}
		if t.Name != k.Kit {
			return nil, fmt.Errorf("knob table kits/%s/knobs.toml: [kit] name is %q", k.Kit, t.Name)
		}
		tables = append(tables, t)
	}
	if err := CheckTables(tables); err != nil {
		return nil, err
	}
	return tables, nil
}

// embeddedTable builds one embedded kit's table.
func embeddedTable(kit string, data []byte) (*Table, error) {
	src := "kits/" + kit + "/knobs.toml"
	// assertion U: a table whose bytes are the ones tables_gen.go was
	// generated from is built from that decoded value; any other is
	// decoded here.
	if g, ok := generatedTables[kit]; ok && g.sum == tableSum(data) {
		return buildTable(src, g.raw)
	}
	return ParseTable(src, data)
}

// The two locators: read from the environment or their default, never
// from a file, and the only non-row names a derivation may read.
const (
	GatesDirVar = "GATE_SDK_GATES_DIR"
	RootVar     = "GATE_SDK_ROOT"
)

func isLocator(name string) bool { return name == GatesDirVar || name == RootVar }

// CheckTables holds a set of tables to what only the whole set can show:
// kit names and prefixes are distinct and none nests inside another, every
// derivation reads a scalar row of some table or a locator, and no
// derivation reads itself through a chain. Validators must admit every
// default: that is checked when a Set resolves a kit (see Load's tests).
func CheckTables(tables []*Table) error {
	names, prefixes := map[string]bool{}, map[string]bool{}
	rows := map[string]*Row{}
	for _, t := range tables {
		if names[t.Name] || names[t.Stem] {
			return fmt.Errorf("knob tables: kit %s declared twice", t.Name)
		}
		names[t.Name] = true
		for p := range prefixes {
			if strings.HasPrefix(t.Prefix+"_", p+"_") || strings.HasPrefix(p+"_", t.Prefix+"_") {
				return fmt.Errorf("knob tables: prefix %s overlaps %s", t.Prefix, p)
			}
		}
		prefixes[t.Prefix] = true
		for _, r := range t.Rows {
			rows[r.Name] = r
		}
	}
	for _, t := range tables {
		for _, r := range t.Rows {
			for _, in := range r.Reads {
				if isLocator(in) {
					continue
				}
				dep := rows[in]
				if dep == nil {
					return fmt.Errorf("knob %s: derive reads %s, which no table declares as a row", r.Name, in)
				}
				if dep.Shape != Scalar {
					return fmt.Errorf("knob %s: derive reads %s, which is %s, not scalar", r.Name, in, dep.Shape)
				}
			}
		}
	}
	// Derivation chains must end: depth-first over reads.
	const (
		unseen = iota
		active
		done
	)
	state := map[string]int{}
	var visit func(r *Row, path []string) error
	visit = func(r *Row, path []string) error {
		switch state[r.Name] {
		case active:
			return fmt.Errorf("knob tables: derivation cycle %s -> %s", strings.Join(path, " -> "), r.Name)
		case done:
			return nil
		}
		state[r.Name] = active
		for _, in := range r.Reads {
			if dep := rows[in]; dep != nil {
				if err := visit(dep, append(path, r.Name)); err != nil {
					return err
				}
			}
		}
		state[r.Name] = done
		return nil
	}
	for _, t := range tables {
		for _, r := range t.Rows {
			if err := visit(r, nil); err != nil {
				return err
			}
		}
	}
	return nil
}
