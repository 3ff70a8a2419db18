package e2e

// Issue 42 item 15: what git does not hook. A cherry-pick (or a rebase,
// an am, a --no-verify commit, a fast-forward) lands a commit no
// pre-commit judged; the hooks git does run afterwards name it, doctor
// and the battery name it, and a whole green battery settles it.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnjudgedCommitsAreNamed(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	for _, h := range []string{"post-commit", "post-rewrite", "post-merge", "post-applypatch"} {
		if _, err := os.Stat(filepath.Join(c.dir, ".git/gate-hooks", h)); err != nil {
			t.Fatalf("--install-hooks placed no %s: %v", h, err)
		}
	}
	// A judged commit is not named.
	write(t, filepath.Join(c.dir, "doc.md"), "clean, edited\n", 0o644)
	c.git("add", "doc.md")
	if r := c.commit("judged"); r.code != 0 || strings.Contains(r.stderr, "no pre-commit judgement") {
		t.Fatalf("a judged commit: exit %d stderr %q; want it passed and not named", r.code, r.stderr)
	}
	// A leak lands on a side branch past the hook, then is cherry-picked.
	c.git("checkout", "-q", "-b", "side")
	write(t, filepath.Join(c.dir, "leak.md"), leak+"\n", 0o644)
	c.git("add", "leak.md")
	c.git("commit", "-q", "--no-verify", "-m", "past the hook")
	c.git("checkout", "-q", "-")
	write(t, filepath.Join(c.dir, "more.md"), "more\n", 0o644)
	c.git("add", "more.md")
	if r := c.commit("judged too"); r.code != 0 {
		t.Fatalf("a judged commit: exit %d %q", r.code, r.stdout+r.stderr)
	}
	r := run(t, c.dir, c.env, "git", "cherry-pick", "side")
	if r.code != 0 {
		t.Fatalf("cherry-pick: exit %d %q", r.code, r.stdout+r.stderr)
	}
	picked := strings.TrimSpace(c.git("rev-parse", "HEAD").stdout)
	if !strings.Contains(r.stderr, "post-commit: "+picked[:12]+" reached the branch with no pre-commit judgement") {
		rec, _ := os.ReadFile(filepath.Join(c.dir, ".git/gates-unjudged"))
		t.Fatalf("the cherry-pick landed a leak with no word: stdout %q stderr %q record %q", r.stdout, r.stderr, rec)
	}
	// doctor names it.
	d := c.gates("doctor")
	if d.code != 1 || !strings.Contains(d.stdout, picked[:12]) {
		t.Fatalf("doctor after the cherry-pick: exit %d %q; want the picked commit named", d.code, d.stdout+d.stderr)
	}
	// A red battery names it and settles nothing.
	b := c.gates("--run")
	if b.code != 1 || !strings.Contains(b.stdout, picked[:12]) {
		t.Fatalf("battery over the picked leak: exit %d %q; want red, naming the commit", b.code, b.stdout+b.stderr)
	}
	// The leak removed by a judged commit; the green battery names the
	// unjudged commits it judged and settles them.
	os.Remove(filepath.Join(c.dir, "leak.md"))
	c.git("add", "-A")
	if r := c.commit("remove the leak"); r.code != 0 {
		t.Fatalf("removal: exit %d %q", r.code, r.stdout+r.stderr)
	}
	// A partial battery, green, names it and settles nothing.
	b = c.gates("--run", "--only", "check-tree-terms")
	if b.code != 0 || !strings.Contains(b.stdout, picked[:12]) || strings.Contains(b.stdout, "judged now") {
		t.Fatalf("a green --only battery: exit %d %q; want the commit named, not settled", b.code, b.stdout+b.stderr)
	}
	b = c.gates("--run")
	if b.code != 0 || !strings.Contains(b.stdout, picked[:12]) || !strings.Contains(b.stdout, "judged now") {
		t.Fatalf("green battery: exit %d %q; want it to name the commit it now judged", b.code, b.stdout+b.stderr)
	}
	if d := c.gates("doctor"); strings.Contains(d.stdout, picked[:12]) {
		t.Fatalf("doctor after the green battery still names the commit: %q", d.stdout)
	}
	if b := c.gates("--run"); b.code != 0 || strings.Contains(b.stdout, picked[:12]) {
		t.Fatalf("a second green battery: exit %d %q; the record was settled", b.code, b.stdout)
	}
}

