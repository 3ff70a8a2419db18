package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gates"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
	"github.com/gate-sdk/gates/internal/witness"
)

// graphArms answers the coupling-graph family's non-gate arms.
func graphArms() []Arm {
	return []Arm{
		{Flag: "--emit-graph", Synopsis: "", Summary: "print the coupling-graph page (redirect it into GATE_SDK_GRAPH_ARTIFACT)",
			Knobs:  []string{"GATE_SDK_GRAPH_VOCAB", "GATE_SDK_GRAPH_THEME_DIR", "GATE_SDK_GRAPH_MAX_EDGES", "GATE_SDK_KIT_DIRS", "registry.EVERY_COUPLES_KNOB"},
			Family: Emit, Main: emitGraph},
		{Flag: "--emit-enforcement-map", Synopsis: "", Summary: "print the enforcement-map page (redirect it into GATE_SDK_ENFORCEMENT_FILE)",
			Knobs:  []string{"GATE_SDK_ENFORCEMENT_FILE", "GATE_SDK_ENFORCE_SCAN_DIR", "GATE_SDK_PRUNE_DIRS", "GATE_SDK_PRUNE_EXTRA_DIRS", "GATE_SDK_KIT_DIRS"},
			Family: Emit, Main: emitEnforcementMap},
		{Flag: "--projection-witness", Synopsis: "", Summary: "perturb a scratch clone outside each projection gate's trigger and re-run it; red names an undeclared read",
			Knobs: []string{"GATE_SDK_NATIVE_BIN", "GATE_SDK_GATES_DIR", "GATE_SDK_KIT_DIRS"}, Family: Run, Main: projectionWitness},
		{Flag: "--reads", Synopsis: "<gate>", Summary: "print a compiled gate's declared walk roots, one line each",
			Family: Emit, Main: readsArm},
		{Flag: "--needs", Synopsis: "<gate>", Summary: "print the external programs a compiled gate declares it may start, one line each",
			Family: Emit, Main: needsArm},
		{Flag: "--emit-reads-census", Synopsis: "", Summary: "print one line per registered compiled gate declaring a root it cannot bound",
			Knobs: []string{"GATE_SDK_KIT_DIRS"}, Family: Emit, Main: emitReadsCensus},
	}
}

// compiledRow answers the one operand's compiled row, refusing anything
// else: an unavailable answer must never read as "nothing".
func compiledRow(s *Session, flag string, args []string) (gate.Def, bool) {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(s.Stderr, "run-gates: %s takes one gate name\nusage: gates %s <gate>\n", flag, flag)
		return gate.Def{}, false
	}
	def, ok := findGate(args[0])
	if !ok {
		fmt.Fprintf(s.Stderr, "run-gates: %s: %s is not a compiled gate of this binary (see gates --list)\n", flag, args[0])
		return gate.Def{}, false
	}
	return def, true
}

// RootLine renders one declared root as --reads prints it.
func RootLine(r gate.Root) string {
	if r.Dynamic {
		return "?\t" + r.Ground
	}
	fields := []string{r.Path, r.Filter, strings.Join(r.Prune, ",")}
	for len(fields) > 1 && fields[len(fields)-1] == "" {
		fields = fields[:len(fields)-1]
	}
	return strings.Join(fields, "\t")
}

func readsArm(s *Session, args []string) int {
	def, ok := compiledRow(s, "--reads", args)
	if !ok {
		return 2
	}
	for _, r := range def.Reads {
		fmt.Fprintln(s.Stdout, RootLine(r))
	}
	return 0
}

func needsArm(s *Session, args []string) int {
	def, ok := compiledRow(s, "--needs", args)
	if !ok {
		return 2
	}
	for _, n := range def.Needs {
		fmt.Fprintln(s.Stdout, n)
	}
	return 0
}

func emitReadsCensus(s *Session, args []string) int {
	if !noOperands(s, "--emit reads-census", args) {
		return 2
	}
	reg, err := s.gatesRegistry()
	if err != nil {
		return s.fail(err)
	}
	for _, m := range reg.Distinct() {
		def, ok := findGate(m.Name)
		if !ok || m.Kind != registry.Descriptor {
			continue
		}
		var roots, grounds []string
		for _, r := range def.Reads {
			if r.Dynamic {
				grounds = append(grounds, r.Ground)
			} else {
				roots = append(roots, r.Path)
			}
		}
		if len(grounds) == 0 {
			continue
		}
		declared := "-"
		if len(roots) > 0 {
			declared = strings.Join(roots, ",")
		}
		fmt.Fprintf(s.Stdout, "%s\t%d\t%s\t%s\n", m.Name, len(grounds), declared, strings.Join(grounds, ","))
	}
	return 0
}

