package gates

// check-reads-couples: every statically resolvable recursive walk a
// registered gate makes reads only tracked files its expanded couples=
// covers, so no walk reads a surface whose edit would not fire the gate.
// A compiled member answers from its registry row (gate.Def.Reads); a
// script member is parsed for find/gate_find walks whose root is a
// literal, "$KIT" or "$REPO_ROOT".

import (
	"bytes"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/glob"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

var readsCouplesHelps = map[string]string{
	"uncovered": "widen the member's couples= to cover what its walk reads (one *<name> or *.<ext> token covers a whole tree), or narrow the walk and its declared root or filter",
}

// readsSubject is one member the gate analyzes.
type readsSubject struct {
	name       string
	decl       string
	descriptor bool
	manifest   *registry.Manifest
}

// readsCouplesRule builds the rule over a lookup of compiled rows, so a
// test can plant a row whose walk is wider than its couples.
func readsCouplesRule(lookup func(string) (gate.Def, bool)) gate.Rule {
	return func(c *gate.Context) int {
		subjects, skipped, err := readsSubjects(c)
		if err != nil {
			return c.RefuseErr(err)
		}
		ps, err := pruneSet(c)
		if err != nil {
			return c.RefuseErr(err)
		}
		r := c.NewReport(readsCouplesHelps)
		var roots, dynamic, unbounded, exempt int
		// What each member walks and what covers it, resolved first: with
		// the prune set, everything the verdict reads besides the listing.
		var plans []readsPlan
		for _, s := range subjects {
			// The shared expansion, called rather than copied; no derived
			// couples, since a knob file is no walk.
			couples, err := registry.Expand(s.manifest.Graph.Couples, allKitRoots(c), c.CouplesKnobs)
			if err != nil {
				return c.Refuse("%s: %v", s.decl, err)
			}
			var walks []declaredWalk
			if s.descriptor {
				def, ok := lookup(s.name)
				if !ok {
					// assertion C: an unavailable read set never reads as "reads nothing".
					return c.Refuse("%s declares compiled gate %s, which this binary does not carry", s.decl, s.name)
				}
				for _, root := range def.Reads {
					if root.Dynamic {
						// assertion B: a ? root is skipped and counted, never guessed.
						dynamic++
						continue
					}
					w, err := resolveRoot(c, root)
					if err != nil {
						return c.Refuse("%s: %v", s.name, err)
					}
					walks = append(walks, w)
				}
			} else {
				data, err := walk.ReadConfig(runPath(c, s.decl))
				if err != nil {
					return c.Refuse("cannot read %s: %v", s.decl, unwrapPath(err))
				}
				ws, skippedWalks, exempted := shellWalks(s.decl, data)
				walks = append(walks, ws...)
				unbounded += skippedWalks
				exempt += exempted
			}
			roots += len(walks)
			plans = append(plans, readsPlan{subject: s, couples: couples, walks: walks})
		}
		findings, reads, err := readsCovered(c, plans, ps)
		if err != nil {
			return c.RefuseErr(err)
		}
		for _, f := range findings {
			r.Add(f)
		}
		return r.Done(fmt.Sprintf("%s, %s covering %s; %d ? %s and %d unresolvable shell %s skipped, %d exempted, %d unresolved %s",
			plural(len(subjects), "member", "members"), plural(roots, "walk root", "walk roots"), plural(reads, "tracked read", "tracked reads"),
			dynamic, pick(dynamic, "root", "roots"), unbounded, pick(unbounded, "walk", "walks"), exempt, skipped, pick(skipped, "member", "members")))
	}
}

func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// readsSubjects answers the members to analyze: the positional sources
// (fixture mode), else every resolved registry member.
func readsSubjects(c *gate.Context) ([]readsSubject, int, error) {
	var out []readsSubject
	if len(c.Args) > 0 {
		for _, a := range c.Args {
			data, err := walk.ReadConfig(runPath(c, a))
			if err != nil {
				return nil, 0, fmt.Errorf("cannot read %s: %w", a, unwrapPath(err))
			}
			m, err := registry.ParseManifest(a, data)
			if err != nil {
				return nil, 0, err
			}
			base := path.Base(a)
			out = append(out, readsSubject{name: strings.TrimSuffix(strings.TrimSuffix(base, ".gate"), ".sh"), decl: a, descriptor: strings.HasSuffix(a, ".gate"), manifest: m})
		}
		return out, 0, nil
	}
	if c.Coupling == nil {
		return nil, 0, fmt.Errorf("no registry loader in this context")
	}
	reg, _, err := c.Coupling()
	if err != nil {
		return nil, 0, err
	}
	skipped := 0
	for _, m := range reg.Distinct() {
		switch m.Kind {
		case registry.Unresolved:
			skipped++
			continue
		case registry.Ambiguous:
			return nil, 0, m.Resolution.Err()
		}
		if m.ManifestErr != nil {
			return nil, 0, m.ManifestErr
		}
		out = append(out, readsSubject{name: m.Name, decl: m.Path, descriptor: m.Kind == registry.Descriptor, manifest: m.Manifest})
	}
	return out, skipped, nil
}

// declaredWalk is one bounded walk: its root (repository-relative, "" for
// the top), its filter and its prunes.
type declaredWalk struct {
	root    string
	kind    string // "", "glob", "name" or "ext"
	pats    []string
	filter  string // as declared, for messages
	prunes  []string
	shell   bool // a gate_find-less find: no prune set applies
	gateFnd bool
}

// memoKey spells everything selects reads of the walk, so two walks with
// one key select the same files.
func (w declaredWalk) memoKey() string {
	var b strings.Builder
	for _, f := range append([]string{w.root, w.kind, fmt.Sprint(w.shell, w.gateFnd), fmt.Sprint(len(w.pats))}, append(w.pats, w.prunes...)...) {
		fmt.Fprintf(&b, "%d:%s;", len(f), f)
	}
	return b.String()
}

func (w declaredWalk) describe() string {
	r := w.root
	if r == "" {
		r = "."
	}
	if w.filter != "" {
		return r + " (" + w.filter + ")"
	}
	return r
}

// selects answers the tracked files the walk reads, in listing order;
// files must be in byte order. The answer may share files' elements: it
// is only read.
func (w declaredWalk) selects(files []string, ps walk.PruneSet) []string {
	prefix := ""
	if w.root != "" {
		prefix = w.root + "/"
		// The listing is in byte order, so the root's files are one run:
		// start at its first and stop after its last.
		lo := sort.SearchStrings(files, prefix)
		hi := lo
		for hi < len(files) && strings.HasPrefix(files[hi], prefix) {
			hi++
		}
		files = files[lo:hi]
	}
	match := w.matcher()
	// Both prune tests read only rel's directory part: asked once per
	// directory.
	dropped := walk.ByDir(func(rel string) bool {
		// assertion D: a compiled root and a gate_find walk drop the pruned dirs, both knobs together.
		return (!w.shell || w.gateFnd) && ps.PathPruned(rel) || prunedBy(w.prunes, rel)
	})
	// A walk that reads every file of its run (a whole-tree YAML root,
	// say) answers the run itself, read-only, not a copy of it.
	return keepListed(files, func(f string) bool {
		rel, ok := strings.CutPrefix(f, prefix)
		return ok && !dropped(rel) && match(rel)
	})
}

// keepListed answers the files keep accepts, in order: the listing itself
// (shared, read-only, its capacity clipped) when keep drops none, else a
// copy sized for every file left, since capacity never touched costs no
// page where growing by doubling would copy the listing again.
func keepListed(files []string, keep func(string) bool) []string {
	for i, f := range files {
		if keep(f) {
			continue
		}
		out := append(make([]string, 0, len(files)-1), files[:i]...)
		for _, g := range files[i+1:] {
			if keep(g) {
				out = append(out, g)
			}
		}
		return out
	}
	return files[:len(files):len(files)]
}

// matcher answers the walk's filter as a predicate, its ext: suffixes
// spelled once rather than per path.
func (w declaredWalk) matcher() func(string) bool {
	if w.kind == "" {
		return func(string) bool { return true }
	}
	var exts []string
	if w.kind == "ext" {
		for _, p := range w.pats {
			exts = append(exts, "."+strings.TrimPrefix(p, "."))
		}
	}
	may := make([]literalFilter, len(w.pats))
	for i, p := range w.pats {
		may[i] = newLiteralFilter(p)
	}
	return func(rel string) bool { return w.matchOne(rel, exts, may) }
}

// literalFilter is a necessary condition of a case pattern whose only
// special character is '*' (which spans '/' as well): a name it matches
// opens with the literal before the first '*', closes with the literal
// after the last, and holds each literal between, in order. Tested before
// glob.Match, which still judges every name the filter passes; a pattern
// with any other special character passes everything.
type literalFilter struct {
	on         bool
	head, tail string
	mids       []string
}

func newLiteralFilter(p string) literalFilter {
	// A "**/" may stand for no directory, taking its '/' with it, so its
	// pattern's literals are not all necessary.
	if !strings.Contains(p, "*") || strings.ContainsAny(p, "?[]\\()|@!+") || strings.Contains(p, "**/") {
		return literalFilter{}
	}
	parts := strings.Split(p, "*")
	f := literalFilter{on: true, head: parts[0], tail: parts[len(parts)-1]}
	for _, m := range parts[1 : len(parts)-1] {
		if m != "" {
			f.mids = append(f.mids, m)
		}
	}
	return f
}

// may reports whether the pattern can match s.
func (f literalFilter) may(s string) bool {
	if !f.on {
		return true
	}
	if len(s) < len(f.head)+len(f.tail) || !strings.HasPrefix(s, f.head) || !strings.HasSuffix(s, f.tail) {
		return false
	}
	rest := s[len(f.head) : len(s)-len(f.tail)]
	for _, m := range f.mids {
		i := strings.Index(rest, m)
		if i < 0 {
			return false
		}
		rest = rest[i+len(m):]
	}
	return true
}

func (w declaredWalk) matchOne(rel string, exts []string, may []literalFilter) bool {
	// A listed path is never empty and never ends in '/', so its base is
	// what follows the last '/' (path.Base, without its edge cases).
	base := rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		base = rel[i+1:]
	}
	for i, p := range w.pats {
		switch {
		case w.kind == "ext" && strings.HasSuffix(base, exts[i]):
			return true
		case w.kind == "name" && !strings.Contains(p, "/") && may[i].may(base) && glob.Match(p, base):
			return true
		case (w.kind == "glob" || w.kind == "name") && strings.Contains(p, "/") && componentMatch(p, rel):
			return true
		case w.kind == "glob" && !strings.Contains(p, "/") && componentMatch(p, rel):
			return true
		}
	}
	return false
}

