// Package glob is the one path matcher behind every couples= and trigger=
// token, and the git pathspec matcher mode=staged members select their
// operands with.
//
// Match reads a pattern the way a POSIX shell's case statement does (bash
// in the C locale is the oracle the tests hold it to): '*' and '?' match any
// byte, '/' included, so "**" is no more than "*", with one addition: a
// "**/" opening the pattern or following a '/' also matches zero
// directories, so "docs/**/*.md" selects "docs/index.md" as a git
// ":(glob)" pathspec does; "[...]" is a bracket
// expression with ranges, '!' or '^' negation, "[:class:]", "[=c=]" and
// "[.sym.]"; '\' takes the next byte literally. A bracket that never closes
// is not an error: its '[' is an ordinary byte, as in the shell. Matching is
// byte-wise and case-sensitive, and a NUL byte, which no shell word can
// carry, is an ordinary byte. Extended patterns ("+(...)" and the like) are
// not recognised: the shell's case statement leaves them off, and no couples
// token can spell a parenthesis.
//
// Pathspec reads a pattern the way git reads a default (non-":(glob)")
// pathspec: the path itself or anything under it as a directory, or a
// wildmatch in which '*' also crosses '/'.
//
// The package holds no state; every function is safe for concurrent use.
package glob

import "strings"

// eop stands for "past the end of the pattern" in the scanners below, so a
// NUL byte inside a pattern stays an ordinary byte.
const eop = -1

func at(p string, i int) int {
	if i >= 0 && i < len(p) {
		return int(p[i])
	}
	return eop
}

// Match reports whether name matches pattern under shell case semantics.
func Match(pattern, name string) bool {
	// assertion F: the shell's case matching, byte-wise, '*' and '?' crossing '/'.
	m := matcher{p: pattern, s: name}
	if strings.Count(pattern, "*") > 1 {
		m.limit = make([]int, len(pattern)+1)
		for i := range m.limit {
			m.limit[i] = len(name)
		}
	}
	return m.match(0, 0)
}

// HasMeta reports whether pattern holds a byte the matcher treats
// specially ('*', '?', '[' or '\'). A pattern without one matches exactly
// the name equal to it.
func HasMeta(pattern string) bool {
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '*', '?', '[', '\\':
			return true
		}
	}
	return false
}

// globstarAt reports whether the star at p[i] opens a "**/" that is a
// whole segment: at the pattern's start or right after a '/'. The caller
// reaches p[i] only as a live star (never escaped, never inside a
// bracket), so the test reads bytes only.
func globstarAt(p string, i int) bool {
	return strings.HasPrefix(p[i:], "**/") && (i == 0 || p[i-1] == '/')
}

type matcher struct {
	p, s string
	// limit[i] bounds the name positions worth trying for the star whose
	// remainder starts at pattern index i: every start at or after it is
	// already known to fail. Each star then scans each name position at
	// most once over the whole match, so several stars cost time
	// proportional to pattern length times name length. It is allocated
	// only for a pattern with more than one star, where a star can be
	// reached again.
	limit []int
}

