package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/ciskip"
)

// TestPlacedHooksSurviveABrokenBinary pins item 11 end to end: the placed
// hooks share no inode with bin/gates, and with bin/gates emptied or
// truncated a violating commit is refused with a message naming the
// binary, never passed in silence.
func TestPlacedHooksSurviveABrokenBinary(t *testing.T) {
	t.Parallel()
	c := threeGates(t)
	c.install()
	bin := filepath.Join(c.dir, "bin/gates")
	hooksDir := filepath.Join(c.dir, strings.TrimSpace(c.git("config", "core.hooksPath").stdout))
	bi, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"pre-commit", "commit-msg"} {
		hi, err := os.Stat(filepath.Join(hooksDir, h))
		if err != nil {
			t.Fatal(err)
		}
		if os.SameFile(bi, hi) {
			t.Fatalf("%s shares bin/gates' inode", h)
		}
	}
	whole, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string][]byte{"empty": nil, "truncated": whole[:len(whole)/4]} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(bin, body, 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(c.dir, "doc.md"), "hello "+name+"\n", 0o644)
			c.git("add", "doc.md")
			r := run(t, c.dir, c.env, "git", "commit", "-q", "-m", "docs: add doc")
			if r.code == 0 {
				t.Fatalf("the commit passed with a %s binary:\n%s%s", name, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stderr+r.stdout, bin) || !strings.Contains(r.stderr+r.stdout, "git commit --no-verify") {
				t.Fatalf("the refusal does not name the binary and the bypass:\n%s%s", r.stdout, r.stderr)
			}
			if out := c.git("rev-list", "--count", "HEAD").stdout; strings.TrimSpace(out) != "1" {
				t.Fatalf("a commit landed: %s commits", out)
			}
		})
	}
	// Placement refuses a binary that does not answer, placing nothing.
	if err := os.WriteFile(bin, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	r := run(t, c.dir, c.env, binPath, "--install-hooks")
	if r.code != 2 || !strings.Contains(r.stderr, "does not answer as the gates binary") {
		t.Fatalf("--install-hooks over an empty binary: exit %d %q", r.code, r.stderr)
	}
}