// armContext is a rule context for an arm that reuses a gate's readers.
func (s *Session) armContext(name string) (*gate.Context, error) {
	return s.gateContext(gate.Def{Name: name}, nil, s.Stdout, s.Stderr, "")
}

// emitPage is an emit arm printing one page a gate's reader derives: the
// page whole, or nothing and exit 2, never a plausible partial page.
func emitPage(s *Session, flag, gateName string, args []string, derive func(*gate.Context) ([]byte, error)) int {
	if !noOperands(s, flag, args) {
		return 2
	}
	c, err := s.armContext(gateName)
	if err != nil {
		return s.fail(err)
	}
	page, err := derive(c)
	if err != nil {
		return s.fail(err)
	}
	if _, err := s.Stdout.Write(page); err != nil {
		return s.fail(err)
	}
	return 0
}

func emitGraph(s *Session, args []string) int {
	return emitPage(s, "--emit graph", "check-graph", args, func(c *gate.Context) ([]byte, error) {
		b, err := gates.GraphEmission(c)
		if err != nil {
			return nil, err
		}
		if len(b.Model.Problems) > 0 {
			// A page missing a member would byte-match itself next time.
			var lines []string
			for _, p := range b.Model.Problems {
				lines = append(lines, fmt.Sprintf("%s: %v", p.Member, p.Err))
			}
			return nil, refusal{msg: "run-gates: --emit graph: cannot draw every member:\n" + strings.Join(lines, "\n")}
		}
		return b.Page, nil
	})
}

func emitEnforcementMap(s *Session, args []string) int {
	return emitPage(s, "--emit enforcement-map", "check-enforcement-fresh", args, gates.EnforcementEmission)
}

// projectionWitness is --projection-witness: every registered gate
// declaring # projection:, perturbed outside its trigger in a scratch
// clone and re-run.
func projectionWitness(s *Session, args []string) int {
	if !noOperands(s, "--projection-witness", args) {
		return 2
	}
	top, err := s.Top()
	if err != nil {
		return s.fail(err)
	}
	reg, err := s.gatesRegistry()
	if err != nil {
		return s.fail(err)
	}
	var members []witness.Member
	scripts := map[string]string{}
	for _, m := range reg.Distinct() {
		if m.Kind == registry.Unresolved || m.Manifest == nil || m.Manifest.Projection == nil {
			continue
		}
		paths, err := registry.ResolveProjection(m.Manifest, reg.env.Knobs)
		if err != nil {
			return s.fail(err)
		}
		if len(paths) == 0 {
			continue
		}
		t, err := reg.env.Trigger(m.Name, m.Manifest)
		if err != nil {
			return s.fail(err)
		}
		if m.Kind == registry.Shell {
			scripts[m.Name] = m.Path
		}
		members = append(members, witness.Member{Name: m.Name, Selects: t.Selects})
	}
	if len(members) == 0 {
		fmt.Fprintln(s.Stdout, "0 projections")
		return 0
	}
	parent, err := os.MkdirTemp("", "gates-witness-")
	if err != nil {
		return s.fail(err)
	}
	defer os.RemoveAll(parent)
	scratch, err := witness.NewScratch(top, parent)
	if err != nil {
		fmt.Fprintf(s.Stdout, "WITNESS: FAIL(env) cannot build the scratch tree: %v\n", err)
		return 2
	}
	self, err := spawn.Self()
	if err != nil {
		return s.fail(err)
	}
	set, err := s.Knobs()
	if err != nil {
		return s.fail(err)
	}
	bin, err := set.Scalar("GATE_SDK_NATIVE_BIN")
	if err != nil {
		return s.fail(err)
	}
	// A rooted value already names the binary wherever the child runs; a
	// relative one is placed where it resolves in the scratch.
	placed := bin
	if !walk.PathRoot(bin) {
		placed = walk.AbsAgainst(scratch.Dir, bin)
		if err := placeBinary(placed); err != nil {
			fmt.Fprintf(s.Stdout, "WITNESS: FAIL(env) cannot place the binary at %s: %v\n", placed, err)
			return 2
		}
	}
	rep := witness.Witness(members, scratch, witness.SpawnRunner{Dir: scratch.Dir, Self: self, Bin: placed, Script: scripts})
	rep.Write(s.Stdout)
	return rep.Code()
}

// placeBinary copies the running binary to dst.
func placeBinary(dst string) error {
	src, err := spawn.SelfImage()
	if err != nil {
		return err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o755)
}

// gatesRegistry loads the registry of the resolved gates directory.
func (s *Session) gatesRegistry() (*loadedRegistry, error) {
	gatesDir, err := s.GatesDir()
	if err != nil {
		return nil, err
	}
	return s.loadRegistry(gatesDir)
}
