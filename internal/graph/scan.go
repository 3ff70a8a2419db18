package graph

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/gate-sdk/gates/internal/lazyre"
)

// led is a pattern whose every match starts where a cheap test says one
// may: the page's patterns each open on a word or a line start, so the
// engine is tried only there, anchored, instead of at every byte (Go's
// engine ran at about 12 MB/s over a page this way). all keeps the
// original expression as the specification the fuzz test holds led to.
type led struct {
	all      *lazyre.RE // the pattern as a whole-page search
	anchored *lazyre.RE // the same pattern behind \A
	start    func(page []byte, i int) bool
}

// newLed compiles expr both ways. A leading \b is left to start: behind
// \A the engine would judge it against the slice's edge, not the byte
// before the match.
func newLed(expr string, start func(page []byte, i int) bool) led {
	flags, body := "", expr
	// A leading flag group stays in front of the anchor.
	if len(body) > 2 && body[0] == '(' && body[1] == '?' {
		if end := strings.IndexByte(body, ')'); end > 0 {
			flags, body = body[:end+1], body[end+1:]
		}
	}
	body = strings.TrimPrefix(body, `\b`)
	return led{all: lazyre.New(expr), anchored: lazyre.New(flags + `\A(?:` + body + `)`), start: start}
}

// count answers len(all.FindAllIndex(page, -1)): walk's matches, the
// engine asked for no submatch (which it then answers faster).
func (l led) count(page []byte) int {
	n := 0
	l.walk(page, func(re *regexp.Regexp, rest []byte) []int { return re.FindIndex(rest) }, func([]int) { n++ })
	return n
}

// findAll answers what all.FindAllSubmatchIndex(page, -1) answers.
func (l led) findAll(page []byte) [][]int {
	var out [][]int
	l.walk(page, func(re *regexp.Regexp, rest []byte) []int { return re.FindSubmatchIndex(rest) }, func(m []int) { out = append(out, m) })
	return out
}

// walk hands each match to found, its offsets into page: the leftmost
// match at or after the previous one's end, each tried (by find, over the
// rest of the page) only at a position start admits. That is exact when
// no match can begin elsewhere, which is what start must guarantee.
func (l led) walk(page []byte, find func(re *regexp.Regexp, rest []byte) []int, found func([]int)) {
	re := l.anchored.Get()
	for i := 0; i < len(page); i++ {
		if !l.start(page, i) {
			continue
		}
		m := find(re, page[i:])
		if m == nil {
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += i
			}
		}
		found(m)
		if m[1] > i {
			i = m[1] - 1
		}
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// wordStart admits a position where \b holds before one of the bytes in
// firsts, all of them word bytes. A pattern matched without case may also
// begin with a rune folding to one of them that is no ASCII word byte
// (U+017F folds to s): \b then holds only after a word byte, and those
// runes are given as folds.
func wordStart(firsts string, folds ...string) func([]byte, int) bool {
	return func(page []byte, i int) bool {
		prevWord := i > 0 && isWordByte(page[i-1])
		if strings.IndexByte(firsts, page[i]) >= 0 {
			return !prevWord
		}
		for _, f := range folds {
			if prevWord && bytes.HasPrefix(page[i:], []byte(f)) {
				return true
			}
		}
		return false
	}
}

// lineStart admits the first byte of every line.
func lineStart(page []byte, i int) bool { return i == 0 || page[i-1] == '\n' }
