package gates

// check-release-assets: what a Release carries is declared once, in the
// declaring doc's payload section, as one full-line comment
//
//	<!-- release-assets: <template> <template> ... -->
//
// and held twice: in the battery (one well-formed declaration, and a publish
// workflow that calls this gate with --dist), and in the publish job itself
// (--dist <dir> <version>: the directory the Release attaches holds exactly
// the declared set). The publisher's own gate: an adopter publishes nothing.

import (
	"fmt"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

// assetsOpen and assetsClose bound a declaration line.
const (
	assetsOpen  = "<!--"
	assetsToken = "release-assets:"
	assetsClose = "-->"
)

// assetDecl is one declaration line of the declaring doc.
type assetDecl struct {
	line      int
	templates []string
}

// parseAssetDecls answers every declaration line of doc. A declaration is a
// whole line (blanks around it allowed) that opens "<!--", then
// "release-assets:", and closes "-->"; the templates are the blank-separated
// words between. A line inside a code fence is an example, not a
// declaration.
func parseAssetDecls(doc string) []assetDecl {
	var out []assetDecl
	fence := false
	for i, raw := range strings.Split(doc, "\n") {
		l := strings.TrimSpace(raw)
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		body, ok := strings.CutPrefix(l, assetsOpen)
		if !ok {
			continue
		}
		body, ok = strings.CutSuffix(strings.TrimSpace(body), assetsClose)
		if !ok {
			continue
		}
		body, ok = strings.CutPrefix(strings.TrimSpace(body), assetsToken)
		if !ok {
			continue
		}
		out = append(out, assetDecl{line: i + 1, templates: strings.Fields(body)})
	}
	return out
}

// templateFault answers what is wrong with an asset template, "" when it is
// well-formed: {version} is required, {target} optional, no other
// placeholder, no stray brace and no '/'.
func templateFault(t string) string {
	if strings.Contains(t, "/") {
		return "carries a '/', and Release assets are flat"
	}
	rest := t
	version := false
	for {
		open := strings.IndexByte(rest, '{')
		close := strings.IndexByte(rest, '}')
		if open < 0 {
			if close >= 0 {
				return "carries a '}' no placeholder opened"
			}
			break
		}
		if close < 0 {
			return "carries a '{' no placeholder closes"
		}
		if close < open {
			return "carries a '}' no placeholder opened"
		}
		name := rest[open+1 : close]
		switch name {
		case "version":
			version = true
		case "target":
		default:
			return fmt.Sprintf("carries the placeholder {%s}; only {version} and {target} are admitted", name)
		}
		rest = rest[close+1:]
	}
	if !version {
		return "lacks {version}, so two releases would attach the same name"
	}
	return ""
}

// targetAsset spells a roster line inside an asset name: Release assets are
// flat, so <os>/<arch> becomes <os>-<arch>.
func targetAsset(target string) string { return strings.ReplaceAll(target, "/", "-") }

// expandTemplate answers the asset names one template declares.
func expandTemplate(t, version string, targets []string) []string {
	t = strings.ReplaceAll(t, "{version}", version)
	if !strings.Contains(t, "{target}") {
		return []string{t}
	}
	var out []string
	for _, tg := range targets {
		out = append(out, strings.ReplaceAll(t, "{target}", targetAsset(tg)))
	}
	return out
}

// callsDist reports whether a workflow line invokes this gate's publish
// half: it names the gate and --dist, and is not a comment.
func callsDist(line, name string) bool {
	l := strings.TrimSpace(line)
	if l == "" || strings.HasPrefix(l, "#") {
		return false
	}
	// A trailing comment is no part of the call.
	if i := strings.Index(l, " #"); i >= 0 {
		l = l[:i]
	}
	named, dist := false, false
	for _, w := range strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == '\t' || r == '"' || r == '\'' || r == ';' }) {
		switch {
		case w == name || strings.HasSuffix(w, "/"+name):
			named = true
		case w == "--dist":
			dist = true
		}
	}
	return named && dist
}

// assetsUsage is the operand grammar.
const assetsUsage = "[<doc> <workflow>] [--dist <dir> <version>]"

