package e2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/ciskip"
)

// TestRepositoryFixtureSuites runs every fixture suite of this repository
// through the real runner, as `make fixtures` does: each gate's good/ and
// bad/ cases and every *.test.sh.
//
// Under check-crate-arms, whose suites arm runs these same suites through
// the same runner beside the go test arm, the arm sets
// GATES_CRATE_ARMS_SUITES=1 and this test defers to it rather than run
// every suite twice in one `make test`.
func TestRepositoryFixtureSuites(t *testing.T) {
	t.Parallel()
	if os.Getenv("GATES_CRATE_ARMS_SUITES") == "1" {
		ciskip.Missing(t, "crate-arms-suites", "check-crate-arms runs every fixture suite in its own arm beside this one")
	}
	env := append(cleanEnv(moduleRoot), "GATE_SDK_ROOT=kits/gate-sdk")
	list := exec.Command(binPath, "--emit", "fixture-suites")
	list.Dir = moduleRoot
	list.Env = env
	out, err := list.Output()
	if err != nil {
		t.Fatalf("--emit fixture-suites: %v", err)
	}
	rows := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(rows) == 0 || rows[0] == "" {
		t.Fatal("no fixture suite found")
	}
	for _, row := range rows {
		f := strings.Split(row, "\t")
		if len(f) != 3 {
			t.Fatalf("malformed suite row %q", row)
		}
		t.Run(f[0], func(t *testing.T) {
			args := []string{"--run-gate-tests", f[1]}
			if f[2] != "" {
				args = append(args, f[2])
			}
			cmd := exec.Command(binPath, args...)
			cmd.Dir = moduleRoot
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("suite %s: %v\n%s", f[0], err, out)
			}
		})
	}
}
