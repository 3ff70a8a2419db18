package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAgentStopLeavesTheUsersOwnWorkOut: the user's uncommitted work from
// before the session (an untracked page with a finding, an edit of a
// tracked one) does not hold the agent's Stop or its edits (SPEC.md,
// stop-gates Q); a finding the agent writes still does, beside them.
func TestAgentStopLeavesTheUsersOwnWorkOut(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "users-own-work")
	if err := os.WriteFile(filepath.Join(p.dir, "docs/mine.md"), []byte("# my notes\n\n"+leakLine), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.dir, "docs/guide.md"), []byte("How to use it.\n"+leakLine), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // the session begins a second later
	if why, blocked, post := p.bash(`git status --short`); blocked || post != "" {
		t.Fatalf("git status: blocked %v %q, after %q", blocked, why, post)
	}
	if why, blocked, post := p.bash(`printf 'More to read.\n' > docs/more.md`); blocked || post != "" {
		t.Fatalf("a clean page: blocked %v %q, after %q", blocked, why, post)
	}
	if got := p.stop(false); got != "" {
		t.Fatalf("the Stop held for the user's own work:\n%s", got)
	}
	if _, _, post := p.bash(`printf 'Notes live in /ho''me/agent/notes.\n' > docs/agent.md`); post != "" {
		t.Fatalf("a Bash write answered after: %q", post)
	}
	got := p.stop(false)
	if !strings.Contains(got, "docs/agent.md") {
		t.Fatalf("the agent's own finding did not hold the Stop:\n%s", got)
	}
}
