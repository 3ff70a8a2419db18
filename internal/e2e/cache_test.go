package e2e

// The result cache (issue 14, item 3), driven through binaries stamped as
// a release is: a warm run prints the bytes a cold run prints, in every
// arm and format, and each input of the key, changed, misses.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	stampedOnce sync.Once
	stampedBins map[string]string
	stampedErr  error
)

// stamped answers a binary built with the given source stamp (built once
// per stamp for the package).
func stamped(t *testing.T, stamp string) string {
	t.Helper()
	stampedOnce.Do(func() {
		stampedBins = map[string]string{}
		dir := filepath.Dir(binPath)
		// "" is a plain go build: no stamp baked in.
		for _, st := range []string{"s1", "s2", ""} {
			out := filepath.Join(dir, "gates-"+st+"unstamped")
			args := []string{"build", "-o", out}
			if st != "" {
				out = filepath.Join(dir, "gates-"+st)
				args = []string{"build", "-o", out, "-ldflags", "-X github.com/gate-sdk/gates/internal/cli.sourceStamp=" + st}
			}
			cmd := exec.Command("go", append(args, "./cmd/gates")...)
			cmd.Dir = moduleRoot
			if b, err := cmd.CombinedOutput(); err != nil {
				stampedErr = fmt.Errorf("build %s: %v\n%s", st, err, b)
				return
			}
			stampedBins[st] = out
		}
	})
	if stampedErr != nil {
		t.Fatal(stampedErr)
	}
	return stampedBins[stamp]
}

