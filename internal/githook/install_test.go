package githook

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

// installRig is a scratch clone with a stand-in binary and the install
// arm's world over it.
type installRig struct {
	t         *testing.T
	dir, bin  string
	env       []string
	out, errb bytes.Buffer
	identity  Member
	resolveE  error
	verifyE   error
}

func newInstallRig(t *testing.T) *installRig {
	dir, env := scratchRepo(t)
	r := &installRig{t: t, dir: dir, env: env, identity: Member{Name: IdentityGate, Kind: registry.Unresolved}}
	r.bin = filepath.Join(dir, "bin", "gates")
	mustWrite(t, r.bin, "#!/bin/sh\nexit 0\n")
	if err := os.Chmod(r.bin, 0o755); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *installRig) world() InstallWorld {
	r.out.Reset()
	r.errb.Reset()
	return InstallWorld{
		World:     World{Dir: r.dir, Env: envOf(), GitEnv: r.env, Stdout: &r.out, Stderr: &r.errb},
		NativeBin: func() (string, error) { return "bin/gates", nil },
		Resolve:   func(string) (Member, error) { return r.identity, r.resolveE },
		Verify:    func(string) error { return r.verifyE },
	}
}

func (r *installRig) install(args ...string) int { return RunInstall(args, r.world()) }

func (r *installRig) config(key string) (string, bool) {
	cmd := exec.Command("git", "config", "--local", key)
	cmd.Dir, cmd.Env = r.dir, r.env
	out, err := cmd.Output()
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(out)), true
}

func (r *installRig) git(args ...string) { gitT(r.t, r.dir, r.env, args...) }

func (r *installRig) hooksDir() string {
	d, err := HooksDir(r.dir)
	if err != nil {
		r.t.Fatal(err)
	}
	return d
}

func TestInstallPlacesCopiesAndPointsGit(t *testing.T) {
	r := newInstallRig(t)
	mustWrite(t, filepath.Join(r.dir, ".git-blame-ignore-revs"), "")
	if code := r.install(); code != 0 {
		t.Fatalf("exit %d\n%s", code, r.errb.String())
	}
	dir := r.hooksDir()
	if v, _ := r.config("core.hooksPath"); v != ".git/"+HooksDirName {
		t.Fatalf("core.hooksPath = %q, want it relative to the top, naming %q", v, dir)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), RecordName)); err != nil {
		t.Fatalf("no opt-in record: %v", err)
	}
	if v, _ := r.config("blame.ignoreRevsFile"); v != ".git-blame-ignore-revs" {
		t.Errorf("blame.ignoreRevsFile = %q", v)
	}
	for _, h := range []string{PreCommit, CommitMsg, PreMergeCommit} {
		fi, err := os.Stat(filepath.Join(dir, h))
		if err != nil || fi.Mode().Perm()&0o111 == 0 {
			t.Fatalf("%s not placed executable: %v", h, err)
		}
		bi, _ := os.Stat(r.bin)
		if os.SameFile(fi, bi) {
			t.Errorf("%s shares the binary's inode", h)
		}
	}
	if got := r.out.String(); got != "Active hooks:\n  commit-msg\n  post-applypatch\n  post-commit\n  post-merge\n  post-rewrite\n  pre-commit\n  pre-merge-commit\n  pre-push\n" {
		t.Errorf("receipt %q", got)
	}
	if !OptedIn(r.dir, dir) {
		t.Error("OptedIn after install")
	}
	// A second opt-in over our own hooks path is not a take-over.
	if code := r.install(); code != 0 {
		t.Fatalf("second install: exit %d\n%s", code, r.errb.String())
	}
}

