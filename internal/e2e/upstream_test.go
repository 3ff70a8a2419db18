package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Only what the agent made is the agent's: commits a colleague pushed
// during the session arrive by fetch and pass untouched, however many and
// however red; a red commit the agent builds on top of them is named.

// upstreamCommits appends n commits by a colleague to the bare repository
// up's main through git fast-import (cheap at any n). The first adds a
// file holding a leak, so every one of them is red for check-tree-terms
// over its tree; each later one changes another file only.
func upstreamCommits(t *testing.T, up string, env []string, n int) {
	t.Helper()
	var s bytes.Buffer
	now := time.Now().Unix()
	for i := 0; i < n; i++ {
		fmt.Fprintf(&s, "commit refs/heads/main\ncommitter Colleague <colleague@example.invalid> %d +0000\n", now)
		msg := fmt.Sprintf("docs: upstream change %d\n", i)
		fmt.Fprintf(&s, "data %d\n%s", len(msg), msg)
		if i == 0 {
			s.WriteString("from refs/heads/main^0\n")
			fmt.Fprintf(&s, "M 100644 inline docs/upstream-leak.md\ndata %d\n%s", len(leakLine), leakLine)
		}
		body := fmt.Sprintf("change %d\n", i)
		fmt.Fprintf(&s, "M 100644 inline docs/upstream.md\ndata %d\n%s\n", len(body), body)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = up, env, &s
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
}

// quiet fails the test when any answer of a harness event said anything.
func quiet(t *testing.T, what string, as []answer) {
	t.Helper()
	for _, a := range as {
		if a.code != 0 || strings.TrimSpace(a.stdout) != "" {
			t.Errorf("%s: %v exit %d, said %q %q", what, a.argv, a.code, a.stdout, a.errs)
		}
	}
}

// bashQuiet plays one Bash call and fails unless every hook kept silent.
func (p *player) bashQuiet(command string) {
	p.t.Helper()
	in := map[string]any{"tool_input": map[string]any{"command": command, "description": "x"}}
	quiet(p.t, "PreToolUse of "+command, p.fire("PreToolUse", "Bash", in))
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir, cmd.Env = p.dir, p.env
	if out, err := cmd.CombinedOutput(); err != nil {
		p.t.Fatalf("%s: %v\n%s", command, err, out)
	}
	quiet(p.t, "PostToolUse of "+command, p.fire("PostToolUse", "Bash", in))
}

func upstreamClone(t *testing.T, name string) (*player, string) {
	t.Helper()
	p := outcomeClone(t, name)
	up := filepath.Join(filepath.Dir(p.dir), "up.git")
	p.git("clone", "-q", "--bare", p.dir, up)
	p.git("remote", "add", "origin", up)
	p.git("fetch", "-q", "origin")
	p.git("branch", "-q", "--set-upstream-to=origin/main", "main")
	// The session begins.
	p.bashQuiet("git status --short")
	return p, up
}

func TestAgentUpstreamPullOf500IsNotTheAgents(t *testing.T) {
	t.Parallel()
	p, up := upstreamClone(t, "upstream pull")
	upstreamCommits(t, up, p.env, 500)
	p.bashQuiet("git pull -q --ff-only")
	if n, _ := strconv.Atoi(p.git("rev-list", "--count", "HEAD")); n < 502 {
		t.Fatalf("the pull left HEAD with %d commits", n)
	}
	if r := p.stop(false); r != "" {
		t.Fatalf("the Stop after an upstream pull gave a reason:\n%s", r)
	}
	// A red commit the agent builds on the fetched history is named.
	_, b, post := p.bash(`printf '` + strings.TrimSuffix(leakLine, "\n") + `\n' > docs/mine.md && git add docs/mine.md && echo 'git commit -q -n -m "docs: mine"' | sh`)
	id := p.git("rev-parse", "--short", "HEAD")
	if b || !strings.Contains(post, "Commit "+id) || strings.Count(post, "Commit ") != 1 {
		t.Fatalf("the agent's own red commit %s on fetched history: blocked %v, reason:\n%s", id, b, post)
	}
	// The status line counts the agent's commit only.
	if sl := p.statusline(); !strings.Contains(sl, "1 red commit this session") {
		t.Fatalf("status line: %q", sl)
	}
}

// Fetched in one command and merged in the next, or checked out as a
// branch: still a colleague's.
func TestAgentUpstreamFetchThenMergeIsNotTheAgents(t *testing.T) {
	t.Parallel()
	p, up := upstreamClone(t, "upstream fetch")
	upstreamCommits(t, up, p.env, 60)
	p.bashQuiet("git fetch -q origin")
	p.bashQuiet("git checkout -q -b look origin/main")
	p.bashQuiet("git checkout -q main && git merge -q --ff-only origin/main")
	if r := p.stop(false); r != "" {
		t.Fatalf("the Stop gave a reason:\n%s", r)
	}
}

// A clean commit of the agent's, then upstream work pulled with
// --rebase: the agent's rebased commit is judged (clean, so silent), the
// colleague's are not judged at all.
func TestAgentUpstreamPullRebase(t *testing.T) {
	t.Parallel()
	p, up := upstreamClone(t, "upstream rebase")
	p.bashQuiet(`printf 'mine\n' > docs/mine.md && git add docs/mine.md && git commit -q -m "docs: mine"`)
	upstreamCleanCommits(t, up, p.env, 30)
	p.bashQuiet("git pull -q --rebase")
	if got := p.git("log", "-1", "--format=%s"); got != "docs: mine" {
		t.Fatalf("HEAD after the rebase is %q", got)
	}
	if r := p.stop(false); r != "" {
		t.Fatalf("the Stop after pull --rebase gave a reason:\n%s", r)
	}
}

// upstreamCleanCommits is upstreamCommits with no leak: n clean commits.
func upstreamCleanCommits(t *testing.T, up string, env []string, n int) {
	t.Helper()
	var s bytes.Buffer
	now := time.Now().Unix()
	for i := 0; i < n; i++ {
		fmt.Fprintf(&s, "commit refs/heads/main\ncommitter Colleague <colleague@example.invalid> %d +0000\n", now)
		msg := fmt.Sprintf("docs: upstream change %d\n", i)
		fmt.Fprintf(&s, "data %d\n%s", len(msg), msg)
		if i == 0 {
			s.WriteString("from refs/heads/main^0\n")
		}
		body := fmt.Sprintf("change %d\n", i)
		fmt.Fprintf(&s, "M 100644 inline docs/upstream.md\ndata %d\n%s\n", len(body), body)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = up, env, &s
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
}

// statusline renders the status line for the player's session.
func (p *player) statusline() string {
	p.t.Helper()
	cmd := exec.Command(filepath.Join(p.dir, "bin/gates"), "--statusline")
	cmd.Dir, cmd.Env = p.dir, p.env
	cmd.Stdin = strings.NewReader(`{"session_id": "` + p.session + `"}`)
	out, err := cmd.Output()
	if err != nil {
		p.t.Fatalf("--statusline: %v", err)
	}
	return string(out)
}

// A commit in another repository is that repository's business: its
// message is not judged by this clone's gates, its bypass not blocked. The
// same message aimed at this clone (-C a directory of it) still is.
func TestAgentOtherRepositoryIsItsOwnBusiness(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "other repository")
	for _, cmd := range []string{
		`git init -q ../scratch && git -C ../scratch commit -q --allow-empty -m init`,
		`git -C ../scratch commit -q --allow-empty -n -m wip`,
		`mkdir -p ../s2 && cd ../s2 && git init -q && git commit -q --allow-empty -m init`,
	} {
		why, b, post := p.bash(cmd)
		if b || post != "" {
			t.Errorf("%s: blocked %v %s, reason %q", cmd, b, why, post)
		}
	}
	if n := run(t, filepath.Join(filepath.Dir(p.dir), "scratch"), p.env, "git", "rev-list", "--count", "HEAD").stdout; strings.TrimSpace(n) != "2" {
		t.Fatalf("the scratch repository holds %q commits", n)
	}
	for _, cmd := range []string{
		`git -C docs commit -q --allow-empty -m init`,
		`cd docs && git commit -q --allow-empty -m init`,
		`git -C ../scratch status && git commit -q --allow-empty -m init`,
	} {
		if why, b, _ := p.bash(cmd); !b || !strings.Contains(why, "check-commit-subject") {
			t.Errorf("%s aims at this clone and was not refused: %v %q", cmd, b, why)
		}
	}
}

// A husky project's `npm install` points core.hooksPath at husky's
// directory: the agent is told once, with a repair that keeps husky's
// hooks, and no command is blocked for it; a commit is still judged once
// it lands.
func TestAgentOtherHookManagerIsToldOnce(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "husky")
	p.bashQuiet("git status --short")
	for name, body := range map[string]string{
		".husky/_/h":          "#!/bin/sh\n[ -f \".husky/$(basename \"$0\")\" ] && sh \".husky/$(basename \"$0\")\" \"$@\"\nexit 0\n",
		".husky/_/pre-commit": "#!/bin/sh\n. \"$(dirname \"$0\")/h\"\n",
		".husky/_/commit-msg": "#!/bin/sh\n. \"$(dirname \"$0\")/h\"\n",
		".husky/pre-commit":   "echo husky ran\n",
	} {
		full := filepath.Join(p.dir, name)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// What husky's install does, by the user's hand (outside the agent).
	p.git("config", "core.hooksPath", ".husky/_")
	in := map[string]any{"tool_input": map[string]any{"command": "ls"}}
	first := p.fire("PreToolUse", "Bash", in)
	said := ""
	for _, a := range first {
		if a.code != 0 {
			t.Fatalf("blocked under another hook manager: %v %d %s", a.argv, a.code, a.errs)
		}
		said += a.stdout
	}
	if !strings.Contains(said, ".husky/_") || !strings.Contains(said, "--git-hook pre-commit") || !strings.Contains(said, "additionalContext") {
		t.Fatalf("no advise naming the other manager and the chain: %q", said)
	}
	quiet(t, "the second command", p.fire("PreToolUse", "Bash", in))
	quiet(t, "a third command", p.fire("PreToolUse", "Bash", map[string]any{"tool_input": map[string]any{"command": "git log -1"}}))
	// A red commit through husky's hooks still lands, and is named.
	_, b, post := p.bash(`printf '` + strings.TrimSuffix(leakLine, "\n") + `\n' > docs/leak.md && git add docs/leak.md && git commit -q -m "docs: add notes"`)
	id := p.git("rev-parse", "--short", "HEAD")
	if b || !strings.Contains(post, "Commit "+id) {
		t.Fatalf("a red commit under husky's hooks: blocked %v, reason %q", b, post)
	}
	// An emptied hooks path is no hook manager: still a block.
	p.git("config", "core.hooksPath", "/nonexistent")
	if _, b, _ := p.bash("ls"); !b {
		t.Fatal("a hooks path naming nothing did not block")
	}
}

// More new commits than the 50 a look is held to when it has no time to
// spare: with the hooks' time budget (commit-audit J) the 55 are all
// judged by the look after the command, so nothing is left to count, to
// tell or to show (the count cap itself is held by the harness tests,
// TestCommitAuditJudgesWhatTheCapLeftLater).
func TestAgentManyCommitsAreAllJudged(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "many commits")
	p.bashQuiet("git status --short")
	// 55 commits the agent lands at once, past the hooks.
	cmd := `{ for i in $(seq 1 55); do printf 'commit refs/heads/main\ncommitter t <t@example.invalid> %s +0000\ndata 13\ndocs: note %02d\n' "$(date +%s)" "$i"; [ "$i" = 1 ] && printf 'from %s\n' "$(git rev-parse HEAD)"; printf 'M 100644 inline docs/n.md\ndata 3\n%02d\n\n' "$i"; done; } | git fast-import --quiet && git reset -q --hard`
	_, b, post := p.bash(cmd)
	if b {
		t.Fatal("blocked")
	}
	if n := p.git("rev-list", "--count", "HEAD"); n != "57" {
		t.Fatalf("HEAD has %s commits", n)
	}
	if post != "" {
		t.Fatalf("55 green commits judged in one look gave a reason:\n%s", post)
	}
	if sl := p.statusline(); strings.Contains(sl, "not judged") {
		t.Fatalf("status line: %q", sl)
	}
	if r := p.stop(false); r != "" {
		t.Fatalf("the Stop after judging the rest (all green) gave a reason:\n%s", r)
	}
	if sl := p.statusline(); strings.Contains(sl, "not judged") {
		t.Fatalf("status line after the Stop: %q", sl)
	}
}

