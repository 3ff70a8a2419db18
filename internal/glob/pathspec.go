package glob

import "strings"

// Pathspec reports whether path is selected by spec read as a git pathspec
// in its default form (no ":(...)" magic, which is not recognised here):
//
//   - spec names path itself, or a directory path sits under (spec "docs"
//     or "docs/" selects "docs/a.md");
//   - otherwise, where spec holds a wildcard ('*', '?', '[' or '\'), spec
//     is a wildmatch pattern over the whole path in which '*' and '?' cross
//     '/' and "**" is no more than "*", except that a "**/" opening the
//     spec or a segment also matches zero directories, as in Match.
//
// A leading "./" is dropped, and "." selects every path. Both spec and path
// are repository-relative with '/' separators.
func Pathspec(spec, path string) bool {
	for strings.HasPrefix(spec, "./") {
		spec = spec[2:]
	}
	if spec == "" || spec == "." {
		return true
	}
	// assertion G: the path itself or a directory above it, else a wildmatch.
	if strings.HasPrefix(path, spec) {
		if len(path) == len(spec) || spec[len(spec)-1] == '/' || path[len(spec)] == '/' {
			return true
		}
	}
	if !HasMeta(spec) {
		return false
	}
	return wild(spec, 0, path, 0) == wmMatch
}

// Outcomes of one wildmatch attempt. The two aborts let a star give up
// early: once the text runs out under it, no later start can do better.
const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
)

// wild matches p[pi:] against s[si:] with git's wildmatch rules and no
// path-name flag. A malformed bracket expression (unclosed, or naming an
// unknown class) makes the whole match fail rather than reading '['
// literally, as git does.
func wild(p string, pi int, s string, si int) int {
	for ; pi < len(p); pi, si = pi+1, si+1 {
		pc := p[pi]
		if si >= len(s) && pc != '*' {
			return wmAbortAll
		}
		switch pc {
		case '\\':
			pi++
			if pi >= len(p) || s[si] != p[pi] {
				return wmNoMatch
			}
		case '?':
		case '*':
			// assertion G: "**/" as a whole segment also matches no
			// directory, the one rule Match keeps too.
			if globstarAt(p, pi) && wild(p, pi+3, s, si) == wmMatch {
				return wmMatch
			}
			for pi+1 < len(p) && p[pi+1] == '*' {
				pi++
			}
			pi++
			if pi == len(p) {
				return wmMatch
			}
			for ; si < len(s); si++ {
				if r := wild(p, pi, s, si); r != wmNoMatch {
					return r
				}
			}
			return wmAbortAll
		case '[':
			next, r := wildBracket(p, pi+1, s[si])
			if r != wmMatch {
				return r
			}
			pi = next
		default:
			if s[si] != pc {
				return wmNoMatch
			}
		}
	}
	if si < len(s) {
		return wmNoMatch
	}
	return wmMatch
}

// wildBracket matches byte t against the bracket expression starting at
// p[i] (just after its '['). It answers the index of the closing ']' and
// wmMatch, or wmNoMatch, or wmAbortAll for a malformed expression.
func wildBracket(p string, i int, t byte) (int, int) {
	tc := int(t)
	pc := at(p, i)
	neg := pc == '!' || pc == '^'
	if neg {
		i++
		pc = at(p, i)
	}
	prev := eop
	matched := false
	for {
		switch {
		case pc == eop:
			return 0, wmAbortAll
		case pc == '\\':
			i++
			pc = at(p, i)
			if pc == eop {
				return 0, wmAbortAll
			}
			if tc == pc {
				matched = true
			}
		case pc == '-' && prev != eop && at(p, i+1) != eop && at(p, i+1) != ']':
			i++
			pc = at(p, i)
			if pc == '\\' {
				i++
				pc = at(p, i)
				if pc == eop {
					return 0, wmAbortAll
				}
			}
			if tc <= pc && tc >= prev {
				matched = true
			}
			pc = eop // a range is no start for another range
		case pc == '[' && at(p, i+1) == ':':
			start := i + 2
			k := start
			for at(p, k) != eop && at(p, k) != ']' {
				k++
			}
			if at(p, k) == eop {
				return 0, wmAbortAll
			}
			if k-start-1 < 0 || p[k-1] != ':' {
				// No ":]" before the next ']': the '[' is a member.
				if tc == '[' {
					matched = true
				}
				break
			}
			name := p[start : k-1]
			if !knownClass(name) {
				return 0, wmAbortAll
			}
			if classMatch(name, t) {
				matched = true
			}
			i = k
			pc = eop
		default:
			if tc == pc {
				matched = true
			}
		}
		prev = pc
		i++
		pc = at(p, i)
		if pc == ']' {
			break
		}
	}
	if matched == neg {
		return 0, wmNoMatch
	}
	return i, wmMatch
}

// knownClass reports whether git's wildmatch knows the class name; unlike
// the shell it has no "ascii" or "word".
func knownClass(name string) bool {
	switch name {
	case "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower",
		"print", "punct", "space", "upper", "xdigit":
		return true
	}
	return false
}
