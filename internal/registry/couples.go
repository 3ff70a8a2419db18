package registry

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gate-sdk/gates/internal/glob"
)

// The closed couples= prefix set. A new prefix joins it together with its
// resolver; every reader recognises prefixes through these constants.
const (
	PrefixKit  = "kit:"
	PrefixKnob = "knob:"
)

// CouplesPrefixes answers the closed prefix set, in a fresh slice.
func CouplesPrefixes() []string { return []string{PrefixKit, PrefixKnob} }

// prefixOf answers a token's leading "word:" when it has one.
func prefixOf(t string) (string, bool) {
	i := strings.IndexByte(t, ':')
	if i <= 0 {
		return "", false
	}
	w := t[:i]
	if !isLetter(w[0]) {
		return "", false
	}
	for j := 1; j < len(w); j++ {
		if c := w[j]; !isLetter(c) && !(c >= '0' && c <= '9') && c != '_' && c != '-' {
			return "", false
		}
	}
	return t[:i+1], true
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// tokenProblem says why t is not a well-formed authored token, or "".
func tokenProblem(t string, allowKit bool) string {
	if t == "" {
		return "empty token (a doubled or trailing comma)"
	}
	if strings.ContainsAny(t, " \t\r\v\f") {
		return "a token cannot hold blanks"
	}
	p, ok := prefixOf(t)
	if !ok {
		// assertion J: a glob that is not well-formed (an unclosed bracket)
		// would couple nothing; it is refused, not read as a literal.
		if msg := glob.Problem(t); msg != "" {
			return "not a well-formed glob: " + msg
		}
		return ""
	}
	rest := t[len(p):]
	switch p {
	case PrefixKit:
		if !allowKit {
			return "kit: is not allowed here"
		}
		if rest == "" {
			return "kit: names no glob"
		}
		if _, nested := prefixOf(rest); nested {
			return "a token takes one prefix"
		}
		if msg := glob.Problem(rest); msg != "" {
			return "not a well-formed glob: " + msg
		}
	case PrefixKnob:
		if _, msg := ParseKnobRef(rest); msg != "" {
			return msg
		}
	case "env:":
		// assertion J: a trigger never reads the shell environment.
		return "env: is refused; name the knob as knob:<NAME>, which expands to its resolved value"
	default:
		// assertion J: an unknown prefix would fall through as a literal and lose its trigger.
		return fmt.Sprintf("unknown prefix %q (the prefixes are %s)", p, strings.Join(CouplesPrefixes(), " and "))
	}
	return ""
}

// ValidGlobToken is the amendment-manifest token test: at most one prefix
// from the closed set stripped, then a non-empty remainder of letters,
// digits and "._*?/-" only.
func ValidGlobToken(t string) bool {
	for _, p := range CouplesPrefixes() {
		if r, ok := strings.CutPrefix(t, p); ok {
			t = r
			break
		}
	}
	return t != "" && literalGlobChars(t)
}

func literalGlobChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && !(c >= '0' && c <= '9') && !strings.ContainsRune("._*?/-", rune(c)) {
			return false
		}
	}
	return true
}

// KnobRef is a parsed knob: token: the bare knob:<NAME>, the packed-field
// knob:<NAME>.<field>, or the rooted knob:<NAME>/<glob>.
type KnobRef struct {
	Name  string
	Field string
	Glob  string
}

// Rooted reports whether the token roots a glob at the knob's value.
func (r KnobRef) Rooted() bool { return r.Glob != "" }

// ParseKnobRef reads the text after "knob:". msg says what is wrong, or
// is "".
func ParseKnobRef(s string) (KnobRef, string) {
	n := 0
	for n < len(s) && (isLetter(s[n]) || (s[n] >= '0' && s[n] <= '9') || s[n] == '_') {
		n++
	}
	ref := KnobRef{Name: s[:n]}
	if !IsKnobName(ref.Name) {
		return KnobRef{}, fmt.Sprintf("knob:%s does not start with a knob name", s)
	}
	rest := s[n:]
	switch {
	case rest == "":
	case rest[0] == '.':
		f := rest[1:]
		if f == "" || strings.ContainsAny(f, "./:") || !literalGlobChars(f) || strings.ContainsAny(f, "*?") {
			return KnobRef{}, fmt.Sprintf("knob:%s: a field is one name after the '.'", s)
		}
		ref.Field = f
	case rest[0] == '/':
		g := rest[1:]
		if g == "" || !literalGlobChars(g) {
			return KnobRef{}, fmt.Sprintf("knob:%s: a rooted glob takes letters, digits and ._*?/- only", s)
		}
		ref.Glob = g
	default:
		return KnobRef{}, fmt.Sprintf("knob:%s: expected knob:<NAME>, knob:<NAME>.<field> or knob:<NAME>/<glob>", s)
	}
	return ref, ""
}

