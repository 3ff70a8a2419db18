// Package shlex is the one shell lexer of the module. The shell-reading
// gates (fail-closed, pipe-membership, path-dialect, test-hermetic) and the
// coding-agent hook's commit guard read bash source through it, so they all
// agree on what a word, a pipe, a comment or a here-document is.
//
// Lex turns source into a flat token stream: words (with quoting kept in Raw
// and removed in Value), control operators, redirections, comments, newlines
// and here-document bodies, each with its byte offset and 1-based line and
// column. A word's command substitutions ($(…) and `…`) and process
// substitutions (<(…), >(…)) are lexed recursively into Subs. Split groups a
// token list into pipelines of commands, the boundaries a reader of shell
// needs.
//
// The lexer performs no expansion. Where source holds a construct it cannot
// read with certainty — an unterminated quote, substitution or
// here-document, a stray ')' or ';;', a single quote inside arithmetic — Lex
// answers an *Error naming the position, never a best guess.
package shlex

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Kind classifies a token.
type Kind int

// Token kinds.
const (
	// Word is a shell word: a command name, an argument, an assignment, a
	// reserved word, a redirection target or a here-document delimiter.
	Word Kind = iota
	// Op is a control operator: | |& || && ; & ;; ;& ;;& ( ).
	Op
	// Redir is a redirection operator with its optional fd prefix
	// ("2>", "{fd}<", "&>>", "<<-").
	Redir
	// Newline is an unquoted line end that separates commands.
	Newline
	// Comment is a '#' comment up to (not including) its line end.
	Comment
	// Heredoc is a here-document body; Value is the body text, Raw the body
	// plus its closing delimiter line.
	Heredoc
	// Pattern is a case-arm pattern word, or the '(' '|' ')' that frame it.
	Pattern
	// Arith is an arithmetic command (( … )); Value is the expression.
	Arith
)

