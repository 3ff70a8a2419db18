package e2e

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/graph"
)

// specPointerRe reads the enforcement map's pointers: ([file](link) §section).
var specPointerRe = regexp.MustCompile(`\(\[([^\]]+)\]\(([^)]+)\) §([^\n]+?)\)\.$`)

// checkPointers fails unless every spec pointer of an enforcement-map
// page resolves in the tree at root: the link, read from the page's own
// directory, names a file holding the section's heading.
func checkPointers(t *testing.T, root, pagePath, page string) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(page, "\n") {
		if strings.Contains(line, "SPEC.md") && strings.HasPrefix(line, "- **") && !specPointerRe.MatchString(line) {
			t.Errorf("%s: a spec mention that is not a resolvable pointer: %s", pagePath, line)
		}
		m := specPointerRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n++
		target := path.Join(path.Dir(pagePath), m[2])
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(target)))
		if err != nil {
			t.Errorf("%s: pointer %s does not resolve: %v", pagePath, m[2], err)
			continue
		}
		if target != m[1] {
			t.Errorf("%s: pointer text %s and link %s name different files", pagePath, m[1], target)
		}
		if !graph.HasHeading(data, m[3]) {
			t.Errorf("%s: %s holds no section %q", pagePath, target, m[3])
		}
	}
	return n
}

// TestRepositoryEnforcementMapPointersResolve: this repository's committed
// map cites sections that are there.
func TestRepositoryEnforcementMapPointersResolve(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(filepath.Join(moduleRoot, "scripts", "ENFORCEMENT.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := checkPointers(t, moduleRoot, "scripts/ENFORCEMENT.md", string(page)); n == 0 {
		t.Fatal("the map cites no section; its classes are defined in kits/gate-sdk/SPEC.md, which this tree tracks")
	}
}

// vendoredAdopter is a fresh repository after gates init, committed.
func vendoredAdopter(t *testing.T) *adopter {
	t.Helper()
	a := newAdopter(t)
	if r := a.runIn("", binPath, "init"); r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "--no-verify", "-m", "chore: vendor gate-sdk")
	return a
}

// TestInitConsumerPagesNameOnlyItsTree: in a freshly initialized consumer
// the graph page names none of this repository's own paths nor a kit file
// init did not vendor, and the enforcement map lists only adopted classes
// with pointers that resolve.
func TestInitConsumerPagesNameOnlyItsTree(t *testing.T) {
	t.Parallel()
	a := vendoredAdopter(t)
	page := a.must(binPath, "--emit", "graph")
	for _, foreign := range []string{"internal/", "kits/", "go.mod", "docs/check-graph.html"} {
		if strings.Contains(page, foreign) {
			t.Errorf("the consumer's graph page names %s, which its tree does not hold", foreign)
		}
	}
	if _, err := os.Stat(filepath.Join(a.dir, "gate-sdk", "SPEC.md")); err != nil && strings.Contains(page, "gate-sdk/SPEC.md") {
		t.Error("the graph page names gate-sdk/SPEC.md, which init did not vendor")
	}
	if !strings.Contains(page, "<svg ") || !strings.Contains(page, "check-tree-terms") || !strings.Contains(page, "scripts/msg-patterns.list") {
		t.Fatal("the consumer's page draws none of its own surfaces")
	}
	emap := a.must(binPath, "--emit", "enforcement-map")
	for _, absent := range []string{"drift-kit", "context-kit", "evidence-kit", "Not adopted", "internal/"} {
		if strings.Contains(emap, absent) {
			t.Errorf("the consumer's enforcement map names %q", absent)
		}
	}
	checkPointers(t, a.dir, "docs/enforcement.md", emap)
}
