package workflow

import "strings"

// srcLine is one physical line of a file.
type srcLine struct {
	text    string // without its line terminator
	indent  int    // leading spaces
	blank   bool   // nothing but blanks
	comment bool   // first non-blank byte is '#'
}

func splitLines(data []byte) []srcLine {
	s := string(data)
	s = strings.TrimSuffix(s, "\n")
	if s == "" && len(data) == 0 {
		return nil
	}
	raw := strings.Split(s, "\n")
	out := make([]srcLine, len(raw))
	for i, t := range raw {
		t = strings.TrimSuffix(t, "\r")
		n := 0
		for n < len(t) && t[n] == ' ' {
			n++
		}
		rest := strings.TrimLeft(t[n:], " \t")
		out[i] = srcLine{text: t, indent: n, blank: rest == "", comment: strings.HasPrefix(rest, "#")}
	}
	return out
}

// isSpace reports a YAML white space byte.
func isSpace(b byte) bool { return b == ' ' || b == '\t' }

// stripComment drops a trailing YAML comment from a value and trims it.
// A quoted scalar keeps a '#' inside its quotes, a flow collection keeps
// one inside a quoted member, and a plain scalar ends at the first '#'
// that follows white space.
func stripComment(v string) string {
	v = strings.TrimSpace(v)
	if v == "" || v[0] == '#' {
		return ""
	}
	switch v[0] {
	case '\'', '"':
		end, ok := quoteEnd(v)
		if !ok {
			return v
		}
		rest := v[end:]
		if i := commentStart(rest); i >= 0 {
			rest = rest[:i]
		}
		return strings.TrimSpace(v[:end] + rest)
	case '[', '{':
		var q byte
		for i := 1; i < len(v); i++ {
			var quoted bool
			if q, i, quoted = flowQuote(v, i, q); quoted {
				continue
			}
			switch c := v[i]; {
			case c == '#' && isSpace(v[i-1]):
				return strings.TrimSpace(v[:i])
			}
		}
		return v
	}
	if i := commentStart(v); i >= 0 {
		return strings.TrimSpace(v[:i])
	}
	return v
}

// flowQuote steps a flow collection's quote state over s[i]. It answers
// the new state, the index the scan continues from, and whether s[i] was
// taken by quoting: inside a quoted scalar (where ” and \" escape the
// quote), or opening one after a flow indicator. A quote anywhere else is
// plain text, taken too, since no structural byte is a quote.
func flowQuote(s string, i int, q byte) (byte, int, bool) {
	c := s[i]
	switch {
	case q != 0:
		if c == q {
			if q == '\'' && i+1 < len(s) && s[i+1] == '\'' {
				return q, i + 1, true
			}
			return 0, i, true
		}
		if q == '"' && c == '\\' {
			return q, i + 1, true
		}
		return q, i, true
	case c == '\'' || c == '"':
		if p := prevNonSpace(s, i); p == '[' || p == '{' || p == ',' || p == ':' {
			return c, i, true
		}
		return 0, i, true
	}
	return 0, i, false
}

func prevNonSpace(s string, i int) byte {
	for j := i - 1; j >= 0; j-- {
		if !isSpace(s[j]) {
			return s[j]
		}
	}
	return 0
}

// commentStart answers the index of the first '#' preceded by white space
// (or at the start), or -1.
func commentStart(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || isSpace(s[i-1])) {
			return i
		}
	}
	return -1
}

// quoteEnd answers the index just past the closing quote of the quoted
// scalar v opens, and false when the line never closes it.
func quoteEnd(v string) (int, bool) {
	q := v[0]
	for i := 1; i < len(v); i++ {
		switch {
		case q == '"' && v[i] == '\\':
			i++
		case v[i] == q:
			if q == '\'' && i+1 < len(v) && v[i+1] == '\'' {
				i++
				continue
			}
			return i + 1, true
		}
	}
	return 0, false
}

// unquote answers a scalar's text with surrounding quotes removed (a doubled quote
// read as one in a single-quoted one). A double-quoted scalar's escapes are kept
// as written; escaped reports whether it carried one.
func unquote(v string) (text string, escaped bool) {
	if len(v) < 2 {
		return v, false
	}
	switch v[0] {
	case '\'':
		if end, ok := quoteEnd(v); ok && end == len(v) {
			return strings.ReplaceAll(v[1:end-1], "''", "'"), false
		}
	case '"':
		if end, ok := quoteEnd(v); ok && end == len(v) {
			inner := v[1 : end-1]
			return inner, strings.Contains(inner, `\`)
		}
	}
	return v, false
}

// scalarValue answers a one-line value as a plain string: comment
// stripped, quotes removed.
func scalarValue(v string) string {
	t, _ := unquote(stripComment(v))
	return t
}

// splitKey splits a "key: rest" line body. key is unquoted; ok is false
// when s does not open with a mapping key.
func splitKey(s string) (key, rest string, ok bool) {
	if s == "" {
		return "", "", false
	}
	switch s[0] {
	case '"', '\'':
		end, closed := quoteEnd(s)
		if !closed || end >= len(s) || s[end] != ':' || (end+1 < len(s) && !isSpace(s[end+1])) {
			return "", "", false
		}
		k, _ := unquote(s[:end])
		return k, strings.TrimLeft(s[end+1:], " \t"), true
	case '#', '-', '[', '{', '|', '>', '&', '*', '!', '%', '@', '`', ',', '?', ':':
		if s[0] != '-' || len(s) < 2 || isSpace(s[1]) {
			return "", "", false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '#' && i > 0 && isSpace(s[i-1]) {
			return "", "", false
		}
		if c == ':' && (i+1 == len(s) || isSpace(s[i+1])) {
			k := strings.TrimRight(s[:i], " \t")
			if k == "" {
				return "", "", false
			}
			return k, strings.TrimLeft(s[i+1:], " \t"), true
		}
	}
	return "", "", false
}

// flowItems splits the inside of a one-line flow collection on its
// top-level commas, honouring quotes and nested brackets. ok is false when
// s is not a closed "[...]" or "{...}".
func flowItems(s string) (items []string, ok bool) {
	s = strings.TrimSpace(s)
	if len(s) < 2 {
		return nil, false
	}
	open, want := s[0], byte(']')
	if open == '{' {
		want = '}'
	} else if open != '[' {
		return nil, false
	}
	depth, start := 0, 1
	var q byte
	for i := 1; i < len(s); i++ {
		var quoted bool
		if q, i, quoted = flowQuote(s, i, q); quoted {
			continue
		}
		switch c := s[i]; {
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			if depth == 0 {
				if c != want || strings.TrimSpace(s[i+1:]) != "" {
					return nil, false
				}
				if t := strings.TrimSpace(s[start:i]); t != "" {
					items = append(items, t)
				}
				return items, true
			}
			depth--
		case c == ',' && depth == 0:
			items = append(items, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return nil, false
}

// flowPair splits one flow-mapping member "key: value".
func flowPair(item string) (key, value string) {
	if k, rest, ok := splitKey(item); ok {
		return k, strings.TrimSpace(rest)
	}
	// "key:value" without a space is legal inside a flow mapping only after
	// a quoted key; anything else is a key with no value.
	t, _ := unquote(item)
	return t, ""
}