// componentMatch matches a root-relative path segment by segment; "**"
// spans any number of segments. It runs for every listed path under every
// walk root, so it walks both strings in place and allocates nothing.
func componentMatch(pat, p string) bool {
	return segMatch(pat, true, p, true)
}

// cutSeg splits off s's first '/'-separated segment; more is false when
// it was the last one.
func cutSeg(s string) (seg, rest string, more bool) {
	if i := strings.IndexByte(s, '/'); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return s, "", false
}

// segMatch matches the segment list pat against the list s; a list whose
// live flag is false is empty (a live "" is one empty segment, as
// strings.Split spells it).
func segMatch(pat string, patLive bool, s string, sLive bool) bool {
	for patLive {
		pseg, prest, pmore := cutSeg(pat)
		if pseg == "**" {
			for {
				if segMatch(prest, pmore, s, sLive) {
					return true
				}
				if !sLive {
					return false
				}
				_, s, sLive = cutSeg(s)
			}
		}
		if !sLive {
			return false
		}
		sseg, srest, smore := cutSeg(s)
		if !glob.Match(pseg, sseg) {
			return false
		}
		pat, patLive, s, sLive = prest, pmore, srest, smore
	}
	return !sLive
}

// prunedBy reports whether a directory above rel (each proper prefix
// ending at a '/') matches one of the walk's prune patterns.
func prunedBy(prunes []string, rel string) bool {
	if len(prunes) == 0 {
		return false
	}
	// Each directory prefix of rel, shortest first.
	for i := 0; i < len(rel); i++ {
		if rel[i] != '/' {
			continue
		}
		for _, p := range prunes {
			if componentMatch(p, rel[:i]) {
				return true
			}
		}
	}
	return false
}

