// Package walk is the crosser: the module's one owner of path spelling,
// absoluteness, the working directory, repository discovery, the kit-root
// spellings, the prune set and recursive directory walks.
//
// Contract:
//   - Paths inside the module are in one dialect: '/' separators, absolute
//     by either rule (separator-rooted, or an ASCII drive letter, ':' and a
//     separator). A value from a platform-native producer (the OS working
//     directory, git's toplevel) is converted once, here, by NormalizeAbs,
//     and never again downstream.
//   - Every spelling a reader prints, matches or prefix-tests is composed by
//     the helpers in this file: PathRoot, NormalizeAbs, AbsAgainst, Child,
//     Under, AtOrUnder, RelUnder, CrossArg, StripExtendedPrefix. None of them
//     takes a lexical step over "..": a path means what the filesystem says.
//   - Cwd, Canonicalize and the git rev-parse spawns live here and nowhere
//     else. Discovery answers a toplevel, absent, or an error; a refused
//     repository is an error, never absent (fail closed).
//   - Walk is the module's only recursive directory walk; it visits entries
//     in name order, never descends into a pruned leaf, and refuses a name
//     that is not UTF-8.
package walk

import (
	"runtime"
	"strings"
)

func isSep(c byte) bool { return c == '/' || c == '\\' }

func isASCIILetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// driveRooted reports an ASCII letter, ':' and a separator.
func driveRooted(p string) bool {
	return len(p) >= 3 && isASCIILetter(p[0]) && p[1] == ':' && isSep(p[2])
}

// PathRoot is the module's one absoluteness test. A path is rooted when it
// starts with either separator, or with an ASCII drive letter, ':' and
// either separator; the answer is the same on every host.
func PathRoot(p string) bool {
	// assertion A: separator- or drive-rooted, the same on every host.
	return (p != "" && isSep(p[0])) || driveRooted(p)
}

// NormalizeAbs converts a path into the module's dialect: it keeps the
// input's own root (a drive stays a drive), splits on either separator,
// drops empty and "." segments and joins with '/'. ".." is kept as written.
// A rootless input is read as separator-rooted. Out of scope: UNC and the
// extended-length prefix (strip that first with StripExtendedPrefix).
func NormalizeAbs(p string) string {
	// assertion B: keep the input's root, split on either separator.
	root, rest := "/", p
	if driveRooted(p) {
		root, rest = p[:2]+"/", p[3:]
	}
	segs := splitSegments(rest)
	if len(segs) == 0 {
		return root
	}
	return root + strings.Join(segs, "/")
}

// splitSegments splits on either separator, dropping empty and "." parts.
func splitSegments(p string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(p); i++ {
		if i == len(p) || isSep(p[i]) {
			if seg := p[start:i]; seg != "" && seg != "." {
				out = append(out, seg)
			}
			start = i + 1
		}
	}
	return out
}

// AbsAgainst answers p absolute in the module's dialect: a rooted p is
// normalized as it stands, any other is composed onto base first.
func AbsAgainst(base, p string) string {
	if PathRoot(p) {
		return NormalizeAbs(p)
	}
	if p == "" {
		return NormalizeAbs(base)
	}
	return NormalizeAbs(base + "/" + p)
}

// Child joins seg onto parent with '/', adding none after a parent that
// already ends in a separator ('/' on every host, '\' on Windows only: on
// POSIX a trailing '\' is part of the directory's name). It is plain
// concatenation: nothing is cleaned. An empty parent answers seg.
func Child(parent, seg string) string {
	return childFor(runtime.GOOS == "windows", parent, seg)
}

func childFor(windows bool, parent, seg string) string {
	// assertion C: concatenation, no separator after a trailing one.
	if parent == "" {
		return seg
	}
	last := parent[len(parent)-1]
	if last == '/' || (windows && last == '\\') {
		return parent + seg
	}
	return parent + "/" + seg
}

// trimTrailingSep drops trailing '/' from p, keeping a bare root.
func trimTrailingSep(p string) string {
	for len(p) > 1 && p[len(p)-1] == '/' {
		if len(p) == 3 && driveRooted(p) {
			break
		}
		p = p[:len(p)-1]
	}
	return p
}

// containmentPrefix is root with exactly one trailing '/'.
func containmentPrefix(root string) string {
	r := trimTrailingSep(root)
	if strings.HasSuffix(r, "/") {
		return r
	}
	return r + "/"
}

