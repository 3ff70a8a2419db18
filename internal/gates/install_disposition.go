package gates

// check-install-disposition: every gate a kit ships declares whether a
// fresh consumer registers it (# install:), the kit's smoke registers every
// zero-config member, the installer's recipe names no gate of its own, and
// an # armed-by: line names a knob of the gate's own kit.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/shlex"
)

var (
	installLine   = lazyre.New(`^#\s*install:(.*)$`)
	armedByLine   = lazyre.New(`^#\s*armed-by:(.*)$`)
	sectionCite   = lazyre.New(`§[^\s,;.)]*(?:\.[^\s,;.)]+)*`)
	dispositions  = map[string]bool{registry.InstallZero: true, registry.InstallSurface: true, "never": true}
	recipeRelPath = "installer/recipe.go"
)

type kitMember struct {
	name, path string
	header     []string // the header block: leading shebang, comment and blank lines
	kit        string   // the kit root's basename
}

func checkInstallDisposition(c *gate.Context) int {
	if len(c.Args) > 1 {
		return c.Refuse("usage: check-install-disposition [root]")
	}
	if len(c.KitRoots) == 0 {
		if code, ok := nothingOwn(c, "no kit of this repository's own: 0 checks/ members"); ok {
			return code
		}
		return c.Refuse("no kit root resolved (GATE_SDK_KIT_DIRS and the derived set are both empty)")
	}
	var members []kitMember
	for _, root := range c.KitRoots {
		dir := registry.Join(strings.TrimRight(root, "/"), "checks")
		decls, err := registry.Declarations(dirFS{c}, []string{dir})
		if err != nil {
			return c.RefuseErr(err)
		}
		_, kit := splitDir(strings.TrimRight(root, "/"))
		for _, d := range decls {
			if !strings.HasPrefix(d.Name, "check-") {
				continue
			}
			data, err := readFile(c, d.Path)
			if err != nil {
				return c.Refuse("cannot read the header of %s: %v", d.Path, unwrapPath(err))
			}
			members = append(members, kitMember{name: d.Name, path: d.Path, header: headerBlock(string(data)), kit: kit})
		}
	}
	if len(members) == 0 {
		return c.Refuse("the kit roots (%s) enumerate no check-*.sh or check-*.gate under checks/", strings.Join(c.KitRoots, " "))
	}
	tables, err := knob.DefaultTables()
	if err != nil {
		return c.RefuseErr(err)
	}
	owner := map[string]string{}
	for _, t := range tables {
		for _, row := range t.Rows {
			owner[row.Name] = t.Name
		}
	}
	r := c.NewReport(map[string]string{
		"A": "give the gate exactly one # install: line in its header: zero-config (a fresh consumer registers it), on-surface (the adopter opts in) or never",
		"B": "register every zero-config member in the kit's smoke/install.sh gates.list heredoc, or change its disposition",
		"C": "derive the recipe's gates from the # install: declarations; a gate name belongs in code only as a §-citation",
		"D": "keep at most one # armed-by: line, naming one knob of the gate's own kit's table (or content and one or more of them)",
	})
	zero := map[string][]kitMember{}
	armed := 0
	for _, m := range members {
		var values []string
		var arms []string
		for _, l := range m.header {
			if g := installLine.Get().FindStringSubmatch(l); g != nil {
				values = append(values, strings.TrimSpace(g[1]))
			}
			if g := armedByLine.Get().FindStringSubmatch(l); g != nil {
				arms = append(arms, strings.TrimSpace(g[1]))
			}
		}
		// assertion A: exactly one # install: line, in the closed vocabulary.
		switch {
		case len(values) == 0:
			r.Add(gate.Finding{Class: "A", Path: m.path, Msg: "carries no # install: line, so nobody knows whether a fresh consumer registers it"})
		case len(values) > 1:
			r.Add(gate.Finding{Class: "A", Path: m.path, Msg: fmt.Sprintf("carries %d # install: lines; one declares, two disagree with each other", len(values))})
		case !dispositions[values[0]]:
			r.Add(gate.Finding{Class: "A", Path: m.path, Msg: fmt.Sprintf("# install: %q is not a disposition (zero-config, on-surface or never)", values[0])})
		case values[0] == registry.InstallZero:
			zero[m.kit] = append(zero[m.kit], m)
		}
		// assertion D: at most one # armed-by:, naming the gate's own kit's knobs.
		if len(arms) > 1 {
			r.Add(gate.Finding{Class: "D", Path: m.path, Msg: fmt.Sprintf("carries %d # armed-by: lines; doctor reads one", len(arms))})
			continue
		}
		if len(arms) == 1 {
			armed++
			for _, msg := range armingProblems(arms[0], m.kit, owner) {
				r.Add(gate.Finding{Class: "D", Path: m.path, Msg: msg})
			}
		}
	}
	// assertion B: every zero-config member in its kit's smoke roster.
	smokeSkipped := 0
	for _, root := range c.KitRoots {
		_, kit := splitDir(strings.TrimRight(root, "/"))
		smoke := registry.Join(strings.TrimRight(root, "/"), "smoke/install.sh")
		data, present, err := readOptional(c, smoke)
		if err != nil {
			return c.RefuseErr(err)
		}
		if !present {
			smokeSkipped++
			continue
		}
		roster, err := smokeRoster(smoke, data)
		if err != nil {
			return c.RefuseErr(err)
		}
		for _, m := range zero[kit] {
			if !roster[m.name] {
				r.Add(gate.Finding{Class: "B", Path: smoke, Msg: fmt.Sprintf("%s declares # install: zero-config (%s) but the smoke's gates.list does not register it", m.name, m.path)})
			}
		}
	}
	// assertion C: the recipe names no gate outside a §-citation.
	src, err := c.Knobs.Scalar("GATE_SDK_NATIVE_SRC")
	if err != nil {
		return c.RefuseErr(err)
	}
	recipe := registry.Join(strings.TrimRight(src, "/"), recipeRelPath)
	data, present, err := readOptional(c, recipe)
	if err != nil {
		return c.RefuseErr(err)
	}
	recipeNote := "recipe " + recipe + " read"
	if present {
		text := stripCitations(string(data))
		for i, line := range strings.Split(text, "\n") {
			for _, m := range members {
				if containsName(line, m.name) {
					r.Add(gate.Finding{Class: "C", Path: recipe, Line: i + 1, Msg: fmt.Sprintf("names the gate %s: a second roster beside the # install: declarations", m.name)})
				}
			}
		}
	} else {
		recipeNote = "no recipe at " + recipe + " (skipped)"
	}
	return r.Done(fmt.Sprintf("%s declared across %s; %d kit(s) with no smoke/install.sh skipped; %s; %d # armed-by: verified",
		plural(len(members), "checks/ member", "checks/ members"), plural(len(c.KitRoots), "kit root", "kit roots"), smokeSkipped, recipeNote, armed))
}

