//go:build unix

package gates

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/ciskip"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// A shell target that is a FIFO on disk is refused, naming it: handed to
// ShellCheck (or opened to read its #! line) it would block until a writer
// came, and a gate that hangs reports nothing.
func TestShellcheckRefusesATargetThatIsNoRegularFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"tools/build.sh": "#!/usr/bin/env bash\necho ok\n"})
	if err := syscall.Mkfifo(filepath.Join(dir, "tools/wait.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PATH": os.Getenv("PATH")}
	run := gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, env, "tools")
	if run.Code != 2 || !strings.Contains(run.Stdout+run.Stderr, "tools/wait.sh") {
		t.Fatalf("exit %d, want 2 naming tools/wait.sh\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

// A tracked tool with no extension that is a FIFO on disk is passed over
// when the sourcing scripts are read (assertion U): its #! line is never
// waited for, and the report it could have excused stands.
func TestShellcheckSourcersPassOverAFIFO(t *testing.T) {
	if _, err := exec.LookPath("shellcheck"); err != nil {
		ciskip.Missing(t, "shellcheck", "shellcheck is not installed; .ci/tools installs it")
		return
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"tools/lib.sh": "#!/usr/bin/env bash\nunread=1\n"})
	if err := syscall.Mkfifo(filepath.Join(dir, "contrib-tool"), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := &gatetest.Tree{Data: map[string]string{"tools/lib.sh": "#!/usr/bin/env bash\nunread=1\n", "contrib-tool": ""}}
	env := map[string]string{"PATH": os.Getenv("PATH")}
	done := make(chan gatetest.Run, 1)
	go func() {
		done <- gatetest.Exec(checkShellcheck, "check-shellcheck", dir, tree, gatetest.Knobs{}, env, "tools")
	}()
	select {
	case run := <-done:
		if run.Code != 1 || !strings.Contains(run.Stdout, "unread appears unused") {
			t.Fatalf("exit %d, want 1 with the report kept\n%s%s", run.Code, run.Stdout, run.Stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the gate waited on the FIFO")
	}
}

// A library a target sources is handed to ShellCheck (assertion W) only
// when it is a regular file on disk: a FIFO at a tracked path is passed
// over, never opened.
func TestSourcedLibrariesPassOverAFIFO(t *testing.T) {
	dir := t.TempDir()
	demo := "#!/usr/bin/env bash\nSKIP_PAUSE=true\n. ../vendor/pause.sh\n. ../vendor/wait.sh\n"
	writeFiles(t, dir, map[string]string{"tools/demo.sh": demo, "vendor/wait.sh": "# waits\n"})
	if err := syscall.Mkfifo(filepath.Join(dir, "vendor/pause.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := &gatetest.Tree{
		Data:  map[string]string{"tools/demo.sh": demo, "vendor/pause.sh": "", "vendor/wait.sh": "# waits\n"},
		Modes: map[string]uint32{"tools/demo.sh": 0o100755, "vendor/pause.sh": 0o100644, "vendor/wait.sh": 0o100644},
	}
	var libs []string
	gatetest.Exec(func(c *gate.Context) int {
		libs = sourcedLibraries(c, []string{"tools/demo.sh"}, map[string][]byte{"tools/demo.sh": []byte(demo)})
		return 0
	}, "check-shellcheck", dir, tree, gatetest.Knobs{}, nil)
	if strings.Join(libs, ",") != "vendor/wait.sh" {
		t.Fatalf("libraries %q, want only the regular vendor/wait.sh", libs)
	}
}