// A linked worktree of this repository is not another repository: its
// bypass is blocked, its red commit on a detached HEAD is named.
func TestAgentLinkedWorktreeIsThisRepository(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "linked worktree")
	p.bashQuiet("git status --short")
	wt := filepath.Join(filepath.Dir(p.dir), "wt")
	p.bashQuiet("git worktree add -q --detach " + wt)
	if why, b, _ := p.bash("git -C " + wt + " commit -q --allow-empty -n -m wip"); !b || !strings.Contains(why, "--no-verify") {
		t.Fatalf("a bypass in a linked worktree was not blocked: %v %q", b, why)
	}
	_, _, post := p.bash("cd " + wt + ` && printf '` + strings.TrimSuffix(leakLine, "\n") + `\n' > docs/leak.md && git add docs/leak.md && echo 'git commit -q -n -m "docs: notes"' | sh`)
	id := strings.TrimSpace(run(t, wt, p.env, "git", "rev-parse", "--short", "HEAD").stdout)
	if !strings.Contains(post+p.stop(false), "Commit "+id) {
		t.Fatalf("a red commit on a linked worktree's detached HEAD was not named:\n%s", post)
	}
}

// A red commit hidden behind `git replace --graft` is still judged: the
// listing reads the history as written, not as replaced.
func TestAgentReplacedParentIsJudged(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "replace graft")
	p.bashQuiet("git status --short")
	cmd := `printf '` + strings.TrimSuffix(leakLine, "\n") + `\n' > docs/leak.md && git add docs/leak.md && r=$(git commit-tree -p HEAD -m "docs: notes" $(git write-tree)) && git reset -q --hard HEAD && c=$(git commit-tree -p $r -m "docs: tidy" HEAD^{tree}) && git replace --graft $c HEAD && git update-ref refs/heads/main $c && echo $r > .git/red-id`
	_, b, post := p.bash(cmd)
	if b {
		t.Fatal("blocked")
	}
	data, err := os.ReadFile(filepath.Join(p.dir, ".git/red-id"))
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(string(data))[:7]
	if !strings.Contains(post, "Commit "+id) {
		t.Fatalf("the red commit %s behind a graft was not named:\n%s", id, post)
	}
}

// A commit pushed from no local ref with an old committer date is still
// the agent's: the push, not the date, says so.
func TestAgentPushedOldDateIsJudged(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "pushed old date")
	other := filepath.Join(filepath.Dir(p.dir), "r.git")
	p.bashQuiet("git init -q --bare " + other + " && git remote add o " + other + " && git push -q o main && git fetch -q o")
	_, b, post := p.bash(`printf '` + strings.TrimSuffix(leakLine, "\n") + `\n' > docs/leak.md && git add docs/leak.md && c=$(GIT_COMMITTER_DATE="2001-01-01T00:00:00Z" git commit-tree -p HEAD -m "docs: add notes" $(git write-tree)) && git push -q o $c:refs/heads/main && git reset -q && echo $c > .git/red-id`)
	if b {
		t.Fatal("blocked")
	}
	data, err := os.ReadFile(filepath.Join(p.dir, ".git/red-id"))
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(string(data))[:7]
	if !strings.Contains(post+p.stop(false), "Commit "+id) {
		t.Fatalf("the old-dated pushed commit %s was not named:\n%s", id, post)
	}
}
