package cli

import (
	"fmt"
	"github.com/gate-sdk/gates/internal/harness"
	"io"
	"slices"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/kits"
)

// isHelp reports whether operands ask for help: -h or --help before any --.
// A gate never sees such an operand as a path.
//
// assertion B: a help operand before -- is help wherever it stands.
func isHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "--help" {
			return true
		}
	}
	return false
}

// runHelp is `gates help [<topic>]`: the usage, or one gate's, arm's or
// readable word's own help.
func runHelp(s *Session, args []string) int {
	if len(args) == 0 || isHelp(args[:1]) {
		writeUsage(s.Stdout, s.prog)
		return 0
	}
	topic := args[0]
	if topic == "--emit" && len(args) > 1 {
		topic = "--emit-" + args[1]
	} else if !strings.HasPrefix(topic, "-") && slices.Contains(emitNames(), topic) {
		topic = "--emit-" + topic
	}
	if def, ok := findGate(topic); ok {
		s.writeGateHelp(s.Stdout, def)
		return 0
	}
	if arm, ok := lookupArm(topic); ok {
		s.writeArmHelp(s.Stdout, arm)
		return 0
	}
	if c, ok := lookupCommand(topic); ok {
		writeCommandHelp(s.Stdout, c)
		return 0
	}
	return s.fail(refusal{msg: fmt.Sprintf("%s: no gate, arm or command named %q\nknown gates: %s\nrun `gates --help` for the arms and commands", s.prog, topic, strings.Join(gateNames(), " "))})
}

// writeGateHelp prints a gate's help: its declared invariant, its operands,
// every knob it reads with the value this tree resolves and where the
// value came from, and where its rule is specified.
//
// assertion B: invariant, operands, spec and each knob with its value and source.
func (s *Session) writeGateHelp(w io.Writer, def gate.Def) {
	spec, from := s.gateSpec(def.Name)
	title := def.Name
	if spec != nil && spec.Statement != "" {
		title += " — " + spec.Statement
	}
	fmt.Fprintln(w, title)
	fmt.Fprintln(w)
	usage := "usage: gates " + def.Name
	switch def.Operands {
	case "-", "":
	default:
		usage += " " + def.Operands
	}
	fmt.Fprintln(w, usage+" [--format text|json]")
	switch def.Operands {
	case "-":
		fmt.Fprintln(w, "operands: none; the knobs below configure it")
	case "":
		fmt.Fprintln(w, "operands: not declared; see the spec")
	}
	if spec != nil && spec.Location != "" {
		fmt.Fprintf(w, "spec: %s (declared in %s)\n", spec.Location, from)
	} else {
		fmt.Fprintln(w, "spec: none declared")
	}
	owner := def.Owner
	if owner == "" || owner == "-" {
		owner = "the publisher's own gates dir"
	}
	fmt.Fprintf(w, "kit: %s\n", owner)
	fmt.Fprintln(w)
	if len(def.Knobs) == 0 {
		fmt.Fprintln(w, "knobs: none")
	} else {
		fmt.Fprintln(w, "knobs it reads (current value, and where it came from):")
		s.writeKnobRows(w, def.Knobs)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "exit status: 0 clean, 1 a violation (one line per finding, then a help: line per kind), 2 the gate could not run.")
}

// gateSpec answers a gate's declared `# spec:` and the descriptor that
// declares it: the one this tree resolves, else the shipped one.
func (s *Session) gateSpec(name string) (*registry.Spec, string) {
	if gatesDir, err := s.GatesDir(); err == nil {
		if roots, err := s.KitRoots(); err == nil {
			if res, err := registry.Resolve(s.regFS(), name, gatesDir, roots.Paths()); err == nil && res.Path != "" {
				if m, err := s.readDeclaration(res.Path); err == nil && m.Spec != nil {
					return m.Spec, res.Path
				}
			}
		}
	}
	if p, data, ok := kits.Descriptor(name); ok {
		if m, err := registry.ParseManifest(p, data); err == nil && m.Spec != nil {
			return m.Spec, "kits/" + p + " (shipped in this binary)"
		}
	}
	return nil, ""
}

