package walk

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// LocateStatus answers the top, the common directory and the hooks
// directory git runs, a relative core.hooksPath resolved at the top; and
// false outside a repository.
func TestLocateStatus(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	if _, ok := LocateStatus(dir, env); ok {
		t.Fatal("no repository answered")
	}
	git("init", "-q")
	git("config", "core.hooksPath", "rel/hooks")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, ok := LocateStatus(filepath.Join(dir, "sub"), env)
	top := NormalizeAbs(dir)
	if !ok || p.Top != top || p.CommonDir != top+"/.git" || p.HooksDir != top+"/rel/hooks" {
		t.Fatalf("answered %+v %v", p, ok)
	}
}