// A rebase's rewritten commits and a fast-forward merge are named too.
func TestUnjudgedRebaseAndMerge(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	c.git("checkout", "-q", "-b", "side")
	write(t, filepath.Join(c.dir, "side.md"), "side\n", 0o644)
	c.git("add", "side.md")
	c.git("commit", "-q", "--no-verify", "-m", "side")
	c.git("checkout", "-q", "-")
	write(t, filepath.Join(c.dir, "main.md"), "main\n", 0o644)
	c.git("add", "main.md")
	if r := c.commit("main"); r.code != 0 {
		t.Fatalf("main commit: %d %q", r.code, r.stderr)
	}
	c.git("checkout", "-q", "side")
	r := run(t, c.dir, c.env, "git", "rebase", "-q", "-")
	if r.code != 0 {
		t.Fatalf("rebase: %d %q", r.code, r.stdout+r.stderr)
	}
	rebased := strings.TrimSpace(c.git("rev-parse", "HEAD").stdout)
	if !strings.Contains(r.stderr, rebased[:12]+" reached the branch with no pre-commit judgement") {
		t.Fatalf("rebase landed an unjudged commit with no word: %q", r.stderr)
	}
	c.git("checkout", "-q", "-")
	r = run(t, c.dir, c.env, "git", "merge", "-q", "--ff-only", "side")
	if r.code != 0 {
		t.Fatalf("merge: %d %q", r.code, r.stdout+r.stderr)
	}
	// The fast-forward's tip was already named by the rebase: named once.
	if d := c.gates("doctor"); strings.Count(d.stdout, rebased[:12]) != 1 {
		t.Fatalf("doctor: %q; want the rebased commit named once", d.stdout)
	}
}

// git am runs only post-applypatch, and a rebase on the apply backend
// only post-rewrite: each names what it landed.
func TestUnjudgedAmAndApplyRebase(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	c.git("checkout", "-q", "-b", "side")
	write(t, filepath.Join(c.dir, "side.md"), "side\n", 0o644)
	c.git("add", "side.md")
	c.git("commit", "-q", "--no-verify", "-m", "side")
	patches := t.TempDir()
	c.git("format-patch", "-q", "-1", "-o", patches)
	c.git("checkout", "-q", "-")
	write(t, filepath.Join(c.dir, "main.md"), "main\n", 0o644)
	c.git("add", "main.md")
	if r := c.commit("main"); r.code != 0 {
		t.Fatalf("main commit: %d %q", r.code, r.stderr)
	}
	entries, _ := os.ReadDir(patches)
	if len(entries) != 1 {
		t.Fatalf("format-patch wrote %d files", len(entries))
	}
	r := run(t, c.dir, c.env, "git", "am", "-q", filepath.Join(patches, entries[0].Name()))
	applied := strings.TrimSpace(c.git("rev-parse", "HEAD").stdout)
	if r.code != 0 || !strings.Contains(r.stderr, "post-applypatch: "+applied[:12]+" reached the branch with no pre-commit judgement (applied by git am)") {
		t.Fatalf("git am: exit %d %q; want post-applypatch to name %s", r.code, r.stdout+r.stderr, applied[:12])
	}
	// The apply backend replays through am: named as it lands.
	c.git("checkout", "-q", "-b", "apply", "side")
	write(t, filepath.Join(c.dir, "apply.md"), "apply\n", 0o644)
	c.git("add", "apply.md")
	c.git("commit", "-q", "--no-verify", "-m", "apply")
	r = run(t, c.dir, c.env, "git", "rebase", "--apply", "-q", applied)
	rebased := strings.TrimSpace(c.git("rev-parse", "HEAD").stdout)
	if r.code != 0 || !strings.Contains(r.stderr, rebased[:12]+" reached the branch with no pre-commit judgement") {
		t.Fatalf("rebase --apply: exit %d %q; want %s named", r.code, r.stdout+r.stderr, rebased[:12])
	}
	// post-rewrite reads the rewritten pairs git hands it on stdin: a
	// commit made with no hook at all is named from that list.
	write(t, filepath.Join(c.dir, "quiet.md"), "quiet\n", 0o644)
	c.git("add", "quiet.md")
	c.git("-c", "core.hooksPath=/nonexistent", "commit", "-q", "-m", "no hook ran")
	quiet := strings.TrimSpace(c.git("rev-parse", "HEAD").stdout)
	cmd := exec.Command(filepath.Join(c.dir, "bin/gates"), "--git-hook", "post-rewrite", "amend")
	cmd.Dir, cmd.Env = c.dir, c.env
	cmd.Stdin = strings.NewReader(strings.Repeat("0", 40) + " " + quiet + "\n")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "post-rewrite: "+quiet[:12]+" reached the branch with no pre-commit judgement (rewritten by rebase or amend)") {
		t.Fatalf("post-rewrite over a rewritten commit: %v %q", err, out)
	}
	if d := c.gates("doctor"); !strings.Contains(d.stdout, quiet[:12]) || !strings.Contains(d.stdout, applied[:12]) {
		t.Fatalf("doctor: %q; want both commits named", d.stdout)
	}
}

// Hooks placed by an older binary lack the reporters: doctor says so.
func TestDoctorNamesAMissingReporter(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	if d := c.gates("doctor"); strings.Contains(d.stdout, "is not placed") {
		t.Fatalf("doctor over freshly placed hooks: %q", d.stdout)
	}
	os.Remove(filepath.Join(c.dir, ".git/gate-hooks/post-rewrite"))
	if d := c.gates("doctor"); d.code != 1 || !strings.Contains(d.stdout, "post-rewrite is not placed") {
		t.Fatalf("doctor with post-rewrite gone: exit %d %q; want it named", d.code, d.stdout+d.stderr)
	}
}