func TestInstallRefusals(t *testing.T) {
	r := newInstallRig(t)
	for _, args := range [][]string{{"--nope"}, {"--refresh", "x"}, {"a", "b"}} {
		if code := r.install(args...); code != 2 || !strings.Contains(r.errb.String(), InstallUsage) {
			t.Errorf("%v: exit %d %q", args, code, r.errb.String())
		}
	}
	// No binary, a non-executable one, or one that fails the handshake:
	// nothing placed.
	os.Chmod(r.bin, 0o644)
	if code := r.install(); code != 2 || !strings.Contains(r.errb.String(), "absent or not executable") {
		t.Errorf("non-executable: exit %d %q", code, r.errb.String())
	}
	os.Chmod(r.bin, 0o755)
	r.verifyE = errors.New("no handshake")
	if code := r.install(); code != 2 || !strings.Contains(r.errb.String(), "does not answer as the gates binary") {
		t.Errorf("no handshake: exit %d %q", code, r.errb.String())
	}
	r.verifyE = nil
	os.Remove(r.bin)
	if code := r.install(); code != 2 {
		t.Errorf("absent: exit %d", code)
	}
	if _, err := os.Stat(r.hooksDir()); err == nil {
		t.Error("a refused install made the hooks directory")
	}
	if _, set := r.config("core.hooksPath"); set {
		t.Error("a refused install set core.hooksPath")
	}
	// Outside a repository.
	w := r.world()
	w.Dir = t.TempDir()
	w.Dir, _ = walk.Canonicalize(w.Dir)
	if code := RunInstall(nil, w); code != 2 {
		t.Errorf("outside a repository: exit %d", code)
	}
}

func TestInstallNeverSilentlyTakesOverAndRestores(t *testing.T) {
	r := newInstallRig(t)
	r.git("config", "core.hooksPath", ".husky")
	if code := r.install(); code != 2 || !strings.Contains(r.errb.String(), "core.hooksPath is already .husky") || !strings.Contains(r.errb.String(), "--take-over") {
		t.Fatalf("foreign hooks path: exit %d %q", code, r.errb.String())
	}
	if v, _ := r.config("core.hooksPath"); v != ".husky" {
		t.Fatalf("refusal changed core.hooksPath to %q", v)
	}
	if code := r.install("--take-over"); code != 0 {
		t.Fatalf("take-over: exit %d %q", code, r.errb.String())
	}
	if v, _ := r.config(PreviousHooksPathKey); v != ".husky" {
		t.Fatalf("recorded %q", v)
	}
	if code := RunInstall([]string{"--restore"}, r.world()); code != 0 || !strings.Contains(r.out.String(), ".husky again") {
		t.Fatalf("restore: exit %d %q %q", code, r.out.String(), r.errb.String())
	}
	if v, _ := r.config("core.hooksPath"); v != ".husky" {
		t.Fatalf("restored to %q", v)
	}
	if _, set := r.config(PreviousHooksPathKey); set {
		t.Error("the record outlived the restore")
	}
	// Nothing recorded and not opted in: nothing to restore.
	r.git("config", "--unset", "core.hooksPath")
	if code := RunInstall([]string{"--restore"}, r.world()); code != 2 || !strings.Contains(r.errb.String(), "nothing to restore") {
		t.Errorf("restore with no record: exit %d %q", code, r.errb.String())
	}
	// Opted in with no record: restore opts out.
	if code := r.install(); code != 0 {
		t.Fatalf("install: %d %s", code, r.errb.String())
	}
	if code := RunInstall([]string{"--restore"}, r.world()); code != 0 || !strings.Contains(r.out.String(), "unset") {
		t.Errorf("restore of a plain opt-in: exit %d %q", code, r.out.String())
	}
	if _, set := r.config("core.hooksPath"); set {
		t.Error("core.hooksPath still set")
	}
}

