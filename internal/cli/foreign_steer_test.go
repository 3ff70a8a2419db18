package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// assertion C (commit-audit): a foreign tree judged after the fact is red
// when any default-branch candidate's configuration finds it red, so
// init.defaultBranch naming a line whose registry leaves the terms gate
// out does not clear a leak on a pages branch that main's registry
// refuses. Decision (issue 41 acceptance, branch spell57): with
// init.defaultBranch (or origin's HEAD) at such a line, a leak on a pages
// branch passed its hook and the judge alike.
func TestForeignTreeJudgedByEveryDefaultCandidate(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	l := newLandedRepo(t)
	l.git(l.dir, "switch", "-q", "-c", "legacy")
	l.write("scripts/gates.list", "check-commit-subject\ncheck-commit-msg\n")
	l.commit("chore: an older battery")
	l.git(l.dir, "switch", "-q", "main")
	l.git(l.dir, "config", "init.defaultBranch", "legacy")
	l.git(l.dir, "switch", "-q", "--orphan", "pages")
	l.write("index.html", "Keep notes in /ho"+"me/marta/notes.\n")
	l.git(l.dir, "add", "index.html")
	l.git(l.dir, "commit", "-q", "-m", "docs: start the site")
	id := l.git(l.dir, "rev-parse", "HEAD")

	s := newSession(IO{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Env: l.env(l.dir)})
	s.cwdOnce.Do(func() { s.cwd, s.cwdTop = l.dir, l.dir })
	r := newHookRepo(s, l.dir)
	msgFile := filepath.Join(l.root, "COMMIT_EDITMSG")
	if err := os.WriteFile(msgFile, []byte("docs: start the site\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hooks, _, err := r.judgeLanded(id, "", msgFile)
	if err != nil {
		t.Fatal(err)
	}
	var said strings.Builder
	red := false
	for _, h := range hooks {
		said.WriteString(h.out)
		red = red || h.code != 0
	}
	if !red || !strings.Contains(said.String(), "check-tree-terms") {
		t.Fatalf("the leak on the pages branch was judged clean with the legacy line's registry:\n%s", said.String())
	}
}
