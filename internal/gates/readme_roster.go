package gates

// check-readme-roster: each kit README's register block names exactly the
// checks the kit ships.

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
)

// kitReadme names a kit root's own README, which the roster and packed-link
// gates read.
const kitReadme = "README.md" // consumer-value-exempt: a kit root's own README, kit vocabulary; only the name matches the top-level README.md

// Roster markers of a kit README's register block: the original's
// spelling, and this port's earlier one kept as an alias. A block closes
// only at the end marker of the spelling that opened it.
const (
	rosterBegin = "<!-- gate-roster:begin -->"
	rosterEnd   = "<!-- gate-roster:end -->"
	aliasBegin  = "<!-- gates-roster:begin -->"
	aliasEnd    = "<!-- gates-roster:end -->"
)

func checkReadmeRoster(c *gate.Context) int {
	roots, code, ok := rootSweep(c)
	if !ok {
		return code
	}
	r := c.NewReport(map[string]string{
		"block":    "wrap the kit README's register block in " + rosterBegin + " and " + rosterEnd + ", one check-* name per line",
		"missing":  "add the shipped check to the kit README's register block",
		"stranded": "drop the name from the register block, or ship the check it names in checks/",
	})
	names, skipped := 0, 0
	for _, kit := range roots {
		decls, err := registry.Declarations(runFS{c}, []string{registry.Join(kit, "checks")})
		if err != nil {
			return c.RefuseErr(err)
		}
		if ok, err := isDirAt(c, registry.Join(kit, "checks")); err != nil {
			return c.RefuseErr(err)
		} else if !ok {
			skipped++
			continue
		}
		readme := registry.Join(kit, kitReadme)
		data, present, err := readOptional(c, readme)
		if err != nil {
			return c.RefuseErr(err)
		}
		roster, line, ok := rosterBlock(string(data))
		if !present || !ok {
			r.Add(gate.Finding{Class: "block", Path: readme, Msg: fmt.Sprintf("kit %s ships checks/ and its README has no register block", path.Base(kit))})
			continue
		}
		shipped := map[string]bool{}
		for _, d := range decls {
			shipped[d.Name] = true
		}
		listed := map[string]bool{}
		for _, n := range roster {
			listed[n] = true
		}
		// assertion A: every shipped check is in the roster.
		for _, n := range sortedNames(shipped) {
			if !listed[n] {
				r.Add(gate.Finding{Class: "missing", Path: readme, Line: line, Msg: fmt.Sprintf("kit %s ships %s, which its register block does not name", path.Base(kit), n)})
			}
		}
		// assertion B: every roster name is a shipped check.
		for _, n := range roster {
			if !shipped[n] {
				r.Add(gate.Finding{Class: "stranded", Path: readme, Line: line, Msg: fmt.Sprintf("the register block names %s, which kit %s does not ship", n, path.Base(kit))})
			}
		}
		names += len(roster)
	}
	return r.Done(fmt.Sprintf("%d roster names across %d kit roots match their checks/, %d without checks/", names, len(roots), skipped))
}

// rosterBlock answers the first check- token of each line between the
// markers (indentation trimmed), and the begin marker's line. The first
// begin marker of either spelling opens the block.
func rosterBlock(doc string) ([]string, int, bool) {
	var names []string
	begin := 0
	end := ""
	for i, raw := range strings.Split(doc, "\n") {
		l := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		switch {
		// assertion C: the original's marker opens a block, and so does the alias.
		case begin == 0 && (l == rosterBegin || l == aliasBegin):
			begin = i + 1
			end = rosterEnd
			if l == aliasBegin {
				end = aliasEnd
			}
		case begin > 0 && l == end:
			return names, begin, true
		case begin > 0:
			for _, w := range strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == '\t' || r == '`' || r == '|' || r == ',' }) {
				if strings.HasPrefix(w, "check-") {
					names = append(names, strings.TrimRight(w, ".:;"))
					break
				}
			}
		}
	}
	return nil, 0, false
}

func sortedNames(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
