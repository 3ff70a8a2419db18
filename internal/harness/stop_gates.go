package harness

import (
	"fmt"
	"strings"
)

// stopGates is Stop and SubagentStop: while a gate coupled to the
// uncommitted change is red, the agent may not end its turn.
func stopGates(c *Call) int {
	if c.Payload == nil {
		return c.Decline(c.PayloadErr.Error())
	}
	if c.Payload.StopHookActive {
		// assertion A: the loop guard: a stop already refused once this
		// turn is allowed, so the agent can never be held forever; only a
		// red commit no Stop has reported yet holds it, once (it is then
		// marked reported, so the next Stop passes).
		return activeStop(c)
	}
	var committed string
	if c.Repo != nil {
		// assertion D: every commit the session made since its first
		// recorded tips is judged; a red one not yet reported at a Stop
		// holds the turn, by id.
		reds, left, err := sessionReds(c)
		if err != nil {
			return c.unjudged(err)
		}
		if len(reds) > 0 {
			committed = "Do not stop yet: this session made commits the gates refuse.\n" + redReport(reds)
		}
		if left > 0 {
			// assertion J (commit-audit): unjudged commits hold the turn.
			if committed != "" {
				committed += "\n"
			}
			committed += "Do not stop yet: " + notJudged(left)
		}
	}
	changed, err := c.Gates.Changed()
	if err != nil {
		return c.Decline(err.Error())
	}
	if len(changed) == 0 {
		// assertion B: nothing uncommitted, nothing to hold.
		if committed != "" {
			fmt.Fprintln(c.Stdout, RefuseStop(committed))
		}
		return Allow
	}
	res, err := c.Gates.ForPaths(changed)
	if err != nil {
		return c.Decline(err.Error())
	}
	if len(res.Red) > 0 && c.Repo != nil {
		res.Red = notInHead(c, res.Red)
	}
	if len(res.Red) == 0 {
		if committed != "" {
			fmt.Fprintln(c.Stdout, RefuseStop(committed))
		}
		return Allow
	}
	// assertion C: red refuses the stop with the findings as instructions.
	reason := fmt.Sprintf("Do not stop yet: the uncommitted change leaves %s red. Fix these findings (each help: line names the fix), then finish:\n%s",
		redNames(res), res.Text())
	if committed != "" {
		reason = committed + "\n\n" + reason
	}
	fmt.Fprintln(c.Stdout, RefuseStop(reason))
	return Allow
}

func redNames(res Result) string {
	var names []string
	for _, r := range res.Red {
		names = append(names, r.Name)
	}
	return strings.Join(names, ", ")
}

// notInHead answers the red results of the uncommitted change less those
// HEAD's commit already had: a gate each of whose report lines the
// pre-commit judgement of HEAD also reports found nothing the change
// brought (a colleague's
// line pulled in, or a red commit of the session's, named by itself). A
// HEAD that cannot be read or judged takes nothing away.
func notInHead(c *Call, reds []Red) []Red {
	// assertion P: findings HEAD already has are not the uncommitted
	// change's.
	tips, err := c.Repo.Tips()
	if err != nil {
		return reds
	}
	head := ""
	for _, t := range tips {
		if t.Ref == "HEAD" {
			head = t.ID
		}
	}
	if head == "" {
		return reds
	}
	v, err := c.Repo.Judge(head)
	if err != nil {
		return reds
	}
	// The judgement reports a hook's run as one result (the gates' reports
	// together), so a line is held when any pre-commit result of HEAD
	// reports it.
	had := map[string]bool{}
	for _, h := range v.Red {
		if h.Hook == "pre-commit" && h.Code == 1 {
			for _, l := range strings.Split(h.Output, "\n") {
				had[l] = true
			}
		}
	}
	var keep []Red
	for _, r := range reds {
		held := r.Code == 1
		for _, l := range strings.Split(r.Output, "\n") {
			if l != "" && !had[l] {
				held = false
				break
			}
		}
		if !held {
			keep = append(keep, r)
		}
	}
	return keep
}

// activeStop is a Stop with stop_hook_active: the uncommitted change is
// not judged again, and nothing but a red commit not yet reported (one a
// background job landed since the last Stop) holds the turn.
func activeStop(c *Call) int {
	if c.Repo == nil {
		return Allow
	}
	reds, _, err := sessionReds(c)
	if err != nil {
		fmt.Fprintf(c.Stderr, "gate-sdk %s: the commits since the last Stop were not judged: %v\n", c.Member, err)
		return Allow
	}
	if len(reds) > 0 {
		fmt.Fprintln(c.Stdout, RefuseStop("Do not stop yet: this session made commits the gates refuse.\n"+redReport(reds)))
	}
	return Allow
}
