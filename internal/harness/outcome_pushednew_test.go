package harness

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// pushedNewFake is a fakeRepo whose placed pre-push hook kept the
// commits its pushes sent that no fetch had brought.
type pushedNewFake struct {
	*fakeRepo
	sentNew []string
}

func (f *pushedNewFake) PushedNewSince(int64) ([]string, error) { return f.sentNew, nil }

// assertion G: a commit under another identity that this clone pushed
// before any fetch held it, fetched back in the same command, is the
// agent's and judged; without that record it is a colleague's; and one
// that an earlier look saw fetched stays a colleague's whatever a push
// sent.
func TestCommitAuditJudgesACommitPushedThenFetchedBack(t *testing.T) {
	bash := map[string]any{"command": "anything"}
	look := func(r *pushedNewFake, event string) string {
		t.Helper()
		in, _ := json.Marshal(bash)
		m, _ := Lookup("commit-audit")
		var out, errb bytes.Buffer
		p := &Payload{SessionID: "s1", HookEventName: event, ToolName: "Bash", ToolInput: in, Cwd: "/srv/p"}
		m.Run(&Call{Member: "commit-audit", Payload: p, Stdout: &out, Stderr: &errb, Gates: &fakeRunner{}, Repo: r})
		return out.String()
	}
	for _, c := range []struct {
		name    string
		sentNew []string
		want    bool
	}{
		{"sent before any fetch held it", []string{"f2bbbb"}, true},
		{"no record of it", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			fr := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c1aaaa": nil, "f2bbbb": {"c1aaaa"}}, red: map[string]bool{"f2bbbb": true}}
			r := &pushedNewFake{fakeRepo: fr}
			fr.tips = []Tip{{"HEAD", "c1aaaa"}, {"refs/heads/main", "c1aaaa"}, {"refs/remotes/origin/main", "c1aaaa"}}
			look(r, PreToolUse)
			// One command: f2 made under another identity, pushed to
			// origin, pulled back.
			fr.fetched = []string{"f2bbbb"}
			fr.foreign = map[string]bool{"f2bbbb": true}
			r.sentNew = c.sentNew
			fr.tips = []Tip{{"HEAD", "f2bbbb"}, {"refs/heads/main", "f2bbbb"}, {"refs/remotes/origin/main", "f2bbbb"}}
			out := look(r, PostToolUse)
			if named := strings.Contains(out, "Commit f2bb"); named != c.want {
				t.Fatalf("named %v, want %v: %q", named, c.want, out)
			}
		})
	}
	t.Run("fetched in an earlier command", func(t *testing.T) {
		fr := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c1aaaa": nil, "f2bbbb": {"c1aaaa"}}, red: map[string]bool{"f2bbbb": true}}
		r := &pushedNewFake{fakeRepo: fr}
		fr.tips = []Tip{{"HEAD", "c1aaaa"}, {"refs/heads/main", "c1aaaa"}}
		look(r, PreToolUse)
		// A colleague's f2 fetched into FETCH_HEAD alone.
		fr.fetched = []string{"f2bbbb"}
		fr.foreign = map[string]bool{"f2bbbb": true}
		fr.graph["g3cccc"] = []string{"c1aaaa"}
		fr.tips = append(fr.tips, Tip{"refs/heads/topic", "g3cccc"})
		look(r, PostToolUse)
		// Then pushed from FETCH_HEAD (the record keeps it: FETCH_HEAD
		// moved on) and fetched back.
		look(r, PreToolUse)
		fr.fetched = nil
		r.sentNew = []string{"f2bbbb"}
		fr.tips = []Tip{{"HEAD", "f2bbbb"}, {"refs/heads/main", "f2bbbb"}, {"refs/heads/topic", "g3cccc"}}
		if out := look(r, PostToolUse); strings.Contains(out, "Commit f2bb") {
			t.Fatalf("a commit an earlier look saw fetched was named: %q", out)
		}
	})
}
