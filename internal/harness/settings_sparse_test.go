package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

// Issue 41's acceptance (branch work55): `git sparse-checkout set
// --no-cone '/docs/'` took .claude/ off the disk, and the audit told the
// model the settings "which registered the gates' hooks" were gone after
// ordinary work. A settings file a sparse checkout keeps in the index
// (skip-worktree) is read from there; one deleted is still gone.
func TestSettingsKeptOffTheDiskBySparseCheckoutAreNotGone(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.invalid", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.invalid")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	settings := filepath.Join(dir, ".claude", "settings.json")
	body := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "sh", "args": ["-c", "exec bin/gates \"$@\"", "x", "--hook", "stop-check"]}]}]}}` + "\n"
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(settings, []byte(body), 0o644)
	os.WriteFile(filepath.Join(dir, "docs", "guide.md"), []byte("Guide.\n"), 0o644)
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "start")
	was, err := readSettingsFile(settings, nil)
	if err != nil || was.Size < 0 {
		t.Fatalf("before: %+v %v", was, err)
	}
	git("sparse-checkout", "set", "--no-cone", "/docs/")
	if _, err := os.Stat(settings); err == nil {
		t.Fatal("the sparse checkout left the settings on the disk")
	}
	now, err := readSettingsFile(settings, nil)
	if err != nil || now.Size < 0 || !reflect.DeepEqual(now.Regs, was.Regs) || !reflect.DeepEqual(now.Live, was.Live) {
		t.Fatalf("kept off the disk by a sparse checkout: %+v %v, was %+v", now, err, was)
	}
	if cuts := settingsCuts(settings, was, now); len(cuts) != 0 {
		t.Errorf("cuts: %q", cuts)
	}
	git("sparse-checkout", "disable")
	if err := os.Remove(settings); err != nil {
		t.Fatal(err)
	}
	if gone, err := readSettingsFile(settings, nil); err != nil || gone.Size != -1 {
		t.Errorf("deleted: %+v %v", gone, err)
	}
}
