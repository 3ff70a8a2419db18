package harness

import (
	"fmt"
	"io"
	"strings"
)

// RegistersGates reports whether a settings text registers a gates member
// with a timeout long enough to answer: the mark of a tree adopted with
// `init --harness claude`, which only a git repository can be.
func RegistersGates(data []byte) bool { return len(settingsRegistrations(data)) > 0 }

// LostRepository answers a call in a tree whose settings register the
// gates' hooks but where git cannot open the repository those hooks judge
// (its .git moved, removed or broken). Nothing the agent commits there can
// be judged, so the model is told, as for any other failure of the judge's
// footing: after a tool call and at a Stop (held once; the loop guard lets
// the next one go) it is a block reason, before a call it is context.
func LostRepository(p *Payload, why string, stdout, stderr io.Writer) int {
	text := "gate-sdk: " + strings.TrimRight(why, "\n") + "; nothing committed here is checked until git can open the repository again. Put it back where it was and run `git status`."
	fmt.Fprintln(stderr, text)
	switch ev := p.Event(); {
	case ev == PostToolUse:
		fmt.Fprintln(stdout, Feedback(text))
	case (ev == Stop || ev == SubagentStop) && !p.StopHookActive:
		fmt.Fprintln(stdout, RefuseStop(text))
	default:
		fmt.Fprintln(stdout, Advise(ev, text))
	}
	return Allow
}