func TestInstallSeesActiveHooksInGitsOwnDir(t *testing.T) {
	r := newInstallRig(t)
	hooks := filepath.Join(r.dir, ".git", "hooks")
	mustWrite(t, filepath.Join(hooks, "pre-commit.sample"), "#!/bin/sh\n")
	os.Chmod(filepath.Join(hooks, "pre-commit.sample"), 0o755)
	mustWrite(t, filepath.Join(hooks, "notes.txt"), "not a hook\n")
	if code := r.install(); code != 0 {
		t.Fatalf("samples and a non-executable file are no active hooks: exit %d %q", code, r.errb.String())
	}
	r.git("config", "--unset", "core.hooksPath")
	mustWrite(t, filepath.Join(hooks, "pre-push"), "#!/bin/sh\nlefthook run pre-push\n")
	os.Chmod(filepath.Join(hooks, "pre-push"), 0o755)
	mustWrite(t, filepath.Join(hooks, "commit-msg"), "#!/bin/sh\n")
	os.Chmod(filepath.Join(hooks, "commit-msg"), 0o755)
	if code := r.install(); code != 2 || !strings.Contains(r.errb.String(), "active hooks (commit-msg, pre-push)") {
		t.Fatalf("active hooks: exit %d %q", code, r.errb.String())
	}
	if code := r.install("--take-over"); code != 0 {
		t.Fatalf("take-over: exit %d %q", code, r.errb.String())
	}
	if v, set := r.config(PreviousHooksPathKey); !set || v != "" {
		t.Errorf("take-over of git's own dir records %q (set %v), want an empty record", v, set)
	}
}

func TestInstallRefresh(t *testing.T) {
	r := newInstallRig(t)
	// Not opted in: a silent no-op.
	if code := r.install("--refresh"); code != 0 || r.out.Len() != 0 || r.errb.Len() != 0 {
		t.Fatalf("refresh before opt-in: exit %d %q %q", code, r.out.String(), r.errb.String())
	}
	if code := r.install(); code != 0 {
		t.Fatal(r.errb.String())
	}
	mustWrite(t, r.bin, "#!/bin/sh\n# rebuilt\nexit 0\n")
	if code := r.install("--refresh"); code != 0 || !strings.Contains(r.out.String(), "refreshed") {
		t.Fatalf("refresh: exit %d %q %q", code, r.out.String(), r.errb.String())
	}
	data, _ := os.ReadFile(filepath.Join(r.hooksDir(), PreCommit))
	if !strings.Contains(string(data), "rebuilt") {
		t.Error("refresh did not re-place the rebuilt binary")
	}
	r.verifyE = errors.New("broken")
	if code := r.install("--refresh"); code != 2 {
		t.Errorf("refresh with a broken binary: exit %d", code)
	}
	// From a subdirectory: a no-op.
	r.verifyE = nil
	sub := filepath.Join(r.dir, "sub")
	os.MkdirAll(sub, 0o755)
	w := r.world()
	w.Dir = sub
	if code := RunInstall([]string{"--refresh"}, w); code != 0 || r.out.Len() != 0 {
		t.Errorf("refresh below the top: exit %d %q", code, r.out.String())
	}
}

func TestInstallIdentityRung(t *testing.T) {
	r := newInstallRig(t)
	r.resolveE = errors.New("registry unreadable")
	if code := r.install(); code != 2 || !strings.Contains(r.errb.String(), "cannot resolve check-identity") {
		t.Fatalf("resolve error: exit %d %q", code, r.errb.String())
	}
	r.resolveE = nil
	for want, body := range map[int]string{0: "echo IDENTITY: clean", 1: "echo bad; exit 1", 2: "exit 7"} {
		script := filepath.Join(r.dir, "scripts", IdentityGate+".sh")
		mustWrite(t, script, "#!/bin/sh\n"+body+"\n")
		os.Chmod(script, 0o755)
		r.identity = Member{Name: IdentityGate, Kind: registry.Shell, Decl: "scripts/" + IdentityGate + ".sh"}
		if code := r.install(); code != want {
			t.Errorf("identity %q: exit %d, want %d\n%s", body, code, want, r.errb.String())
		}
	}
}
