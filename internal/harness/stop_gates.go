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
		// turn is allowed, so the agent can never be held forever.
		return Allow
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