// Shape is a knob row's declared shape as expansion needs it.
type Shape int

// The shapes.
const (
	ShapeScalar  Shape = iota + 1 // one value
	ShapeWords                    // a scalar declared as a whitespace word list
	ShapeIndexed                  // elements, one per line
	ShapePacked                   // elements packing several fields each (keyed rows too)
	ShapeLocator                  // GATE_SDK_GATES_DIR or GATE_SDK_ROOT
)

// KnobValue is a knob's resolved value.
type KnobValue struct {
	Shape Shape
	Value string   // ShapeScalar and ShapeLocator
	Elems []string // ShapeWords (already split) and ShapeIndexed
}

// Knobs resolves knob values for knob: tokens. The knob engine implements
// it; the registry does not read knob files itself. Knob refuses a name no
// static kit owns (and a locator answers from the environment or its
// default); Field answers one declared field's members across a packed
// knob's elements.
type Knobs interface {
	Knob(name string) (KnobValue, error)
	Field(name, field string) ([]string, error)
}

func expansionErr(format string, args ...any) *Error {
	return &Error{Kind: KindExpansion, Msg: fmt.Sprintf(format, args...)}
}

// Expand expands one authored couples= or trigger= field: every knob:
// token first, into its members, then every kit: token, the authored ones
// and any a knob member spelled, into <kit-root>/<glob> for each root in
// order. Each pass runs once. kitRoots are spelled the way the caller's
// paths are (the working-directory spelling at every door). Literal tokens
// pass unchanged.
func Expand(tokens []string, kitRoots []string, knobs Knobs) ([]string, error) {
	// assertion M: knob: expands first, one pass.
	var mid []string
	for _, t := range tokens {
		rest, ok := strings.CutPrefix(t, PrefixKnob)
		if !ok {
			mid = append(mid, t)
			continue
		}
		members, err := knobMembers(rest, knobs, true)
		if err != nil {
			return nil, err
		}
		mid = append(mid, members...)
	}
	// assertion N: kit: expands over the result, once per kit root.
	var out []string
	for _, t := range mid {
		rest, ok := strings.CutPrefix(t, PrefixKit)
		if !ok {
			out = append(out, t)
			continue
		}
		for _, r := range kitRoots {
			out = append(out, Join(strings.TrimRight(r, "/"), rest))
		}
	}
	return out, nil
}

// knobMembers resolves the text after "knob:". With cover set each member
// becomes its covering pattern (couples=, trigger=); without it members are
// places, resolved verbatim (# projection:).
func knobMembers(text string, knobs Knobs, cover bool) ([]string, error) {
	ref, msg := ParseKnobRef(text)
	if msg != "" {
		return nil, expansionErr("%s", msg)
	}
	tok := PrefixKnob + text
	if knobs == nil {
		return nil, expansionErr("%s: no knob table is available to expand it", tok)
	}
	v, err := knobs.Knob(ref.Name)
	if err != nil {
		return nil, &Error{Kind: KindExpansion, Msg: fmt.Sprintf("%s: %v", tok, err), Err: err}
	}
	var raw []string
	switch {
	case ref.Rooted():
		var roots []string
		switch v.Shape {
		case ShapeScalar, ShapeLocator:
			if v.Value == "" {
				// assertion M: an empty root would silently re-root the glob at the top.
				return nil, expansionErr("%s: %s resolves empty, so the glob has no root", tok, ref.Name)
			}
			roots = []string{v.Value}
		case ShapeWords:
			roots = v.Elems
		default:
			return nil, expansionErr("%s: a rooted token takes a scalar, a word list or a locator; %s is indexed or packed", tok, ref.Name)
		}
		for _, root := range roots {
			r, ok := normalizeRoot(root)
			if !ok {
				return nil, expansionErr("%s: root %q names no directory", tok, root)
			}
			raw = append(raw, Join(r, ref.Glob))
		}
	case ref.Field != "":
		if v.Shape != ShapePacked {
			return nil, expansionErr("%s: .%s addresses a field of a packed knob, and %s is not one", tok, ref.Field, ref.Name)
		}
		raw, err = knobs.Field(ref.Name, ref.Field)
		if err != nil {
			return nil, &Error{Kind: KindExpansion, Msg: fmt.Sprintf("%s: %v", tok, err), Err: err}
		}
	default:
		switch v.Shape {
		case ShapeScalar, ShapeLocator:
			if v.Value != "" {
				raw = []string{v.Value}
			}
		case ShapeIndexed:
			raw = v.Elems
		case ShapeWords:
			return nil, expansionErr("%s: %s is a word list, which a bare token cannot name; root a glob at its words with knob:%s/<glob>", tok, ref.Name, ref.Name)
		default:
			return nil, expansionErr("%s: %s packs several fields per element; name one with knob:%s.<field>", tok, ref.Name, ref.Name)
		}
	}
	var out []string
	for _, m := range raw {
		if m == "" {
			continue
		}
		// assertion M: a member that would split the field, or expand again, is refused.
		if strings.ContainsAny(m, ", \t\r\n\v\f") {
			return nil, expansionErr("%s: member %q holds a comma or a blank, which would split the field", tok, m)
		}
		if strings.HasPrefix(m, PrefixKnob) {
			return nil, expansionErr("%s: member %q is itself a knob: token; expansion runs one pass", tok, m)
		}
		switch {
		case strings.HasPrefix(m, PrefixKit):
			if !cover {
				return nil, expansionErr("%s: member %q is a kit: token, which names no place in the consumer's tree", tok, m)
			}
			out = append(out, m) // field syntax: the kit: pass takes it unconverted
		case cover:
			out = append(out, Cover(m))
		default:
			out = append(out, m)
		}
	}
	return out, nil
}