// cacheConsumer is termsConsumer with more files: clean ones, a text file
// and a binary file holding the banned term, committed.
func cacheConsumer(t *testing.T) *consumer {
	t.Helper()
	c := termsConsumer(t)
	for i := 0; i < 20; i++ {
		write(t, filepath.Join(c.dir, fmt.Sprintf("docs/n%02d.md", i)), fmt.Sprintf("note %d\nplain prose\n", i), 0o644)
	}
	write(t, filepath.Join(c.dir, "docs/bad.md"), "one\ntwo "+leak+"\nthree "+leak+"\n", 0o644)
	write(t, filepath.Join(c.dir, "docs/blob.bin"), "\x00\x01"+leak+"\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "files")
	return c
}

var statLine = regexp.MustCompile(`result cache: TREE-TERMS (\d+) hits, (\d+) misses`)

// terms runs check-tree-terms standalone under bin with extra environment
// and answers its result and the cache's hits and misses ("-" when the
// run opened no table).
func (c *consumer) terms(bin string, extra ...string) (result, string) {
	c.t.Helper()
	env := append(append([]string{}, c.env...), "GATE_SDK_VERBOSE=1")
	env = append(env, extra...)
	r := run(c.t, c.dir, env, bin, "check-tree-terms")
	m := statLine.FindStringSubmatch(r.stderr)
	if m == nil {
		return r, "-"
	}
	return r, m[1] + "/" + m[2]
}

func (c *consumer) cacheDir() string { return filepath.Join(c.dir, ".git", "gates-cache") }

func TestCacheWarmEqualsCold(t *testing.T) {
	t.Parallel()
	c := cacheConsumer(t)
	s1 := stamped(t, "s1")
	cold, st := c.terms(s1)
	if cold.code != 1 || !strings.Contains(cold.stdout, "docs/bad.md:2:") {
		t.Fatalf("cold run: exit %d\n%s%s", cold.code, cold.stdout, cold.stderr)
	}
	n, ok := strings.CutPrefix(st, "0/")
	if !ok || n == "0" {
		t.Fatalf("cold run's cache use = %s, want 0 hits", st)
	}
	warm, st := c.terms(s1)
	if st != n+"/0" {
		t.Fatalf("warm run's cache use = %s, want every file a hit", st)
	}
	if warm.stdout != cold.stdout || warm.code != cold.code {
		t.Fatalf("warm output differs:\n--- cold\n%s--- warm\n%s", cold.stdout, warm.stdout)
	}
	// The battery and the JSON form, cold (cache off) and warm, agree too.
	for _, args := range [][]string{{"--run"}, {"check-tree-terms", "--format", "json"}} {
		off := run(t, c.dir, append(append([]string{}, c.env...), "GATE_SDK_CACHE=off"), s1, args...)
		on := run(t, c.dir, c.env, s1, args...)
		if off.stdout != on.stdout || off.code != on.code {
			t.Errorf("%v: warm differs from uncached:\n--- off\n%s--- on\n%s", args, off.stdout, on.stdout)
		}
	}
	// The pre-commit hook judges the index: warm and cold agree.
	write(t, filepath.Join(c.dir, "docs/new.md"), "fresh "+leak+"\n", 0o644)
	c.git("add", "docs/new.md")
	hookCold := run(t, c.dir, append(append([]string{}, c.env...), "GATE_SDK_CACHE=off"), s1, "--git-hook", "pre-commit")
	hookWarm1 := run(t, c.dir, c.env, s1, "--git-hook", "pre-commit")
	hookWarm2 := run(t, c.dir, c.env, s1, "--git-hook", "pre-commit")
	if hookCold.code != 1 || hookWarm1.stdout+hookWarm1.stderr != hookCold.stdout+hookCold.stderr || hookWarm2.stdout+hookWarm2.stderr != hookCold.stdout+hookCold.stderr {
		t.Errorf("hook outputs differ:\n--- off (%d)\n%s%s--- on\n%s%s--- warm\n%s%s", hookCold.code, hookCold.stdout, hookCold.stderr, hookWarm1.stdout, hookWarm1.stderr, hookWarm2.stdout, hookWarm2.stderr)
	}
}

// Each input of the key, changed, misses; restored, the old table serves.
func TestCacheKeyInputsInvalidate(t *testing.T) {
	t.Parallel()
	c := cacheConsumer(t)
	s1, s2 := stamped(t, "s1"), stamped(t, "s2")
	base, st := c.terms(s1)
	n := strings.TrimPrefix(st, "0/")
	if _, st := c.terms(s1); st != n+"/0" {
		t.Fatalf("warm = %s", st)
	}
	check := func(what string, want string, r result, st string) {
		t.Helper()
		if st != want {
			t.Errorf("%s: cache use %s, want %s", what, st, want)
		}
		_ = r
	}
	// A knob value the verdict depends on.
	r, st := c.terms(s1, "GATE_SDK_PRUNE_EXTRA_DIRS=nothing-here")
	check("knob value changed", "0/"+n, r, st)
	if r.stdout != base.stdout {
		t.Errorf("knob run's output differs:\n%s", r.stdout)
	}
	// The source stamp.
	r, st = c.terms(s2)
	check("source stamp changed", "0/"+n, r, st)
	// The bytes of the pattern file (a comment changes no pattern).
	list := filepath.Join(c.dir, "scripts/msg-patterns.list")
	write(t, list, "# a comment\n"+leak+"\n", 0o644)
	r, st = c.terms(s1)
	check("pattern file bytes changed", "0/"+n, r, st)
	write(t, list, leak+"\n", 0o644)
	if _, st = c.terms(s1); st != n+"/0" {
		t.Errorf("pattern file restored: %s, want the old table's hits", st)
	}
	// One file's blob.
	write(t, filepath.Join(c.dir, "docs/n03.md"), "changed "+leak+"\n", 0o644)
	r, st = c.terms(s1)
	nn := 0
	fmt.Sscan(n, &nn)
	check("one blob changed", fmt.Sprintf("%d/1", nn-1), r, st)
	if !strings.Contains(r.stdout, "docs/n03.md:1:changed") {
		t.Errorf("the changed file's finding is missing:\n%s", r.stdout)
	}
	// Off: no table opened.
	if _, st = c.terms(s1, "GATE_SDK_CACHE=off"); st != "-" {
		t.Errorf("GATE_SDK_CACHE=off: cache use %s", st)
	}
	// An unstamped build keeps no cache.
	if _, st = c.terms(stamped(t, "")); st != "-" {
		t.Errorf("an unstamped build used the cache: %s", st)
	}
}

// A corrupt table is discarded: the run is a cold one, its output the cold
// output, and the next run is warm again.
func TestCacheCorruptDiscarded(t *testing.T) {
	t.Parallel()
	c := cacheConsumer(t)
	s1 := stamped(t, "s1")
	cold, st := c.terms(s1)
	n := strings.TrimPrefix(st, "0/")
	tables, _ := filepath.Glob(filepath.Join(c.cacheDir(), "*.v2"))
	if len(tables) != 1 {
		t.Fatalf("tables after a cold run: %v", tables)
	}
	data, err := os.ReadFile(tables[0])
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x40
	write(t, tables[0], string(data), 0o644)
	r, st := c.terms(s1)
	if st != "0/"+n || r.stdout != cold.stdout {
		t.Fatalf("corrupt table: cache use %s, output\n%s", st, r.stdout)
	}
	if _, st = c.terms(s1); st != n+"/0" {
		t.Fatalf("after the rewrite: %s", st)
	}
}

// enforcementConsumer registers check-enforcement-fresh over a tree with
// monitor lines and commits the page the stamped build emits.
func enforcementConsumer(t *testing.T, bin string) *consumer {
	t.Helper()
	c := newConsumer(t)
	c.declareShipped("check-enforcement-fresh")
	c.registry("check-enforcement-fresh")
	for i := 0; i < 12; i++ {
		write(t, filepath.Join(c.dir, fmt.Sprintf("docs/n%02d.md", i)), fmt.Sprintf("note %d\n", i), 0o644)
	}
	write(t, filepath.Join(c.dir, "ops/watch.md"), "# Watch\n\n# enforce: class=monitor the site answers within a second\n", 0o644)
	off := append(append([]string{}, c.env...), "GATE_SDK_CACHE=off")
	// The emission reads the tracked listing, the page among it: stage,
	// emit, and once more over the tree holding the page.
	for i := 0; i < 2; i++ {
		c.git("add", "-A")
		page := run(t, c.dir, off, bin, "--emit", "enforcement-map")
		must(t, page, "--emit enforcement-map")
		write(t, filepath.Join(c.dir, "docs/enforcement.md"), page.stdout, 0o644)
	}
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "seed")
	return c
}

