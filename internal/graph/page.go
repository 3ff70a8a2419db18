package graph

import (
	"errors"
	"fmt"
	"html"
	"io/fs"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/registry"
)

// DefaultCap is the cap a page declaring none is held to (assertion I):
// the 500 edges the earlier, mermaid-drawn page format was limited to.
const DefaultCap = 500

// Theme is the consumer's three optional part files, each inlined byte
// for byte; a nil part falls back (the kit stylesheet, or nothing).
type Theme struct {
	Dir    string
	CSS    []byte
	Header []byte
	Footer []byte
}

// ThemeParts is the closed roster of part files.
var ThemeParts = []string{"theme.css", "header.html", "footer.html"}

// LegacyTheme is the retired sourced theme's name in the gates dir.
const LegacyTheme = "graph-theme.sh"

// ReadTheme reads the part files under dir. An absent dir or part falls
// back; a part that is there and will not read is refused. A legacy
// graph-theme.sh in gatesDir is refused naming the migration.
func ReadTheme(files Files, dir, gatesDir string) (*Theme, error) {
	legacy := strings.TrimSuffix(gatesDir, "/") + "/" + LegacyTheme
	if _, err := files.ReadFile(legacy); err == nil {
		// assertion L: the retired seam fails loudly, never silently unthemed.
		return nil, fmt.Errorf("%s: the sourced theme is retired and read by nothing; move graph_theme_css/_header/_footer's output into theme.css, header.html and footer.html under GATE_SDK_GRAPH_THEME_DIR (%s) and delete it", legacy, dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: cannot examine: %w", legacy, err)
	}
	t := &Theme{Dir: dir}
	for i, part := range ThemeParts {
		p := strings.TrimSuffix(dir, "/") + "/" + part
		data, err := files.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: cannot read theme part: %w", p, err)
		}
		switch i {
		case 0:
			t.CSS = data
		case 1:
			t.Header = data
		case 2:
			t.Footer = data
		}
	}
	return t, nil
}

// Page is what the emitter needs beyond the model.
type Page struct {
	Vocab    *Vocab
	Theme    *Theme
	MaxEdges uint64
}

// Emit renders the coupling-graph page: the drawing as inline SVG laid
// out here (no script, no network), then the member table. The same
// model, vocabulary, theme and cap give the same bytes on every machine.
func Emit(m *Model, p Page) []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	b.WriteString("<meta name=\"color-scheme\" content=\"light dark\">\n")
	b.WriteString("<title>Coupling graph</title>\n<style>\n")
	if p.Theme != nil && p.Theme.CSS != nil {
		b.Write(p.Theme.CSS) // verbatim: no newline added or stripped
	} else {
		b.WriteString(defaultCSS)
	}
	b.WriteString("</style>\n</head>\n<body>\n")
	if p.Theme != nil && p.Theme.Header != nil {
		b.Write(p.Theme.Header)
	}
	surfaces := m.Surfaces()
	edges := m.Edges()
	fmt.Fprintf(&b, "<header class=\"cg-head\">\n<h1>Coupling graph</h1>\n<p class=\"cg-sub\">%d %s, %d coupled %s, %d %s. Each gate runs when a commit touches a surface it couples; an arrow points from the gate to what it reads.</p>\n</header>\n",
		len(m.Nodes), plural(len(m.Nodes), "gate", "gates"), len(surfaces), plural(len(surfaces), "surface", "surfaces"), edges, plural(edges, "edge", "edges"))
	b.WriteString(legendHTML)
	b.WriteString("<main>\n<figure class=\"cg-figure\">\n<div class=\"cg-scroll\">\n")
	writeSVG(&b, Lay(m, p.Vocab), p.MaxEdges)
	b.WriteString("</div>\n<figcaption>Point at or select a gate or a surface to follow its edges; select the background to clear. Every gate and surface also appears in the table below.</figcaption>\n</figure>\n")
	writeTable(&b, m)
	b.WriteString("</main>\n")
	if p.Theme != nil && p.Theme.Footer != nil {
		b.Write(p.Theme.Footer)
	}
	b.WriteString("</body>\n</html>\n")
	return []byte(b.String())
}

func layerRank(v *Vocab, id string) int {
	for i, l := range v.Layers {
		if l.ID == id {
			return i
		}
	}
	return len(v.Layers)
}

