package registry

import (
	"errors"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
)

// Graph is a parsed "# graph:" line.
type Graph struct {
	Couples []string // authored tokens, in order
	Dir     string   // "bi" or "one"
	Valve   string   // "none" or "PROPOSED"
	Tier    string   // "precommit", "align-only" or "commit-msg"
	Mode    string   // "whole-tree" (the default) or "staged"
	Trigger []string // authored tokens; nil when the line has no trigger=
	Line    int
}

// Staged reports whether the member takes its matched paths as operands.
func (g Graph) Staged() bool { return g.Mode == ModeStaged }

// Field values of the # graph: line.
const (
	DirBi          = "bi"
	DirOne         = "one"
	ValveNone      = "none"
	ValveProposed  = "PROPOSED"
	TierPrecommit  = "precommit"
	TierAlignOnly  = "align-only"
	TierCommitMsg  = "commit-msg"
	ModeWholeTree  = "whole-tree"
	ModeStaged     = "staged"
	InstallZero    = "zero-config"
	InstallSurface = "on-surface"
	InstallNever   = "never"
)

// Spec is a "# spec:" pointer: the location before the em dash and the
// one-line statement after it.
type Spec struct {
	Text      string
	Location  string
	Statement string
	Line      int
}

// ArmedBy is an "# armed-by:" declaration. Content is the "content" form,
// disarmed while no file the knobs name has a live line.
type ArmedBy struct {
	Content bool
	Knobs   []string
	Line    int
}

// LocalKnob is one "# knob:" line of a descriptor: a GATE_LOCAL_ knob's
// scalar value, or one element of an indexed one.
type LocalKnob struct {
	Name    string
	Indexed bool
	Value   string
	File    string
	Line    int
}

// Directive is a header field with its text and line.
type Directive struct {
	Text string
	Line int
}

// Manifest is everything a declaration's header says, read as text.
type Manifest struct {
	Path       string
	Descriptor bool   // read from a .gate
	Graph      *Graph // nil only from ParseHeader on a file without one
	Spec       *Spec
	Install    *Directive
	ArmedBy    *ArmedBy
	Projection []string // authored members; nil when absent
	// ProjectionLine is the line of "# projection:", 0 when absent.
	ProjectionLine int
	NoFixture      *Directive
	NoPort         *Directive // shell declarations only
	PortUntil      *Directive // shell declarations only
	Knobs          []LocalKnob
}

// directive reads a header comment "# key: rest", where key is lower-case
// letters and digits in '-'-joined words and the colon ends the line or is
// followed by a blank. ok is false for prose.
func directive(comment string) (key, rest string, ok bool) {
	s := strings.TrimLeft(strings.TrimPrefix(comment, "#"), " \t")
	colon := strings.IndexByte(s, ':')
	if colon <= 0 {
		return "", "", false
	}
	key = s[:colon]
	for i, part := range strings.Split(key, "-") {
		if part == "" || (i == 0 && (part[0] < 'a' || part[0] > 'z')) {
			return "", "", false
		}
		for j := 0; j < len(part); j++ {
			if c := part[j]; !(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') {
				return "", "", false
			}
		}
	}
	rest = s[colon+1:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", "", false
	}
	return key, strings.TrimSpace(rest), true
}

// descriptorFields is the closed roster of a .gate's fields.
func descriptorField(key string) bool {
	switch key {
	case "graph", "spec", "install", "armed-by", "projection", "no-fixture", "knob":
		return true
	}
	return false
}

// ParseManifest reads a declaration's header and requires its # graph:
// line. path decides the dialect: a ".gate" descriptor is comment lines
// only, every one a field on the descriptor's closed roster or prose; a
// shell declaration is read from its header block (the leading run of
// shebang, comment and blank lines), where other comment keys are its own
// business. All problems found are returned joined; Problems splits them.
func ParseManifest(path string, content []byte) (*Manifest, error) {
	m, err := ParseHeader(path, content)
	if err != nil {
		return nil, err
	}
	if m.Graph == nil {
		// assertion I: the manifest line is required on every declaration.
		return nil, refusal(path, 0, KindNoManifest, "no # graph: line; every gate declaration carries its coupling manifest in its header")
	}
	return m, nil
}