// resolveRoot resolves a compiled root's knob tokens. An unresolvable
// filter knob refuses: "cannot verify" is not "covered".
func resolveRoot(c *gate.Context, root gate.Root) (declaredWalk, error) {
	w := declaredWalk{filter: root.Filter}
	rp := root.Path
	if name, ok := strings.CutPrefix(rp, registry.PrefixKnob); ok {
		v, err := c.Knobs.Scalar(name)
		if err != nil {
			return w, fmt.Errorf("root %s: %v", rp, err)
		}
		rp = v
	}
	w.root = strings.Trim(strings.TrimPrefix(rp, "./"), "/")
	if w.root == "." {
		w.root = ""
	}
	if root.Filter != "" {
		kind, src, ok := strings.Cut(root.Filter, ":")
		if !ok || (kind != "glob" && kind != "name" && kind != "ext") {
			return w, fmt.Errorf("filter %q has no kind (glob:, name: or ext:)", root.Filter)
		}
		w.kind = kind
		switch {
		case strings.HasPrefix(src, "lit:"):
			w.pats = strings.Split(strings.TrimPrefix(src, "lit:"), ",")
		case strings.HasPrefix(src, "knob:"):
			name := strings.TrimPrefix(src, "knob:")
			if c.CouplesKnobs == nil {
				return w, fmt.Errorf("filter %s: no knob table to resolve it", root.Filter)
			}
			v, err := c.CouplesKnobs.Knob(name)
			if err != nil {
				return w, fmt.Errorf("filter %s is unresolvable: %v", root.Filter, err)
			}
			switch v.Shape {
			case registry.ShapeIndexed, registry.ShapeWords:
				w.pats = v.Elems
			case registry.ShapeScalar, registry.ShapeLocator:
				// The wire joins a knob's members with a tab.
				if v.Value != "" {
					w.pats = strings.Split(v.Value, "\t")
				}
			default:
				return w, fmt.Errorf("filter %s names a packed knob; name one field", root.Filter)
			}
		default:
			return w, fmt.Errorf("filter %q: the source is knob:<NAME> or lit:<list>", root.Filter)
		}
		// A declared knob resolving empty selects nothing, as the walk does.
		if len(w.pats) == 0 {
			w.pats = nil
			w.kind = "none"
		}
	}
	for _, p := range root.Prune {
		if name, ok := strings.CutPrefix(p, registry.PrefixKnob); ok {
			v, err := c.Knobs.Scalar(name)
			if err != nil {
				return w, fmt.Errorf("prune %s: %v", p, err)
			}
			p = v
		}
		if p != "" {
			w.prunes = append(w.prunes, p)
		}
	}
	return w, nil
}

