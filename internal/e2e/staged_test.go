package e2e

// The pre-commit hook judges what the commit holds (issue 12, items 1-3):
// the index's bytes for compiled members, a refusal for a shell member
// that would read a partially staged path, type changes staged, an
// intent-to-add entry left out, a conflict judged by ours, a sparse
// checkout's off-disk files judged from their blobs. Each case drives a
// real `git commit` (or the arm, where git itself refuses first) in a
// scratch repository through the built binary.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const leak = "LEAKWORD-7f3a"

// termsConsumer is a consumer registering the compiled check-tree-terms
// with one banned pattern, seeded and with the hooks installed.
func termsConsumer(t *testing.T) *consumer {
	t.Helper()
	c := newConsumer(t)
	c.declareShipped("check-tree-terms")
	write(t, filepath.Join(c.dir, "scripts/msg-patterns.list"), leak+"\n", 0o644)
	c.registry("check-tree-terms")
	write(t, filepath.Join(c.dir, ".gitignore"), "/bin/\n/.tmp/\n", 0o644)
	write(t, filepath.Join(c.dir, "doc.md"), "clean\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "seed")
	c.install()
	return c
}

// declareShipped copies a shipped gate's descriptor into the consumer's
// gates dir.
func (c *consumer) declareShipped(name string) {
	c.t.Helper()
	decl, err := os.ReadFile(filepath.Join(modRoot(c.t), "kits/gate-sdk/checks", name+".gate"))
	if err != nil {
		c.t.Fatal(err)
	}
	write(c.t, filepath.Join(c.dir, "scripts", name+".gate"), string(decl), 0o644)
}

func modRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(filepath.Dir(wd))
}

func (c *consumer) commit(msg string) result {
	c.t.Helper()
	return run(c.t, c.dir, c.env, "git", "commit", "-q", "-m", msg)
}

func (c *consumer) commits() string {
	c.t.Helper()
	return strings.TrimSpace(c.git("rev-list", "--count", "HEAD").stdout)
}

// Item 1: a staged leak whose working copy was cleaned is refused.
func TestPreCommitJudgesTheIndex(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	write(t, filepath.Join(c.dir, "doc.md"), "clean\n"+leak+"\n", 0o644)
	c.git("add", "doc.md")
	write(t, filepath.Join(c.dir, "doc.md"), "clean\nfixed in the work tree only\n", 0o644)
	r := c.commit("stage a leak")
	if r.code != 1 || !strings.Contains(r.stdout+r.stderr, "doc.md:2:") || !strings.Contains(r.stdout+r.stderr, "pre-commit: check-tree-terms failed") {
		t.Fatalf("commit of a staged leak: exit %d output %q; want the hook to refuse it at doc.md:2", r.code, r.stdout+r.stderr)
	}
	if c.commits() != "1" {
		t.Fatal("the staged leak was committed")
	}
	// The unstaged work is where it was.
	if data, _ := os.ReadFile(filepath.Join(c.dir, "doc.md")); string(data) != "clean\nfixed in the work tree only\n" {
		t.Fatalf("the work tree changed: %q", data)
	}
	// The reverse mix: the leak only in the work tree commits the clean
	// staged bytes.
	c.git("add", "doc.md")
	write(t, filepath.Join(c.dir, "doc.md"), "clean\n"+leak+" unstaged\n", 0o644)
	if r := c.commit("clean staged"); r.code != 0 {
		t.Fatalf("clean staged content refused: exit %d %q", r.code, r.stdout+r.stderr)
	}
	// git commit -a and git commit <path> hand the hook a temporary index
	// (GIT_INDEX_FILE) holding the work tree's leak: it is judged.
	for _, args := range [][]string{{"commit", "-q", "-a", "-m", "all"}, {"commit", "-q", "-m", "only", "doc.md"}} {
		if r := run(t, c.dir, c.env, "git", args...); r.code != 1 || !strings.Contains(r.stdout+r.stderr, "doc.md:2:") {
			t.Fatalf("git %v over a work-tree leak: exit %d %q; want it refused", args, r.code, r.stdout+r.stderr)
		}
	}
	write(t, filepath.Join(c.dir, "doc.md"), "clean\n", 0o644)
	c.git("add", "doc.md")
	// A staged file deleted from the work tree is judged by its blob.
	write(t, filepath.Join(c.dir, "gone.md"), leak+"\n", 0o644)
	c.git("add", "gone.md")
	os.Remove(filepath.Join(c.dir, "gone.md"))
	if r := c.commit("staged then deleted"); r.code != 1 || !strings.Contains(r.stdout+r.stderr, "gone.md:1:") {
		t.Fatalf("staged leak deleted from the work tree: exit %d %q", r.code, r.stdout+r.stderr)
	}
}