func tierClass(m *registry.Manifest) string {
	switch m.Graph.Tier {
	case registry.TierAlignOnly:
		return "alignonly"
	case registry.TierCommitMsg:
		return "commitmsg"
	}
	return "precommit"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func writeTable(b *strings.Builder, m *Model) {
	b.WriteString("<section class=\"cg-table\">\n<h2>Members</h2>\n<table>\n<thead><tr><th>gate</th><th>tier</th><th>dir</th><th>valve</th><th>couples</th><th>fires on</th></tr></thead>\n<tbody>\n")
	for _, n := range m.Nodes {
		g := n.Manifest.Graph
		kind := "script"
		if n.Compiled {
			kind = "compiled"
		}
		fmt.Fprintf(b, "<tr><td><code>%s</code> <span class=\"cg-kind\">%s</span></td><td>%s</td><td>%s</td><td>%s</td><td>", html.EscapeString(n.Name), kind, html.EscapeString(g.Tier), html.EscapeString(g.Dir), html.EscapeString(g.Valve))
		for i, c := range n.Drawn() {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(b, "<code>%s</code>", html.EscapeString(c))
		}
		b.WriteString("</td><td class=\"cg-fires\">")
		sep := ""
		for _, t := range n.Trigger.Patterns {
			if n.Hidden[t] {
				continue
			}
			b.WriteString(sep)
			sep = " "
			fmt.Fprintf(b, "<code>%s</code>", html.EscapeString(t))
		}
		b.WriteString("</td></tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	if k := m.HiddenCount(); k > 0 {
		fmt.Fprintf(b, "<p class=\"cg-skip\">Left out: %d kit-gate %s to patterns no file in this tree matches.</p>\n", k, plural(k, "coupling", "couplings"))
	}
	if len(m.Skipped) > 0 {
		fmt.Fprintf(b, "<p class=\"cg-skip\">Registered but resolving nowhere, so not drawn: %s.</p>\n", html.EscapeString(strings.Join(m.Skipped, ", ")))
	}
	b.WriteString("</section>\n")
}

const legendHTML = `<aside class="cg-legend" aria-label="legend">
<span class="cg-key"><span class="cg-sw cg-pre"></span>precommit gate</span>
<span class="cg-key"><span class="cg-sw cg-align"></span>align-only gate</span>
<span class="cg-key"><span class="cg-sw cg-msg"></span>commit-msg gate</span>
<span class="cg-key"><span class="cg-sw cg-surf"></span>coupled surface, boxed by layer and directory</span>
<span class="cg-key">square corners: compiled gate; round corners: script gate</span>
<span class="cg-key"><b>&rarr;</b> dir=one (one-way audit)</span>
<span class="cg-key"><b>&harr;</b> dir=bi (both sides must agree)</span>
<span class="cg-key"><b>&#8674;</b> dashed: a derived couple (the knob file the gate's knobs live in)</span>
</aside>
`

const defaultCSS = `:root { --bg: #ffffff; --fg: #0f172a; --muted: #475569; --line: #e2e8f0; --panel: #f8fafc; --accent: #2563eb; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0b1120; --fg: #e2e8f0; --muted: #94a3b8; --line: #1e293b; --panel: #111827; --accent: #60a5fa; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.cg-head { padding: 1.25rem 1.5rem 0.5rem; }
.cg-head h1 { margin: 0 0 0.25rem; font-size: 1.5rem; letter-spacing: -0.01em; }
.cg-sub { margin: 0; color: var(--muted); max-width: 60rem; }
.cg-legend { display: flex; flex-wrap: wrap; gap: 0.4rem 1.1rem; padding: 0.6rem 1.5rem; margin: 0.5rem 1.5rem 0; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; font-size: 0.85rem; color: var(--muted); }
.cg-key { display: inline-flex; align-items: center; gap: 0.4rem; }
.cg-sw { display: inline-block; width: 0.95rem; height: 0.95rem; border-radius: 3px; border: 1.5px solid; }
.cg-pre { background: #dbeafe; border-color: #2563eb; }
.cg-align { background: #fef3c7; border-color: #d97706; }
.cg-msg { background: #ede9fe; border-color: #7c3aed; }
.cg-surf { background: #f1f5f9; border-color: #64748b; }
main { padding: 0 1.5rem 2rem; }
.cg-figure { margin: 1rem 0; padding: 1rem; overflow-x: auto; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; }
.cg-scroll { overflow: auto; max-height: 85vh; }
.cg-figure figcaption { margin-top: 0.5rem; font-size: 0.8rem; color: var(--muted); }
.cg-table h2 { font-size: 1.1rem; margin: 1.5rem 0 0.5rem; }
.cg-table table { border-collapse: collapse; width: 100%; font-size: 0.85rem; }
.cg-table th, .cg-table td { text-align: left; vertical-align: top; padding: 0.35rem 0.6rem; border-bottom: 1px solid var(--line); }
.cg-table th { color: var(--muted); font-weight: 600; }
.cg-table code { font: 0.8rem ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--line); padding: 0.05rem 0.3rem; border-radius: 4px; display: inline-block; margin: 0.05rem 0; }
.cg-kind { color: var(--muted); font-size: 0.75rem; }
.cg-skip { color: var(--muted); font-size: 0.85rem; }
`

// Input is everything one emission reads.
type Input struct {
	Registry  *registry.Registry
	Env       *registry.Env
	Files     Files
	GatesDir  string
	VocabPath string // GATE_SDK_GRAPH_VOCAB, resolved
	ThemeDir  string // GATE_SDK_GRAPH_THEME_DIR, resolved
	MaxEdges  string // GATE_SDK_GRAPH_MAX_EDGES, resolved
	// Present answers whether any file of the tree matches a pattern; the
	// page leaves out the kit patterns it answers false for (see
	// Model.Restrict). Nil draws every pattern.
	Present func(pattern string) bool
}

// Built is one emission with what it was drawn from.
type Built struct {
	Model *Model
	Vocab *Vocab
	Theme *Theme
	Page  []byte
}

// Assemble reads the vocabulary and the theme and emits the page: the one
// function --emit graph prints and check-graph compares.
func Assemble(in Input) (*Built, error) {
	cap, err := strconv.ParseUint(in.MaxEdges, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("GATE_SDK_GRAPH_MAX_EDGES %q is not a whole number", in.MaxEdges)
	}
	v, err := ReadVocab(in.Files, in.VocabPath, in.GatesDir)
	if err != nil {
		return nil, err
	}
	t, err := ReadTheme(in.Files, in.ThemeDir, in.GatesDir)
	if err != nil {
		return nil, err
	}
	m := Build(in.Registry, in.Env)
	m.Restrict(in.Present)
	return &Built{Model: m, Vocab: v, Theme: t, Page: Emit(m, Page{Vocab: v, Theme: t, MaxEdges: cap})}, nil
}
