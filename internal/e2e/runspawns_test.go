package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunLocatesOnce pins that `--run`, like the hook, asks git where the
// repository is once (SPEC.md §walk, V and W): one `rev-parse` answers the
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
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var revParse []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "built-in: git") && strings.Contains(l, " rev-parse ") {
			revParse = append(revParse, l)
		}
	}
	if len(revParse) != 1 {
		t.Fatalf("--run started %d rev-parse, want 1:\n%s", len(revParse), strings.Join(revParse, "\n"))
	}
}