// The pre-commit hook over the monitor scan's caches: warm output is the
// cold output byte for byte; a staged monitor edit misses the set (the
// page goes stale and the hook says so); a corrupt table is a cold run;
// GATE_SDK_CACHE=off writes nothing.
func TestCacheMonitorSetsHook(t *testing.T) {
	t.Parallel()
	s1 := stamped(t, "s1")
	c := enforcementConsumer(t, s1)
	off := append(append([]string{}, c.env...), "GATE_SDK_CACHE=off")
	verbose := append(append([]string{}, c.env...), "GATE_SDK_VERBOSE=1")
	hook := func(env []string) result { return run(t, c.dir, env, s1, "--git-hook", "pre-commit") }
	same := func(what string, a, b result) {
		t.Helper()
		if a.code != b.code || a.stdout != b.stdout || a.stderr != b.stderr {
			t.Errorf("%s differs:\n--- want (%d)\n%s%s--- got (%d)\n%s%s", what, a.code, a.stdout, a.stderr, b.code, b.stdout, b.stderr)
		}
	}
	write(t, filepath.Join(c.dir, "docs/n03.md"), "note 3, edited\n", 0o644)
	c.git("add", "docs/n03.md")
	cold := hook(off)
	if cold.code != 0 {
		t.Fatalf("cold hook: exit %d\n%s%s", cold.code, cold.stdout, cold.stderr)
	}
	if _, err := os.Stat(c.cacheDir()); !os.IsNotExist(err) {
		t.Fatalf("GATE_SDK_CACHE=off left a cache directory: %v", err)
	}
	same("first cached run", cold, hook(c.env))
	same("warm run", cold, hook(c.env))
	v := hook(verbose)
	if !strings.Contains(v.stderr, "result cache: ENFORCEMENT-MONITOR-SETS 1 hits, 0 misses") || strings.Contains(v.stderr, "ENFORCEMENT-MONITORS ") {
		t.Fatalf("a warm run did not answer from the set alone:\n%s", v.stderr)
	}
	// A corrupt table of each kind is discarded: the run equals the cold one.
	// The two monitor tables, and the members' run times when the hook
	// ran them on two workers or more.
	tables, _ := filepath.Glob(filepath.Join(c.cacheDir(), "*.v2"))
	if len(tables) < 2 || len(tables) > 3 {
		t.Fatalf("tables: %v", tables)
	}
	for _, tb := range tables {
		data, err := os.ReadFile(tb)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0x40
		write(t, tb, string(data), 0o644)
	}
	same("run over corrupt tables", cold, hook(c.env))
	// A foreign file under a table's name is discarded too.
	for _, tb := range tables {
		write(t, tb, "gates-verdicts 2\nnot a table of ours\n", 0o644)
	}
	same("run over foreign tables", cold, hook(c.env))
	// The monitor's text edited and staged, the page not regenerated: the
	// set misses, the one changed file is read, and the page is stale.
	write(t, filepath.Join(c.dir, "ops/watch.md"), "# Watch\n\n# enforce: class=monitor the site answers within two seconds\n", 0o644)
	c.git("add", "ops/watch.md")
	stale := hook(c.env)
	coldStale := hook(off)
	same("stale page, cached against uncached", coldStale, stale)
	if stale.code == 0 || !strings.Contains(stale.stdout, "the enforcement map is stale") {
		t.Fatalf("an edited monitor left the hook green:\n%s%s", stale.stdout, stale.stderr)
	}
	v = hook(verbose)
	if !strings.Contains(v.stderr, "ENFORCEMENT-MONITOR-SETS 1 hits") {
		t.Errorf("the new set was not stored:\n%s", v.stderr)
	}
}

// The warm battery takes a clean file's id from the index's stat data
// (kits/gate-sdk/SPEC.md §The snapshot, T): an edit that keeps the size
// and puts the modification time back still reaches the gate, because the
// change time moved; and a file touched with no edit is served warm.
func TestWarmBatterySeesAnEditThatRestoresItsStat(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	s1 := stamped(t, "s1")
	p := filepath.Join(c.dir, "docs/quiet.md")
	clean := "quiet " + strings.Repeat("x", len(leak)) + "\n"
	write(t, p, clean, 0o644)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "quiet")
	if r := run(t, c.dir, c.env, s1, "--run"); r.code != 0 {
		t.Fatalf("cold battery: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r, st := c.terms(s1); r.code != 0 || !strings.HasSuffix(st, "/0") {
		t.Fatalf("warm run over an unchanged tree: exit %d, cache use %s\n%s", r.code, st, r.stderr)
	}
	// The same size, the old modification time, other bytes.
	write(t, p, "quiet "+leak+"\n", 0o644)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	r := run(t, c.dir, c.env, s1, "--run")
	if r.code != 1 || !strings.Contains(r.stdout, "docs/quiet.md:1:") {
		t.Fatalf("the edit that restored size and mtime went unseen: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
