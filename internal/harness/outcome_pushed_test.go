package harness

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// callPush is call over a pushFake.
func callPush(t *testing.T, r *pushFake, member, event, tool string, input any) (int, string, string) {
	t.Helper()
	in, _ := json.Marshal(input)
	m, ok := Lookup(member)
	if !ok {
		t.Fatalf("no member %s", member)
	}
	var out, errb bytes.Buffer
	p := &Payload{SessionID: "s1", HookEventName: event, ToolName: tool, ToolInput: in, Cwd: "/srv/p"}
	code := m.Run(&Call{Member: member, Payload: p, Stdout: &out, Stderr: &errb, Gates: &fakeRunner{}, Repo: r})
	return code, out.String(), errb.String()
}

// pushFake is a fakeRepo with a pre-push record: the commits sent as a
// branch's, those sent from a notes ref to a notes ref, and when the
// record was last written (zero: no record).
type pushFake struct {
	*fakeRepo
	sent, notes []string
	stamp       time.Time
}

func (f *pushFake) PushedSince(int64) ([]string, []string, error) { return f.sent, f.notes, nil }
func (f *pushFake) PushStamp() (time.Time, bool)                  { return f.stamp, !f.stamp.IsZero() }

// A red commit named after one command, pushed and its ref deleted by the
// next, is named again right after that push: it has left the clone. A
// commit a notes ref sent to a notes ref is judged when its history
// joins the project's, and a git-notes commit is not.
func TestCommitAuditNamesWhatAPushSentAgain(t *testing.T) {
	for _, c := range []struct {
		name        string
		sent, notes []string
		ref         string
		want        bool
	}{
		{"sent from a branch", []string{"c2bbbb"}, nil, "refs/heads/red", true},
		{"sent from a notes ref to a notes ref", nil, []string{"c2bbbb"}, "refs/notes/x", true},
		{"a git-notes commit sent notes to notes", nil, []string{"n1nnnn"}, "refs/notes/x", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			fr := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c1aaaa": nil, "c2bbbb": {"c1aaaa"}, "n1nnnn": nil}, red: map[string]bool{"c2bbbb": true, "n1nnnn": true}}
			r := &pushFake{fakeRepo: fr}
			fr.tips = []Tip{{"HEAD", "c1aaaa"}, {"refs/heads/main", "c1aaaa"}}
			bash := map[string]any{"command": "anything"}
			callPush(t, r, "commit-audit", PreToolUse, "Bash", bash)
			// The first command parks the commit on a ref.
			at := "c2bbbb"
			if !c.want {
				at = "n1nnnn"
			}
			fr.tips = append(fr.tips, Tip{c.ref, at})
			_, out, _ := callPush(t, r, "commit-audit", PostToolUse, "Bash", bash)
			if c.want && !strings.Contains(out, "Commit c2bb") {
				t.Fatalf("the parked red commit was not named: %q", out)
			}
			// The second pushes it and deletes the ref.
			callPush(t, r, "commit-audit", PreToolUse, "Bash", bash)
			fr.tips = fr.tips[:2]
			r.sent, r.notes, r.stamp = c.sent, c.notes, time.Now().Add(2*time.Second)
			_, out, _ = callPush(t, r, "commit-audit", PostToolUse, "Bash", bash)
			if named := strings.Contains(out, "Commit "+at[:4]); named != c.want {
				t.Fatalf("after the push: named %v, want %v: %q", named, c.want, out)
			}
		})
	}
}
