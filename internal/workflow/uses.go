package workflow

import "strings"

// UsesLine is one uses: ref read by the pinning recogniser.
type UsesLine struct {
	Line      int
	Ref       string
	Commented bool // read from a commented-out line
}

// UsesRefs answers every key-position uses: ref in a YAML file, live or
// commented out (a "# - uses: x@v1" seed is read like a step), skipping
// the lines inside a scalar's body. The ref is the first word after the
// key, or the text inside its quotes; a trailing comment is no part of it.
func UsesRefs(f *File) []UsesLine {
	body := map[int]bool{}
	var mark func([]*Node)
	mark = func(ns []*Node) {
		for _, n := range ns {
			for _, l := range n.Cont {
				body[l] = true
			}
			mark(n.Kids)
		}
	}
	mark(f.Top)
	var out []UsesLine
	for l := 1; l <= f.Lines(); l++ {
		if body[l] {
			continue
		}
		t := strings.TrimLeft(f.Text(l), " \t")
		commented := false
		for strings.HasPrefix(t, "#") {
			t = strings.TrimLeft(t[1:], " \t#")
			commented = true
		}
		for isDash(t) {
			t = strings.TrimLeft(t[1:], " \t")
		}
		if ref, ok := usesIn(t); ok && ref != "" {
			out = append(out, UsesLine{Line: l, Ref: ref, Commented: commented})
		}
	}
	return out
}

func usesIn(t string) (string, bool) {
	if strings.HasPrefix(t, "{") {
		items, ok := flowItems(stripComment(t))
		if !ok {
			return "", false
		}
		for _, it := range items {
			if k, v := flowPair(it); k == "uses" {
				return refToken(v), true
			}
		}
		return "", false
	}
	k, rest, ok := splitKey(t)
	if !ok || k != "uses" {
		return "", false
	}
	return refToken(stripComment(rest)), true
}

// Pinned reports whether a uses: ref is immutable: a ./ path inside the
// repository, a docker:// image by sha256 digest, or anything@<40 hex>.
// why says what is wrong when it is not.
func Pinned(ref string) (ok bool, why string) {
	switch {
	case strings.Contains(ref, "${{"):
		return false, "is a GitHub expression, not a pinned ref"
	case strings.HasPrefix(ref, "./"):
		return true, ""
	case strings.HasPrefix(ref, "docker://"):
		if i := strings.LastIndex(ref, "@sha256:"); i >= 0 && hexOf(ref[i+8:], 64) {
			return true, ""
		}
		return false, "is a docker image not pinned by @sha256: digest"
	}
	i := strings.LastIndexByte(ref, '@')
	if i < 0 {
		return false, "has no @<commit-sha>"
	}
	if hexOf(ref[i+1:], 40) {
		return true, ""
	}
	return false, "is pinned to " + quoteRef(ref[i+1:]) + ", not a 40-hex commit SHA"
}

func quoteRef(s string) string {
	if s == "" {
		return "nothing"
	}
	return "@" + s
}

func hexOf(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
