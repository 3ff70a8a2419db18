package repo

import (
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/walk"
)

// object writes raw bytes as an object of type typ, checked by nothing
// (git hash-object --literally), and answers its id.
func (r *inprocRepo) object(typ string, body []byte) string {
	r.t.Helper()
	cmd := exec.Command("git", "hash-object", "-t", typ, "-w", "--literally", "--stdin")
	cmd.Dir, cmd.Env, cmd.Stdin = r.dir, cleanEnv(), strings.NewReader(string(body))
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("hash-object -t %s: %v", typ, err)
	}
	return strings.TrimSpace(string(out))
}

// treeBytes is a tree object's body of (mode, name, id) triples, in the
// order given.
func treeBytes(t *testing.T, ents ...string) []byte {
	t.Helper()
	var b []byte
	for i := 0; i+2 < len(ents); i += 3 {
		raw, err := hex.DecodeString(ents[i+2])
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, ents[i]+" "+ents[i+1]+"\x00"...)
		b = append(b, raw...)
	}
	return b
}

// commitTree commits tree with the parents given and message msg, kept
// as written (commit-tree does no cleanup), at the repository's date.
func (r *inprocRepo) commitTree(tree, msg string, parents ...string) string {
	r.t.Helper()
	args := []string{"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit-tree", tree}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	cmd := exec.Command("git", args...)
	d := fmt.Sprintf("@%d +0000", r.date)
	cmd.Dir, cmd.Stdin = r.dir, strings.NewReader(msg)
	cmd.Env = append(cleanEnv(), "GIT_COMMITTER_DATE="+d, "GIT_AUTHOR_DATE="+d)
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("commit-tree: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// A tree whose entries are out of git's order, or name one path twice, is
// left to git: git's diff-tree walks the entries as stored (for such a
// tree it reports a path added and deleted where a sorted read sees one
// modified), so no in-process answer would be git's.
func TestObjectsLeaveMisorderedTreeToGit(t *testing.T) {
	r := newInprocRepo(t)
	a := r.object("blob", []byte("a\n"))
	b := r.object("blob", []byte("b\n"))
	good := r.object("tree", treeBytes(t, "100644", "a", a, "100644", "b", a))
	o := r.objects()
	if ents, err := o.tree(good); err != nil || len(ents) != 2 {
		t.Fatalf("a tree in order: %v %v", ents, err)
	}
	for _, c := range []struct{ name, tree string }{
		{"out of order", r.object("tree", treeBytes(t, "100644", "b", a, "100644", "a", a))},
		{"one name twice", r.object("tree", treeBytes(t, "100644", "a", a, "100644", "a", b))},
		// "d" the tree sorts as "d/", after "d.txt".
		{"a tree before a name it sorts after", r.object("tree", treeBytes(t, "40000", "d", good, "100644", "d.txt", a))},
	} {
		if _, err := o.tree(c.tree); err == nil {
			t.Errorf("%s: read in process", c.name)
		}
		base := r.commitTree(good, "base\n")
		rev := r.commitTree(c.tree, "rev\n", base)
		if ch, ok := o.Changes(base, rev); ok {
			t.Errorf("%s: changes answered in process: %v (git: %q)", c.name, ch,
				r.git("diff-tree", "-r", "--raw", "--no-renames", base, rev))
		}
	}
	in := r.object("tree", treeBytes(t, "100644", "d.txt", a, "40000", "d", good))
	if _, err := o.tree(in); err != nil {
		t.Errorf("a tree sorted after a name with '.' : %v", err)
	}
}

// A tree record with an empty name, or an id cut short, is refused, not
// read past its end.
func TestObjectsRefuseMalformedTree(t *testing.T) {
	r := newInprocRepo(t)
	a := r.object("blob", []byte("a\n"))
	o := r.objects()
	whole := treeBytes(t, "100644", "a", a)
	for _, c := range []struct {
		name string
		body []byte
	}{
		{"empty name", treeBytes(t, "100644", "", a)},
		{"id one byte short", whole[:len(whole)-1]},
		{"id half there", whole[:len(whole)-10]},
		{"no name end", []byte("100644 a")},
		{"no mode end", []byte("100644")},
	} {
		if ents, err := o.tree(r.object("tree", c.body)); err == nil {
			t.Errorf("%s: read as %v", c.name, ents)
		}
	}
	ents, err := o.tree(r.object("tree", whole))
	if err != nil || len(ents) != 1 || ents[0] != (treeEntry{name: "a", mode: ModeRegular, id: a}) {
		t.Errorf("a one-entry tree read as %v, %v", ents, err)
	}
}

// A partial clone's pack marked .promisor is left to git even when the
// config names no promisor (an object it lacks is fetched, not missing).
func TestObjectsLeavePromisorPackToGit(t *testing.T) {
	r := newInprocRepo(t)
	r.write("a.txt", "a\n", 0o644)
	r.commit(0, "one")
	gd := walk.NormalizeAbs(filepath.Join(r.dir, ".git"))
	pack := filepath.Join(gd, "objects/pack")
	if err := os.MkdirAll(pack, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pack, "pack-x.keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := OpenObjects(gd, gd, cleanEnv()); !ok {
		t.Fatal("a pack directory without a promisor mark: left to git")
	}
	if err := os.WriteFile(filepath.Join(pack, "pack-x.promisor"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := OpenObjects(gd, gd, cleanEnv()); ok {
		t.Error("a pack marked .promisor: read in process")
	}
}

// Every letter, digit and mark a ref name may hold is read as plain, the
// ends of each range too; a character beside a range is not.
func TestPlainRefNameRanges(t *testing.T) {
	for _, n := range []string{"refs/heads/az", "refs/heads/AZ", "refs/tags/09", "refs/heads/a-b_c.d/x", "refs/m"} {
		if !plainRefName(n) {
			t.Errorf("%q: not plain", n)
		}
	}
	for _, n := range []string{"refs/heads/a`", "refs/heads/a{", "refs/heads/A@", "refs/heads/A[", "refs/heads/0:", "refs/heads/a b",
		"refs/heads/.x", "refs/heads/x.lock", "refs/heads//x", "heads/x", "refs/heads/x/"} {
		if plainRefName(n) {
			t.Errorf("%q: plain", n)
		}
	}
}

// A symbolic ref is followed as far as git follows it (a chain of four
// links beyond the ref itself); a longer chain, which show-ref leaves out
// of its listing, and a cycle are left to git.
func TestObjectsSymbolicRefDepth(t *testing.T) {
	r := newInprocRepo(t)
	r.write("a.txt", "a\n", 0o644)
	r.commit(0, "one")
	gd := walk.NormalizeAbs(filepath.Join(r.dir, ".git"))
	put := func(name, content string) {
		p := filepath.Join(gd, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("refs/s/5", strings.TrimSpace(r.git("rev-parse", "HEAD")))
	for i := 4; i >= 1; i-- {
		put(fmt.Sprintf("refs/s/%d", i), fmt.Sprintf("ref: refs/s/%d", i+1))
	}
	tips, ok := r.objects().Tips()
	if !ok {
		t.Fatal("a chain of four links: left to git")
	}
	var got []string
	for _, tp := range tips {
		got = append(got, tp.ID+" "+tp.Ref)
	}
	if want := strings.Split(strings.TrimSpace(r.git("show-ref", "--head")), "\n"); !slices.Equal(got, want) {
		t.Errorf("a chain of four links\n got %q\nwant %q", got, want)
	}
	put("refs/s/0", "ref: refs/s/1")
	if strings.Contains(r.git("show-ref"), "refs/s/0") {
		t.Fatal("git lists a chain of five links: the test's premise is gone")
	}
	if tips, ok := r.objects().Tips(); ok {
		t.Errorf("a chain of five links, which git leaves out: listed in process as %v", tips)
	}
	os.Remove(filepath.Join(gd, "refs/s/0"))
	put("refs/c/a", "ref: refs/c/b")
	put("refs/c/b", "ref: refs/c/a")
	if tips, ok := r.objects().Tips(); ok {
		t.Errorf("a cycle: listed in process as %v", tips)
	}
}

// The subject is git's %s for messages commit-tree keeps as written:
// leading blank lines, blanks alone, no final newline, an empty message.
func TestObjectsSubjectAsGit(t *testing.T) {
	r := newInprocRepo(t)
	tree := strings.TrimSpace(r.git("mktree"))
	o := r.objects()
	for _, msg := range []string{
		"  \n\t\n\nfix: a subject\nover two lines  \n\nand a body\n",
		"abc",
		"   ",
		"",
		"a\n \nb",
		"\n\nafter two blank lines",
		"one\ntwo",
	} {
		id := r.commitTree(tree, msg)
		m, ok := o.Meta(id)
		if !ok {
			t.Fatalf("%q: left to git", msg)
		}
		want := strings.TrimSuffix(r.git("log", "-1", "--format=%s", id), "\n")
		if m.Subject != want || m.Message != msg {
			t.Errorf("%q: subject %q message %q, git's subject %q", msg, m.Subject, m.Message, want)
		}
	}
	for msg, want := range map[string]string{"   ": "", " \n \n": "", "x\n": "x", " \n x \ny": " x y"} {
		if got := subjectOf(msg); got != want {
			t.Errorf("subjectOf(%q) = %q, want %q", msg, got, want)
		}
	}
}

// A commit's date is its committer's, not its author's: the listing's
// order and its --max-age cut follow it.
func TestObjectsReadCommitterDate(t *testing.T) {
	r := newInprocRepo(t)
	tree := strings.TrimSpace(r.git("mktree"))
	mk := func(author, committer int, msg string, parents ...string) string {
		args := []string{"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit-tree", tree}
		for _, p := range parents {
			args = append(args, "-p", p)
		}
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Stdin = r.dir, strings.NewReader(msg)
		cmd.Env = append(cleanEnv(), fmt.Sprintf("GIT_AUTHOR_DATE=@%d +0000", author), fmt.Sprintf("GIT_COMMITTER_DATE=@%d +0000", committer))
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	root := mk(1700000000, 1700000000, "root")
	a := mk(1700000100, 1700000010, "authored late", root)
	b := mk(1700000001, 1700000050, "committed late", root)
	o := r.objects()
	for id, want := range map[string]int64{a: 1700000010, b: 1700000050} {
		c, err := o.commit(id)
		if err != nil || c.date != want {
			t.Errorf("%s: date %v (%v), want the committer's %d", id, c, err, want)
		}
	}
	for _, since := range []int64{0, 1700000020, 1700000060} {
		r.assertList([]string{a, b}, []string{root}, since, "author and committer dates apart")
	}
}
