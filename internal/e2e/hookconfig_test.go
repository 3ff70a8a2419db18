package e2e

// Issue 42 item 5: the pre-commit hook reads every rule input a compiled
// member opens by path (a pattern list, the root allowlist) as the commit
// records it, so an unstaged edit of the list cannot change the verdict
// on a staged change.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An unstaged narrowing of the pattern list does not let a staged leak in.
func TestPreCommitPatternListFromIndex(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	write(t, filepath.Join(c.dir, "doc.md"), "clean\n"+leak+"\n", 0o644)
	c.git("add", "doc.md")
	// The committed list bans the word; the work-tree copy bans another.
	write(t, filepath.Join(c.dir, "scripts/msg-patterns.list"), "SOMETHINGELSE-91c2\n", 0o644)
	r := c.commit("leak under a narrowed work-tree list")
	if r.code != 1 || !strings.Contains(r.stdout+r.stderr, "doc.md:2:") {
		t.Fatalf("staged leak with an unstaged narrowing of the list: exit %d output %q; want the hook to refuse it at doc.md:2", r.code, r.stdout+r.stderr)
	}
	if c.commits() != "1" {
		t.Fatal("the staged leak was committed")
	}
	// The reverse: a staged widening is the list the commit is judged by,
	// though the work tree still holds the narrow one.
	write(t, filepath.Join(c.dir, "scripts/msg-patterns.list"), "OTHERWORD-55d0\n", 0o644)
	c.git("add", "scripts/msg-patterns.list")
	write(t, filepath.Join(c.dir, "scripts/msg-patterns.list"), leak+"\n", 0o644)
	if r := c.commit("list staged without the word"); r.code != 0 {
		t.Fatalf("the staged list does not ban the word: exit %d output %q; want the commit to pass", r.code, r.stdout+r.stderr)
	}
}

// An unstaged widening of the root allowlist does not let a staged
// top-level entry in.
func TestPreCommitRootAllowlistFromIndex(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	c.declareShipped("check-root-tiering")
	c.registry("check-root-tiering")
	write(t, filepath.Join(c.dir, ".gitignore"), "/bin/\n/.tmp/\n", 0o644)
	write(t, filepath.Join(c.dir, "scripts/root-allowlist.list"), "scripts\ngate-sdk\n.gitignore\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "seed")
	c.install()
	write(t, filepath.Join(c.dir, "stray.txt"), "x\n", 0o644)
	c.git("add", "stray.txt")
	write(t, filepath.Join(c.dir, "scripts/root-allowlist.list"), "scripts\ngate-sdk\n.gitignore\nstray.txt\n", 0o644)
	r := c.commit("stray entry under a widened work-tree allowlist")
	if r.code != 1 || !strings.Contains(r.stdout+r.stderr, "stray.txt") || !strings.Contains(r.stdout+r.stderr, "check-root-tiering failed") {
		t.Fatalf("staged top-level entry with an unstaged widening of the allowlist: exit %d output %q; want the hook to refuse it", r.code, r.stdout+r.stderr)
	}
	if c.commits() != "1" {
		t.Fatal("the stray entry was committed")
	}
	c.git("add", "scripts/root-allowlist.list")
	if r := c.commit("allowlisted"); r.code != 0 {
		t.Fatalf("the staged allowlist names the entry: exit %d output %q", r.code, r.stdout+r.stderr)
	}
}

// The commit-msg hook judges the message by the pattern list the commit
// records, not by an unstaged narrowing of it.
func TestCommitMsgPatternListFromIndex(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	c.declareShipped("check-commit-msg")
	write(t, filepath.Join(c.dir, "scripts/msg-patterns.list"), leak+"\n", 0o644)
	c.registry("check-commit-msg")
	write(t, filepath.Join(c.dir, ".gitignore"), "/bin/\n/.tmp/\n", 0o644)
	write(t, filepath.Join(c.dir, "doc.md"), "clean\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "seed")
	c.install()
	write(t, filepath.Join(c.dir, "doc.md"), "clean, edited\n", 0o644)
	c.git("add", "doc.md")
	write(t, filepath.Join(c.dir, "scripts/msg-patterns.list"), "SOMETHINGELSE-91c2\n", 0o644)
	r := c.commit("mention " + leak)
	if r.code != 1 || !strings.Contains(r.stdout+r.stderr, "check-commit-msg failed") {
		t.Fatalf("leaking message with an unstaged narrowing of the list: exit %d output %q; want commit-msg to refuse it", r.code, r.stdout+r.stderr)
	}
	if c.commits() != "1" {
		t.Fatal("the leaking message was committed")
	}
}

// Issue 42 item 7: a staged git-lfs pointer is not a judged file; the
// hook's clean line and the battery's say how many pointers were left.
func TestLFSPointersNamedNotJudged(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	pointer := "version https://git-lfs.github.com/spec/v1\noid sha256:" + strings.Repeat("4", 64) + "\nsize 12345\n"
	write(t, filepath.Join(c.dir, "movie.mp4"), pointer, 0o644)
	c.git("add", "movie.mp4")
	r := c.commit("add a pointer")
	if r.code != 0 || !strings.Contains(r.stdout+r.stderr, "pre-commit: 1 gate(s) passed; 1 git-lfs pointer(s) not judged (check-tree-terms 1)") {
		t.Fatalf("commit of a git-lfs pointer: exit %d output %q; want the clean line to name the pointer it did not judge", r.code, r.stdout+r.stderr)
	}
	b := c.gates("check-tree-terms")
	if b.code != 0 || !strings.Contains(b.stdout, "1 git-lfs pointers not judged") {
		t.Fatalf("check-tree-terms over a pointer: exit %d %q", b.code, b.stdout+b.stderr)
	}
}

// A pattern list the index records as a link is followed through the
// index: an unstaged narrowing of the file it points at changes nothing.
func TestPreCommitLinkedPatternListFromIndex(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	write(t, filepath.Join(c.dir, "lists/banned.list"), leak+"\n", 0o644)
	os.Remove(filepath.Join(c.dir, "scripts/msg-patterns.list"))
	if err := os.Symlink("../lists/banned.list", filepath.Join(c.dir, "scripts/msg-patterns.list")); err != nil {
		t.Fatal(err)
	}
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "the list behind a link")
	write(t, filepath.Join(c.dir, "doc.md"), "clean\n"+leak+"\n", 0o644)
	c.git("add", "doc.md")
	write(t, filepath.Join(c.dir, "lists/banned.list"), "SOMETHINGELSE-91c2\n", 0o644)
	r := c.commit("leak under a narrowed linked list")
	if r.code != 1 || !strings.Contains(r.stdout+r.stderr, "doc.md:2:") {
		t.Fatalf("staged leak with the linked list narrowed in the work tree: exit %d output %q; want it refused", r.code, r.stdout+r.stderr)
	}
}
