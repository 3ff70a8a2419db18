package gates

import "github.com/gate-sdk/gates/internal/gate"

// actionGates answers the GitHub Actions family: seven rules over the CI
// workflows a repository runs, all reading through internal/workflow.
func actionGates() []gate.Def {
	scan := []string{"GATE_SDK_PRUNE_DIRS", "GATE_SDK_PRUNE_EXTRA_DIRS"}
	with := func(extra ...string) []string { return append(append([]string(nil), scan...), extra...) }
	// Each member walks the scan root (default the top) for YAML files;
	// job-ref also reads markdown.
	yaml := []gate.Root{{Path: ".", Filter: "ext:lit:yml,yaml"}}
	return []gate.Def{
		{Name: "check-action-gh-repo", AnyLayout: true, Operands: "[<scan-root>]", Rule: checkActionGhRepo, Knobs: with(), Reads: yaml, Needs: []string{"git"}},
		{Name: "check-action-job-ref", Operands: "[<scan-root>]", Rule: checkActionJobRef, Knobs: with("GATE_SDK_JOB_REF_PATTERNS"), Reads: []gate.Root{{Path: ".", Filter: "ext:lit:md,yml,yaml"}}, Needs: []string{"git"}},
		{Name: "check-action-permissions", AnyLayout: true, Operands: "[<scan-root>]", Rule: checkActionPermissions, Knobs: with(visibilityKnob), Reads: yaml, Needs: []string{"git"}},
		{Name: "check-action-pinning", AnyLayout: true, Operands: "[<scan-root>]", Rule: checkActionPinning, Knobs: with(), Reads: yaml, Needs: []string{"git"}},
		{Name: "check-action-run-path", AnyLayout: true, Operands: "[<scan-root>]", Rule: checkActionRunPath, Knobs: with(), Reads: yaml, Needs: []string{"git"}},
		{Name: "check-action-run-shell", AnyLayout: true, Operands: "[<scan-root>]", Rule: checkActionRunShell, Knobs: with(), Reads: yaml, Needs: []string{"git", "shellcheck"}},
		{Name: "check-action-step-order", AnyLayout: true, Operands: "[<scan-root>]", Rule: checkActionStepOrder, Knobs: with(stepOrderActionKnob, stepOrderProgramsKnob), Reads: yaml, Needs: []string{"git"}},
	}
}
