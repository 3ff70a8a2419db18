// Package patterns reads banned-pattern lists: files of one POSIX ERE per
// live line, resolved from positional arguments or from a pair of
// whitespace-list knobs, and compiled once through internal/ere.
//
// Contract:
//   - A live line is one that is non-empty after its leading blanks and does
//     not then open with '#'. The pattern is the line as written, less one
//     trailing carriage return, so a CRLF checkout reads the same patterns.
//   - Resolution: explicit pattern-file operands win and are each required.
//     Otherwise the files of a required knob (absent is a refusal) are
//     followed by those of an optional knob (absent is skipped). Knob values
//     are split on whitespace and expanded by nothing: a glob names a
//     literal path.
//   - Absent and unreadable are different facts. Only a path that does not
//     exist is absent; a file that exists but cannot be read is an error
//     whatever its source, so it can never read as a skipped one.
//   - A pattern the engine refuses (a GNU extension, a malformed
//     expression) is an error naming the pattern, its file and line, and
//     the refused construct. Every pattern is compiled exactly once.
//   - A live line opening with '!' is a spare, not a ban: the ERE after the
//     '!' is matched against the text a ban pattern matched, and a ban
//     match it accepts is passed over (a placeholder home path in a
//     document). A line is flagged while any one ban match in it is not
//     spared. To ban a literal leading '!', write it as [!].
//
// The package reads files only through the function its caller hands in,
// so it never resolves a path itself and holds no state.
package patterns

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"unsafe"

	"github.com/gate-sdk/gates/internal/ere"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/walk"
)

// FromArgument is the Origin of a file named on the command line.
const FromArgument = "argument"

// Source is one pattern file a resolution named.
type Source struct {
	Path     string // as named: relative to the run directory, or rooted
	Origin   string // FromArgument, or the knob whose value named it
	Required bool   // absence is a refusal rather than a skip
}

// Named answers explicit pattern-file operands, each required.
func Named(paths []string) []Source {
	out := make([]Source, 0, len(paths))
	for _, p := range paths {
		out = append(out, Source{Path: p, Origin: FromArgument, Required: true})
	}
	return out
}

// FromKnobs answers the files of the required knob followed by those of the
// optional one. Either name may be empty, meaning no such knob.
func FromKnobs(k gate.Knobs, required, optional string) ([]Source, error) {
	var out []Source
	for _, kn := range []struct {
		name     string
		required bool
	}{{required, true}, {optional, false}} {
		if kn.name == "" {
			continue
		}
		words, err := k.Words(kn.name)
		if err != nil {
			return nil, fmt.Errorf("resolving %s: %w", kn.name, err)
		}
		for _, w := range words {
			out = append(out, Source{Path: w, Origin: kn.name, Required: kn.required})
		}
	}
	return out, nil
}

// Line is one live line of a list file.
type Line struct {
	N    int    // 1-based line number
	Text string // the line as written, less a trailing carriage return
}

// LiveLines answers the live lines of data in order. A byte-order mark
// opening data is the file's encoding signature and no part of its first
// line.
func LiveLines(data []byte) []Line {
	var out []Line
	n := 0
	for rest := walk.TrimBOM(string(data)); rest != ""; {
		n++
		var line string
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			line, rest = rest, ""
		}
		line = strings.TrimSuffix(line, "\r")
		if IsLive(line) {
			out = append(out, Line{N: n, Text: line})
		}
	}
	return out
}

// IsLive reports whether line is live: non-empty after leading blanks and
// not then opening with '#'.
func IsLive(line string) bool {
	t := strings.TrimLeft(line, " \t\r\f\v")
	return t != "" && t[0] != '#'
}

// Pattern is one compiled live line of a pattern file.
type Pattern struct {
	Text string // the pattern as written
	File string // the file it came from, as named
	Line int    // its line in that file
	re   *lazy
	pre  *ere.Ere // the whole-text prefilter; nil when re serves
}

