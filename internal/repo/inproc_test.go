package repo

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/walk"
)

// inprocRepo is a scratch repository for the in-process readers' tests.
type inprocRepo struct {
	t    *testing.T
	dir  string
	date int
}

func newInprocRepo(t *testing.T) *inprocRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	r := &inprocRepo{t: t, dir: t.TempDir(), date: 1700000000}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *inprocRepo) git(args ...string) string {
	r.t.Helper()
	out, err := r.gitErr(args...)
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return out
}

func (r *inprocRepo) gitErr(args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "core.symlinks=true"}, args...)...)
	cmd.Dir = r.dir
	d := fmt.Sprintf("@%d +0000", r.date)
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(r.dir), "GIT_COMMITTER_DATE="+d, "GIT_AUTHOR_DATE="+d, "GIT_NO_REPLACE_OBJECTS=1")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (r *inprocRepo) write(rel, body string, mode os.FileMode) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	os.Remove(p)
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		r.t.Fatal(err)
	}
}

// commit commits everything at date step (seconds after the start; an
// equal step gives an equal committer date) and answers its id.
func (r *inprocRepo) commit(step int, msg string) string {
	r.t.Helper()
	r.date = 1700000000 + step
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "--no-verify", "-m", msg)
	return strings.TrimSpace(r.git("rev-parse", "HEAD"))
}

func (r *inprocRepo) objects() *Objects {
	r.t.Helper()
	gd := walk.NormalizeAbs(filepath.Join(r.dir, ".git"))
	o, ok := OpenObjects(gd, gd, cleanEnv())
	if !ok {
		r.t.Fatalf("the in-process reader refused a plain repository")
	}
	return o
}

// cleanEnv is this process's environment without the variables that
// point git elsewhere (a test run inside a hook may carry them).
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			out = append(out, kv)
		}
	}
	return out
}

// assertSame holds every in-process answer equal to git's for the
// repository as it stands: the ref listing, and for each commit its
// subject, parents and message, its changes against its first parent,
// and the listings of new commits between each pair of tips.
func (r *inprocRepo) assertSame(commits []string, shape string) {
	r.t.Helper()
	o := r.objects()
	tips, ok := o.Tips()
	if !ok {
		r.t.Fatalf("%s: the ref listing was left to git", shape)
	}
	var got []string
	for _, tp := range tips {
		got = append(got, tp.ID+" "+tp.Ref)
	}
	want := strings.Split(strings.TrimRight(r.git("show-ref", "--head"), "\n"), "\n")
	if !slices.Equal(got, want) {
		r.t.Errorf("%s: refs\n got %q\nwant %q", shape, got, want)
	}
	for _, id := range commits {
		m, ok := o.Meta(id)
		if !ok {
			r.t.Fatalf("%s: commit %s left to git", shape, id)
		}
		f := strings.SplitN(r.git("log", "-1", "--no-walk", "--format=format:%s%x00%P%x00%B", id), "\x00", 3)
		if m.Subject != f[0] || strings.Join(m.Parents, " ") != f[1] || m.Message != f[2] {
			r.t.Errorf("%s: commit %s read as %q %q %q, git says %q", shape, id, m.Subject, m.Parents, m.Message, f)
		}
		base := ""
		args := []string{"diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-abbrev", "--no-commit-id"}
		if len(m.Parents) > 0 {
			base = m.Parents[0]
			args = append(args, base, id)
		} else {
			args = append(args, "--root", id)
		}
		ch, ok := o.Changes(base, id)
		if !ok {
			r.t.Fatalf("%s: the changes of %s were left to git", shape, id)
		}
		recs, err := splitZ([]byte(r.git(args...)))
		if err != nil {
			r.t.Fatal(err)
		}
		wantCh, err := parseRawChanges(recs)
		if err != nil {
			r.t.Fatal(err)
		}
		if !slices.Equal(ch, wantCh) {
			r.t.Errorf("%s: changes of %s\n got %v\nwant %v", shape, id, ch, wantCh)
		}
	}
	for _, in := range commits {
		for _, ex := range commits {
			for _, since := range []int64{0, 1700000003} {
				r.assertList([]string{in}, []string{ex}, since, shape)
			}
		}
		r.assertList([]string{in, commits[0]}, []string{commits[len(commits)-1], commits[1]}, 0, shape)
	}
}

