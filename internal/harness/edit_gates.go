package harness

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
)

// editInput is the part of an edit tool's input the member reads.
type editInput struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
}

// editGates is PostToolUse on the edit tools: the gates coupled to the
// edited file run over the tree as it now stands, and a red one's findings
// go back to the model, which is told to fix them. Clean is silent.
func editGates(c *Call) int {
	if c.Payload == nil {
		return c.Decline(c.PayloadErr.Error())
	}
	var in editInput
	if !c.Payload.Input(&in) {
		return c.Decline("the payload's tool_input is absent or not an object")
	}
	abs := in.FilePath
	if abs == "" {
		abs = in.NotebookPath
	}
	if abs == "" {
		return c.Decline("the payload's tool_input names no file_path")
	}
	if cwd := c.Payload.Cwd; cwd != "" && !walk.PathRoot(abs) {
		// A relative cwd stays relative: the runner takes it against the
		// directory the arm started in, and canonicalises the result.
		if walk.PathRoot(cwd) {
			abs = walk.AbsAgainst(cwd, abs)
		} else {
			abs = cwd + "/" + abs
		}
	}
	rel, ok := c.Gates.Rel(abs)
	if !ok {
		// assertion A: an edit outside the work tree fires no gate.
		return Allow
	}
	res, err := c.Gates.ForPaths([]string{rel})
	if err != nil {
		return c.gatesFailed(err)
	}
	if len(res.Red) > 0 && c.Repo != nil {
		// assertion N: findings HEAD's commit already has are not the
		// edit's (a colleague's line pulled in), as stop-gates P.
		res.Red = notInHead(c, res.Red, []string{rel})
		res.Red = notBeforeSession(c, res.Red)
	}
	if len(res.Red) > 0 {
		// assertion Q: a tracked file git keeps out of its view
		// (`update-index --skip-worktree` outside a sparse checkout) is
		// edited for this machine only: no commit takes the edit, so no
		// gate is told of it. Asked only once the edit reads red.
		if sw, ok := c.Repo.(SkipWorktree); ok && sw.LocalOnly(rel) {
			return Allow
		}
	}
	if len(res.Red) == 0 {
		// assertion B: clean is silent.
		return Allow
	}
	// assertion C: a red gate's report reaches the model after the call.
	reason := fmt.Sprintf("The edit to %s leaves %s red. Fix these findings before you go on (each help: line names the fix):\n%s",
		rel, redNames(res), res.Text()) + baselineIsTheUsers(res.Text())
	fmt.Fprintln(c.Stdout, Feedback(reason))
	return Allow
}

// SkipWorktree is a Repo that can say a tracked file's work-tree bytes
// are the machine's own: its index entry carries skip-worktree and no
// sparse checkout is on (where git would clear the bit of a file present
// on disk, and commit the edit).
type SkipWorktree interface {
	LocalOnly(rel string) bool
}

// baselineIsTheUsers answers the sentence the words for the model gain
// when a finding's help offers `gates baseline`: the help is written for
// the person, and a commit of the agent's that adds to the baseline is
// named as refused (commit-audit), so the model is told to fix the
// finding or ask.
func baselineIsTheUsers(report string) string {
	// assertion O: a help line offering the baseline is the user's to take.
	if !strings.Contains(report, "gates baseline") {
		return ""
	}
	return "\nWhere a help: line offers `gates baseline`, that is the user's decision, not yours: fix the finding, or ask the user; a commit of yours that adds to the baseline is refused."
}
