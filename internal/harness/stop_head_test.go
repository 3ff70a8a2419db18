package harness

import (
	"bytes"
	"strings"
	"testing"
)

// assertion P: a red result of the uncommitted change every line of which
// HEAD's pre-commit judgement already reports is not the change's; one
// with a line of its own still holds the Stop.
func TestStopGatesLeavesHeadsFindingsOut(t *testing.T) {
	const help = "help: remove the banned term"
	for _, c := range []struct {
		name, out string
		held      bool
	}{
		{"only HEAD's line", "docs/up.md:1: a home path\n" + help, false},
		{"a line of the change's own", "docs/guide.md:3: a home path\ndocs/up.md:1: a home path\n" + help, true},
	} {
		r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"h0000": nil}, red: map[string]bool{}}
		r.tips = []Tip{{"HEAD", "h0000"}, {"refs/heads/main", "h0000"}}
		r.reds = map[string][]Red{"h0000": {{Name: "check-root-tiering", Code: 1, Hook: "pre-commit", Output: "docs/up.md:1: a home path\n" + help + "\n\nx: another gate's line"}}}
		runner := &fakeRunner{Change: []string{"docs/guide.md"}, For: &Result{Ran: 1, Red: []Red{{Name: "check-tree-terms", Code: 1, Output: c.out}}}}
		m, _ := Lookup("stop-gates")
		var out, errb bytes.Buffer
		p := &Payload{SessionID: "s1", HookEventName: "Stop", Cwd: "/srv/p"}
		m.Run(&Call{Member: "stop-gates", Payload: p, Stdout: &out, Stderr: &errb, Gates: runner, Repo: r})
		if held := strings.Contains(out.String(), "uncommitted change"); held != c.held {
			t.Fatalf("%s: held %v, want %v: %q", c.name, held, c.held, out.String())
		}
	}
}