// TestInstallHooksNeverSilentlyTakesOver pins item 13: an existing
// core.hooksPath (husky's, a team's), or active hooks in git's own hooks
// directory, refuse a bare opt-in at exit 2 naming them and the choices;
// --take-over records what it replaced and --restore puts it back.
func TestInstallHooksNeverSilentlyTakesOver(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	c.git("config", "core.hooksPath", ".husky/_")
	r := c.gates("--install-hooks")
	if r.code != 2 || !strings.Contains(r.stderr, "core.hooksPath is already .husky/_") ||
		!strings.Contains(r.stderr, "chain:") || !strings.Contains(r.stderr, "--take-over") {
		t.Fatalf("bare opt-in over husky: exit %d stderr %q", r.code, r.stderr)
	}
	if v := strings.TrimSpace(c.git("config", "core.hooksPath").stdout); v != ".husky/_" {
		t.Fatalf("a refused opt-in changed core.hooksPath to %q", v)
	}
	if _, err := os.Stat(filepath.Join(c.dir, ".git/gate-hooks")); err == nil {
		t.Fatal("a refused opt-in placed hooks")
	}
	r = c.gates("--install-hooks", "--take-over")
	if r.code != 0 || !strings.Contains(r.stdout, "Active hooks:") {
		t.Fatalf("--take-over: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if v := strings.TrimSpace(c.git("config", "gates.previousHooksPath").stdout); v != ".husky/_" {
		t.Fatalf("the take-over recorded %q", v)
	}
	// Re-running the opt-in is not a second take-over.
	if r := c.gates("--install-hooks"); r.code != 0 {
		t.Fatalf("re-run after a take-over: exit %d %q", r.code, r.stderr)
	}
	r = c.gates("--install-hooks", "--restore")
	if r.code != 0 || !strings.Contains(r.stdout, "core.hooksPath is .husky/_ again") {
		t.Fatalf("--restore: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if v := strings.TrimSpace(c.git("config", "core.hooksPath").stdout); v != ".husky/_" {
		t.Fatalf("restore left core.hooksPath at %q", v)
	}
	if r := run(t, c.dir, c.env, "git", "config", "gates.previousHooksPath"); r.code == 0 {
		t.Fatal("the record outlived the restore")
	}
	// Nothing recorded and not opted in: nothing to restore.
	if r := c.gates("--install-hooks", "--restore"); r.code != 2 || !strings.Contains(r.stderr, "nothing to restore") {
		t.Fatalf("second --restore: exit %d %q", r.code, r.stderr)
	}

	// Active hooks in git's own directory (lefthook's shape) count too.
	d := newConsumer(t)
	write(t, filepath.Join(d.dir, ".git/hooks/pre-commit"), "#!/bin/sh\nlefthook run pre-commit\n", 0o755)
	r = d.gates("--install-hooks")
	if r.code != 2 || !strings.Contains(r.stderr, "already holds active hooks (pre-commit)") {
		t.Fatalf("over .git/hooks: exit %d %q", r.code, r.stderr)
	}
	if r := d.gates("--install-hooks", "--take-over"); r.code != 0 {
		t.Fatalf("--take-over over .git/hooks: exit %d %q", r.code, r.stderr)
	}
	if r := d.gates("--install-hooks", "--restore"); r.code != 0 || !strings.Contains(r.stdout, "core.hooksPath is unset") {
		t.Fatalf("--restore to git's own directory: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := run(t, d.dir, d.env, "git", "config", "core.hooksPath"); r.code == 0 {
		t.Fatalf("restore left core.hooksPath set: %q", r.stdout)
	}
}

// TestAStrayNonUTF8NameBlocksNothing pins item 14 end to end: one
// untracked, unignored file whose name is not UTF-8 at the top neither
// fails the battery nor blocks a commit, since nothing reads or reports it.
func TestAStrayNonUTF8NameBlocksNothing(t *testing.T) {
	t.Parallel()
	c := threeGates(t)
	c.registry("check-a", "check-c")
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "chore: two gates")
	c.install()
	if err := os.WriteFile(filepath.Join(c.dir, "stray\xff.txt"), nil, 0o644); err != nil {
		ciskip.Missing(t, "non-utf8-names", "this filesystem refuses names that are not UTF-8: "+err.Error())
	}
	if r := c.gates("--run"); r.code != 0 {
		t.Fatalf("the battery: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	write(t, filepath.Join(c.dir, "doc.md"), "hello\n", 0o644)
	c.git("add", "doc.md")
	r := run(t, c.dir, c.env, "git", "commit", "-q", "-m", "docs: add doc")
	if r.code != 0 {
		t.Fatalf("the commit was blocked: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestKilledGateLeavesScratchUnderTheTmpDir pins that a standalone gate's
// scratch lives under GATE_SDK_TMP_DIR: check-identity is held mid-run
// (the git it asks for the email, a stand-in first on PATH, never
// answers; a FIFO stand-in for the email file no longer holds it, since
// the readers open no FIFO), killed, and the system temp directory holds
// nothing of it.
func TestKilledGateLeavesScratchUnderTheTmpDir(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	write(t, filepath.Join(c.dir, "scripts/identity.conf"), "email a@example.invalid\n", 0o644)
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	fake := t.TempDir()
	write(t, filepath.Join(fake, "git"), "#!/bin/sh\nif [ \"$1\" = var ]; then exec sleep 20; fi\nexec '"+realGit+"' \"$@\"\n", 0o755)
	sysTmp := t.TempDir()
	env := append(append([]string(nil), c.env...), "TMPDIR="+sysTmp, "CI=", "GATE_SDK_GIT_EMAIL_FILE=", "GATE_SDK_GIT_REMOTES_FILE=")
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + fake + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
	}
	cmd := exec.Command(filepath.Join(c.dir, "bin/gates"), "check-identity")
	cmd.Dir, cmd.Env = c.dir, env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var scratch []string
	for i := 0; i < 200 && len(scratch) == 0; i++ {
		scratch, _ = filepath.Glob(filepath.Join(c.dir, ".tmp", "gates-check-identity-*"))
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if len(scratch) != 1 {
		t.Fatalf("no scratch appeared under .tmp: %v", scratch)
	}
	if left, _ := filepath.Glob(filepath.Join(sysTmp, "gates-*")); len(left) != 0 {
		t.Fatalf("scratch in the system temp dir: %v", left)
	}
	if data, err := os.ReadFile(filepath.Join(c.dir, ".tmp", ".gitignore")); err != nil || string(data) != "*\n" {
		t.Fatalf("the tmp dir does not ignore itself: %q %v", data, err)
	}
}
