package e2e

// The git-hook family and the consumer-smoke family, driven the way git and
// an adopter drive them: placed hooks under a real git commit, the install
// arm, the consumer smoke and the demo.

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// baseEnv is a hermetic environment: no git or gate-sdk variable of the
// caller's, no global or system git config, a fixed identity.
func baseEnv(t *testing.T, extra ...string) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "GATE_SDK_") || strings.HasPrefix(kv, "SMOKE_") || strings.HasPrefix(kv, "CLAUDECODE=") {
			continue
		}
		env = append(env, kv)
	}
	home := t.TempDir()
	// No Stop here starts a tree watcher that would outlive the test.
	env = append(env, "GATE_SDK_TREE_WATCH=off")
	env = append(env, "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
	return append(env, extra...)
}

type result struct {
	code           int
	stdout, stderr string
}

func run(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	var o, e bytes.Buffer
	var err error
	// A binary this test process has just written may still be open for
	// writing in a child another parallel test forked meanwhile (the fd
	// lives until that child's exec closes it); the kernel then answers
	// exec with ETXTBSY. That is the test harness's race, not the
	// program's, so the start is tried again a few times.
	for try := 0; ; try++ {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		o.Reset()
		e.Reset()
		cmd.Stdout, cmd.Stderr = &o, &e
		err = cmd.Run()
		if err == nil || !errors.Is(err, syscall.ETXTBSY) || try == 20 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		code = ee.ExitCode()
	}
	return result{code: code, stdout: o.String(), stderr: e.String()}
}

func must(t *testing.T, r result, what string) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", what, r.code, r.stdout, r.stderr)
	}
}

func write(t *testing.T, path, body string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
}

// consumer is a scratch repository with a gates binary placed at bin/gates
// and an empty gate-sdk root, committed.
type consumer struct {
	t   *testing.T
	dir string
	env []string
}

func newConsumer(t *testing.T) *consumer {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := &consumer{t: t, dir: dir, env: baseEnv(t)}
	c.git("init", "-q")
	data, err := os.ReadFile(binPath)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "bin/gates"), string(data), 0o755)
	write(t, filepath.Join(dir, ".gitignore"), "/bin/\n", 0o644)
	write(t, filepath.Join(dir, "gate-sdk/README.md"), "kit root\n", 0o644)
	return c
}

func (c *consumer) git(args ...string) result {
	c.t.Helper()
	r := run(c.t, c.dir, c.env, "git", args...)
	must(c.t, r, "git "+strings.Join(args, " "))
	return r
}

func (c *consumer) gates(args ...string) result {
	c.t.Helper()
	return run(c.t, c.dir, c.env, filepath.Join(c.dir, "bin/gates"), args...)
}

// gate writes scripts/<name>.sh: it prints "<name> ran", touches
// .tmp/ran-<name>, prints body's output and exits with code.
func (c *consumer) gate(name, manifest, body string, code int) {
	c.t.Helper()
	script := fmt.Sprintf("#!/usr/bin/env bash\n# graph: %s\necho '%s ran'\nmkdir -p .tmp && : > .tmp/ran-%s\n%s\nexit %d\n", manifest, name, name, body, code)
	write(c.t, filepath.Join(c.dir, "scripts", name+".sh"), script, 0o755)
}

func (c *consumer) registry(names ...string) {
	c.t.Helper()
	write(c.t, filepath.Join(c.dir, "scripts/gates.list"), strings.Join(names, "\n")+"\n", 0o644)
}

func (c *consumer) ran(name string) bool {
	_, err := os.Stat(filepath.Join(c.dir, ".tmp", "ran-"+name))
	return err == nil
}

func (c *consumer) install() {
	c.t.Helper()
	r := c.gates("--install-hooks")
	must(c.t, r, "--install-hooks")
	want := "Active hooks:\n  commit-msg\n  post-applypatch\n  post-commit\n  post-merge\n  post-rewrite\n  pre-commit\n  pre-merge-commit\n  pre-push\n"
	if r.stdout != want {
		c.t.Fatalf("--install-hooks receipt = %q, want %q", r.stdout, want)
	}
}

const precommit = "couples=*.md dir=one valve=none tier=precommit"

