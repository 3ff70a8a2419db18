package githook

import (
	"path/filepath"
	"strings"
	"testing"
)

// pre-push records each local commit git says the push sends (a deletion's
// zero id is not one), answers 0 whatever it finds, and refuses an argv
// that is not git's two operands.
func TestPrePushRecordsWhatThePushSends(t *testing.T) {
	dir, env := scratchRepo(t)
	head := gitOut(t, dir, env, "rev-parse", "HEAD")
	zero := strings.Repeat("0", 40)
	h := newHookWorld(dir, env, fakeRegistry{}, nil)
	h.World.Stdin = strings.NewReader("refs/heads/main " + head + " refs/heads/main " + zero + "\n(delete) " + zero + " refs/heads/old " + head + "\n")
	if code := RunHook([]string{PrePush, "origin", "/elsewhere/r.git"}, h.World); code != 0 || h.errb.Len() != 0 || h.out.Len() != 0 {
		t.Fatalf("pre-push answered %d, said %q %q", code, h.out.String(), h.errb.String())
	}
	got, err := ReadPushed(filepath.Join(dir, ".git"))
	if err != nil || len(got) != 1 || got[0].Commit != head || got[0].At == 0 {
		t.Fatalf("recorded %+v %v", got, err)
	}
	h = newHookWorld(dir, env, fakeRegistry{}, nil)
	if code := RunHook([]string{PrePush, "origin"}, h.World); code != 2 || !strings.Contains(h.errb.String(), "pre-push <remote> <url>") {
		t.Fatalf("pre-push with one operand: %d %q", code, h.errb.String())
	}
}

// A push of git-notes (a notes ref sent to a notes ref) is recorded
// marked as such: its commits are notes, not the project, unless the
// agent parked a project commit on the notes ref, which the judge tells
// by history. A commit sent from a notes ref to a branch is recorded as
// any other.
func TestPrePushMarksNotes(t *testing.T) {
	dir, env := scratchRepo(t)
	head := gitOut(t, dir, env, "rev-parse", "HEAD")
	zero := strings.Repeat("0", 40)
	note := strings.Repeat("1", 40)
	other := strings.Repeat("2", 40)
	h := newHookWorld(dir, env, fakeRegistry{}, nil)
	h.World.Stdin = strings.NewReader("refs/notes/commits " + note + " refs/notes/commits " + zero + "\n" +
		"refs/heads/main " + head + " refs/heads/main " + zero + "\n" +
		"refs/notes/x " + other + " refs/heads/smuggled " + zero + "\n")
	if code := RunHook([]string{PrePush, "origin", "/elsewhere/r.git"}, h.World); code != 0 {
		t.Fatalf("pre-push answered %d, said %q", code, h.errb.String())
	}
	got, err := ReadPushed(filepath.Join(dir, ".git"))
	if err != nil || len(got) != 3 || got[0].Commit != note || !got[0].Notes || got[1].Commit != head || got[1].Notes || got[2].Commit != other || got[2].Notes {
		t.Fatalf("recorded %+v %v; want the notes commit marked, the branch's commit and the one sent to a branch unmarked", got, err)
	}
}

// pre-push keeps apart the commits the push sends that no fetch brought:
// none a remote-tracking ref or a FETCH_HEAD line reaches when it runs
// (what a fork's sync sends was fetched first). The first record reads as
// before.
func TestPrePushKeepsWhatNoFetchBrought(t *testing.T) {
	dir, env := scratchRepo(t)
	seed := gitOut(t, dir, env, "rev-parse", "HEAD")
	gitT(t, dir, env, "update-ref", "refs/remotes/o/main", seed)
	gitT(t, dir, env, "commit", "-q", "--allow-empty", "-m", "fetched later")
	fetched := gitOut(t, dir, env, "rev-parse", "HEAD")
	mustWrite(t, filepath.Join(dir, ".git", "FETCH_HEAD"), fetched+"\t\tbranch 'main' of /elsewhere/r\n")
	gitT(t, dir, env, "commit", "-q", "--allow-empty", "-m", "mine")
	mine := gitOut(t, dir, env, "rev-parse", "HEAD")
	zero := strings.Repeat("0", 40)
	push := func(id string) {
		t.Helper()
		h := newHookWorld(dir, env, fakeRegistry{}, nil)
		h.World.Stdin = strings.NewReader("refs/heads/x " + id + " refs/heads/x " + zero + "\n")
		if code := RunHook([]string{PrePush, "origin", "/elsewhere/r.git"}, h.World); code != 0 || h.errb.Len() != 0 {
			t.Fatalf("pre-push answered %d, said %q", code, h.errb.String())
		}
	}
	push(fetched)
	if got, err := ReadPushedNew(filepath.Join(dir, ".git")); err != nil || len(got) != 0 {
		t.Fatalf("a push of what a fetch brought kept %+v %v", got, err)
	}
	push(mine)
	got, err := ReadPushedNew(filepath.Join(dir, ".git"))
	if err != nil || len(got) != 1 || got[0].Commit != mine || got[0].At == 0 {
		t.Fatalf("a push of a commit no fetch brought kept %+v %v; want %s alone", got, err, mine)
	}
	if all, err := ReadPushed(filepath.Join(dir, ".git")); err != nil || len(all) != 2 || all[0].Commit != fetched || all[1].Commit != mine {
		t.Fatalf("the pushed record: %+v %v", all, err)
	}
}