// ParseHeader reads the header fields without requiring a # graph: line,
// for readers of scripts that are not gate declarations.
func ParseHeader(path string, content []byte) (*Manifest, error) {
	m := &Manifest{Path: path, Descriptor: strings.HasSuffix(path, ".gate")}
	var errs []error
	bad := func(line int, kind ErrKind, format string, args ...any) {
		errs = append(errs, refusal(path, line, kind, format, args...))
	}
	seen := map[string]int{}
	text := string(content)
	if rest, ok := strings.CutPrefix(text, walk.BOM); ok {
		if !m.Descriptor {
			// A shell declaration's mark hides its #! line from the
			// kernel and its header from this reader: refused by name.
			return nil, refusal(path, 1, KindNotComment, "the file opens with a UTF-8 byte-order mark, which hides its #! line and header; save it without one")
		}
		// Only the binary reads a descriptor: the mark is its encoding
		// signature, no part of its first line.
		text = rest
	}
	for i, raw := range strings.Split(text, "\n") {
		line := i + 1
		text := strings.TrimSuffix(raw, "\r")
		trimmed := strings.TrimLeft(text, " \t")
		if trimmed == "" {
			continue
		}
		if !strings.HasPrefix(trimmed, "#") {
			if m.Descriptor {
				// assertion H: a descriptor is data, comment lines only.
				bad(line, KindNotComment, "a .gate descriptor holds comment lines only; this line is not one")
				continue
			}
			break // assertion H: the shell header block ends here.
		}
		if i == 0 && strings.HasPrefix(trimmed, "#!") {
			continue
		}
		key, val, ok := directive(trimmed)
		if !ok {
			continue // prose
		}
		switch key {
		case "reads", "needs":
			// assertion K: roots and programs are registry data, never a header claim.
			bad(line, KindRefused, "# %s: is refused: what a gate %s is held in the binary's registry and checked by running it, not declared in a header", key, map[string]string{"reads": "walks", "needs": "spawns"}[key])
			continue
		case "no-port", "port-until":
			if m.Descriptor {
				// assertion K: a descriptor's member is ported; it has no port question left.
				bad(line, KindShellOnly, "# %s: belongs on a shell script; a .gate descriptor is already on the binary", key)
				continue
			}
		case "knob":
			if !m.Descriptor {
				continue // a shell header's own comment; only descriptors declare knobs
			}
		case "graph", "spec", "install", "armed-by", "projection", "no-fixture":
		default:
			if m.Descriptor && !descriptorField(key) {
				// assertion H: the descriptor's roster is closed.
				bad(line, KindUnknownField, "# %s: is not a descriptor field (the roster is graph, spec, install, armed-by, projection, no-fixture, knob)", key)
			}
			continue
		}
		if key != "knob" {
			if first, dup := seen[key]; dup {
				bad(line, KindDuplicate, "a second # %s: line (the first is line %d)", key, first)
				continue
			}
			seen[key] = line
		}
		switch key {
		case "graph":
			g, gerrs := parseGraph(path, line, val)
			errs = append(errs, gerrs...)
			if len(gerrs) == 0 {
				m.Graph = g
			}
		case "spec":
			if val == "" {
				bad(line, KindBadValue, "# spec: names no section")
				continue
			}
			s := &Spec{Text: val, Location: val, Line: line}
			if k := strings.Index(val, "\u2014"); k >= 0 {
				s.Location = strings.TrimSpace(val[:k])
				s.Statement = strings.TrimSpace(val[k+len("\u2014"):])
			}
			m.Spec = s
		case "install":
			switch val {
			case InstallZero, InstallSurface, InstallNever:
				m.Install = &Directive{Text: val, Line: line}
			default:
				bad(line, KindBadValue, "# install: %q is not a disposition (zero-config, on-surface or never)", val)
			}
		case "armed-by":
			a, msg := parseArmedBy(val)
			if msg != "" {
				bad(line, KindBadValue, "# armed-by: %s", msg)
				continue
			}
			a.Line = line
			m.ArmedBy = a
		case "projection":
			members, perrs := parseProjection(path, line, val)
			errs = append(errs, perrs...)
			if len(perrs) == 0 {
				m.Projection = members
				m.ProjectionLine = line
			}
		case "no-fixture":
			if val == "" {
				bad(line, KindBadValue, "# no-fixture: needs a reason")
				continue
			}
			m.NoFixture = &Directive{Text: val, Line: line}
		case "no-port":
			if val == "" {
				bad(line, KindBadValue, "# no-port: needs a cause naming its ruling")
				continue
			}
			m.NoPort = &Directive{Text: val, Line: line}
		case "port-until":
			if val == "" || strings.ContainsAny(val, " \t") {
				bad(line, KindBadValue, "# port-until: takes one bare queue slug, got %q", val)
				continue
			}
			m.PortUntil = &Directive{Text: val, Line: line}
		case "knob":
			k, msg := parseKnobLine(val)
			if msg != "" {
				bad(line, KindKnobLine, "# knob: %s", msg)
				continue
			}
			k.File, k.Line = path, line
			m.Knobs = append(m.Knobs, k)
		}
	}
	if m.NoPort != nil && m.PortUntil != nil {
		bad(m.PortUntil.Line, KindDuplicate, "# no-port: (line %d) and # port-until: cannot both sit on one file", m.NoPort.Line)
	}
	errs = append(errs, checkKnobShapes(path, m.Knobs)...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return m, nil
}

// parseGraph reads the fields of a # graph: line.
func parseGraph(path string, line int, val string) (*Graph, []error) {
	var errs []error
	bad := func(kind ErrKind, format string, args ...any) {
		errs = append(errs, refusal(path, line, kind, format, args...))
	}
	g := &Graph{Mode: ModeWholeTree, Line: line}
	seen := map[string]bool{}
	for _, f := range strings.Fields(val) {
		key, v, ok := strings.Cut(f, "=")
		if !ok {
			bad(KindUnknownField, "# graph: word %q is not a key=value field", f)
			continue
		}
		if seen[key] {
			bad(KindDuplicate, "# graph: carries %s= twice", key)
			continue
		}
		seen[key] = true
		// assertion I: each field's value is held to its closed vocabulary.
		switch key {
		case "couples":
			toks, terrs := parseTokens(path, line, key, v)
			errs = append(errs, terrs...)
			g.Couples = toks
		case "trigger":
			toks, terrs := parseTokens(path, line, key, v)
			errs = append(errs, terrs...)
			g.Trigger = toks
		case "dir":
			if v != DirBi && v != DirOne {
				bad(KindBadValue, "dir=%s is not bi or one", v)
			}
			g.Dir = v
		case "valve":
			if v != ValveNone && v != ValveProposed {
				bad(KindBadValue, "valve=%s is not none or PROPOSED", v)
			}
			g.Valve = v
		case "tier":
			if v != TierPrecommit && v != TierAlignOnly && v != TierCommitMsg {
				bad(KindBadValue, "tier=%s is not precommit, align-only or commit-msg", v)
			}
			g.Tier = v
		case "mode":
			if v != ModeStaged && v != ModeWholeTree {
				bad(KindBadValue, "mode=%s is not staged or whole-tree", v)
			}
			g.Mode = v
		case "gen":
			// assertion I: the generated hook region is retired.
			bad(KindRetiredGen, "gen= is retired: the hook has no generated region any more; drop the field, and a gate that needs every commit's staged set declares trigger=* and reads it itself")
		default:
			bad(KindUnknownField, "# graph: has no %s= field (fields: couples, dir, valve, tier, mode, trigger)", key)
		}
	}
	for _, req := range []string{"couples", "dir", "valve", "tier"} {
		if !seen[req] {
			// assertion I: four fields are required.
			bad(KindMissingField, "# graph: lacks %s=", req)
		}
	}
	return g, errs
}

// parseTokens splits a comma-separated couples= or trigger= value and
// holds each token to the field grammar.
func parseTokens(path string, line int, field, v string) ([]string, []error) {
	var errs []error
	if v == "" {
		return nil, []error{refusal(path, line, KindBadToken, "%s= is empty; name at least one glob", field)}
	}
	toks := strings.Split(v, ",")
	seen := map[string]bool{}
	for _, t := range toks {
		if msg := tokenProblem(t, true); msg != "" {
			errs = append(errs, refusal(path, line, KindBadToken, "%s= token %q: %s", field, t, msg))
			continue
		}
		if seen[t] {
			// assertion J: a token repeated in one authored field.
			errs = append(errs, refusal(path, line, KindDuplicateToken, "%s= repeats token %q", field, t))
		}
		seen[t] = true
	}
	return toks, errs
}

// parseArmedBy reads "<KNOB>" or "content <KNOB> [<KNOB>...]".
func parseArmedBy(val string) (*ArmedBy, string) {
	f := strings.Fields(val)
	a := &ArmedBy{}
	if len(f) > 0 && f[0] == "content" {
		a.Content = true
		f = f[1:]
		if len(f) == 0 {
			return nil, "the content form names at least one knob"
		}
	} else if len(f) != 1 {
		return nil, "takes one knob name, or content and one or more knob names"
	}
	for _, k := range f {
		if !IsKnobName(k) {
			return nil, "\"" + k + "\" is not a knob name"
		}
	}
	a.Knobs = f
	return a, ""
}

// parseProjection reads the members of a # projection: line.
func parseProjection(path string, line int, val string) ([]string, []error) {
	if val == "" {
		return nil, []error{refusal(path, line, KindBadValue, "# projection: names no path")}
	}
	var errs []error
	members := strings.Split(val, ",")
	for _, t := range members {
		if strings.HasPrefix(t, PrefixKit) {
			// assertion Q: an output path lives in the consumer's tree, never a kit's.
			errs = append(errs, refusal(path, line, KindBadToken, "# projection: member %q: kit: is not allowed, an output path is the consumer's", t))
			continue
		}
		if msg := tokenProblem(t, false); msg != "" {
			errs = append(errs, refusal(path, line, KindBadToken, "# projection: member %q: %s", t, msg))
		}
	}
	return members, errs
}

// IsKnobName reports whether s is spelled as a knob name: an upper-case
// letter, then letters, digits and '_'.
func IsKnobName(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') && c != '_' {
			return false
		}
	}
	return true
}