// normalizeRoot trims a directory value's trailing '/' and leading "./";
// "." becomes the empty prefix. ok is false for a value naming nothing.
func normalizeRoot(v string) (string, bool) {
	r := strings.TrimRight(v, "/")
	for strings.HasPrefix(r, "./") {
		r = strings.TrimLeft(r[2:], "/")
	}
	if r == "." {
		return "", true
	}
	return r, r != ""
}

// Cover converts a knob member, a pattern in its walker's discipline
// relative to the walk's root, into a string pattern reaching every path
// the member can select under any root: a leading "./" dropped, every
// "**/" collapsed to "*", and a leading "*" added unless present.
func Cover(m string) string {
	for strings.HasPrefix(m, "./") {
		m = m[2:]
	}
	m = strings.ReplaceAll(m, "**/", "*")
	if !strings.HasPrefix(m, "*") {
		m = "*" + m
	}
	return m
}

// ResolveProjection resolves a # projection: line to the paths it names:
// a literal member to itself, a knob: member to the knob's members
// verbatim (no covering conversion; a rooted token with its root
// normalized). An empty result means the line declares no projection on
// this tree.
func ResolveProjection(m *Manifest, knobs Knobs) ([]string, error) {
	var out []string
	for _, t := range m.Projection {
		rest, ok := strings.CutPrefix(t, PrefixKnob)
		if !ok {
			out = append(out, t)
			continue
		}
		// assertion Q: a place resolves verbatim, never to a covering pattern.
		members, err := knobMembers(rest, knobs, false)
		if err != nil {
			return nil, locate(err, m.Path, m.ProjectionLine)
		}
		out = append(out, members...)
	}
	return out, nil
}

// MatchesAny reports whether path matches any of patterns under the one
// couples matcher.
func MatchesAny(patterns []string, path string) bool {
	for _, p := range patterns {
		if glob.Match(p, path) {
			return true
		}
	}
	return false
}

// CouplesKnobNames answers every knob name a knob: token carries on a
// couples=, trigger= or # projection: line of the corpus, sorted, once
// each.
func CouplesKnobNames(corpus []*Manifest) []string {
	var names []string
	add := func(toks []string) {
		for _, t := range toks {
			if rest, ok := strings.CutPrefix(t, PrefixKnob); ok {
				if ref, msg := ParseKnobRef(rest); msg == "" {
					names = append(names, ref.Name)
				}
			}
		}
	}
	for _, m := range corpus {
		if m == nil {
			continue
		}
		if m.Graph != nil {
			add(m.Graph.Couples)
			add(m.Graph.Trigger)
		}
		add(m.Projection)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// locate gives a refusal without a place the manifest's file and line.
func locate(err error, file string, line int) error {
	var e *Error
	if errors.As(err, &e) && e.File == "" {
		c := *e
		c.File, c.Line = file, line
		return &c
	}
	return err
}