// Under reports whether p lies strictly beneath root, comparing spellings
// byte for byte at a '/' boundary. Both are in the module's dialect.
func Under(root, p string) bool {
	// assertion D: containment at a '/' boundary, byte for byte.
	if root == "" {
		return false
	}
	pre := containmentPrefix(root)
	return len(p) > len(pre) && strings.HasPrefix(p, pre)
}

// AtOrUnder reports whether p is root or lies beneath it.
func AtOrUnder(root, p string) bool {
	if root == "" {
		return false
	}
	return trimTrailingSep(p) == trimTrailingSep(root) || Under(root, p)
}

// RelUnder answers p spelled relative to root and true when p is at or
// under root; at root itself the answer is "".
func RelUnder(root, p string) (string, bool) {
	if root == "" {
		return "", false
	}
	if trimTrailingSep(p) == trimTrailingSep(root) {
		return "", true
	}
	if !Under(root, p) {
		return "", false
	}
	return trimTrailingSep(p[len(containmentPrefix(root)):]), true
}

// CrossArg crosses a path argument arriving in its caller's spelling. It
// only folds separators, since an argument may be relative: on Windows every
// '\' becomes '/'; elsewhere '\' is a name byte and the argument is already
// in the dialect.
func CrossArg(p string) string {
	return crossArgFor(runtime.GOOS == "windows", p)
}

func crossArgFor(windows bool, p string) string {
	// assertion E: fold separators on Windows, nothing else.
	if !windows {
		return p
	}
	return strings.ReplaceAll(p, `\`, "/")
}

// StripExtendedPrefix removes Windows' extended-length prefix from a
// canonicalized path: \\?\C:\x answers C:\x and \\?\UNC\srv\share answers
// \\srv\share. Any other input is answered unchanged.
func StripExtendedPrefix(p string) string {
	switch {
	case strings.HasPrefix(p, `\\?\UNC\`):
		return `\\` + p[len(`\\?\UNC\`):]
	case strings.HasPrefix(p, `\\?\`):
		return p[len(`\\?\`):]
	}
	return p
}

// ListingSpelling spells p the way a tracked listing run in base spells it:
// relative to base, '/'-separated, with no empty or "." segment and no
// trailing '/' ("." for base itself). A rooted p is made relative when it
// lies at or under base; outside base it answers p normalized and false.
// ".." is kept as written, as everywhere in this package, and answers
// false: no listing spells a path through "..", and resolving it by text
// would go wrong across a symbolic link. So "docs", "./docs/", "docs/."
// and "<base>/docs" are one spelling, and "..", "../x" and "docs/../.."
// are not inside.
func ListingSpelling(base, p string) (string, bool) {
	// assertion R: one spelling for every way of naming a listed path.
	p = CrossArg(p)
	if PathRoot(p) {
		if base == "" {
			return NormalizeAbs(p), false
		}
		rel, ok := RelUnder(NormalizeAbs(base), NormalizeAbs(p))
		if !ok {
			return NormalizeAbs(p), false
		}
		p = rel
	}
	segs := splitSegments(p)
	if len(segs) == 0 {
		return ".", true
	}
	inside := true
	for _, s := range segs {
		inside = inside && s != ".."
	}
	return strings.Join(segs, "/"), inside
}

// AbsAgainstPhysical is AbsAgainst for a dir known to be physical (no
// symbolic link in it, as git's toplevel and prefix are): the ".."
// segments that lead a relative p climb dir, exactly as the kernel would
// climb it, since no link stands in the way. A ".." after a named segment
// of p is kept as written (that segment may be a link).
func AbsAgainstPhysical(dir, p string) string {
	p = CrossArg(p)
	if PathRoot(p) || p == "" {
		return AbsAgainst(dir, p)
	}
	base := NormalizeAbs(dir)
	segs := splitSegments(p)
	for len(segs) > 0 && segs[0] == ".." {
		segs = segs[1:]
		if i := strings.LastIndexByte(base, '/'); i >= 0 && base != "/" && !(len(base) == 3 && base[1] == ':') {
			base = base[:i]
			if base == "" || (len(base) == 2 && base[1] == ':') {
				base += "/"
			}
		}
	}
	return AbsAgainst(base, strings.Join(segs, "/"))
}
