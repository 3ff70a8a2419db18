package gates

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/walk"
)

// The hook's per-member environment (gate.Context.SpawnEnv) reaches the
// git a rule starts, and the process's own environment is untouched.
func TestSpawnEnvReachesGit(t *testing.T) {
	top, err := walk.Canonicalize(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(top, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir, cmd.Env = top, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	// GIT_DIR alone makes the working directory the work-tree top, so git
	// answers sub only if the variable reached it.
	c := &gate.Context{Dir: sub, SpawnEnv: []string{"GIT_DIR=" + filepath.Join(top, ".git")}}
	out, err := runGit(c, "rev-parse", "--show-toplevel")
	if err != nil || strings.TrimSpace(string(out)) != sub {
		t.Fatalf("runGit under SpawnEnv answered %q, %v; want %s", out, err, sub)
	}
	if _, set := os.LookupEnv("GIT_DIR"); set && os.Getenv("GIT_DIR") == filepath.Join(top, ".git") {
		t.Fatal("SpawnEnv reached this process's environment")
	}
	top2, ok, err := walk.ToplevelOpt(sub, c.ChildEnviron())
	if err != nil || !ok || top2 != walk.NormalizeAbs(sub) {
		t.Fatalf("the crosser under ChildEnviron answered %q %v %v; want %s", top2, ok, err, sub)
	}
	if (&gate.Context{}).ChildEnviron() != nil {
		t.Fatal("an empty SpawnEnv does not inherit")
	}
}
