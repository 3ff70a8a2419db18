package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// blockState puts a directory where the session's state file of kind
// belongs, so that reading and writing it fail.
func blockState(t *testing.T, r *fakeRepo, kind string) {
	t.Helper()
	if err := os.MkdirAll(stateName(r.state, "s1", kind), 0o755); err != nil {
		t.Fatal(err)
	}
}

// assertion H: each red commit's remedy fits where it stands: at HEAD,
// below it, or already on a remote-tracking ref; a gate that could not
// run is told apart from one that refused.
func TestCommitAuditRemedyFitsWhereTheCommitStands(t *testing.T) {
	bash := map[string]any{"command": "anything"}
	tree := func(code int) []Red {
		return []Red{{Name: "check-tree-terms", Code: code, Output: "docs/a.md:1: a home path", Hook: "pre-commit"}}
	}
	msg := []Red{{Name: "check-commit-msg", Code: 1, Output: "subject too long", Hook: "commit-msg"}}
	r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c1aaaa": nil}, reds: map[string][]Red{}}
	r.tips = []Tip{{"HEAD", "c1aaaa"}, {"refs/heads/main", "c1aaaa"}}
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	// c2 is published (a remote-tracking ref holds it) and its gate could
	// not run; c3, at HEAD, has a refused message only.
	r.graph["c2bbbb"] = []string{"c1aaaa"}
	r.graph["c3cccc"] = []string{"c2bbbb"}
	r.reds["c2bbbb"] = tree(2)
	r.reds["c3cccc"] = msg
	r.tips = []Tip{{"HEAD", "c3cccc"}, {"refs/heads/main", "c3cccc"}, {"refs/remotes/o/main", "c2bbbb"}}
	_, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash)
	for _, want := range []string{
		"check-tree-terms could not judge it",
		"To repair commit c2bb: it is already on a remote-tracking ref, so do not rewrite it; fix each finding in a new commit.",
		"check-commit-msg refuses it",
		"To repair commit c3cc: it is HEAD, so `git commit --amend",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "c3cc: it is HEAD, so `git commit --amend --allow-empty -m \\\"<a message these gates pass>\\\"` rewrites its message (the hooks run on the amend); fix") {
		t.Errorf("a message-only commit was offered a content fix:\n%s", out)
	}
	// c4 (below HEAD, unpublished, both refused) and c5 green at HEAD.
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	r.graph["c4dddd"] = []string{"c3cccc"}
	r.graph["c5eeee"] = []string{"c4dddd"}
	r.reds["c4dddd"] = append(append([]Red(nil), msg...), tree(1)...)
	r.tips = []Tip{{"HEAD", "c5eeee"}, {"refs/heads/main", "c5eeee"}, {"refs/remotes/o/main", "c2bbbb"}}
	_, out, _ = call(t, r, "commit-audit", PostToolUse, "Bash", bash)
	if !strings.Contains(out, "To repair commit c4dd: it is below HEAD, so reword it with `git rebase -i --autostash --rebase-merges c4dd^`") ||
		!strings.Contains(out, "; fix each finding in a new commit.") || strings.Contains(out, "reset --soft") || strings.Contains(out, "c5ee") {
		t.Errorf("a red commit below HEAD:\n%s", out)
	}
	// c6 red at HEAD, with remote-tracking refs that do not hold it.
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	r.graph["c6ffff"] = []string{"c5eeee"}
	r.reds["c6ffff"] = tree(1)
	r.tips = []Tip{{"HEAD", "c6ffff"}, {"refs/heads/main", "c6ffff"}, {"refs/remotes/o/main", "c2bbbb"}}
	_, out, _ = call(t, r, "commit-audit", PostToolUse, "Bash", bash)
	if !strings.Contains(out, "To repair commit c6ff: fix each finding in a new commit, or undo the commit with `git reset --soft HEAD^`") {
		t.Errorf("a red unpublished commit at HEAD:\n%s", out)
	}
}

