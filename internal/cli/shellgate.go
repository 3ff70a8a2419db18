package cli

import (
	"fmt"
	"os"

	"github.com/gate-sdk/gates/internal/battery"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/spawn"
)

// registeredShell answers the consumer's .sh member of that name, when the
// configured gates.list registers one, so `gates <name>` runs what
// completion offers at the first word.
func (s *Session) registeredShell(name string) (registry.Member, bool) {
	reg := s.quietRegistry()
	if reg == nil {
		return registry.Member{}, false
	}
	m, ok := reg.Member(name)
	if !ok || m.Kind != registry.Shell {
		return registry.Member{}, false
	}
	return m, true
}

// runShellStandalone is `gates <sh-gate> [args]`: the consumer's program
// with both streams relayed as it writes them (as the battery merges
// them), its status clamped to the contract's 0..2.
func runShellStandalone(s *Session, m registry.Member, args []string) int {
	if isHelp(args) {
		s.writeShellHelp(m)
		return 0
	}
	format, args, err := takeFormat(s.prog, args)
	if err != nil {
		return s.fail(err)
	}
	scratch, err := s.scratchDir("gates-" + m.Name + "-")
	if err != nil {
		fmt.Fprintf(s.Stderr, "%s: cannot make a scratch directory: %v\n", m.Name, err)
		return 2
	}
	defer os.RemoveAll(scratch)
	cmd := spawn.Cmd{Program: spawn.At(m.Path), Args: args, ExtraEnv: []string{"TMPDIR=" + scratch}}
	if format == formatJSON {
		res, err := spawn.RunMerged(cmd)
		if err != nil {
			fmt.Fprintf(s.Stderr, "%s: %v\n", m.Name, err)
			return 2
		}
		code := clampCode(res.ReportedCode())
		v := battery.Verdict{Member: battery.Member{Name: m.Name}, Outcome: battery.Outcome{Code: code, Output: res.Output()}}
		doc := battery.Document([]battery.Verdict{v}, nil, gate.ID)
		doc.Exit = code
		if code == 2 {
			doc.Verdict = battery.CouldNotRun
		}
		doc.Summary = lastLine(string(res.Output()))
		return s.writeDocument(doc, code)
	}
	code, err := spawn.RunPassing(cmd, s.Stdout)
	if err != nil {
		fmt.Fprintf(s.Stderr, "%s: %v\n", m.Name, err)
		return 2
	}
	return clampCode(code)
}

// clampCode maps a program's status onto the contract: anything past 1 is
// could-not-run.
func clampCode(code int) int {
	if code < 0 || code > 2 {
		return 2
	}
	return code
}

// writeShellHelp prints what the binary knows of a consumer's .sh gate:
// its declared invariant and where it is declared.
func (s *Session) writeShellHelp(m registry.Member) {
	w := s.Stdout
	title := m.Name
	var spec *registry.Spec
	if m.Manifest != nil {
		spec = m.Manifest.Spec
	}
	if spec != nil && spec.Statement != "" {
		title += " — " + spec.Statement
	}
	fmt.Fprintln(w, title)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "usage: gates %s [<arg>...] [--format text|json]\n", m.Name)
	if spec != nil && spec.Location != "" {
		fmt.Fprintf(w, "spec: %s (declared in %s)\n", spec.Location, m.Path)
	} else {
		fmt.Fprintf(w, "spec: none declared in %s\n", m.Path)
	}
	fmt.Fprintln(w, "a consumer's shell gate: its operands and the knobs it reads are its own; see its header.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "exit status: 0 clean, 1 a violation, 2 the gate could not run.")
}
