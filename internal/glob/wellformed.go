package glob

import "fmt"

// classNames are the character classes Match knows.
var classNames = map[string]bool{
	"alnum": true, "alpha": true, "ascii": true, "blank": true, "cntrl": true, "digit": true,
	"graph": true, "lower": true, "print": true, "punct": true, "space": true, "upper": true,
	"word": true, "xdigit": true,
}

// Problem answers why pattern is not a well-formed glob, or "" when it is.
// Match reads an unclosed '[' as an ordinary byte, as the shell does, so a
// typo such as "[abc" silently matches only a name holding "[abc"; an
// author's pattern is held to the stricter form instead: every bracket
// expression closes, every "[:", "[=" and "[." inside one closes, a class
// name is one Match knows, and no pattern ends in a lone backslash. A
// literal '[' is written "\[".
func Problem(pattern string) string {
	p := pattern
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			if i+1 >= len(p) {
				return "ends in a lone backslash (write \\\\ for a literal one)"
			}
			i++
		case '[':
			end, msg := bracketClose(p, i)
			if msg != "" {
				return msg
			}
			i = end
		}
	}
	return ""
}

// bracketClose answers the index of the ']' closing the bracket expression
// opening at p[open], or why it does not close.
func bracketClose(p string, open int) (int, string) {
	j := open + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++ // a leading ']' is a member
	}
	for j < len(p) {
		switch c := p[j]; {
		case c == '\\':
			j += 2
		case c == ']':
			return j, ""
		case c == '[' && j+1 < len(p) && (p[j+1] == ':' || p[j+1] == '=' || p[j+1] == '.'):
			d := p[j+1]
			k := j + 2
			for k+1 < len(p) && !(p[k] == d && p[k+1] == ']') {
				k++
			}
			if k+1 >= len(p) {
				return 0, fmt.Sprintf("[%c at byte %d never closes with %c]", d, j+1, d)
			}
			if d == ':' && !classNames[p[j+2:k]] {
				return 0, fmt.Sprintf("[:%s:] is not a character class (the classes are alnum alpha ascii blank cntrl digit graph lower print punct space upper word xdigit)", p[j+2:k])
			}
			j = k + 2
		default:
			j++
		}
	}
	return 0, fmt.Sprintf("the bracket expression opened at byte %d never closes (write \\[ for a literal '[')", open+1)
}
