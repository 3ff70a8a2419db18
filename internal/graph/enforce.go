package graph

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/registry"
)

// EnforcementInput is what the enforcement map is derived from.
type EnforcementInput struct {
	Registry *registry.Registry
	KitRoots []string
	// Page is the page's own path (GATE_SDK_ENFORCEMENT_FILE), the base of
	// its relative links.
	Page string
	// Tracked answers whether a path is tracked (kit-page links, spec
	// pointers).
	Tracked func(string) bool
	// Read answers a tracked file's bytes (a spec pointer is printed only
	// where its file holds the section it names). Nil prints no pointer.
	Read func(string) ([]byte, error)
	// Headings, when set, answers a tracked file's headings as Headings
	// reads them from its bytes (a caller may keep them by the bytes'
	// id); a spec pointer then asks it instead of Read.
	Headings func(string) ([]string, error)
	// Present answers whether any file of the tree matches a pattern: a
	// kit gate's plain couples= token it answers false for is left out of
	// the governs column, as the graph page leaves it out. Nil keeps all.
	Present func(pattern string) bool
	// Monitors are the "# enforce: class=monitor" markers found.
	Monitors []Monitor
}

// Monitor is one self-declared monitor surface.
type Monitor struct {
	Path string
	Line int
	Text string
}

// MonitorMarker opens a monitor declaration at the start of a line.
const MonitorMarker = "# enforce: class=monitor"

// FindMonitors reads one file's monitor markers.
func FindMonitors(p string, data []byte) []Monitor {
	var out []Monitor
	for i, l := range strings.Split(string(data), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSuffix(l, "\r"), MonitorMarker)
		if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		out = append(out, Monitor{Path: p, Line: i + 1, Text: strings.TrimSpace(rest)})
	}
	return out
}

// blockingClass is the enforcement class the battery and the hooks hold;
// the page's own taxonomy, which the enforcement map is generated from.
const blockingClass = "Blocking gates" // consumer-value-exempt: the enforcement map's own class name (§enforcement-map); scripts/ENFORCEMENT.md carries it because this emitter writes it

// classes is the taxonomy the page owns: each class, how hard it binds,
// the kit defining it and the section of that kit's SPEC.md that does.
var classes = []struct{ name, binds, kit, section string }{
	{blockingClass, "refuse the commit (tier=precommit, tier=commit-msg) or the merge (every tier, in the battery CI runs)", "gate-sdk", "The declaration header and the `# graph:` manifest"},
	{"Advisory KPIs", "report a trend and block nothing", "drift-kit", "kpis.list"},
	{"Session warnings", "print at a harness session's start and block nothing", "context-kit", "Layout and configuration"},
	{"Guards", "intercept a harness tool call before it runs", "context-kit", "Layout and configuration"},
	{"Validate suites", "run on demand as a whole; their exit code is the verdict", "evidence-kit", "bin/run-validate.sh"},
	{"Monitors", "watch a deployed surface outside the tree; the tree cannot hold them", "gate-sdk", "The enforcement map"},
}

// SpecPointer is one "([<file>](<link>) §<section>)" the page prints.
type SpecPointer struct{ File, Link, Section string }

// specPointer answers the pointer to kit's SPEC.md section, or false when
// the tree does not track that file or the file holds no such heading.
func (in EnforcementInput) specPointer(kit, section string) (SpecPointer, bool) {
	if in.Tracked == nil || in.Read == nil {
		return SpecPointer{}, false
	}
	for _, r := range in.KitRoots {
		if path.Base(r) != kit {
			continue
		}
		spec := registry.Join(strings.TrimRight(r, "/"), "SPEC.md")
		if !in.Tracked(spec) {
			continue
		}
		if in.Headings != nil {
			hs, err := in.Headings(spec)
			if err != nil || !slices.Contains(hs, section) {
				continue
			}
		} else if data, err := in.Read(spec); err != nil || !HasHeading(data, section) {
			continue
		}
		return SpecPointer{File: spec, Link: relTo(path.Dir(in.Page), spec), Section: section}, true
	}
	return SpecPointer{}, false
}

// Headings answers the text of every ATX heading (any level) of a
// markdown document, in order, repeats kept: title is one of them exactly
// when HasHeading(doc, title).
func Headings(doc []byte) []string {
	var out []string
	for len(doc) > 0 {
		var l []byte
		if i := bytes.IndexByte(doc, '\n'); i >= 0 {
			l, doc = doc[:i], doc[i+1:]
		} else {
			l, doc = doc, nil
		}
		if t, ok := headingText(l); ok {
			out = append(out, string(t))
		}
	}
	return out
}

// headingText answers an ATX heading line's text (the line without its
// LF), or false for any other line.
func headingText(l []byte) ([]byte, bool) {
	if len(l) == 0 || l[0] != '#' {
		return nil, false
	}
	l = bytes.TrimSuffix(l, []byte("\r"))
	rest := bytes.TrimLeft(l, "#")
	if len(rest) < len(l) && len(l)-len(rest) <= 6 && len(rest) > 0 && rest[0] == ' ' {
		return bytes.TrimSpace(rest), true
	}
	return nil, false
}

