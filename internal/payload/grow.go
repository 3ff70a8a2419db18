package payload

// A later init over a registry an earlier one wrote: the registry is the
// adopter's, so init only adds to it. A kit gate init left out for what
// the repository was (no gate of its own yet, no shell, a surface it
// lacked) and a gate new in this release are decided again; each that
// now applies gains its member line, each still left out that the file
// does not name gains its `# unregistered:` line. A line the adopter
// wrote is never removed or rewritten, and a gate init registered that
// the file no longer lists was dropped by the adopter and stays dropped.

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"regexp"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/kits"
)

// initReason matches the reasons init writes on an `# unregistered:`
// line, after its tier word: a line holding one is init's, not the
// adopter's, and may turn into a member line once the gate applies.
var initReason = regexp.MustCompile(`^(it judges gates|it lints shell|this repository publishes no kit|cannot run on this tree yet|could not be probed|reds on the tree as init found it|the commit history could not be read|[0-9]+ of (the )?[0-9]+ recent )`)

// initWroteReason reports whether an `# unregistered:` reason is one
// init writes.
func initWroteReason(reason string) bool {
	for _, tier := range []string{"zero-config: ", "on-surface: "} {
		if r, ok := strings.CutPrefix(reason, tier); ok {
			return initReason.MatchString(r)
		}
	}
	return false
}

// candidate is a kit gate a later init decides again.
type candidate struct {
	gateDecl
	class string
	line  int // 0-based line of init's `# unregistered:` line; -1 when none
	// reason is that line's reason, tier word included.
	reason string
}

// reasonKind answers the opening of a reason init writes, every figure
// in it read as one: two reasons of one kind say the same thing.
func reasonKind(reason string) string {
	_, r, _ := strings.Cut(reason, ": ")
	return figures.ReplaceAllString(initReason.FindString(r), "#")
}

var figures = regexp.MustCompile(`[0-9]+`)

// growCandidates answers the kit gates to decide again over the registry
// text cur: neither listed, nor left out by a line the adopter wrote, nor
// registered by an earlier init and since dropped.
func growCandidates(p *Plan, cur []byte, path string, prior *Lock) ([]candidate, error) {
	list, err := registry.ParseList(path, cur)
	if err != nil {
		return nil, err
	}
	listed := map[string]bool{}
	for _, e := range list.Entries {
		listed[e.Name] = true
	}
	left := map[string]registry.Unregistered{}
	for _, u := range list.Unregistered {
		if _, dup := left[u.Name]; !dup {
			left[u.Name] = u
		}
	}
	dropped := map[string]bool{}
	if prior != nil {
		for _, g := range prior.Registered {
			dropped[g] = !listed[g]
		}
	}
	var out []candidate
	add := func(gs []gateDecl, class string) {
		for _, g := range gs {
			if listed[g.name] {
				continue
			}
			c := candidate{gateDecl: g, class: class, line: -1}
			if u, ok := left[g.name]; ok {
				if !initWroteReason(u.Reason) {
					continue // the adopter's decision
				}
				c.line, c.reason = u.Line-1, u.Reason
			} else if dropped[g.name] {
				continue
			}
			out = append(out, c)
		}
	}
	add(p.zero, "zero-config")
	add(p.onSurface, "on-surface")
	return out, nil
}

