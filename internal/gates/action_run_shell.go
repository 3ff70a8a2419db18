package gates

// check-action-run-shell: every run: body in an Actions-shaped YAML file
// (a literal block or a single-line value) is ShellCheck-clean at
// -S warning under the dialect and the shell options its step really runs
// with, and every body's dialect can be stated. See
// gate-sdk/SPEC.md §check-action-run-shell.

import (
	"fmt"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/workflow"
)

var runShellHelps = map[string]string{
	"shellcheck": "fix each listed ShellCheck warning in the run: body (the line is the body's line in the YAML file); it was linted under the options the runner starts the shell with (bash -e with no shell:, bash -eo pipefail for shell: bash, sh -e for shell: sh), so a step expecting a non-zero status must clear -e",
	"dialect":    "state the step's shell on the step itself: shell: bash (or shell: pwsh where PowerShell is meant); an action's run: steps always need shell:",
}

// runShellSeverity is contract, not calibration: at info SC1091 fires on
// every fragment that sources a library.
const runShellSeverity = "warning"

func checkActionRunShell(c *gate.Context) int { return runShell(c, scBatchMax) }

// runShell is the rule with its batch bound: batch 0 lints each block
// alone on ShellCheck's stdin (the reference the batched path is held
// equal to), batch n puts at most n blocks in one ShellCheck run.
func runShell(c *gate.Context, batch int) int {
	scan, err := scanActions(c, yamlExts...)
	if err != nil {
		return c.RefuseErr(err)
	}
	if len(scan.files) == 0 {
		return c.NewReport(nil).Nothing("no YAML file under " + scan.root + ": nothing to lint")
	}
	type fileRuns struct {
		path string
		runs []*workflow.Run
	}
	var subject []fileRuns
	outside := 0
	var n shapes
	for _, p := range scan.files {
		f, parsed, err := scan.readParsed(c, p)
		if err != nil {
			return c.RefuseErr(err)
		}
		// assertion A: the subject is the Actions-shaped files; the rest
		// are skipped and counted, neither linted nor refused. A file the
		// parser rejects is a finding when GitHub loads it, and skipped
		// and counted otherwise.
		if !parsed {
			n.reject(c, scan, p, unparseable(p, f))
			continue
		}
		if !f.Shape.Actions() {
			outside++
			continue
		}
		// assertion B: the extractor's refusals are a finding when GitHub
		// loads the file, a counted skip otherwise; never the gate's stop.
		runs, err := workflow.Extract(f)
		if err != nil {
			m, err := refusedMemo(p, err)
			if err != nil {
				return c.RefuseErr(err)
			}
			n.reject(c, scan, p, m.found)
			continue
		}
		subject = append(subject, fileRuns{p, runs})
	}
	lint := 0
	for _, fr := range subject {
		for _, r := range fr.runs {
			if r.Skip == "" && r.Res == workflow.Shell && len(r.Lines) > 0 {
				lint++
			}
		}
	}
	// assertion C: the presence probe fires before any lint.
	if lint > 0 && !spawn.OnPath("shellcheck", spawn.LookupEnv(c.Env)) {
		return c.Refuse("shellcheck is not on PATH; install it (it lints %d run: bodies here) or this gate cannot decide", lint)
	}
	// found holds the findings in block order; a linted block's slot is
	// filled from its lint's answer once every batch is back.
	var found []gate.Finding
	type slot struct {
		at   int // index in found the block's findings go before
		path string
		run  *workflow.Run
	}
	var slots []slot
	nBlocks, lines, unread, other, neutralised := 0, 0, 0, 0, 0
	for _, fr := range subject {
		for _, run := range fr.runs {
			// assertion H: a single-line value is linted as a block is; a
			// value not read as one line is counted.
			if run.Skip != "" {
				unread++
				continue
			}
			switch run.Res {
			case workflow.OtherShell:
				other++
				continue
			case workflow.WindowsRun, workflow.NoDialect:
				// assertion D: a block whose dialect cannot be stated is a
				// finding, not a skip and not a refusal.
				found = append(found, gate.Finding{Class: "dialect", Path: fr.path, Line: run.Line,
					Msg: runNoun(run) + " has no shell: and " + run.Why})
				continue
			}
			if len(run.Lines) == 0 {
				continue
			}
			// assertion F: a ShellCheck directive in a block is neutralised
			// by the extractor (the gate has no valve), and counted.
			neutralised += len(run.Directives)
			if run.Block {
				nBlocks++
			} else {
				lines++
			}
			slots = append(slots, slot{len(found), fr.path, run})
		}
	}
	blocks := make([]scBlock, len(slots))
	for i, s := range slots {
		blocks[i] = scBlock{path: s.path, run: s.run}
	}
	// assertion E: ShellCheck at -S warning under the resolved dialect
	// reports nothing.
	// assertion G: in batches, one dialect and many scratch files to a
	// ShellCheck run, the runs over the workers; the findings are the
	// per-block run's (batch 0), byte for byte.
	// assertion I: a body the content cache holds is served, not linted,
	// and placed through the block's own lines.
	warned, err := lintBlocks(c, blocks, batch)
	if err != nil {
		return c.RefuseErr(err)
	}
	var ordered []gate.Finding
	next := 0
	for i, s := range slots {
		ordered = append(ordered, found[next:s.at]...)
		next = s.at
		for _, f := range warned[i] {
			f.Path = s.path
			f.Column = f.Col
			ordered = append(ordered, f.Finding)
		}
	}
	found = append(ordered, found[next:]...)
	r := c.NewReport(withUnparseable(runShellHelps))
	for _, f := range n.broken {
		r.Add(f)
	}
	for _, f := range found {
		r.Add(f)
	}
	return r.Done(fmt.Sprintf("%s and %s linted in %s; %s not linted; %s skipped; %s outside the Actions shape%s",
		plural(nBlocks, "run: block", "run: blocks"), plural(lines, "single-line run: value", "single-line run: values"),
		plural(len(subject), "Actions file", "Actions files"),
		plural(unread, "other run: value", "other run: values"),
		plural(other, "non-shell block", "non-shell blocks"),
		plural(outside, "YAML file", "YAML files"), n.unparsed()) + directives(neutralised) + scan.fromIndexNote())
}

// directives renders the count of neutralised ShellCheck directives for
// the clean line ("" when there are none).
func directives(n int) string {
	if n == 0 {
		return ""
	}
	return "; " + plural(n, "ShellCheck directive", "ShellCheck directives") + " in blocks read as plain comments"
}

// runNoun names a run: body in a finding: a literal block, or a
// single-line value.
func runNoun(r *workflow.Run) string {
	if r.Block {
		return "run: block"
	}
	return "run: value"
}

// runLabel names the shell a body was linted under: the dialect and the
// options the runner starts it with.
func runLabel(r *workflow.Run) string {
	if r.Flags == "" {
		return r.Dialect
	}
	return r.Dialect + " " + r.Flags
}