type assetsArgs struct {
	doc, workflow string // both set, or both empty
	dist, version string
	publish       bool
}

// assetsVersion reports the operand that is the version after --dist's
// directory: a word, not a path.
func assetsVersion(args []string, i int) bool {
	return i >= 2 && args[i-2] == "--dist"
}

func parseAssetsArgs(args []string) (assetsArgs, bool) {
	var a assetsArgs
	rest := args
	if len(rest) >= 2 && rest[0] != "--dist" {
		a.doc, a.workflow, rest = rest[0], rest[1], rest[2:]
	}
	switch {
	case len(rest) == 0:
	case len(rest) == 3 && rest[0] == "--dist":
		a.publish, a.dist, a.version = true, rest[1], rest[2]
	default:
		return a, false
	}
	return a, true
}

func checkReleaseAssets(c *gate.Context) int {
	a, ok := parseAssetsArgs(c.Args)
	if !ok {
		return c.Refuse("usage: %s %s", c.Name, assetsUsage)
	}
	// The publish half's operands are checked before anything is read.
	if a.publish && (a.version == "" || strings.ContainsAny(a.version, " \t\r\n/")) {
		return c.Refuse("--dist version %q is empty or carries a blank or '/', so it names no asset", a.version)
	}
	doc := a.doc
	if doc == "" {
		for _, r := range c.KitRoots {
			if path.Base(strings.TrimRight(walk.CrossArg(r), "/")) == kitOwner {
				doc = registry.Join(strings.TrimRight(r, "/"), "SPEC.md")
				break
			}
		}
		if doc == "" {
			return c.Refuse("no %s kit root here (GATE_SDK_KIT_DIRS), so the declaring doc <%s>/SPEC.md cannot be read; name it as the first operand", kitOwner, kitOwner)
		}
	}
	data, err := readOperand(c, doc, "declaring doc")
	if err != nil {
		return c.RefuseErr(err)
	}
	workflows := []string{a.workflow}
	if a.workflow == "" {
		if workflows, err = c.Knobs.Words("GATE_SDK_NATIVE_PUBLISH_WORKFLOW"); err != nil {
			return c.RefuseErr(err)
		}
		if len(workflows) == 0 {
			return c.Refuse("GATE_SDK_NATIVE_PUBLISH_WORKFLOW names no workflow, so the publish call cannot be looked for")
		}
	}
	wfData := make([][]byte, len(workflows))
	for i, wf := range workflows {
		if wfData[i], err = readOperand(c, wf, "publish workflow"); err != nil {
			return c.RefuseErr(err)
		}
	}
	var targets []string
	if a.publish {
		if targets, err = assetRoster(c); err != nil {
			return c.RefuseErr(err)
		}
	}
	r := c.NewReport(map[string]string{
		"declaration": "keep exactly one `<!-- release-assets: <template>... -->` line in the declaring doc's payload section, naming every asset a Release attaches",
		"template":    "spell each asset template with {version} (required), {target} (one asset per roster line) and no other placeholder or '/'",
		"wiring":      "add a step to a GATE_SDK_NATIVE_PUBLISH_WORKFLOW workflow that runs this gate with --dist <dir> <version> after the archives are written and before anything is attached",
		"missing":     "write the declared asset before the Release step, or drop its template from the declaration",
		"undeclared":  "declare the asset in the release-assets line, or stop writing it into the directory the Release attaches",
	})
	decls := parseAssetDecls(string(data))
	// assertion A: exactly one declaration line; none is a finding, not a refusal.
	switch {
	case len(decls) == 0:
		r.Add(gate.Finding{Class: "declaration", Path: doc, Msg: "declares no release asset set (no `<!-- release-assets: ... -->` line), so nothing owns what a Release carries"})
	case len(decls) > 1:
		for _, d := range decls[1:] {
			r.Add(gate.Finding{Class: "declaration", Path: doc, Line: d.line, Msg: fmt.Sprintf("a second release-assets declaration (the first is line %d); one line owns the set", decls[0].line)})
		}
	}
	// assertion B: every template well-formed.
	seen := map[string]int{}
	var good []string
	total := 0
	for _, d := range decls {
		if len(d.templates) == 0 {
			r.Add(gate.Finding{Class: "template", Path: doc, Line: d.line, Msg: "the declaration names no asset template"})
		}
		for _, t := range d.templates {
			total++
			if f := templateFault(t); f != "" {
				r.Add(gate.Finding{Class: "template", Path: doc, Line: d.line, Msg: fmt.Sprintf("asset template %q %s", t, f)})
				continue
			}
			// assertion C: no template twice, across every line.
			if first, dup := seen[t]; dup {
				r.Add(gate.Finding{Class: "template", Path: doc, Line: d.line, Msg: fmt.Sprintf("asset template %q is declared twice (first on line %d)", t, first)})
				continue
			}
			seen[t] = d.line
			good = append(good, t)
		}
	}
	// assertion D: some named workflow carries an uncommented --dist call.
	called := false
	for _, body := range wfData {
		for _, l := range strings.Split(string(body), "\n") {
			called = called || callsDist(l, c.Name)
		}
	}
	if !called {
		r.Add(gate.Finding{Class: "wiring", Path: strings.Join(workflows, " "), Msg: fmt.Sprintf("no publish workflow runs %s --dist, so a Release could attach a set nothing compared", c.Name)})
	}
	note := fmt.Sprintf("%s declares %d asset templates; %d publish workflows read, the --dist call present", doc, total, len(workflows))
	if a.publish {
		n, err := distHalf(c, r, a, good, targets)
		if err != nil {
			return c.RefuseErr(err)
		}
		note += fmt.Sprintf("; %s holds the %d declared assets of %s over %d targets", a.dist, n, a.version, len(targets))
	}
	return r.Done(note)
}

