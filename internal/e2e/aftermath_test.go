package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Messages written for after the fact: a refused subject names the commit
// and offers the rewrite that fits where it stands (--amend for HEAD, a
// rebase's reword step below it), never "No commit was made" and never
// the scratch file the message was judged from; a root commit is offered
// a remedy that runs.
func TestAgentAftermathSubjectRemedies(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "aftermath subject")
	p.bashQuiet("git status --short")
	_, b, post := p.bash(`printf 'x\n' > docs/x.md && git add docs/x.md && echo 'git commit -q -n -m "merged stuff"' | sh`)
	id := p.git("rev-parse", "--short", "HEAD")
	if b || !strings.Contains(post, "Commit "+id) || !strings.Contains(post, "check-commit-subject") {
		t.Fatalf("the red subject was not named: blocked %v\n%s", b, post)
	}
	for _, bad := range []string{"No commit was made", "no commit was made", "COMMIT_EDITMSG", "gates-audit-", "Do not use `git commit --amend`", "Add `--amend` only if", "reset --soft"} {
		if strings.Contains(post, bad) {
			t.Errorf("the after-the-fact reason says %q:\n%s", bad, post)
		}
	}
	t.Logf("after the command:\n%s", post)
	if !strings.Contains(post, "git commit --amend") {
		t.Errorf("HEAD's subject is not offered --amend:\n%s", post)
	}
	// A clean commit on top: the red one is no longer HEAD, and the Stop
	// names it with the rebase step that rewords it.
	p.bashQuiet(`git commit -q --allow-empty -m "docs: a later note"`)
	stop := p.stop(false)
	t.Logf("at Stop:\n%s", stop)
	for _, want := range []string{"Commit " + id, "git rebase -i --autostash --rebase-merges " + id + "^", "edit " + id} {
		if !strings.Contains(stop, want) {
			t.Errorf("the Stop reason lacks %q:\n%s", want, stop)
		}
	}
	// The amend inside the offered rebase is the rebase's own step; HEAD's
	// remedy is an amend offered on its own.
	if strings.Contains(stop, "No commit was made") || strings.Contains(stop, "it is HEAD, so") {
		t.Errorf("the Stop offers HEAD's remedy for a commit below HEAD:\n%s", stop)
	}
	// The offered rebase runs as written, with a message the gates pass.
	_, cmd, ok := strings.Cut(stop, "without an editor: `")
	cmd, _, ok2 := strings.Cut(cmd, "`")
	if !ok || !ok2 {
		t.Fatalf("no command to run in:\n%s", stop)
	}
	cmd = strings.ReplaceAll(cmd, "<a message these gates pass>", "docs: add x")
	if r := run(t, p.dir, p.env, "bash", "-c", cmd+" </dev/null"); r.code != 0 {
		t.Fatalf("the offered remedy failed: %s\n%s%s", cmd, r.stdout, r.stderr)
	}
	if got := p.git("log", "-3", "--format=%s"); got != "docs: a later note\ndocs: add x\nchore: vendor gate-sdk" {
		t.Fatalf("after the remedy the subjects are %q", got)
	}
}

func TestAgentAftermathRootCommitRemedyRuns(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "aftermath root")
	p.bashQuiet("git status --short")
	_, b, post := p.bash(`git checkout -q --orphan fresh && printf '` + strings.TrimSuffix(leakLine, "\n") + `\n' > docs/leak.md && git add docs/leak.md && echo 'git commit -q -n -m "docs: fresh start"' | sh`)
	id := p.git("rev-parse", "--short", "HEAD")
	if b || !strings.Contains(post, "Commit "+id) {
		t.Fatalf("the red root commit was not named: blocked %v\n%s", b, post)
	}
	if strings.Contains(post, id+"^") || strings.Contains(post, "<id>^") {
		t.Fatalf("a root commit is offered a remedy naming its parent:\n%s", post)
	}
	t.Logf("after the root commit:\n%s", post)
	if !strings.Contains(post, "git update-ref -d HEAD") {
		t.Fatalf("no runnable remedy for the root commit:\n%s", post)
	}
	if r := run(t, p.dir, p.env, "git", "update-ref", "-d", "HEAD"); r.code != 0 {
		t.Fatalf("the remedy does not run: %d %s", r.code, r.stderr)
	}
	if st := p.git("status", "--porcelain"); !strings.Contains(st, "A  docs/leak.md") {
		t.Fatalf("the remedy did not keep the change staged: %q", st)
	}
}