func (r *inprocRepo) assertList(include, exclude []string, since int64, shape string) {
	r.t.Helper()
	got, ok := r.objects().Commits(include, exclude, since)
	if !ok {
		r.t.Fatalf("%s: the listing %v ^%v was left to git", shape, include, exclude)
	}
	var in strings.Builder
	for _, id := range include {
		in.WriteString(id + "\n")
	}
	for _, id := range exclude {
		in.WriteString("^" + id + "\n")
	}
	args := []string{"rev-list", "--stdin"}
	if since != 0 {
		args = append(args, fmt.Sprintf("--max-age=%d", since))
	}
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env, cmd.Stdin = r.dir, cleanEnv(), strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatal(err)
	}
	want := strings.Fields(string(out))
	if !slices.Equal(got, want) {
		r.t.Errorf("%s: rev-list %v ^%v since %d\n got %v\nwant %v", shape, include, exclude, since, got, want)
	}
}

// assertion N (commit-audit): the refs, the commits, their changes and
// the listing of new commits read in process equal git's own answers for
// loose refs, packed refs, loose objects, a pack, a merge commit, a root
// commit, commits of one date and dates out of order.
func TestObjectsAnswerAsGit(t *testing.T) {
	r := newInprocRepo(t)
	r.write("a.txt", "a\n", 0o644)
	r.write("d/b.txt", "b\n", 0o644)
	r.write("d/gone.txt", "gone\n", 0o644)
	r.write("run.sh", "echo\n", 0o755)
	r.write("x", "a file that becomes a directory\n", 0o644)
	r.write("x-y", "sorts between\n", 0o644)
	root := r.commit(0, "root: the first\n\nwith a body")
	r.write("d/b.txt", "b2\n", 0o644)
	os.Remove(filepath.Join(r.dir, "d/gone.txt"))
	os.Remove(filepath.Join(r.dir, "x"))
	r.write("x/inner.txt", "now a directory\n", 0o644)
	r.write("d.txt", "sorts between d and d/\n", 0o644)
	if err := os.Chmod(filepath.Join(r.dir, "run.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(r.dir, "a.txt"))
	if err := os.Symlink("d.txt", filepath.Join(r.dir, "a.txt")); err != nil {
		t.Fatal(err)
	}
	second := r.commit(1, "  \n\nfix: a subject\nover two lines  \n\nand a body\n")
	r.git("checkout", "-q", "-b", "side", root)
	r.write("side.txt", "side\n", 0o644)
	side1 := r.commit(5, "side one")
	r.write("side.txt", "side 2\n", 0o644)
	// One date for two commits, and one older than its parent.
	side2 := r.commit(5, "side two")
	r.write("side.txt", "side 3\n", 0o644)
	side3 := r.commit(2, "side three, dated before its parent")
	r.git("checkout", "-q", "main")
	r.date = 1700000004
	r.git("merge", "-q", "--no-ff", "--no-edit", "side")
	merge := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.write("after.txt", "after\n", 0o644)
	after := r.commit(6, "after the merge")
	r.git("tag", "-a", "-m", "a tag", "v1", second)
	r.git("tag", "light", side1)
	r.git("update-ref", "refs/remotes/origin/main", second)
	r.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	// Two branches of one date merged: the order among equals is git's.
	r.git("checkout", "-q", "-b", "p", after)
	r.write("p.txt", "p\n", 0o644)
	p1 := r.commit(8, "p one")
	r.write("p.txt", "p2\n", 0o644)
	r.commit(8, "p two")
	r.git("checkout", "-q", "-b", "q", after)
	r.write("q.txt", "q\n", 0o644)
	q1 := r.commit(8, "q one")
	r.write("q.txt", "q2\n", 0o644)
	r.commit(8, "q two")
	r.git("merge", "-q", "--no-ff", "--no-edit", "p")
	same := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.git("checkout", "-q", "main")
	r.assertList([]string{same}, []string{after}, 0, "one date")
	r.assertList([]string{p1, q1}, []string{root}, 0, "one date, two starts")
	r.assertList([]string{q1, p1}, []string{root}, 0, "one date, two starts")
	commits := []string{after, merge, side3, side2, side1, second, root}

	r.assertSame(commits, "loose refs, loose objects")
	r.git("pack-refs", "--all")
	r.write("loose-again.txt", "x\n", 0o644)
	again := r.commit(7, "a loose ref over a packed one")
	commits = append([]string{again}, commits...)
	r.assertSame(commits, "packed refs with a loose one over them")
	r.git("repack", "-adq")
	r.git("prune-packed")
	r.assertSame(commits, "a pack")
	r.git("checkout", "-q", "--detach", side2)
	r.assertSame(commits, "a detached HEAD")
	r.git("checkout", "-q", "--orphan", "unborn")
	r.assertSame(commits, "an unborn branch")
}

// assertion N (commit-audit): a shape a plain read cannot answer for is
// left to git, never answered empty: alternates, a shallow clone, grafts,
// replace refs, an extension (another ref store, a partial clone), a
// linked worktree's own refs, an environment pointing elsewhere; and a
// ref at an object the store lacks, a ref name git would refuse.
func TestObjectsLeaveOtherShapesToGit(t *testing.T) {
	r := newInprocRepo(t)
	r.write("a.txt", "a\n", 0o644)
	first := r.commit(0, "one")
	gd := walk.NormalizeAbs(filepath.Join(r.dir, ".git"))
	if _, ok := OpenObjects(gd, gd, cleanEnv()); !ok {
		t.Fatal("a plain repository was left to git")
	}
	for _, c := range []struct {
		name string
		make func() func()
	}{
		{"alternates", func() func() {
			p := filepath.Join(gd, "objects/info/alternates")
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte("/elsewhere/objects\n"), 0o644)
			return func() { os.Remove(p) }
		}},
		{"shallow", func() func() {
			p := filepath.Join(gd, "shallow")
			os.WriteFile(p, []byte(first+"\n"), 0o644)
			return func() { os.Remove(p) }
		}},
		{"grafts", func() func() {
			p := filepath.Join(gd, "info/grafts")
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte(first+"\n"), 0o644)
			return func() { os.Remove(p) }
		}},
		{"replace ref", func() func() {
			r.write("b.txt", "b\n", 0o644)
			second := r.commit(1, "two")
			r.git("replace", "--graft", second)
			return func() { r.git("replace", "-d", second) }
		}},
		{"reftable", func() func() {
			r.git("config", "extensions.refStorage", "reftable")
			return func() { r.git("config", "--unset", "extensions.refStorage") }
		}},
		{"partial clone", func() func() {
			r.git("config", "extensions.partialClone", "origin")
			return func() { r.git("config", "--unset", "extensions.partialClone") }
		}},
		{"an include that sets an extension", func() func() {
			os.WriteFile(filepath.Join(gd, "ext.cfg"), []byte("[extensions]\n\tpartialClone = origin\n"), 0o644)
			r.git("config", "include.path", "ext.cfg")
			return func() { r.git("config", "--unset", "include.path") }
		}},
		{"an include that names a promisor", func() func() {
			os.WriteFile(filepath.Join(gd, "prom.cfg"), []byte("[remote \"origin\"]\n\tpromisor = true\n"), 0o644)
			r.git("config", "includeIf.gitdir:/.path", "prom.cfg")
			return func() { r.git("config", "--unset", "includeIf.gitdir:/.path") }
		}},
	} {
		undo := c.make()
		if _, ok := OpenObjects(gd, gd, cleanEnv()); ok {
			t.Errorf("%s: read in process", c.name)
		}
		undo()
	}
	// An adopted clone's include (its file sets only linked worktrees'
	// hooks path) leaves the reads in process.
	os.WriteFile(filepath.Join(gd, "gate-hooks.worktree"), []byte("[core]\n\thooksPath = /x/.git/gate-hooks\n"), 0o644)
	r.git("config", "includeIf.gitdir:**/.git/worktrees/**.path", "gate-hooks.worktree")
	if _, ok := OpenObjects(gd, gd, cleanEnv()); !ok {
		t.Error("an adopted clone's include for linked worktrees sent the reads to git")
	}
	if _, ok := OpenObjects(gd, gd, append(cleanEnv(), "GIT_OBJECT_DIRECTORY=/elsewhere")); ok {
		t.Error("an environment pointing at other objects: read in process")
	}
	if _, ok := OpenObjects(filepath.Join(gd, "worktrees/w"), gd, cleanEnv()); ok {
		t.Error("a linked worktree: read in process")
	}
	o, ok := OpenObjects(gd, gd, cleanEnv())
	if !ok {
		t.Fatal("the repository was left to git once its shapes were undone")
	}
	if _, ok := o.Tips(); !ok {
		t.Fatal("plain refs were left to git")
	}
	missing := strings.Repeat("ab", 20)
	os.WriteFile(filepath.Join(gd, "refs/heads/broken"), []byte(missing+"\n"), 0o644)
	if _, ok := o.Tips(); ok {
		t.Error("a ref at a missing object: listed in process (show-ref refuses it)")
	}
	os.Remove(filepath.Join(gd, "refs/heads/broken"))
	os.WriteFile(filepath.Join(gd, "refs/heads/odd name"), []byte(first+"\n"), 0o644)
	if _, ok := o.Tips(); ok {
		t.Error("a ref name git refuses: listed in process")
	}
	os.Remove(filepath.Join(gd, "refs/heads/odd name"))
	if _, ok := o.Commits([]string{missing}, []string{first}, 0); ok {
		t.Error("a listing from a missing commit: answered in process")
	}
	if _, ok := o.Meta(missing); ok {
		t.Error("a missing commit: read in process")
	}
}