// lazy is a pattern compiled when it is first asked. Load has already
// checked that it compiles (ere.Check), so asking never fails; a compiled
// pattern is a pure function of its text, so when it is built changes no
// answer. Safe for concurrent use: racing first askers build it once.
type lazy struct {
	text string
	once sync.Once
	re   *ere.Ere
}

// get answers the compiled pattern, building it on the first call.
func (l *lazy) get() *ere.Ere {
	l.once.Do(func() {
		re, err := compile(l.text)
		if err != nil {
			// Load checked the text with ere.Check, which answers
			// exactly what compiling answers.
			panic(fmt.Sprintf("patterns: %q compiled after Load checked it: %v", l.text, err))
		}
		l.re = re
	})
	return l.re
}

// eager is a lazy already compiled.
func eager(text string, re *ere.Ere) *lazy {
	l := &lazy{text: text, re: re}
	l.once.Do(func() {})
	return l
}

// Match reports whether the pattern matches anywhere in s.
func (p *Pattern) Match(s string) bool { return p.re.get().IsMatch(s) }

// Set is a loaded pattern set.
type Set struct {
	Patterns []Pattern
	// Spares are the '!' lines: a ban match whose matched text a spare
	// matches is passed over.
	Spares []Pattern
	Read   []Source // files read, in resolution order
	Absent []Source // optional files that were not there
}

// Empty reports whether the set holds no pattern.
func (s *Set) Empty() bool { return len(s.Patterns) == 0 }

// A line is matched as its content: no terminator, and no CR before it
// (a CRLF line, or a text's last line ending in a lone CR, sheds exactly
// one CR). The tree scan and the message gate both ask through First,
// FirstOf or FirstOfBytes, so a `$`-anchored pattern reads an LF line and
// its CRLF twin alike in both (issue 42, item 11).
func lineContent(line string) string { return strings.TrimSuffix(line, "\r") }

// lineContentBytes is lineContent over bytes.
func lineContentBytes(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		return line[:n-1]
	}
	return line
}

// First answers the index of the first pattern matching line, or -1.
func (s *Set) First(line string) int {
	line = lineContent(line)
	for i := range s.Patterns {
		if s.hits(i, line) {
			return i
		}
	}
	return -1
}

// hits reports whether ban pattern i flags line: it matches, and at least
// one of its matches is not spared.
func (s *Set) hits(i int, line string) bool {
	re := s.Patterns[i].re.get()
	if !re.IsMatch(line) {
		return false
	}
	if len(s.Spares) == 0 {
		return true
	}
	// assertion S: every match is asked, overlapping starts included, so a
	// placeholder beside a real path spares nothing.
	for from := 0; from <= len(line); {
		span, ok := re.FindFrom(line, from)
		if !ok {
			return false
		}
		if !s.spared(line[span.Start:span.End]) {
			return true
		}
		from = span.Start + 1
	}
	return false
}

// spared reports whether a spare pattern accepts a ban match's text.
func (s *Set) spared(matched string) bool {
	for i := range s.Spares {
		if s.Spares[i].re.get().IsMatch(matched) {
			return true
		}
	}
	return false
}

// Candidates appends to buf, and answers, the indexes of the patterns
// that may match some line of text, testing each once against the whole
// text. An unanchored pattern matching within a line matches the same
// bytes of the whole text. An anchored one is tested in a widened form with
// every anchor made vacuous: dropping an assertion only admits more
// matches, so a line match still implies a whole-text match. A pattern
// left out here matches no line, and a text with no candidate needs no
// line split at all.
func (s *Set) Candidates(text string, buf []int) []int {
	return s.candidates(buf, func(re *ere.Ere) bool { return re.IsMatch(text) })
}

// CandidatesBytes is Candidates over a byte text, matched in place (never
// copied to a string).
func (s *Set) CandidatesBytes(text []byte, buf []int) []int {
	return s.candidates(buf, func(re *ere.Ere) bool { return re.IsMatchBytes(text) })
}

