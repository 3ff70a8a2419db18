package e2e

// Adoption as a new user meets it: `gates init` in a fresh repository, the
// battery and the hooks it arms, a second run, an edited seed, the
// reversal; the release payload and the installer bootstrap under dash;
// the CI template's steps run in a clone.

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gate-sdk/gates/internal/workflow"
)

// plantedHome is the banned home path the tests plant, composed at run
// time so this file itself carries no banned shape.
var plantedHome = "/" + "home/marta/notes"

const pinnedCI = `name: ci
on:
  push:
    branches: [main]
permissions:
  contents: read
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
      - name: test
        shell: bash
        run: |
          echo ok
`

// adopter is a fresh repository a user adopts gates in.
type adopter struct {
	t   *testing.T
	dir string
	env []string
}

func newAdopter(t *testing.T) *adopter {
	t.Helper()
	a := &adopter{t: t, dir: t.TempDir()}
	a.env = baseEnv(t, "GIT_CEILING_DIRECTORIES="+filepath.Dir(a.dir))
	a.must("git", "init", "-q", "-b", "main")
	a.write("README.md", "# a project\n")
	a.write("docs/guide.md", "How to use it.\n")
	a.write(".github/workflows/ci.yml", pinnedCI)
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "-m", "initial")
	return a
}

func (a *adopter) write(rel, body string) {
	a.t.Helper()
	p := filepath.Join(a.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		a.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		a.t.Fatal(err)
	}
}

func (a *adopter) read(rel string) string {
	a.t.Helper()
	b, err := os.ReadFile(filepath.Join(a.dir, rel))
	if err != nil {
		a.t.Fatal(err)
	}
	return string(b)
}

func (a *adopter) runIn(sub, name string, args ...string) result {
	a.t.Helper()
	return run(a.t, filepath.Join(a.dir, sub), a.env, name, args...)
}

