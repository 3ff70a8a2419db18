package e2e

// Re-running init with a newer binary finishes the upgrade: the placed git
// hooks follow the binary, and a seed made from a kit template that the
// adopter never edited follows the release's template, named; an edited
// one is kept.

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// relock makes the lock record body's digest for rel, as if an older init
// had written body there.
func (a *adopter) relock(rel, body string) {
	a.t.Helper()
	sum := sha256.Sum256([]byte(body))
	lock := a.read("scripts/gates.lock")
	re := regexp.MustCompile(`("path": "` + regexp.QuoteMeta(rel) + `",\s*"sha256": ")[0-9a-f]{64}`)
	if !re.MatchString(lock) {
		a.t.Fatalf("the lock records no %s:\n%s", rel, lock)
	}
	a.write("scripts/gates.lock", re.ReplaceAllString(lock, "${1}"+hex.EncodeToString(sum[:])))
	a.write(rel, body)
}

func TestInitUpgradeRefreshesHooksAndUneditedSeeds(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.must(binPath, "init", "--hooks")
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "-m", "chore: vendor gate-sdk")

	// An older release: its pattern template differed and init wrote that,
	// and the hooks are copies of an older binary. The adopter edited the
	// knob file, which init keeps.
	old := "# an older release's pattern list\nold-term\n"
	a.relock("scripts/msg-patterns.list", old)
	knobs := a.read("scripts/gate-sdk-config.knobs") + "GATE_SDK_PORTABILITY_PATHS = docs\n"
	a.write("scripts/gate-sdk-config.knobs", knobs)
	hooks := filepath.Join(a.dir, strings.TrimSpace(a.must("git", "config", "core.hooksPath")))
	for _, h := range []string{"pre-commit", "commit-msg"} {
		os.Remove(filepath.Join(hooks, h))
		if err := os.WriteFile(filepath.Join(hooks, h), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if d := a.runIn("", "bin/gates", "doctor"); d.code != 1 || !strings.Contains(d.stdout, "pre-commit is not the binary") {
		t.Fatalf("doctor before the upgrade: exit %d\n%s%s", d.code, d.stdout, d.stderr)
	}

	r := a.runIn("", binPath, "init")
	if r.code != 0 {
		t.Fatalf("init over the older install: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "init: updated scripts/msg-patterns.list (unedited since init, and this release's template differs)\n") {
		t.Errorf("init does not name the seed it updated:\n%s", r.stdout)
	}
	if strings.Contains(a.read("scripts/msg-patterns.list"), "old-term") {
		t.Errorf("the unedited seed kept the older template:\n%s", a.read("scripts/msg-patterns.list"))
	}
	if !strings.Contains(r.stdout, "init: kept scripts/gate-sdk-config.knobs (edited since init)") || a.read("scripts/gate-sdk-config.knobs") != knobs {
		t.Errorf("the edited knob file was not kept:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "init: refreshed the git hooks in ") {
		t.Errorf("init does not say it refreshed the hooks:\n%s", r.stdout)
	}
	if d := a.runIn("", "bin/gates", "doctor"); d.code != 0 || !strings.Contains(d.stdout, "hooks placed in") {
		t.Fatalf("doctor after the upgrade: exit %d\n%s%s", d.code, d.stdout, d.stderr)
	}
	// The hooks run again: a commit with a planted home path is refused.
	a.write("docs/guide.md", "See "+plantedHome+".\n")
	a.must("git", "add", "-A")
	if c := a.runIn("", "git", "commit", "-q", "-m", "docs: notes"); c.code == 0 {
		t.Fatalf("the refreshed hooks let a violation through:\n%s%s", c.stdout, c.stderr)
	}
}

// An upgrade says what the release changes, read off the kit vendored
// before it: gates added, templates changed, knobs added and retired.
func TestInitUpgradeSaysWhatTheReleaseChanges(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.must(binPath, "init")
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "--no-verify", "-m", "chore: vendor gate-sdk")
	if r := a.runIn("", binPath, "init"); r.code != 0 || strings.Contains(r.stdout, "the kit moves") {
		t.Fatalf("a rerun of the same release says the kit moved: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The kit as an older release vendored it: no check-exec-bit, another
	// adopt.md, a knob table without GATE_SDK_LINT_EXTRA_DIRS and with a
	// knob since retired.
	if err := os.Remove(filepath.Join(a.dir, "gate-sdk/checks/check-exec-bit.gate")); err != nil {
		t.Fatal(err)
	}
	a.relock("gate-sdk/templates/adopt.md", "# an older walk\n")
	table := a.read("gate-sdk/knobs.toml")
	re := regexp.MustCompile(`(?s)\[\[knob\]\]\nname = "GATE_SDK_LINT_EXTRA_DIRS"\n.*?\n\n`)
	if !re.MatchString(table) {
		t.Fatalf("the knob table has no GATE_SDK_LINT_EXTRA_DIRS block")
	}
	table = re.ReplaceAllString(table, "[[knob]]\nname = \"GATE_SDK_OLD_KNOB\"\nshape = \"scalar\"\ndescription = \"gone\"\n\n")
	a.relock("gate-sdk/knobs.toml", table)
	r := a.runIn("", binPath, "init")
	if r.code != 0 {
		t.Fatalf("init over the older kit: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"init:   gates new in this release: check-exec-bit\n",
		"init:   templates changed: gate-sdk/templates/adopt.md\n",
		"init:   knobs added: GATE_SDK_LINT_EXTRA_DIRS\n",
		"init:   knobs no longer read (a value you set for one is ignored now): GATE_SDK_OLD_KNOB\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("init does not say %q:\n%s", want, r.stdout)
		}
	}
}

// TestReadmeUpgradingBlockRuns runs the README's "Upgrading" block as
// written in an adopted repository whose pattern-list seed is an older
// release's, the release's placeholders (the digest, the payload's URL,
// the version) filled with a packed payload's: the installer upgrades,
// doctor is clean, and the commit lands.
func TestReadmeUpgradingBlockRuns(t *testing.T) {
	t.Parallel()
	dash := needDash(t)
	rel := buildRelease(t)
	readme, err := os.ReadFile(filepath.Join(moduleRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "\n### Upgrading\n")
	_, block, ok2 := strings.Cut(after, "```sh\n")
	block, _, ok3 := strings.Cut(block, "```\n")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README.md has no sh block under ### Upgrading")
	}
	side, err := os.ReadFile(rel.tarball + ".sha256")
	if err != nil {
		t.Fatal(err)
	}
	sum := strings.Fields(string(side))[0]
	url := "file://" + filepath.ToSlash(rel.tarball)
	script := strings.NewReplacer(
		"https://…/gates-payload-<version>.tar.gz", url,
		"gates-payload/install.sh", filepath.Join(rel.payload, "install.sh"),
		"<sum>", sum,
		"<version>", "the test release",
	).Replace(block)
	if strings.ContainsAny(script, "<…") {
		t.Fatalf("a placeholder this test does not fill is left in the block:\n%s", script)
	}
	a := newAdopter(t)
	a.must(dash, filepath.Join(rel.payload, "install.sh"), "--sha256", sum, url)
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "-m", "chore: vendor gate-sdk")
	a.relock("scripts/msg-patterns.list", "# an older release's pattern list\nold-term\n")
	a.must("git", "commit", "-q", "-am", "chore: an older release's seed")
	r := a.runIn("", "sh", "-ec", script)
	if r.code != 0 {
		t.Fatalf("the Upgrading block: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "init: updated scripts/msg-patterns.list") {
		t.Errorf("the upgrade does not name the seed it brought to the release:\n%s", r.stdout)
	}
	if got := a.must("git", "log", "-1", "--format=%s"); !strings.Contains(got, "chore: upgrade gate-sdk to the test release") {
		t.Errorf("the block's commit did not land: HEAD is %q", got)
	}
}
