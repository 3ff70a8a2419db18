package knob

import (
	"fmt"
	"strings"
)

// checkScalar applies a row's value rule; msg is empty when the value is
// admitted.
func checkScalar(row *Row, v string) string {
	// assertion T: a single-value scalar holding blanks and nothing else
	// names no usable input (a path of blanks, a mode of blanks): refused,
	// never read as a value. A word list of blanks is the empty list, as
	// its empty spelling is.
	if !row.Words && v != "" && blank(v) {
		return fmt.Sprintf("%s holds only blanks (%q): unset it for its default, or give it a value", row.Name, v)
	}
	if len(row.Enum) > 0 {
		for _, e := range row.Enum {
			if v == e {
				return ""
			}
		}
		return fmt.Sprintf("%s is %q; it must be one of %s", row.Name, v, strings.Join(row.Enum, ", "))
	}
	if row.Check == "uint" {
		if v == "" {
			return row.Name + " is empty; it must be a whole number"
		}
		for i := 0; i < len(v); i++ {
			if v[i] < '0' || v[i] > '9' {
				return fmt.Sprintf("%s is %q; it must be a whole number (digits only)", row.Name, v)
			}
		}
	}
	return ""
}

// checkPairs applies a keyed row's key rule.
func checkPairs(row *Row, pairs []Pair) string {
	if row.Check != "slug-keys" {
		return ""
	}
	var bad []string
	for _, p := range pairs {
		if !slug(p.Key) {
			bad = append(bad, quote(p.Key))
		}
	}
	if len(bad) == 0 {
		return ""
	}
	return fmt.Sprintf("%s keys must be [a-z0-9][a-z0-9-]*; refused: %s", row.Name, strings.Join(bad, ", "))
}

func slug(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || (c == '-' && i > 0)
		if !ok {
			return false
		}
	}
	return true
}

// runKitCheck applies one kit-level rule to the kit's settled collections.
func runKitCheck(c KitCheck, colls map[string]*Value) []*Finding {
	switch c.Rule {
	case "release-sections":
		return releaseSections(c, colls[c.Roster], colls[c.Aliases])
	}
	return []*Finding{{Msg: "unknown kit check " + c.Rule}}
}

// releaseSections holds the release-note roster and its aliases: each
// element is "<role>: <heading>"; a role is one of c.Roles; the roster
// gives a role once; no heading is empty; no alias repeats a roster
// heading; no heading belongs to two roles across both knobs.
func releaseSections(c KitCheck, roster, aliases *Value) []*Finding {
	var out []*Finding
	at := func(v *Value, i int, format string, args ...any) {
		f := &Finding{Knob: v.Name, Msg: v.Name + ": " + fmt.Sprintf(format, args...)}
		if v.Origin == OriginFile || v.Origin == OriginOverlay {
			f.File, f.Line = v.File, v.Line
			if i < len(v.elemLines) {
				f.Line = v.elemLines[i]
			}
		} else {
			f.Msg += " (table default)"
		}
		out = append(out, f)
	}
	roles := map[string]bool{}
	for _, r := range c.Roles {
		roles[r] = true
	}
	headingRole := map[string]string{}
	rosterHeading := map[string]bool{}
	roleSeen := map[string]bool{}
	walk := func(v *Value, isRoster bool) {
		for i, e := range v.Elems {
			role, heading, ok := strings.Cut(e, ":")
			role, heading = strings.TrimSpace(role), strings.TrimSpace(heading)
			switch {
			case !ok || role == "":
				at(v, i, "element %s is not <role>: <heading>", quote(e))
				continue
			case !roles[role]:
				at(v, i, "unknown role %s (roles: %s)", quote(role), strings.Join(c.Roles, ", "))
				continue
			case heading == "":
				at(v, i, "role %s has an empty heading", role)
				continue
			}
			if isRoster {
				if roleSeen[role] {
					at(v, i, "role %s is given twice", role)
				}
				roleSeen[role] = true
			} else if rosterHeading[heading] {
				at(v, i, "alias heading %s is also a roster heading", quote(heading))
			}
			if prev, ok := headingRole[heading]; ok && prev != role {
				at(v, i, "heading %s is given to two roles, %s and %s", quote(heading), prev, role)
			} else {
				headingRole[heading] = role
			}
			if isRoster {
				rosterHeading[heading] = true
			}
		}
	}
	walk(roster, true)
	walk(aliases, false)
	return out
}

// blank reports whether v is empty or holds only blanks (space, tab,
// newline, carriage return, form feed, vertical tab).
func blank(v string) bool { return strings.Trim(v, " \t\n\r\f\v") == "" }
