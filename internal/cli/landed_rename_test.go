package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gate-sdk/gates/internal/githook"
)

// A landed commit is judged with the baseline's renames up to that
// commit, not up to where HEAD stands: a file with an accepted finding
// renamed by one commit and renamed back by the next (one command, one
// look after it) is green at both.
func TestLandedJudgeFollowsRenamesUpToTheCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	l := newLandedRepo(t)
	l.write(".github/workflows/ci.yml", "name: ci\non: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n")
	l.git(l.dir, "add", "-A")
	if code, out := l.gates(l.dir, "baseline"); code != 0 {
		t.Fatalf("gates baseline: exit %d\n%s", code, out)
	}
	accepted := l.commit("ci: a workflow, its tag pin accepted")
	l.git(l.dir, "mv", ".github/workflows/ci.yml", ".github/workflows/Ci.yml")
	moved := l.commit("ci: capitalise the workflow")
	l.git(l.dir, "mv", ".github/workflows/Ci.yml", ".github/workflows/ci.yml")
	back := l.commit("ci: lower the workflow again")

	s := newSession(IO{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Env: l.env(l.dir)})
	s.cwdOnce.Do(func() { s.cwd, s.cwdTop = l.dir, l.dir })
	r := newHookRepo(s, l.dir)
	msgFile := filepath.Join(l.root, "COMMIT_EDITMSG")
	if err := os.WriteFile(msgFile, []byte("ci: a message\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]string{{moved, accepted}, {back, moved}} {
		hooks, _, err := r.judgeLanded(c[0], c[1], msgFile)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hooks {
			if h.hook == githook.PreCommit && h.code != 0 {
				t.Errorf("commit %s, its accepted finding renamed, is red:\n%s", c[0][:7], h.out)
			}
		}
	}
}
