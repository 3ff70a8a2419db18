package e2e

import (
	"strings"
	"testing"
)

// Gates that cannot run at all — a registry line that resolves to no
// gate, a knob file that does not parse, an index git cannot read —
// beside an uncommitted leak: the model hears why at the edit and at the
// Stop (held once), never a message only the user reads; repaired, the
// Stop names the leak.
func TestAgentGatesThatCannotRunAreTold(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, breakIt, repair string }{
		{"an unknown gate in the registry", `printf 'check-no-such-gate\n' >> scripts/gates.list`, `git checkout scripts/gates.list`},
		{"a malformed knob line", `printf 'not a knob line\n' >> scripts/gate-sdk-config.knobs`, `git checkout scripts/gate-sdk-config.knobs`},
		{"a damaged index", `echo garbage > .git/index`, `rm -f .git/index && git reset -q`},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := outcomeClone(t, "cannot run "+c.name)
			p.env = append(p.env, "CLAUDECODE=1")
			p.bashQuiet("git status --short")
			if refused, _ := p.bash2(`printf 'Keep notes in /ho''me/marta/notes.\n' > docs/leak.md && ` + c.breakIt); refused != "" {
				t.Fatalf("refused before it ran: %s", refused)
			}
			reason, _, other := words2(p.fire("Stop", "", map[string]any{"stop_hook_active": false}))
			if !strings.Contains(reason, "the gates could not judge the change") {
				t.Errorf("the Stop was not held with the cause: reason %q, other %q", reason, other)
			}
			if reason, _, _ := words2(p.fire("Stop", "", map[string]any{"stop_hook_active": true})); reason != "" {
				t.Errorf("the loop guard's Stop was held: %q", reason)
			}
			if c.name != "a damaged index" {
				in := map[string]any{"tool_input": map[string]any{"file_path": p.dir + "/docs/guide.md", "old_string": "a", "new_string": "b"}}
				reason, _, _ := words2(p.fire("PostToolUse", "Edit", in))
				if !strings.Contains(reason, "the gates could not judge the change") {
					t.Errorf("an Edit after it was not told: %q", reason)
				}
			}
			p.bash2(c.repair)
			reason, _, _ = words2(p.fire("Stop", "", map[string]any{"stop_hook_active": false}))
			if !strings.Contains(reason, "check-tree-terms") {
				t.Errorf("repaired, the Stop does not name the leak: %q", reason)
			}
		})
	}
}
