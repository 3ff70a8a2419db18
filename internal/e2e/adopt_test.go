package e2e

// Adoption that fits the repository: which gates init considers for what
// the repository is, the one verdict line per gate, the commit-message
// gates judged by the history, and init staying inside the repository
// (symbolic links out, ignore rules, other hook managers, a restore over
// a changed core.hooksPath).

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// verdicts parses init's per-gate lines: gate -> what follows "<gate>: ".
func verdicts(t *testing.T, out string) map[string]string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^init: (check-[a-z0-9-]+): (registered.*|not adopted: .*)$`)
	got := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(out, -1) {
		if _, dup := got[m[1]]; dup {
			t.Errorf("init printed %s twice", m[1])
		}
		got[m[1]] = m[2]
	}
	return got
}

// kitGates answers the kit's shipped gates by install disposition.
func kitGates(t *testing.T) map[string]string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(moduleRoot, "kits", "gate-sdk", "checks", "*.gate"))
	if err != nil || len(matches) == 0 {
		t.Fatalf("no kit descriptors: %v", err)
	}
	out := map[string]string{}
	for _, m := range matches {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		if d := regexp.MustCompile(`(?m)^# install: (\S+)`).FindSubmatch(data); d != nil {
			out[strings.TrimSuffix(filepath.Base(m), ".gate")] = string(d[1])
		}
	}
	return out
}

// A repository with no commit yet: one line per kit gate, every
// zero-config gate that applies to a repository without gates of its own
// registered (the commit-message ones included: no history refuses
// them), and the rest not adopted for what the repository is, never for a
// finding. The battery is green.
func TestAdoptNoHistoryRegistersEveryZeroConfigGate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := &adopter{t: t, dir: dir, env: baseEnv(t, "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))}
	a.must("git", "init", "-q", "-b", "main")
	a.write("README.md", "# a project\n")
	r := a.runIn("", binPath, "init")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	got := verdicts(t, r.stdout)
	for g, disp := range kitGates(t) {
		v, ok := got[g]
		if !ok {
			t.Errorf("init printed no line for %s", g)
			continue
		}
		if disp != "zero-config" {
			continue
		}
		if strings.HasPrefix(v, "not adopted: ") && !strings.Contains(v, "holds none of this repository's own") {
			t.Errorf("zero-config %s: %s", g, v)
		}
		if strings.Contains(v, "accepted") {
			t.Errorf("%s accepted findings on an empty tree: %s", g, v)
		}
	}
	for _, g := range []string{"check-commit-msg", "check-tree-terms", "check-path-dialect", "check-exec-bit"} {
		if got[g] != "registered" {
			t.Errorf("%s: %q, want registered", g, got[g])
		}
	}
	if got["check-commit-subject"] != "registered" {
		t.Errorf("check-commit-subject with no history: %q, want registered", got["check-commit-subject"])
	}
	if !strings.HasPrefix(got["check-shellcheck"], "not adopted: it lints shell, and this repository tracks no *.sh of its own") {
		t.Errorf("check-shellcheck in a repository with no shell: %q", got["check-shellcheck"])
	}
	for _, g := range []string{"check-gate-output", "check-graph", "check-test-hermetic"} {
		if !strings.HasPrefix(got[g], "not adopted: it judges gates") {
			t.Errorf("%s in a repository with no gates of its own: %q", g, got[g])
		}
	}
	if !strings.HasPrefix(got["check-kit-registration"], "not adopted: this repository publishes no kit") {
		t.Errorf("check-kit-registration: %q", got["check-kit-registration"])
	}
	if b := a.battery(); b.code != 0 {
		t.Fatalf("battery: exit %d\n%s%s", b.code, b.stdout, b.stderr)
	}
	// The path rule is dormant here: the clean line says so.
	if g := a.runIn("", "bin/gates", "check-path-dialect"); g.code != 0 || !strings.Contains(g.stdout, "dormant: GATE_SDK_PATH_CROSSER") {
		t.Fatalf("check-path-dialect in a consumer: exit %d\n%s%s", g.code, g.stdout, g.stderr)
	}
}

// A gate of the repository's own brings the gates that govern gates in.
func TestAdoptOwnGatesBringTheMetaGates(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.write("scripts/check-local.gate", "# graph: couples=*.md dir=one valve=none tier=precommit\n")
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "-m", "chore: a gate of our own")
	r := a.runIn("", binPath, "init")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	got := verdicts(t, r.stdout)
	if strings.Contains(got["check-gate-output"], "holds none of this repository's own") {
		t.Fatalf("with a gate of its own, check-gate-output is still left out: %q", got["check-gate-output"])
	}
}