// HasHeading reports whether a markdown document holds an ATX heading
// (any level) whose text is exactly title.
func HasHeading(doc []byte, title string) bool {
	// Line by line over the bytes in place: a kit's SPEC is large and is
	// asked once per enforcement class, so it is neither copied to a
	// string nor split into a slice of lines.
	for len(doc) > 0 {
		var l []byte
		if i := bytes.IndexByte(doc, '\n'); i >= 0 {
			l, doc = doc[:i], doc[i+1:]
		} else {
			l, doc = doc, nil
		}
		if t, ok := headingText(l); ok && string(t) == title {
			return true
		}
	}
	return false
}

// adopted reports whether the tree vendors kit (a kit root of that name).
func (in EnforcementInput) adopted(kit string) bool {
	for _, r := range in.KitRoots {
		if path.Base(strings.TrimRight(r, "/")) == kit {
			return true
		}
	}
	return false
}

// EmitEnforcement renders the enforcement-map page. A class whose kit
// this tree does not vendor is not adopted and is left out; the two the
// page derives itself (blocking gates, monitors) are always listed. A
// class's spec pointer is printed only where it resolves in the tree.
func EmitEnforcement(in EnforcementInput) ([]byte, error) {
	var b strings.Builder
	b.WriteString("<!-- Generated by `gates --emit enforcement-map`; edit the registries, then regenerate. -->\n")
	b.WriteString("# Enforcement map\n\nEvery check surface this tree runs, by kit and enforcement class, derived from the registries that run them.\n\n")
	b.WriteString("## Enforcement classes\n\n")
	for _, c := range classes {
		if c.name != blockingClass && c.name != "Monitors" && !in.adopted(c.kit) {
			continue
		}
		ptr := ""
		if p, ok := in.specPointer(c.kit, c.section); ok {
			ptr = fmt.Sprintf(" ([%s](%s) §%s)", p.File, p.Link, p.Section)
		}
		fmt.Fprintf(&b, "- **%s** %s%s.\n", c.name, c.binds, ptr)
	}
	type row struct{ kit, gate, tier, couples string }
	var rows []row
	counts := map[string]int{}
	for _, m := range in.Registry.Distinct() {
		if m.Kind == registry.Unresolved || m.Kind == registry.Ambiguous {
			continue
		}
		if m.ManifestErr != nil {
			return nil, m.ManifestErr
		}
		kit := ownerKit(m, in.KitRoots)
		counts[kit]++
		var governs []string
		for _, t := range m.Manifest.Graph.Couples {
			if kit != ConsumerKit && in.Present != nil && !strings.Contains(t, ":") && !in.Present(t) {
				continue
			}
			governs = append(governs, t)
		}
		rows = append(rows, row{kit: kit, gate: m.Name, tier: m.Manifest.Graph.Tier, couples: strings.Join(governs, ", ")})
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].kit != rows[j].kit {
			return kitOrder(rows[i].kit) < kitOrder(rows[j].kit)
		}
		return rows[i].gate < rows[j].gate
	})
	b.WriteString("\n## Blocking gates\n\n")
	if len(rows) == 0 {
		b.WriteString("No gate is registered.\n")
	} else {
		b.WriteString("| kit | gate | tier | governs |\n|---|---|---|---|\n")
		for _, r := range rows {
			fmt.Fprintf(&b, "| %s | `%s` | %s | `%s` |\n", in.kitCell(r.kit), r.gate, r.tier, cell(r.couples))
		}
	}
	if len(in.Monitors) > 0 {
		b.WriteString("\n## Monitors\n\n| surface | what it watches |\n|---|---|\n")
		for _, m := range in.Monitors {
			fmt.Fprintf(&b, "| `%s:%d` | %s |\n", m.Path, m.Line, cell(m.Text))
		}
	}
	b.WriteString("\n## Per kit\n\n| kit | blocking gates |\n|---|---|\n")
	var kits []string
	for k := range counts {
		kits = append(kits, k)
	}
	sort.Slice(kits, func(i, j int) bool { return kitOrder(kits[i]) < kitOrder(kits[j]) })
	for _, k := range kits {
		fmt.Fprintf(&b, "| %s | %d |\n", k, counts[k])
	}
	return []byte(b.String()), nil
}

// kitOrder sorts kits by name with the consumer last.
func kitOrder(k string) string {
	if k == ConsumerKit {
		return "\xff"
	}
	return k
}

// ConsumerKit groups members declared in the consumer's gates dir.
const ConsumerKit = "(consumer)"

func ownerKit(m registry.Member, roots []string) string {
	for _, r := range roots {
		if m.Dir == registry.Join(strings.TrimRight(r, "/"), "checks") {
			return path.Base(r)
		}
	}
	return ConsumerKit
}

// kitCell links a kit's docs page where the tree tracks it.
func (in EnforcementInput) kitCell(kit string) string {
	if kit == ConsumerKit || in.Tracked == nil {
		return kit
	}
	for _, r := range in.KitRoots {
		if path.Base(r) != kit {
			continue
		}
		idx := registry.Join(strings.TrimRight(r, "/"), "index.md")
		if in.Tracked(idx) {
			return fmt.Sprintf("[%s](%s)", kit, relTo(path.Dir(in.Page), idx))
		}
	}
	return kit
}

func relTo(dir, p string) string {
	if dir == "." || dir == "" {
		return p
	}
	up := strings.Count(dir, "/") + 1
	return strings.Repeat("../", up) + p
}

// cell escapes a table cell's '|'.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
