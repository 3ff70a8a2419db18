package cli

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
)

// harnessMember is one harness-integration member: stdin is the harness's
// payload, the status is the harness's protocol (0 allow, 2 block).
type harnessMember func(s *Session) int

// harnessMembers is the closed member roster of --hook. This build ports no
// harness member yet; the arm still owns the protocol's fail-open decline
// and refuses every member name against the (empty) roster.
func harnessMembers() map[string]harnessMember { return map[string]harnessMember{} }

// declineEnvelope is the fixed notice a declined hook writes on stdout, in
// the one field every harness event accepts.
const declineEnvelope = `{"systemMessage": "gate-sdk: the hook guards of this tree are not running: git found no repository here, refuses it, or skipped a nested one. Run git status here, or git --git-dir=<that .git> status for a skipped nested repository; gates names it on stderr."}`

// runHook is --hook <member>.
func runHook(s *Session, args []string) int {
	cwd, err := s.Cwd()
	if err == nil {
		_, _, err = walk.ToplevelOpt(cwd, nil)
	}
	var refused *walk.RefusedError
	if errors.As(err, &refused) {
		// A tree git refuses or skips: decline before validating the
		// member, allowing the call rather than wedging the session.
		fmt.Fprintln(s.Stdout, declineEnvelope)
		fmt.Fprintf(s.Stderr, "gates --hook: %v\n", err)
		return 0
	}
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(s.Stderr, "usage: gates --hook <member>")
		return 2
	}
	members := harnessMembers()
	run, ok := members[args[0]]
	if !ok {
		var names []string
		for n := range members {
			names = append(names, n)
		}
		sort.Strings(names)
		roster := strings.Join(names, " ")
		if roster == "" {
			roster = "(none in this build)"
		}
		fmt.Fprintf(s.Stderr, "gates --hook: no harness member named %q; members: %s\n", args[0], roster)
		return 2
	}
	return run(s)
}
