package gates

import (
	"fmt"
	"strings"
	"testing"
)

// TestEnforcementFreshShowsTheDiff: a stale page's report shows, on
// stderr, the normal diff from the committed page to the emission, capped,
// while stdout keeps the finding and its help line alone.
func TestEnforcementFreshShowsTheDiff(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"page.md": "# Map\n\nold row\nsame\n",
		"emit.md": "# Map\n\nnew row\nsame\n",
	})
	got := run{rule: checkEnforcementFresh, name: "check-enforcement-fresh", dir: dir, args: []string{"page.md", "emit.md"}}.exec()
	wantCode(t, got, 1)
	want := "check-enforcement-fresh: page.md against the emission (diff):\n3c3\n< old row\n---\n> new row\n"
	if got.Stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", got.Stderr, want)
	}
	for _, l := range strings.Split(strings.TrimSpace(got.Stdout), "\n") {
		if !strings.HasPrefix(l, "page.md:3: ") && !strings.HasPrefix(l, "help: ") {
			t.Errorf("stdout line outside the contract: %q", l)
		}
	}

	// A long difference is cut at the cap and says how much it left out.
	var a, b strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	writeFiles(t, dir, map[string]string{"page.md": a.String(), "emit.md": b.String()})
	got = run{rule: checkEnforcementFresh, name: "check-enforcement-fresh", dir: dir, args: []string{"page.md", "emit.md"}}.exec()
	lines := strings.Split(strings.TrimSuffix(got.Stderr, "\n"), "\n")
	if len(lines) != 21 || !strings.Contains(lines[0], "the first 20 of 62 lines") || lines[1] != "1,30c1,30" {
		t.Errorf("capped report: %d lines, heading %q, first hunk %q", len(lines), lines[0], lines[1])
	}

	// A fresh page prints no diff.
	writeFiles(t, dir, map[string]string{"emit.md": a.String()})
	got = run{rule: checkEnforcementFresh, name: "check-enforcement-fresh", dir: dir, args: []string{"page.md", "emit.md"}}.exec()
	wantCode(t, got, 0)
	if got.Stderr != "" {
		t.Errorf("fresh page printed %q", got.Stderr)
	}
}