// A red commit already on a remote-tracking ref (pushed in the same
// command) is never offered a rewrite.
func TestAgentAftermathPublishedIsNotRewritten(t *testing.T) {
	t.Parallel()
	p, _ := upstreamClone(t, "aftermath published")
	_, b, post := p.bash(`printf '` + strings.TrimSuffix(leakLine, "\n") + `\n' > docs/leak.md && git add docs/leak.md && echo 'git commit -q -n -m "docs: notes"' | sh && git push -q origin main`)
	id := p.git("rev-parse", "--short", "HEAD")
	if b || !strings.Contains(post, "Commit "+id) {
		t.Fatalf("the pushed red commit was not named: blocked %v\n%s", b, post)
	}
	for _, bad := range []string{"reset --soft", "--amend", "rebase -i", "update-ref -d"} {
		if strings.Contains(post, bad) {
			t.Errorf("a published commit is offered a rewrite (%s):\n%s", bad, post)
		}
	}
	if !strings.Contains(post, "new commit") {
		t.Errorf("no forward fix offered:\n%s", post)
	}
}

// edit-gates judges the index as the work tree holds it plus the edited
// file, never a listing of the work tree: an untracked file the edit did
// not touch is the Stop's to judge, the edited untracked file is judged
// at once.
func TestAgentEditGatesJudgesTheEdit(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "edit cost")
	if err := os.WriteFile(filepath.Join(p.dir, "docs/other.md"), []byte(leakLine), 0o644); err != nil {
		t.Fatal(err)
	}
	edit := func(rel string) string {
		return reasons(t, p.fire("PostToolUse", "Edit", map[string]any{"tool_input": map[string]any{"file_path": filepath.Join(p.dir, rel), "old_string": "a", "new_string": "b"}}))
	}
	if r := edit("docs/guide.md"); r != "" {
		t.Fatalf("an edit of a clean tracked file was judged with an untracked file it did not touch:\n%s", r)
	}
	if err := os.WriteFile(filepath.Join(p.dir, "docs/new.md"), []byte(leakLine), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := edit("docs/new.md"); !strings.Contains(r, "docs/new.md") || strings.Contains(r, "docs/other.md") {
		t.Fatalf("the edited untracked file:\n%s", r)
	}
	if r := p.stop(false); !strings.Contains(r, "docs/other.md") || !strings.Contains(r, "docs/new.md") {
		t.Fatalf("the Stop does not judge the whole uncommitted change:\n%s", r)
	}
}

// A landed commit is judged with the clone's private pattern list (the
// gitignored msg-patterns.local.list), as the commit-msg hook would have.
func TestAgentLandedCommitReadsTheLocalList(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "local list")
	if err := os.WriteFile(filepath.Join(p.dir, "scripts/msg-patterns.local.list"), []byte("projectzeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(p.dir, ".git/info/exclude"), os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("/scripts/msg-patterns.local.list\n")
	f.Close()
	// The hook refuses it.
	if r := run(t, p.dir, p.env, "git", "commit", "-q", "--allow-empty", "-m", "docs: projectzeta notes"); r.code == 0 {
		t.Fatal("the commit-msg hook let the private term through")
	}
	p.bashQuiet("git status --short")
	_, _, post := p.bash(`echo 'git commit -n -q --allow-empty -m "docs: projectzeta notes"' | sh`)
	id := p.git("rev-parse", "--short", "HEAD")
	if !strings.Contains(post, "Commit "+id) || !strings.Contains(post, "check-commit-msg") {
		t.Fatalf("the landed commit was judged without the private list:\n%s", post)
	}
}
