package knob

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"

	"github.com/gate-sdk/gates/internal/walk"
)

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
	read := func(name string) ([]byte, error) { return walk.ReadConfigIn(s.opts.Dir, name) }
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
