package cli

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/walk"
)

// noOperands refuses any operand for an arm that takes none.
func noOperands(s *Session, flag string, args []string) bool {
	if len(args) == 0 {
		return true
	}
	s.fail(usageError{msg: fmt.Sprintf("%s: %s takes no operand, got %q", s.prog, flag, args[0])})
	return false
}

// dashFree refuses a dash-led operand (after an optional leading --).
func dashFree(s *Session, flag, usage string, args []string) ([]string, bool) {
	if len(args) > 0 && args[0] == "--" {
		return args[1:], true
	}
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			fmt.Fprintf(s.Stderr, "%s: %s: unrecognized option %q\n%s\n", s.prog, flag, a, usage)
			return nil, false
		}
	}
	return args, true
}

func emitKitRoots(s *Session, args []string) int {
	if !noOperands(s, "--emit kit-roots", args) {
		return 2
	}
	if _, err := s.Top(); err != nil {
		return s.fail(err)
	}
	roots, err := s.KitRoots()
	if err != nil {
		return s.fail(err)
	}
	if err := walk.WriteKitRoots(s.Stdout, roots.Paths()); err != nil {
		return s.fail(err)
	}
	return 0
}

func emitKnobRoster(s *Session, args []string) int {
	if len(args) == 1 && args[0] == "--describe" {
		// The readable listing `gates knobs` prints.
		s.writeKnobGroups(s.Stdout, nil)
		return 0
	}
	if !noOperands(s, "--emit knob-roster", args) {
		return 2
	}
	if err := knob.WriteRoster(s.Stdout, nil); err != nil {
		return s.fail(err)
	}
	return 0
}

func emitKnobValues(s *Session, args []string) int {
	names, ok := dashFree(s, "--emit knob-values", "usage: gates --emit knob-values <NAME>...", args)
	if !ok {
		return 2
	}
	if len(names) == 0 {
		fmt.Fprintln(s.Stderr, s.prog+": --emit knob-values needs at least one knob name\nusage: gates --emit knob-values <NAME>...")
		return 2
	}
	set, err := s.Knobs()
	if err != nil {
		return s.fail(err)
	}
	if err := knob.WriteValues(s.Stdout, set, names); err != nil {
		return s.fail(err)
	}
	return 0
}

func emitCaptureDrain(s *Session, args []string) int {
	done := false
	if len(args) > 0 && args[0] == "--done" {
		done, args = true, args[1:]
	}
	rest, ok := dashFree(s, "--emit capture-drain", walk.CaptureDrainUsage, args)
	if !ok {
		return 2
	}
	if len(rest) != 1 {
		fmt.Fprintln(s.Stderr, walk.CaptureDrainUsage)
		return 2
	}
	path, err := walk.CaptureDrain(rest[0], done)
	if err != nil {
		return s.fail(err)
	}
	if path != "" {
		fmt.Fprintln(s.Stdout, path)
	}
	return 0
}
