//go:build unix

package gates

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

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