// assertion G: a commit fetch brought and others made is never judged,
// even when it lands by a merge in a later command; a ref that moves with
// no new commit reads nothing of what fetch left.
func TestCommitAuditLeavesFetchedWorkAlone(t *testing.T) {
	bash := map[string]any{"command": "anything"}
	r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c1aaaa": nil}, red: map[string]bool{}}
	r.tips = []Tip{{"HEAD", "c1aaaa"}, {"refs/heads/main", "c1aaaa"}}
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	// A branch made at HEAD: a ref moved, no commit is new.
	r.tips = append(r.tips, Tip{"refs/heads/topic", "c1aaaa"})
	if _, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); out != "" || r.fetchedCalls != 0 {
		t.Fatalf("a new branch at HEAD: %q, fetch read %d times", out, r.fetchedCalls)
	}
	// Others' red commit f2, fetched, merged as m3 (green).
	r.graph["f2bbbb"] = []string{"c1aaaa"}
	r.graph["m3cccc"] = []string{"c1aaaa", "f2bbbb"}
	r.red["f2bbbb"] = true
	r.fetched = []string{"f2bbbb"}
	r.foreign = map[string]bool{"f2bbbb": true}
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	r.tips = []Tip{{"HEAD", "m3cccc"}, {"refs/heads/main", "m3cccc"}, {"refs/heads/topic", "c1aaaa"}}
	if _, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); out != "" || strings.Join(r.judged, " ") != "m3cccc" {
		t.Fatalf("fetched work: %q, judged %v", out, r.judged)
	}
	// FETCH_HEAD moves on; f2 is still known as fetched when a second
	// merge of it lands on topic.
	r.fetched = nil
	r.graph["m4dddd"] = []string{"c1aaaa", "f2bbbb"}
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	r.tips = []Tip{{"HEAD", "m3cccc"}, {"refs/heads/main", "m3cccc"}, {"refs/heads/topic", "m4dddd"}}
	if _, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); out != "" || strings.Join(r.judged, " ") != "m3cccc m4dddd" {
		t.Fatalf("fetched work merged again: %q, judged %v", out, r.judged)
	}
	// Foreign failing: the judge says it cannot judge.
	r.foreignErr = errors.New("rev-list failed")
	r.fetched = []string{"f2bbbb"}
	r.graph["c5eeee"] = []string{"m3cccc"}
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	r.tips = []Tip{{"HEAD", "c5eeee"}, {"refs/heads/main", "c5eeee"}, {"refs/heads/topic", "m4dddd"}}
	if _, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); !strings.Contains(out, "cannot be judged: rev-list failed") {
		t.Fatalf("a failing Foreign: %q", out)
	}
}

// assertion K: a commit on a remote-tracking ref this clone's push wrote
// is judged whatever its date; one a remote-tracking ref holds with no
// push and no session start known is not.
func TestCommitAuditJudgesWhatThisClonePushed(t *testing.T) {
	bash := map[string]any{"command": "anything"}
	r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c1aaaa": nil}, red: map[string]bool{"p2bbbb": true, "o3cccc": true}}
	r.tips = []Tip{{"HEAD", "c1aaaa"}, {"refs/heads/main", "c1aaaa"}}
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	// The session's start reads 0: no remote-only commit counts as made since.
	write(t, stateName(r.state, "s1", stateBaseAt), "0")
	r.graph["o3cccc"] = []string{"c1aaaa"}
	r.tips = append(r.tips, Tip{"refs/remotes/o/other", "o3cccc"})
	if _, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); out != "" || len(r.judged) != 0 {
		t.Fatalf("a remote-only commit with no session start: %q judged %v", out, r.judged)
	}
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	r.graph["p2bbbb"] = []string{"c1aaaa"}
	r.pushed = []string{"p2bbbb"}
	r.tips = append(r.tips, Tip{"refs/remotes/o/pushed", "p2bbbb"})
	if _, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); !strings.Contains(out, "Commit p2bb") || strings.Contains(out, "o3cc") {
		t.Fatalf("a pushed commit: %q", out)
	}
}

