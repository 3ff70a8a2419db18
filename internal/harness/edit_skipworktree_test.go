package harness

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// localRepo is a fakeRepo whose index holds the paths in local with
// skip-worktree, no sparse checkout on.
type localRepo struct {
	*fakeRepo
	local map[string]bool
	asked []string
}

func (r *localRepo) LocalOnly(rel string) bool {
	r.asked = append(r.asked, rel)
	return r.local[rel]
}

// assertion Q: an edit that reads red to a file kept local with
// skip-worktree is silent; the same edit to any other tracked file is
// told; a clean edit never asks the index. Decision (issue 41
// acceptance, branch work56): a machine path written into a config kept
// with `update-index --skip-worktree` was told to the model as a finding
// to fix, though no commit could take it.
func TestEditGatesLocalOnlyFileIsSilent(t *testing.T) {
	play := func(path string, red bool) (string, *localRepo) {
		t.Helper()
		r := &localRepo{fakeRepo: &fakeRepo{state: t.TempDir(), graph: map[string][]string{"h0000": nil}, red: map[string]bool{}},
			local: map[string]bool{"config/local.yml": true}}
		r.tips = []Tip{{"HEAD", "h0000"}, {"refs/heads/main", "h0000"}}
		runner := &fakeRunner{}
		if red {
			runner.For = &Result{Ran: 1, Red: []Red{{Name: "check-tree-terms", Code: 1, Output: path + ":1: a home path\nhelp: remove it"}}}
		}
		m, _ := Lookup("edit-gates")
		var stdout, errb bytes.Buffer
		in, _ := json.Marshal(map[string]any{"file_path": "/srv/dev/project/" + path})
		p := &Payload{SessionID: "s1", HookEventName: "PostToolUse", ToolName: "Write", Cwd: "/srv/dev/project", ToolInput: in}
		m.Run(&Call{Member: "edit-gates", Payload: p, Stdout: &stdout, Stderr: &errb, Gates: runner, Repo: r})
		return stdout.String(), r
	}
	if got, _ := play("config/local.yml", true); got != "" {
		t.Errorf("a skip-worktree file: said %q", got)
	}
	if got, _ := play("docs/guide.md", true); !strings.Contains(got, "docs/guide.md:1") {
		t.Errorf("a tracked file: said %q", got)
	}
	if _, r := play("config/local.yml", false); len(r.asked) != 0 {
		t.Errorf("a clean edit asked the index for %v", r.asked)
	}
}