// distHalf compares the directory's entries with the declared expansion.
func distHalf(c *gate.Context, r *gate.Report, a assetsArgs, templates, targets []string) (int, error) {
	// assertion E: the directory holds exactly the declared assets, read flat.
	entries, err := os.ReadDir(runPath(c, a.dist))
	if err != nil {
		return 0, fmt.Errorf("cannot read the --dist directory %s: %v", a.dist, unwrapPath(err))
	}
	want := map[string]bool{}
	var order []string
	for _, t := range templates {
		for _, n := range expandTemplate(t, a.version, targets) {
			if !want[n] {
				want[n] = true
				order = append(order, n)
			}
		}
	}
	have := map[string]bool{}
	for _, e := range entries {
		have[e.Name()] = true
	}
	for _, n := range order {
		if !have[n] {
			r.Add(gate.Finding{Class: "missing", Path: registry.Join(a.dist, n), Msg: "declared asset is absent"})
		}
	}
	var extra []string
	for _, e := range entries {
		if !want[e.Name()] {
			kind := "file"
			if e.IsDir() {
				kind = "directory"
			}
			extra = append(extra, e.Name()+"\x00"+kind)
		}
	}
	sort.Strings(extra)
	for _, x := range extra {
		n, kind, _ := strings.Cut(x, "\x00")
		r.Add(gate.Finding{Class: "undeclared", Path: registry.Join(a.dist, n), Msg: kind + " is declared by no asset template"})
	}
	return len(order), nil
}

// assetRoster reads the target roster's live lines; an empty roster, or a
// line that is not <os>/<arch>, cannot be expanded.
func assetRoster(c *gate.Context) ([]string, error) {
	file, err := c.Knobs.Scalar("GATE_SDK_NATIVE_TARGETS_FILE")
	if err != nil {
		return nil, err
	}
	data, err := readOperand(c, file, "target roster (GATE_SDK_NATIVE_TARGETS_FILE)")
	if err != nil {
		return nil, err
	}
	var out []string
	for i, raw := range strings.Split(string(data), "\n") {
		l := raw
		if j := strings.IndexByte(l, '#'); j >= 0 {
			l = l[:j]
		}
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if !targetLine.Get().MatchString(l) {
			return nil, fmt.Errorf("%s:%d: target %q is not <os>/<arch>, so {target} cannot expand it", file, i+1, l)
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the target roster %s names no target, so {target} expands to nothing", file)
	}
	return out, nil
}
