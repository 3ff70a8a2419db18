package cli

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gates"
)

// graphArms answers the coupling-graph family's non-gate arms.
func graphArms() []Arm {
	return []Arm{
		{Flag: "--emit-graph", Synopsis: "", Summary: "print the coupling-graph page (redirect it into GATE_SDK_GRAPH_ARTIFACT)",
			Knobs:  []string{"GATE_SDK_GRAPH_VOCAB", "GATE_SDK_GRAPH_THEME_DIR", "GATE_SDK_GRAPH_MAX_EDGES", "GATE_SDK_KIT_DIRS", "registry.EVERY_COUPLES_KNOB"},
			Family: Emit, Main: emitGraph},
	}
}

// armContext is a rule context for an arm that reuses a gate's readers.
func (s *Session) armContext(name string) (*gate.Context, error) {
	return s.gateContext(gate.Def{Name: name}, nil, s.Stdout, s.Stderr, "")
}

func emitGraph(s *Session, args []string) int {
	if !noOperands(s, "--emit graph", args) {
		return 2
	}
	c, err := s.armContext("check-graph")
	if err != nil {
		return s.fail(err)
	}
	b, err := gates.GraphEmission(c)
	if err != nil {
		return s.fail(err)
	}
	if len(b.Model.Problems) > 0 {
		// A page missing a member would byte-match itself next time: refuse.
		var lines []string
		for _, p := range b.Model.Problems {
			lines = append(lines, fmt.Sprintf("%s: %v", p.Member, p.Err))
		}
		return s.fail(refusal{msg: "run-gates: --emit graph: cannot draw every member:\n" + strings.Join(lines, "\n")})
	}
	if _, err := s.Stdout.Write(b.Page); err != nil {
		return s.fail(err)
	}
	return 0
}