// The shell arm's tractable class.
var (
	// A root or a -name pattern is a quoted word or a bare one; a bare
	// word ends where the shell would end it.
	walkCmdRe = lazyre.New(`(?:^|[;|&(]\s*|\$\(\s*)(gate_find|find)\s+("[^"]*"|'[^']*'|[^\s"';|&()<>` + "`" + `-][^\s"';|&()<>` + "`" + `]*)`)
	nameRe    = lazyre.New(`-name\s+('[^']*'|"[^"]*"|[^\s"';|&()<>` + "`" + `]+)`)
	exemptRe  = lazyre.New(`#\s*reads-couples-exempt:\s*\S`)
)

// shellWalks parses a script's find/gate_find walks. A walk whose root is
// not a quoted literal, "$KIT"[/sub] or "$REPO_ROOT"[/sub] is skipped and
// counted; one marked # reads-couples-exempt: on its line or the line
// directly above is exempted and counted.
func shellWalks(decl string, data []byte) ([]declaredWalk, int, int) {
	kit := ""
	if d := path.Dir(decl); path.Base(d) == "checks" {
		kit = path.Dir(d)
	}
	var out []declaredWalk
	skipped, exempted := 0, 0
	lines := strings.Split(string(data), "\n")
	for i, line := range lines {
		code := line
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, m := range walkCmdRe.Get().FindAllStringSubmatchIndex(code, -1) {
			if exemptRe.Get().MatchString(line) || (i > 0 && strings.HasPrefix(strings.TrimSpace(lines[i-1]), "#") && exemptRe.Get().MatchString(lines[i-1])) {
				exempted++
				continue
			}
			cmd := code[m[2]:m[3]]
			arg := unquoteWord(code[m[4]:m[5]])
			root, ok := shellRoot(arg, kit)
			if !ok {
				skipped++
				continue
			}
			w := declaredWalk{root: root, shell: true, gateFnd: cmd == "gate_find"}
			if nm := nameRe.Get().FindStringSubmatch(code[m[1]:]); nm != nil {
				pat := unquoteWord(nm[1])
				if !strings.ContainsAny(pat, "$\\") {
					w.kind, w.pats, w.filter = "name", []string{pat}, "-name "+pat
				}
			}
			out = append(out, w)
		}
	}
	return out, skipped, exempted
}

