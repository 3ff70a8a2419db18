package gates

import "github.com/gate-sdk/gates/internal/gate"

// actionGates answers the GitHub Actions family: seven rules over the CI
// workflows a repository runs, all reading through internal/workflow.
func actionGates() []gate.Def {
	scan := []string{"GATE_SDK_PRUNE_DIRS", "GATE_SDK_PRUNE_EXTRA_DIRS"}
	with := func(extra ...string) []string { return append(append([]string(nil), scan...), extra...) }
	return []gate.Def{
		{Name: "check-action-gh-repo", Rule: checkActionGhRepo, Knobs: with()},
		{Name: "check-action-job-ref", Rule: checkActionJobRef, Knobs: with("GATE_SDK_JOB_REF_PATTERNS")},
		{Name: "check-action-permissions", Rule: checkActionPermissions, Knobs: with()},
		{Name: "check-action-pinning", Rule: checkActionPinning, Knobs: with()},
		{Name: "check-action-run-path", Rule: checkActionRunPath, Knobs: with()},
		{Name: "check-action-run-shell", Rule: checkActionRunShell, Knobs: with()},
		{Name: "check-action-step-order", Rule: checkActionStepOrder, Knobs: with(stepOrderActionKnob, stepOrderProgramsKnob)},
	}
}
