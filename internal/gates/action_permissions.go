package gates

// check-action-permissions: a job that consumes the GitHub token declares
// the scopes it takes. See gate-sdk/SPEC.md §check-action-permissions.

import (
	"fmt"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/workflow"
)

const permissionsMarker = "action-permissions-exempt"

// visibilityKnob says whether anyone may read the repository on GitHub.
const visibilityKnob = "GATE_SDK_REPO_VISIBILITY"

var permissionsHelps = map[string]string{
	"contents": "give the job contents: read (or write) in scope: permissions: {contents: read} on the workflow, or in the job's own permissions: block, which replaces the workflow's",
	"declare":  "declare what the job's token may do: a permissions: block on the job (or the workflow) naming at least one scope at read or write, e.g. permissions: {contents: read, pull-requests: write}",
	"bare":     "write the reason after the marker (# action-permissions-exempt: <why>); a marker with no reason exempts nothing",
	"dangling": "put the marker on the line before the step (or the job) it exempts; a marker that precedes neither exempts nothing",
}

func checkActionPermissions(c *gate.Context) int {
	scan, err := scanActions(c, yamlExts...)
	if err != nil {
		return c.RefuseErr(err)
	}
	if len(scan.files) == 0 {
		return c.NewReport(nil).Nothing("no YAML file under " + scan.root + ": no job to check" + scan.fromIndexNote())
	}
	// assertion E: a workflow's verdict (its findings and tallies) is
	// its own; a warm run reads it from the result cache, and a workflow
	// that refuses is never cached.
	// assertion H: a repository declared public reads out to anyone, so
	// its checkout under a block without contents: works; C is left to
	// repositories that are not declared so.
	visibility, err := c.Knobs.Scalar(visibilityKnob)
	if err != nil {
		return c.RefuseErr(err)
	}
	public := visibility == "public"
	var rule cache.Config
	rule.AddString("visibility", visibility)
	memos := openMemos(c, scan, 5, &rule)
	n, judged, err := eachWorkflowMemo(c, scan, memos, func(p string, f *workflow.File) (fileMemo, error) {
		armed, inert, exempt, other, open := 0, 0, 0, 0, 0
		// assertion A: a permissions: value the gate cannot read is the
		// file's finding (the workflow's here, each job's below), never
		// the gate's stop.
		top, err := workflow.ReadPerm(f, f.Permissions)
		if err != nil {
			return refusedMemo(p, err)
		}
		w := workflow.Walk(f, workflow.WalkOptions{Marker: permissionsMarker})
		// assertion B: a marker's reason is required.
		here := markerFindings("bare", p, permissionsMarker, w.Bare)
		here = append(here, markerFindings("dangling", p, permissionsMarker, w.Dangling)...)
		for _, jw := range w.Jobs {
			own, err := workflow.ReadPerm(f, jw.Job.Permissions)
			if err != nil {
				return refusedMemo(p, err)
			}
			if jw.Exempt {
				exempt++
				continue
			}
			// assertion F: a gh call or a checkout handed another token
			// (a personal, bot or app token) takes nothing of the GitHub
			// token, so it arms nothing.
			checkout, gh := onGitHubToken(jw.CheckoutOther), onGitHubToken(jw.CallOther)
			token := jw.TokenRef
			if !checkout && !gh && !token {
				if len(jw.Checkouts) > 0 || len(jw.Calls) > 0 {
					other++
				} else {
					inert++
				}
				continue
			}
			armed++
			// The job's own block replaces the workflow's.
			scope, where := top, "from the workflow's permissions: block"
			switch {
			case own.Present && top.Present:
				scope, where = own, "its own permissions: block replaces the workflow's"
			case own.Present:
				scope, where = own, "from its own permissions: block"
			case !top.Present:
				// With no block anywhere the token is not empty: it takes
				// the repository's (or organisation's) default grant,
				// which no file of the tree shows. The finding says that,
				// not that nothing was granted.
				what := "calls gh"
				switch {
				case checkout:
					what = "checks out the repository"
				case !gh:
					what = "references the GitHub token"
				}
				class, declared := "declare", "no scope"
				if checkout {
					class, declared = "contents", "no contents: scope"
				}
				here = append(here, gate.Finding{Class: class, Path: p, Line: jw.Job.Line,
					Msg:      fmt.Sprintf("job %s %s and declares %s (no permissions: block anywhere, so its token takes the repository's default grant)", jw.Job.ID, what, declared),
					Identity: permissionsIdentity(jw.Job), About: "job " + jw.Job.ID})
				continue
			}
			if checkout {
				// assertion C: a checkout needs contents: readable.
				if !scope.Contents() && public {
					open++
				}
				if !scope.Contents() && !public {
					here = append(here, gate.Finding{Class: "contents", Path: p, Line: jw.Job.Line,
						Msg:      fmt.Sprintf("job %s checks out the repository with no contents: read in scope (%s)", jw.Job.ID, where),
						Identity: permissionsIdentity(jw.Job), About: "job " + jw.Job.ID})
				}
				continue
			}
			// assertion D: gh or the token alone needs a non-empty grant.
			if !scope.Grants() {
				what := "references the GitHub token"
				if gh {
					what = "calls gh"
				}
				here = append(here, gate.Finding{Class: "declare", Path: p, Line: jw.Job.Line,
					Msg:      fmt.Sprintf("job %s %s with no scope granted (%s)", jw.Job.ID, what, where),
					Identity: permissionsIdentity(jw.Job), About: "job " + jw.Job.ID})
			}
		}
		return fileMemo{n: []int{armed, inert, exempt, other, open}, found: byLine(here)}, nil
	})
	if err != nil {
		return c.RefuseErr(err)
	}
	var found []gate.Finding
	armed, inert, exempt, other, open := 0, 0, 0, 0, 0
	for _, m := range judged {
		armed, inert, exempt, other, open = armed+m.n[0], inert+m.n[1], exempt+m.n[2], other+m.n[3], open+m.n[4]
		found = append(found, m.found...)
	}
	r := c.NewReport(withUnparseable(permissionsHelps))
	for _, f := range n.broken {
		r.Add(f)
	}
	for _, f := range found {
		r.Add(f)
	}
	return r.Done(fmt.Sprintf("%s declare their scopes, %s inert, %s exempt; %s of %s walked, %s and %s skipped by the predicate%s",
		plural(armed, "armed job", "armed jobs"), plural(inert, "job", "jobs"), plural(exempt, "job", "jobs"),
		plural(n.workflows, "workflow", "workflows"), plural(len(scan.files), "YAML file", "YAML files"),
		plural(n.actions, "action", "actions"), plural(n.other, "other file", "other files"), n.unparsed()) + onOtherToken(other) + publicNote(open) + scan.fromIndexNote())
}

// onGitHubToken reports whether any of a job's gh calls (or checkouts)
// runs on the GitHub token: one whose other-token flag is unset.
func onGitHubToken(other []bool) bool {
	for _, o := range other {
		if !o {
			return true
		}
	}
	return false
}

// onOtherToken renders the count of jobs whose every GitHub call runs on
// another token for the clean line ("" when there are none).
func onOtherToken(n int) string {
	if n == 0 {
		return ""
	}
	if n == 1 {
		return "; 1 job calls GitHub on another token only (no GITHUB_TOKEN scope used)"
	}
	return fmt.Sprintf("; %d jobs call GitHub on another token only (no GITHUB_TOKEN scope used)", n)
}

// permissionsIdentity answers what a permissions finding is about: the
// job, by its id (its line, its message and where its scope came from all
// move under routine edits).
//
// assertion G: the fingerprint is the job.
func permissionsIdentity(j *workflow.Job) string { return "job=" + j.ID }

// publicNote counts, on the clean line, the checkouts left unjudged
// because GATE_SDK_REPO_VISIBILITY declares the repository public.
func publicNote(n int) string {
	if n == 0 {
		return ""
	}
	return "; " + plural(n, "checkout", "checkouts") + " without contents: left to the repository's declared public visibility"
}
