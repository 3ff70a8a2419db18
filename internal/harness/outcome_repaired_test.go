package harness

import (
	"strings"
	"testing"
)

// spanRepo is a fakeRepo that judges a span of commits as one: span maps
// "<id>..<base>" to its red results (none when absent).
type spanRepo struct {
	*fakeRepo
	span map[string][]Red
}

func (s *spanRepo) JudgeSpan(id, base string) ([]Red, error) {
	return s.span[id+".."+base], nil
}

// Judge is fakeRepo's, with the first parent the graph gives, as the
// hook repo's verdict carries it.
func (s *spanRepo) Judge(id string) (CommitVerdict, error) {
	v, err := s.fakeRepo.Judge(id)
	if ps := s.graph[id]; len(ps) > 0 {
		v.Parent = ps[0]
	}
	return v, err
}

// A red commit the agent repaired in a later commit (a revert, a commit
// taking the line out: the remedy's "fix each finding in a new commit")
// is named right after it landed, and then holds no Stop and leaves the
// status line; one whose later commits leave a finding in still does.
func TestStopLetsARedCommitALaterOneRepairedGo(t *testing.T) {
	home := []Red{{Name: "check-tree-terms", Code: 1, Output: "docs/a.md:2: a home path", Hook: "pre-commit"}}
	for _, c := range []struct {
		name string
		span []Red
		held bool
	}{
		{name: "the later commit takes the finding out", span: nil, held: false},
		{name: "the later commit leaves the finding in", span: home, held: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"b0aaaa": nil}, reds: map[string][]Red{"c1bbbb": home}}
			r := &spanRepo{fakeRepo: f, span: map[string][]Red{"c2cccc..b0aaaa": c.span}}
			f.tips = []Tip{{"HEAD", "b0aaaa"}, {"refs/heads/main", "b0aaaa"}}
			bash := map[string]any{"command": "anything"}
			callSpan(t, r, "commit-audit", PreToolUse, bash)
			f.graph["c1bbbb"] = []string{"b0aaaa"}
			f.tips = []Tip{{"HEAD", "c1bbbb"}, {"refs/heads/main", "c1bbbb"}}
			if _, out := callSpan(t, r, "commit-audit", PostToolUse, bash); !strings.Contains(out, "Commit c1bb") {
				t.Fatalf("the red commit was not named right after: %q", out)
			}
			callSpan(t, r, "commit-audit", PreToolUse, bash)
			f.graph["c2cccc"] = []string{"c1bbbb"}
			f.tips = []Tip{{"HEAD", "c2cccc"}, {"refs/heads/main", "c2cccc"}}
			if _, out := callSpan(t, r, "commit-audit", PostToolUse, bash); out != "" {
				t.Fatalf("the repairing commit was named: %q", out)
			}
			shown := len(SessionRed(f.state, "s1")) > 0
			_, out := callSpan(t, r, "stop-gates", Stop, nil)
			held := strings.Contains(out, "Commit c1bb")
			if held != c.held || shown != c.held {
				t.Fatalf("held %v, on the status line %v, want %v: %q", held, shown, c.held, out)
			}
		})
	}
}

// A refused message is not repaired by a later commit: it stays in
// history whatever follows.
func TestStopHoldsARefusedMessageALaterCommitFollows(t *testing.T) {
	msg := []Red{{Name: "check-commit-subject", Code: 1, Output: "subject refused", Hook: "commit-msg"}}
	f := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"b0aaaa": nil}, reds: map[string][]Red{"c1bbbb": msg}}
	r := &spanRepo{fakeRepo: f, span: map[string][]Red{}}
	f.tips = []Tip{{"HEAD", "b0aaaa"}, {"refs/heads/main", "b0aaaa"}}
	bash := map[string]any{"command": "anything"}
	callSpan(t, r, "commit-audit", PreToolUse, bash)
	f.graph["c1bbbb"] = []string{"b0aaaa"}
	f.graph["c2cccc"] = []string{"c1bbbb"}
	f.tips = []Tip{{"HEAD", "c2cccc"}, {"refs/heads/main", "c2cccc"}}
	callSpan(t, r, "commit-audit", PostToolUse, bash)
	if _, out := callSpan(t, r, "stop-gates", Stop, nil); !strings.Contains(out, "Commit c1bb") {
		t.Fatalf("a refused message below HEAD did not hold the Stop: %q", out)
	}
}

// callSpan is call over a spanRepo.
func callSpan(t *testing.T, r *spanRepo, member, event string, input any) (int, string) {
	t.Helper()
	tool := "Bash"
	if event == Stop {
		tool = ""
	}
	code, out, _ := callRepo(t, r, member, event, tool, input)
	return code, out
}