// LocalKnobPrefix is the prefix every descriptor-declared knob carries.
const LocalKnobPrefix = "GATE_LOCAL_"

// parseKnobLine reads the knob-file line after "# knob:".
func parseKnobLine(val string) (LocalKnob, string) {
	head, value, ok := strings.Cut(val, "=")
	if !ok {
		if strings.Contains(val, "<-") {
			return LocalKnob{}, "a reference line is not allowed; declare the value"
		}
		return LocalKnob{}, "expected NAME = value or NAME[] = element"
	}
	head, value = strings.TrimSpace(head), strings.TrimSpace(value)
	k := LocalKnob{Value: value}
	switch {
	case strings.HasSuffix(head, "[]"):
		k.Indexed = true
		k.Name = strings.TrimSuffix(head, "[]")
	case strings.Contains(head, "["):
		return LocalKnob{}, "a keyed line is not allowed; declare a scalar or indexed knob"
	default:
		k.Name = head
	}
	if !IsKnobName(k.Name) {
		return LocalKnob{}, "\"" + head + "\" is not a knob name"
	}
	if !strings.HasPrefix(k.Name, LocalKnobPrefix) || k.Name == LocalKnobPrefix {
		return LocalKnob{}, k.Name + " lacks the " + LocalKnobPrefix + " prefix; a descriptor declares only consumer-local knobs, and a kit's knob is set in its knob file"
	}
	if strings.Contains(value, "\t") {
		return LocalKnob{}, "a value cannot hold a tab"
	}
	return k, ""
}

