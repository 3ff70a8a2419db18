package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookDeclinesWhereGitFindsNoRepository pins the harness arm's
// fail-open decline: outside any repository, in a tree git refuses, and
// where git cannot be found, --hook answers the fixed envelope and exit 0
// before it validates its member (any name, even none), so the harness
// never reads "block every tool call". Inside a repository the member is
// validated as before.
func TestHookDeclinesWhereGitFindsNoRepository(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	env := baseEnv(t, "GIT_CEILING_DIRECTORIES="+filepath.Dir(outside))
	refused := t.TempDir()
	if err := os.WriteFile(filepath.Join(refused, ".git"), []byte("gitdir: /nonexistent/elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	noGit := t.TempDir()
	noGitEnv := baseEnv(t, "PATH="+noGit, "GIT_CEILING_DIRECTORIES="+filepath.Dir(outside))
	for _, tc := range []struct {
		name string
		dir  string
		env  []string
		args []string
	}{
		{"no repository, unknown member", outside, env, []string{"--hook", "no-such-member"}},
		{"no repository, no member", outside, env, []string{"--hook"}},
		{"refused repository", refused, env, []string{"--hook", "no-such-member"}},
		{"git absent", outside, noGitEnv, []string{"--hook", "no-such-member"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.dir, tc.env, binPath, tc.args...)
			if r.code != 0 || !strings.HasPrefix(r.stdout, `{"systemMessage": "gate-sdk: the hook guards of this tree are not running`) {
				t.Fatalf("exit %d, want the decline at 0\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stderr, "gates --hook: ") {
				t.Errorf("stderr names no cause: %q", r.stderr)
			}
		})
	}
	inside := t.TempDir()
	must(t, run(t, inside, baseEnv(t), "git", "init", "-q"), "git init")
	r := run(t, inside, baseEnv(t), binPath, "--hook", "no-such-member")
	if r.code != 2 || !strings.Contains(r.stderr, `no harness member named "no-such-member"`) {
		t.Fatalf("inside a repository an unknown member refuses: exit %d %q", r.code, r.stderr)
	}
}
