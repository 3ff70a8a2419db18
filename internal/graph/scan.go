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
	// match, when set, is the pattern written out by hand: the match
	// starting at i as the engine's submatch offsets (into page), nil when
	// none. The engine's per-attempt cost dominated on short matches.
	match func(page []byte, i int) []int
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

// handLed is l matched by match, its expression kept as the specification.
func handLed(l led, match func(page []byte, i int) []int) led {
	l.match = match
	return l
}

// count answers len(all.FindAllIndex(page, -1)): walk's matches, the
// engine asked for no submatch (which it then answers faster).
func (l led) count(page []byte) int {
	n := 0
	l.walk(page, false, func([]int) { n++ })
	return n
}

// findAll answers what all.FindAllSubmatchIndex(page, -1) answers.
func (l led) findAll(page []byte) [][]int {
	var out [][]int
	l.walk(page, true, func(m []int) { out = append(out, m) })
	return out
}

// walk hands each match to found, its offsets into page (with every
// submatch when sub): the leftmost match at or after the previous one's
// end, each tried only at a position start admits. That is exact when no
// match can begin elsewhere, which is what start must guarantee.
func (l led) walk(page []byte, sub bool, found func([]int)) {
	var re *regexp.Regexp
	if l.match == nil {
		re = l.anchored.Get()
	}
	for i := 0; i < len(page); i++ {
		if !l.start(page, i) {
			continue
		}
		var m []int
		switch {
		case l.match != nil:
			m = l.match(page, i)
		case sub:
			m = shift(re.FindSubmatchIndex(page[i:]), i)
		default:
			m = shift(re.FindIndex(page[i:]), i)
		}
		if m == nil {
			continue
		}
		found(m)
		if m[1] > i {
			i = m[1] - 1
		}
	}
}

// shift moves an engine answer over page[i:] to offsets into page.
func shift(m []int, i int) []int {
	for k := range m {
		if m[k] >= 0 {
			m[k] += i
		}
	}
	return m
}

// isSpace is the engine's \s: tab, newline, form feed, return, space.
func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r' }

// foldHas reports whether page[i:] opens with word, letters compared
// without case (ASCII), answering the offset past it.
func foldHas(page []byte, i int, word string) (int, bool) {
	if len(page)-i < len(word) {
		return 0, false
	}
	for k := 0; k < len(word); k++ {
		if page[i+k]|0x20 != word[k] {
			return 0, false
		}
	}
	return i + len(word), true
}

// matchAttr is attrRe written out: href or src (without case; s may be
// U+017F, which folds to it), blanks, '=', blanks, then a value quoted
// with " or '. Groups: the name, the quoted value, its inside for each
// quote.
func matchAttr(page []byte, i int) []int {
	end, ok := foldHas(page, i, "href")
	if !ok {
		k := i
		switch {
		case k < len(page) && page[k]|0x20 == 's':
			k++
		case bytes.HasPrefix(page[k:], []byte("\u017f")):
			k += 2
		default:
			return nil
		}
		if end, ok = foldHas(page, k, "rc"); !ok {
			return nil
		}
	}
	k := end
	for k < len(page) && isSpace(page[k]) {
		k++
	}
	if k >= len(page) || page[k] != '=' {
		return nil
	}
	k++
	for k < len(page) && isSpace(page[k]) {
		k++
	}
	if k >= len(page) || page[k] != '"' && page[k] != '\'' {
		return nil
	}
	close := bytes.IndexByte(page[k+1:], page[k])
	if close < 0 {
		return nil
	}
	in, out := k+1, k+1+close
	m := []int{i, out + 1, i, end, k, out + 1, -1, -1, -1, -1}
	if page[k] == '"' {
		m[6], m[7] = in, out
	} else {
		m[8], m[9] = in, out
	}
	return m
}

// literalStart admits a position where \b holds before lit, a word.
func literalStart(lit string) func([]byte, int) bool {
	return func(page []byte, i int) bool {
		return (i == 0 || !isWordByte(page[i-1])) && bytes.HasPrefix(page[i:], []byte(lit))
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