// checkKnobShapes refuses, within one descriptor, a scalar given twice and
// a name given both as a scalar and as elements.
func checkKnobShapes(path string, ks []LocalKnob) []error {
	var errs []error
	first := map[string]LocalKnob{}
	for _, k := range ks {
		f, ok := first[k.Name]
		if !ok {
			first[k.Name] = k
			continue
		}
		switch {
		case f.Indexed != k.Indexed:
			errs = append(errs, refusal(path, k.Line, KindKnobLine, "# knob: %s is declared both as a scalar and as elements (first at line %d)", k.Name, f.Line))
		case !k.Indexed:
			errs = append(errs, refusal(path, k.Line, KindKnobLine, "# knob: %s is given twice (first at line %d)", k.Name, f.Line))
		}
	}
	return errs
}

// LocalKnobDecl is one GATE_LOCAL_ knob as the descriptors declare it.
type LocalKnobDecl struct {
	Name     string
	Indexed  bool
	Elements []string // the scalar's one value, or the elements in line order
	File     string
}

// LocalKnobs gathers the "# knob:" declarations of a descriptor corpus. A
// name two descriptors declare is refused naming both files.
func LocalKnobs(ms []*Manifest) (map[string]LocalKnobDecl, error) {
	out := map[string]LocalKnobDecl{}
	var errs []error
	for _, m := range ms {
		for _, k := range m.Knobs {
			d, ok := out[k.Name]
			if ok && d.File != k.File {
				// assertion L: one producer per name.
				errs = append(errs, refusal(k.File, k.Line, KindKnobConflict, "# knob: %s is also declared by %s; one descriptor owns a name", k.Name, d.File))
				continue
			}
			if !ok {
				d = LocalKnobDecl{Name: k.Name, Indexed: k.Indexed, File: k.File}
			}
			d.Elements = append(d.Elements, k.Value)
			out[k.Name] = d
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// Disposition is a shell file's port disposition, read from its header
// block: "no-port", "port-until:<slug>", or "owed". Fault names why a
// declaration present in the header was not well formed ("" when none
// was, or it was).
type Disposition struct {
	State string
	Fault string
}

// ReadDisposition reads the # no-port: / # port-until: pair from the
// header block alone (shebang, comment and blank lines), with the
// directive grammar ParseHeader reads. Exactly one line of one field with
// its payload is a disposition; an empty cause, a slug not led by
// [a-z0-9-], a doubled field or both fields are faults, and every fault
// reads owed.
func ReadDisposition(content []byte) Disposition {
	var noPort, until []string
	for i, raw := range strings.Split(string(content), "\n") {
		t := strings.TrimLeft(strings.TrimSuffix(raw, "\r"), " \t")
		if t == "" || (i == 0 && strings.HasPrefix(t, "#!")) {
			continue
		}
		if !strings.HasPrefix(t, "#") {
			break
		}
		switch key, val, ok := directive(t); {
		case ok && key == "no-port":
			noPort = append(noPort, val)
		case ok && key == "port-until":
			until = append(until, val)
		}
	}
	switch {
	case len(noPort) == 0 && len(until) == 0:
		return Disposition{State: "owed"}
	case len(noPort) > 0 && len(until) > 0:
		return Disposition{State: "owed", Fault: "both # no-port: and # port-until:"}
	case len(noPort) > 1 || len(until) > 1:
		return Disposition{State: "owed", Fault: "a doubled field"}
	case len(noPort) == 1 && noPort[0] == "":
		return Disposition{State: "owed", Fault: "# no-port: with an empty cause"}
	case len(noPort) == 1:
		return Disposition{State: "no-port"}
	}
	slug := until[0]
	n := 0
	for n < len(slug) && (slug[n] >= 'a' && slug[n] <= 'z' || slug[n] >= '0' && slug[n] <= '9' || slug[n] == '-') {
		n++
	}
	if n == 0 {
		return Disposition{State: "owed", Fault: "# port-until: naming no slug"}
	}
	return Disposition{State: "port-until:" + slug[:n]}
}
