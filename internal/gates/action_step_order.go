package gates

// check-action-step-order: when a job's run: bodies name one of the listed
// programs, the job uses the listed setup action in an earlier step. The action and
// the programs are the declaring tree's (GATE_LOCAL_ knobs on its own
// descriptor). See gate-sdk/SPEC.md §check-action-step-order.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/workflow"
)

const (
	stepOrderActionKnob   = "GATE_LOCAL_STEP_ORDER_ACTION"
	stepOrderProgramsKnob = "GATE_LOCAL_STEP_ORDER_PROGRAMS"
)

func checkActionStepOrder(c *gate.Context) int {
	action, err := c.Knobs.Scalar(stepOrderActionKnob)
	if err != nil {
		return c.RefuseErr(err)
	}
	programs, err := c.Knobs.List(stepOrderProgramsKnob)
	if err != nil {
		return c.RefuseErr(err)
	}
	if action == "" {
		return c.NewReport(nil).Disarmed(stepOrderActionKnob, stepOrderActionKnob+" is empty: no step order is checked")
	}
	if len(programs) == 0 {
		return c.NewReport(nil).Nothing(stepOrderProgramsKnob + " is empty: no step order is checked")
	}
	scan, err := scanActions(c, yamlExts...)
	if err != nil {
		return c.RefuseErr(err)
	}
	if len(scan.files) == 0 {
		return c.NewReport(nil).Nothing("no YAML file under " + scan.root + ": no job to check" + scan.fromIndexNote())
	}
	helps := map[string]string{
		"order": "add a step on " + action + " to the job ahead of its first use of a listed program (" + strings.Join(programs, ", ") + ")",
	}
	var found []gate.Finding
	armed, inert := 0, 0
	want := workflow.LocalRef(workflow.RefName(action))
	// assertion A: workflows only; an action is skipped and counted.
	n, err := eachWorkflow(c, scan, func(p string, f *workflow.File) error {
		w := workflow.Walk(f, workflow.WalkOptions{Words: programs})
		for _, jw := range w.Jobs {
			// assertion B: a spelling is a whole word on a body line; a job
			// spelling none (or a reusable call, which has no body) is inert.
			if len(jw.Words) == 0 {
				inert++
				continue
			}
			armed++
			first := jw.Words[0]
			for _, e := range jw.Words[1:] {
				if e.Step < first.Step || e.Step == first.Step && e.Line < first.Line {
					first = e
				}
			}
			// assertion C: the job's first step on the action precedes the
			// first spelling.
			ok := false
			for _, u := range jw.Uses {
				if workflow.LocalRef(workflow.RefName(u.Text)) == want {
					ok = u.Step < first.Step
					break
				}
			}
			if !ok {
				found = append(found, gate.Finding{Class: "order", Path: p, Line: first.Line,
					Msg: fmt.Sprintf("job %s spells %s with no earlier step on %s", jw.Job.ID, first.Text, action)})
			}
		}
		return nil
	})
	if err != nil {
		return c.RefuseErr(err)
	}
	sort.SliceStable(found, func(i, k int) bool {
		if found[i].Path != found[k].Path {
			return found[i].Path < found[k].Path
		}
		return found[i].Line < found[k].Line
	})
	r := c.NewReport(withUnparseable(helps))
	for _, f := range n.broken {
		r.Add(f)
	}
	for _, f := range found {
		r.Add(f)
	}
	return r.Done(fmt.Sprintf("%s hold the order, %s inert; %s, %s skipped%s",
		plural(armed, "armed job", "armed jobs"), plural(inert, "job", "jobs"),
		plural(n.workflows, "workflow", "workflows"), plural(n.actions, "action", "actions"), n.unparsed()) + scan.fromIndexNote())
}