func (m *matcher) match(pi, si int) bool {
	p, s := m.p, m.s
	for pi < len(p) {
		c := p[pi]
		pi++
		switch c {
		case '?':
			if si >= len(s) {
				return false
			}
			si++
		case '\\':
			if pi == len(p) {
				// A trailing backslash stands for itself, and only as the
				// name's last byte.
				return si == len(s)-1 && s[si] == '\\'
			}
			if si >= len(s) || s[si] != p[pi] {
				return false
			}
			pi++
			si++
		case '*':
			// assertion F: a "**/" opening the pattern or a segment may
			// also stand for no directory at all.
			if globstarAt(p, pi-1) && m.match(pi+2, si) {
				return true
			}
			// A run of '*' and '?' is one star that must consume one
			// byte per '?'.
			for pi < len(p) && (p[pi] == '*' || p[pi] == '?') {
				if p[pi] == '?' {
					if si >= len(s) {
						return false
					}
					si++
				}
				pi++
			}
			if pi == len(p) {
				return true
			}
			// The shell only tries the rest of the pattern at a byte that
			// can start it. An escaped byte is looked through, so a star
			// followed by a lone trailing backslash never matches.
			first, filter := at(p, pi), p[pi] != '['
			if first == '\\' {
				first = at(p, pi+1)
				if first == eop {
					return false
				}
			}
			end := len(s)
			if m.limit != nil {
				end = m.limit[pi]
			}
			for k := si; k < end; k++ {
				if filter && int(s[k]) != first {
					continue
				}
				if m.match(pi, k) {
					return true
				}
			}
			if m.limit != nil && si < m.limit[pi] {
				m.limit[pi] = si
			}
			return false
		case '[':
			if si >= len(s) {
				return false
			}
			next, ok := bracket(p, pi, s[si])
			if !ok {
				return false
			}
			pi = next
			si++
		default:
			if si >= len(s) || s[si] != c {
				return false
			}
			si++
		}
	}
	return si == len(s)
}

// bracket matches byte t against the bracket expression whose '[' sits just
// before p[i]. It answers where the pattern resumes and whether t matched.
// Where the expression never closes, the '[' is an ordinary byte: t
// matches only if it is '[' itself, and the pattern resumes right after it.
//
// The scan follows the shell's own, quirks included: which ']' closes the
// expression can depend on whether t matched an earlier member, so the
// resume point is computed per byte rather than once per pattern.
func bracket(p string, i int, t byte) (int, bool) {
	save := i
	test := int(t)
	unclosed := func() (int, bool) {
		if t == '[' {
			return save, true
		}
		return 0, false
	}
	neg := false
	if c := at(p, i); c == '!' || c == '^' {
		neg = true
		i++
	}
	c := at(p, i)
	i++
	for {
		// [=c=]: one byte's equivalence class, which in the C locale is
		// the byte alone.
		if c == '[' && at(p, i) == '=' && at(p, i+1) != eop && at(p, i+2) == '=' && at(p, i+3) == ']' {
			eq := at(p, i+1)
			i += 4
			if eq == test {
				return skipMatched(p, i, neg, unclosed)
			}
			c = at(p, i)
			i++
			if c == eop {
				return unclosed()
			}
			continue
		}
		// [:name:]: a character class. A name no class carries matches
		// nothing; a "[:" with no ":]" after it drops the '['.
		if c == '[' && at(p, i) == ':' {
			hit := false
			if close := classClose(p, i+1); close >= 0 {
				hit = classMatch(p[i+1:close], t)
				i = close + 2
			}
			if hit {
				return skipMatched(p, i, neg, unclosed)
			}
			c = at(p, i)
			i++
			if c == eop {
				return unclosed()
			}
			if c == ']' {
				break
			}
			continue
		}
		lo, hi := c, c
		// [.sym.]: a collating symbol, usable as a range end point. An
		// unknown symbol matches nothing, even as a range's start.
		if c == '[' && at(p, i) == '.' {
			var v int
			v, i = collatingSymbol(p, i+1)
			lo = v
			if v == eop {
				lo = (test + 1) & 0xff
			}
		}
		if c == '\\' {
			if at(p, i) == eop {
				return 0, false
			}
			lo = at(p, i)
			i++
		}
		if c == eop {
			return unclosed()
		}
		hi = lo
		c = at(p, i)
		i++
		if c == eop {
			return unclosed()
		}
		isRange := false
		if c == '-' && at(p, i) != ']' {
			hi = at(p, i)
			i++
			if hi == '\\' {
				hi = at(p, i)
				i++
			}
			if hi == eop {
				// A range running off the pattern's end fails outright;
				// the '[' does not fall back to an ordinary byte.
				return 0, false
			}
			if hi == '[' && at(p, i) == '.' {
				var v int
				v, i = collatingSymbol(p, i+1)
				hi = v
				if v == eop {
					hi = (test - 1) & 0xff
				}
			}
			c = at(p, i)
			i++
			if lo > hi {
				// A reversed range is void; the rest of the expression
				// still counts.
				if c == ']' {
					break
				}
				continue
			}
			isRange = true
		}
		if (!isRange && test == lo) || (isRange && test >= lo && test <= hi) {
			// Resume the skip at the byte read ahead of this member.
			return skipMatched(p, i-1, neg, unclosed)
		}
		if c == ']' {
			break
		}
	}
	if neg {
		return i, true
	}
	return 0, false
}

