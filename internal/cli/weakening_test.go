package cli

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// assertion D (commit-audit): a commit that brings a registry of its own
// over no parent (an orphan root) drops what the lines it starts apart
// from register; one that keeps them, one that rewrites a commit of such
// a line (same author and date: a rebase --root), and one that records no
// registry (a foreign tree) are not named. Decision (issue 41 acceptance,
// branch spell57): an orphan root whose own registry left out
// check-tree-terms, with a leak in it, passed its hooks and the judge.
func TestWeakenedRedOfALineOfItsOwn(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	l := newLandedRepo(t)
	adopted := l.git(l.dir, "rev-parse", "HEAD")
	s := newSession(IO{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Env: l.env(l.dir)})
	s.cwdOnce.Do(func() { s.cwd, s.cwdTop = l.dir, l.dir })
	r := newHookRepo(s, l.dir)
	judge := func(id string) string {
		t.Helper()
		base := ""
		if ps := strings.Fields(l.git(l.dir, "log", "-1", "--format=%P", id)); len(ps) > 0 {
			base = ps[0]
		}
		red, err := r.weakenedRed(id, base, nil)
		if err != nil {
			t.Fatal(err)
		}
		if red == nil {
			return ""
		}
		return red.Output
	}

	l.git(l.dir, "checkout", "-q", "--orphan", "weak")
	l.write("scripts/gates.list", "check-commit-subject\ncheck-commit-msg\n")
	weak := l.commit("chore: start over")
	if got := judge(weak); !strings.Contains(got, "drops check-tree-terms, which main registers") {
		t.Errorf("an orphan root dropping check-tree-terms was not named:\n%s", got)
	}

	l.git(l.dir, "checkout", "-q", "--orphan", "same", "main")
	same := l.commit("chore: start over, all kept")
	if got := judge(same); got != "" {
		t.Errorf("an orphan root keeping the registry was named:\n%s", got)
	}

	l.git(l.dir, "checkout", "-q", "--orphan", "pages")
	l.git(l.dir, "rm", "-q", "-rf", "--cached", ".")
	l.git(l.dir, "clean", "-q", "-fdx", "-e", "scripts/msg-patterns.local.list")
	l.write("index.html", "Pages.\n")
	pages := l.commit("docs: start the pages")
	if got := judge(pages); got != "" {
		t.Errorf("a foreign tree was named:\n%s", got)
	}

	// The adoption commit rewritten with its author and date kept, on a
	// line that registers fewer members than main does now.
	l.git(l.dir, "checkout", "-q", "-f", "main")
	l.write("scripts/gates.list", "check-tree-terms\ncheck-action-pinning\ncheck-commit-subject\ncheck-commit-msg\ncheck-identity\n")
	l.commit("chore: one more gate")
	// rewrite makes a copy of commit c over parent p ("" none) with its
	// author and date kept and another message, as rebase --root does.
	rewrite := func(c, p, msg string) string {
		t.Helper()
		args := []string{"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit-tree", "-m", msg}
		if p != "" {
			args = append(args, "-p", p)
		}
		cmd := exec.Command("git", append(args, c+"^{tree}")...)
		cmd.Dir = l.dir
		cmd.Env = append(cmd.Environ(), "GIT_AUTHOR_DATE="+l.git(l.dir, "log", "-1", "--format=%aD", c), "GIT_CEILING_DIRECTORIES="+l.root)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	root := rewrite(adopted+"^", "", "docs: begin")
	rewritten := rewrite(adopted, root, "chore: vendor gate-sdk, reworded")
	if got := judge(rewritten); got != "" {
		t.Errorf("a rewrite of the adoption commit was named:\n%s", got)
	}
}

// assertion D (commit-audit): a commit whose tracked knob file adds a
// prune dir that names a directory of its tree is named; one naming a
// directory the tree does not hold (a build output kept untracked) is
// not. Decision (issue 41 acceptance, branch spell57):
// `GATE_SDK_PRUNE_EXTRA_DIRS = docs` in the knob file and a leak under
// docs/, one plain commit, passed its hooks and the judge.
func TestWeakenedRedOfAPruneDir(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	l := newLandedRepo(t)
	s := newSession(IO{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Env: l.env(l.dir)})
	s.cwdOnce.Do(func() { s.cwd, s.cwdTop = l.dir, l.dir })
	r := newHookRepo(s, l.dir)
	for _, c := range []struct {
		word string
		red  bool
	}{{"docs", true}, {"dist", false}} {
		base := l.git(l.dir, "rev-parse", "HEAD")
		l.write("scripts/gate-sdk-config.knobs", "GATE_SDK_KIT_DIRS = gate-sdk\nGATE_SDK_PRUNE_EXTRA_DIRS = "+c.word+"\n")
		id := l.commit("chore: prune " + c.word)
		red, err := r.weakenedRed(id, base, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := red != nil && strings.Contains(red.Output, "prunes "+c.word); got != c.red {
			t.Errorf("prune of %s: named %v, want %v (%+v)", c.word, got, c.red, red)
		}
		l.git(l.dir, "reset", "-q", "--hard", base)
	}
}
