package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// walkthroughBlocks answers the sh blocks of the kit README's first-gate
// walkthrough, in order.
func walkthroughBlocks(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot, "kits", "gate-sdk", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	_, rest, ok := strings.Cut(text, "<!-- walkthrough:begin -->")
	if !ok {
		t.Fatal("the kit README has no <!-- walkthrough:begin --> marker")
	}
	walk, _, ok := strings.Cut(rest, "<!-- walkthrough:end -->")
	if !ok {
		t.Fatal("the kit README has no <!-- walkthrough:end --> marker")
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(walk, -1) {
		blocks = append(blocks, m[1])
	}
	if len(blocks) < 5 {
		t.Fatalf("the walkthrough holds %d sh blocks; scaffold, rule, pair, run and commit are five", len(blocks))
	}
	return blocks
}

// TestReadmeWalkthroughCommitsAGate follows the kit README's first-gate
// walkthrough literally in a scratch repository that gates init adopted:
// every sh block runs as written, and the walk ends with the gate
// committed through the pre-commit hook and the battery green.
func TestReadmeWalkthroughCommitsAGate(t *testing.T) {
	t.Parallel()
	s := newScratchBare(t)
	s.write("README.md", "# demo\n", 0o644)
	s.write("docs/guide.md", "# Guide\n\nAll settled.\n", 0o644)
	s.git("add", "-A")
	s.git("commit", "-q", "-m", "chore: start")
	if code, out := s.gates(nil, "init"); code != 0 {
		t.Fatalf("gates init: exit %d\n%s", code, out)
	}
	s.git("add", "-A")
	s.git("commit", "-q", "-m", "chore: vendor gate-sdk")
	var last string
	for i, b := range walkthroughBlocks(t) {
		code, out := s.run(nil, "bash", "-e", "-c", b)
		if code != 0 {
			t.Fatalf("walkthrough block %d exits %d:\n%s\n--- output:\n%s", i+1, code, b, out)
		}
		last = out
	}
	if !strings.Contains(last, "pre-commit: ") || !strings.Contains(last, "gate(s) passed") {
		t.Fatalf("the commit did not go through the pre-commit hook:\n%s", last)
	}
	if subject := strings.TrimSpace(s.git("log", "-1", "--format=%s")); subject != "feat(gates): check-no-fixme holds docs/ free of FIXME" {
		t.Fatalf("last commit %q", subject)
	}
	if files := s.git("show", "--name-only", "--format=", "HEAD"); !strings.Contains(files, "scripts/check-no-fixme.sh") || !strings.Contains(files, "scripts/gate-tests/check-no-fixme/bad/expect.txt") {
		t.Fatalf("the commit holds:\n%s", files)
	}
	if code, out := s.gates(nil, "--run"); code != 0 {
		t.Fatalf("battery after the walk: exit %d\n%s", code, out)
	}
	// The gate now fires on an edit under docs/, at commit.
	s.write("docs/guide.md", "# Guide\n\nFIXME: later\n", 0o644)
	s.git("add", "docs/guide.md")
	code, out := s.run(nil, "git", "commit", "-q", "-m", "docs: guide")
	if code == 0 || !strings.Contains(out, "docs/guide.md:3: FIXME left in the page") {
		t.Fatalf("the gate did not refuse a FIXME at commit: exit %d\n%s", code, out)
	}
}

// newScratchBare is a scratch repository with nothing vendored: the
// state gates init starts from.
func newScratchBare(t *testing.T) *scratch {
	t.Helper()
	dir := t.TempDir()
	s := &scratch{t: t, dir: dir}
	// As a user's shell would: no binary pinned, init places its own.
	for _, kv := range cleanEnv(dir) {
		if !strings.HasPrefix(kv, "GATE_SDK_NATIVE_BIN=") {
			s.env = append(s.env, kv)
		}
	}
	s.git("init", "-q", "-b", "main")
	return s
}