// classClose finds the ':' of the first ":]" at or after index from.
func classClose(p string, from int) int {
	for k := from; k+1 < len(p); k++ {
		if p[k] == ':' && p[k+1] == ']' {
			return k
		}
	}
	return -1
}

// collatingSymbol reads the symbol name starting at p[from] up to ".]". It
// answers the byte the name stands for (eop for an unknown or unterminated
// name) and the index after the ".]" (len(p) when there is none).
func collatingSymbol(p string, from int) (int, int) {
	for k := from; k+1 < len(p); k++ {
		if p[k] == '.' && p[k+1] == ']' {
			return symbolByte(p[from:k]), k + 2
		}
	}
	return eop, len(p)
}

// skipMatched finds where the pattern resumes after a bracket expression
// whose member already matched, scanning from p[i] for the closing ']'.
// The shell's skip treats "[:" and "[=" as a nested class that a ']' ends
// only right after its own delimiter (any other ']' closes the whole
// expression), and "[." as running to its ".]".
func skipMatched(p string, i int, neg bool, unclosed func() (int, bool)) (int, bool) {
	k := i
	for {
		if k >= len(p) {
			return unclosed()
		}
		ch := p[k]
		k++
		switch {
		case ch == '\\':
			if k >= len(p) {
				return 0, false
			}
			k++
		case ch == ']':
			if neg {
				return 0, false
			}
			return k, true
		case ch == '[' && at(p, k) == '.':
			_, k = collatingSymbol(p, k+1)
		case ch == '[' && (at(p, k) == ':' || at(p, k) == '='):
			d := p[k]
			k++
			// The byte after the delimiter is its own predecessor, so
			// "[:]" does not close the nested class.
			prev := at(p, k)
			nested := true
			for nested {
				if k >= len(p) {
					return unclosed()
				}
				ch := p[k]
				k++
				switch {
				case ch == '\\':
					if k >= len(p) {
						return 0, false
					}
					k++
					prev = '\\'
				case ch == ']':
					if prev != int(d) {
						if neg {
							return 0, false
						}
						return k, true
					}
					nested = false
				default:
					prev = int(ch)
				}
			}
		}
	}
}

// classMatch reports whether t belongs to the named class in the C locale.
// An unknown name matches nothing.
func classMatch(name string, t byte) bool {
	switch name {
	case "alnum":
		return isAlpha(t) || isDigit(t)
	case "alpha":
		return isAlpha(t)
	case "ascii":
		return t < 0x80
	case "blank":
		return t == ' ' || t == '\t'
	case "cntrl":
		return t < 0x20 || t == 0x7f
	case "digit":
		return isDigit(t)
	case "graph":
		return t > 0x20 && t < 0x7f
	case "lower":
		return t >= 'a' && t <= 'z'
	case "print":
		return t >= 0x20 && t < 0x7f
	case "punct":
		return t > 0x20 && t < 0x7f && !isAlpha(t) && !isDigit(t)
	case "space":
		return t == ' ' || (t >= '\t' && t <= '\r')
	case "upper":
		return t >= 'A' && t <= 'Z'
	case "word":
		return isAlpha(t) || isDigit(t) || t == '_'
	case "xdigit":
		return isDigit(t) || (t >= 'a' && t <= 'f') || (t >= 'A' && t <= 'F')
	}
	return false
}