func threeGates(t *testing.T) *consumer {
	c := newConsumer(t)
	c.gate("check-a", precommit, "", 0)
	c.gate("check-b", precommit, "echo 'doc.md:1: the second gate objects'", 1)
	c.gate("check-c", precommit, "", 0)
	c.registry("check-a", "check-b", "check-c")
	write(t, filepath.Join(c.dir, ".gitignore"), "/bin/\n/.tmp/\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "seed")
	return c
}

func TestPreCommitReportsEveryFailure(t *testing.T) {
	t.Parallel()
	c := threeGates(t)
	c.gate("check-c", precommit, "echo 'doc.md:1: the third gate objects too'", 1)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "a third red gate")
	c.install()
	write(t, filepath.Join(c.dir, "doc.md"), "hello\n", 0o644)
	c.git("add", "doc.md")
	r := run(t, c.dir, c.env, "git", "commit", "-q", "-m", "add doc")
	want := "check-b ran\ndoc.md:1: the second gate objects\n\npre-commit: check-b failed (see above).\n" +
		"check-c ran\ndoc.md:1: the third gate objects too\n\npre-commit: check-c failed (see above).\n" +
		"pre-commit: 2 of 3 gate(s) failed: check-b, check-c.\n  Bypass once (use sparingly): git commit --no-verify\n"
	if r.code != 1 || r.stdout+r.stderr != want {
		t.Fatalf("git commit: exit %d, output %q; want exit 1, %q", r.code, r.stdout+r.stderr, want)
	}
	if !c.ran("check-a") || !c.ran("check-b") || !c.ran("check-c") {
		t.Fatalf("ran a=%v b=%v c=%v; want all three", c.ran("check-a"), c.ran("check-b"), c.ran("check-c"))
	}
	if out := c.git("rev-list", "--count", "HEAD").stdout; strings.TrimSpace(out) != "2" {
		t.Fatalf("a commit landed through the refusal: %s commits", out)
	}
}

func TestPreCommitSummaryAndVerbose(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	c.gate("check-a", precommit, "echo 'A: clean (1 file)'", 0)
	c.gate("check-yml", "couples=*.yml dir=one valve=none tier=precommit", "", 0)
	c.gate("check-align", "couples=*.md dir=one valve=none tier=align-only", "", 0)
	c.registry("check-a", "check-yml", "check-align", "check-a")
	write(t, filepath.Join(c.dir, "doc.md"), "hello\n", 0o644)
	c.git("add", "-A")
	r := c.gates("--git-hook", "pre-commit")
	if r.code != 0 || r.stdout != "pre-commit: 1 gate(s) passed.\n" {
		t.Fatalf("hook: exit %d, stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	c.env = append(c.env, "GATE_SDK_VERBOSE=1")
	r = c.gates("--git-hook", "pre-commit")
	want := "check-a ran\nA: clean (1 file)\n  PASS: check-a\npre-commit: 1 gate(s) passed.\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("verbose hook: exit %d, stdout %q, want %q", r.code, r.stdout, want)
	}
}

func TestPreCommitEmptyStagedSet(t *testing.T) {
	t.Parallel()
	c := threeGates(t)
	r := c.gates("--git-hook", "pre-commit")
	if r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("empty staged set: exit %d, stdout %q, stderr %q; want 0 and nothing", r.code, r.stdout, r.stderr)
	}
	if c.ran("check-a") {
		t.Fatal("a gate ran for an empty staged set")
	}
}

func TestGitHookUsage(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	for _, args := range [][]string{{"--git-hook"}, {"--git-hook", "post-receive"}, {"--git-hook", "post-rewrite"}, {"--git-hook", "pre-commit", "extra"}, {"--git-hook", "commit-msg"}, {"--git-hook", "commit-msg", "a", "b"}} {
		r := c.gates(args...)
		if r.code != 2 || r.stderr != "usage: --git-hook pre-commit | pre-merge-commit | commit-msg <message-file> | post-commit | post-rewrite <command> | post-merge <squash> | post-applypatch | pre-push <remote> <url>\n" || r.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and the usage line", args, r.code, r.stdout, r.stderr)
		}
	}
}