// Item 1: a shell member would read the work tree; a partially staged
// path it reads refuses the commit, naming it, and loses nothing.
func TestPreCommitShellMemberPartialStaging(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	c.gate("check-md", precommit, `grep -n BAD doc.md && exit 1; exit 0`, 0)
	c.gate("check-yml", "couples=*.yml dir=one valve=none tier=precommit", "", 0)
	c.registry("check-md", "check-yml")
	write(t, filepath.Join(c.dir, ".gitignore"), "/bin/\n/.tmp/\n", 0o644)
	write(t, filepath.Join(c.dir, "doc.md"), "ok\n", 0o644)
	write(t, filepath.Join(c.dir, "other.md"), "ok\n", 0o644)
	write(t, filepath.Join(c.dir, "a.yml"), "a: 1\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "seed")
	c.install()
	write(t, filepath.Join(c.dir, "doc.md"), "BAD staged\n", 0o644)
	c.git("add", "doc.md")
	write(t, filepath.Join(c.dir, "doc.md"), "ok again\n", 0o644)
	r := c.commit("partial")
	out := r.stdout + r.stderr
	// git commit answers 1 for any hook failure; the arm's own 2 is below.
	if r.code == 0 || !strings.Contains(out, "check-md reads doc.md") || c.ran("check-md") {
		t.Fatalf("partially staged doc.md: exit %d output %q ran %v; want a refusal naming check-md and doc.md, nothing run", r.code, out, c.ran("check-md"))
	}
	if c.commits() != "1" {
		t.Fatal("the commit landed")
	}
	if r := c.gates("--git-hook", "pre-commit"); r.code != 2 || !strings.Contains(r.stderr, "check-md reads doc.md") {
		t.Fatalf("the arm over the partial staging: exit %d stderr %q; want 2", r.code, r.stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(c.dir, "doc.md")); string(data) != "ok again\n" {
		t.Fatalf("the unstaged change was lost: %q", data)
	}
	// A partial edit the member does not read is no obstacle.
	c.git("add", "doc.md")
	write(t, filepath.Join(c.dir, "a.yml"), "a: 2\n", 0o644)
	if r := c.commit("whole"); r.code != 0 || !c.ran("check-md") {
		t.Fatalf("fully staged doc.md: exit %d %q", r.code, r.stdout+r.stderr)
	}
}

// Item 2: a symlink replaced by a file is staged content.
func TestPreCommitTypeChange(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	if err := os.Symlink("doc.md", filepath.Join(c.dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	c.git("add", "link.md")
	c.git("commit", "-q", "--no-verify", "-m", "link")
	os.Remove(filepath.Join(c.dir, "link.md"))
	write(t, filepath.Join(c.dir, "link.md"), leak+"\n", 0o644)
	c.git("add", "link.md")
	if st := c.git("diff", "--cached", "--name-status").stdout; !strings.HasPrefix(st, "T") {
		t.Fatalf("not a type change: %q", st)
	}
	r := c.commit("type change")
	if r.code != 1 || !strings.Contains(r.stdout+r.stderr, "link.md:1:") {
		t.Fatalf("a symlink replaced by a leaking file: exit %d output %q; want the hook to refuse it", r.code, r.stdout+r.stderr)
	}
}

// Item 3: an intent-to-add entry is not what the commit holds.
func TestPreCommitIntentToAdd(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	write(t, filepath.Join(c.dir, "draft.md"), leak+"\n", 0o644)
	c.git("add", "-N", "draft.md")
	write(t, filepath.Join(c.dir, "doc.md"), "clean, edited\n", 0o644)
	c.git("add", "doc.md")
	r := c.commit("edit doc")
	if r.code != 0 {
		t.Fatalf("commit leaving an intent-to-add draft out: exit %d output %q; the draft is not committed", r.code, r.stdout+r.stderr)
	}
	if strings.Contains(c.git("ls-tree", "-r", "--name-only", "HEAD").stdout, "draft.md") {
		t.Fatal("the intent-to-add entry was committed")
	}
}

// Item 3: a conflict is judged by ours, and one with no ours refuses.
func TestPreCommitConflict(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	c.git("checkout", "-q", "-b", "side")
	write(t, filepath.Join(c.dir, "doc.md"), "theirs "+leak+"\n", 0o644)
	write(t, filepath.Join(c.dir, "kept.md"), "theirs\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "side")
	c.git("checkout", "-q", "-")
	write(t, filepath.Join(c.dir, "doc.md"), "ours\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "ours")
	if r := run(t, c.dir, c.env, "git", "merge", "-q", "side"); r.code == 0 {
		t.Fatal("no conflict")
	}
	// The work tree holds the markers with theirs' leak; ours is clean.
	r := c.gates("--git-hook", "pre-commit")
	if r.code != 0 || strings.Contains(r.stdout, leak) {
		t.Fatalf("conflict judged: exit %d output %q; want ours (clean) judged", r.code, r.stdout+r.stderr)
	}
	c.git("merge", "--abort")
	// Deleted by us, changed by them: nothing of ours to judge.
	c.git("rm", "-q", "doc.md")
	c.git("commit", "-q", "--no-verify", "-m", "drop doc")
	if r := run(t, c.dir, c.env, "git", "merge", "-q", "side"); r.code == 0 {
		t.Fatal("no conflict")
	}
	r = c.gates("--git-hook", "pre-commit")
	if r.code != 2 || !strings.Contains(r.stderr, "doc.md") {
		t.Fatalf("deleted-by-us conflict: exit %d stdout %q stderr %q; want exit 2 naming doc.md", r.code, r.stdout, r.stderr)
	}
}

// Item 3: a sparse checkout's off-disk files are judged from their blobs.
func TestPreCommitSparse(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	write(t, filepath.Join(c.dir, "far/away.md"), leak+"\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "a committed leak, far away")
	c.git("sparse-checkout", "set", "--no-cone", "/*", "!/far/")
	if _, err := os.Stat(filepath.Join(c.dir, "far/away.md")); err == nil {
		t.Fatal("far/away.md is still checked out")
	}
	write(t, filepath.Join(c.dir, "doc.md"), "clean, edited\n", 0o644)
	c.git("add", "doc.md")
	r := c.commit("edit in a sparse checkout")
	if r.code != 1 || !strings.Contains(r.stdout+r.stderr, "far/away.md:1:") {
		t.Fatalf("sparse checkout: exit %d output %q; want far/away.md judged from its blob", r.code, r.stdout+r.stderr)
	}
}
