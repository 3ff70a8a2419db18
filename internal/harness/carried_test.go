package harness

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// holdFake is a fakeRepo beside which other repositories hold commits:
// by directory, the ids their refs reach.
type holdFake struct {
	*fakeRepo
	held map[string][]string
}

func (f *holdFake) HeldIn(dir string, ids []string) ([]string, error) {
	var out []string
	for _, id := range ids {
		for _, h := range f.held[dir] {
			if h == id {
				out = append(out, id)
			}
		}
	}
	return out, nil
}

// A red commit named after one command, then sent by the next to a
// repository the command names (or a script it runs names) past any
// pre-push record, and taken off the refs here, is named again right after
// that command, with where it went; dropped with nothing naming where it
// went, it is not.
func TestCommitAuditNamesWhatACommandCarriedOut(t *testing.T) {
	parent := t.TempDir()
	other := filepath.Join(parent, "pushed.git")
	for _, d := range []string{filepath.Join(other, "objects"), filepath.Join(parent, "p")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(other, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(parent, "p.sh"), []byte("git push -q --no-verify ../pushed.git red\n"), 0o644)
	for _, c := range []struct {
		name, command string
		want          bool
	}{
		{"pushed through sh", `echo 'git push -q --no-verify ../pushed.git red' | sh && git branch -D red`, true},
		{"fetched by the other repository", `git -C ../pushed.git fetch -q "$PWD" red:red && git branch -D red`, true},
		{"pushed by a script the command runs", `sh ../p.sh && git branch -D red`, true},
		{"pushed to a path built from $PWD", `echo 'git push -q --no-verify "$(dirname "$PWD")/pushed.git" red' | sh && git branch -D red`, true},
		{"dropped, naming no repository", `git branch -D red`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			fr := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c1aaaa": nil, "c2bbbb": {"c1aaaa"}}, red: map[string]bool{"c2bbbb": true}}
			r := &holdFake{fakeRepo: fr, held: map[string][]string{other: {"c2bbbb"}}}
			fr.tips = []Tip{{"HEAD", "c1aaaa"}, {"refs/heads/main", "c1aaaa"}}
			call := func(event, command string) string {
				in, _ := json.Marshal(map[string]any{"command": command})
				m, _ := Lookup("commit-audit")
				var out, errb bytes.Buffer
				p := &Payload{SessionID: "s1", HookEventName: event, ToolName: "Bash", ToolInput: in, Cwd: filepath.Join(parent, "p")}
				m.Run(&Call{Member: "commit-audit", Payload: p, Stdout: &out, Stderr: &errb, Gates: &fakeRunner{}, Repo: r})
				return out.String()
			}
			call(PreToolUse, "git status")
			fr.tips = append(fr.tips, Tip{"refs/heads/red", "c2bbbb"})
			if out := call(PostToolUse, "make the red branch"); !strings.Contains(out, "Commit c2bb") {
				t.Fatalf("the red commit was not named when made: %q", out)
			}
			call(PreToolUse, c.command)
			fr.tips = fr.tips[:2]
			out := call(PostToolUse, c.command)
			if named := strings.Contains(out, "Commit c2bb"); named != c.want {
				t.Fatalf("after %q: named %v, want %v: %q", c.command, named, c.want, out)
			}
			if c.want && !strings.Contains(out, other+" does") {
				t.Fatalf("the words do not say where it went: %q", out)
			}
		})
	}
}
