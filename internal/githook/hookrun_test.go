package githook

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

// scratchRepo is a committed repository holding doc.md and notes.md.
func scratchRepo(t *testing.T) (string, []string) {
	t.Helper()
	dir, err := walk.Canonicalize(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "GATE_SDK_") {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
	mustWrite(t, filepath.Join(dir, "doc.md"), "one\n")
	mustWrite(t, filepath.Join(dir, "notes.md"), "notes\n")
	gitT(t, dir, env, "init", "-q")
	gitT(t, dir, env, "add", "-A")
	gitT(t, dir, env, "commit", "-q", "-m", "seed")
	return dir, env
}

func gitT(t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// hookWorld is a World at dir over reg, recording compiled runs.
type hookWorld struct {
	World
	out, errb bytes.Buffer
	runs      []CompiledRun
	reads     map[string]string // what each compiled run read of doc.md
}

func newHookWorld(dir string, gitEnv []string, reg Registry, regErr error, env ...string) *hookWorld {
	h := &hookWorld{reads: map[string]string{}}
	h.World = World{Dir: dir, Env: envOf(env...), GitEnv: gitEnv, Stdout: &h.out, Stderr: &h.errb,
		Registry: func() (Registry, error) { return reg, regErr },
		Compiled: func(run CompiledRun) (int, []byte) {
			h.runs = append(h.runs, run)
			if run.Tree != nil {
				data, err := run.Tree.Read("doc.md")
				h.reads[run.Name] = string(data)
				if err != nil {
					h.reads[run.Name] = "error: " + err.Error()
				}
			}
			switch run.Name {
			case "check-red":
				return 1, []byte("doc.md:1: red")
			case "check-silent":
				return 2, nil
			}
			return 0, []byte(run.Name + ": clean (1 file)\n")
		},
	}
	return h
}

func gateMember(name, tier string) Member {
	return Member{Name: name, Kind: registry.Descriptor, Decl: "scripts/" + name + ".gate", Tier: tier}
}

// assertion N, G, I: compiled members run in process over the staged
// snapshot; the pin reaches their children only.
func TestPreCommitRunsCompiledOverTheIndex(t *testing.T) {
	dir, env := scratchRepo(t)
	mustWrite(t, filepath.Join(dir, "doc.md"), "staged\n")
	gitT(t, dir, env, "add", "doc.md")
	mustWrite(t, filepath.Join(dir, "doc.md"), "unstaged\n")
	st := gateMember("check-st", registry.TierPrecommit)
	st.Staged, st.Operands = true, []string{"doc.md"}
	reg := fakeRegistry{selected: []Member{gateMember("check-a", registry.TierPrecommit), st, gateMember("check-msg", registry.TierCommitMsg)}}

	h := newHookWorld(dir, env, reg, nil)
	if code := RunHook([]string{PreCommit}, h.World); code != 0 || h.out.String() != "pre-commit: 2 gate(s) passed.\n" || h.errb.Len() != 0 {
		t.Fatalf("code %d stdout %q stderr %q", code, h.out.String(), h.errb.String())
	}
	if len(h.runs) != 2 || h.runs[0].Name != "check-a" || h.runs[1].Name != "check-st" || !reflect.DeepEqual(h.runs[1].Args, []string{"doc.md"}) || h.runs[0].Args != nil {
		t.Fatalf("runs %+v", h.runs)
	}
	if h.reads["check-a"] != "staged\n" || h.reads["check-st"] != "staged\n" {
		t.Fatalf("compiled members read %q; want the staged bytes", h.reads)
	}
	if h.runs[0].Tree != h.runs[1].Tree || !h.runs[0].Tree.Staged() {
		t.Fatal("the members did not share one staged snapshot")
	}
	if h.runs[0].ChildEnv != nil {
		t.Fatalf("a pin outside a linked worktree: %q", h.runs[0].ChildEnv)
	}

	// A linked worktree's GIT_DIR: the pin goes to the members' children.
	before, had := os.LookupEnv("GIT_WORK_TREE")
	h = newHookWorld(dir, env, reg, nil, "GIT_DIR="+filepath.Join(dir, ".git"), "GATE_SDK_VERBOSE=1")
	if code := RunHook([]string{PreCommit}, h.World); code != 0 {
		t.Fatalf("code %d stderr %q", code, h.errb.String())
	}
	if want := []string{"GIT_WORK_TREE=" + dir}; !reflect.DeepEqual(h.runs[0].ChildEnv, want) {
		t.Fatalf("ChildEnv %q, want %q", h.runs[0].ChildEnv, want)
	}
	if after, has := os.LookupEnv("GIT_WORK_TREE"); has != had || after != before {
		t.Fatal("the pin reached this process's environment")
	}
	want := "check-a: clean (1 file)\n  PASS: check-a\ncheck-st: clean (1 file)\n  PASS: check-st\npre-commit: 2 gate(s) passed.\n"
	if h.out.String() != want {
		t.Fatalf("verbose stdout %q, want %q", h.out.String(), want)
	}

	// A red member is reported and the members after it still run.
	reg.selected = []Member{gateMember("check-red", registry.TierPrecommit), gateMember("check-a", registry.TierPrecommit)}
	h = newHookWorld(dir, env, reg, nil)
	if code := RunHook([]string{PreCommit}, h.World); code != 1 || h.out.String() != "doc.md:1: red\n\npre-commit: check-red failed (see above).\n"+BypassLine+"\n" || len(h.runs) != 2 {
		t.Fatalf("red: code %d stdout %q runs %d", code, h.out.String(), len(h.runs))
	}
	// A member failing in silence still fails, its empty output kept empty.
	reg.selected = []Member{gateMember("check-silent", registry.TierPrecommit)}
	h = newHookWorld(dir, env, reg, nil)
	if code := RunHook([]string{PreCommit}, h.World); code != 1 || h.out.String() != "\npre-commit: check-silent failed (see above).\n"+BypassLine+"\n" {
		t.Fatalf("silent: code %d stdout %q", code, h.out.String())
	}
}

// assertion P: a shell member reading a path whose work tree differs from
// the index refuses the commit before anything runs.
func TestPreCommitShellMisjudged(t *testing.T) {
	dir, env := scratchRepo(t)
	mustWrite(t, filepath.Join(dir, "doc.md"), "staged\n")
	gitT(t, dir, env, "add", "doc.md")
	mustWrite(t, filepath.Join(dir, "notes.md"), "unstaged notes\n")
	shell := Member{Name: "check-sh", Kind: registry.Shell, Decl: "scripts/check-sh.sh", Tier: registry.TierPrecommit}
	broken := Member{Name: "check-amb", Kind: registry.Shell, Problem: "ambiguous"}
	reg := fakeRegistry{selected: []Member{gateMember("check-a", registry.TierPrecommit), broken, shell}, reads: map[string][]string{"check-sh": {"notes.md", "doc.md"}, "check-amb": {"notes.md"}}}
	h := newHookWorld(dir, env, reg, nil)
	code := RunHook([]string{PreCommit}, h.World)
	want := "pre-commit: a shell member reads the work tree, which differs from the index here:\n" +
		"  check-sh reads notes.md, whose work-tree copy is not what this commit holds\n" +
		"  Stage those changes (git add) or set them aside (git stash push --keep-index), then commit again.\n" + BypassLine + "\n"
	if code != 2 || h.errb.String() != want || len(h.runs) != 0 || h.out.Len() != 0 {
		t.Fatalf("code %d stderr %q runs %d; want 2 and %q", code, h.errb.String(), len(h.runs), want)
	}
	// Reads that cannot be answered refuse.
	reg.readErr = errors.New("no couples")
	h = newHookWorld(dir, env, reg, nil)
	if code := RunHook([]string{PreCommit}, h.World); code != 2 || h.errb.String() != "pre-commit: no couples\n" {
		t.Fatalf("reads error: code %d stderr %q", code, h.errb.String())
	}
	// Once the work tree matches the index the shell member runs.
	gitT(t, dir, env, "add", "notes.md")
	mustWrite(t, filepath.Join(dir, "scripts/check-sh.sh"), "#!/bin/sh\necho sh ran\n")
	if err := os.Chmod(filepath.Join(dir, "scripts/check-sh.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, env, "add", "-A")
	reg.readErr = nil
	reg.selected = []Member{shell}
	h = newHookWorld(dir, env, reg, nil, "GATE_SDK_VERBOSE=1")
	if code := RunHook([]string{PreCommit}, h.World); code != 0 || h.out.String() != "sh ran\n  PASS: check-sh\npre-commit: 1 gate(s) passed.\n" {
		t.Fatalf("clean shell: code %d stdout %q stderr %q", code, h.out.String(), h.errb.String())
	}
}

// assertion B, O, E: silence, conflicts without ours, registry failures.
func TestPreCommitRefusals(t *testing.T) {
	dir, env := scratchRepo(t)
	h := newHookWorld(dir, env, fakeRegistry{}, nil)
	if code := RunHook([]string{PreCommit}, h.World); code != 0 || h.out.Len()+h.errb.Len() != 0 || len(h.runs) != 0 {
		t.Fatalf("empty staged set: code %d out %q err %q runs %d", code, h.out.String(), h.errb.String(), len(h.runs))
	}
	// The registry is read alongside the staged listing, but with nothing
	// staged its answer is never consulted: a broken one stays silent.
	h = newHookWorld(dir, env, nil, errors.New("no registry here"))
	if code := RunHook([]string{PreCommit}, h.World); code != 0 || h.out.Len()+h.errb.Len() != 0 {
		t.Fatalf("empty staged set, broken registry: code %d out %q err %q", code, h.out.String(), h.errb.String())
	}
	mustWrite(t, filepath.Join(dir, "doc.md"), "two\n")
	gitT(t, dir, env, "add", "doc.md")
	h = newHookWorld(dir, env, nil, errors.New("no registry here"))
	if code := RunHook([]string{PreCommit}, h.World); code != 2 || h.errb.String() != "pre-commit: no registry here\n" {
		t.Fatalf("registry error: code %d stderr %q", code, h.errb.String())
	}
	h = newHookWorld(dir, env, fakeRegistry{err: errors.New("bad declaration\n")}, nil)
	if code := RunHook([]string{PreCommit}, h.World); code != 2 || h.errb.String() != "pre-commit: bad declaration\n" {
		t.Fatalf("select error: code %d stderr %q", code, h.errb.String())
	}
	h = newHookWorld(filepath.Join(dir, "sub"), env, fakeRegistry{}, nil)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	if code := RunHook([]string{PreCommit}, h.World); code != 2 || !strings.Contains(h.errb.String(), "run it at the work-tree top ("+dir+")") {
		t.Fatalf("below the top: code %d stderr %q", code, h.errb.String())
	}
	outside := t.TempDir()
	env = append(env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(outside))
	h = newHookWorld(outside, env, fakeRegistry{}, nil)
	if code := RunHook([]string{PreCommit}, h.World); code != 2 || h.errb.String() != "pre-commit: "+outside+" is not inside a git repository\n" {
		t.Fatalf("outside: code %d stderr %q", code, h.errb.String())
	}
	h = newHookWorld(outside, env, fakeRegistry{}, nil)
	if code := RunHook([]string{CommitMsg, "m"}, h.World); code != 2 || h.errb.String() != "commit-msg: "+outside+" is not inside a git repository\n" {
		t.Fatalf("commit-msg outside: code %d stderr %q", code, h.errb.String())
	}

	// A conflict whose ours is gone refuses, naming the path.
	gitT(t, dir, env, "commit", "-q", "-m", "two")
	gitT(t, dir, env, "checkout", "-q", "-b", "side")
	mustWrite(t, filepath.Join(dir, "doc.md"), "side\n")
	gitT(t, dir, env, "commit", "-q", "-am", "side")
	gitT(t, dir, env, "checkout", "-q", "-")
	gitT(t, dir, env, "rm", "-q", "doc.md")
	gitT(t, dir, env, "commit", "-q", "-m", "drop")
	cmd := exec.Command("git", "merge", "-q", "side")
	cmd.Dir, cmd.Env = dir, env
	if cmd.Run() == nil {
		t.Fatal("no conflict")
	}
	// The refusal comes before the registry's answer is consulted: a
	// broken registry does not change it.
	h = newHookWorld(dir, env, nil, errors.New("no registry here"))
	want := "pre-commit: unmerged with no version of ours to judge: doc.md\n  resolve each (git add or git rm) and commit again\n"
	if code := RunHook([]string{PreCommit}, h.World); code != 2 || h.errb.String() != want || len(h.runs) != 0 {
		t.Fatalf("conflict: code %d stderr %q, want %q", code, h.errb.String(), want)
	}
}

// assertion F: commit-msg runs the commit-msg members in process with the
// message file, and is silent with none.
func TestCommitMsgInProcess(t *testing.T) {
	dir, env := scratchRepo(t)
	all := []Member{gateMember("check-a", registry.TierPrecommit), gateMember("check-msg", registry.TierCommitMsg), {Name: "check-gone", Kind: registry.Unresolved, Tier: registry.TierCommitMsg}, gateMember("check-msg", registry.TierCommitMsg)}
	h := newHookWorld(dir, env, fakeRegistry{all: all}, nil)
	if code := RunHook([]string{CommitMsg, ".git/COMMIT_EDITMSG"}, h.World); code != 0 || h.out.String() != "commit-msg: 1 gate(s) passed.\n" {
		t.Fatalf("code %d stdout %q stderr %q", code, h.out.String(), h.errb.String())
	}
	if len(h.runs) != 1 || h.runs[0].Name != "check-msg" || !reflect.DeepEqual(h.runs[0].Args, []string{".git/COMMIT_EDITMSG"}) || h.runs[0].Tree != nil {
		t.Fatalf("runs %+v", h.runs)
	}
	h = newHookWorld(dir, env, fakeRegistry{all: all[:1]}, nil)
	if code := RunHook([]string{CommitMsg, "m"}, h.World); code != 0 || h.out.Len()+h.errb.Len() != 0 {
		t.Fatalf("none: code %d out %q", code, h.out.String())
	}
	h = newHookWorld(dir, env, fakeRegistry{err: errors.New("unreadable\n")}, nil)
	if code := RunHook([]string{CommitMsg, "m"}, h.World); code != 2 || h.errb.String() != "commit-msg: unreadable\n" {
		t.Fatalf("members error: code %d stderr %q", code, h.errb.String())
	}
	h = newHookWorld(dir, env, nil, errors.New("no registry"))
	if code := RunHook([]string{CommitMsg, "m"}, h.World); code != 2 || h.errb.String() != "commit-msg: no registry\n" {
		t.Fatalf("registry error: code %d stderr %q", code, h.errb.String())
	}
}

// assertion G: dispatch answers each unrunnable member in words.
func TestDispatchKinds(t *testing.T) {
	dir := t.TempDir()
	r := runner{dir: dir}
	for _, c := range []struct {
		m    Member
		want string
	}{
		{Member{Name: "check-p", Kind: registry.Shell, Problem: "two spellings\n"}, "two spellings\n"},
		{Member{Name: "check-amb", Kind: registry.Ambiguous, Decl: "scripts/check-amb"}, "check-amb: ambiguous dispatch: scripts/check-amb declares it under both spellings; keep one\n"},
		{Member{Name: "check-gone", Kind: registry.Unresolved}, "check-gone resolves to no check-gone.sh or check-gone.gate in the gates dir or any kit root's checks/\n"},
	} {
		code, out := r.dispatch(c.m, nil)
		if code != 2 || string(out) != c.want {
			t.Errorf("%s: code %d out %q, want 2 %q", c.m.Name, code, out, c.want)
		}
	}
	code, out := r.dispatch(Member{Name: "check-missing", Kind: registry.Shell, Decl: "scripts/check-missing.sh"}, nil)
	if code != 2 || !strings.HasPrefix(string(out), "check-missing: ") {
		t.Fatalf("a missing script: code %d out %q", code, out)
	}
}

// assertion A, B, C, D: --measure-commit runs the plan over the staged
// snapshot three times and reports, or reports the failure.
func TestRunMeasure(t *testing.T) {
	dir, env := scratchRepo(t)
	h := newHookWorld(dir, env, fakeRegistry{}, nil)
	if code := RunMeasure([]string{"x"}, h.World); code != 2 || h.errb.String() != "measure-commit: takes no operand, got \"x\"\n"+MeasureUsage+"\n" {
		t.Fatalf("operand: code %d stderr %q", code, h.errb.String())
	}
	reg := fakeRegistry{selected: []Member{gateMember("check-a", registry.TierPrecommit)}}
	h = newHookWorld(dir, env, reg, nil, "GATE_SDK_VERBOSE=1")
	if code := RunMeasure(nil, h.World); code != 0 {
		t.Fatalf("code %d stderr %q", code, h.errb.String())
	}
	re := regexp.MustCompile(`^measure-commit: \d+ms median of 3 \(\d+ms, \d+ms, \d+ms\) — 1 pre-commit member\(s\) over 2 tracked path\(s\), every path selected\nhost: \S+ \S+, \d+ logical CPU\(s\)\n$`)
	if !re.MatchString(h.out.String()) || len(h.runs) != 3 {
		t.Fatalf("report %q after %d runs", h.out.String(), len(h.runs))
	}
	if h.runs[0].Tree == h.runs[1].Tree || h.reads["check-a"] != "one\n" {
		t.Fatal("each run did not read the index afresh")
	}
	reg.selected = []Member{gateMember("check-red", registry.TierPrecommit)}
	h = newHookWorld(dir, env, reg, nil)
	if code := RunMeasure(nil, h.World); code != 1 || h.out.String() != "doc.md:1: red\n\npre-commit: check-red failed (see above).\n"+BypassLine+"\n" {
		t.Fatalf("red: code %d stdout %q", code, h.out.String())
	}
	h = newHookWorld(dir, env, nil, errors.New("no registry"))
	if code := RunMeasure(nil, h.World); code != 2 || h.errb.String() != "measure-commit: no registry\n" {
		t.Fatalf("registry: code %d stderr %q", code, h.errb.String())
	}
	h = newHookWorld(dir, env, fakeRegistry{err: errors.New("bad\n")}, nil)
	if code := RunMeasure(nil, h.World); code != 2 || h.errb.String() != "measure-commit: bad\n" {
		t.Fatalf("select: code %d stderr %q", code, h.errb.String())
	}
}

// The verbose reader says its fallbacks on stderr; the quiet one nowhere.
func TestWorldGitDebug(t *testing.T) {
	var errb bytes.Buffer
	w := World{Stderr: &errb, Env: envOf("GATE_SDK_VERBOSE=1")}
	if w.git().Debug != &errb {
		t.Fatal("GATE_SDK_VERBOSE did not route the debug line to stderr")
	}
	w.Env = envOf()
	if w.git().Debug != nil {
		t.Fatal("a quiet run has a debug writer")
	}
}

// sameDir: one spelling, two spellings of one directory, two directories.
func TestSameDir(t *testing.T) {
	a := t.TempDir()
	b := t.TempDir()
	link := filepath.Join(b, "link")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	if !sameDir("/no/such/dir", "/no/such/dir") || !sameDir(a, link) || sameDir(a, b) || sameDir(a, "/no/such/dir") {
		t.Fatal("sameDir misjudged")
	}
}
