package cli

import (
	"bytes"
	"os/exec"
	"testing"
)

// LocalOnly: a skip-worktree entry is the machine's own while no sparse
// checkout is on; with one on (git clears the bit of a file on disk and
// commits it) it is not, nor is a plain tracked file or an untracked one.
func TestHookRepoLocalOnly(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	l := newLandedRepo(t)
	l.write("config/local.yml", "root: .\n")
	l.write("docs/guide.md", "How.\n")
	l.git(l.dir, "add", "-A")
	l.commit("docs: a local config and a guide")
	l.git(l.dir, "update-index", "--skip-worktree", "config/local.yml")
	local := func() map[string]bool {
		s := newSession(IO{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Env: l.env(l.dir)})
		s.cwdOnce.Do(func() { s.cwd, s.cwdTop = l.dir, l.dir })
		r := newHookRepo(s, l.dir)
		out := map[string]bool{}
		for _, p := range []string{"config/local.yml", "docs/guide.md", "docs/new.md"} {
			out[p] = r.LocalOnly(p)
		}
		return out
	}
	if got := local(); !got["config/local.yml"] || got["docs/guide.md"] || got["docs/new.md"] {
		t.Fatalf("no sparse checkout: %v", got)
	}
	l.git(l.dir, "config", "core.sparseCheckout", "true")
	if got := local(); got["config/local.yml"] {
		t.Fatalf("a sparse checkout on: %v", got)
	}
}