// commits adds n commits with one subject, each changing notes.txt.
func (a *adopter) commits(n int, subject string) {
	a.t.Helper()
	for i := 0; i < n; i++ {
		a.write("notes.txt", strings.Repeat("x", i+1)+"\n")
		a.must("git", "add", "-A")
		a.must("git", "commit", "-q", "-m", subject)
	}
}

// The commit-message gates follow the history: a project whose subjects
// are not Conventional Commits is not made to write them.
func TestAdoptCommitGatesFromHistory(t *testing.T) {
	t.Parallel()
	a := newAdopter(t) // one commit, "initial"
	a.commits(9, "Update notes")
	r := a.runIn("", binPath, "init")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	got := verdicts(t, r.stdout)
	want := "not adopted: 0 of the 10 recent subjects by people would pass; to adopt: echo check-commit-subject >> scripts/gates.list"
	if got["check-commit-subject"] != want {
		t.Fatalf("check-commit-subject: %q, want %q", got["check-commit-subject"], want)
	}
	if got["check-commit-msg"] != "registered" {
		t.Fatalf("check-commit-msg over clean messages: %q", got["check-commit-msg"])
	}
	// 9 of 10 conventional subjects: adopted.
	b := newAdopter(t)
	b.commits(9, "docs: update notes")
	r = b.runIn("", binPath, "init")
	if got := verdicts(t, r.stdout); r.code != 0 || got["check-commit-subject"] != "registered" {
		t.Fatalf("9 of 10 passing: exit %d, %q\n%s", r.code, got["check-commit-subject"], r.stderr)
	}
}

// init writes nothing through a symbolic link that leaves the repository.
func TestAdoptRefusesASymlinkOutOfTheRepository(t *testing.T) {
	t.Parallel()
	for _, link := range []string{"scripts", "gate-sdk"} {
		t.Run(link, func(t *testing.T) {
			a := newAdopter(t)
			outside := t.TempDir()
			if err := os.Symlink(outside, filepath.Join(a.dir, link)); err != nil {
				t.Fatal(err)
			}
			before := a.status()
			r := a.runIn("", binPath, "init")
			if r.code != 2 || !strings.Contains(r.stderr, "refused: "+link+" is a symbolic link to "+outside+", outside the repository") {
				t.Fatalf("init through %s -> outside: exit %d\n%s%s", link, r.code, r.stdout, r.stderr)
			}
			if ents, _ := os.ReadDir(outside); len(ents) > 0 {
				t.Fatalf("init wrote %d entries outside the repository", len(ents))
			}
			if after := a.status(); after != before {
				t.Fatalf("a refused init changed the tree:\n%s\nbefore:\n%s", after, before)
			}
		})
	}
}

// A .gitignore that would hide what init writes gets negations, named; a
// rule init cannot outrank from the root .gitignore is refused.
func TestAdoptNegatesWhatGitignoreHides(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.write(".gitignore", "bin/\n*.list\n")
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "-m", "chore: ignore")
	r := a.runIn("", binPath, "init")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{".gitignore would hide", "scripts/gates.list (.gitignore:2:*.list)", "gate-sdk/bin/run-gates.sh (.gitignore:1:bin/)", "!/gate-sdk/bin/", "!/scripts/gates.list"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("init's report lacks %q:\n%s", want, r.stdout)
		}
	}
	a.must("git", "add", "-A")
	tracked := a.must("git", "ls-files", "-z")
	for _, want := range []string{"scripts/gates.list", "scripts/msg-patterns.list", "scripts/root-allowlist.list", "gate-sdk/bin/run-gates.sh"} {
		if !strings.Contains("\x00"+tracked, "\x00"+want+"\x00") {
			t.Errorf("%s is not staged after init: the ignore rule still hides it", want)
		}
	}
	if strings.Contains(tracked, "bin/gates\n") && !strings.Contains(tracked, "gate-sdk/bin/gates") {
		t.Error("the placed binary was staged")
	}
	if b := a.battery(); b.code != 0 {
		t.Fatalf("battery: exit %d\n%s%s", b.code, b.stdout, b.stderr)
	}

	// .git/info/exclude cannot be outranked from the root: refused.
	c := newAdopter(t)
	c.write(".git/info/exclude", "*.list\n")
	before := c.fingerprint()
	r = c.runIn("", binPath, "init")
	if r.code != 2 || !strings.Contains(r.stderr, "refused: scripts/gates.list would be hidden by .git/info/exclude:1:*.list") {
		t.Fatalf("init under info/exclude: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if d := diffPrints(before, c.fingerprint()); len(d) > 0 {
		t.Fatalf("a refused init wrote %v", d)
	}
}

