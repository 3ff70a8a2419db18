package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/gates"
)

// publisherOnlyNames answers the compiled gates no kit ships a descriptor
// for (owner "" in the table): the publisher's own members.
func publisherOnlyNames(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, d := range gates.All() {
		if d.Owner == "" {
			out = append(out, d.Name)
		}
	}
	if len(out) == 0 {
		t.Fatal("the table holds no publisher-only gate; the case this test is about is gone")
	}
	return out
}

// TestVerdictPublisherOnlyListing: a publisher-only gate is in the
// publisher's --list and completion, and in neither in a fresh consumer,
// where it has no descriptor to run under.
func TestVerdictPublisherOnlyListing(t *testing.T) {
	t.Parallel()
	only := publisherOnlyNames(t)
	a := newAdopter(t)
	if r := a.runIn("", binPath, "init"); r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	consumerList := a.must(binPath, "--list")
	consumerDone := a.must(binPath, "__complete", "check-")
	consumerHelp := a.must(binPath, "__complete", "help", "check-")
	pub := run(t, moduleRoot, cleanEnv(moduleRoot), binPath, "--list")
	pubDone := run(t, moduleRoot, cleanEnv(moduleRoot), binPath, "__complete", "check-")
	if pub.code != 0 || pubDone.code != 0 {
		t.Fatalf("the publisher's --list / completion: exit %d, %d\n%s%s", pub.code, pubDone.code, pub.stderr, pubDone.stderr)
	}
	has := func(out, name string) bool {
		for _, l := range strings.Split(out, "\n") {
			if l == name || strings.HasPrefix(l, name+"\t") {
				return true
			}
		}
		return false
	}
	for _, n := range only {
		if has(consumerList, n) {
			t.Errorf("a consumer's --list names publisher-only %s", n)
		}
		if has(consumerDone, n) || has(consumerHelp, n) {
			t.Errorf("a consumer's completion offers publisher-only %s", n)
		}
		if !has(pub.stdout, n) {
			t.Errorf("the publisher's --list lacks its own %s", n)
		}
		if !has(pubDone.stdout, n) {
			t.Errorf("the publisher's completion lacks its own %s", n)
		}
	}
	// Every kit-shipped gate stays listed in the consumer.
	for _, d := range gates.All() {
		if d.Owner != "" && !has(consumerList, d.Name) {
			t.Errorf("a consumer's --list lacks shipped %s", d.Name)
		}
	}
}

// TestVerdictSubdirectoryTranscripts: in a consumer, the battery and every
// registered gate print from a nested directory exactly what they print
// at the top, and exit alike: the run enters the top first.
func TestVerdictSubdirectoryTranscripts(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	if r := a.runIn("", binPath, "init"); r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A violation, so the transcripts carry findings as well as clean lines.
	a.write("stray/notes.txt", "a new top-level entry\n")
	a.write("docs/deep/er/page.md", "nested\n")
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "--no-verify", "-m", "chore: vendor gate-sdk")
	nested := "docs/deep/er"
	same := func(label string, args ...string) {
		t.Helper()
		top := a.runIn("", binPath, args...)
		sub := a.runIn(nested, binPath, args...)
		if top.code != sub.code || top.stdout != sub.stdout || top.stderr != sub.stderr {
			t.Errorf("%s from %s differs from the top's:\n--- top: exit %d\n%s%s\n--- %s: exit %d\n%s%s",
				label, nested, top.code, top.stdout, top.stderr, nested, sub.code, sub.stdout, sub.stderr)
		}
	}
	same("gates --run", "--run")
	battery := a.runIn("", binPath, "--run")
	if !strings.Contains(battery.stdout, "stray") {
		t.Fatalf("the battery did not judge the top-level entry this test plants:\n%s%s", battery.stdout, battery.stderr)
	}
	var names []string
	for _, l := range strings.Split(a.read("scripts/gates.list"), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			names = append(names, l)
		}
	}
	if len(names) < 10 {
		t.Fatalf("the consumer registers %d gates; the zero-config set this test is about is gone", len(names))
	}
	for _, n := range names {
		same(n, n)
	}
	same("--list", "--list")
	same("--emit kit-roots", "--emit", "kit-roots")
}

