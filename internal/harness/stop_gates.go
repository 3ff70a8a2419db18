package harness

import (
	"fmt"
	"strings"
	"time"
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
		// assertion Q (commit-audit): a cut of the harness settings holds
		// one Stop.
		lost, err := settingsLost(c, "stop")
		if err != nil {
			return c.unjudged(err)
		}
		if lost != "" {
			if committed != "" {
				lost += "\n"
			}
			committed = "Do not stop yet: " + lost + committed
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
		return c.gatesFailed(err)
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
		return c.gatesFailed(err)
	}
	if len(res.Red) > 0 && c.Repo != nil {
		res.Red = notInHead(c, res.Red, changed)
		res.Red = notBeforeSession(c, res.Red)
	}
	if len(res.Red) == 0 {
		if committed != "" {
			fmt.Fprintln(c.Stdout, RefuseStop(committed))
		}
		return Allow
	}
	// assertion C: red refuses the stop with the findings as instructions.
	reason := fmt.Sprintf("Do not stop yet: the uncommitted change leaves %s red. Fix these findings (each help: line names the fix), then finish:\n%s",
		redNames(res), res.Text()) + baselineIsTheUsers(res.Text())
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

// TreeJudge is what a Repo may answer besides: the pre-commit hook's red
// results over a commit's tree, judged in process with no scratch
// directory.
type TreeJudge interface {
	JudgeTree(id string) ([]Red, error)
}

// notInHead answers the red results of the uncommitted change less those
// HEAD's commit already had: a gate each of whose report lines the
// pre-commit judgement of HEAD also reports found nothing the change
// brought (a colleague's line pulled in, or a red commit of the
// session's, named by itself). A line that names one of the changed
// paths is the change's whatever HEAD's judgement says, so nothing the
// change wrote can be taken for HEAD's. A HEAD that cannot be read or
// judged in process takes nothing away.
func notInHead(c *Call, reds []Red, changed []string) []Red {
	// assertion P: findings HEAD already has are not the uncommitted
	// change's.
	tj, ok := c.Repo.(TreeJudge)
	if !ok {
		return reds
	}
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
	judged, err := tj.JudgeTree(head)
	if err != nil {
		return reds
	}
	mine := map[string]bool{}
	for _, p := range changed {
		mine[p] = true
	}
	// The judgement reports a hook's run as one result (the gates' reports
	// together), so a line is held when any pre-commit result of HEAD
	// reports it.
	had := map[string]bool{}
	for _, h := range judged {
		if h.Hook == "pre-commit" && h.Code == 1 {
			for _, l := range strings.Split(h.Output, "\n") {
				if p, _, found := strings.Cut(strings.TrimSpace(l), ":"); !found || !mine[p] {
					had[l] = true
				}
			}
		}
	}
	return withoutWhereEvery(reds, func(l string) bool { return had[l] })
}

// withoutWhereEvery answers reds less the violations (code 1) each of
// whose non-blank report lines others says is not the agent's; a result
// that could not run, or one with a line of the agent's, is kept.
func withoutWhereEvery(reds []Red, others func(line string) bool) []Red {
	var keep []Red
	for _, r := range reds {
		theirs := r.Code == 1
		for _, l := range strings.Split(r.Output, "\n") {
			if strings.TrimSpace(l) != "" && !others(l) {
				theirs = false
				break
			}
		}
		if !theirs {
			keep = append(keep, r)
		}
	}
	return keep
}

// Aged is what a Runner may answer besides the gates: whether the entry at
// a path (relative to the top) was last changed before t.
type Aged interface {
	ChangedBefore(rel string, t time.Time) bool
}

// notBeforeSession answers reds less the results each of whose finding
// lines names a path nothing has changed since the session began (the
// base's time): the user's own uncommitted work, an untracked file left
// at the top before the agent started, is not the agent's to fix. A line
// that names no path, a path written since, a result that could not run,
// or a session with no recorded start keeps the result.
func notBeforeSession(c *Call, reds []Red) []Red {
	// assertion Q: what no write has reached since the session began is
	// not the agent's.
	aged, ok := c.Gates.(Aged)
	if !ok {
		return reds
	}
	var at int64
	if had, err := loadState(c, stateBaseAt, &at); err != nil || !had || at <= 0 {
		return reds
	}
	began := time.Unix(at, 0)
	return withoutWhereEvery(reds, func(l string) bool {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "help:") {
			return true
		}
		p, _, found := strings.Cut(l, ":")
		return found && p != "" && aged.ChangedBefore(p, began)
	})
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
