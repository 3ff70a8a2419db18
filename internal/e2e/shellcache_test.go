package e2e

// ShellCheck by content: through the built binary, a
// shellcheck wrapper on PATH counts the lint runs. An unchanged run: block
// is never linted twice; an edited one is linted alone; a warm run asks
// ShellCheck nothing, not even its version.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/ciskip"
)

func TestShellcheckCachedByContent(t *testing.T) {
	t.Parallel()
	real, err := exec.LookPath("shellcheck")
	if err != nil {
		ciskip.Missing(t, "shellcheck", "shellcheck is not installed; .ci/tools installs Debian's shellcheck package")
	}
	c := newConsumer(t)
	tools := t.TempDir()
	log := filepath.Join(tools, "log")
	write(t, filepath.Join(tools, "shellcheck"), fmt.Sprintf("#!/bin/sh\nprintf '%%s\\n' \"$*\" >> '%s'\nexec '%s' \"$@\"\n", log, real), 0o755)
	env := append(append([]string{}, c.env...), "PATH="+tools+string(os.PathListSeparator)+os.Getenv("PATH"))
	// lints answers the lint runs logged since the last call (each with
	// how many bodies it was given) and the version queries.
	lints := func() (bodies []int, versions int) {
		data, _ := os.ReadFile(log)
		os.Remove(log)
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			switch {
			case l == "":
			case l == "--version":
				versions++
			default:
				bodies = append(bodies, strings.Count(l, ".sh"))
			}
		}
		return bodies, versions
	}
	workflow := func(first string) {
		var b strings.Builder
		b.WriteString("on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n")
		for _, body := range []string{first, "echo $(cat list)", "make all", "test -f out && echo found"} {
			fmt.Fprintf(&b, "      - run: |\n          %s\n", body)
		}
		write(t, filepath.Join(c.dir, ".github/workflows/ci.yml"), b.String(), 0o644)
		c.git("add", "-A")
		c.git("commit", "-q", "--no-verify", "-m", "ci")
	}
	runShell := func(extra ...string) result {
		return run(t, c.dir, append(append([]string{}, env...), extra...), binPath, "check-action-run-shell")
	}
	workflow("echo one")
	cold := runShell()
	if cold.code != 1 || !strings.Contains(cold.stdout, "ci.yml:9:") || !strings.Contains(cold.stdout, "SC2046") {
		t.Fatalf("cold: exit %d\n%s%s", cold.code, cold.stdout, cold.stderr)
	}
	if bodies, versions := lints(); fmt.Sprint(bodies) != "[4]" || versions != 1 {
		t.Fatalf("cold: lint runs %v (bodies each), %d version queries; want [4] and 1", bodies, versions)
	}
	warm := runShell()
	if bodies, versions := lints(); len(bodies) != 0 || versions != 0 {
		t.Fatalf("warm: lint runs %v, %d version queries; want none", bodies, versions)
	}
	if warm.stdout != cold.stdout || warm.code != cold.code {
		t.Fatalf("warm output differs:\n--- cold\n%s--- warm\n%s", cold.stdout, warm.stdout)
	}
	// One block edited: it alone is linted; the rest are served.
	workflow("echo two")
	edited := runShell()
	if bodies, versions := lints(); fmt.Sprint(bodies) != "[1]" || versions != 0 {
		t.Fatalf("edit: lint runs %v, %d version queries; want [1] and 0", bodies, versions)
	}
	off := runShell("GATE_SDK_CACHE=off")
	if bodies, _ := lints(); fmt.Sprint(bodies) != "[4]" {
		t.Fatalf("cache off: lint runs %v, want [4]", bodies)
	}
	if edited.stdout != off.stdout || edited.code != off.code {
		t.Fatalf("served output differs from an uncached run:\n--- off\n%s--- on\n%s", off.stdout, edited.stdout)
	}
}
