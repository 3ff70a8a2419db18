package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlacedHooksSurviveABrokenBinary pins item 11 end to end: the placed
// hooks share no inode with bin/gates, and with bin/gates emptied or
// truncated a violating commit is refused with a message naming the
// binary, never passed in silence.
func TestPlacedHooksSurviveABrokenBinary(t *testing.T) {
	c := threeGates(t)
	c.install()
	bin := filepath.Join(c.dir, "bin/gates")
	hooksDir := strings.TrimSpace(c.git("config", "core.hooksPath").stdout)
	bi, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"pre-commit", "commit-msg"} {
		hi, err := os.Stat(filepath.Join(hooksDir, h))
		if err != nil {
			t.Fatal(err)
		}
		if os.SameFile(bi, hi) {
			t.Fatalf("%s shares bin/gates' inode", h)
		}
	}
	whole, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string][]byte{"empty": nil, "truncated": whole[:len(whole)/4]} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(bin, body, 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(c.dir, "doc.md"), "hello "+name+"\n", 0o644)
			c.git("add", "doc.md")
			r := run(t, c.dir, c.env, "git", "commit", "-q", "-m", "docs: add doc")
			if r.code == 0 {
				t.Fatalf("the commit passed with a %s binary:\n%s%s", name, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stderr+r.stdout, bin) || !strings.Contains(r.stderr+r.stdout, "git commit --no-verify") {
				t.Fatalf("the refusal does not name the binary and the bypass:\n%s%s", r.stdout, r.stderr)
			}
			if out := c.git("rev-list", "--count", "HEAD").stdout; strings.TrimSpace(out) != "1" {
				t.Fatalf("a commit landed: %s commits", out)
			}
		})
	}
	// Placement refuses a binary that does not answer, placing nothing.
	if err := os.WriteFile(bin, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	r := run(t, c.dir, c.env, binPath, "--install-hooks")
	if r.code != 2 || !strings.Contains(r.stderr, "does not answer as the gates binary") {
		t.Fatalf("--install-hooks over an empty binary: exit %d %q", r.code, r.stderr)
	}
}