// precommitMembers answers the registered members whose declaration says
// tier=precommit, in registry order: the members the pre-commit hook can
// run.
func precommitMembers(t *testing.T, a *adopter) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(a.read("scripts/gates.list"), "\n") {
		n := strings.TrimSpace(l)
		if n == "" || strings.HasPrefix(n, "#") {
			continue
		}
		var decl string
		for _, p := range []string{"scripts/" + n + ".sh", "scripts/" + n + ".gate", "gate-sdk/checks/" + n + ".sh", "gate-sdk/checks/" + n + ".gate"} {
			if _, err := os.Stat(filepath.Join(a.dir, p)); err == nil {
				decl = a.read(p)
				break
			}
		}
		for _, dl := range strings.Split(decl, "\n") {
			if strings.HasPrefix(dl, "# graph:") && strings.Contains(dl+" ", " tier=precommit ") {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// failedMembers answers the names a battery transcript reports failed.
func failedMembers(out string) []string {
	var names []string
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "FAIL: "); ok {
			names = append(names, strings.Fields(rest)[0])
		}
	}
	return names
}

// TestVerdictHookEqualsBattery is the differential test: over a corpus
// of single-change commits on a clean consumer, the pre-commit hook's
// verdict on the staged change equals the battery's verdict (its
// pre-commit members) on the tree the commit records, and a failing hook
// names a member the battery fails.
func TestVerdictHookEqualsBattery(t *testing.T) {
	t.Parallel()
	start := time.Now()
	corpus := []verdictChange{
		{"add a file", "printf 'new\\n' > docs/new.md && git add docs/new.md"},
		{"modify a file", "printf 'more\\n' >> docs/guide.md && git add docs/guide.md"},
		{"delete a file", "git rm -q docs/guide.md"},
		{"rename a file", "git mv docs/guide.md docs/moved.md"},
		{"mode change", "chmod +x docs/guide.md && git add docs/guide.md"},
		{"new top-level entry", "mkdir stray && printf 'x\\n' > stray/notes.txt && git add stray"},
		{"new top-level file", "printf 'x\\n' > NOTES.txt && git add NOTES.txt"},
		{"rename a top-level dir", "git mv docs manual"},
		{"remove a top-level dir", "git rm -q -r docs"},
		{"symlink", "ln -s guide.md docs/link.md && git add docs/link.md"},
		{"top-level symlink", "ln -s docs/guide.md GUIDE && git add GUIDE"},
		{"unpinned action", "sed -i 's#uses: .*#uses: actions/checkout@v4#' .github/workflows/ci.yml && git add .github/workflows/ci.yml"},
		{"delete the workflow", "git rm -q .github/workflows/ci.yml"},
		{"delete the README", "git rm -q README.md"},
		{"executable script", "printf '#!/bin/sh\\necho hi\\n' > docs/run.sh && git add docs/run.sh"},
	}
	// Two consumers take alternate changes side by side: the machine CI
	// runs this on has two cores.
	var mu sync.Mutex
	flips := 0
	t.Run("group", func(t *testing.T) {
		for w := 0; w < 2; w++ {
			var part []verdictChange
			for i := w; i < len(corpus); i += 2 {
				part = append(part, corpus[i])
			}
			t.Run(fmt.Sprintf("consumer-%d", w), func(t *testing.T) {
				t.Parallel()
				n := hookBatteryDifferential(t, part)
				mu.Lock()
				flips += n
				mu.Unlock()
			})
		}
	})
	if flips < 3 {
		t.Errorf("only %d of %d changes moved a verdict; the corpus no longer tells a blind hook from a faithful one", flips, len(corpus))
	}
	t.Logf("%d changes, %d moving a verdict, in %s", len(corpus), flips, time.Since(start).Round(time.Millisecond))
}

// verdictChange is one single-change commit of the differential corpus:
// a shell script staging the change.
type verdictChange struct{ name, change string }

// hookBatteryDifferential runs each change on a fresh clean consumer and
// compares the hook's verdict with the battery's; it answers how many
// changes moved the verdict to red.
func hookBatteryDifferential(t *testing.T, corpus []verdictChange) int {
	a := newAdopter(t)
	if r := a.runIn("", binPath, "init"); r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "--no-verify", "-m", "chore: vendor gate-sdk")
	base := strings.TrimSpace(a.must("git", "rev-parse", "HEAD"))
	members := precommitMembers(t, a)
	if len(members) < 10 {
		t.Fatalf("%d pre-commit members; the zero-config set this test is about is gone", len(members))
	}
	battery := func() result {
		return a.runIn("", binPath, append([]string{"--run", "--only"}, members...)...)
	}
	if r := battery(); r.code != 0 {
		t.Fatalf("the base tree is not clean, so no verdict below could be told apart:\n%s%s", r.stdout, r.stderr)
	}
	flips := 0
	for _, c := range corpus {
		a.must("git", "reset", "-q", "--hard", base)
		a.must("git", "clean", "-qfdx", "-e", "bin/")
		a.must("sh", "-c", c.change)
		hook := a.runIn("", binPath, "--git-hook", "pre-commit")
		a.must("git", "commit", "-q", "--no-verify", "--allow-empty", "-m", "test: "+c.name)
		bat := battery()
		if hook.code == 2 || bat.code == 2 {
			t.Errorf("%s: a side could not decide: hook exit %d, battery exit %d\n%s%s\n%s%s", c.name, hook.code, bat.code, hook.stdout, hook.stderr, bat.stdout, bat.stderr)
			continue
		}
		failed := failedMembers(bat.stdout)
		if hook.code != bat.code {
			t.Errorf("%s: the hook exits %d and the battery %d on the tree the commit records (battery fails %v)\n--- hook\n%s%s\n--- battery\n%s%s",
				c.name, hook.code, bat.code, failed, hook.stdout, hook.stderr, bat.stdout, bat.stderr)
			continue
		}
		if bat.code == 1 {
			flips++
			named := false
			for _, f := range failed {
				named = named || strings.Contains(hook.stdout, "pre-commit: "+f+" failed")
			}
			if !named {
				t.Errorf("%s: the hook failed on a member the battery does not fail (battery fails %v)\n%s", c.name, failed, hook.stdout)
			}
		}
	}
	return flips
}

