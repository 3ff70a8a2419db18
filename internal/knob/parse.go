package knob

import (
	"strings"
	"unicode/utf8"

	"github.com/gate-sdk/gates/internal/walk"
)

// LineKind is the form of one knob-file line.
type LineKind int

// The four line forms.
const (
	KindScalar  LineKind = iota + 1 // NAME = value (also NAME = for an empty collection)
	KindElement                     // NAME[] = element
	KindPair                        // NAME[key] = value
	KindRef                         // NAME[] <- OTHER
)

func (k LineKind) String() string {
	switch k {
	case KindScalar:
		return "NAME = value"
	case KindElement:
		return "NAME[] = element"
	case KindPair:
		return "NAME[key] = value"
	case KindRef:
		return "NAME[] <- OTHER"
	}
	return "unknown"
}

// Line is one parsed, meaningful knob-file line.
type Line struct {
	Num   int // 1-based line number
	Kind  LineKind
	Name  string
	Key   string // KindPair only
	Value string // KindScalar, KindElement, KindPair
	Other string // KindRef only
}

const lineForms = "expected NAME = value, NAME[] = element, NAME[key] = value or NAME[] <- OTHER"

// ParseFile reads a knob file's bytes line by line. It knows the grammar
// only, never a table: which names exist and which shape each has is the
// owning kit's question (see Set). Every malformed line is a finding naming
// file and line; parsing goes on past it so one read reports them all.
func ParseFile(file string, data []byte) ([]Line, []*Finding) {
	var lines []Line
	var findings []*Finding
	bad := func(n int, format string, args ...any) {
		f := refuse("", format, args...)
		f.File, f.Line = file, n
		findings = append(findings, f)
	}
	text := string(data)
	// assertion V: a byte-order mark is refused by name. The sh front end
	// reads this file before the binary and would not see a first-line
	// knob behind the mark, so accepting it here would let the readers
	// disagree; kept silently, it made the seeded comment line "malformed".
	if rest, ok := strings.CutPrefix(text, walk.BOM); ok {
		bad(1, "the file opens with a UTF-8 byte-order mark; save it without one (the sh front end reads this file too and would not see a knob on this line)")
		text = rest
	}
	num := 0
	for len(text) > 0 {
		num++
		raw := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			raw, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		// A CRLF file reads as LF: the carriage return is the line end.
		raw = strings.TrimSuffix(raw, "\r")
		// assertion A: blank lines and lines whose first non-blank is # are ignored.
		body := trimBlanks(raw)
		if body == "" || body[0] == '#' {
			continue
		}
		if !utf8.ValidString(raw) {
			bad(num, "line is not valid UTF-8")
			continue
		}
		l, msg := parseLine(raw)
		if msg != "" {
			bad(num, "%s", msg)
			continue
		}
		l.Num = num
		lines = append(lines, l)
	}
	return lines, findings
}

// parseLine reads one non-blank, non-comment line; msg is non-empty when the
// line is refused.
func parseLine(raw string) (Line, string) {
	eq := strings.IndexByte(raw, '=')
	if eq < 0 {
		return parseRef(raw)
	}
	// assertion B: the first = splits head from value; the value is taken
	// verbatim to the end of the line, blanks around it trimmed.
	head := trimBlanks(raw[:eq])
	rest := raw[eq+1:]
	// assertion C: a tab anywhere in a value is refused (the wire's separator).
	if strings.IndexByte(rest, '\t') >= 0 {
		name := head
		if i := strings.IndexByte(head, '['); i >= 0 {
			name = head[:i]
		}
		return Line{}, "value of " + quoteName(name) + " contains a tab; a knob value cannot carry one"
	}
	value := strings.Trim(rest, " ")
	if head == "" {
		return Line{}, "missing knob name before '='; " + lineForms
	}
	if !strings.HasSuffix(head, "]") {
		if !validName(head) {
			return Line{}, badName(head)
		}
		return Line{Kind: KindScalar, Name: head, Value: value}, ""
	}
	lb := strings.IndexByte(head, '[')
	if lb < 0 {
		return Line{}, "unbalanced ']' in " + quote(head) + "; " + lineForms
	}
	name, key := head[:lb], head[lb+1:len(head)-1]
	if !validName(name) {
		return Line{}, badName(name)
	}
	if key == "" {
		if value == "" {
			// assertion C: an empty element would read back as an empty
			// collection on the wire, so it is refused.
			return Line{}, "empty element for " + name + "[]; write " + name + " = to set an empty value"
		}
		return Line{Kind: KindElement, Name: name, Value: value}, ""
	}
	if strings.ContainsAny(key, "]\t") {
		return Line{}, "key " + quote(key) + " of " + name + " carries ']' or a tab"
	}
	return Line{Kind: KindPair, Name: name, Key: key, Value: value}, ""
}

func parseRef(raw string) (Line, string) {
	i := strings.Index(raw, "<-")
	if i < 0 {
		return Line{}, "malformed line: " + lineForms
	}
	head, other := trimBlanks(raw[:i]), trimBlanks(raw[i+2:])
	name, ok := strings.CutSuffix(head, "[]")
	if !ok {
		return Line{}, "a reference splices elements, so its head is NAME[]; got " + quote(head)
	}
	if !screaming(name) {
		return Line{}, "reference names must be SCREAMING_SNAKE; got " + quote(name)
	}
	if !screaming(other) {
		return Line{}, "reference names must be SCREAMING_SNAKE; got " + quote(other)
	}
	return Line{Kind: KindRef, Name: name, Other: other}, ""
}

// trimBlanks trims spaces and tabs.
func trimBlanks(s string) string { return strings.Trim(s, " \t") }

// validName is the line grammar's name: an uppercase letter, then letters,
// digits and _. Lowercase is admitted for family members' suffixes; the
// owning kit decides whether the name exists.
func validName(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// screaming is SCREAMING_SNAKE: an uppercase letter, then uppercase
// letters, digits and _.
func screaming(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func badName(s string) string {
	return quote(s) + " is not a knob name (an uppercase letter, then letters, digits and _); " + lineForms
}

func quote(s string) string {
	const max = 60
	if len(s) > max {
		s = s[:max] + "..."
	}
	return "\"" + strings.ToValidUTF8(s, "?") + "\""
}

func quoteName(s string) string {
	if validName(s) {
		return s
	}
	return quote(s)
}
