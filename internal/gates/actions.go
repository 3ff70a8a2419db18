package gates

import "github.com/gate-sdk/gates/internal/gate"

// actionGates answers the GitHub Actions family: seven rules over the CI
// workflows a repository runs, all reading through internal/workflow.
func actionGates() []gate.Def {
	return []gate.Def{
		{Name: "check-action-gh-repo", Rule: checkActionGhRepo},
		{Name: "check-action-job-ref", Rule: checkActionJobRef},
		{Name: "check-action-permissions", Rule: checkActionPermissions},
		{Name: "check-action-pinning", Rule: checkActionPinning},
		{Name: "check-action-run-path", Rule: checkActionRunPath},
		{Name: "check-action-run-shell", Rule: checkActionRunShell},
		{Name: "check-action-step-order", Rule: checkActionStepOrder},
	}
}
