package ere

import (
	"math/bits"
	"strconv"
)

// reDupMax is POSIX RE_DUP_MAX: the largest interval bound accepted.
const reDupMax = 255

// maxInsts caps the compiled program. Intervals copy their operand, so the
// cap is what keeps a short pattern from becoming a huge program.
const maxInsts = 20000

// maxNesting caps parenthesis depth so the recursive parser and the
// analyses over the tree stay shallow.
const maxNesting = 1000

type nodeKind uint8

const (
	nSet    nodeKind = iota // one byte out of set
	nBegin                  // ^: subject position 0
	nEnd                    // $: subject end
	nEmpty                  // the empty string (what x{0} leaves)
	nCat                    // subs in sequence
	nAlt                    // any one of subs
	nRepeat                 // subs[0] between min and max times (max < 0: unbounded)
	nGroup                  // parenthesised subs[0]
)

type node struct {
	kind     nodeKind
	set      byteSet
	subs     []*node
	min, max int
	pos      int // pattern offset, for capture-shape errors
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(b byte)      { s[b>>6] |= 1 << (b & 63) }
func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s *byteSet) addRange(lo, hi int) {
	for c := lo; c <= hi; c++ {
		s.add(byte(c))
	}
}
func (s *byteSet) negate() {
	for i := range s {
		s[i] = ^s[i]
	}
}
func (s *byteSet) count() int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2]) + bits.OnesCount64(s[3])
}

// only answers the one byte of a set holding exactly one.
func (s *byteSet) only() byte {
	for w, x := range s {
		if x != 0 {
			return byte(w<<6 + bits.TrailingZeros64(x))
		}
	}
	return 0
}

// The characters a backslash may escape: exactly the ERE specials.
const specials = `^.[$()|*+?{\`

// gnuEscapes names the GNU and Perl operator escapes refused by name.
var gnuEscapes = map[byte]string{
	'w':  "word character",
	'W':  "non-word character",
	's':  "whitespace character",
	'S':  "non-whitespace character",
	'y':  "word boundary",
	'b':  "word boundary",
	'B':  "not a word boundary",
	'<':  "start of word",
	'>':  "end of word",
	'`':  "start of buffer",
	'\'': "end of buffer",
}

type parser struct {
	src    string
	pos    int
	depth  int
	groups []int // offset of every group's '('
}

func parse(src string) (*node, []int, error) {
	p := &parser{src: src}
	if src == "" {
		return nil, nil, p.errAt(KindSyntax, 0, "", "empty pattern")
	}
	n, err := p.alternation()
	if err != nil {
		return nil, nil, err
	}
	if p.pos < len(p.src) { // only a ')' stops the top level early
		return nil, nil, p.errAt(KindSyntax, p.pos, ")", "unmatched right parenthesis")
	}
	return n, p.groups, nil
}

func (p *parser) errAt(k ErrorKind, off int, construct, detail string) *Error {
	return &Error{Kind: k, Construct: construct, Detail: detail, Offset: off}
}

func (p *parser) more() bool { return p.pos < len(p.src) }
func (p *parser) peek() byte { return p.src[p.pos] }

func (p *parser) alternation() (*node, error) {
	start := p.pos
	var branches []*node
	for {
		b, err := p.branch()
		if err != nil {
			return nil, err
		}
		branches = append(branches, b)
		if p.more() && p.peek() == '|' {
			p.pos++
			continue
		}
		break
	}
	if len(branches) == 1 {
		return branches[0], nil
	}
	return &node{kind: nAlt, subs: branches, pos: start}, nil
}

