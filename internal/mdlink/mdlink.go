// Package mdlink reads the link destinations of a markdown document and
// rewrites the ones a packed kit README points at its withheld SPEC.md.
//
// It is a reader in the layering sense: it imports no rule and no arm, so
// the packer (internal/payload) and the gate that judges the packer's
// output (check-packed-links) share one parse and one rewrite.
//
// The reader covers the spellings a README uses for a link: inline
// `[text](dest)` and images, the angle-bracket destination `<dest>`, an
// optional title in "", ” or (), reference definitions `[label]: dest`,
// backslash escapes and percent-encoding in the destination. Fenced code
// blocks and code spans hold no links. What it cannot read it refuses with
// the line: an inline destination left open, an unterminated title or
// fence, a full reference `[text][label]` to a label nobody defines, a bad
// percent escape, bytes that are not UTF-8.
package mdlink

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"
)

// Form names how a destination was spelled.
type Form string

const (
	Inline     Form = "inline"     // [text](dest) or ![alt](dest)
	Definition Form = "definition" // [label]: dest
)

// Dest is one link destination.
type Dest struct {
	Line int // 1-based line the destination sits on
	// Start and End bound the destination in the document as written,
	// angle brackets included, so a rewrite replaces exactly it.
	Start, End int
	Written    string // as written, angle brackets removed
	Target     string // backslash escapes and percent-encoding resolved
	Titled     bool
	Form       Form
}

// Error is a refusal naming the line the reader could not read.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Parse answers every link destination of doc in document order.
func Parse(doc []byte) ([]Dest, error) {
	if !utf8.Valid(doc) {
		return nil, &Error{Line: firstInvalidLine(doc), Msg: "not UTF-8 text"}
	}
	p := parser{doc: string(doc), defs: map[string]bool{}}
	if err := p.run(); err != nil {
		return nil, err
	}
	// A full reference to a label no definition carries renders as bare
	// text: the link the author meant is not there to judge.
	for _, u := range p.uses {
		if !p.defs[u.label] {
			return nil, &Error{Line: u.line, Msg: fmt.Sprintf("reference link to [%s], which no definition in the document carries", u.label)}
		}
	}
	sort.SliceStable(p.dests, func(i, j int) bool { return p.dests[i].Start < p.dests[j].Start })
	return p.dests, nil
}

type use struct {
	label string
	line  int
}

type parser struct {
	doc   string
	dests []Dest
	defs  map[string]bool
	uses  []use
}

func (p *parser) run() error {
	off := 0
	fence, fenceLine := "", 0
	for n, raw := range strings.SplitAfter(p.doc, "\n") {
		line := n + 1
		start := off
		off += len(raw)
		text := strings.TrimRight(raw, "\r\n")
		if fence != "" {
			if closesFence(text, fence) {
				fence = ""
			}
			continue
		}
		if f := opensFence(text); f != "" {
			fence, fenceLine = f, line
			continue
		}
		if ok, err := p.definition(text, start, line); err != nil {
			return err
		} else if ok {
			continue
		}
		if err := p.inline(text, start, line); err != nil {
			return err
		}
	}
	if fence != "" {
		return &Error{Line: fenceLine, Msg: "code fence " + fence + " is never closed, so the rest of the document is unreadable as prose"}
	}
	return nil
}

// opensFence answers the fence run a line opens (``` or ~~~, at most three
// spaces in), or "".
func opensFence(text string) string {
	t := strings.TrimLeft(text, " ")
	if len(text)-len(t) > 3 {
		return ""
	}
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 {
			if c == '`' && strings.Contains(t[n:], "`") {
				return ""
			}
			return t[:n]
		}
	}
	return ""
}

func closesFence(text, fence string) bool {
	t := strings.TrimLeft(text, " ")
	if len(text)-len(t) > 3 || !strings.HasPrefix(t, fence) {
		return false
	}
	return strings.Trim(t, fence[:1]+" \t") == ""
}

// definition reads a `[label]: dest "title"` line.
func (p *parser) definition(text string, start, line int) (bool, error) {
	t := strings.TrimLeft(text, " ")
	ind := len(text) - len(t)
	if ind > 3 || !strings.HasPrefix(t, "[") || strings.HasPrefix(t, "[^") {
		return false, nil
	}
	close := labelEnd(t, 0)
	if close < 0 || close+1 >= len(t) || t[close+1] != ':' {
		return false, nil
	}
	label := normLabel(t[1:close])
	if label == "" {
		return false, nil
	}
	i := ind + close + 2
	i = skipBlanks(text, i)
	if i >= len(text) {
		return false, &Error{Line: line, Msg: fmt.Sprintf("reference definition [%s] carries no destination on its line", label)}
	}
	d, j, err := destination(text, i, line, false)
	if err != nil {
		return false, err
	}
	j = skipBlanks(text, j)
	if j < len(text) {
		k, err := title(text, j, line)
		if err != nil {
			return false, err
		}
		d.Titled = true
		if skipBlanks(text, k) < len(text) {
			return false, &Error{Line: line, Msg: fmt.Sprintf("reference definition [%s] carries text after its title", label)}
		}
	}
	d.Line, d.Form = line, Definition
	d.Start += start
	d.End += start
	p.dests = append(p.dests, d)
	p.defs[label] = true
	return true, nil
}