// unquoteWord strips one pair of enclosing quotes from a word the walk
// regexes captured; a bare word is answered as written.
func unquoteWord(w string) string {
	if len(w) >= 2 && (w[0] == '"' || w[0] == '\'') && w[len(w)-1] == w[0] {
		return w[1 : len(w)-1]
	}
	return w
}

func shellRoot(arg, kit string) (string, bool) {
	clean := func(s string) string { return strings.Trim(strings.TrimPrefix(s, "./"), "/") }
	switch {
	case strings.HasPrefix(arg, "$KIT"):
		if kit == "" {
			return "", false
		}
		rest := strings.TrimPrefix(arg, "$KIT")
		// path-dialect-exempt: a "/" after $KIT is the shell word's join, not a rooted path
		if rest != "" && !strings.HasPrefix(rest, "/") || strings.Contains(rest, "$") {
			return "", false
		}
		return clean(kit + rest), true
	case strings.HasPrefix(arg, "$REPO_ROOT"):
		rest := strings.TrimPrefix(arg, "$REPO_ROOT")
		// path-dialect-exempt: a "/" after $REPO_ROOT is the shell word's join, not a rooted path
		if rest != "" && !strings.HasPrefix(rest, "/") || strings.Contains(rest, "$") {
			return "", false
		}
		return clean(rest), true
	case strings.ContainsAny(arg, "$`*?") || walk.PathRoot(arg):
		return "", false
	case arg == "." || arg == "":
		return "", true
	}
	return clean(arg), true
}

// readsPlan is one member's resolved walks and the couples that must
// cover what they read.
type readsPlan struct {
	subject readsSubject
	couples []string
	walks   []declaredWalk
}

// readsCoupleSetTable keeps a whole verdict's findings and read count,
// keyed by the listing's digest under a table whose configuration spells
// every plan and the prune set.
const readsCoupleSetTable = "READS-COUPLES-SETS"