// writeArmHelp prints an arm's help: its grammar, summary and knobs.
func (s *Session) writeArmHelp(w io.Writer, a Arm) {
	fmt.Fprintf(w, "usage: gates %s\n\n%s\n\n", armSpelling(a), a.Summary)
	var names []string
	sentinel := false
	for _, k := range a.Knobs {
		if k == "EVERY_REGISTERED_KNOB" {
			sentinel = true
			continue
		}
		names = append(names, k)
	}
	if len(names) == 0 {
		fmt.Fprintln(w, "knobs: none of its own")
	} else {
		fmt.Fprintln(w, "knobs it reads (current value, and where it came from):")
		s.writeKnobRows(w, names)
	}
	if sentinel {
		fmt.Fprintln(w, "  and every knob the registered gates read (see gates knobs)")
	}
	fmt.Fprintln(w)
	switch {
	case a.Flag == "--hook":
		fmt.Fprintln(w, "members:")
		for _, m := range harness.Members() {
			fmt.Fprintf(w, "  %-13s %s; %s\n", m.Name, m.Events, m.Summary)
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w, "exit status: the harness's protocol: 0 allow (an envelope on stdout may advise or refuse), 2 block with the reason on stderr.")
	case a.Family == Emit:
		fmt.Fprintln(w, "exit status: 0 the document was printed, 2 it could not be.")
	default:
		fmt.Fprintln(w, "exit status: 0 success, 1 a gate found a violation, 2 the command could not run.")
	}
}

// armSpelling is an arm's flag as a user types it, with its grammar.
func armSpelling(a Arm) string {
	spell := a.Flag
	if strings.HasPrefix(spell, "--emit-") {
		spell = "--emit " + strings.TrimPrefix(spell, "--emit-")
	}
	if a.Synopsis != "" {
		spell += " " + a.Synopsis
	}
	return spell
}

// knobRow is one knob as a person reads it.
type knobRow struct {
	Name, Value, Source, Description string
}

// describeKnob resolves one knob for display; a knob that cannot be
// resolved shows why in place of its value.
func (s *Session) describeKnob(name string) knobRow {
	row := knobRow{Name: name, Description: knobDescription(name)}
	if strings.HasPrefix(name, localPrefix) {
		gk, err := s.GateKnobs()
		if err == nil {
			var d registry.LocalKnobDecl
			var v []string
			d, v, err = gk.local(name)
			if err == nil {
				row.Value = strings.Join(v, ", ")
				row.Source = "declared in " + d.File
				if _, set := s.Env(name); set {
					row.Source = "environment"
				}
				if row.Description == "" {
					row.Description = "a consumer knob a descriptor's # knob: line declares"
				}
				return row
			}
		}
		row.Value, row.Source = "(unresolved)", "cannot resolve: "+err.Error()
		return row
	}
	set, err := s.Knobs()
	if err != nil {
		row.Value, row.Source = "(unresolved)", "cannot resolve: "+firstLine(err.Error())
		return row
	}
	v, err := set.Resolve(name)
	if err != nil {
		row.Value, row.Source = "(unresolved)", "cannot resolve: "+firstLine(err.Error())
		return row
	}
	row.Value = renderValue(v)
	row.Source = knobSource(v)
	return row
}

func renderValue(v *knob.Value) string {
	switch v.Shape {
	case knob.Indexed:
		return strings.Join(v.Elems, ", ")
	case knob.Keyed:
		var parts []string
		for _, p := range v.Pairs {
			parts = append(parts, p.Key+"="+p.Value)
		}
		return strings.Join(parts, ", ")
	}
	return v.Scalar
}

// knobSource names the layer a value came from as a person reads it.
func knobSource(v *knob.Value) string {
	switch v.Origin {
	case knob.OriginEnv:
		return "environment"
	case knob.OriginOverlay:
		return fmt.Sprintf("local overlay %s:%d", v.File, v.Line)
	case knob.OriginFile:
		return fmt.Sprintf("%s:%d", v.File, v.Line)
	}
	return "default"
}

// knobDescription answers the knob table's one line for a name.
func knobDescription(name string) string {
	for _, t := range staticTables() {
		if r := t.Row(name); r != nil {
			return r.Description
		}
		for _, e := range t.EnvOnly {
			if e.Name == name {
				return e.Description
			}
		}
	}
	return ""
}

// writeKnobRows prints each knob as two lines: name = value [source], then
// its description.
func (s *Session) writeKnobRows(w io.Writer, names []string) {
	for _, n := range dedupe(names) {
		r := s.describeKnob(n)
		val := r.Value
		if val == "" {
			val = "(empty)"
		}
		fmt.Fprintf(w, "  %s = %s  [%s]\n", r.Name, val, r.Source)
		if r.Description != "" {
			fmt.Fprintf(w, "      %s\n", r.Description)
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