func (a *adopter) must(name string, args ...string) string {
	a.t.Helper()
	r := a.runIn("", name, args...)
	if r.code != 0 {
		a.t.Fatalf("%s %v: exit %d\n%s%s", name, args, r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

func (a *adopter) battery() result {
	a.t.Helper()
	return a.runIn("", "bash", "gate-sdk/bin/run-gates.sh")
}

// status is `git status` with ignored files, the tree as a user sees it.
func (a *adopter) status() string {
	a.t.Helper()
	return a.must("git", "status", "--porcelain", "--ignored", "--untracked-files=all")
}

// fingerprint answers every file under the tree but .git with its digest
// and modification time, so a rewrite of identical bytes shows too.
func (a *adopter) fingerprint() map[string]string {
	a.t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(a.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(a.dir, p)
		if d.IsDir() {
			if rel == ".git" || rel == ".tmp" {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		out[rel] = hex.EncodeToString(sum[:]) + " " + info.ModTime().String() + " " + info.Mode().String()
		return nil
	})
	if err != nil {
		a.t.Fatal(err)
	}
	return out
}

func diffPrints(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

func TestInitAdoptsAFreshRepository(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	// From a subdirectory: init works at the toplevel.
	r := a.runIn("docs", binPath, "init")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"scripts/gates.list", "gate-sdk/", "bin/gates", "next:"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("init's report does not name %q:\n%s", want, r.stdout)
		}
	}
	// The first battery, before anything is committed, and after.
	for _, when := range []string{"uncommitted", "committed"} {
		b := a.battery()
		if b.code != 0 {
			t.Fatalf("battery (%s): exit %d\n%s%s", when, b.code, b.stdout, b.stderr)
		}
		if strings.Contains(b.stdout+b.stderr, "exit 2") {
			t.Fatalf("a member exited 2 on the tree init configured:\n%s%s", b.stdout, b.stderr)
		}
		if when == "uncommitted" {
			a.must("git", "add", "-A")
			a.must("git", "commit", "-q", "--no-verify", "-m", "chore: vendor gate-sdk")
		}
	}
	// Nothing registered exits 2 when run alone either.
	list := a.read("scripts/gates.list")
	for _, line := range strings.Split(list, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if g := a.runIn("", "bin/gates", line); g.code == 2 {
			t.Errorf("%s exits 2 on the tree init configured:\n%s%s", line, g.stdout, g.stderr)
		}
	}
	for _, want := range []string{"check-tree-terms", "check-action-pinning", "check-root-tiering", "# unregistered: check-workflow-tiering"} {
		if !strings.Contains(list, want) {
			t.Errorf("scripts/gates.list lacks %q:\n%s", want, list)
		}
	}

	// A second run writes nothing.
	before := a.fingerprint()
	r = a.runIn("", binPath, "init")
	if r.code != 0 || !strings.Contains(r.stdout, "nothing to do") {
		t.Fatalf("second init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if d := diffPrints(before, a.fingerprint()); len(d) > 0 {
		t.Fatalf("the second init rewrote %v", d)
	}

	// --hooks places them; the hook refuses a planted home path.
	a.must(binPath, "init", "--hooks")
	if got := strings.TrimSpace(a.must("git", "config", "core.hooksPath")); !strings.HasSuffix(got, "gate-hooks") {
		t.Fatalf("core.hooksPath = %q after init --hooks", got)
	}
	a.write("docs/guide.md", "How to use it.\nSee "+plantedHome+" for more.\n")
	a.must("git", "add", "docs/guide.md")
	c := a.runIn("", "git", "commit", "-q", "-m", "docs: add notes")
	if c.code == 0 || !strings.Contains(c.stdout+c.stderr, "check-tree-terms") {
		t.Fatalf("the hook let a home path in: exit %d\n%s%s", c.code, c.stdout, c.stderr)
	}
	a.must("git", "reset", "-q", "--hard")

	// A floating action tag is refused.
	a.write(".github/workflows/ci.yml", strings.Replace(pinnedCI, "checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2", "checkout@v4", 1))
	a.must("git", "add", "-A")
	c = a.runIn("", "git", "commit", "-q", "-m", "ci: float the checkout")
	if c.code == 0 || !strings.Contains(c.stdout+c.stderr, "checkout@v4") {
		t.Fatalf("the hook let uses: actions/checkout@v4 in: exit %d\n%s%s", c.code, c.stdout, c.stderr)
	}
	a.must("git", "reset", "-q", "--hard")

	// A new top-level entry reds check-root-tiering.
	a.write("scratch.txt", "x\n")
	a.must("git", "add", "scratch.txt")
	b := a.battery()
	if b.code != 1 || !strings.Contains(b.stdout, "scratch.txt") || !strings.Contains(b.stdout, "check-root-tiering") {
		t.Fatalf("a new root entry: battery exit %d\n%s%s", b.code, b.stdout, b.stderr)
	}
	a.must("git", "rm", "-q", "--cached", "scratch.txt")
	os.Remove(filepath.Join(a.dir, "scratch.txt"))

	// An edited registry is the adopter's: never overwritten.
	edited := strings.Replace(list, "check-exec-bit\n", "", 1)
	a.write("scripts/gates.list", edited)
	r = a.runIn("", binPath, "init")
	if r.code != 0 || !strings.Contains(r.stdout, "kept scripts/gates.list") {
		t.Fatalf("init over an edited registry: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if a.read("scripts/gates.list") != edited {
		t.Fatal("init overwrote the edited scripts/gates.list")
	}
}

// TestInitVendorsEveryFixturePair: by default init vendors no fixture
// pair and the consumer's fixture suites run the binary's embedded ones
// green; --with-fixtures carries every pair and bespoke test, the cases
// that are Go modules of their own included, byte for byte.
func TestInitVendorsEveryFixturePair(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	if r := a.runIn("", binPath, "init"); r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(a.dir, "gate-sdk", "gate-tests")); err == nil {
		t.Fatal("init vendored gate-sdk/gate-tests/ without --with-fixtures")
	}
	if _, err := os.Stat(filepath.Join(a.dir, "gate-sdk", "SPEC.md")); err != nil {
		t.Fatalf("init did not vendor the kit's SPEC.md, which every spec: pointer names: %v", err)
	}
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "--no-verify", "-m", "chore: vendor gate-sdk")
	list := func(dir string) []string {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range ents {
			out = append(out, e.Name())
		}
		return out
	}
	want := list(filepath.Join(moduleRoot, "gate-tests"))
	rows := strings.Split(strings.TrimSpace(a.must("bin/gates", "--emit", "fixture-suites")), "\n")
	if len(rows) != 1 || rows[0] != "gate_sdk\tembedded:gate-sdk\tgate-sdk/checks" {
		t.Fatalf("the consumer's fixture suites: %q", rows)
	}
	// The copied workflow's fixture step, as CI runs it.
	r := a.runIn("", "bash", "gate-sdk/bin/run-fixture-suites.sh")
	pairs := regexp.MustCompile(`embedded:gate-sdk: (\d+) pairs \(0 failed\), (\d+) tests \(0 failed\), 0 harness errors`).FindStringSubmatch(r.stdout)
	if r.code != 0 || pairs == nil {
		t.Fatalf("the embedded fixture suite: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	dirs, tests := 0, 0
	for _, n := range want {
		if strings.HasSuffix(n, ".test.sh") {
			tests++
		} else if fi, err := os.Stat(filepath.Join(moduleRoot, "gate-tests", n)); err == nil && fi.IsDir() {
			dirs++
		}
	}
	if pairs[1] != strconv.Itoa(dirs) || pairs[2] != strconv.Itoa(tests) {
		t.Fatalf("ran %s pairs and %s tests; the kit ships %d and %d", pairs[1], pairs[2], dirs, tests)
	}

	// --with-fixtures vendors them, and a later plain init keeps them.
	if r := a.runIn("", binPath, "init", "--with-fixtures"); r.code != 0 {
		t.Fatalf("init --with-fixtures: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := list(filepath.Join(a.dir, "gate-sdk", "gate-tests")); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("the vendored gate-tests/ holds\n  %v\nthe module's\n  %v", got, want)
	}
	mods := 0
	err := filepath.WalkDir(filepath.Join(moduleRoot, "gate-tests"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(moduleRoot, p)
		if d.Name() == "go.mod" {
			mods++
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst, err := os.ReadFile(filepath.Join(a.dir, "gate-sdk", rel))
		if err != nil {
			t.Errorf("not vendored: %s", rel)
			return nil
		}
		if string(src) != string(dst) {
			t.Errorf("vendored %s differs from the module's", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if mods == 0 {
		t.Fatal("the module's gate-tests/ holds no go.mod; the nested-module case this test is about is gone")
	}
	if r := a.runIn("", binPath, "init"); r.code != 0 || !strings.Contains(r.stdout, "nothing to do") {
		t.Fatalf("a plain init after --with-fixtures: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	rows = strings.Split(strings.TrimSpace(a.must("bin/gates", "--emit", "fixture-suites")), "\n")
	if len(rows) != 1 || !strings.HasPrefix(rows[0], "gate_sdk\tgate-sdk/gate-tests\t") {
		t.Fatalf("the fixture suites once vendored: %q", rows)
	}
}

func TestInitRefusesAFileItDidNotWrite(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.write("scripts/gates.list", "check-identity\n")
	before := a.status()
	r := a.runIn("", binPath, "init")
	if r.code != 2 || !strings.Contains(r.stderr, "refused: scripts/gates.list") {
		t.Fatalf("init over a foreign registry: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if after := a.status(); after != before {
		t.Fatalf("a refused init wrote:\n%s", after)
	}
	// The dry run shows the same refusal and writes nothing.
	if r := a.runIn("", binPath, "init", "--dry-run"); r.code != 2 {
		t.Fatalf("dry run over a conflict: exit %d", r.code)
	}
	os.Remove(filepath.Join(a.dir, "scripts/gates.list"))
	os.Remove(filepath.Join(a.dir, "scripts"))
	before = a.status()
	r = a.runIn("", binPath, "init", "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, "would create scripts/gates.list") || !strings.Contains(r.stdout, "would vendor gate-sdk") {
		t.Fatalf("dry run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if after := a.status(); after != before {
		t.Fatalf("a dry run wrote:\n%s", after)
	}
	if r := a.runIn("", binPath, "init", "--bogus"); r.code != 2 || !strings.Contains(r.stderr, "usage: gates init") {
		t.Fatalf("an unknown option: exit %d\n%s", r.code, r.stderr)
	}
	if r := a.runIn("", binPath, "init", "--help"); r.code != 0 || !strings.Contains(r.stdout, "usage: gates init") {
		t.Fatalf("init --help: exit %d\n%s", r.code, r.stdout)
	}
}

func TestInitUninstallRestoresTheTree(t *testing.T) {
	t.Parallel()
	for _, prior := range []string{"", ".githooks"} {
		t.Run("hooksPath="+prior, func(t *testing.T) {
			a := newAdopter(t)
			a.write(".gitignore", "node_modules")
			a.must("git", "add", "-A")
			a.must("git", "commit", "-q", "-m", "ignore")
			if prior != "" {
				a.must("git", "config", "core.hooksPath", prior)
			}
			before := a.status()
			if prior != "" {
				a.must(binPath, "init", "--hooks", "--take-over")
			} else {
				a.must(binPath, "init", "--hooks")
			}
			if a.status() == before {
				t.Fatal("init changed nothing")
			}
			r := a.runIn("", binPath, "init", "--uninstall")
			if r.code != 0 {
				t.Fatalf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if after := a.status(); after != before {
				t.Fatalf("git status after init and uninstall:\n%s\nbefore:\n%s", after, before)
			}
			if a.read(".gitignore") != "node_modules" {
				t.Fatalf(".gitignore not restored: %q", a.read(".gitignore"))
			}
			got := a.runIn("", "git", "config", "core.hooksPath")
			if strings.TrimSpace(got.stdout) != prior {
				t.Fatalf("core.hooksPath = %q, want %q", got.stdout, prior)
			}
			if r := a.runIn("", binPath, "init", "--uninstall"); r.code != 2 {
				t.Fatalf("a second uninstall: exit %d, want the no-lock refusal", r.code)
			}
		})
	}
	// A file edited since init is kept, and the lock keeps naming it.
	a := newAdopter(t)
	a.must(binPath, "init")
	a.write("scripts/msg-patterns.list", "secret-term\n")
	r := a.runIn("", binPath, "init", "--uninstall")
	if r.code != 1 || !strings.Contains(r.stdout, "kept scripts/msg-patterns.list") {
		t.Fatalf("uninstall over an edit: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if a.read("scripts/msg-patterns.list") != "secret-term\n" || !strings.Contains(a.read("scripts/gates.lock"), "scripts/msg-patterns.list") {
		t.Fatal("the edited file or its lock entry is gone")
	}
}

func TestDoctorNamesWhatIsDisarmed(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.must(binPath, "init")
	r := a.runIn("", "bin/gates", "doctor")
	// A correct adoption is not wrong: the gates waiting for a knob are
	// advice, and doctor exits 0 saying how many wait.
	if r.code != 0 || !strings.Contains(r.stdout, "DOCTOR: clean (nothing wrong") {
		t.Fatalf("doctor on a fresh install: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"doctor: advice: check-portability-floor asserts nothing while GATE_SDK_PORTABILITY_PATHS is empty", "hooks are not placed", "doctor: note: not registered (cannot run on this tree yet: check-workflow-tiering"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor does not say %q:\n%s", want, r.stdout)
		}
	}
	// One line per distinct note: no line repeats, and the gates left out
	// for one reason share one line.
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if seen[l] {
			t.Errorf("doctor repeats %q", l)
		}
		seen[l] = true
	}
	reasons := map[string]bool{}
	for _, l := range strings.Split(a.read("scripts/gates.list"), "\n") {
		if _, why, ok := strings.Cut(l, " \u2014 "); ok && strings.HasPrefix(l, "# unregistered: ") {
			_, why, _ = strings.Cut(why, ": ")
			reasons[why] = true
		}
	}
	if n := strings.Count(r.stdout, "doctor: note: not registered ("); n != len(reasons) || n == 0 {
		t.Errorf("doctor prints %d not-registered notes for %d distinct reasons:\n%s", n, len(reasons), r.stdout)
	}
	a.write("scripts/gate-sdk-config.knobs", a.read("scripts/gate-sdk-config.knobs")+"GATE_SDK_PORTABILITY_PATHS = docs\nGATE_SDK_JOB_REF_PATTERNS[] = ^main$\n")
	a.must(binPath, "init", "--hooks")
	r = a.runIn("", "bin/gates", "doctor")
	if r.code != 0 || strings.Contains(r.stdout, "check-portability-floor asserts nothing") || !strings.Contains(r.stdout, "matching bin/gates") {
		t.Fatalf("doctor once armed and hooked: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A placed hook that is not the binary any more is a finding.
	hooks := filepath.Join(a.dir, strings.TrimSpace(a.must("git", "config", "core.hooksPath")))
	os.Remove(filepath.Join(hooks, "pre-commit"))
	os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("#!/bin/sh\n"), 0o755)
	r = a.runIn("", "bin/gates", "doctor")
	if r.code != 1 || !strings.Contains(r.stdout, "pre-commit is not the binary") {
		t.Fatalf("doctor over a stale hook: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := a.runIn("", "bin/gates", "doctor", "extra"); r.code != 2 {
		t.Fatalf("doctor with an operand: exit %d", r.code)
	}
}

// release is one host-target release built once for the package: the
// artifact tree the build script writes, and the payload packed from it.
type release struct {
	arts, payload, tarball, target, stamp string
}

var (
	releaseOnce sync.Once
	hostRelease release
	releaseErr  string
)

func hostTarget() string { return runtime.GOOS + "/" + runtime.GOARCH }

// buildRelease runs the kit's build script for the host target, with the
// link flags the Makefile's build uses, and packs a host-only payload.
func buildRelease(t *testing.T) release {
	t.Helper()
	releaseOnce.Do(func() {
		base, err := os.MkdirTemp("", "gates-e2e-release-")
		if err != nil {
			releaseErr = err.Error()
			return
		}
		rel := release{arts: filepath.Join(base, "arts"), payload: filepath.Join(base, "payload"), tarball: filepath.Join(base, "payload.tar.gz"), target: hostTarget()}
		env := baseEnv(t, "GATE_SDK_PAYLOAD_ARTIFACTS="+rel.arts, "GATE_SDK_NATIVE_TARGETS_FILE="+filepath.Join(base, "targets.list"))
		// baseEnv moves HOME; keep the caller's Go caches, or the build
		// starts cold.
		goenv, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
		if err != nil {
			releaseErr = "go env: " + err.Error()
			return
		}
		for i, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
			if v := strings.Split(strings.TrimSpace(string(goenv)), "\n"); i < len(v) {
				env = append(env, k+"="+v[i])
			}
		}
		if err := os.WriteFile(filepath.Join(base, "targets.list"), []byte("# host only\n"+rel.target+"\n"), 0o644); err != nil {
			releaseErr = err.Error()
			return
		}
		b := run(t, moduleRoot, env, "bash", "kits/gate-sdk/bin/build-native.sh", "--target", rel.target)
		if b.code != 0 {
			releaseErr = "build-native.sh: " + b.stdout + b.stderr
			return
		}
		ld := run(t, moduleRoot, env, "make", "-s", "print-ldflags")
		m := regexp.MustCompile(`sourceStamp=(\S+)`).FindStringSubmatch(ld.stdout)
		if ld.code != 0 || m == nil {
			releaseErr = "make print-ldflags: " + ld.stdout + ld.stderr
			return
		}
		rel.stamp = strings.Trim(m[1], `'"`)
		for _, out := range []string{rel.payload, rel.tarball} {
			p := run(t, moduleRoot, env, binPath, "--pack-installer", out)
			if p.code != 0 {
				releaseErr = "--pack-installer: " + p.stdout + p.stderr
				return
			}
		}
		hostRelease = rel
	})
	if releaseErr != "" {
		t.Fatal(releaseErr)
	}
	return hostRelease
}

func needDash(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("dash")
	if err != nil {
		t.Fatal("dash is not on PATH; `make tools` installs it (the installer bootstrap is proved under it)")
	}
	return p
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	s := &scratch{t: t}
	s.copyTree(from, to)
}

func TestReleasePayloadAndInstaller(t *testing.T) {
	t.Parallel()
	dash := needDash(t)
	rel := buildRelease(t)
	// One artifact and a matching sidecar per roster line.
	dir := filepath.Join(rel.payload, "artifact", rel.target)
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) != 2 {
		t.Fatalf("artifact/%s holds %v (%v), want the binary and its sidecar", rel.target, ents, err)
	}
	bin := filepath.Join(dir, "gates"+exeSuffix())
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	side, _ := os.ReadFile(bin + ".sha256")
	if string(side) != hex.EncodeToString(sum[:])+"  gates"+exeSuffix()+"\n" {
		t.Fatalf("sidecar %q does not match the artifact", side)
	}
	if fi, _ := os.Stat(bin); fi.Mode().Perm()&0o111 == 0 {
		t.Fatal("the packed artifact is not executable")
	}
	for _, want := range []string{"targets.list", "install.sh", "install.ps1", "LICENSE", "payload.stamp", "gate-sdk/checks/check-tree-terms.gate", "gate-sdk/gate-tests/check-tree-terms/bad/expect.txt", "gate-sdk/templates/gates-workflow.yml", "gate-sdk/LICENSE"} {
		if _, err := os.Stat(filepath.Join(rel.payload, want)); err != nil {
			t.Errorf("the payload lacks %s", want)
		}
	}
	for _, withheld := range []string{"gate-sdk/SPEC.md", "gate-sdk/smoke"} {
		if _, err := os.Stat(filepath.Join(rel.payload, withheld)); err == nil {
			t.Errorf("the payload carries the withheld %s", withheld)
		}
	}

	// Installed under dash, from the directory and from the tarball.
	for _, src := range []string{rel.payload, rel.tarball} {
		a := newAdopter(t)
		args := []string{filepath.Join(rel.payload, "install.sh")}
		if strings.HasSuffix(src, ".tar.gz") {
			sum, _ := os.ReadFile(src + ".sha256")
			args = append(args, "--sha256", strings.Fields(string(sum))[0])
		}
		r := a.runIn("", dash, append(args, src)...)
		if r.code != 0 {
			t.Fatalf("dash install.sh %s: exit %d\n%s%s", src, r.code, r.stdout, r.stderr)
		}
		got := strings.TrimSpace(a.must("bin/gates", "--source-stamp"))
		if got != rel.stamp {
			t.Fatalf("the installed binary's stamp is %q, the release's %q", got, rel.stamp)
		}
		if b := a.battery(); b.code != 0 {
			t.Fatalf("battery after install: exit %d\n%s%s", b.code, b.stdout, b.stderr)
		}
	}

	// A flipped byte is refused, and nothing is placed.
	broken := filepath.Join(t.TempDir(), "payload")
	copyDir(t, rel.payload, broken)
	bad := filepath.Join(broken, "artifact", rel.target, "gates"+exeSuffix())
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(bad, data, 0o755); err != nil {
		t.Fatal(err)
	}
	a := newAdopter(t)
	before := a.status()
	r := a.runIn("", dash, filepath.Join(broken, "install.sh"), broken)
	if r.code != 2 || !strings.Contains(r.stderr, "sha256") || !strings.Contains(r.stderr, "nothing placed") {
		t.Fatalf("a flipped byte: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if after := a.status(); after != before {
		t.Fatalf("a refused install placed:\n%s", after)
	}

	// A roster without the host's target is refused, naming the host.
	other := filepath.Join(t.TempDir(), "payload")
	copyDir(t, rel.payload, other)
	os.WriteFile(filepath.Join(other, "targets.list"), []byte("plan9/amd64\n"), 0o644)
	r = a.runIn("", dash, filepath.Join(other, "install.sh"), other)
	if r.code != 2 || !strings.Contains(r.stderr, "this host is "+rel.target) || !strings.Contains(r.stderr, "plan9/amd64") {
		t.Fatalf("a roster without the host: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if after := a.status(); after != before {
		t.Fatalf("a refused install placed:\n%s", after)
	}
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

func TestPackerRefusesAnIncompleteRelease(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	arts := filepath.Join(base, "arts")
	roster := filepath.Join(base, "targets.list")
	os.WriteFile(roster, []byte("linux/amd64\nwindows/arm64\n"), 0o644)
	env := baseEnv(t, "GATE_SDK_PAYLOAD_ARTIFACTS="+arts, "GATE_SDK_NATIVE_TARGETS_FILE="+roster)
	one := filepath.Join(arts, "linux", "amd64")
	os.MkdirAll(one, 0o755)
	body := []byte("not really a binary")
	sum := sha256.Sum256(body)
	os.WriteFile(filepath.Join(one, "gates"), body, 0o644)
	os.WriteFile(filepath.Join(one, "gates.sha256"), []byte(hex.EncodeToString(sum[:])+"  gates\n"), 0o644)
	r := run(t, moduleRoot, env, binPath, "--pack-installer", filepath.Join(base, "out"))
	if r.code != 2 || !strings.Contains(r.stderr, "windows/arm64") {
		t.Fatalf("a roster line without an artifact: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(base, "out")); err == nil {
		t.Fatal("a refused pack wrote its output")
	}
	// Two artifacts in one directory are refused, naming it.
	os.WriteFile(roster, []byte("linux/amd64\n"), 0o644)
	os.WriteFile(filepath.Join(one, "gates.old"), body, 0o644)
	r = run(t, moduleRoot, env, binPath, "--pack-installer", filepath.Join(base, "out"))
	if r.code != 2 || !strings.Contains(r.stderr, one) || !strings.Contains(r.stderr, "2 artifacts") {
		t.Fatalf("two artifacts: exit %d\n%s", r.code, r.stderr)
	}
	// A sidecar that does not match is refused.
	os.Remove(filepath.Join(one, "gates.old"))
	os.WriteFile(filepath.Join(one, "gates"), []byte("tampered"), 0o644)
	r = run(t, moduleRoot, env, binPath, "--pack-installer", filepath.Join(base, "out"))
	if r.code != 2 || !strings.Contains(r.stderr, "does not match") {
		t.Fatalf("a mismatched sidecar: exit %d\n%s", r.code, r.stderr)
	}
	if r := run(t, moduleRoot, env, binPath, "--pack-installer"); r.code != 2 || !strings.Contains(r.stderr, "usage: gates --pack-installer") {
		t.Fatalf("no operand: exit %d\n%s", r.code, r.stderr)
	}
}

// TestCITemplateRunsInAClone runs the seeded workflow's run: steps with
// bash, in order, as a runner would: the workflow's env, GITHUB_ENV
// carried between steps, in a clone that tracks no binary.
func TestCITemplateRunsInAClone(t *testing.T) {
	t.Parallel()
	dash := needDash(t)
	rel := buildRelease(t)
	a := newAdopter(t)
	// Installed as a user would: the installer hands init the payload's
	// address and digest, and the seeded workflow carries both.
	side, err := os.ReadFile(rel.tarball + ".sha256")
	if err != nil {
		t.Fatal(err)
	}
	sum := strings.Fields(string(side))[0]
	url := "file://" + filepath.ToSlash(rel.tarball)
	a.must(dash, filepath.Join(rel.payload, "install.sh"), "--sha256", sum, url)
	wf := a.read(".github/workflows/gates.yml")
	for _, want := range []string{`GATES_PAYLOAD: "` + url + `" #`, `GATES_PAYLOAD_SHA256: "` + sum + `" #`} {
		if !strings.Contains(wf, want) {
			t.Fatalf("the seeded workflow lacks %s:\n%s", want, wf)
		}
	}
	if r := a.runIn("", "bin/gates", "doctor"); r.code != 0 || strings.Contains(r.stdout, "ci:") {
		t.Fatalf("doctor over a workflow that carries its payload: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "--no-verify", "-m", "chore: vendor gate-sdk")
	clone := filepath.Join(t.TempDir(), "clone")
	a.must("git", "clone", "-q", a.dir, clone)
	if _, err := os.Stat(filepath.Join(clone, "bin", "gates")); err == nil {
		t.Fatal("the clone carries the binary; the template must obtain it")
	}
	steps := func() (int, string) {
		path := filepath.Join(clone, ".github/workflows/gates.yml")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f := workflow.Read(path, data)
		runs, err := workflow.Extract(f)
		if err != nil || len(runs) < 3 {
			t.Fatalf("the seeded workflow's run: steps: %d, %v", len(runs), err)
		}
		envOf := func(e *workflow.Entry) []string {
			var out []string
			if e == nil {
				return nil
			}
			for _, k := range workflow.EnvKeys(e) {
				if c := workflow.Child(e.Value, k); c != nil && c.Value != nil {
					out = append(out, k+"="+c.Value.Value)
				}
			}
			return out
		}
		env := append(baseEnv(t), envOf(f.Env)...)
		ghEnv := filepath.Join(t.TempDir(), "github_env")
		os.WriteFile(ghEnv, nil, 0o644)
		env = append(env, "GITHUB_ENV="+ghEnv, "CI=true")
		var log strings.Builder
		for _, r := range runs {
			if r.Res != workflow.Shell || r.Dialect != "bash" {
				t.Fatalf("step at line %d is not a bash step", r.Line)
			}
			stepEnv := append([]string(nil), env...)
			stepEnv = append(stepEnv, envOf(r.Step.Env)...)
			carried, _ := os.ReadFile(ghEnv)
			for _, l := range strings.Split(string(carried), "\n") {
				if l != "" {
					stepEnv = append(stepEnv, l)
				}
			}
			res := run(t, clone, stepEnv, "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", r.Body())
			log.WriteString(res.stdout + res.stderr)
			if res.code != 0 {
				return res.code, log.String()
			}
		}
		return 0, log.String()
	}
	if code, out := steps(); code != 0 {
		t.Fatalf("the CI template's steps failed in a clean clone: exit %d\n%s", code, out)
	}
	os.WriteFile(filepath.Join(clone, "docs/guide.md"), []byte("See "+plantedHome+".\n"), 0o644)
	gitIn := func(args ...string) {
		if r := run(t, clone, a.env, "git", args...); r.code != 0 {
			t.Fatalf("git %v: %s", args, r.stderr)
		}
	}
	gitIn("add", "-A")
	gitIn("commit", "-q", "--no-verify", "-m", "docs: notes")
	if code, out := steps(); code == 0 || !strings.Contains(out, "check-tree-terms") {
		t.Fatalf("the CI template's steps passed a planted violation: exit %d\n%s", code, out)
	}
}

// A source build knows no release payload: init seeds no workflow whose
// first step would fail, says what CI needs, and doctor says it too; a
// workflow copied with the payload left empty is doctor's finding.
func TestInitSourceBuildSeedsNoFailingWorkflow(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	r := a.runIn("", binPath, "init")
	if r.code != 0 || !strings.Contains(r.stdout, "init: did not seed .github/workflows/gates.yml: this binary came from no release payload") || !strings.Contains(r.stdout, "GATES_PAYLOAD_URL=") {
		t.Fatalf("init from a source build: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(a.dir, ".github/workflows/gates.yml")); err == nil {
		t.Fatal("a source build seeded a workflow with no payload to install from")
	}
	d := a.runIn("", "bin/gates", "doctor")
	if d.code != 0 || !strings.Contains(d.stdout, "doctor: advice: ci: no gates workflow at .github/workflows/gates.yml") {
		t.Fatalf("doctor without a workflow: exit %d\n%s%s", d.code, d.stdout, d.stderr)
	}
	tpl, err := os.ReadFile(filepath.Join(moduleRoot, "templates", "gates-workflow.yml"))
	if err != nil {
		t.Fatal(err)
	}
	a.write(".github/workflows/gates.yml", string(tpl))
	d = a.runIn("", "bin/gates", "doctor")
	if d.code != 1 || !strings.Contains(d.stdout, "doctor: ci: .github/workflows/gates.yml installs the gates binary from GATES_PAYLOAD, which is empty, and git does not track bin/gates: its first step fails on every run") {
		t.Fatalf("doctor over a workflow that cannot install the binary: exit %d\n%s%s", d.code, d.stdout, d.stderr)
	}
	// With the payload installed from a release the same run seeds it.
	r = a.runIn("", "env", "GATES_PAYLOAD_URL=https://example.invalid/gates-payload-v1.tar.gz", "GATES_PAYLOAD_SHA256="+strings.Repeat("ab", 32), binPath, "init", "--dry-run")
	if r.code != 2 || !strings.Contains(r.stderr, ".github/workflows/gates.yml") {
		t.Fatalf("init with a payload URL over a hand-copied workflow: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
