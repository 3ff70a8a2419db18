package harness

import (
	"fmt"
	"strings"
	"testing"
)

// assertion J at a Stop: commits past the cap hold the turn, said on a
// line of its own after the red ones, or alone when none is red.
func TestStopHoldsForWhatTheCapLeft(t *testing.T) {
	for _, red := range []bool{true, false} {
		r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c0000": nil}, red: map[string]bool{}}
		r.tips = []Tip{{"HEAD", "c0000"}, {"refs/heads/main", "c0000"}}
		call(t, r, "commit-audit", PreToolUse, "Bash", map[string]any{"command": "anything"})
		prev := "c0000"
		for i := 1; i <= MaxJudged+2; i++ {
			id := fmt.Sprintf("c%04d", i)
			r.graph[id] = []string{prev}
			r.red[id] = red
			prev = id
		}
		r.tips = []Tip{{"HEAD", prev}, {"refs/heads/main", prev}}
		_, out, _ := call(t, r, "stop-gates", Stop, "", nil)
		want := `"reason": "Do not stop yet: gate-sdk commit-audit: 2 commits not yet judged`
		if red {
			want = `way around the hooks.\nDo not stop yet: gate-sdk commit-audit: 2 commits not yet judged`
		}
		if !strings.Contains(out, want) {
			t.Errorf("red %v: the Stop said %q, want it to hold %q", red, out, want)
		}
	}
}