func (k Kind) String() string {
	switch k {
	case Word:
		return "Word"
	case Op:
		return "Op"
	case Redir:
		return "Redir"
	case Newline:
		return "Newline"
	case Comment:
		return "Comment"
	case Heredoc:
		return "Heredoc"
	case Pattern:
		return "Pattern"
	case Arith:
		return "Arith"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Pos is a position in the source: byte offset, 1-based line, 1-based byte
// column.
type Pos struct {
	Offset, Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// SubKind classifies a nested command list inside a word.
type SubKind int

// Substitution kinds.
const (
	Dollar   SubKind = iota // $( … )
	Backtick                // ` … `
	ProcIn                  // <( … )
	ProcOut                 // >( … )
)

// Sub is a command list nested in a word.
type Sub struct {
	Kind SubKind
	Pos  Pos // of the opening '$', '`', '<' or '>'
	// End is just past the closing ')' of a $( … ) substitution; zero for
	// the other kinds.
	End Pos
	// Quoted reports the substitution sits inside double quotes.
	Quoted bool
	Tokens []Token
}

// Token is one lexeme.
type Token struct {
	Kind Kind
	// Raw is the source text exactly as written (line continuations
	// included).
	Raw string
	// Value is the text with quoting removed and line continuations
	// dropped; expansions stay as written ("$x" reads $x). For Op, Redir,
	// Newline and Comment it equals Raw (a Newline's Value is "\n").
	Value string
	Pos   Pos
	End   Pos // just past the token
	// Quoted reports some part of a word was quoted or escaped.
	Quoted bool
	// Expands reports an unquoted or double-quoted expansion ($, `).
	Expands bool
	// Subs are the command lists nested in the word, in source order.
	Subs []Sub
	// Elems are the elements of an array assignment's "( … )" list, with
	// each comment inside the list as a Comment token in its place.
	Elems []Token
	// Fd is a redirection's explicit fd prefix ("2", "{fd}"), if any.
	Fd string
	// QuotedDelim reports a here-document whose delimiter was quoted (its
	// body is not expanded). Set on the Heredoc token.
	QuotedDelim bool
}

// Error is a refusal: the source holds a construct the lexer cannot read
// with certainty.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg) }

// Lex reads src as bash source. It answers every token in source order, or
// an *Error at the first construct it cannot read.
func Lex(src string) ([]Token, error) {
	lx := &lexer{src: src}
	toks, err := lx.list(endEOF)
	if err == nil && len(lx.pending) > 0 {
		err = lx.errAt(lx.pending[0].at, "here-document delimited by %q has no body (no line end follows)", lx.pending[0].delim)
	}
	lines := lineStarts(src)
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Pos = locate(lines, e.Pos.Offset)
		}
		return nil, err
	}
	fill(lines, toks)
	return toks, nil
}

func lineStarts(src string) []int {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func locate(starts []int, off int) Pos {
	i := sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return Pos{Offset: off, Line: i + 1, Col: off - starts[i] + 1}
}

func fill(starts []int, toks []Token) {
	for i := range toks {
		t := &toks[i]
		t.Pos = locate(starts, t.Pos.Offset)
		t.End = locate(starts, t.End.Offset)
		for j := range t.Subs {
			t.Subs[j].Pos = locate(starts, t.Subs[j].Pos.Offset)
			if t.Subs[j].Kind == Dollar {
				t.Subs[j].End = locate(starts, t.Subs[j].End.Offset)
			}
			fill(starts, t.Subs[j].Tokens)
		}
		fill(starts, t.Elems)
	}
}

type endKind int

const (
	endEOF   endKind = iota
	endParen         // a ')' closes the list
)

type pendingDoc struct {
	delim  string
	strip  bool // <<-
	quoted bool
	at     int
}

type caseFrame struct {
	state int // caseSubject, caseIn, casePattern, caseBody
}

const (
	caseSubject = iota
	caseIn
	casePattern
	caseBody
)

type lexer struct {
	src     string
	i       int
	pending []pendingDoc
}

// assertion A: every construct read without certainty is an *Error at its position.
func (lx *lexer) errAt(off int, format string, args ...any) *Error {
	return &Error{Pos: Pos{Offset: off}, Msg: fmt.Sprintf(format, args...)}
}

func (lx *lexer) peek(k int) byte {
	if lx.i+k < len(lx.src) {
		return lx.src[lx.i+k]
	}
	return 0
}

func (lx *lexer) eof() bool { return lx.i >= len(lx.src) }

// skipBlanks skips blanks and line continuations.
func (lx *lexer) skipBlanks() {
	for !lx.eof() {
		c := lx.src[lx.i]
		switch {
		case c == ' ' || c == '\t':
			lx.i++
		case c == '\\' && lx.peek(1) == '\n':
			lx.i += 2
		default:
			return
		}
	}
}

func isMeta(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '|', '&', ';', '(', ')', '<', '>':
		return true
	}
	return false
}

// reserved words that leave the lexer in command position.
var prefixWords = map[string]bool{
	"if": true, "then": true, "elif": true, "else": true, "do": true,
	"while": true, "until": true, "!": true, "{": true, "time": true,
}

// list lexes a command list up to EOF or, for endParen, the matching ')'
// (which it consumes).
func (lx *lexer) list(end endKind) ([]Token, error) {
	var toks []Token
	cmdStart := true
	depth := 0 // open '(' operators in this list
	var cases []caseFrame
	inTest := false
	for {
		lx.skipBlanks()
		if lx.eof() {
			if end == endParen {
				return nil, lx.errAt(lx.i, "unterminated $( … ): end of input before its ')'")
			}
			if len(cases) > 0 {
				return nil, lx.errAt(lx.i, "unterminated case: end of input before esac")
			}
			if inTest {
				return nil, lx.errAt(lx.i, "unterminated [[ … ]]: end of input before ]]")
			}
			return toks, nil
		}
		start := lx.i
		c := lx.src[lx.i]
		var top *caseFrame
		if len(cases) > 0 {
			top = &cases[len(cases)-1]
		}

		if c == '\n' {
			lx.i++
			toks = append(toks, Token{Kind: Newline, Raw: "\n", Value: "\n", Pos: Pos{Offset: start}, End: Pos{Offset: lx.i}})
			if err := lx.readBodies(&toks); err != nil {
				return nil, err
			}
			if !inTest {
				cmdStart = true
			}
			continue
		}
		if c == '#' {
			j := strings.IndexByte(lx.src[lx.i:], '\n')
			if j < 0 {
				j = len(lx.src) - lx.i
			}
			raw := lx.src[lx.i : lx.i+j]
			lx.i += j
			toks = append(toks, Token{Kind: Comment, Raw: raw, Value: raw, Pos: Pos{Offset: start}, End: Pos{Offset: lx.i}})
			continue
		}

		// Case patterns: ( pat | pat ) — read before the general rules.
		if top != nil && top.state == casePattern {
			if c == '(' || c == '|' || c == ')' {
				lx.i++
				toks = append(toks, Token{Kind: Pattern, Raw: string(c), Value: string(c), Pos: Pos{Offset: start}, End: Pos{Offset: lx.i}})
				if c == ')' {
					top.state = caseBody
					cmdStart = true
				}
				continue
			}
			if isMeta(c) {
				return nil, lx.errAt(start, "unexpected %q in a case pattern", c)
			}
			w, err := lx.word(false)
			if err != nil {
				return nil, err
			}
			if w.Raw == "esac" && !w.Quoted && lastPatternOpen(toks) {
				w.Kind = Word
				toks = append(toks, w)
				cases = cases[:len(cases)-1]
				cmdStart = false
				continue
			}
			w.Kind = Pattern
			toks = append(toks, w)
			continue
		}

		if inTest {
			if c == ']' && lx.peek(1) == ']' && (lx.i+2 >= len(lx.src) || isMeta(lx.src[lx.i+2])) {
				lx.i += 2
				toks = append(toks, Token{Kind: Word, Raw: "]]", Value: "]]", Pos: Pos{Offset: start}, End: Pos{Offset: lx.i}})
				inTest = false
				cmdStart = false
				continue
			}
			w, err := lx.word(true)
			if err != nil {
				return nil, err
			}
			if lx.i == start {
				return nil, lx.errAt(start, "unexpected %q inside [[ … ]]", c)
			}
			toks = append(toks, w)
			continue
		}

		if c == ')' {
			if depth > 0 {
				depth--
				lx.i++
				toks = append(toks, Token{Kind: Op, Raw: ")", Value: ")", Pos: Pos{Offset: start}, End: Pos{Offset: lx.i}})
				cmdStart = false
				continue
			}
			if end == endParen {
				if len(cases) > 0 {
					return nil, lx.errAt(start, "')' closes a $( … ) inside an unfinished case")
				}
				lx.i++
				return toks, nil
			}
			return nil, lx.errAt(start, "unmatched ')'")
		}

		// Arithmetic command (( … )) in command position.
		if cmdStart && c == '(' && lx.peek(1) == '(' {
			body, subs, err := lx.arith(lx.i+2, "))")
			if err != nil {
				return nil, err
			}
			toks = append(toks, Token{Kind: Arith, Raw: lx.src[start:lx.i], Value: body, Subs: subs, Expands: len(subs) > 0, Pos: Pos{Offset: start}, End: Pos{Offset: lx.i}})
			cmdStart = false
			continue
		}

		if op := lx.operator(); op != "" {
			kind := Op
			if op[0] == '<' || op[0] == '>' || strings.HasPrefix(op, "&>") {
				kind = Redir
			}
			if kind == Op {
				switch op {
				case ";;", ";&", ";;&":
					if top == nil || top.state != caseBody {
						return nil, lx.errAt(start, "%q outside a case arm", op)
					}
					top.state = casePattern
				case "(":
					depth++
				}
				cmdStart = true
				toks = append(toks, Token{Kind: Op, Raw: op, Value: op, Pos: Pos{Offset: start}, End: Pos{Offset: lx.i}})
				continue
			}
			t := Token{Kind: Redir, Raw: op, Value: op, Pos: Pos{Offset: start}, End: Pos{Offset: lx.i}}
			toks = append(toks, t)
			if op == "<<" || op == "<<-" {
				if err := lx.heredocDelim(op == "<<-", &toks); err != nil {
					return nil, err
				}
			}
			continue
		}

		w, err := lx.word(false)
		if err != nil {
			return nil, err
		}
		if lx.i == start {
			return nil, lx.errAt(start, "unexpected %q", c)
		}
		// A redirection with an fd prefix: 2>, {fd}<.
		if !w.Quoted && !lx.eof() && (lx.src[lx.i] == '<' || lx.src[lx.i] == '>') && fdPrefix(w.Raw) {
			fd := w.Raw
			if op := lx.operator(); op != "" {
				toks = append(toks, Token{Kind: Redir, Raw: fd + op, Value: fd + op, Fd: fd, Pos: Pos{Offset: start}, End: Pos{Offset: lx.i}})
				if op == "<<" || op == "<<-" {
					if err := lx.heredocDelim(op == "<<-", &toks); err != nil {
						return nil, err
					}
				}
				continue
			}
		}
		toks = append(toks, w)
		plain := !w.Quoted && !w.Expands && w.Elems == nil
		switch {
		case top != nil && top.state == caseSubject:
			top.state = caseIn
			cmdStart = false
		case top != nil && top.state == caseIn:
			if !(plain && w.Raw == "in") {
				return nil, lx.errAt(start, "case subject is not followed by 'in'")
			}
			top.state = casePattern
		case cmdStart && plain && w.Raw == "case":
			cases = append(cases, caseFrame{state: caseSubject})
			cmdStart = false
		case cmdStart && plain && w.Raw == "esac" && top != nil && top.state == caseBody:
			cases = cases[:len(cases)-1]
			cmdStart = false
		case cmdStart && plain && w.Raw == "[[":
			inTest = true
			cmdStart = false
		case cmdStart && plain && prefixWords[w.Raw]:
			cmdStart = true
		case cmdStart && isAssignment(w.Raw):
			cmdStart = true
		default:
			cmdStart = false
		}
	}
}

func lastPatternOpen(toks []Token) bool {
	// esac may close a case only where a pattern would start: right after
	// "in", after ";;"-style operators, or after newlines/comments there.
	for i := len(toks) - 1; i >= 0; i-- {
		switch toks[i].Kind {
		case Newline, Comment, Heredoc:
			continue
		case Op:
			return true
		case Word:
			return toks[i].Raw == "in"
		}
		return false
	}
	return false
}

func fdPrefix(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '{' && s[len(s)-1] == '}' && len(s) > 2 {
		return isName(s[1 : len(s)-1])
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// isAssignment reports a word shaped NAME=…, NAME+=… or NAME[…]=….
func isAssignment(raw string) bool {
	eq := strings.IndexByte(raw, '=')
	if eq <= 0 {
		return false
	}
	lhs := strings.TrimSuffix(raw[:eq], "+")
	if b := strings.IndexByte(lhs, '['); b > 0 && strings.HasSuffix(lhs, "]") {
		lhs = lhs[:b]
	}
	return isName(lhs)
}

// operator reads a control or redirection operator at the cursor, longest
// first, or answers "".
func (lx *lexer) operator() string {
	rest := lx.src[lx.i:]
	for _, op := range operators {
		if strings.HasPrefix(rest, op) {
			// <( and >( are process substitutions, part of a word.
			if (op == "<" || op == ">") && len(rest) > 1 && rest[1] == '(' {
				return ""
			}
			lx.i += len(op)
			return op
		}
	}
	return ""
}

var operators = []string{
	";;&", "&>>", "<<<", "<<-",
	"||", "&&", "|&", ";;", ";&", "&>", ">>", "<<", "<&", ">&", "<>", ">|",
	"|", "&", ";", "(", "<", ">",
}

// heredocDelim reads the delimiter word after << or <<- and queues the body.
func (lx *lexer) heredocDelim(strip bool, toks *[]Token) error {
	lx.skipBlanks()
	if lx.eof() || isMeta(lx.src[lx.i]) {
		return lx.errAt(lx.i, "here-document operator has no delimiter word")
	}
	at := lx.i
	w, err := lx.word(false)
	if err != nil {
		return err
	}
	if len(w.Subs) > 0 {
		return lx.errAt(at, "here-document delimiter holds a command substitution")
	}
	*toks = append(*toks, w)
	lx.pending = append(lx.pending, pendingDoc{delim: w.Value, strip: strip, quoted: w.Quoted, at: at})
	return nil
}

// readBodies reads every queued here-document body after a newline.
func (lx *lexer) readBodies(toks *[]Token) error {
	docs := lx.pending
	lx.pending = nil
	for _, d := range docs {
		start := lx.i
		var body strings.Builder
		closed := false
		for !lx.eof() {
			j := strings.IndexByte(lx.src[lx.i:], '\n')
			var line string
			next := 0
			if j < 0 {
				line = lx.src[lx.i:]
				next = len(lx.src)
			} else {
				line = lx.src[lx.i : lx.i+j]
				next = lx.i + j + 1
			}
			cmp := line
			if d.strip {
				cmp = strings.TrimLeft(line, "\t")
			}
			if cmp == d.delim {
				lx.i = next
				closed = true
				break
			}
			if d.strip {
				body.WriteString(cmp)
			} else {
				body.WriteString(line)
			}
			if j >= 0 {
				body.WriteByte('\n')
			}
			lx.i = next
		}
		if !closed {
			return lx.errAt(d.at, "here-document delimited by %q is not closed before end of input", d.delim)
		}
		t := Token{Kind: Heredoc, Raw: lx.src[start:lx.i], Value: body.String(), QuotedDelim: d.quoted,
			Pos: Pos{Offset: start}, End: Pos{Offset: lx.i}}
		if !d.quoted {
			subs, err := lx.bodySubs(start, lx.i)
			if err != nil {
				return err
			}
			t.Subs = subs
			t.Expands = len(subs) > 0 || strings.ContainsRune(t.Value, '$')
		}
		// The body belongs to the list that read the operator; here that
		// is the list being lexed now unless the operator sat in an outer
		// one, which bash would also read at this newline.
		*toks = append(*toks, t)
	}
	return nil
}

// bodySubs finds the command substitutions of an unquoted here-document
// body lying at src[from:to].
func (lx *lexer) bodySubs(from, to int) ([]Sub, error) {
	save := lx.i
	defer func() { lx.i = save }()
	lx.i = from
	var subs []Sub
	for lx.i < to {
		c := lx.src[lx.i]
		switch {
		case c == '\\':
			lx.i += 2
		case c == '$' || c == '`':
			var sb strings.Builder
			w := &Token{}
			if err := lx.dollarOrTick(&sb, w, true); err != nil {
				return nil, err
			}
			subs = append(subs, w.Subs...)
		default:
			lx.i++
		}
	}
	return subs, nil
}

// word reads one word at the cursor. In test mode ([[ … ]]) the operators
// && || < > ( ) are word text.
func (lx *lexer) word(test bool) (Token, error) {
	start := lx.i
	t := Token{Kind: Word, Pos: Pos{Offset: start}}
	var val strings.Builder
	for !lx.eof() {
		c := lx.src[lx.i]
		if test {
			if c == ' ' || c == '\t' || c == '\n' || c == ';' {
				break
			}
			if c == '&' && lx.peek(1) != '&' && !(lx.i > start && lx.src[lx.i-1] == '&') {
				break
			}
		} else if isMeta(c) {
			if (c == '<' || c == '>') && lx.peek(1) == '(' {
				if err := lx.procSub(&val, &t); err != nil {
					return t, err
				}
				continue
			}
			if c == '(' && lx.i > start {
				// NAME=( … ) array assignment.
				if s := lx.src[start:lx.i]; strings.HasSuffix(s, "=") && isAssignment(s) {
					if err := lx.arrayElems(&t); err != nil {
						return t, err
					}
					val.WriteString(lx.src[start+len(s) : lx.i])
					continue
				}
				// Extended glob: @( ) !( ) +( ) *( ) ?( ).
				if p := lx.src[lx.i-1]; p == '@' || p == '!' || p == '+' || p == '*' || p == '?' {
					if err := lx.extglob(&val); err != nil {
						return t, err
					}
					continue
				}
			}
			break
		}
		switch c {
		case '\\':
			if lx.peek(1) == '\n' {
				lx.i += 2
				continue
			}
			if lx.i+1 >= len(lx.src) {
				val.WriteByte('\\')
				lx.i++
				continue
			}
			t.Quoted = true
			_, n := utf8.DecodeRuneInString(lx.src[lx.i+1:])
			val.WriteString(lx.src[lx.i+1 : lx.i+1+n])
			lx.i += 1 + n
		case '\'':
			// assertion B: quoted text is content; no operator or comment inside it.
			end := strings.IndexByte(lx.src[lx.i+1:], '\'')
			if end < 0 {
				return t, lx.errAt(lx.i, "unterminated single quote")
			}
			t.Quoted = true
			val.WriteString(lx.src[lx.i+1 : lx.i+1+end])
			lx.i += end + 2
		case '"':
			t.Quoted = true
			lx.i++
			if err := lx.dquote(&val, &t); err != nil {
				return t, err
			}
		case '$', '`':
			if c == '$' && lx.peek(1) == '\'' {
				t.Quoted = true
				if err := lx.ansiC(&val); err != nil {
					return t, err
				}
				continue
			}
			if c == '$' && lx.peek(1) == '"' {
				t.Quoted = true
				lx.i += 2
				if err := lx.dquote(&val, &t); err != nil {
					return t, err
				}
				continue
			}
			if err := lx.dollarOrTick(&val, &t, false); err != nil {
				return t, err
			}
		default:
			val.WriteByte(c)
			lx.i++
		}
	}
	t.Raw = lx.src[start:lx.i]
	t.Value = val.String()
	t.End = Pos{Offset: lx.i}
	return t, nil
}

// dquote reads a double-quoted string after its opening quote, through the
// closing one.
func (lx *lexer) dquote(val *strings.Builder, t *Token) error {
	open := lx.i - 1
	for !lx.eof() {
		c := lx.src[lx.i]
		switch c {
		case '"':
			lx.i++
			return nil
		case '\\':
			n := lx.peek(1)
			switch n {
			case '\n':
				lx.i += 2
			case '$', '`', '"', '\\':
				val.WriteByte(n)
				lx.i += 2
			default:
				val.WriteByte('\\')
				lx.i++
			}
		case '$', '`':
			if err := lx.dollarOrTick(val, t, true); err != nil {
				return err
			}
		default:
			val.WriteByte(c)
			lx.i++
		}
	}
	return lx.errAt(open, "unterminated double quote")
}

// dollarOrTick reads an expansion at '$' or '`': $( ), $(( )), ${ }, $[ ],
// $name, or a backtick substitution. Its source text is written to val.
func (lx *lexer) dollarOrTick(val *strings.Builder, t *Token, quoted bool) error {
	start := lx.i
	c := lx.src[lx.i]
	if c == '`' {
		if err := lx.backtick(t, quoted); err != nil {
			return err
		}
		t.Expands = true
		val.WriteString(lx.src[start:lx.i])
		return nil
	}
	switch n := lx.peek(1); {
	case n == '(' && lx.peek(2) == '(':
		_, subs, err := lx.arith(lx.i+3, "))")
		if err != nil {
			return err
		}
		t.Subs = append(t.Subs, subs...)
	case n == '(':
		lx.i += 2
		sub, err := lx.list(endParen)
		if err != nil {
			return err
		}
		// assertion D: End is just past the closing ')'.
		t.Subs = append(t.Subs, Sub{Kind: Dollar, Pos: Pos{Offset: start}, End: Pos{Offset: lx.i}, Quoted: quoted, Tokens: sub})
	case n == '[':
		_, subs, err := lx.arith(lx.i+2, "]")
		if err != nil {
			return err
		}
		t.Subs = append(t.Subs, subs...)
	case n == '{':
		lx.i += 2
		if err := lx.braceParam(t, quoted); err != nil {
			return err
		}
	default:
		lx.i++
		// $name, $1, $@, $? … : the text is copied as is.
	}
	t.Expands = true
	val.WriteString(lx.src[start:lx.i])
	return nil
}

// braceParam reads the inside of ${ … } through its closing brace.
func (lx *lexer) braceParam(t *Token, quoted bool) error {
	open := lx.i - 2
	for !lx.eof() {
		c := lx.src[lx.i]
		switch c {
		case '}':
			lx.i++
			return nil
		case '\\':
			lx.i += 2
		case '\'':
			if quoted {
				lx.i++
				continue
			}
			end := strings.IndexByte(lx.src[lx.i+1:], '\'')
			if end < 0 {
				return lx.errAt(lx.i, "unterminated single quote inside ${ … }")
			}
			lx.i += end + 2
		case '"':
			lx.i++
			var discard strings.Builder
			if err := lx.dquote(&discard, t); err != nil {
				return err
			}
		case '$', '`':
			var discard strings.Builder
			if err := lx.dollarOrTick(&discard, t, quoted); err != nil {
				return err
			}
		default:
			lx.i++
		}
	}
	return lx.errAt(open, "unterminated ${ … }")
}

// arith scans an arithmetic expression from body to its closer ("))" for
// $(( )) and (( )), "]" for $[ ]) with parentheses balanced. Command
// substitutions and double-quoted strings inside it are lexed (their
// substitutions land in subs); a single quote is refused, as bash does.
func (lx *lexer) arith(body int, closer string) (string, []Sub, error) {
	open := lx.i
	depth := 0
	var subs []Sub
	for i := body; i < len(lx.src); i++ {
		c := lx.src[i]
		switch {
		case c == '\\' && i+1 < len(lx.src):
			i++
		case c == '`' || c == '"' || (c == '$' && i+1 < len(lx.src) && (lx.src[i+1] == '(' || lx.src[i+1] == '{')):
			if c == '$' && lx.src[i+1] == '(' && i+2 < len(lx.src) && lx.src[i+2] == '(' {
				depth++ // $(( nested arithmetic: its parens balance here
				i++
				continue
			}
			var discard strings.Builder
			tmp := &Token{}
			lx.i = i
			var err error
			if c == '"' {
				lx.i++
				err = lx.dquote(&discard, tmp)
			} else {
				err = lx.dollarOrTick(&discard, tmp, false)
			}
			if err != nil {
				return "", nil, err
			}
			subs = append(subs, tmp.Subs...)
			i = lx.i - 1
		case c == '\'':
			return "", nil, lx.errAt(i, "a single quote inside arithmetic is beyond this lexer")
		case c == '(':
			depth++
		case c == ')' && closer == "))":
			if depth == 0 {
				if i+1 < len(lx.src) && lx.src[i+1] == ')' {
					lx.i = i + 2
					return lx.src[body:i], subs, nil
				}
				return "", nil, lx.errAt(open, "'((' closes with a single ')': arithmetic or nested subshell is ambiguous")
			}
			depth--
		case c == ')':
			depth--
		case c == ']' && closer == "]" && depth == 0:
			lx.i = i + 1
			return lx.src[body:i], subs, nil
		}
	}
	return "", nil, lx.errAt(open, "unterminated arithmetic expression")
}

// backtick reads a `…` substitution and lexes its unescaped inside.
func (lx *lexer) backtick(t *Token, quoted bool) error {
	open := lx.i
	var inner strings.Builder
	escaped := false
	i := lx.i + 1
	for ; i < len(lx.src); i++ {
		c := lx.src[i]
		if c == '\\' && i+1 < len(lx.src) {
			n := lx.src[i+1]
			if n == '`' || n == '\\' || n == '$' || (quoted && n == '"') {
				inner.WriteByte(n)
				escaped = true
				i++
				continue
			}
			if n == '\n' {
				escaped = true
				i++
				continue
			}
		}
		if c == '`' {
			break
		}
		inner.WriteByte(c)
	}
	if i >= len(lx.src) {
		return lx.errAt(open, "unterminated backtick substitution")
	}
	lx.i = i + 1
	sublx := &lexer{src: inner.String()}
	toks, err := sublx.list(endEOF)
	if err == nil && len(sublx.pending) > 0 {
		err = sublx.errAt(0, "here-document inside a backtick substitution has no body")
	}
	if err != nil {
		e := err.(*Error)
		return lx.errAt(open, "inside backtick substitution: %s", e.Msg)
	}
	// assertion C: positions are exact unless the text needed unescaping;
	// then every inner token carries the backtick's position.
	if escaped {
		pin(toks, open)
	} else {
		shift(toks, open+1)
	}
	t.Subs = append(t.Subs, Sub{Kind: Backtick, Pos: Pos{Offset: open}, Quoted: quoted, Tokens: toks})
	return nil
}

func shift(toks []Token, by int) {
	for i := range toks {
		toks[i].Pos.Offset += by
		toks[i].End.Offset += by
		for j := range toks[i].Subs {
			toks[i].Subs[j].Pos.Offset += by
			if toks[i].Subs[j].Kind == Dollar {
				toks[i].Subs[j].End.Offset += by
			}
			shift(toks[i].Subs[j].Tokens, by)
		}
		shift(toks[i].Elems, by)
	}
}

func pin(toks []Token, at int) {
	for i := range toks {
		toks[i].Pos.Offset = at
		toks[i].End.Offset = at
		for j := range toks[i].Subs {
			toks[i].Subs[j].Pos.Offset = at
			if toks[i].Subs[j].Kind == Dollar {
				toks[i].Subs[j].End.Offset = at
			}
			pin(toks[i].Subs[j].Tokens, at)
		}
		pin(toks[i].Elems, at)
	}
}

// procSub reads <( … ) or >( … ).
func (lx *lexer) procSub(val *strings.Builder, t *Token) error {
	start := lx.i
	kind := ProcIn
	if lx.src[lx.i] == '>' {
		kind = ProcOut
	}
	lx.i += 2
	sub, err := lx.list(endParen)
	if err != nil {
		return err
	}
	t.Subs = append(t.Subs, Sub{Kind: kind, Pos: Pos{Offset: start}, Tokens: sub})
	t.Expands = true
	val.WriteString(lx.src[start:lx.i])
	return nil
}

// arrayElems reads the ( … ) of an array assignment into t.Elems.
func (lx *lexer) arrayElems(t *Token) error {
	open := lx.i
	lx.i++
	for {
		lx.skipBlanks()
		if lx.eof() {
			return lx.errAt(open, "unterminated array assignment")
		}
		c := lx.src[lx.i]
		switch {
		case c == ')':
			lx.i++
			return nil
		case c == '\n':
			lx.i++
			if len(lx.pending) > 0 {
				return lx.errAt(lx.i, "here-document inside an array assignment is beyond this lexer")
			}
		case c == '#':
			start := lx.i
			j := strings.IndexByte(lx.src[lx.i:], '\n')
			if j < 0 {
				lx.i = len(lx.src)
			} else {
				lx.i += j
			}
			raw := lx.src[start:lx.i]
			t.Elems = append(t.Elems, Token{Kind: Comment, Raw: raw, Value: raw, Pos: Pos{Offset: start}, End: Pos{Offset: lx.i}})
		case isMeta(c) && !((c == '<' || c == '>') && lx.peek(1) == '('):
			return lx.errAt(lx.i, "unexpected %q in an array assignment", c)
		default:
			w, err := lx.word(false)
			if err != nil {
				return err
			}
			t.Elems = append(t.Elems, w)
			if w.Expands {
				t.Expands = true
			}
			if w.Quoted {
				t.Quoted = true
			}
		}
	}
}

// extglob reads a ( … ) group of an extended glob pattern as word text.
func (lx *lexer) extglob(val *strings.Builder) error {
	open := lx.i
	depth := 0
	for i := lx.i; i < len(lx.src); i++ {
		switch lx.src[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				val.WriteString(lx.src[open : i+1])
				lx.i = i + 1
				return nil
			}
		case '\n', '\'', '"', '`', '$':
			return lx.errAt(open, "an extended glob holding quotes, expansions or a line end is beyond this lexer")
		}
	}
	return lx.errAt(open, "unterminated extended glob")
}

// ansiC reads $'…' and decodes its escapes.
func (lx *lexer) ansiC(val *strings.Builder) error {
	open := lx.i
	i := lx.i + 2
	for i < len(lx.src) {
		c := lx.src[i]
		if c == '\'' {
			lx.i = i + 1
			return nil
		}
		if c != '\\' || i+1 >= len(lx.src) {
			val.WriteByte(c)
			i++
			continue
		}
		n := lx.src[i+1]
		i += 2
		switch n {
		case 'a':
			val.WriteByte('\a')
		case 'b':
			val.WriteByte('\b')
		case 'e', 'E':
			val.WriteByte(0x1b)
		case 'f':
			val.WriteByte('\f')
		case 'n':
			val.WriteByte('\n')
		case 'r':
			val.WriteByte('\r')
		case 't':
			val.WriteByte('\t')
		case 'v':
			val.WriteByte('\v')
		case '\\', '\'', '"', '?':
			val.WriteByte(n)
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[n]
			v, k := 0, 0
			for k < max && i+k < len(lx.src) && hexVal(lx.src[i+k]) >= 0 {
				v = v*16 + hexVal(lx.src[i+k])
				k++
			}
			if k == 0 {
				val.WriteByte('\\')
				val.WriteByte(n)
				continue
			}
			i += k
			if n == 'x' {
				val.WriteByte(byte(v))
			} else {
				val.WriteRune(rune(v))
			}
		case 'c':
			if i >= len(lx.src) {
				return lx.errAt(open, "unterminated $'…'")
			}
			val.WriteByte(lx.src[i] & 0x1f)
			i++
		default:
			if n >= '0' && n <= '7' {
				v, k := int(n-'0'), 0
				for k < 2 && i+k < len(lx.src) && lx.src[i+k] >= '0' && lx.src[i+k] <= '7' {
					v = v*8 + int(lx.src[i+k]-'0')
					k++
				}
				i += k
				val.WriteByte(byte(v))
				continue
			}
			val.WriteByte('\\')
			val.WriteByte(n)
		}
	}
	return lx.errAt(open, "unterminated $'…'")
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