func isAlpha(t byte) bool { return (t >= 'a' && t <= 'z') || (t >= 'A' && t <= 'Z') }
func isDigit(t byte) bool { return t >= '0' && t <= '9' }

// symbolByte answers the byte a collating-symbol name stands for: a single
// byte stands for itself, and the portable character set's names stand for
// their characters. Anything else is eop.
func symbolByte(name string) int {
	if len(name) == 1 {
		return int(name[0])
	}
	if b, ok := symbolNames(name); ok {
		return int(b)
	}
	return eop
}

// symbolNames answers the byte a portable-character-set name stands for,
// as bash in the C locale knows them.
func symbolNames(name string) (byte, bool) {
	switch name {
	case "NUL":
		return 0, true
	case "SOH":
		return 1, true
	case "STX":
		return 2, true
	case "ETX":
		return 3, true
	case "EOT":
		return 4, true
	case "ENQ":
		return 5, true
	case "ACK":
		return 6, true
	case "alert":
		return 7, true
	case "backspace", "BS":
		return 8, true
	case "tab", "HT":
		return 9, true
	case "newline", "LF":
		return 10, true
	case "vertical-tab", "VT":
		return 11, true
	case "form-feed", "FF":
		return 12, true
	case "carriage-return", "CR":
		return 13, true
	case "SO":
		return 14, true
	case "SI":
		return 15, true
	case "DLE":
		return 16, true
	case "DC1":
		return 17, true
	case "DC2":
		return 18, true
	case "DC3":
		return 19, true
	case "DC4":
		return 20, true
	case "NAK":
		return 21, true
	case "SYN":
		return 22, true
	case "ETB":
		return 23, true
	case "CAN":
		return 24, true
	case "EM":
		return 25, true
	case "SUB":
		return 26, true
	case "ESC":
		return 27, true
	case "IS4", "FS":
		return 28, true
	case "IS3", "GS":
		return 29, true
	case "IS2", "RS":
		return 30, true
	case "IS1", "US":
		return 31, true
	case "space":
		return ' ', true
	case "exclamation-mark":
		return '!', true
	case "quotation-mark":
		return '"', true
	case "number-sign":
		return '#', true
	case "dollar-sign":
		return '$', true
	case "percent-sign":
		return '%', true
	case "ampersand":
		return '&', true
	case "apostrophe":
		return '\'', true
	case "left-parenthesis":
		return '(', true
	case "right-parenthesis":
		return ')', true
	case "asterisk":
		return '*', true
	case "plus-sign":
		return '+', true
	case "comma":
		return ',', true
	case "hyphen", "hyphen-minus":
		return '-', true
	case "period", "full-stop":
		return '.', true
	case "slash", "solidus":
		return '/', true
	case "zero":
		return '0', true
	case "one":
		return '1', true
	case "two":
		return '2', true
	case "three":
		return '3', true
	case "four":
		return '4', true
	case "five":
		return '5', true
	case "six":
		return '6', true
	case "seven":
		return '7', true
	case "eight":
		return '8', true
	case "nine":
		return '9', true
	case "colon":
		return ':', true
	case "semicolon":
		return ';', true
	case "less-than-sign":
		return '<', true
	case "equals-sign":
		return '=', true
	case "greater-than-sign":
		return '>', true
	case "question-mark":
		return '?', true
	case "commercial-at":
		return '@', true
	case "left-square-bracket":
		return '[', true
	case "backslash", "reverse-solidus":
		return '\\', true
	case "right-square-bracket":
		return ']', true
	case "circumflex", "circumflex-accent":
		return '^', true
	case "underscore":
		return '_', true
	case "grave-accent":
		return '`', true
	case "left-brace", "left-curly-bracket":
		return '{', true
	case "vertical-line":
		return '|', true
	case "right-brace", "right-curly-bracket":
		return '}', true
	case "tilde":
		return '~', true
	case "DEL":
		return 0x7f, true
	}
	return 0, false
}