// inline reads the inline links and reference uses of one prose line.
func (p *parser) inline(text string, start, line int) error {
	open := 0 // unescaped [ not yet closed: a ] closes link text only after one
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case '[':
			open++
		case '`':
			n := run(text, i, '`')
			if end := strings.Index(text[i+n:], strings.Repeat("`", n)); end >= 0 && run(text, i+n+end, '`') == n {
				i += n + end + n - 1
			} else {
				i += n - 1
			}
		case ']':
			if open == 0 {
				continue
			}
			open--
			if i+1 >= len(text) {
				continue
			}
			switch text[i+1] {
			case '(':
				d, j, err := destination(text, skipBlanks(text, i+2), line, true)
				if err != nil {
					return err
				}
				j = skipBlanks(text, j)
				if j < len(text) && text[j] != ')' {
					k, err := title(text, j, line)
					if err != nil {
						return err
					}
					d.Titled = true
					j = skipBlanks(text, k)
				}
				if j >= len(text) || text[j] != ')' {
					return &Error{Line: line, Msg: "inline link destination is not closed by ) on its line"}
				}
				d.Line, d.Form = line, Inline
				d.Start += start
				d.End += start
				p.dests = append(p.dests, d)
				i = j
			case '[':
				end := labelEnd(text, i+1)
				if end < 0 {
					continue
				}
				if label := normLabel(text[i+2 : end]); label != "" {
					p.uses = append(p.uses, use{label: label, line: line})
				}
				i = end
			}
		}
	}
	return nil
}

// destination reads a link destination at text[i:]; inInline stops a bare
// destination at an unbalanced ')'. The answered Dest's span is relative
// to text.
func destination(text string, i, line int, inInline bool) (Dest, int, error) {
	if i < len(text) && text[i] == '<' {
		for j := i + 1; j < len(text); j++ {
			switch text[j] {
			case '\\':
				j++
			case '<':
				return Dest{}, 0, &Error{Line: line, Msg: "angle-bracket link destination holds an unescaped <"}
			case '>':
				d, err := decoded(text[i+1:j], line)
				d.Start, d.End = i, j+1
				return d, j + 1, err
			}
		}
		return Dest{}, 0, &Error{Line: line, Msg: "angle-bracket link destination is not closed by > on its line"}
	}
	depth, j := 0, i
loop:
	for ; j < len(text); j++ {
		switch c := text[j]; {
		case c == '\\':
			j++
		case c == ' ' || c == '\t':
			break loop
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 && inInline {
				break loop
			}
			depth--
		}
	}
	if j > len(text) {
		j = len(text)
	}
	if depth > 0 {
		return Dest{}, 0, &Error{Line: line, Msg: "link destination opens a ( it never closes"}
	}
	d, err := decoded(text[i:j], line)
	d.Start, d.End = i, j
	return d, j, err
}

// title reads a quoted or parenthesised title at text[i:], answering the
// index after its closer.
func title(text string, i, line int) (int, error) {
	closer := map[byte]byte{'"': '"', '\'': '\'', '(': ')'}[text[i]]
	if closer == 0 {
		return 0, &Error{Line: line, Msg: fmt.Sprintf("link destination is followed by %q, neither a title nor the link's end", text[i:])}
	}
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case closer:
			return j + 1, nil
		}
	}
	return 0, &Error{Line: line, Msg: "link title is not closed on its line"}
}

// decoded resolves a destination's backslash escapes and percent-encoding.
func decoded(written string, line int) (Dest, error) {
	var b strings.Builder
	for i := 0; i < len(written); i++ {
		if written[i] == '\\' && i+1 < len(written) && isPunct(written[i+1]) {
			i++
		}
		b.WriteByte(written[i])
	}
	target, err := url.PathUnescape(b.String())
	if err != nil {
		return Dest{}, &Error{Line: line, Msg: fmt.Sprintf("link destination %q carries a malformed percent escape", written)}
	}
	return Dest{Written: written, Target: target}, nil
}

func isPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z')
}

// labelEnd answers the index of the ']' closing the label opened at
// text[open], or -1.
func labelEnd(text string, open int) int {
	for j := open + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case '[':
			return -1
		case ']':
			return j
		}
	}
	return -1
}

// normLabel folds a reference label the way matching reads it: case and
// runs of blanks do not distinguish labels.
func normLabel(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

func run(text string, i int, c byte) int {
	n := 0
	for i+n < len(text) && text[i+n] == c {
		n++
	}
	return n
}

func skipBlanks(text string, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i
}

func firstInvalidLine(doc []byte) int {
	line := 1
	for len(doc) > 0 {
		r, n := utf8.DecodeRune(doc)
		if r == utf8.RuneError && n <= 1 {
			return line
		}
		if r == '\n' {
			line++
		}
		doc = doc[n:]
	}
	return line
}
