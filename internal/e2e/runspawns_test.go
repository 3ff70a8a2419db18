package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunLocatesOnce pins that `--run`, like the hook, asks git where the
// repository is at most once (none where it is found in process) (SPEC.md §walk, V and W): one `rev-parse` answers the
// toplevel, the prefix and the index's place, where two were started
// before.
func TestRunLocatesOnce(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	trace := filepath.Join(t.TempDir(), "trace")
	env := append(append([]string{}, c.env...), "GIT_TRACE="+trace)
	r := run(t, c.dir, env, binPath, "--run")
	if r.code != 0 {
		t.Fatalf("--run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// No trace at all is no git started: the in-process discovery
	// answered (an adopted clone's own include no longer sends it to git).
	data, err := os.ReadFile(trace)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var revParse []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "built-in: git") && strings.Contains(l, " rev-parse ") {
			revParse = append(revParse, l)
		}
	}
	if len(revParse) > 1 {
		t.Fatalf("--run started %d rev-parse, want at most 1:\n%s", len(revParse), strings.Join(revParse, "\n"))
	}
}
