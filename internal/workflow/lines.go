package workflow

import (
	"strings"
	"unicode/utf8"
)

// srcLine is one physical line of a file, cut where the YAML parser breaks
// lines (LF, CRLF, lone CR, NEL, LS and PS), without its terminator.
type srcLine struct {
	text    string
	indent  int  // leading spaces
	blank   bool // nothing but blanks
	comment bool // first non-blank byte is '#'
}

const bom = "\ufeff"

// splitLines cuts data into the parser's lines. A leading byte-order mark
// is dropped: the parser skips it before counting columns.
func splitLines(data []byte) []srcLine {
	s := strings.TrimPrefix(string(data), bom)
	out := make([]srcLine, 0, strings.Count(s, "\n")+1)
	start := 0
	add := func(end int) {
		t := s[start:end]
		n := 0
		for n < len(t) && t[n] == ' ' {
			n++
		}
		rest := strings.TrimLeft(t[n:], " \t")
		out = append(out, srcLine{text: t, indent: n, blank: rest == "", comment: strings.HasPrefix(rest, "#")})
	}
	for i := 0; i < len(s); {
		// Only these bytes open a break (\r, \n, U+0085's C2, U+2028's
		// and U+2029's E2); the rest are stepped over without a call.
		if c := s[i]; c != '\n' && c != '\r' && c != 0xC2 && c != 0xE2 {
			i++
			continue
		}
		w := breakWidth(s, i)
		if w == 0 {
			i++
			continue
		}
		add(i)
		i += w
		start = i
	}
	if start < len(s) {
		add(len(s))
	}
	return out
}

// breakWidth answers the byte length of the line break at s[i], 0 when
// there is none.
func breakWidth(s string, i int) int {
	switch {
	case s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n':
		return 2
	case s[i] == '\r' || s[i] == '\n':
		return 1
	case strings.HasPrefix(s[i:], "\u0085"):
		return 2
	case strings.HasPrefix(s[i:], "\u2028"), strings.HasPrefix(s[i:], "\u2029"):
		return 3
	}
	return 0
}

// byteCol answers the byte offset on text of the parser's 1-based
// character column col (the parser counts characters, not bytes), or
// len(text) when the line is shorter.
func byteCol(text string, col int) int {
	i := 0
	for c := 1; c < col && i < len(text); c++ {
		_, w := utf8.DecodeRuneInString(text[i:])
		i += w
	}
	return i
}
