package walk

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/spawn"
)

// testEnv is this process's environment less every GIT_ variable, with a
// private HOME and no system config, plus extra.
func testEnv(t *testing.T, extra ...string) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	home := t.TempDir()
	env = append(env, "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
	return append(env, extra...)
}

// physTemp is a fresh temp dir spelled physically, in the host spelling.
func physTemp(t testing.TB) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func runGit(t testing.TB, dir string, env []string, args ...string) string {
	t.Helper()
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: args, Dir: dir, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	out, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		t.Fatalf("git %v in %s: %s", args, dir, rep)
	}
	return string(out)
}

func mkdirs(t testing.TB, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFile(t testing.TB, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