// headerBlock answers a declaration's leading run of shebang, comment and
// blank lines.
func headerBlock(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(strings.TrimSuffix(l, "\r"))
		if t != "" && !strings.HasPrefix(t, "#") {
			break
		}
		out = append(out, t)
	}
	return out
}

// armingProblems reads an # armed-by: value against the knob tables.
func armingProblems(val, kit string, owner map[string]string) []string {
	f := strings.Fields(val)
	if len(f) == 0 {
		return []string{"# armed-by: has no value; name the knob whose empty value disarms the gate"}
	}
	if f[0] == "content" {
		f = f[1:]
		if len(f) == 0 {
			return []string{"# armed-by: content names no knob"}
		}
	} else if len(f) > 1 {
		return []string{fmt.Sprintf("# armed-by: %s names more than one knob without the content form", val)}
	}
	var out []string
	for _, k := range f {
		switch o, ok := owner[k]; {
		case !ok:
			out = append(out, fmt.Sprintf("# armed-by: names %s, which no kit's table declares", k))
		case o != kit:
			out = append(out, fmt.Sprintf("# armed-by: names %s, a knob of %s, not of %s whose root holds the gate", k, o, kit))
		}
	}
	return out
}

// smokeRoster answers the members a smoke's gates.list heredoc registers:
// the body of the heredoc whose command writes a file ending in gates.list.
func smokeRoster(path string, data []byte) (map[string]bool, error) {
	toks, err := lexShell(path, data)
	if err != nil {
		return nil, err
	}
	want := -1 // index among the heredoc bodies of the one writing gates.list
	n := 0
	var bodies []string
	for _, p := range shlex.Split(toks) {
		for _, cmd := range p.Commands {
			writes := false
			for _, rd := range cmd.Redirects() {
				if strings.HasSuffix(rd.Op.Value, ">") && strings.HasSuffix(rd.Target.Value, "gates.list") {
					writes = true
				}
			}
			for _, rd := range cmd.Redirects() {
				if strings.HasSuffix(rd.Op.Value, "<<") || strings.HasSuffix(rd.Op.Value, "<<-") {
					if writes && want < 0 {
						want = n
					}
					n++
				}
			}
		}
	}
	for _, t := range toks {
		if t.Kind == shlex.Heredoc {
			bodies = append(bodies, t.Value)
		}
	}
	if want < 0 || want >= len(bodies) {
		return nil, fmt.Errorf("%s: no heredoc writing gates.list, so its roster cannot be read", path)
	}
	roster := map[string]bool{}
	for _, l := range strings.Split(bodies[want], "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			roster[l] = true
		}
	}
	return roster, nil
}

// stripCitations removes §-prefixed section citations.
func stripCitations(s string) string { return sectionCite.Get().ReplaceAllString(s, "") }

// containsName reports name as a whole token: not inside a longer gate name.
func containsName(line, name string) bool {
	for i := 0; ; {
		j := strings.Index(line[i:], name)
		if j < 0 {
			return false
		}
		at := i + j
		end := at + len(name)
		before := at == 0 || !nameChar(line[at-1])
		after := end == len(line) || !nameChar(line[end])
		if before && after {
			return true
		}
		i = at + 1
	}
}

func nameChar(b byte) bool {
	return b == '-' || b == '_' || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || (b >= 'A' && b <= 'Z')
}