// candidates is Candidates over any subject, matched by match.
func (s *Set) candidates(buf []int, match func(*ere.Ere) bool) []int {
	buf = buf[:0]
	for i := range s.Patterns {
		p := &s.Patterns[i]
		re := p.pre
		if re == nil {
			re = p.re.get()
		}
		if match(re) {
			buf = append(buf, i)
		}
	}
	return buf
}

// FirstOfBytes is FirstOf over a byte line, matched in place.
func (s *Set) FirstOfBytes(line []byte, idx []int) int {
	line = lineContentBytes(line)
	if len(s.Spares) > 0 {
		return s.firstOf(unsafe.String(unsafe.SliceData(line), len(line)), idx)
	}
	for _, i := range idx {
		if s.Patterns[i].re.get().IsMatchBytes(line) {
			return i
		}
	}
	return -1
}

// Matched answers, for pattern i that flags line (FirstOf's answer), the
// text of its first match no spare passes over: what the line is flagged
// for. It copies the text, so a byte line may be reused after.
func (s *Set) Matched(i int, line []byte) string {
	hay := unsafe.String(unsafe.SliceData(line), len(line))
	re := s.Patterns[i].re.get()
	for from := 0; from <= len(hay); {
		span, ok := re.FindFrom(hay, from)
		if !ok {
			break
		}
		if m := hay[span.Start:span.End]; len(s.Spares) == 0 || !s.spared(m) {
			return strings.Clone(m)
		}
		from = span.Start + 1
	}
	return ""
}

// FirstOf answers the first of the indexed patterns flagging line, or -1.
func (s *Set) FirstOf(line string, idx []int) int {
	return s.firstOf(lineContent(line), idx)
}

// firstOf is FirstOf over a line already cut to its content.
func (s *Set) firstOf(line string, idx []int) int {
	for _, i := range idx {
		if s.hits(i, line) {
			return i
		}
	}
	return -1
}

// widenAnchors rewrites every ^ and $ standing outside a bracket expression
// (and not escaped) as (NL)?, NL a literal newline byte: an atom that may
// match empty anywhere, which makes the assertion vacuous while keeping
// the pattern well formed (ERE admits no empty group or alternative). It
// reports whether there was an anchor. It reads a pattern the engine
// accepted.
func widenAnchors(p string) (string, bool) {
	var b strings.Builder
	found := false
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			if i+1 < len(p) {
				b.WriteString(p[i : i+2])
				i++
				continue
			}
		case '^':
			b.WriteString("(\n)?")
			found = true
			continue
		case '$':
			b.WriteString("(\n)?")
			found = true
			continue
		case '[':
			end := bracketEnd(p, i)
			if end >= len(p) {
				end = len(p) - 1
			}
			b.WriteString(p[i : end+1])
			i = end
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String(), found
}

// bracketEnd answers the index of the ']' closing the bracket expression
// opening at p[open] (len(p) when it never closes).
func bracketEnd(p string, open int) int {
	i := open + 1
	if i < len(p) && p[i] == '^' {
		i++
	}
	if i < len(p) && p[i] == ']' {
		i++ // a leading ']' is a member
	}
	for ; i < len(p); i++ {
		if p[i] == '[' && i+1 < len(p) && (p[i+1] == ':' || p[i+1] == '.' || p[i+1] == '=') {
			d := p[i+1]
			j := i + 2
			for j+1 < len(p) && !(p[j] == d && p[j+1] == ']') {
				j++
			}
			i = j + 1
			continue
		}
		if p[i] == ']' {
			return i
		}
	}
	return len(p)
}

// MissingError is a required pattern file that does not exist.
type MissingError struct{ Source Source }

func (e *MissingError) Error() string {
	if e.Source.Origin == FromArgument {
		return fmt.Sprintf("pattern file %s does not exist", e.Source.Path)
	}
	return fmt.Sprintf("required pattern file %s (from %s) does not exist", e.Source.Path, e.Source.Origin)
}

// UnreadableError is a pattern file that exists but could not be read.
type UnreadableError struct {
	Source Source
	Err    error
}

