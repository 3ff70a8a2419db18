package gates

// check-gate-substrate-parity: the dispatch seam stays honest. A gate may
// move into the binary, but not by dropping the declaration other readers
// use, by stranding a compiled rule no descriptor dispatches to, or by
// losing the record of what the move costs. Ten assertions, A to J, each
// finding tagged with its letter.

import (
	"fmt"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

var parityHelps = map[string]string{
	"A": "[A] give each registered member exactly one declaration: delete the .sh or the .gate it no longer needs, or register only names a declaration carries",
	"B": "[B] a descriptor needs the compiled gate it names, and an in-scope compiled gate needs its descriptor (or a reference-only line in the conservation section)",
	"C": "[C] record the member's disposition for a .gate-dispatched member in the SPEC's conservation section, naming it",
	"D": "[D] manifest fields live in the .gate descriptor only: delete the annotation from the implementation tree",
	"E": "[E] keep implementation source out of the kit roots: move the file out of the kit, or keep the module outside every kit root",
	"F": "[F] keep the target roster well formed (one <os>/<arch> per live line) and the publish workflow's matrix values GitHub expressions",
	"G": "[G] # no-port: and # port-until: sit only on shell declarations, at most one of each, with a cause or a bare slug, never both",
	"H": "[H] a # port-until: declaration's # spec: section must say why the member is held (name port-until there)",
	"I": "[I] register each in-scope compiled gate in gates.list or declare it `# unregistered: <name> — <reason>`; register a descriptor only for a gate the binary carries",
	"J": "[J] each kit's smoke install registers or declares every gate it owns, and only those",
}

func checkGateSubstrateParity(c *gate.Context) int {
	s, code, ok := seamOperands(c, 2, "[gates-dir [conservation-doc]]")
	if !ok {
		return code
	}
	pub, err := publishing(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	cons, err := loadConservation(c, pub)
	if err != nil {
		return c.RefuseErr(err)
	}
	r := c.NewReport(parityHelps)
	add := func(letter, p string, line int, format string, args ...any) {
		r.Add(gate.Finding{Class: letter, Path: p, Line: line, Msg: "[" + letter + "] " + fmt.Sprintf(format, args...)})
	}
	var clean []string

	// assertion A: each registered member resolves to exactly one declaration.
	for _, m := range s.reg.Distinct() {
		switch m.Kind {
		case registry.Ambiguous:
			add("A", m.Path, 0, "ambiguous dispatch: %s and %s both declare %s", m.Path, m.Alt, m.Name)
		case registry.Unresolved:
			add("A", s.reg.Path, m.Line, "registered member %s resolves to no <name>.sh or <name>.gate", m.Name)
		}
	}
	clean = append(clean, fmt.Sprintf("A: %d members", len(s.reg.Distinct())))

	// assertion B: the descriptor set equals the roster in scope.
	in := parityInput{
		descriptors: declNames(s.descriptors),
		roster:      rosterOf(All()),
		vendored:    vendoredKits(c.KitRoots),
		publishing:  pub,
		refOnly:     cons.refOnly(),
	}
	for _, f := range rosterParity(in) {
		p := ""
		if d, ok := declByName(s.descriptors, f.name); ok {
			p = d.Path
		}
		add("B", p, 0, "%s", f.msg)
	}
	inScope, outScope := in.scoped()
	clean = append(clean, fmt.Sprintf("B: %d descriptors, %d compiled gates in scope, %d out of scope", len(s.descriptors), len(inScope), len(outScope)))

	// assertion C: every substrate-sensitive member carries a disposition.
	sensitive, err := substrateSensitive(c, s)
	if err != nil {
		return c.RefuseErr(err)
	}
	undisp := 0
	for _, m := range sensitive {
		if cons == nil || !cons.present {
			undisp++
			continue
		}
		if !cons.mentions(m.Name) {
			add("C", cons.path, 0, "substrate-sensitive member %s (its couples reach a registered declaration) has no disposition in §%s", m.Name, conservationHeading)
		}
	}
	if cons.present {
		clean = append(clean, fmt.Sprintf("C: %d substrate-sensitive members dispositioned", len(sensitive)))
	} else {
		clean = append(clean, fmt.Sprintf("C: not asserted, no conservation doc (%d undispositioned)", undisp))
	}

	// assertion D: no manifest-class annotation in the implementation tree.
	scanned, err := manifestInSource(c, func(p string, line int, text string) {
		add("D", p, line, "manifest-class annotation in the implementation tree: %s", strings.TrimSpace(text))
	})
	if err != nil {
		return c.RefuseErr(err)
	}
	clean = append(clean, fmt.Sprintf("D: %d implementation files", scanned))

	// assertion E: no implementation source inside the vendoring set.
	siblings, err := vendoredImplementation(c, s, func(p, msg string) { add("E", p, 0, "%s", msg) })
	if err != nil {
		return c.RefuseErr(err)
	}
	clean = append(clean, fmt.Sprintf("E: %d kit files against %d descriptors", siblings, len(s.descriptors)))

	// assertion F: one owner for the target roster.
	fnote, err := targetRoster(c, pub, len(s.dispatching) > 0, func(p string, line int, msg string) { add("F", p, line, "%s", msg) })
	if err != nil {
		return c.RefuseErr(err)
	}
	clean = append(clean, "F: "+fnote)

	// assertion G: port-declaration placement, and assertion H over its holders.
	decl, tree, held, err := portDeclarations(c, s, pub, func(letter, p string, line int, msg string) { add(letter, p, line, "%s", msg) })
	if err != nil {
		return c.RefuseErr(err)
	}
	clean = append(clean, fmt.Sprintf("G: %d declarations, %d tracked scripts", decl, tree), fmt.Sprintf("H: %d held grounds verified", held))

	// assertion I: the roster joined to the registration.
	for _, f := range registrationJoin(in, s.reg.List, dispatchedNames(s.reg)) {
		add("I", s.reg.Path, f.line, "%s", f.msg)
	}
	clean = append(clean, fmt.Sprintf("I: %d declared unregistered", len(s.reg.Unregistered)))

	// assertion J: each kit's smoke registry joined to the kit's members.
	jnote, err := smokeRegistries(c, in, pub, func(p string, line int, msg string) { add("J", p, line, "%s", msg) })
	if err != nil {
		return c.RefuseErr(err)
	}
	clean = append(clean, "J: "+jnote)
	return r.Done(strings.Join(clean, "; "))
}

// ---- the roster (B) and the registration (I), as pure functions ----

// rosterEntry is one compiled gate and its owner ("-" for consumer-declared).
type rosterEntry struct{ name, owner string }

func rosterOf(defs []gate.Def) []rosterEntry {
	var out []rosterEntry
	for _, d := range defs {
		o := d.Owner
		if o == "" {
			o = "-"
		}
		out = append(out, rosterEntry{d.Name, o})
	}
	return out
}

// parityInput is everything B and I compare.
type parityInput struct {
	descriptors []string        // .gate names across the resolve dirs
	roster      []rosterEntry   // the compiled gates and their owners
	vendored    []string        // the kit names this tree vendored
	publishing  bool            // the tree the binary is built from
	refOnly     map[string]bool // reference-only dispositions
}

// inScope reports whether a compiled gate's descriptor is owed here: a
// kit-owned one iff its kit is vendored, a consumer-declared one iff this
// is the publishing tree.
func (in parityInput) inScope(e rosterEntry) bool {
	if e.owner == "-" {
		return in.publishing
	}
	return hasName(in.vendored, e.owner)
}

func (in parityInput) scoped() (inScope, outScope []rosterEntry) {
	for _, e := range in.roster {
		if in.inScope(e) {
			inScope = append(inScope, e)
		} else {
			outScope = append(outScope, e)
		}
	}
	return inScope, outScope
}

type nameFinding struct {
	name string
	line int
	msg  string
}

// rosterParity is assertion B: descriptors naming no compiled gate (always
// red), and in-scope compiled gates with no descriptor (red unless
// reference-only).
func rosterParity(in parityInput) []nameFinding {
	var out []nameFinding
	compiled := map[string]bool{}
	for _, e := range in.roster {
		compiled[e.name] = true
	}
	for _, d := range in.descriptors {
		if !compiled[d] {
			out = append(out, nameFinding{name: d, msg: fmt.Sprintf("descriptor %s names no compiled gate (gates --list lacks it)", d)})
		}
	}
	for _, e := range in.roster {
		if in.inScope(e) && !hasName(in.descriptors, e.name) && !in.refOnly[e.name] {
			out = append(out, nameFinding{name: e.name, msg: fmt.Sprintf("compiled gate %s (owner %s) has no .gate descriptor in the resolve dirs: a stranded implementation", e.name, e.owner)})
		}
	}
	return out
}

// registrationJoin is assertion I against one registry: an in-scope
// compiled gate neither registered nor declared, a registered dispatch the
// binary lacks, and stale or reasonless declarations.
func registrationJoin(in parityInput, l *registry.List, dispatched map[string]int) []nameFinding {
	var out []nameFinding
	registered := map[string]int{}
	for _, e := range l.Entries {
		if _, ok := registered[e.Name]; !ok {
			registered[e.Name] = e.Line
		}
	}
	declared := map[string]bool{}
	for _, u := range l.Unregistered {
		declared[u.Name] = true
		if line, ok := registered[u.Name]; ok {
			out = append(out, nameFinding{name: u.Name, line: u.Line, msg: fmt.Sprintf("# unregistered: %s, but line %d registers it", u.Name, line)})
		}
		if strings.TrimSpace(u.Reason) == "" {
			out = append(out, nameFinding{name: u.Name, line: u.Line, msg: fmt.Sprintf("# unregistered: %s carries no reason (write <name> — <reason>)", u.Name)})
		}
	}
	compiled := map[string]bool{}
	for _, e := range in.roster {
		compiled[e.name] = true
		if !in.inScope(e) {
			continue
		}
		if _, ok := registered[e.name]; !ok && !declared[e.name] {
			out = append(out, nameFinding{name: e.name, msg: fmt.Sprintf("compiled gate %s is in scope but neither registered nor declared # unregistered:", e.name)})
		}
	}
	var names []string
	for n := range dispatched {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !compiled[n] {
			out = append(out, nameFinding{name: n, line: dispatched[n], msg: fmt.Sprintf("registered member %s dispatches to the binary, which carries no gate of that name", n)})
		}
	}
	return out
}

// dispatchedNames answers the registered members resolving to a descriptor.
func dispatchedNames(reg *registry.Registry) map[string]int {
	out := map[string]int{}
	for _, m := range reg.Distinct() {
		if m.Kind == registry.Descriptor {
			out[m.Name] = m.Line
		}
	}
	return out
}

func declNames(ds []registry.Declaration) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

func declByName(ds []registry.Declaration, name string) (registry.Declaration, bool) {
	for _, d := range ds {
		if d.Name == name {
			return d, true
		}
	}
	return registry.Declaration{}, false
}

// vendoredKits answers each kit root's directory name, the owner --list prints.
func vendoredKits(roots []string) []string {
	var out []string
	for _, r := range roots {
		out = append(out, path.Base(strings.TrimRight(walk.CrossArg(r), "/")))
	}
	return out
}

// ---- the conservation section (B's allowance, C) ----

// ---- C: the substrate-sensitive set ----

// ---- D: the implementation tree ----

// ---- E: the vendoring set ----

// ---- F: the target roster ----

// ---- G and H: port declarations ----

// portDeclarations runs G over the declaration set (every declaration in
// the resolve dirs) and, in the publishing tree, over the tracked shell
// scripts' header blocks; then H over every held declaration. It answers
// the two corpus sizes and the verified held grounds.
func portDeclarations(c *gate.Context, s *seam, pub bool, found func(letter, p string, line int, msg string)) (int, int, int, error) {
	seen := map[string]bool{}
	held := 0
	check := func(p string) error {
		data, err := walk.ReadConfig(runPath(c, p))
		if err != nil {
			return fmt.Errorf("cannot read declaration %s: %w", p, unwrapPath(err))
		}
		m, err := registry.ParseHeader(p, data)
		for _, e := range registry.Problems(err) {
			// assertion G: the one header reader's port-field faults.
			if e.Kind == registry.KindShellOnly || strings.Contains(e.Msg, "no-port") || strings.Contains(e.Msg, "port-until") {
				found("G", p, e.Line, e.Msg)
			}
		}
		if m != nil && m.PortUntil != nil {
			// assertion H: the held ground is one hop away.
			ok, msg, err := heldGround(c, p, m)
			if err != nil {
				return err
			}
			if ok {
				held++
			} else {
				found("H", p, m.PortUntil.Line, msg)
			}
		}
		return nil
	}
	for _, d := range s.decls {
		seen[d.Path] = true
		if err := check(d.Path); err != nil {
			return 0, 0, 0, err
		}
	}
	tree := 0
	if pub {
		files, err := c.Tree.Files()
		if err != nil {
			return 0, 0, 0, err
		}
		prune, err := pruneSet(c)
		if err != nil {
			return 0, 0, 0, err
		}
		for _, p := range files {
			if !strings.HasSuffix(p, ".sh") || seen[p] || prune.PathPruned(p) {
				continue
			}
			tree++
			if err := check(p); err != nil {
				return 0, 0, 0, err
			}
		}
	}
	return len(s.decls), tree, held, nil
}

var slugRe = lazyre.New(`^[a-z0-9][a-z0-9-]*$`)

// heldGround opens the section the declaration's # spec: names and
// reports whether it names port-until.
func heldGround(c *gate.Context, decl string, m *registry.Manifest) (bool, string, error) {
	if !slugRe.Get().MatchString(m.PortUntil.Text) {
		return false, fmt.Sprintf("# port-until: %q is not a queue slug ([a-z0-9-])", m.PortUntil.Text), nil
	}
	if m.Spec == nil {
		return false, "# port-until: with no # spec: field, so its ground is unreachable", nil
	}
	file, section, ok := strings.Cut(m.Spec.Location, " §")
	if !ok || strings.TrimSpace(section) == "" {
		return false, fmt.Sprintf("# port-until: whose # spec: %q names no §section", m.Spec.Location), nil
	}
	p := specPath(c, decl, strings.TrimSpace(file))
	data, present, err := readOptional(c, p)
	if err != nil {
		return false, "", err
	}
	if !present {
		return false, fmt.Sprintf("# spec: names %s, which does not exist", file), nil
	}
	body, _ := markdownSection(string(data), strings.TrimSpace(section))
	if !strings.Contains(strings.Join(body, "\n"), "port-until") {
		return false, fmt.Sprintf("section §%s of %s does not state the hold (no port-until there)", strings.TrimSpace(section), file), nil
	}
	return true, "", nil
}

// specPath resolves a # spec: file: a leading kit name maps to that kit's
// root; any other path is taken relative to the run directory, or, when
// absent there, to the declaration's own directory.
func specPath(c *gate.Context, decl, file string) string {
	head, rest, _ := strings.Cut(file, "/")
	for i, name := range vendoredKits(c.KitRoots) {
		if name == head && rest != "" {
			return registry.Join(strings.TrimRight(c.KitRoots[i], "/"), rest)
		}
	}
	if _, err := os.Stat(runPath(c, file)); err == nil {
		return file
	}
	return registry.Join(path.Dir(decl), file)
}

// ---- J: smoke registries ----

func hasOwner(es []rosterEntry, name string) bool {
	for _, e := range es {
		if e.name == name {
			return true
		}
	}
	return false
}

func isFileAt(c *gate.Context, p string) (bool, error) {
	st, err := os.Stat(runPath(c, p))
	if err != nil {
		if os.IsNotExist(err) {
			return false, nil
		}
		return false, err
	}
	return !st.IsDir(), nil
}
