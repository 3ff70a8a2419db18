package gates

// check-action-pinning: every uses: ref in a scanned YAML file is
// immutable. See gate-sdk/SPEC.md §check-action-pinning.

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/workflow"
)

var pinningHelps = map[string]string{
	"unpinned": "pin each listed uses: to the full 40-hex commit SHA its tag resolves to, keeping the tag as a trailing comment (uses: owner/repo@<sha> # vX.Y.Z); an action or reusable workflow of this repository is pinned by construction when called as $/path/to/it (GitHub's self-repository reference, run at the workflow's own commit)",
}

func checkActionPinning(c *gate.Context) int {
	scan, err := scanActions(c, yamlExts...)
	if err != nil {
		return c.RefuseErr(err)
	}
	// Counted inertness: a tree with no YAML pays nothing.
	if len(scan.files) == 0 {
		return c.NewReport(nil).Nothing("no YAML file under " + scan.root + ": nothing to check" + scan.fromIndexNote())
	}
	// assertion B: a file's verdict (its findings and its count of refs)
	// is its own; a warm run reads it from the result cache.
	memos := openMemos(c, scan, 3, nil)
	var found []gate.Finding
	refs, waived, slsa := 0, 0, 0
	var n shapes
	for _, p := range scan.files {
		m, err := scan.memo(c, memos, p, func() (fileMemo, error) {
			// A file the parser rejects is a finding when GitHub loads
			// it, and skipped and counted otherwise.
			f, parsed, err := scan.readParsed(c, p)
			if err != nil {
				return fileMemo{}, err
			}
			if !parsed {
				return fileMemo{kind: memoUnparsable, found: unparseable(p, f)}, nil
			}
			// assertion A: a key-position uses: ref, live or commented
			// out, is a 40-hex SHA, a ./ path or a $/ self-repository
			// reference (a docker:// image needs a digest). Job-level reusable-workflow calls are uses: keys
			// like any other.
			var here []gate.Finding
			uses := workflow.UsesRefs(f)
			sites := f.UsesSites()
			elsewhere := map[string]int{}
			waived, prose, slsa := 0, 0, 0
			for _, u := range uses {
				// assertion F: outside a workflow or an action's metadata,
				// a bare word (no / in it) names no action or workflow any
				// runner could fetch: a CodeQL config's built-in query suite
				// (queries: - uses: security-and-quality). It is no ref.
				if !actionsFile(p) && !strings.Contains(u.Ref, "/") {
					prose++
					continue
				}
				if ok, why := workflow.Pinned(u.Ref); !ok {
					// assertion D: a commented-out ref holding an expression
					// is prose (GitHub runs no expression in uses:, so it
					// cannot be uncommented into a step), and a ref whose
					// own line carries zizmor's ignore for unpinned uses
					// was accepted by its maintainer; the latter is counted.
					if u.Commented && strings.Contains(u.Ref, "${{") {
						prose++
						continue
					}
					if zizmorIgnores(f.Text(u.Line), "unpinned-uses", "unpinned-images") {
						waived++
						continue
					}
					// assertion E: the SLSA generator's builders verify the
					// tag they are called at; a commit pin is refused.
					if slsaBuilder.Get().MatchString(u.Ref) {
						slsa++
						continue
					}
					msg := "uses: " + u.Ref + " " + why
					if u.Commented {
						msg += " (a commented-out step is read like a live one)"
					}
					id, about := pinningIdentity(u, sites, elsewhere)
					here = append(here, gate.Finding{Class: "unpinned", Path: p, Line: u.Line, Msg: msg, Identity: id, About: about})
				}
			}
			return fileMemo{kind: memoOther, n: []int{len(uses) - waived - prose - slsa, waived, slsa}, found: here}, nil
		})
		if err != nil {
			return c.RefuseErr(err)
		}
		if m.kind == memoUnparsable {
			before := len(n.broken)
			n.reject(c, scan, p, m.found)
			found = append(found, n.broken[before:]...)
			continue
		}
		refs += m.n[0]
		waived += m.n[1]
		slsa += m.n[2]
		found = append(found, m.found...)
	}
	r := c.NewReport(withUnparseable(pinningHelps))
	for _, f := range found {
		r.Add(f)
	}
	note := ""
	if waived > 0 {
		note = "; " + plural(waived, "unpinned ref", "unpinned refs") + " left out by a zizmor ignore on its line"
	}
	if slsa > 0 {
		note += "; " + plural(slsa, "SLSA generator builder", "SLSA generator builders") + " called at a release tag, as the builder requires"
	}
	return r.Done(plural(refs, "uses: ref", "uses: refs") + " pinned across " + plural(len(scan.files)-n.unparsable-len(n.broken), "YAML file", "YAML files") + note + n.unparsed() + scan.fromIndexNote())
}