// growRegistry decides the candidates over the tree as it is and answers
// the registry text with what applies added, the verdicts that changed
// something, and the gates it registered. Each probe runs against the
// registry as the adopter has it: init writes nothing until it decided.
func growRegistry(w *InitWorld, p *Plan, cur []byte, cands []candidate, accepting bool) (body []byte, changed []Verdict, added []string) {
	lines := strings.Split(strings.TrimSuffix(string(cur), "\n"), "\n")
	if len(cur) == 0 {
		lines = nil
	}
	var tail []string
	for _, c := range cands {
		v, _ := adoptVerdict(w, p, c.name, accepting)
		switch {
		case v.Registered && c.line >= 0:
			lines[c.line] = c.name
		case v.Registered:
			tail = append(tail, c.name)
		case c.line < 0:
			tail = append(tail, "# unregistered: "+c.name+" \u2014 "+c.class+": "+v.Why)
		case reasonKind(c.class+": "+v.Why) != reasonKind(c.reason):
			// init's own line, its reason out of date: say the new one. A
			// figure that moved (the history's count) is not a new reason.
			lines[c.line] = "# unregistered: " + c.name + " \u2014 " + c.class + ": " + v.Why
		default:
			continue // still left out, and its line says why
		}
		changed = append(changed, v)
		if v.Registered {
			added = append(added, c.name)
		}
	}
	if len(tail) > 0 {
		lines = append(lines, "# Added by a later `gates init`: what applies to the repository as it now is.")
		lines = append(lines, tail...)
	}
	out := strings.Join(lines, "\n")
	if len(lines) > 0 {
		out += "\n"
	}
	return []byte(out), changed, added
}

// printGrowth says what a later init added to the registry.
func printGrowth(w *InitWorld, rel string, changed []Verdict) {
	var added []string
	for _, v := range changed {
		if v.Registered {
			added = append(added, v.Gate)
		}
	}
	switch {
	case len(added) > 0:
		fmt.Fprintf(w.Stdout, "init: added %s to %s: %s; every line you wrote is kept\n", gate.Count(len(added), "gate", "gates"), rel, strings.Join(added, ", "))
	case len(changed) > 0:
		fmt.Fprintf(w.Stdout, "init: added no gate to %s (each left out is named there with its reason); every line you wrote is kept\n", rel)
	}
}

// growInstall is the later run's registry step: decide the candidates,
// write what was added, write check-graph's page where it was just
// registered, accept the new gates' findings of today, and say what was
// added. It answers whether the page was written.
func growInstall(w *InitWorld, p *Plan, rel string, pageStep *step, lock, next *Lock) (bool, error) {
	cur, err := os.ReadFile(joinTop(w.Top, rel))
	if err != nil {
		return false, fmt.Errorf("init: cannot read %s: %v", rel, err)
	}
	cands, err := growCandidates(p, cur, rel, lock)
	if err != nil || len(cands) == 0 {
		return false, err
	}
	accepting, err := baselineIsInits(w, p, lock)
	if err != nil {
		return false, err
	}
	if h := p.history; h != nil && len(h.extra) > 0 {
		h.admitted = h.admits(w.Top, path.Join(p.GatesDir, kits.Core+"-config.knobs"))
	}
	body, changed, added := growRegistry(w, p, cur, cands, accepting)
	if bytes.Equal(body, cur) {
		return false, nil
	}
	if err := writeTracked(w.Top, rel, body, false, next); err != nil {
		return false, err
	}
	// The registry stays init's in the lock only where init's copy was
	// untouched; an edited one stays the adopter's, kept by --uninstall.
	if rec, ok := lock.file(rel); ok && rec.SHA256 == Digest(cur) {
		recordFile(next, rel, Digest(body), classSeed)
	}
	pageWritten, err := writeGraphPage(w, pageStep, changed, next)
	if err != nil {
		return false, err
	}
	// The baseline is recorded again over the grown registry whenever a
	// gate joined it: a gate reading the registry may judge it otherwise
	// than its probe did.
	if !accepting {
		added = nil // the adopter's baseline: a red gate was left out
	}
	accepted, err := acceptToday(w, p, added, next)
	if err != nil {
		return false, err
	}
	for _, v := range changed {
		v.Accepted, v.AcceptedIn = accepted[v.Gate], baselinePath(p)
		PrintVerdict(w.Stdout, v)
		if v.Registered {
			next.Registered = append(next.Registered, v.Gate)
		}
	}
	printGrowth(w, rel, changed)
	return pageWritten, nil
}