// init --hooks refuses another manager's core.hooksPath as --install-hooks
// does, before writing anything; --take-over takes it in the open.
func TestAdoptHooksRefuseAnotherManager(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.must("git", "config", "core.hooksPath", ".husky")
	before := a.fingerprint()
	r := a.runIn("", binPath, "init", "--hooks")
	if r.code != 2 || !strings.Contains(r.stderr, "core.hooksPath is already .husky") || !strings.Contains(r.stderr, "gates init --hooks --take-over") {
		t.Fatalf("init --hooks over husky: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if d := diffPrints(before, a.fingerprint()); len(d) > 0 {
		t.Fatalf("a refused init --hooks wrote %v", d)
	}
	if got := strings.TrimSpace(a.must("git", "config", "core.hooksPath")); got != ".husky" {
		t.Fatalf("core.hooksPath = %q after the refusal", got)
	}
	r = a.runIn("", binPath, "init", "--hooks", "--take-over")
	if r.code != 0 || !strings.Contains(r.stdout, "core.hooksPath was .husky") {
		t.Fatalf("init --hooks --take-over: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// --install-hooks --restore never overwrites a core.hooksPath the user set
// after the take-over.
func TestAdoptRestoreKeepsAChangedHooksPath(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.must(binPath, "init")
	a.must("git", "config", "core.hooksPath", ".husky")
	a.must("bin/gates", "--install-hooks", "--take-over")
	a.must("git", "config", "core.hooksPath", ".mine")
	r := a.runIn("", "bin/gates", "--install-hooks", "--restore")
	if r.code != 2 || !strings.Contains(r.stderr, "changed since; nothing restored") {
		t.Fatalf("--restore over a changed core.hooksPath: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := strings.TrimSpace(a.must("git", "config", "core.hooksPath")); got != ".mine" {
		t.Fatalf("core.hooksPath = %q, want the user's .mine kept", got)
	}
	// Unchanged since the take-over, it restores.
	b := newAdopter(t)
	b.must(binPath, "init")
	b.must("git", "config", "core.hooksPath", ".husky")
	b.must("bin/gates", "--install-hooks", "--take-over")
	if r := b.runIn("", "bin/gates", "--install-hooks", "--restore"); r.code != 0 {
		t.Fatalf("--restore: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := strings.TrimSpace(b.must("git", "config", "core.hooksPath")); got != ".husky" {
		t.Fatalf("core.hooksPath = %q after restore, want .husky", got)
	}
}

// Init never leaves an Actions gate out for one file: a broken YAML file
// GitHub never loads (a test fixture) is skipped by the gates, which are
// registered with a clause saying so; a workflow GitHub loads that does
// not parse is a finding, accepted in the baseline, and named.
func TestAdoptNeverLeavesAGateOutForOneFile(t *testing.T) {
	t.Parallel()
	actions := []string{"check-action-pinning", "check-action-permissions", "check-action-gh-repo", "check-action-run-path", "check-action-run-shell"}
	for _, tc := range []struct {
		name, file, body, want string
	}{
		{"a broken fixture", "examples/broken/action.yaml", "runs:\n  using: composite\n  steps: [\n",
			"registered; 1 unparseable YAML file skipped (GitHub never loads them; the gate skips them each run)"},
		{"a test input under testdata/", "testdata/broken/action.yaml", "runs:\n  using: composite\n  steps: [\n",
			"registered; 1 test input under testdata/ skipped (GitHub never loads them; the gate skips them each run)"},
		{"a broken workflow", ".github/workflows/broken.yml", "on: push\njobs:\n\tb: 1\n",
			"1 file GitHub loads cannot be read (.github/workflows/broken.yml): accepted in scripts/gates.baseline until fixed"},
	} {
		a := newAdopter(t)
		a.write(tc.file, tc.body)
		a.must("git", "add", "-A")
		a.must("git", "commit", "-q", "-m", "chore: broken yaml")
		r := a.runIn("", binPath, "init")
		if r.code != 0 {
			t.Fatalf("%s: init: exit %d\n%s%s", tc.name, r.code, r.stdout, r.stderr)
		}
		got := verdicts(t, r.stdout)
		for _, g := range actions {
			if v := got[g]; !strings.HasPrefix(v, "registered") || !strings.Contains(v, tc.want) {
				t.Errorf("%s: %s: %q", tc.name, g, v)
			}
		}
		if b := a.battery(); b.code != 0 {
			t.Fatalf("%s: battery after init: exit %d\n%s%s", tc.name, b.code, b.stdout, b.stderr)
		}
	}
}