// assertion J: past the cap the commits left are counted, kept, and
// judged by the next look that moves a ref, after which none is left.
func TestCommitAuditJudgesWhatTheCapLeftLater(t *testing.T) {
	bash := map[string]any{"command": "anything"}
	r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c0000": nil}, red: map[string]bool{}}
	r.tips = []Tip{{"HEAD", "c0000"}, {"refs/heads/main", "c0000"}}
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	prev := "c0000"
	for i := 1; i <= MaxJudged+2; i++ {
		id := fmt.Sprintf("c%04d", i)
		r.graph[id] = []string{prev}
		r.red[id] = true
		prev = id
	}
	r.tips = []Tip{{"HEAD", prev}, {"refs/heads/main", prev}}
	_, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash)
	if len(r.judged) != MaxJudged || !strings.Contains(out, "2 commits not yet judged") {
		t.Fatalf("the first look judged %d (want %d) and said %q", len(r.judged), MaxJudged, out)
	}
	if n := SessionUnjudged(r.state, "s1"); n != 2 {
		t.Fatalf("kept %d unjudged, want 2", n)
	}
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	r.graph["c9999"] = []string{prev}
	r.tips = []Tip{{"HEAD", "c9999"}, {"refs/heads/main", "c9999"}}
	_, out, _ = call(t, r, "commit-audit", PostToolUse, "Bash", bash)
	if len(r.judged) != MaxJudged+3 || strings.Contains(out, "not yet judged") {
		t.Fatalf("the next look: %d judged in all (want %d), said %q", len(r.judged), MaxJudged+3, out)
	}
	if n := SessionUnjudged(r.state, "s1"); n != 0 {
		t.Fatalf("kept %d unjudged after the next look, want 0", n)
	}
}

// assertion I: the judge's own state failing to be written reaches the
// model, before a command and after one; another tool is none of its
// business and writes nothing.
func TestCommitAuditStateWriteFailures(t *testing.T) {
	bash := map[string]any{"command": "anything"}
	r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c1aaaa": nil}}
	r.tips = []Tip{{"HEAD", "c1aaaa"}, {"refs/heads/main", "c1aaaa"}}
	if code, out, _ := call(t, r, "commit-audit", PreToolUse, "Edit", map[string]any{"file_path": "/srv/p/a"}); code != Allow || out != "" {
		t.Fatalf("an Edit: %d %q", code, out)
	}
	if _, err := os.Stat(stateName(r.state, "s1", stateTips)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("an Edit wrote the audit's state: %v", err)
	}
	blockState(t, r, stateBaseAt)
	if code, out, errs := call(t, r, "commit-audit", PreToolUse, "Bash", bash); code != Allow || !strings.Contains(out, "the rule was not enforced") || !strings.Contains(errs, "base-at") {
		t.Fatalf("the session start unwritable before a command: %d %q %q", code, out, errs)
	}
	r2 := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c1aaaa": nil}}
	r2.tips = r.tips
	blockState(t, r2, stateBaseAt)
	if _, out, _ := call(t, r2, "commit-audit", PostToolUse, "Bash", bash); !strings.Contains(out, `"decision": "block"`) || !strings.Contains(out, "cannot be judged") {
		t.Fatalf("the session start unwritable after a first command: %q", out)
	}
	// The list left unjudged unwritable after a look past the cap.
	r3 := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c0000": nil}, red: map[string]bool{}}
	r3.tips = []Tip{{"HEAD", "c0000"}, {"refs/heads/main", "c0000"}}
	call(t, r3, "commit-audit", PreToolUse, "Bash", bash)
	prev := "c0000"
	for i := 1; i <= MaxJudged+1; i++ {
		id := fmt.Sprintf("c%04d", i)
		r3.graph[id] = []string{prev}
		prev = id
	}
	r3.tips = []Tip{{"HEAD", prev}, {"refs/heads/main", prev}}
	if err := os.MkdirAll(stateName(r3.state, "s1", stateUnjudged)+"/x", 0o755); err != nil {
		t.Fatal(err)
	}
	if _, out, _ := call(t, r3, "commit-audit", PostToolUse, "Bash", bash); !strings.Contains(out, "cannot be judged") {
		t.Fatalf("the unjudged list unwritable: %q", out)
	}
}

