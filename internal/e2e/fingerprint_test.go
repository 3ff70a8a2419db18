package e2e

import (
	"strings"
	"testing"
)

// fingerprintCI is a workflow whose three tag-pinned steps are accepted:
// two named, one not.
const fingerprintCI = "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n" +
	"      - name: Check out\n        uses: actions/checkout@v4\n" +
	"      - uses: actions/setup-go@v5\n" +
	"      - name: Cache\n        uses: actions/cache@v4\n"

// fingerprintScratch is baselineScratch with fingerprintCI, its findings
// accepted and committed.
func fingerprintScratch(t *testing.T) *scratch {
	s := baselineScratch(t)
	s.write(".github/workflows/ci.yml", fingerprintCI, 0o644)
	s.git("add", "-A")
	s.acceptAll()
	s.git("commit", "-qm", "chore: accept today's findings")
	return s
}

// commits judges the staged change as the pre-commit hook does, then
// commits it and runs the battery over the new commit as CI would.
func (s *scratch) commits(what string) {
	s.t.Helper()
	s.git("add", "-A")
	if code, out := s.gates(nil, "--git-hook", "pre-commit"); code != 0 || strings.Contains(out, "adds to") {
		s.t.Fatalf("%s: the pre-commit hook refuses it, or says it grows the baseline: exit %d\n%s", what, code, out)
	}
	s.git("commit", "-qm", "chore: "+what)
	if code, out := s.gates(nil, "--run"); code != 0 {
		s.t.Fatalf("%s: the battery over the commit is red: exit %d\n%s", what, code, out)
	}
}

// Accepted findings follow the code: a Dependabot-style tag bump, a
// reorder of the steps and a git mv of the workflow each commit with the
// baseline untouched.
func TestBaselineFollowsTagBumpReorderAndRename(t *testing.T) {
	t.Parallel()
	s := fingerprintScratch(t)
	before := s.read("scripts/gates.baseline")

	bumped := strings.NewReplacer("checkout@v4", "checkout@v5", "setup-go@v5", "setup-go@v6", "cache@v4", "cache@v5").Replace(fingerprintCI)
	s.write(".github/workflows/ci.yml", bumped, 0o644)
	s.commits("bump every action's tag")

	reordered := "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n" +
		"      - name: Cache\n        uses: actions/cache@v5\n" +
		"      - run: echo first\n" +
		"      - name: Check out\n        uses: actions/checkout@v5\n" +
		"      - uses: actions/setup-go@v6\n"
	s.write(".github/workflows/ci.yml", reordered, 0o644)
	s.commits("reorder the steps")

	s.git("mv", ".github/workflows/ci.yml", ".github/workflows/build.yml")
	s.commits("rename the workflow")
	// A later commit that touches neither still reads the renamed file's
	// entries: they follow the file from the commit that wrote them.
	s.write("NOTES.md", "notes\n", 0o644)
	s.commits("an unrelated change")

	if after := s.read("scripts/gates.baseline"); after != before {
		t.Fatalf("the baseline changed:\n%s\n---\n%s", before, after)
	}
	// The rename is followed, not forgotten: doctor names no stale entry.
	if code, out := s.gates(nil, "doctor"); strings.Contains(out, "stale") {
		t.Fatalf("doctor calls a followed entry stale: exit %d\n%s", code, out)
	}
}

// A new step identical to an accepted one is reported at its own line,
// never at the accepted step's: a copy in a new job placed above the
// accepted one, and a copy appended to the accepted step's own job.
func TestBaselineDuplicateStepReportedAtItsOwnLine(t *testing.T) {
	t.Parallel()
	s := fingerprintScratch(t)
	lint := "on: push\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n" +
		"      - name: Check out\n        uses: actions/checkout@v4\n" +
		strings.TrimPrefix(fingerprintCI, "on: push\njobs:\n")
	appended := fingerprintCI + "      - name: Check out\n        uses: actions/checkout@v4\n"
	for _, c := range []struct{ what, body, at, notAt string }{
		{"a new job above", lint, "ci.yml:7: uses: actions/checkout@v4", "ci.yml:12:"},
		{"a copy appended", appended, "ci.yml:12: uses: actions/checkout@v4", "ci.yml:7:"},
	} {
		s.write(".github/workflows/ci.yml", c.body, 0o644)
		s.git("add", "-A")
		for _, argv := range [][]string{{"--git-hook", "pre-commit"}, {"--run"}} {
			code, out := s.gates(nil, argv...)
			if code != 1 {
				t.Fatalf("%s, %v: a duplicated tag-pinned step does not red: exit %d\n%s", c.what, argv, code, out)
			}
			if !strings.Contains(out, ".github/workflows/"+c.at) || strings.Contains(out, c.notAt) || strings.Count(out, "is pinned to @") != 1 {
				t.Fatalf("%s, %v: the new step is not reported at its own line %q (and only there):\n%s", c.what, argv, c.at, out)
			}
		}
	}
}

// A binary file's accepted finding names what it matched: banned content
// added to it later is a new finding.
func TestBaselineBinaryEntryAcceptsOnlyItsContent(t *testing.T) {
	t.Parallel()
	s := baselineScratch(t)
	s.write("logo.bin", "\x00\x01"+plantedHome+"\x00\n", 0o644)
	s.git("add", "-A")
	s.acceptAll()
	if code, out := s.gates(nil, "check-tree-terms"); code != 0 {
		t.Fatalf("the accepted binary reds: exit %d\n%s", code, out)
	}
	s.write("logo.bin", "\x00\x01"+plantedHome+"\x00\n\x00/"+"home/mallory/x\n", 0o644)
	s.git("add", "-A")
	if code, out := s.gates(nil, "check-tree-terms"); code != 1 || !strings.Contains(out, "logo.bin\n") {
		t.Fatalf("new banned content in an accepted binary is accepted: exit %d\n%s", code, out)
	}
}

// A baseline the previous release wrote (text digests, no notes) still
// reads and still accepts what it accepted. The tree-terms line below is
// what that release's `gates baseline` wrote for baselineScratch's
// README.md (its digest is of the line's text, which no release rewords).
func TestBaselineEarlierFormatStillAccepts(t *testing.T) {
	t.Parallel()
	s := baselineScratch(t)
	s.write("scripts/gates.list", "check-tree-terms\n", 0o644)
	s.write("scripts/gates.baseline", "# gates.baseline: findings this repository has accepted.\n"+
		"check-tree-terms\tREADME.md\tleak\tafc2d656f115b454\n", 0o644)
	s.git("add", "-A")
	for _, argv := range [][]string{{"--run"}, {"--git-hook", "pre-commit"}} {
		code, out := s.gates([]string{"GATE_SDK_VERBOSE=1"}, argv...)
		if code != 0 || !strings.Contains(out, "1 finding accepted by scripts/gates.baseline") {
			t.Fatalf("%v: the earlier-format entry no longer accepts its finding: exit %d\n%s", argv, code, out)
		}
	}
	if code, out := s.gates(nil, "doctor"); strings.Contains(out, "stale") {
		t.Fatalf("doctor calls the earlier-format entry stale: exit %d\n%s", code, out)
	}
	// Re-recording writes the fingerprint form, with its note.
	file := s.acceptAll()
	if strings.Contains(file, "ab3e377e5b893023") || !strings.Contains(file, "\t# leak in README.md: pattern scripts/msg-patterns.list:1\n") {
		t.Fatalf("gates baseline did not rewrite the entry in the new form:\n%s", file)
	}
}