func (e *UnreadableError) Error() string {
	return fmt.Sprintf("pattern file %s (from %s) exists but cannot be read: %v", e.Source.Path, e.Source.Origin, e.Err)
}

func (e *UnreadableError) Unwrap() error { return e.Err }

// CompileError is a pattern the ERE engine refused.
type CompileError struct {
	Source  Source
	Line    int
	Pattern string
	Err     error
}

func (e *CompileError) Error() string {
	where := fmt.Sprintf("%s:%d", e.Source.Path, e.Line)
	if e.Source.Origin != FromArgument {
		where += " (" + e.Source.Origin + ")"
	}
	return ere.RefusalMessage(where, e.Pattern, e.Err)
}

func (e *CompileError) Unwrap() error { return e.Err }

// compiled keeps each pattern text compiled once per process: the gates
// of one hook run (check-commit-msg on the message, check-tree-terms on
// the tree) load the same lists, and a compiled pattern is a pure function
// of its text, safe to share between readers.
var compiled sync.Map // text -> *ere.Ere

// compile is ere.Compile through compiled; a refusal is never kept.
func compile(text string) (*ere.Ere, error) {
	if re, ok := compiled.Load(text); ok {
		return re.(*ere.Ere), nil
	}
	re, err := ere.Compile(text)
	if err != nil {
		return nil, err
	}
	compiled.Store(text, re)
	return re, nil
}

// checked answers a pattern Load has checked (ere.Check) and left to be
// compiled when first asked, or the refusal compiling would answer. One
// already compiled in this process is taken as it is.
func checked(text string) (*lazy, error) {
	if re, ok := compiled.Load(text); ok {
		return eager(text, re.(*ere.Ere)), nil
	}
	if err := ere.Check(text); err != nil {
		return nil, err
	}
	return &lazy{text: text}, nil
}

// Load reads and compiles every source through read, which answers a
// file's bytes for a path as named (an error satisfying
// errors.Is(err, fs.ErrNotExist) for a path that does not exist).
func Load(read func(path string) ([]byte, error), srcs []Source) (*Set, error) {
	set := &Set{}
	for _, src := range srcs {
		data, err := read(src.Path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				if src.Required {
					return nil, &MissingError{Source: src}
				}
				set.Absent = append(set.Absent, src)
				continue
			}
			return nil, &UnreadableError{Source: src, Err: unwrapPath(err)}
		}
		set.Read = append(set.Read, src)
		for _, l := range LiveLines(data) {
			if spare, ok := strings.CutPrefix(strings.TrimLeft(l.Text, " \t"), "!"); ok {
				// A spare is checked here and compiled
				// only when a ban match first asks it.
				re, err := checked(spare)
				if err != nil {
					return nil, &CompileError{Source: src, Line: l.N, Pattern: l.Text, Err: err}
				}
				set.Spares = append(set.Spares, Pattern{Text: l.Text, File: src.Path, Line: l.N, re: re})
				continue
			}
			wide, anchored := widenAnchors(l.Text)
			pat := Pattern{Text: l.Text, File: src.Path, Line: l.N}
			if !anchored {
				// The pattern is its own prefilter: every text is asked it.
				re, err := compile(l.Text)
				if err != nil {
					return nil, &CompileError{Source: src, Line: l.N, Pattern: l.Text, Err: err}
				}
				pat.re = eager(l.Text, re)
				set.Patterns = append(set.Patterns, pat)
				continue
			}
			// An anchored pattern's prefilter is compiled
			// now, the pattern itself only when a text passes it.
			re, err := checked(l.Text)
			if err != nil {
				return nil, &CompileError{Source: src, Line: l.N, Pattern: l.Text, Err: err}
			}
			pat.re = re
			pre, err := compile(wide)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: widening the anchors of %q for the whole-text prefilter: %w", src.Path, l.N, l.Text, err)
			}
			pat.pre = pre
			set.Patterns = append(set.Patterns, pat)
		}
	}
	return set, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