// assertions X and Z: the notes commit-guard gives once per session, and
// what it says when the session's record of them cannot be read or kept.
func TestCommitGuardNotesAndTheirState(t *testing.T) {
	ls := map[string]any{"command": "ls"}
	// Not opted in, record fine: the note once, nothing on stderr.
	r := &fakeRepo{state: t.TempDir()}
	if code, out, errs := call(t, r, "commit-guard", PreToolUse, "Bash", ls); code != Allow || !strings.Contains(out, "not opted in") || errs != "" {
		t.Fatalf("not opted in: %d %q %q", code, out, errs)
	}
	// Not opted in, record unreadable and unwritable: the note every
	// time, and both failures said.
	r = &fakeRepo{state: t.TempDir()}
	blockState(t, r, stateAdvised)
	code, out, errs := call(t, r, "commit-guard", PreToolUse, "Bash", ls)
	if code != Allow || !strings.Contains(out, "not opted in") ||
		!strings.Contains(errs, "cannot read whether this session was told") || !strings.Contains(errs, "cannot keep the session's state") {
		t.Fatalf("not opted in, state blocked: %d %q %q", code, out, errs)
	}
	// Another hook manager: told once per manager, silent on stderr.
	r = &fakeRepo{state: t.TempDir(), hooks: HooksState{OptedIn: true, Problems: []string{"core.hooksPath is .husky"}, Repair: "bin/gates --install-hooks", Other: "/srv/p/.husky", Chain: "Chain them."}}
	if code, out, errs := call(t, r, "commit-guard", PreToolUse, "Bash", ls); code != Allow || !strings.Contains(out, "/srv/p/.husky") || errs != "" {
		t.Fatalf("another manager, first: %d %q %q", code, out, errs)
	}
	if code, out, _ := call(t, r, "commit-guard", PreToolUse, "Bash", ls); code != Allow || out != "" {
		t.Fatalf("another manager, second: %d %q", code, out)
	}
	r.hooks.Other = "/srv/p/.lefthook"
	if _, out, _ := call(t, r, "commit-guard", PreToolUse, "Bash", ls); !strings.Contains(out, "/srv/p/.lefthook") {
		t.Fatalf("a different manager went untold: %q", out)
	}
	// Its record blocked: told, and the failure to keep it said.
	r2 := &fakeRepo{state: t.TempDir(), hooks: r.hooks}
	blockState(t, r2, stateOther)
	if _, out, errs := call(t, r2, "commit-guard", PreToolUse, "Bash", ls); !strings.Contains(out, "/srv/p/.lefthook") || !strings.Contains(errs, "cannot keep the session's state") {
		t.Fatalf("another manager, state blocked: %q %q", out, errs)
	}
	// assertion W: the repair's own spelling runs; with no repair named,
	// any command is blocked.
	r = &fakeRepo{state: t.TempDir(), hooks: HooksState{OptedIn: true, Problems: []string{"pre-commit is missing"}, Repair: "make hooks"}}
	if code, _, _ := call(t, r, "commit-guard", PreToolUse, "Bash", map[string]any{"command": "make hooks"}); code != Allow {
		t.Fatalf("the named repair was blocked")
	}
	r.hooks.Repair = ""
	if code, _, _ := call(t, r, "commit-guard", PreToolUse, "Bash", ls); code != Block {
		t.Fatalf("with no repair named, ls ran")
	}
}

