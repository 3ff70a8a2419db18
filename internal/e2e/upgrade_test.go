package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// firstReleaseSubject names the commit this repository's first release
// stood at, tagged in a scratch clone while the repository carries no
// v* tag of its own.
const firstReleaseSubject = "fix(csmoke): an unreadable install recipe is a finding, not a silent skip of its declarations"

// upgradeSource clones this repository with its history, tags its first
// release unless a v* tag exists, and commits the working tree on top, so
// TO (HEAD) is the tree under test.
func upgradeSource(t *testing.T) *scratch {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "src")
	clone := exec.Command("git", "clone", "-q", "--no-hardlinks", moduleRoot, dir)
	if out, err := clone.CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	s := &scratch{t: t, dir: dir, env: cleanEnv(dir)}
	if tags := strings.TrimSpace(s.git("tag", "--list", "v*")); tags == "" {
		sha := strings.TrimSpace(s.git("log", "--format=%H", "--fixed-strings", "--grep="+firstReleaseSubject))
		if sha == "" || strings.Contains(sha, "\n") {
			t.Fatalf("cannot find the first release commit %q: %q", firstReleaseSubject, sha)
		}
		s.git("tag", "v0.1.0", sha)
	}
	// The working tree, as the next commit would carry it.
	s.git("rm", "-q", "-r", "--cached", ".")
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = moduleRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var written []string
	for _, rel := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		src := filepath.Join(moduleRoot, filepath.FromSlash(rel))
		info, err := os.Lstat(src)
		if err != nil {
			continue
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		s.write(rel, string(data), info.Mode().Perm())
		written = append(written, rel)
	}
	// One git add for the whole listing (a git per file was most of this
	// helper's time): exactly the written paths, taken literally.
	list := filepath.Join(t.TempDir(), "paths")
	if err := os.WriteFile(list, []byte(strings.Join(written, "\x00")+"\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.git("--literal-pathspecs", "add", "--pathspec-from-file="+list, "--pathspec-file-nul")
	s.git("commit", "-q", "--no-verify", "--allow-empty", "-m", "chore: the tree under test")
	return s
}

// TestUpgradeSmokeFromTheFirstRelease runs --upgrade-smoke end to end from
// the first tagged state to HEAD, then over a TO whose kit reds a gate in
// the vendored tree: exit 1 while undeclared, clean once declared.
func TestUpgradeSmokeFromTheFirstRelease(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary at two refs")
	}
	s := upgradeSource(t)
	code, out := s.run(nil, binPath, "--upgrade-smoke")
	if code != 0 || !strings.Contains(out, "UPGRADE-SMOKE: clean (v0.1.0 ") || !strings.Contains(out, "baseline green, 0 red after the upgrade") {
		t.Fatalf("first release -> HEAD: exit %d\n%s", code, out)
	}
	if entries, _ := os.ReadDir(filepath.Join(s.dir, ".tmp")); len(entries) > 1 {
		t.Errorf("the scratch base was left behind: %v", entries)
	}

	// A TO that reds check-exec-bit in the vendored tree: its descriptor
	// ships executable.
	desc := filepath.Join(s.dir, "kits", "gate-sdk", "checks", "check-exec-bit.gate")
	if err := os.Chmod(desc, 0o755); err != nil {
		t.Fatal(err)
	}
	s.git("add", "--", desc)
	s.git("commit", "-q", "--no-verify", "-m", "chore: ship a descriptor executable")
	code, out = s.run(nil, binPath, "--upgrade-smoke")
	if code != 1 || !strings.Contains(out, "check-exec-bit: red after upgrading v0.1.0 -> HEAD, and .workflow/release-declarations.md's gates section does not declare it") {
		t.Fatalf("an undeclared red: exit %d\n%s", code, out)
	}

	s.write(".workflow/release-declarations.md", "# contract: kits/gate-sdk/SPEC.md §--upgrade-smoke\n\n"+
		"## New and tightened gates\n\n- `check-exec-bit` — a descriptor now ships 100755; run git update-index --chmod=-x on it\n", 0o644)
	s.git("add", "-A")
	s.git("commit", "-q", "--no-verify", "-m", "docs: declare the red")
	code, out = s.run(nil, binPath, "--upgrade-smoke")
	if code != 0 || !strings.Contains(out, "1 red after the upgrade, all declared") {
		t.Fatalf("a declared red: exit %d\n%s", code, out)
	}
}
