package gates

// check-action-job-ref: every backticked reference to a CI job names a job
// some walked workflow defines. See gate-sdk/SPEC.md §check-action-job-ref.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/ere"
	"github.com/gate-sdk/gates/internal/gate"
)

const jobRefKnob = "GATE_SDK_JOB_REF_PATTERNS"

var jobRefHelps = map[string]string{
	"unknown": "point each listed reference at a job key some workflow's jobs: defines (rename the reference, or restore the job it names)",
}

func checkActionJobRef(c *gate.Context) int {
	pats, err := c.Knobs.List(jobRefKnob)
	if err != nil {
		return c.RefuseErr(err)
	}
	// The vocabulary is the tree's own: no pattern, nothing to check.
	if len(pats) == 0 {
		return c.NewReport(nil).Done(jobRefKnob + " is empty: no job reference is checked")
	}
	// assertion A: every pattern compiles, anchored at both ends.
	var res []*ere.Ere
	for _, p := range pats {
		re, err := ere.Compile("^(" + p + ")$")
		if err != nil {
			return c.Refuse("%s", ere.RefusalMessage(jobRefKnob, p, err))
		}
		res = append(res, re)
	}
	scan, err := scanActions(c, ".md", ".yml", ".yaml")
	if err != nil {
		return c.RefuseErr(err)
	}
	type ref struct {
		path string
		line int
		text string
	}
	var refs []ref
	jobs := map[string]bool{}
	workflows := 0
	for _, p := range scan.files {
		f, err := readWorkflow(c, p)
		if err != nil {
			return c.RefuseErr(err)
		}
		yaml := !strings.HasSuffix(p, ".md")
		// assertion B: the job set is every job key under a top-level
		// jobs:, read by the shared job partition.
		if yaml && f.Shape.Jobs {
			workflows++
			for _, j := range f.Jobs {
				jobs[j.ID] = true
			}
		}
		// assertion C: a reference is a one-line single-backtick span whose
		// whole text a pattern matches: in markdown outside fences, in YAML
		// on full-line comments.
		fence := ""
		for l := 1; l <= f.Lines(); l++ {
			text := f.Text(l)
			if yaml {
				if !f.IsComment(l) {
					continue
				}
			} else if fence = mdFence(text, fence); fence != "" || isFenceLine(text) {
				continue
			}
			for _, span := range codeSpans(text) {
				for _, re := range res {
					if re.IsMatch(span) {
						refs = append(refs, ref{p, l, span})
						break
					}
				}
			}
		}
	}
	r := c.NewReport(jobRefHelps)
	for _, rf := range refs {
		// assertion D: the reference names a defined job.
		if !jobs[rf.text] {
			r.Add(gate.Finding{Class: "unknown", Path: rf.path, Line: rf.line,
				Msg: rf.text + " names no job in any walked workflow"})
		}
	}
	return r.Done(fmt.Sprintf("%s checked against %s in %s; %s read",
		plural(len(refs), "job reference", "job references"), plural(len(jobs), "job", "jobs"),
		plural(workflows, "workflow", "workflows"), plural(len(scan.files), "file", "files")))
}

// isFenceLine reports a markdown fence line (``` or ~~~, up to three
// spaces in).
func isFenceLine(s string) bool {
	t := strings.TrimLeft(s, " ")
	return len(s)-len(t) <= 3 && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"))
}

// mdFence answers the open fence after line s, given the fence open before
// it ("" when none): an opening line opens one, a closing line of the same
// character and at least the same length closes it.
func mdFence(s, open string) string {
	if !isFenceLine(s) {
		return open
	}
	t := strings.TrimLeft(s, " ")
	ch := t[0]
	n := 0
	for n < len(t) && t[n] == ch {
		n++
	}
	run := t[:n]
	if open == "" {
		return run
	}
	if run[0] == open[0] && len(run) >= len(open) && strings.TrimSpace(t[n:]) == "" {
		return ""
	}
	return open
}

// codeSpans answers the contents of the single-backtick code spans on a
// line. A backtick run opens a span closed by the next run of the same
// length; a run never closed is literal text.
func codeSpans(s string) []string {
	var out []string
	i := 0
	for i < len(s) {
		if s[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		start := i + n
		closed := -1
		for k := start; k < len(s); {
			if s[k] != '`' {
				k++
				continue
			}
			m := 0
			for k+m < len(s) && s[k+m] == '`' {
				m++
			}
			if m == n {
				closed = k
				break
			}
			k += m
		}
		if closed < 0 {
			i = start
			continue
		}
		if n == 1 {
			out = append(out, s[start:closed])
		}
		i = closed + n
	}
	return out
}