// A red commit the checked-out HEAD does not reach is taken off the refs
// that do: a branch goes back to the commit's parent (what it held before
// the commit, the user's own work, stays), a tag or another ref is
// deleted; a root commit's branch is deleted.
func TestRemedyAwayFromHeadDeletesItsRefs(t *testing.T) {
	j := &judged{CommitVerdict: CommitVerdict{ID: "abc", Short: "abc1234"}, away: []string{"refs/heads/side2", "refs/tags/v9", "refs/keep/x"}}
	root := &judged{CommitVerdict: CommitVerdict{ID: "abc", Short: "abc1234", Root: true}, away: []string{"refs/heads/side2"}}
	if got := remedy(root, true, false); !strings.Contains(got, "`git branch -D side2`") {
		t.Errorf("a root commit's branch is not deleted:\n%s", got)
	}
	got := remedy(j, true, true)
	if strings.Contains(got, "git branch -D") {
		t.Errorf("a branch that held more than the commit is deleted:\n%s", got)
	}
	for _, want := range []string{"not on the checked-out branch", "`git branch -f side2 abc1234^`", "`git tag -d v9`", "`git update-ref -d refs/keep/x`"} {
		if !strings.Contains(got, want) {
			t.Errorf("the remedy lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "reset --soft") || strings.Contains(got, "rebase -i") {
		t.Errorf("a commit away from HEAD was offered HEAD's rewrite:\n%s", got)
	}
}

// A red commit that is a linked worktree's HEAD is repaired in that
// worktree, by `git -C <dir>`, never by the checked-out branch's rewrite.
func TestRemedyInALinkedWorktree(t *testing.T) {
	j := &judged{CommitVerdict: CommitVerdict{ID: "abc", Short: "abc1234"}, worktree: "/w/it's here"}
	got := remedy(j, true, true)
	for _, want := range []string{"`git -C '/w/it'\\''s here' commit --amend --allow-empty -m", "`git -C '/w/it'\\''s here' reset --soft HEAD^`"} {
		if !strings.Contains(got, want) {
			t.Errorf("the remedy lacks %q:\n%s", want, got)
		}
	}
	j.Root = true
	if got := remedy(j, false, true); !strings.Contains(got, "`git -C '/w/it'\\''s here' update-ref -d HEAD`") {
		t.Errorf("a root commit in a worktree: %s", got)
	}
}

// assertion J: with a time budget a look goes on past the 50 while the
// budget lasts, so a rebase of a long branch is judged in one look; with
// none it stops at the 50.
func TestCommitAuditJudgesPastTheCapWhileTimeAllows(t *testing.T) {
	bash := map[string]any{"command": "anything"}
	for _, budget := range []time.Duration{0, time.Minute} {
		r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c0000": nil}, red: map[string]bool{}}
		r.tips = []Tip{{"HEAD", "c0000"}, {"refs/heads/main", "c0000"}}
		run := func(event string) string {
			in, _ := json.Marshal(bash)
			m, _ := Lookup("commit-audit")
			var out, errb bytes.Buffer
			p := &Payload{SessionID: "s1", HookEventName: event, ToolName: "Bash", ToolInput: in, Cwd: "/srv/p"}
			m.Run(&Call{Member: "commit-audit", Payload: p, Stdout: &out, Stderr: &errb, Gates: &fakeRunner{}, Repo: r, JudgeBudget: budget})
			return out.String()
		}
		run(PreToolUse)
		prev := "c0000"
		for i := 1; i <= MaxJudged+10; i++ {
			id := fmt.Sprintf("c%04d", i)
			r.graph[id] = []string{prev}
			prev = id
		}
		r.tips = []Tip{{"HEAD", prev}, {"refs/heads/main", prev}}
		out := run(PostToolUse)
		want, left := MaxJudged+10, ""
		if budget == 0 {
			want, left = MaxJudged, "10 commits not yet judged"
		}
		if len(r.judged) != want || left == "" && out != "" || left != "" && !strings.Contains(out, left) {
			t.Fatalf("budget %v: judged %d (want %d), said %q", budget, len(r.judged), want, out)
		}
	}
}

// A red commit below a linked worktree's HEAD (whose branch git neither
// deletes nor moves while it is checked out there) is reworded in that
// worktree, by the rebase spelled with `git -C <dir>`, keeping its edits.
func TestRemedyBelowALinkedWorktreesHead(t *testing.T) {
	j := &judged{CommitVerdict: CommitVerdict{ID: "abc", Short: "abc1234"}, worktree: "/w/t", wtBelow: true}
	got := remedy(j, true, true)
	for _, want := range []string{"below HEAD of the linked worktree /w/t", "git -C /w/t rebase -i --autostash --rebase-merges abc1234^ && git -C /w/t commit --amend --allow-empty -m", "&& git -C /w/t rebase --continue`", "fix each finding in a new commit in the linked worktree /w/t"} {
		if !strings.Contains(got, want) {
			t.Errorf("the remedy lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "branch -D") || strings.Contains(got, "reset --soft") || strings.Contains(got, "it is HEAD") {
		t.Errorf("a commit below a worktree's HEAD was offered another commit's repair:\n%s", got)
	}
}
