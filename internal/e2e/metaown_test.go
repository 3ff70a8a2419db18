package e2e

// The gates that govern gates judge the consumer's own: in a repository
// init adopted, the kit root its lock names is the release's copy and is
// not judged; and where init registers check-graph it writes the page.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plantedShell fails shellcheck (SC2086, an unquoted expansion) and holds
// an unchecked awk capture; it is planted in the vendored kit's lib/.
const plantedShell = `#!/usr/bin/env bash
set -euo pipefail
owner="$(awk '/^owner:/ {print $2}' docs/a.md)"
echo $owner
`

const vendoredNote = "vendored kit at gate-sdk/ not judged: proven by its release"

func TestMetaGatesJudgeOnlyTheConsumersOwn(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.write("scripts/check-local.gate", "# graph: couples=*.md dir=one valve=none tier=precommit\n")
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "-m", "chore: a gate of our own")
	r := a.runIn("", binPath, "init")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Judging the vendored kit, these accepted a finding per kit gate
	// without a vendored fixture pair, per kit SPEC contract, per kit
	// script: none of them is this repository's.
	got := verdicts(t, r.stdout)
	for _, g := range []string{"check-gate-fixture-coverage", "check-gate-assertions", "check-gate-output",
		"check-gate-fail-closed", "check-pipe-membership", "check-shellcheck", "check-install-disposition",
		"check-readme-roster", "check-template-copy-parity", "check-smoke-entry-guard"} {
		if got[g] != "registered" {
			t.Errorf("%s: %q, want registered with nothing accepted", g, got[g])
		}
	}
	// check-graph's page is emitted over the adoption: the battery judges
	// it staged.
	a.must("git", "add", "-A")
	if b := a.battery(); b.code != 0 {
		t.Fatalf("first battery: exit %d\n%s%s", b.code, b.stdout, b.stderr)
	}
	a.must("git", "commit", "-q", "-m", "chore: vendor gate-sdk")

	// A gate of our own with two latent defects, and the same defects
	// planted in the vendored copy. The planted files are no release's:
	// the lock does not record them, so they are judged as the
	// repository's own (issue 40), while every file the release shipped,
	// unchanged, stays exempt.
	a.write("docs/a.md", "owner: alice\n")
	a.write("scripts/check-x.sh", badCheckX)
	a.write("gate-sdk/checks/check-planted.sh", badCheckX)
	a.write("gate-sdk/lib/planted.sh", plantedShell)
	a.must("git", "add", "-A")

	for _, c := range []struct{ gate, own, planted string }{
		{"check-gate-fail-closed", "scripts/check-x.sh:6: ", "gate-sdk/checks/check-planted.sh:6: "},
		{"check-pipe-membership", "scripts/check-x.sh:7: ", "gate-sdk/checks/check-planted.sh:7: "},
	} {
		g := a.runIn("", "bin/gates", c.gate)
		if g.code != 1 || !strings.Contains(g.stdout, c.own) || !strings.Contains(g.stdout, c.planted) {
			t.Errorf("%s: exit %d, want 1 naming %q and %q\n%s%s", c.gate, g.code, c.own, c.planted, g.stdout, g.stderr)
		}
		if !strings.Contains(g.stdout, "note: "+vendoredNote+"\n") {
			t.Errorf("%s: the finding output does not name the skipped kit:\n%s", c.gate, g.stdout)
		}
	}
	// ShellCheck lints our scripts/ and what was planted, and leaves the
	// kit's shipped shell alone.
	g := a.runIn("", "bin/gates", "check-shellcheck")
	rest := strings.ReplaceAll(g.stdout, vendoredNote, "")
	for _, planted := range []string{"gate-sdk/lib/planted.sh", "gate-sdk/checks/check-planted.sh"} {
		rest = strings.ReplaceAll(rest, planted, "")
	}
	if strings.Contains(rest, "gate-sdk/") {
		t.Errorf("check-shellcheck linted the vendored kit's shipped files:\n%s", g.stdout)
	}
	if g.code == 2 || !strings.Contains(g.stdout, vendoredNote) {
		t.Errorf("check-shellcheck: exit %d, want a verdict naming the skipped kit\n%s%s", g.code, g.stdout, g.stderr)
	}

	// The rule is the lock: without it gate-sdk/ is a kit of the
	// repository's own, and all of it is judged.
	if err := os.Rename(filepath.Join(a.dir, "scripts", "gates.lock"), filepath.Join(a.dir, "gates.lock.aside")); err != nil {
		t.Fatal(err)
	}
	if g := a.runIn("", "bin/gates", "check-gate-fail-closed"); g.code != 1 || !strings.Contains(g.stdout, "gate-sdk/checks/check-planted.sh:6: ") || strings.Contains(g.stdout, vendoredNote) {
		t.Errorf("without the lock the kit is the repository's own and judged: exit %d\n%s%s", g.code, g.stdout, g.stderr)
	}
	if err := os.Rename(filepath.Join(a.dir, "gates.lock.aside"), filepath.Join(a.dir, "scripts", "gates.lock")); err != nil {
		t.Fatal(err)
	}
	// A clean own tree, the planted files gone: the clean line names the skip.
	a.must("git", "rm", "-q", "--cached", "scripts/check-x.sh", "gate-sdk/checks/check-planted.sh", "gate-sdk/lib/planted.sh")
	for _, f := range []string{"scripts/check-x.sh", "gate-sdk/checks/check-planted.sh", "gate-sdk/lib/planted.sh"} {
		if err := os.Remove(filepath.Join(a.dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	if g := a.runIn("", "bin/gates", "check-gate-fail-closed"); g.code != 0 || !strings.Contains(g.stdout, "GATE-FAIL-CLOSED: clean (") || !strings.Contains(g.stdout, vendoredNote+")") {
		t.Errorf("check-gate-fail-closed over our own clean gates: exit %d\n%s%s", g.code, g.stdout, g.stderr)
	}
}

// Where init registers check-graph it writes the page, emitted over the
// adoption commit: the battery is green before the commit and after it,
// and the committed page is what --emit graph prints.
func TestInitWritesTheGraphPage(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.write("scripts/check-local.gate", "# graph: couples=*.md dir=one valve=none tier=precommit\n")
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "-m", "chore: a gate of our own")
	r := a.runIn("", binPath, "init")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := verdicts(t, r.stdout)["check-graph"]; !strings.HasPrefix(got, "registered") {
		t.Fatalf("check-graph: %q, want registered", got)
	}
	if !strings.Contains(r.stdout, "init: wrote scripts/CHECK-GRAPH.html") {
		t.Errorf("init does not say it wrote the page:\n%s", r.stdout)
	}
	// The page's staleness is not accepted: the baseline holds no
	// check-graph entry, and the next steps stage the adoption before the
	// first battery.
	if bl, err := os.ReadFile(filepath.Join(a.dir, "scripts", "gates.baseline")); err == nil && strings.Contains(string(bl), "\ncheck-graph\t") {
		t.Fatalf("init accepted a check-graph finding:\n%s", bl)
	}
	if !strings.Contains(r.stdout, "  git add -A && bash gate-sdk/bin/run-gates.sh   the first battery, over the staged adoption") {
		t.Errorf("the next steps do not stage the adoption before the battery:\n%s", r.stdout)
	}
	a.must("git", "add", "-A")
	if b := a.battery(); b.code != 0 {
		t.Fatalf("first battery: exit %d\n%s%s", b.code, b.stdout, b.stderr)
	}
	a.must("git", "commit", "-q", "-m", "chore: vendor gate-sdk")
	if tracked := a.must("git", "ls-files", "-z", "scripts/CHECK-GRAPH.html"); tracked != "scripts/CHECK-GRAPH.html\x00" {
		t.Fatalf("the page is not in the adoption commit: %q", tracked)
	}
	if b := a.battery(); b.code != 0 {
		t.Fatalf("battery after the adoption commit: exit %d\n%s%s", b.code, b.stdout, b.stderr)
	}
	if emit := a.must("bin/gates", "--emit", "graph"); emit != a.read("scripts/CHECK-GRAPH.html") {
		t.Fatalf("the committed page differs from --emit graph")
	}
	if g := a.runIn("", "bin/gates", "check-graph"); g.code != 0 || !strings.Contains(g.stdout, "scripts/CHECK-GRAPH.html fresh") {
		t.Fatalf("check-graph after the commit: exit %d\n%s%s", g.code, g.stdout, g.stderr)
	}
	// A page gone stale later reds: nothing accepted it.
	page := a.read("scripts/CHECK-GRAPH.html")
	a.write("scripts/CHECK-GRAPH.html", page+"<!-- edited -->\n")
	if g := a.runIn("", "bin/gates", "check-graph"); g.code != 1 || !strings.Contains(g.stdout, "page is stale") {
		t.Fatalf("check-graph over a stale page: exit %d\n%s%s", g.code, g.stdout, g.stderr)
	}
	a.write("scripts/CHECK-GRAPH.html", page)
	// Every top-level entry init wrote is on the allowlist it wrote.
	allow := a.read("scripts/root-allowlist.list")
	for _, l := range strings.Split(strings.TrimSuffix(a.must("git", "ls-files", "-z"), "\x00"), "\x00") {
		first, _, _ := strings.Cut(l, "/")
		if !strings.Contains(allow, "\n"+first+"\n") {
			t.Errorf("%s is tracked at the top and not on the root allowlist:\n%s", first, allow)
		}
	}
	// A second run keeps the page; the reversal removes it with the rest.
	if r := a.runIn("", binPath, "init"); r.code != 0 || strings.Contains(r.stdout, "CHECK-GRAPH") {
		t.Fatalf("second init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := a.runIn("", binPath, "init", "--uninstall"); r.code != 0 {
		t.Fatalf("init --uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(a.dir, "scripts", "CHECK-GRAPH.html")); !os.IsNotExist(err) {
		t.Fatalf("init --uninstall left the page init wrote: %v", err)
	}
}
