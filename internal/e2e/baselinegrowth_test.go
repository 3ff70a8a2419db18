package e2e

import (
	"strings"
	"testing"
)

// A commit that adds baseline entries is named as such by the pre-commit
// hook, one line per accepted entry, and the line never quotes the text.
func TestBaselineGrowthReportedByTheHook(t *testing.T) {
	t.Parallel()
	s := baselineScratch(t)
	s.acceptAll()
	code, out := s.gates(nil, "--git-hook", "pre-commit")
	if code != 0 {
		t.Fatalf("the hook over an accepted tree: exit %d\n%s", code, out)
	}
	for _, want := range []string{
		"pre-commit: this commit adds to scripts/gates.baseline, accepting: check-tree-terms README.md leak — leak in README.md: pattern scripts/msg-patterns.list:1\n",
		"pre-commit: this commit adds to scripts/gates.baseline, accepting: check-action-pinning .github/workflows/ci.yml unpinned — unpinned in .github/workflows/ci.yml: actions/setup-go in job build, step 3\n",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("the hook does not name the accepted entry %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "this commit adds to"); n != 4 {
		t.Fatalf("want one line per accepted entry (4), got %d:\n%s", n, out)
	}
	if strings.Contains(out, "marta") {
		t.Fatalf("the report quotes the banned text:\n%s", out)
	}
	s.git("commit", "-qm", "chore: accept today's findings")
	// A commit that leaves the baseline as it was says nothing of it.
	s.write("NOTES.md", "notes\n", 0o644)
	s.git("add", "-A")
	if code, out := s.gates(nil, "--git-hook", "pre-commit"); code != 0 || strings.Contains(out, "adds to") {
		t.Fatalf("a commit that adds no entry is reported as adding: exit %d\n%s", code, out)
	}
	// A rename with the baseline re-recorded at the new path in the same
	// commit moves entries; it adds none.
	s.git("mv", ".github/workflows/ci.yml", ".github/workflows/build.yml")
	s.acceptAll()
	if !strings.Contains(s.read("scripts/gates.baseline"), "\t.github/workflows/build.yml\t") {
		t.Fatal("setup: the re-recorded baseline does not name the new path")
	}
	if code, out := s.gates(nil, "--git-hook", "pre-commit"); code != 0 || strings.Contains(out, "adds to") {
		t.Fatalf("a rename with its baseline re-recorded is reported as adding: exit %d\n%s", code, out)
	}
}

// The agent hooks treat a commit that grows the baseline as a bypass of
// the hooks: blocked before it runs when the baseline is already grown,
// and named after it lands when the same command grew it.
func TestAgentBaselineGrowthIsABypass(t *testing.T) {
	t.Parallel()
	leak := `printf '` + strings.TrimSuffix(leakLine, "\n") + `\n' > docs/leak.md && git add docs/leak.md`
	msg := ` -q -m "docs: add notes"`

	p := outcomeClone(t, "baseline grown first")
	if _, blocked, post := p.bash(leak + ` && ` + binPath + ` baseline >/dev/null && git add scripts/gates.baseline`); blocked || post != "" {
		t.Fatalf("staging a baseline is judged: blocked %v, %s", blocked, post)
	}
	why, blocked, _ := p.bash(`git commit` + msg)
	if !blocked || !strings.Contains(why, "accepts new findings") || !strings.Contains(why, "check-tree-terms docs/leak.md leak") || strings.Contains(why, "marta") {
		t.Fatalf("commit-guard let a commit that grows the baseline run: blocked %v\n%s", blocked, why)
	}

	p = outcomeClone(t, "baseline grown in the command")
	before := run(t, p.dir, p.env, "git", "show-ref", "--head").stdout
	_, blocked, post := p.bash(leak + ` && ` + binPath + ` baseline >/dev/null && git add scripts/gates.baseline && git commit` + msg)
	if blocked {
		t.Fatal("setup: commit-guard could not know the baseline this command writes")
	}
	landed := p.newCommits(before)
	if len(landed) != 1 || !strings.Contains(post, "Commit "+landed[0]) || !strings.Contains(post, "check-tree-terms docs/leak.md leak") || !strings.Contains(post, "as --no-verify would") {
		t.Fatalf("commit-audit did not name the commit that grew the baseline (landed %v):\n%s", landed, post)
	}
}
