package gates

// check-action-gh-repo: a job whose run: bodies call gh establishes a
// repository context on one arm over all its calls. See gate-sdk/SPEC.md
// §check-action-gh-repo.

import (
	"fmt"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/workflow"
)

const ghRepoMarker = "gh-repo-exempt"

var ghRepoHelps = map[string]string{
	"context":  "give the job a repository for gh: an actions/checkout step before its first gh call, or GH_REPO: ${{ github.repository }} in the workflow's, the job's or each calling step's env:, or a repository named on every gh call (--repo/-R, an OWNER/REPO operand of gh repo, an API path with no {owner}/{repo} placeholder); one arm must hold for every call",
	"bare":     "write the reason after the marker (# gh-repo-exempt: <why this job needs no repository context>); a marker with no reason exempts nothing",
	"dangling": "put the marker on the line before the step (or the job) it exempts; a marker that precedes neither exempts nothing",
}

func checkActionGhRepo(c *gate.Context) int {
	scan, err := scanActions(c, yamlExts...)
	if err != nil {
		return c.RefuseErr(err)
	}
	if len(scan.files) == 0 {
		return c.NewReport(nil).Nothing("no YAML file under " + scan.root + ": no job to check" + scan.fromIndexNote())
	}
	// assertion F: a workflow's verdict (its findings and tallies) is
	// its own; a warm run reads it from the result cache.
	memos := openMemos(c, scan, 3, nil)
	// assertion A: a workflow is the subject; an action is skipped and
	// counted (its caller's job owns the context).
	n, judged, err := eachWorkflowMemo(c, scan, memos, func(p string, f *workflow.File) (fileMemo, error) {
		held, inert, exempt := 0, 0, 0
		w := workflow.Walk(f, workflow.WalkOptions{Marker: ghRepoMarker})
		// assertion B: a marker's reason is required.
		found := markerFindings("bare", p, ghRepoMarker, w.Bare)
		found = append(found, markerFindings("dangling", p, ghRepoMarker, w.Dangling)...)
		for _, jw := range w.Jobs {
			switch {
			case jw.Exempt:
				exempt++
				continue
			case len(jw.Calls) == 0:
				inert++
				continue
			}
			// assertions C-E: one arm, quantified over every call.
			if ok, why := ghRepoArms(w, jw); !ok {
				at := jw.Calls[0].Line
				for _, call := range jw.Calls {
					if !call.Repo {
						at = call.Line // the first call that needs the context
						break
					}
				}
				found = append(found, gate.Finding{Class: "context", Path: p, Line: at,
					Msg: fmt.Sprintf("job %s calls gh with no repository context: %s", jw.Job.ID, why)})
				continue
			}
			held++
		}
		return fileMemo{n: []int{held, inert, exempt}, found: byLine(found)}, nil
	})
	if err != nil {
		return c.RefuseErr(err)
	}
	var all []gate.Finding
	held, inert, exempt := 0, 0, 0
	for _, m := range judged {
		held, inert, exempt = held+m.n[0], inert+m.n[1], exempt+m.n[2]
		all = append(all, m.found...)
	}
	r := c.NewReport(withUnparseable(ghRepoHelps))
	for _, f := range n.broken {
		r.Add(f)
	}
	for _, f := range all {
		r.Add(f)
	}
	return r.Done(fmt.Sprintf("%s calling gh with a repository context, %s without gh, %s exempt; %s, %s skipped%s",
		plural(held, "job", "jobs"), plural(inert, "job", "jobs"), plural(exempt, "job", "jobs"),
		plural(n.workflows, "workflow", "workflows"), plural(n.actions, "action", "actions"), n.unparsed()) + scan.fromIndexNote())
}

// ghRepoArms holds a job to the three arms and says why none held.
func ghRepoArms(w *workflow.Walked, jw *workflow.JobWalk) (bool, string) {
	// assertion C: a checkout step before the step of the first call that
	// names no repository (step order, which a one-line flow workflow
	// keeps and its lines do not); a call naming its own, or one that
	// reads none (gh api /users/NAME), needs no checkout before it.
	first := -1
	for _, call := range jw.Calls {
		if !call.Repo && (first < 0 || call.Step < first) {
			first = call.Step
		}
	}
	if first < 0 {
		return true, "" // assertion E: every call names its repository or reads none
	}
	for _, co := range jw.Checkouts {
		if co.Step < first {
			return true, ""
		}
	}
	// assertion D: GH_REPO in scope of every call (workflow, job, or the
	// calling step's env:).
	envAll := w.GHRepoWorkflow || jw.GHRepoJob
	if !envAll {
		envAll = true
		for _, ok := range jw.StepRepo {
			envAll = envAll && ok
		}
	}
	if envAll {
		return true, ""
	}
	// assertion E: every call names its repository (--repo, an API path,
	// an OWNER/REPO operand) or reads none.
	repoAll := true
	for _, call := range jw.Calls {
		repoAll = repoAll && call.Repo
	}
	if repoAll {
		return true, ""
	}
	checkout := "no actions/checkout step"
	if len(jw.Checkouts) > 0 {
		checkout = fmt.Sprintf("actions/checkout (line %d) comes after the first gh call that names no repository", jw.Checkouts[0].Line)
	}
	return false, checkout + ", GH_REPO not in scope of every call, --repo not on every call"
}