// TestVerdictHookRefusesNewTopLevelDir: a commit adding a top-level
// directory the root allowlist does not name is refused by the placed
// pre-commit hook, as the battery would refuse the tree.
func TestVerdictHookRefusesNewTopLevelDir(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	if r := a.runIn("", binPath, "init", "--hooks"); r.code != 0 {
		t.Fatalf("init --hooks: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "--no-verify", "-m", "chore: vendor gate-sdk")
	a.write("stray/notes.txt", "a new top-level entry\n")
	a.must("git", "add", "stray")
	r := a.runIn("", "git", "commit", "-q", "-m", "docs: a stray directory")
	if r.code == 0 {
		t.Fatalf("git commit took a new top-level directory:\n%s%s", r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout+r.stderr, "check-root-tiering failed") || !strings.Contains(r.stdout+r.stderr, "stray") {
		t.Fatalf("the refusal does not name check-root-tiering and the entry:\n%s%s", r.stdout, r.stderr)
	}
	if head := strings.TrimSpace(a.must("git", "log", "-1", "--format=%s")); head != "chore: vendor gate-sdk" {
		t.Fatalf("a commit landed: %q", head)
	}
}

// TestVerdictPublisherGatesFromSubdirectory: in this repository, the
// gates that resolve documents and kit roots answer from a nested
// directory exactly as from the top.
func TestVerdictPublisherGatesFromSubdirectory(t *testing.T) {
	t.Parallel()
	env := cleanEnv(moduleRoot)
	nested := filepath.Join(moduleRoot, "internal", "gates")
	for _, g := range []string{"check-kit-registration", "check-kit-enum", "check-root-tiering", "check-front-end-fail-open", "check-readme-roster"} {
		top := run(t, moduleRoot, env, binPath, g)
		sub := run(t, nested, env, binPath, g)
		if top.code != 0 {
			t.Errorf("%s at the top: exit %d\n%s%s", g, top.code, top.stdout, top.stderr)
		}
		if top.code != sub.code || top.stdout != sub.stdout || top.stderr != sub.stderr {
			t.Errorf("%s from internal/gates differs from the top's:\n--- top: exit %d\n%s%s\n--- nested: exit %d\n%s%s", g, top.code, top.stdout, top.stderr, sub.code, sub.stdout, sub.stderr)
		}
	}
}