// readsCovered answers the uncovered reads of plans over the tracked
// listing and how many reads were checked. Over a tree naming its whole
// listing in one digest the answer is kept whole, and one kept for a
// prior tree of the same listing is taken as it is, the listing unread.
func readsCovered(c *gate.Context, plans []readsPlan, ps walk.PruneSet) ([]gate.Finding, int, error) {
	var sets *gate.SetResults
	key, keyed := "", false
	if c.WholeListing() {
		sets = c.SetResults(readsCoupleSetTable, readsConfig(plans, ps))
		key, keyed = sets.KeyOf(nil, nil)
	}
	if keyed {
		if fs, reads, ok := keptReads(sets, key); ok {
			return fs, reads, nil
		}
		// assertion E: the verdict reads the listing's paths and nothing
		// of any tracked file's bytes, so a prior tree that differs only
		// in some files' bytes had this verdict under this configuration.
		if prior := c.TreePrior(); prior != nil {
			if pk, ok := sets.KeyAt(prior.Digest, nil); ok {
				if fs, reads, ok := keptReads(sets, pk); ok {
					sets.Store(key, encodeReads(fs, reads))
					return fs, reads, nil
				}
			}
		}
	}
	files, err := c.Tree.Files()
	if err != nil {
		return nil, 0, err
	}
	// The index lists in byte order already; a tree that does not is
	// put in it (Files then answers a fresh slice; an ordered listing is
	// shared and never sorted here).
	if !sort.StringsAreSorted(files) {
		sort.Strings(files)
	}
	var out []gate.Finding
	reads := 0
	selected := map[string][]string{}
	for _, p := range plans {
		for _, w := range p.walks {
			// Members sharing a walk (the workflow gates all read the
			// same YAML root) share its selection.
			k := w.memoKey()
			sel, ok := selected[k]
			if !ok {
				sel = w.selects(files, ps)
				selected[k] = sel
			}
			for _, f := range sel {
				reads++
				if !registry.MatchesAny(p.couples, f) {
					// assertion A: a read outside the couples is a read the hook would sleep through.
					out = append(out, gate.Finding{Class: "uncovered", Path: p.subject.decl, Msg: fmt.Sprintf("%s walks %s and reads %s, which no couples= token covers", p.subject.name, w.describe(), f)})
				}
			}
		}
	}
	if keyed {
		sets.Store(key, encodeReads(out, reads))
	}
	return out, reads, nil
}

// readsConfig spells everything readsCovered reads besides the listing.
func readsConfig(plans []readsPlan, ps walk.PruneSet) *cache.Config {
	var k cache.Config
	for _, n := range ps.Names() {
		k.AddString("prune", n)
	}
	for _, p := range plans {
		k.AddString("member", p.subject.name)
		k.AddString("decl", p.subject.decl)
		k.AddString("couples", strconv.Itoa(len(p.couples)))
		for _, t := range p.couples {
			k.AddString("couple", t)
		}
		k.AddString("walks", strconv.Itoa(len(p.walks)))
		for _, w := range p.walks {
			k.AddString("walk", w.memoKey())
			k.AddString("describe", w.describe())
		}
	}
	return &k
}

func encodeReads(fs []gate.Finding, reads int) []byte {
	return append([]byte(strconv.Itoa(reads)+"\n"), gate.EncodeFindings(fs)...)
}

func keptReads(sets *gate.SetResults, key string) ([]gate.Finding, int, bool) {
	v, hit := sets.Lookup(key)
	if !hit {
		return nil, 0, false
	}
	head, rest, ok := bytes.Cut(v, []byte("\n"))
	if !ok {
		return nil, 0, false
	}
	reads, err := strconv.Atoi(string(head))
	if err != nil {
		return nil, 0, false
	}
	fs, err := gate.DecodeFindings(rest)
	if err != nil {
		return nil, 0, false
	}
	return fs, reads, true
}
