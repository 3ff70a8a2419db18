// Package declaration is the release-declaration grammar's one holder: the
// markdown container a release note and the release declaration surface
// (<workflow-dir>/release-declarations.md) share, and the token rule each
// declaration-bearing section reads its bullets with.
//
// The holder is pure over text. It names no section (callers pass a
// section's heading and aliases, resolved from GATE_SDK_RELEASE_SECTIONS),
// reaches no file, and answers a Verdict whose four arms a caller must
// match before it reaches a token: Absent, ExplicitNone, Tokens, Unparsed.
// A section that is present, not None, and yields no token from some
// bullet is Unparsed, never an empty set, so a wrong spelling reds its
// reader instead of silently declaring nothing.
package declaration

import (
	"regexp"
	"strings"
)

// Line is one line of a container with its 1-based line number.
type Line struct {
	N    int
	Text string
}

// Rule is a section's token rule.
type Rule int

// The token rules.
const (
	// GateName: a backticked, unbolded bare gate name right after the
	// bullet marker (the gates role).
	GateName Rule = iota + 1
	// Backticked: any non-empty backticked span right after the marker
	// (the knobs and platforms roles).
	Backticked
	// Bolded: the non-empty bolded span right after the marker, trimmed
	// (the authoring and behavior roles).
	Bolded
)

// Kind is a verdict's arm.
type Kind int

// The four arms.
const (
	Absent       Kind = iota + 1 // no container names the section
	ExplicitNone                 // the body is "None"
	Tokens                       // a declared set, never empty
	Unparsed                     // present, not None, and some bullet (or none at all) yields no token
)

// Verdict is the section's reading under a rule.
type Verdict struct {
	Kind      Kind
	Tokens    []string // Tokens only
	Offending []Line   // Unparsed only: the bullets yielding no token (empty: no bullet at all)
}

// heading answers an ATX heading's level and trimmed text; 0 otherwise.
func heading(l string) (int, string) {
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(l) && l[n] != ' ' && l[n] != '\t') {
		return 0, ""
	}
	return n, strings.TrimSpace(strings.TrimRight(strings.TrimSpace(l[n:]), "#"))
}

// SectionLines answers the lines of every `## <name>` container whose
// heading text is one of names, each container running to the next
// heading of level 2 or above. Lines inside a code fence never open or
// close a container.
func SectionLines(doc string, names []string) ([]Line, bool) {
	// assertion A: every named container contributes; a fence opens none.
	var out []Line
	found, in, fence := false, false, false
	for i, raw := range strings.Split(doc, "\n") {
		l := strings.TrimSuffix(raw, "\r")
		if strings.HasPrefix(strings.TrimLeft(l, " "), "```") {
			fence = !fence
		}
		if !fence {
			if lv, text := heading(l); lv > 0 && lv <= 2 {
				in = lv == 2 && nameIn(text, names)
				found = found || in
				continue
			}
		}
		if in {
			out = append(out, Line{N: i + 1, Text: l})
		}
	}
	return out, found
}

func nameIn(s string, names []string) bool {
	for _, n := range names {
		if strings.EqualFold(strings.TrimSpace(n), s) {
			return true
		}
	}
	return false
}

// marker answers the text after a top-level bullet marker ("- " or "* "
// at column 0).
func marker(l string) (string, bool) {
	for _, m := range []string{"- ", "* "} {
		if rest, ok := strings.CutPrefix(l, m); ok {
			return rest, true
		}
	}
	return "", false
}

// SectionBullets answers the container's top-level bullets.
func SectionBullets(doc string, names []string) ([]Line, bool) {
	lines, found := SectionLines(doc, names)
	var out []Line
	for _, l := range lines {
		if _, ok := marker(l.Text); ok {
			out = append(out, l)
		}
	}
	return out, found
}

var gateName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// Token answers a bullet's lead token under rule, "" when it has none.
func Token(bullet string, rule Rule) string {
	// assertion B: the lead token directly after the marker, or nothing.
	rest, ok := marker(bullet)
	if !ok {
		return ""
	}
	switch rule {
	case GateName, Backticked:
		if !strings.HasPrefix(rest, "`") {
			return ""
		}
		end := strings.IndexByte(rest[1:], '`')
		if end <= 0 {
			return ""
		}
		tok := rest[1 : 1+end]
		if rule == GateName && !gateName.MatchString(tok) {
			return ""
		}
		return tok
	case Bolded:
		if !strings.HasPrefix(rest, "**") {
			return ""
		}
		end := strings.Index(rest[2:], "**")
		if end < 0 {
			return ""
		}
		return strings.TrimSpace(rest[2 : 2+end])
	}
	return ""
}

// SectionTokens reads the section under rule.
func SectionTokens(doc string, names []string, rule Rule) Verdict {
	// assertion C: one of four arms, never an empty token set.
	lines, found := SectionLines(doc, names)
	if !found {
		return Verdict{Kind: Absent}
	}
	var body []string
	for _, l := range lines {
		if t := strings.TrimSpace(l.Text); t != "" {
			body = append(body, t)
		}
	}
	if len(body) == 1 && isNone(body[0]) {
		return Verdict{Kind: ExplicitNone}
	}
	var toks []string
	var bad []Line
	for _, l := range lines {
		if _, ok := marker(l.Text); !ok {
			continue
		}
		if t := Token(l.Text, rule); t != "" {
			toks = append(toks, t)
		} else {
			bad = append(bad, l)
		}
	}
	if len(toks) == 0 || len(bad) > 0 {
		return Verdict{Kind: Unparsed, Offending: bad}
	}
	return Verdict{Kind: Tokens, Tokens: toks}
}

// isNone reports whether a section's one body line is the resolved empty
// set: "None", bare or as the one bullet, a closing dot allowed.
func isNone(l string) bool {
	if rest, ok := marker(l); ok {
		l = strings.TrimSpace(rest)
	}
	return strings.TrimSuffix(l, ".") == "None"
}

// SurfaceSet applies the surface reading: Absent, None and a container
// with no bullet are the empty set; a declared set is its tokens; an
// unreadable bullet is answered in bad, for the caller's finding.
func SurfaceSet(v Verdict) (set []string, bad []Line) {
	// assertion D: the surface's empty set and its findings.
	switch v.Kind {
	case Tokens:
		return v.Tokens, nil
	case Unparsed:
		return nil, v.Offending
	}
	return nil, nil
}
