package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pathWithout answers PATH without the directory holding prog.
func pathWithout(t *testing.T, prog string) string {
	t.Helper()
	p, err := exec.LookPath(prog)
	if err != nil {
		return os.Getenv("PATH")
	}
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d != "" && d != filepath.Dir(p) {
			keep = append(keep, d)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// TestReleaseChangeDeclaredOverThePublisher drives check-release-change-declared
// over a copy of this repository: dormant with no tag; once the copy is
// tagged, deleting a kit bin/ tool is red naming it, and a staged bullet on
// .workflow/release-declarations.md greens it. A deletion-only commit
// selects no pre-commit member (the hook's staged set leaves deletions out),
// so the battery is where an undeclared removal reds.
func TestReleaseChangeDeclaredOverThePublisher(t *testing.T) {
	t.Parallel()
	s := publisherClone(t)
	gate := func() (int, string) { return s.run(nil, binPath, "check-release-change-declared") }
	if code, out := gate(); code != 0 || !strings.Contains(out, "dormant") {
		t.Fatalf("untagged: exit %d\n%s", code, out)
	}
	s.git("tag", "v0.1.0")
	if code, out := gate(); code != 0 || !strings.Contains(out, "base v0.1.0: 0 changed paths") {
		t.Fatalf("tagged, unchanged: exit %d\n%s", code, out)
	}
	tool := "kits/gate-sdk/bin/run-fixture-suites.sh"
	s.git("rm", "-q", tool)
	code, out := gate()
	if code != 1 || !strings.Contains(out, tool+": a kit tool removed since v0.1.0 (class R)") {
		t.Fatalf("an undeclared removal: exit %d\n%s", code, out)
	}
	// A deletion selects the members it can move (§--git-hook U): the
	// workflow still runs the removed tool, so the hook refuses, as the
	// battery would on the tree the commit records.
	// The hook runs every member past a red one; check-crate-arms, which
	// runs this module's whole test suite, is kept from starting a copy of
	// it by a PATH without go (it then refuses at once, red beside the
	// finding this test reads).
	if code, out := s.run([]string{"PATH=" + pathWithout(t, "go")}, binPath, "--git-hook", "pre-commit"); code != 1 || !strings.Contains(out, "invokes "+tool+", which does not resolve") {
		t.Fatalf("a deletion the CI workflow still needs: exit %d\n%s", code, out)
	}
	surface := ".workflow/release-declarations.md"
	body := s.git("show", ":"+surface)
	s.write(surface, body+"\n## Behavior changes\n\n- **"+tool+"** is removed; run each suite with `gates --run-gate-tests`.\n", 0o644)
	s.git("add", surface)
	if code, out := gate(); code != 0 || !strings.Contains(out, "1 kit tools removed") {
		t.Fatalf("a declared removal: exit %d\n%s", code, out)
	}
}
