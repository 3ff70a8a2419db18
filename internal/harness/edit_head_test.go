package harness

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// editWith plays edit-gates over an edit of docs/guide.md whose view is
// red with out, HEAD's pre-commit judgement reporting headOut.
func editWith(t *testing.T, out, headOut string) string {
	t.Helper()
	r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"h0000": nil}, red: map[string]bool{}}
	r.tips = []Tip{{"HEAD", "h0000"}, {"refs/heads/main", "h0000"}}
	r.reds = map[string][]Red{"h0000": {{Name: "check-tree-terms", Code: 1, Hook: "pre-commit", Output: headOut}}}
	runner := &fakeRunner{For: &Result{Ran: 1, Red: []Red{{Name: "check-tree-terms", Code: 1, Output: out}}}}
	m, _ := Lookup("edit-gates")
	var stdout, errb bytes.Buffer
	in, _ := json.Marshal(map[string]any{"file_path": "/srv/dev/project/docs/guide.md"})
	p := &Payload{SessionID: "s1", HookEventName: "PostToolUse", ToolName: "Edit", Cwd: "/srv/dev/project", ToolInput: in}
	m.Run(&Call{Member: "edit-gates", Payload: p, Stdout: &stdout, Stderr: &errb, Gates: runner, Repo: r})
	return stdout.String()
}

// assertion N: a red result every line of which HEAD's pre-commit
// judgement already reports is not the edit's; one with a line of its
// own is still told to the model.
func TestEditGatesLeavesHeadsFindingsOut(t *testing.T) {
	const help = "help: remove the banned term"
	head := "docs/up.md:1: a home path\n" + help
	if got := editWith(t, head, head); got != "" {
		t.Fatalf("only HEAD's line: said %q", got)
	}
	if got := editWith(t, "docs/guide.md:3: a home path\n"+head, head); !strings.Contains(got, "docs/guide.md:3") {
		t.Fatalf("a line of the edit's own: said %q", got)
	}
}

// assertion O: words whose help offers the baseline say that taking it
// is the user's decision; others gain nothing.
func TestEditGatesBaselineIsTheUsers(t *testing.T) {
	offer := "docs/guide.md:3: a home path\nhelp: ... is accepted with `gates baseline`"
	if got := editWith(t, offer, ""); !strings.Contains(got, "that is the user's decision, not yours") {
		t.Fatalf("an offer of the baseline: said %q", got)
	}
	if got := editWith(t, "docs/guide.md:3: a home path\nhelp: remove it", ""); got == "" || strings.Contains(got, "user's decision") {
		t.Fatalf("no offer: said %q", got)
	}
}
