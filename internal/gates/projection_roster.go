package gates

// check-projection-roster: a consumer's roster of generated projections
// carries one keyed row per freshness gate that declares # projection:,
// and every key names such a gate. The declaration is the population;
// the roster is held to it.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
)

var projectionRosterHelps = map[string]string{
	"uncovered": "couple the projection's output: add a couples= token covering each path its # projection: line names",
	"rows":      "give each declaring gate exactly one roster row whose first line carries its name in backticks",
	"key":       "key rows only to registered gates that declare # projection:, and only on a row's first line",
}

// rosterKeyRe is a key: a backticked gate name.
var rosterKeyRe = lazyre.New("`(check-[a-z0-9]+(?:-[a-z0-9]+)*)`")

func checkProjectionRoster(c *gate.Context) int {
	if len(c.Args) > 0 {
		return c.Refuse("takes no operand")
	}
	roster, err := c.Knobs.Scalar("GATE_SDK_PROJECTION_ROSTER")
	if err != nil {
		return c.RefuseErr(err)
	}
	r := c.NewReport(projectionRosterHelps)
	if roster == "" {
		// assertion D: an empty roster knob disarms the gate, and the clean line says so.
		return r.Disarmed("GATE_SDK_PROJECTION_ROSTER", "disarmed: GATE_SDK_PROJECTION_ROSTER is empty, so no roster is asserted")
	}
	section, err := c.Knobs.Scalar("GATE_SDK_PROJECTION_ROSTER_SECTION")
	if err != nil {
		return c.RefuseErr(err)
	}
	data, present, err := readOptional(c, roster)
	if err != nil {
		return c.RefuseErr(err)
	}
	if !present {
		return c.Refuse("no roster file at %s (GATE_SDK_PROJECTION_ROSTER)", roster)
	}
	lines, first, ok := rosterSection(string(data), section)
	if !ok {
		return c.Refuse("%s has no heading %q (GATE_SDK_PROJECTION_ROSTER_SECTION)", roster, section)
	}
	if c.Coupling == nil {
		return c.Refuse("no registry loader in this context")
	}
	reg, env, err := c.Coupling()
	if err != nil {
		return c.RefuseErr(err)
	}
	declaring := map[string]bool{}
	var order []string
	for _, m := range reg.Distinct() {
		if err := m.Resolution.Err(); err != nil {
			return c.Refuse("%s:%d: %v", reg.Path, m.Line, err)
		}
		if m.ManifestErr != nil {
			return c.RefuseErr(m.ManifestErr)
		}
		if m.Manifest.Projection == nil {
			continue
		}
		paths, err := registry.ResolveProjection(m.Manifest, env.Knobs)
		if err != nil {
			return c.RefuseErr(err)
		}
		if len(paths) == 0 {
			continue // declares nothing on this tree
		}
		couples, err := env.ExpandCouples(m.Manifest)
		if err != nil {
			return c.RefuseErr(err)
		}
		declaring[m.Name] = true
		order = append(order, m.Name)
		for _, p := range paths {
			if !registry.MatchesAny(couples, p) {
				// assertion A: the hook must fire on the projection's own staleness.
				r.Add(gate.Finding{Class: "uncovered", Path: m.Path, Line: m.Manifest.ProjectionLine, Msg: fmt.Sprintf("%s declares projection %s, which its couples= does not cover", m.Name, p)})
			}
		}
	}
	rows := map[string][]int{}
	keyed := 0
	for i, l := range lines {
		n := first + i
		isRow := strings.HasPrefix(l, "- ")
		if isRow {
			keys := rosterKeyRe.Get().FindAllStringSubmatch(l, -1)
			if len(keys) > 0 {
				keyed++
			}
			for _, k := range keys {
				rows[k[1]] = append(rows[k[1]], n)
				if !declaring[k[1]] {
					// assertion C: a key names a registered, declaring member.
					r.Add(gate.Finding{Class: "key", Path: roster, Line: n, Msg: fmt.Sprintf("row key %s names no registered gate declaring # projection:", k[1])})
				}
			}
			continue
		}
		for _, k := range rosterKeyRe.Get().FindAllStringSubmatch(l, -1) {
			// assertion C: a key off a row's first line keys nothing.
			r.Add(gate.Finding{Class: "key", Path: roster, Line: n, Msg: fmt.Sprintf("%s is named off a row's first line, where it keys no row", k[1])})
		}
	}
	for _, name := range order {
		if got := rows[name]; len(got) != 1 {
			// assertion B: one row per declaring gate.
			where := "none"
			if len(got) > 1 {
				where = fmt.Sprintf("lines %v", got)
			}
			r.Add(gate.Finding{Class: "rows", Path: roster, Msg: fmt.Sprintf("%s declares a projection and has %d roster rows (%s), not one", name, len(got), where)})
		}
	}
	return r.Done(fmt.Sprintf("%s, %s in %s", plural(len(order), "declaring gate", "declaring gates"), plural(keyed, "keyed row", "keyed rows"), roster))
}

// rosterSection answers the lines of the section whose heading text is
// heading, bounded by the next heading of its level or shallower, and the
// line number of its first line; an empty heading is the whole file.
func rosterSection(text, heading string) ([]string, int, bool) {
	all := strings.Split(text, "\n")
	if heading == "" {
		return all, 1, true
	}
	for i, l := range all {
		level, title := headingOf(l)
		if level == 0 || title != heading {
			continue
		}
		end := len(all)
		for j := i + 1; j < len(all); j++ {
			if lv, _ := headingOf(all[j]); lv > 0 && lv <= level {
				end = j
				break
			}
		}
		return all[i+1 : end], i + 2, true
	}
	return nil, 0, false
}

func headingOf(l string) (int, string) {
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n >= len(l) || l[n] != ' ' {
		return 0, ""
	}
	return n, strings.TrimSpace(l[n:])
}