func (p *parser) branch() (*node, error) {
	start := p.pos
	var items []*node
	for p.more() {
		c := p.peek()
		if c == '|' || (c == ')' && p.depth > 0) {
			break
		}
		if c == ')' {
			return nil, p.errAt(KindSyntax, p.pos, ")", "unmatched right parenthesis")
		}
		it, err := p.quantified()
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	if len(items) == 0 {
		if !p.more() && p.depth > 0 && (start == 0 || p.src[start-1] != '|') {
			return nil, p.errAt(KindSyntax, start-1, "(", "unmatched left parenthesis")
		}
		return nil, p.errAt(KindSyntax, start, "|", "empty alternative")
	}
	if len(items) == 1 {
		return items[0], nil
	}
	return &node{kind: nCat, subs: items, pos: start}, nil
}

func isQuant(c byte) bool { return c == '*' || c == '+' || c == '?' || c == '{' }

func (p *parser) quantified() (*node, error) {
	start := p.pos
	c := p.peek()
	if isQuant(c) {
		detail := "quantifier without an operand"
		if c == '{' {
			detail += "; write \\{ for a literal brace"
		}
		return nil, p.errAt(KindSyntax, p.pos, string(c), detail)
	}
	atom, err := p.atom()
	if err != nil {
		return nil, err
	}
	if !p.more() || !isQuant(p.peek()) {
		return atom, nil
	}
	if atom.kind == nBegin || atom.kind == nEnd {
		// POSIX leaves a quantified ^ undefined and reads a quantified $
		// as a repeated assertion; glibc and gawk read the quantifier
		// after either anchor as a literal character. Refused rather
		// than resolved by picking one.
		return nil, p.errAt(KindSyntax, start, p.src[start:p.pos+1], "quantifier after an anchor")
	}
	qpos := p.pos
	lo, hi, err := p.quantifier()
	if err != nil {
		return nil, err
	}
	if p.more() && isQuant(p.peek()) {
		end := p.pos + 1
		return nil, p.errAt(KindSyntax, qpos, p.src[qpos:end], "repeated quantifier")
	}
	return &node{kind: nRepeat, subs: []*node{atom}, min: lo, max: hi, pos: start}, nil
}

// quantifier reads one * + ? or interval at p.pos.
func (p *parser) quantifier() (int, int, error) {
	c := p.peek()
	p.pos++
	switch c {
	case '*':
		return 0, -1, nil
	case '+':
		return 1, -1, nil
	case '?':
		return 0, 1, nil
	}
	// Interval: {n} {n,} {n,m}.
	open := p.pos - 1
	bad := func(detail string) (int, int, error) {
		end := p.pos
		for end < len(p.src) && p.src[end] != '}' && end-open < 16 {
			end++
		}
		if end < len(p.src) && p.src[end] == '}' {
			end++
		}
		return 0, 0, p.errAt(KindSyntax, open, p.src[open:end], detail)
	}
	num := func() (int, bool) {
		st := p.pos
		for p.more() && p.peek() >= '0' && p.peek() <= '9' {
			p.pos++
		}
		if p.pos == st {
			return 0, false
		}
		digits := p.src[st:p.pos]
		if len(digits) > 4 {
			return reDupMax + 1, true
		}
		v, _ := strconv.Atoi(digits)
		return v, true
	}
	lo, ok := num()
	if !ok {
		if p.more() && p.peek() == ',' {
			end := p.pos
			for end < len(p.src) && p.src[end] != '}' && end-open < 16 {
				end++
			}
			if end < len(p.src) {
				end++
			}
			return 0, 0, p.errAt(KindGNUExtension, open, p.src[open:end], "interval without a lower bound")
		}
		return bad("interval without a bound; write \\{ for a literal brace")
	}
	hi := lo
	if p.more() && p.peek() == ',' {
		p.pos++
		if m, ok := num(); ok {
			hi = m
		} else {
			hi = -1
		}
	}
	if !p.more() || p.peek() != '}' {
		return bad("unterminated interval")
	}
	p.pos++
	if lo > reDupMax || hi > reDupMax {
		return 0, 0, p.errAt(KindTooLarge, open, p.src[open:p.pos], "interval bound above RE_DUP_MAX 255")
	}
	if hi >= 0 && hi < lo {
		return 0, 0, p.errAt(KindSyntax, open, p.src[open:p.pos], "interval upper bound below lower bound")
	}
	return lo, hi, nil
}

func (p *parser) atom() (*node, error) {
	start := p.pos
	c := p.peek()
	switch c {
	case '(':
		p.pos++
		p.groups = append(p.groups, start)
		p.depth++
		if p.depth > maxNesting {
			return nil, p.errAt(KindTooLarge, start, "(", "parentheses nested too deeply")
		}
		if p.more() && p.peek() == ')' {
			return nil, p.errAt(KindSyntax, start, "()", "empty group")
		}
		sub, err := p.alternation()
		if err != nil {
			return nil, err
		}
		if !p.more() {
			return nil, p.errAt(KindSyntax, start, "(", "unmatched left parenthesis")
		}
		p.pos++ // ')'
		p.depth--
		return &node{kind: nGroup, subs: []*node{sub}, pos: start}, nil
	case '^':
		p.pos++
		return &node{kind: nBegin, pos: start}, nil
	case '$':
		p.pos++
		return &node{kind: nEnd, pos: start}, nil
	case '.':
		p.pos++
		n := &node{kind: nSet, pos: start}
		n.set.negate()
		return n, nil
	case '[':
		return p.bracket()
	case '\\':
		if p.pos+1 >= len(p.src) {
			return nil, p.errAt(KindSyntax, start, `\`, "trailing backslash")
		}
		e := p.src[p.pos+1]
		con := p.src[p.pos : p.pos+2]
		switch {
		case indexByte(specials, e) >= 0:
			p.pos += 2
			return lit(e, start), nil
		case e >= '1' && e <= '9':
			return nil, p.errAt(KindBackreference, start, con, "")
		case gnuEscapes[e] != "":
			return nil, p.errAt(KindGNUExtension, start, con, gnuEscapes[e])
		default:
			return nil, p.errAt(KindEscape, start, con, "only ^.[$()|*+?{\\ may be escaped")
		}
	}
	p.pos++
	return lit(c, start), nil
}

func lit(c byte, pos int) *node {
	n := &node{kind: nSet, pos: pos}
	n.set.add(c)
	return n
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// classes are the POSIX character classes in the C locale.
var classes = map[string]func(c byte) bool{
	"alnum":  func(c byte) bool { return isAlpha(c) || isDigit(c) },
	"alpha":  isAlpha,
	"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
	"cntrl":  func(c byte) bool { return c < 0x20 || c == 0x7f },
	"digit":  isDigit,
	"graph":  func(c byte) bool { return c > 0x20 && c < 0x7f },
	"lower":  func(c byte) bool { return c >= 'a' && c <= 'z' },
	"print":  func(c byte) bool { return c >= 0x20 && c < 0x7f },
	"punct":  func(c byte) bool { return c > 0x20 && c < 0x7f && !isAlpha(c) && !isDigit(c) },
	"space":  func(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') },
	"upper":  func(c byte) bool { return c >= 'A' && c <= 'Z' },
	"xdigit": func(c byte) bool { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') },
}

func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// bracket parses a bracket expression starting at '['.
func (p *parser) bracket() (*node, error) {
	open := p.pos
	p.pos++
	n := &node{kind: nSet, pos: open}
	negate := false
	if p.more() && p.peek() == '^' {
		negate = true
		p.pos++
	}
	for first := true; ; first = false {
		if !p.more() {
			return nil, p.errAt(KindSyntax, open, "[", "unterminated bracket expression")
		}
		if p.peek() == ']' && !first {
			p.pos++
			break
		}
		elemStart := p.pos
		lo, cls, err := p.bracketElem()
		if err != nil {
			return nil, err
		}
		if cls != nil {
			for c := 0; c < 256; c++ {
				if cls(byte(c)) {
					n.set.add(byte(c))
				}
			}
			if p.rangeFollows() {
				return nil, p.errAt(KindSyntax, elemStart, p.src[elemStart:p.pos+1], "character class as a range endpoint")
			}
			continue
		}
		if !p.rangeFollows() {
			n.set.add(byte(lo))
			continue
		}
		p.pos++ // '-'
		hi, hiCls, err := p.bracketElem()
		if err != nil {
			return nil, err
		}
		if hiCls != nil {
			return nil, p.errAt(KindSyntax, elemStart, p.src[elemStart:p.pos], "character class as a range endpoint")
		}
		if hi < lo {
			return nil, p.errAt(KindSyntax, elemStart, p.src[elemStart:p.pos], "range endpoints out of order")
		}
		if p.rangeFollows() {
			return nil, p.errAt(KindSyntax, elemStart, p.src[elemStart:p.pos+2], "range endpoint shared by two ranges")
		}
		n.set.addRange(lo, hi)
	}
	if negate {
		n.set.negate()
	}
	return n, nil
}

// rangeFollows reports whether a '-' at p.pos makes a range: any '-' that
// is not the last thing in the list.
func (p *parser) rangeFollows() bool {
	return p.pos+1 < len(p.src) && p.src[p.pos] == '-' && p.src[p.pos+1] != ']'
}

// bracketElem reads one element of a bracket list: a byte (returned as
// lo) or a [:class:] (returned as cls).
func (p *parser) bracketElem() (int, func(byte) bool, error) {
	start := p.pos
	c := p.peek()
	if c == '\\' {
		end := min(p.pos+2, len(p.src))
		return 0, nil, p.errAt(KindBracketBackslash, start, p.src[start:end], "POSIX reads it as a literal, GNU tools as an escape")
	}
	if c == '[' && p.pos+1 < len(p.src) {
		switch d := p.src[p.pos+1]; d {
		case ':':
			end := indexFrom(p.src, p.pos+2, ":]")
			if end < 0 {
				return 0, nil, p.errAt(KindSyntax, start, "[:", "unterminated character class")
			}
			name := p.src[p.pos+2 : end]
			cls := classes[name]
			if cls == nil {
				return 0, nil, p.errAt(KindSyntax, start, p.src[start:end+2], "unknown character class")
			}
			p.pos = end + 2
			return 0, cls, nil
		case '.', '=':
			con := p.src[start : start+2]
			if end := indexFrom(p.src, p.pos+2, string(d)+"]"); end >= 0 {
				con = p.src[start : end+2]
			}
			what := "collating symbol"
			if d == '=' {
				what = "equivalence class"
			}
			return 0, nil, p.errAt(KindCollating, start, con, what)
		}
	}
	p.pos++
	return int(c), nil, nil
}

func indexFrom(s string, from int, sub string) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
