package e2e

import (
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLandedJudgeReadsRemotesInProcess pins that commit-audit, judging a
// commit that landed in an adopted clone with a remote and its fetched
// refs, reads the remotes, the config, the refs and the objects in
// process rather than starting git (SPEC.md, commit-audit G and N: the
// landed row's cost), and that it judged: the red commit is named.
func TestLandedJudgeReadsRemotesInProcess(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "landed-remotes-in-process")
	withOrigin(p)
	for _, tc := range []struct {
		name, command string
		named         bool
	}{
		{"green", `printf 'More.\n' > docs/more.md && git add docs/more.md && git commit -q -n -m "docs: more"`, false},
		{"red", leakCmd + `git commit -q -n -m "docs: add notes"`, true},
	} {
		// Hidden from the guard, so only the judge after it can name it.
		command := `echo ` + base64.StdEncoding.EncodeToString([]byte(tc.command)) + ` | base64 -d | bash`
		in := map[string]any{"tool_input": map[string]any{"command": command, "description": "x"}}
		if why, ok := blocked(p.fire("PreToolUse", "Bash", in)); ok {
			t.Fatalf("%s: blocked before: %s", tc.name, why)
		}
		cmd := exec.Command("bash", "-c", command)
		cmd.Dir, cmd.Env = p.dir, p.env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", tc.name, err, out)
		}
		trace := filepath.Join(t.TempDir(), "trace")
		plain := p.env
		p.env = append(append([]string{}, plain...), "GIT_TRACE="+trace)
		post := reasons(t, p.fire("PostToolUse", "Bash", in))
		p.env = plain
		if got := strings.Contains(post, "Commit "+p.git("rev-parse", "--short", "HEAD")); got != tc.named {
			t.Fatalf("%s: named %v, want %v:\n%s", tc.name, got, tc.named, post)
		}
		data, err := os.ReadFile(trace)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if os.Getenv("GATES_SHOW_TRACE") != "" {
			t.Logf("%s: %s", tc.name, data)
		}
		var started []string
		for _, l := range strings.Split(string(data), "\n") {
			if strings.Contains(l, "built-in: git config") {
				t.Errorf("%s: the judge started git config: %s", tc.name, l)
			}
			if strings.Contains(l, "trace: built-in: git ") || strings.Contains(l, "trace: exec: ") {
				started = append(started, l)
			}
		}
		// The registration's stub asks git for the common dir once; the
		// judge itself reads refs, objects, remotes and config in
		// process. A red commit costs more: its short id, and its first
		// parent judged too (a finding the parent has is the parent's).
		limit := 1
		if tc.named {
			limit = 3
		}
		if len(started) > limit {
			t.Errorf("%s: %d git processes, want at most %d:\n%s", tc.name, len(started), limit, strings.Join(started, "\n"))
		}
	}
}