func TestPreCommitRefusals(t *testing.T) {
	t.Parallel()
	t.Run("unreadable declaration", func(t *testing.T) {
		c := newConsumer(t)
		write(t, filepath.Join(c.dir, "scripts/check-x.sh"), "#!/usr/bin/env bash\n# no manifest here\nexit 0\n", 0o755)
		c.registry("check-x")
		write(t, filepath.Join(c.dir, "doc.md"), "x\n", 0o644)
		c.git("add", "-A")
		r := c.gates("--git-hook", "pre-commit")
		if r.code != 2 || !strings.Contains(r.stderr, "check-x") {
			t.Fatalf("exit %d stderr %q; want 2 naming the member", r.code, r.stderr)
		}
	})
	t.Run("unresolved member fails at its place", func(t *testing.T) {
		c := newConsumer(t)
		c.gate("check-a", precommit, "", 0)
		c.registry("check-a", "check-missing")
		write(t, filepath.Join(c.dir, "doc.md"), "x\n", 0o644)
		c.git("add", "-A")
		r := c.gates("--git-hook", "pre-commit")
		if r.code != 1 || !strings.Contains(r.stdout, "pre-commit: check-missing failed (see above).") || !c.ran("check-a") {
			t.Fatalf("exit %d stdout %q; want 1 with check-missing failing after check-a", r.code, r.stdout)
		}
	})
	t.Run("outside a repository", func(t *testing.T) {
		dir := t.TempDir()
		r := run(t, dir, baseEnv(t, "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir)), binPath, "--git-hook", "pre-commit")
		if r.code != 2 {
			t.Fatalf("exit %d, want 2", r.code)
		}
	})
}

func TestPreCommitStagedOperands(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	c.gate("check-st", "couples=docs/* dir=one valve=none tier=precommit mode=staged", `printf 'arg:%s\n' "$@"`, 0)
	c.registry("check-st")
	write(t, filepath.Join(c.dir, "docs/a.md"), "a\n", 0o644)
	write(t, filepath.Join(c.dir, "docs/b.md"), "b\n", 0o644)
	if err := os.Symlink("a.md", filepath.Join(c.dir, "docs/link.md")); err != nil {
		t.Fatal(err)
	}
	c.git("add", "-A")
	c.env = append(c.env, "GATE_SDK_VERBOSE=1")
	r := c.gates("--git-hook", "pre-commit")
	if r.code != 0 || !strings.Contains(r.stdout, "arg:docs/a.md\narg:docs/b.md\n  PASS: check-st\n") || strings.Contains(r.stdout, "link.md") {
		t.Fatalf("exit %d stdout %q; want the two regular files as operands, never the symlink", r.code, r.stdout)
	}
	// Only the symlink staged: no regular-file operand, so the member does not run.
	c.git("commit", "-q", "--no-verify", "-m", "seed")
	if err := os.Remove(filepath.Join(c.dir, "docs/link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b.md", filepath.Join(c.dir, "docs/link.md")); err != nil {
		t.Fatal(err)
	}
	c.git("add", "-A")
	r = c.gates("--git-hook", "pre-commit")
	if r.code != 0 || r.stdout != "pre-commit: 0 gate(s) passed.\n" {
		t.Fatalf("symlink-only: exit %d stdout %q", r.code, r.stdout)
	}
}

func TestCommitMsgHook(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	c.gate("check-a", precommit, "", 0)
	c.registry("check-a")
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "seed")
	c.install()
	// No commit-msg member: the hook is silent, and the commit lands.
	write(t, filepath.Join(c.dir, "doc.md"), "x\n", 0o644)
	c.git("add", "-A")
	r := run(t, c.dir, c.env, "git", "commit", "-q", "-m", "add doc")
	if r.code != 0 || r.stdout+r.stderr != "pre-commit: 1 gate(s) passed.\n" {
		t.Fatalf("commit: exit %d output %q", r.code, r.stdout+r.stderr)
	}
	c.gate("check-msg", "couples=scripts/gates.list dir=one valve=none tier=commit-msg", `if grep -q WIP "$1"; then echo "$1:1: a WIP subject"; exit 1; fi`, 0)
	c.registry("check-a", "check-msg")
	c.git("add", "-A")
	r = run(t, c.dir, c.env, "git", "commit", "-q", "-m", "WIP register the message gate")
	if r.code != 1 || !strings.Contains(r.stdout+r.stderr, "a WIP subject\n\ncommit-msg: check-msg failed (see above).\n  Bypass once (use sparingly): git commit --no-verify\n") {
		t.Fatalf("WIP commit: exit %d output %q", r.code, r.stdout+r.stderr)
	}
	r = run(t, c.dir, c.env, "git", "commit", "-q", "-m", "register the message gate")
	if r.code != 0 || !strings.Contains(r.stdout+r.stderr, "commit-msg: 1 gate(s) passed.\n") {
		t.Fatalf("clean commit: exit %d output %q", r.code, r.stdout+r.stderr)
	}
}

func TestLinkedWorktreePin(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	c.gate("check-top", precommit, `git -C sub rev-parse --show-toplevel > "$(git rev-parse --show-toplevel)/.tmp/top"; env | grep -c '^GIT_INDEX_FILE=' > .tmp/index-set || true`, 0)
	c.registry("check-top")
	write(t, filepath.Join(c.dir, "sub/keep.txt"), "k\n", 0o644)
	write(t, filepath.Join(c.dir, ".gitignore"), "/bin/\n/.tmp/\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "seed")
	c.install()
	wt := filepath.Join(filepath.Dir(c.dir), filepath.Base(c.dir)+"-wt")
	c.git("worktree", "add", "-q", wt)
	t.Cleanup(func() { os.RemoveAll(wt) })
	data, _ := os.ReadFile(binPath)
	write(t, filepath.Join(wt, "bin/gates"), string(data), 0o755)
	write(t, filepath.Join(wt, "doc.md"), "x\n", 0o644)
	wtEnv := c.env
	run(t, wt, wtEnv, "git", "add", "doc.md")
	r := run(t, wt, wtEnv, "git", "commit", "-q", "-m", "from the worktree")
	if r.code != 0 {
		t.Fatalf("worktree commit: exit %d %s%s", r.code, r.stdout, r.stderr)
	}
	top, err := os.ReadFile(filepath.Join(wt, ".tmp/top"))
	if err != nil {
		t.Fatalf("the member did not run in the worktree: %v", err)
	}
	if got := strings.TrimSpace(string(top)); got != wt {
		t.Fatalf("a member's git -C sub saw toplevel %q, want the worktree %q", got, wt)
	}
}

func TestLauncherRefusals(t *testing.T) {
	t.Parallel()
	c := threeGates(t)
	hook := filepath.Join(c.dir, "pre-commit")
	data, _ := os.ReadFile(binPath)
	write(t, hook, string(data), 0o755)
	t.Run("bin stem is a served hook", func(t *testing.T) {
		r := run(t, c.dir, append(c.env, "GATE_SDK_NATIVE_BIN=x/commit-msg"), hook)
		if r.code != 2 || !strings.Contains(r.stderr, "commit-msg") {
			t.Fatalf("exit %d stderr %q", r.code, r.stderr)
		}
	})
	t.Run("binary cannot start", func(t *testing.T) {
		r := run(t, c.dir, append(c.env, "GATE_SDK_NATIVE_BIN=no/such/gates"), hook)
		if r.code != 2 || !strings.Contains(r.stderr, filepath.Join(c.dir, "no/such/gates")) || !strings.Contains(r.stderr, "git commit --no-verify") {
			t.Fatalf("exit %d stderr %q", r.code, r.stderr)
		}
	})
	t.Run("knob twice in one file", func(t *testing.T) {
		write(t, filepath.Join(c.dir, "scripts/gate-sdk-config.knobs"), "GATE_SDK_NATIVE_BIN = bin/gates\nGATE_SDK_NATIVE_BIN = bin/gates\n", 0o644)
		defer os.Remove(filepath.Join(c.dir, "scripts/gate-sdk-config.knobs"))
		r := run(t, c.dir, c.env, hook)
		if r.code != 2 || !strings.Contains(r.stderr, "gate-sdk-config.knobs:2") {
			t.Fatalf("exit %d stderr %q", r.code, r.stderr)
		}
	})
	t.Run("unknown knob line is never read", func(t *testing.T) {
		stub := filepath.Join(c.dir, "stub-gates")
		write(t, stub, "#!/bin/sh\necho \"stub $*\"\nexit 0\n", 0o755)
		write(t, filepath.Join(c.dir, "scripts/gate-sdk-config.knobs"), "GATE_SDK_FROM_A_NEWER_TABLE = yes\nGATE_SDK_NATIVE_BIN = stub-gates\nnot even = a [valid line\n", 0o644)
		defer os.Remove(filepath.Join(c.dir, "scripts/gate-sdk-config.knobs"))
		r := run(t, c.dir, c.env, hook)
		if r.code != 0 || r.stdout != "stub --git-hook pre-commit\n" {
			t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
		}
	})
}

func digest(t *testing.T, p string) [32]byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(data)
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestInstallHooksRefresh(t *testing.T) {
	t.Parallel()
	c := threeGates(t)
	c.install()
	hooksDir := filepath.Join(c.dir, ".git/gate-hooks")
	if got := filepath.Join(c.dir, strings.TrimSpace(c.git("config", "core.hooksPath").stdout)); got != hooksDir {
		t.Fatalf("core.hooksPath = %q, want %q", got, hooksDir)
	}
	// Rebuild: a new file, different bytes, renamed over the old one.
	bin := filepath.Join(c.dir, "bin/gates")
	data, _ := os.ReadFile(binPath)
	next := filepath.Join(c.dir, "bin/gates.next")
	write(t, next, string(data)+"rebuilt", 0o755)
	if err := os.Rename(next, bin); err != nil {
		t.Fatal(err)
	}
	if digest(t, filepath.Join(hooksDir, "pre-commit")) == digest(t, bin) {
		t.Fatal("the hook followed a replace-by-rename; the test cannot tell a refresh happened")
	}
	r := c.gates("--install-hooks", "--refresh")
	if r.code != 0 || r.stdout != "install-hooks: refreshed "+hooksDir+"\n" {
		t.Fatalf("--refresh: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	for _, h := range []string{"pre-commit", "commit-msg"} {
		if digest(t, filepath.Join(hooksDir, h)) != digest(t, bin) {
			t.Errorf("%s is not byte-equal to the rebuilt binary", h)
		}
	}
	before := map[string][32]byte{}
	for _, h := range []string{"pre-commit", "commit-msg"} {
		before[h] = digest(t, filepath.Join(hooksDir, h))
	}
	// A source that does not exist: refused, hooks and directory untouched.
	r = run(t, c.dir, append(c.env, "GATE_SDK_NATIVE_BIN=bin/absent"), bin, "--install-hooks", "--refresh")
	if r.code != 2 {
		t.Fatalf("--refresh from an absent source: exit %d, want 2", r.code)
	}
	if got := strings.Join(listDir(t, hooksDir), " "); got != "commit-msg post-applypatch post-commit post-merge post-rewrite pre-commit pre-merge-commit pre-push" {
		t.Fatalf("hooks dir holds %q after a refused refresh", got)
	}
	for h, d := range before {
		if digest(t, filepath.Join(hooksDir, h)) != d {
			t.Errorf("%s changed under a refused refresh", h)
		}
	}
	// Off: unset the key; --refresh is then a silent no-op.
	c.git("config", "--unset", "core.hooksPath")
	r = c.gates("--install-hooks", "--refresh")
	if r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("--refresh when not opted in: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if st := c.git("status", "--porcelain").stdout; st != "" {
		t.Fatalf("opting in and out changed tracked state: %q", st)
	}
	// Below the work-tree top: the run enters the top first (walk.RunDir),
	// so an opted-in clone is refreshed as from the top.
	c.install()
	r = run(t, filepath.Join(c.dir, "scripts"), c.env, bin, "--install-hooks", "--refresh")
	if r.code != 0 || !strings.Contains(r.stdout, "install-hooks: refreshed ") {
		t.Fatalf("--refresh below the top: exit %d %q", r.code, r.stdout)
	}
}

func TestInstallHooksRefusals(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	for _, args := range [][]string{{"--install-hooks", "--bogus"}, {"--install-hooks", "--refresh", "x"}, {"--install-hooks", "x"}} {
		if r := c.gates(args...); r.code != 2 || !strings.Contains(r.stderr, "usage: --install-hooks [--refresh | --take-over | --restore]") {
			t.Errorf("%v: exit %d stderr %q", args, r.code, r.stderr)
		}
	}
	r := run(t, c.dir, append(c.env, "GATE_SDK_NATIVE_BIN=bin/absent"), filepath.Join(c.dir, "bin/gates"), "--install-hooks")
	if r.code != 2 {
		t.Fatalf("absent binary: exit %d, want 2", r.code)
	}
	if _, err := os.Stat(filepath.Join(c.dir, ".git/gate-hooks")); err == nil {
		t.Fatal("a refused install placed a hooks directory")
	}
	if r := run(t, c.dir, c.env, "git", "config", "core.hooksPath"); r.code == 0 {
		t.Fatal("a refused install set core.hooksPath")
	}
	// The identity rung: a consumer .sh shadow of check-identity wins, and its finding is the arm's status.
	c.gate("check-identity", "couples=scripts/identity.conf dir=one valve=none tier=precommit", "echo 'identity: wrong committer email'", 1)
	r = c.gates("--install-hooks")
	if r.code != 1 || !strings.Contains(r.stdout, "wrong committer email") || !strings.Contains(r.stdout, "Active hooks:") {
		t.Fatalf("identity rung: exit %d stdout %q", r.code, r.stdout)
	}
}

var measureLine = regexp.MustCompile(`^measure-commit: [0-9]+ms median of 3 \([0-9]+ms, [0-9]+ms, [0-9]+ms\) — 1 pre-commit member\(s\) over [0-9]+ tracked path\(s\), every path selected\nhost: [a-z0-9]+ [a-z0-9]+, [0-9]+ logical CPU\(s\)\n$`)

func TestMeasureCommit(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	c.gate("check-a", precommit, "", 0)
	c.registry("check-a")
	write(t, filepath.Join(c.dir, "doc.md"), "x\n", 0o644)
	c.git("add", "-A")
	r := c.gates("--measure-commit")
	if r.code != 0 || !measureLine.MatchString(r.stdout) {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := c.gates("--measure-commit", "x"); r.code != 2 {
		t.Fatalf("an operand: exit %d, want 2", r.code)
	}
	// Below the top the run enters the top first, and measures as there.
	if r := run(t, filepath.Join(c.dir, "scripts"), c.env, filepath.Join(c.dir, "bin/gates"), "--measure-commit"); r.code != 0 || !measureLine.MatchString(r.stdout) {
		t.Fatalf("below the top: exit %d stdout %q stderr %q, want the top's measure", r.code, r.stdout, r.stderr)
	}
	c.gate("check-a", precommit, "echo 'doc.md:1: red'", 1)
	r = c.gates("--measure-commit")
	if r.code != 1 || strings.Contains(r.stdout, "measure-commit:") || !strings.Contains(r.stdout, "pre-commit: check-a failed (see above).") {
		t.Fatalf("red member: exit %d stdout %q", r.code, r.stdout)
	}
}

// smokeEnv runs the arms from the module root, pointed at its kit and the
// test's binary.
func smokeEnv(t *testing.T) []string {
	return baseEnv(t, "GATE_SDK_ROOT=kits/gate-sdk", "GATE_SDK_NATIVE_BIN="+binPath, "TMPDIR="+t.TempDir())
}

func TestConsumerSmoke(t *testing.T) {
	t.Parallel()
	r := run(t, moduleRoot, smokeEnv(t), binPath, "--run-consumer-smoke")
	if r.code != 0 || !regexp.MustCompile(`(?m)^CONSUMER-SMOKE: clean \([0-9]+ kits installed, [0-9]+ violations fired, [0-9]+ gates registered, [0-9]+ self-declared, [0-9]+ hand-declared\)$`).MatchString(r.stdout) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, bad := range [][]string{{"--run-consumer-smoke", "--bogus"}, {"--run-consumer-smoke", "no-such-root"}, {"--run-consumer-smoke", "internal"}} {
		if r := run(t, moduleRoot, smokeEnv(t), binPath, bad...); r.code != 2 || !strings.HasPrefix(r.stderr, "run-consumer-smoke: ") {
			t.Errorf("%v: exit %d stderr %q; want 2", bad, r.code, r.stderr)
		}
	}
}

func TestDemo(t *testing.T) {
	t.Parallel()
	r := run(t, moduleRoot, smokeEnv(t), binPath, "--run-demo")
	if r.code != 0 || !strings.Contains(r.stdout, "DEMO: clean") || !strings.Contains(r.stdout, "Bypass once (use sparingly): git commit --no-verify") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	// The demo walks the README's adopter path, in order: init, the
	// battery, init --hooks, and the --restore undo; never the smoke
	// installer or a hand-run git config.
	at := 0
	for _, step := range []string{"| init: wrote scripts/gates.list (", "| All ", "bin/gates init --hooks", "pre-commit: check-action-pinning failed", "bin/gates --install-hooks --restore", "| install-hooks: restored", "DEMO: clean"} {
		i := strings.Index(r.stdout[at:], step)
		if i < 0 {
			t.Fatalf("the demo lacks %q after byte %d:\n%s", step, at, r.stdout)
		}
		at += i + len(step)
	}
	for _, gone := range []string{"smoke/install.sh", "config --unset"} {
		if strings.Contains(r.stdout, gone) {
			t.Errorf("the demo still shows %q", gone)
		}
	}
	if r := run(t, moduleRoot, smokeEnv(t), binPath, "--run-demo", "x"); r.code != 2 || r.stderr != "usage: --run-demo\n" {
		t.Fatalf("an operand: exit %d stderr %q", r.code, r.stderr)
	}
}
