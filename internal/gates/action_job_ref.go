package gates

// check-action-job-ref: every backticked reference to a CI job names a job
// some walked workflow defines. See gate-sdk/SPEC.md §check-action-job-ref.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/cache"
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
		return c.NewReport(nil).Disarmed(jobRefKnob, jobRefKnob+" is empty: no job reference is checked")
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
	// assertion E: what a file holds (the job keys a workflow defines, the
	// references its lines make under these patterns) is its own, and a
	// warm run reads it from the result cache; the references are matched
	// against the job set of every walked workflow each run.
	var config cache.Config
	for _, p := range pats {
		config.AddString("pattern", p)
	}
	memos := openMemos(c, scan, 1, &config)
	var judged []fileMemo
	for _, p := range scan.files {
		m, err := scan.memo(c, memos, p, func() (fileMemo, error) {
			return jobRefMemo(c, scan, res, p)
		})
		if err != nil {
			return c.RefuseErr(err)
		}
		judged = append(judged, m)
	}
	jobs := map[string]bool{}
	workflows := 0
	for _, m := range judged {
		workflows += m.n[0]
		for _, f := range m.found {
			if f.Class == "job" {
				jobs[f.Msg] = true
			}
		}
	}
	refs := 0
	r := c.NewReport(withUnparseable(jobRefHelps))
	var n shapes
	for i, m := range judged {
		if m.kind == memoUnparsable {
			before := len(n.broken)
			n.reject(c, scan, scan.files[i], m.found)
			for _, f := range n.broken[before:] {
				r.Add(f)
			}
			continue
		}
		for _, f := range m.found {
			if f.Class != "ref" {
				continue
			}
			refs++
			// assertion D: the reference names a defined job.
			if !jobs[f.Msg] {
				r.Add(gate.Finding{Class: "unknown", Path: f.Path, Line: f.Line,
					Msg: f.Msg + " names no job in any walked workflow"})
			}
		}
	}
	return r.Done(fmt.Sprintf("%s checked against %s in %s; %s read",
		plural(refs, "job reference", "job references"), plural(len(jobs), "job", "jobs"),
		plural(workflows, "workflow", "workflows"), plural(len(scan.files), "file", "files")) + n.unparsed() + scan.fromIndexNote())
}

// jobRefMemo answers one file's memo: one tally, 1 when the file is a
// workflow whose job keys count (0 otherwise), and as findings the job
// keys it defines (Class "job", Msg the key) and the references it makes
// (Class "ref", Path and Line where, Msg the span), each in file order.
func jobRefMemo(c *gate.Context, scan actionScan, res []*ere.Ere, p string) (fileMemo, error) {
	m := fileMemo{kind: memoOther, n: []int{0}}
	var lines []string
	if strings.HasSuffix(p, ".md") {
		// Markdown is read as lines: it is no YAML.
		data, err := scan.readBytes(c, p)
		if err != nil {
			return m, err
		}
		lines = mdLines(data)
	} else {
		// A file the parser rejects has no job set to read: a finding
		// when GitHub loads it, skipped and counted otherwise.
		f, parsed, err := scan.readParsed(c, p)
		if err != nil {
			return m, err
		}
		if !parsed {
			return fileMemo{kind: memoUnparsable, n: []int{0}, found: unparseable(p, f)}, nil
		}
		// assertion B: the job set is every job key under a top-level
		// jobs:, read by the shared job partition.
		if f.Shape.Jobs {
			m.n[0] = 1
			for _, j := range f.Jobs {
				m.found = append(m.found, gate.Finding{Class: "job", Msg: j.ID})
			}
		}
		// assertion C (YAML): only full-line comments are read.
		for l := 1; l <= f.Lines(); l++ {
			text := ""
			if f.IsComment(l) {
				text = f.Text(l)
			}
			lines = append(lines, text)
		}
	}
	// assertion C: a reference is a one-line single-backtick span whose
	// whole text a pattern matches, in markdown outside fences.
	fence := ""
	for i, text := range lines {
		if strings.HasSuffix(p, ".md") {
			var was string
			was, fence = fence, mdFence(text, fence)
			if was != "" || fence != "" {
				continue
			}
		}
		for _, span := range codeSpans(text) {
			for _, re := range res {
				if re.IsMatch(span) {
					m.found = append(m.found, gate.Finding{Class: "ref", Path: p, Line: i + 1, Msg: span})
					break
				}
			}
		}
	}
	return m, nil
}

// mdLines splits markdown into lines (LF, CRLF or lone CR).
func mdLines(data []byte) []string {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// fenceOpen answers the fence a line opens, by CommonMark's rule: up to
// three spaces, then three or more backticks or tildes; a backtick fence's
// info string holds no backtick (such a line is an inline code span, not a
// fence). "" when the line opens none.
func fenceOpen(s string) string {
	t := strings.TrimLeft(s, " ")
	if len(s)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	ch := t[0]
	n := 0
	for n < len(t) && t[n] == ch {
		n++
	}
	if n < 3 || ch == '`' && strings.IndexByte(t[n:], '`') >= 0 {
		return ""
	}
	return t[:n]
}

// mdFence answers the open fence after line s, given the fence open before
// it ("" when none): a fence line opens one; a line of the same character,
// at least as long, up to three spaces in and with nothing after it, closes
// it.
func mdFence(s, open string) string {
	if open == "" {
		return fenceOpen(s)
	}
	t := strings.TrimLeft(s, " ")
	if len(s)-len(t) > 3 {
		return open
	}
	n := 0
	for n < len(t) && t[n] == open[0] {
		n++
	}
	if n >= len(open) && strings.TrimSpace(t[n:]) == "" {
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
