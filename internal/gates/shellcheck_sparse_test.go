package gates

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// Issue 41's acceptance (branch work55): after `git sparse-checkout set
// hooks` in logrus, whose adoption named travis in
// GATE_SDK_LINT_EXTRA_DIRS, every commit in the cone was refused with
// "GATE_SDK_LINT_EXTRA_DIRS names travis, which is no directory". A
// named dir the sparse checkout leaves off the disk is counted, not
// linted; one simply missing is still exit 2.
func TestShellcheckExtraDirOutsideTheSparseCheckout(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"scripts/check-b.sh": "#!/usr/bin/env bash\necho ok\n",
		"travis/install.sh":  "#!/usr/bin/env bash\necho installing\n",
		"travis/cross.sh":    "#!/usr/bin/env bash\necho cross\n",
		"travis/notes.txt":   "notes\n",
	})
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.invalid", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.invalid")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "start")
	git("sparse-checkout", "set", "scripts")
	if _, err := os.Stat(filepath.Join(dir, "travis")); err == nil {
		t.Fatal("the sparse checkout left travis on the disk")
	}
	env := map[string]string{"PATH": os.Getenv("PATH")}
	knobs := gatetest.Knobs{"GATE_SDK_LINT_EXTRA_DIRS": "travis"}
	run := gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, knobs, env)
	if run.Code != 0 || !strings.Contains(run.Stdout, "2 scripts outside the sparse checkout not linted here") {
		t.Fatalf("a named dir outside the sparse checkout: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	// Every script outside the cone: nothing here to lint, and nothing
	// refused.
	git("sparse-checkout", "set", "docs")
	run = gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, knobs, env)
	if run.Code != 0 || !strings.Contains(run.Stdout, "2 scripts outside the sparse checkout not linted here") {
		t.Fatalf("every script outside the sparse checkout: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	// Out of the sparse checkout and deleted by hand: no longer a dir the
	// index keeps off the disk.
	git("sparse-checkout", "disable")
	if err := os.RemoveAll(filepath.Join(dir, "travis")); err != nil {
		t.Fatal(err)
	}
	run = gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, knobs, env)
	if run.Code != 2 || !strings.Contains(run.Stderr, "GATE_SDK_LINT_EXTRA_DIRS names travis, which is no directory") {
		t.Fatalf("a named dir deleted by hand: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}
