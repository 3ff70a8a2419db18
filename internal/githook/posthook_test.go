package githook

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gitOut(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

// Issue 42 item 19 (assertion Y, not covered in this package before): the
// after-the-fact hooks name a commit that reached the branch with content
// no pre-commit judged, once, and record it; a commit whose tree a
// passing pre-commit judged, or that changes no content, is not named;
// post-rewrite reads git's list of rewritten commits; each answers 0.
func TestPostHooksNameWhatNoPreCommitJudged(t *testing.T) {
	dir, env := scratchRepo(t)
	common := filepath.Join(dir, ".git")
	mustWrite(t, filepath.Join(dir, "doc.md"), "two\n")
	gitT(t, dir, env, "commit", "-q", "-a", "-m", "past the hook")
	head := gitOut(t, dir, env, "rev-parse", "HEAD")
	h := newHookWorld(dir, env, fakeRegistry{}, nil)
	if code := RunHook([]string{PostCommit}, h.World); code != 0 {
		t.Fatalf("post-commit answered %d", code)
	}
	want := "post-commit: " + head[:12] + " reached the branch with no pre-commit judgement (a commit made past pre-commit: cherry-pick, rebase or --no-verify)\n" +
		"  git runs no pre-commit hook for it; run gates --run now: gates doctor and every battery name it until a whole green battery here judges it\n"
	if h.errb.String() != want || h.out.Len() != 0 {
		t.Fatalf("post-commit said %q on stderr, %q on stdout; want %q", h.errb.String(), h.out.String(), want)
	}
	if ls, err := ReadUnjudged(common); err != nil || len(ls) != 1 || ls[0].Commit != head || ls[0].Hook != PostCommit || ls[0].Top != dir {
		t.Fatalf("recorded %+v %v", ls, err)
	}
	// The same commit again: recorded already, named once.
	h = newHookWorld(dir, env, fakeRegistry{}, nil)
	if code := RunHook([]string{PostCommit}, h.World); code != 0 || h.errb.Len() != 0 {
		t.Errorf("a recorded commit named again: %d %q", code, h.errb.String())
	}
	// A commit that changes no content is judged by its parent's tree.
	gitT(t, dir, env, "commit", "-q", "--allow-empty", "-m", "empty")
	h = newHookWorld(dir, env, fakeRegistry{}, nil)
	if code := RunHook([]string{PostCommit}, h.World); code != 0 || h.errb.Len() != 0 {
		t.Errorf("a content-free commit was named: %d %q", code, h.errb.String())
	}
	// A tree a passing pre-commit judged is not named.
	mustWrite(t, filepath.Join(dir, "doc.md"), "three\n")
	gitT(t, dir, env, "commit", "-q", "-a", "-m", "judged")
	if err := NoteJudged(common, gitOut(t, dir, env, "rev-parse", "HEAD^{tree}")); err != nil {
		t.Fatal(err)
	}
	h = newHookWorld(dir, env, fakeRegistry{}, nil)
	if code := RunHook([]string{PostCommit}, h.World); code != 0 || h.errb.Len() != 0 {
		t.Errorf("a judged tree was named: %d %q", code, h.errb.String())
	}
	// post-rewrite: <old> <new> [extra] lines; others passed over.
	mustWrite(t, filepath.Join(dir, "doc.md"), "four\n")
	gitT(t, dir, env, "commit", "-q", "-a", "--amend", "-m", "amended")
	amended := gitOut(t, dir, env, "rev-parse", "HEAD")
	h = newHookWorld(dir, env, fakeRegistry{}, nil)
	h.Stdin = strings.NewReader("garbage\n" + head + "\n" + head + " " + amended + " extra\n")
	if code := RunHook([]string{PostRewrite, "amend"}, h.World); code != 0 || !strings.HasPrefix(h.errb.String(), "post-rewrite: "+amended[:12]+" reached the branch with no pre-commit judgement (rewritten by rebase or amend)\n") ||
		strings.Count(h.errb.String(), "reached the branch") != 1 {
		t.Errorf("post-rewrite: %d %q", code, h.errb.String())
	}
	// git's own list: "<old> <new>", two fields and no more.
	mustWrite(t, filepath.Join(dir, "doc.md"), "five\n")
	gitT(t, dir, env, "commit", "-q", "-a", "--amend", "-m", "amended again")
	again := gitOut(t, dir, env, "rev-parse", "HEAD")
	h = newHookWorld(dir, env, fakeRegistry{}, nil)
	h.Stdin = strings.NewReader(amended + " " + again + "\n")
	if code := RunHook([]string{PostRewrite, "amend"}, h.World); code != 0 || !strings.HasPrefix(h.errb.String(), "post-rewrite: "+again[:12]+" reached the branch") {
		t.Errorf("post-rewrite of an <old> <new> line: %d %q", code, h.errb.String())
	}
	// post-rewrite with nothing on stdin says it could not check.
	h = newHookWorld(dir, env, fakeRegistry{}, nil)
	if code := RunHook([]string{PostRewrite, "rebase"}, h.World); code != 0 || !strings.Contains(h.errb.String(), "post-rewrite: could not check whether the new commits were judged: git handed no list of rewritten commits\n  run gates --run before you push\n") {
		t.Errorf("post-rewrite with no list: %d %q", code, h.errb.String())
	}
}

// Issue 42 item 19: a short id is the first twelve digits, a shorter
// spelling stays whole; each landing says where it came from.
func TestShortIDAndHow(t *testing.T) {
	if got := shortID("0123456789abcdef"); got != "0123456789ab" {
		t.Errorf("shortID = %q", got)
	}
	if got := shortID("0123456789ab"); got != "0123456789ab" {
		t.Errorf("shortID of twelve = %q", got)
	}
	for hook, want := range map[string]string{PostApplypatch: "applied by git am", PostMerge: "brought in by a merge or pull", "other": "other"} {
		if got := (Landing{Hook: hook}).How(); got != want {
			t.Errorf("How(%s) = %q, want %q", hook, got, want)
		}
	}
}

// Issue 42 item 19 (not covered in this package before): the footing a
// status line shows. Off before the opt-in, on once placed, and broken,
// saying why, for each thing between git and the binary that is not as
// placed.
func TestFootingSaysWhatIsBroken(t *testing.T) {
	r := newInstallRig(t)
	common := filepath.Join(r.dir, ".git")
	foot := func(env ...string) (int, string) {
		t.Helper()
		return Footing(r.dir, common, r.hooksDir(), envOf(env...))
	}
	if st, why := foot(); st != FootingOff || why != "" {
		t.Fatalf("before the opt-in: %d %q", st, why)
	}
	if code := r.install(); code != 0 {
		t.Fatalf("install: %d %s", code, r.errb.String())
	}
	if st, why := foot(); st != FootingOn || why != "" {
		t.Fatalf("placed: %d %q", st, why)
	}
	if st, why := foot(NativeBinKnob + "=/nowhere/gates"); st != FootingBroken || why != NativeBinKnob+"=/nowhere/gates (from environment) is not the recorded binary" {
		t.Errorf("another binary by the knob: %d %q", st, why)
	}
	// The same bytes at the binary under new stat fields are still on.
	data, err := os.ReadFile(r.bin)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(r.bin)
	mustWrite(t, r.bin, string(data))
	os.Chmod(r.bin, 0o755)
	if st, why := foot(); st != FootingOn {
		t.Errorf("the recorded bytes rewritten: %d %q", st, why)
	}
	// ... and recorded, so the next look costs stats only.
	if !SameBuild(filepath.Join(r.hooksDir(), PreCommit+ExeSuffix()), r.bin) {
		t.Error("the rewritten binary's stat fields were not recorded")
	}
	mustWrite(t, r.bin, "#!/bin/sh\nexit 1\n")
	if st, why := foot(); st != FootingBroken || why != "bin/gates is not the recorded binary" {
		t.Errorf("another build at the binary's path: %d %q", st, why)
	}
	// The recorded bytes without the execute bit run nothing.
	mustWrite(t, r.bin, string(data))
	os.Chmod(r.bin, 0o644)
	if st, why := foot(); st != FootingBroken || why != "bin/gates is not an executable file" {
		t.Errorf("the binary not executable: %d %q", st, why)
	}
	os.Remove(r.bin)
	if st, why := foot(); st != FootingBroken || why != "bin/gates is gone" {
		t.Errorf("no binary: %d %q", st, why)
	}
	mustWrite(t, r.bin, string(data))
	hook := filepath.Join(r.hooksDir(), CommitMsg)
	os.Chmod(hook, 0o644)
	if st, why := foot(); st != FootingBroken || why != CommitMsg+" is missing or not executable" {
		t.Errorf("a hook not executable: %d %q", st, why)
	}
	os.Chmod(hook, 0o755)
	hd, _ := os.ReadFile(hook)
	os.Remove(hook)
	mustWrite(t, hook, string(hd)+"# edited\n")
	os.Chmod(hook, 0o755)
	if st, why := foot(); st != FootingBroken || why != CommitMsg+" is not the placed hook" {
		t.Errorf("a hook edited: %d %q", st, why)
	}
	other := t.TempDir()
	if st, why := Footing(r.dir, common, other, envOf()); st != FootingBroken || why != "git runs the hooks in "+other {
		t.Errorf("git running another directory: %d %q", st, why)
	}
}

// Issue 42 item 19: a clone moved since its hooks were placed (the
// recorded source path gone, the same bytes at the default binary path)
// is on, and the new path is recorded; a binary named by the knob is
// never recorded in its place.
func TestFootingRecordsAMovedClonesBinary(t *testing.T) {
	r := newInstallRig(t)
	common := filepath.Join(r.dir, ".git")
	if code := r.install(); code != 0 {
		t.Fatalf("install: %d %s", code, r.errb.String())
	}
	data, err := os.ReadFile(r.bin)
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(t.TempDir(), "gates")
	mustWrite(t, old, string(data))
	ours := r.hooksDir()
	if err := writeSource(ours, old); err != nil {
		t.Fatal(err)
	}
	os.Remove(old)
	if st, why := Footing(r.dir, common, ours, envOf(NativeBinKnob+"="+r.bin)); st != FootingOn || src(ours) != old {
		t.Errorf("by the knob: %d %q, source %q; want on, the record untouched", st, why, src(ours))
	}
	if st, why := Footing(r.dir, common, ours, envOf()); st != FootingOn || src(ours) != r.bin {
		t.Errorf("moved clone: %d %q, source %q; want on, %s recorded", st, why, src(ours), r.bin)
	}
}