// pinningIdentity answers what an unpinned ref is about: the action
// (without the ref, so a tag bump keeps it) and the step it sits in (job
// id and workflow.StepKey, so moving lines or other steps keeps it). A
// ref no job or step holds (a commented-out seed, a uses: elsewhere) is
// the action and which such ref of it in the file it is.
//
// assertion C: the fingerprint is the action and its step, never the ref.
func pinningIdentity(u workflow.UsesLine, sites map[int]workflow.Site, elsewhere map[string]int) (identity, about string) {
	action := workflow.ActionName(u.Ref)
	if site, ok := sites[u.Line]; ok && !u.Commented {
		job, where := "", "the action's runs:"
		if !site.Job.Action {
			job, where = site.Job.ID, "job "+site.Job.ID
		}
		if site.Step == nil {
			return "action=" + action + "\x00job=" + job + "\x00call", action + " called by " + where
		}
		return "action=" + action + "\x00job=" + job + "\x00step=" + workflow.StepKey(site.Job, site.Step),
			fmt.Sprintf("%s in %s, step %d", action, where, workflow.StepNumber(site.Step))
	}
	kind := "other"
	if u.Commented {
		kind = "commented"
	}
	elsewhere[kind+"\x00"+action]++
	n := elsewhere[kind+"\x00"+action]
	if u.Commented {
		return fmt.Sprintf("action=%s\x00commented#%d", action, n), action + ", commented out"
	}
	return fmt.Sprintf("action=%s\x00other#%d", action, n), action
}

// zizmorIgnores reports whether line carries zizmor's inline ignore
// comment (# zizmor: ignore[rule,...]) naming one of rules.
func zizmorIgnores(line string, rules ...string) bool {
	for _, m := range zizmorIgnore.Get().FindAllStringSubmatch(line, -1) {
		for _, name := range strings.Split(m[1], ",") {
			if slices.Contains(rules, strings.TrimSpace(name)) {
				return true
			}
		}
	}
	return false
}

// zizmorIgnore matches one zizmor ignore comment, capturing its rule list.
var zizmorIgnore = lazyre.New(`#\s*zizmor:\s*ignore\[([^\]]*)\]`)

// slsaBuilder matches a call of one of the SLSA GitHub generator's
// reusable builders at a full release tag (vN.N.N): the builder checks the
// ref it was called at against its releases, so it cannot be pinned to a
// commit.
var slsaBuilder = lazyre.New(`^slsa-framework/slsa-github-generator/\.github/workflows/[A-Za-z0-9_.-]+\.ya?ml@v[0-9]+\.[0-9]+\.[0-9]+$`)

// actionsFile reports a path GitHub reads as Actions YAML by its place
// alone: a workflow directly in .github/workflows/ or an action's
// metadata file (action.yml, action.yaml).
func actionsFile(p string) bool {
	// consumer-value-exempt: GitHub's own fixed workflow directory, no choice of the consumer's
	if dir, _ := path.Split(p); dir == ".github/workflows/" {
		return true
	}
	base := path.Base(p)
	return base == "action.yml" || base == "action.yaml"
}
