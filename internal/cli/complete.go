package cli

import (
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/gate-sdk/gates/internal/harness"
	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/registry"
)

// Completion answers candidates from the same tables dispatch reads: the
// compiled gate registry, the consumer's gates.list, the arm table, the
// readable words and the knob tables. Nothing here prints an error: a
// candidate source that cannot be read offers nothing.

// topFlags are the leading options dispatch serves itself, beside the arms.
var topFlags = []string{"--emit", "--list", "--version", "-v", "--help", "-h"}

// formatNames are the shapes --format renders.
var formatNames = []string{"text", "json"}

// batteryOptions are the options of the battery's grammar.
var batteryOptions = []string{"--for", "--only", "--gates-dir", "--shard", "--format", "--help"}

const noFiles = cobra.ShellCompDirectiveNoFileComp

// complete answers the candidates for the word being typed after args.
//
// assertion A: candidates read off the gate registry, gates.list, the arm table and the knob tables.
func (s *Session) complete(args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) == 0 {
		var all []string
		all = append(all, s.memberNames()...)
		for _, a := range armTable() {
			all = append(all, a.Flag)
		}
		all = append(all, topFlags...)
		return matching(all, toComplete), noFiles
	}
	head := args[0]
	switch {
	case head == "--emit":
		if len(args) == 1 {
			return matching(emitNames(), toComplete), noFiles
		}
		return s.completeEmit("--emit-"+args[1], args[2:], toComplete)
	case strings.HasPrefix(head, "--emit-"):
		return s.completeEmit(head, args[1:], toComplete)
	case head == "--hook":
		if len(args) == 1 {
			return matching(harnessNames(), toComplete), noFiles
		}
		return nil, noFiles
	case head == "--git-hook":
		if len(args) == 1 {
			return matching([]string{"pre-commit", "pre-merge-commit", "commit-msg"}, toComplete), noFiles
		}
		return nil, cobra.ShellCompDirectiveDefault
	case head == "--run" || (strings.HasPrefix(head, "-") && !isArm(head) && !isTopFlag(head)):
		rest := args[1:]
		if head != "--run" {
			rest = args
		}
		return s.completeBattery(rest, toComplete)
	}
	if _, ok := findGate(head); ok || s.isRegistered(head) {
		return completeGateOperands(args[1:], toComplete)
	}
	return nil, noFiles
}

// completeCommand answers candidates after a readable word.
func (s *Session) completeCommand(name string, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	switch name {
	case "help":
		if len(args) > 0 {
			return nil, noFiles
		}
		var all []string
		all = append(all, s.listedNames()...)
		for _, a := range armTable() {
			all = append(all, a.Flag)
		}
		for _, c := range commandTable() {
			all = append(all, c.Name)
		}
		return matching(all, toComplete), noFiles
	case "run":
		return s.completeBattery(args, toComplete)
	case "knobs":
		return matching(s.listedNames(), toComplete), noFiles
	case "completion":
		if len(args) == 0 {
			return matching([]string{"bash", "zsh", "fish", "powershell"}, toComplete), noFiles
		}
	}
	return nil, noFiles
}

func (s *Session) completeEmit(flag string, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	switch flag {
	case "--emit-knob-values":
		return matching(knobNames(), toComplete), noFiles
	case "--emit-knob-roster":
		if len(args) == 0 {
			return matching([]string{"--describe"}, toComplete), noFiles
		}
		return nil, noFiles
	case "--emit-capture-drain":
		return nil, cobra.ShellCompDirectiveDefault
	}
	return nil, noFiles
}

// completeBattery answers candidates inside the battery's grammar: member
// names after --only, paths after --for, a format after --format.
func (s *Session) completeBattery(args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if n := len(args); n > 0 && args[n-1] == "--format" {
		return matching(formatNames, toComplete), noFiles
	}
	if n := len(args); n > 0 && args[n-1] == "--gates-dir" {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	if n := len(args); n > 0 && args[n-1] == "--shard" {
		return nil, noFiles // K/N: nothing to offer
	}
	for i, a := range args {
		switch a {
		case "--only":
			if slices.Contains(args[i+1:], "--") {
				return nil, cobra.ShellCompDirectiveDefault
			}
			return matching(s.registeredNames(), toComplete), noFiles
		case "--for":
			return nil, cobra.ShellCompDirectiveDefault
		}
	}
	if strings.HasPrefix(toComplete, "-") {
		return matching(batteryOptions, toComplete), noFiles
	}
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// completeGateOperands offers a gate's options; anything else is a path.
func completeGateOperands(args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if n := len(args); n > 0 && args[n-1] == "--format" {
		return matching(formatNames, toComplete), noFiles
	}
	if strings.HasPrefix(toComplete, "-") {
		return matching([]string{"--help", "--format"}, toComplete), noFiles
	}
	return nil, cobra.ShellCompDirectiveDefault
}

// memberNames answers every gate a first word can name: the compiled ones
// and the consumer's registered members (its own .sh gates among them).
func (s *Session) memberNames() []string {
	names := s.listedNames()
	if reg := s.quietRegistry(); reg != nil {
		for _, m := range reg.Distinct() {
			if m.Kind == registry.Shell {
				names = append(names, m.Name)
			}
		}
	}
	return dedupe(names)
}

// registeredNames answers the names the configured gates.list registers,
// or nothing when it cannot be read.
func (s *Session) registeredNames() []string {
	reg := s.quietRegistry()
	if reg == nil {
		return nil
	}
	var out []string
	for _, m := range reg.Distinct() {
		out = append(out, m.Name)
	}
	return out
}

func (s *Session) isRegistered(name string) bool {
	_, ok := s.registeredShell(name)
	return ok
}

// quietRegistry loads the configured registry, nil on any failure.
func (s *Session) quietRegistry() *loadedRegistry {
	gatesDir, err := s.GatesDir()
	if err != nil {
		return nil
	}
	reg, err := s.loadRegistry(gatesDir)
	if err != nil {
		return nil
	}
	return reg
}

var (
	tablesOnce sync.Once
	tables     []*knob.Table
)

// staticTables answers the embedded knob tables, parsed once per process;
// nil when they do not parse (the knob engine refuses that on its own).
func staticTables() []*knob.Table {
	tablesOnce.Do(func() { tables, _ = knob.DefaultTables() })
	return tables
}

// knobNames answers every statically owned knob and environment-only name.
func knobNames() []string {
	tables := staticTables()
	var out []string
	for _, t := range tables {
		for _, r := range t.Rows {
			out = append(out, r.Name)
		}
		for _, e := range t.EnvOnly {
			out = append(out, e.Name)
		}
	}
	return out
}

func harnessNames() []string { return harness.Names() }

func isArm(flag string) bool {
	_, ok := lookupArm(flag)
	return ok
}

func isTopFlag(flag string) bool { return slices.Contains(topFlags, flag) }

// matching answers the candidates opening with prefix, each once, in order.
func matching(all []string, prefix string) []cobra.Completion {
	var out []cobra.Completion
	for _, c := range dedupe(all) {
		if strings.HasPrefix(c, prefix) {
			out = append(out, c)
		}
	}
	return out
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range in {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
