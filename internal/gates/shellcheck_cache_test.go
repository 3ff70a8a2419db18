package gates

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// scLog is a shellcheck wrapper on a private PATH: it appends each run's
// arguments to a log and runs the real ShellCheck; --version prints the
// release the test wrote into it.
type scLog struct {
	t        *testing.T
	bin, log string
	cacheDir string
}

func newSCLog(t *testing.T, release string) *scLog {
	t.Helper()
	real, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("shellcheck is not installed")
	}
	d := t.TempDir()
	s := &scLog{t: t, bin: filepath.Join(d, "bin"), log: filepath.Join(d, "log"), cacheDir: filepath.Join(d, "cache")}
	if err := os.MkdirAll(s.bin, 0o755); err != nil {
		t.Fatal(err)
	}
	s.setRelease(release, real)
	return s
}

// setRelease rewrites the wrapper, its --version answer saying release.
func (s *scLog) setRelease(release, real string) {
	s.t.Helper()
	if real == "" {
		var err error
		if real, err = exec.LookPath("shellcheck"); err != nil {
			s.t.Fatal(err)
		}
	}
	script := fmt.Sprintf("#!/bin/sh\nprintf '%%s\\n' \"$*\" >> '%s'\nif [ \"$1\" = --version ]; then echo 'version: %s'; exit 0; fi\nexec '%s' \"$@\"\n", s.log, release, real)
	if err := os.WriteFile(filepath.Join(s.bin, "shellcheck"), []byte(script), 0o755); err != nil {
		s.t.Fatal(err)
	}
}

// runs answers the lines logged since the last call and clears the log.
func (s *scLog) runs() []string {
	s.t.Helper()
	data, _ := os.ReadFile(s.log)
	os.Remove(s.log)
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// lints answers the logged lint runs (not --version), clearing the log.
func (s *scLog) lints() (lints []string, versions int) {
	for _, l := range s.runs() {
		if l == "--version" {
			versions++
		} else {
			lints = append(lints, l)
		}
	}
	return lints, versions
}

func (s *scLog) env() map[string]string {
	return map[string]string{"PATH": s.bin + string(os.PathListSeparator) + os.Getenv("PATH")}
}

// withCache runs rule with a fresh store over the test's cache directory
// (cached=false: no cache at all) and flushes it, as a process would.
func (s *scLog) withCache(rule gate.Rule, cached bool) gate.Rule {
	return func(c *gate.Context) int {
		if cached {
			c.Cache = cache.Open("test-stamp", func() (string, error) { return s.cacheDir, nil })
		}
		code := rule(c)
		if err := c.Cache.Flush(); err != nil {
			s.t.Fatal(err)
		}
		return code
	}
}

func (s *scLog) runShell(dir string, tree map[string]string, cached bool) gatetest.Run {
	s.t.Helper()
	writeFiles(s.t, dir, tree)
	rule := func(c *gate.Context) int { c.Jobs = 1; return runShell(c, scBatchMax) }
	return gatetest.ExecScratch(s.withCache(rule, cached), "check-action-run-shell", dir, s.t.TempDir(), &gatetest.Tree{Data: tree}, actionKnobs(nil), s.env())
}

func scWorkflow(pre string, blocks ...string) map[string]string {
	var b strings.Builder
	b.WriteString("on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n" + pre)
	for _, bl := range blocks {
		b.WriteString("      - run: |\n")
		for _, l := range strings.Split(bl, "\n") {
			b.WriteString("          " + l + "\n")
		}
	}
	return map[string]string{".github/workflows/ci.yml": b.String()}
}

// TestRunShellContentCache: a warm run lints nothing and prints what a
// cold one printed; an edited block alone is linted; a block whose bytes
// are unchanged but which moved down the workflow is served and reported
// at its new lines; a run with no cache prints the same.
func TestRunShellContentCache(t *testing.T) {
	s := newSCLog(t, "0.9.0-test")
	dir := t.TempDir()
	bad := "echo $(cat list)"
	tree := scWorkflow("", "echo one", bad, "make all")
	cold := s.runShell(dir, tree, true)
	if cold.Code != 1 || !strings.Contains(cold.Stdout, "SC2046") {
		t.Fatalf("cold: %s", transcript(cold))
	}
	lints, versions := s.lints()
	if len(lints) != 1 || versions != 1 {
		t.Fatalf("cold: want one lint and one version query, got %q and %d", lints, versions)
	}
	warm := s.runShell(dir, tree, true)
	if lints, versions := s.lints(); len(lints) != 0 || versions != 0 {
		t.Fatalf("warm: started shellcheck: %q, %d version queries", lints, versions)
	}
	if transcript(warm) != transcript(cold) {
		t.Fatalf("warm run differs\n%s\n--- cold\n%s", transcript(warm), transcript(cold))
	}
	// One block edited: that body alone goes to ShellCheck.
	edited := scWorkflow("", "echo two", bad, "make all")
	s.runShell(dir, edited, true)
	lints, _ = s.lints()
	if len(lints) != 1 || strings.Count(lints[0], ".sh") != 1 {
		t.Fatalf("edit: want one lint of one body, got %q", lints)
	}
	// The finding's block moved three lines down, its bytes unchanged.
	moved := scWorkflow("      - run: |\n          echo new\n          echo more\n", "echo two", bad, "make all")
	hit := s.runShell(dir, moved, true)
	lints, _ = s.lints()
	if len(lints) != 1 || strings.Count(lints[0], ".sh") != 1 {
		t.Fatalf("moved: want one lint of the one new body, got %q", lints)
	}
	fresh := s.runShell(dir, moved, false)
	if transcript(hit) != transcript(fresh) {
		t.Fatalf("a moved block's cached report is misplaced\n%s\n--- uncached\n%s", transcript(hit), transcript(fresh))
	}
	if !strings.Contains(hit.Stdout, ":12:") {
		t.Fatalf("moved finding not at line 12: %s", hit.Stdout)
	}
}

// TestRunShellContentCacheMisses: a changed release or a damaged table
// misses (and re-lints), never serves a clean.
func TestRunShellContentCacheMisses(t *testing.T) {
	s := newSCLog(t, "0.9.0-test")
	dir := t.TempDir()
	tree := scWorkflow("", "echo $(cat list)", "echo ok")
	cold := s.runShell(dir, tree, true)
	s.lints()
	// A new release: the wrapper changes, its version is asked again, and
	// every body misses.
	s.setRelease("0.10.0-test", "")
	again := s.runShell(dir, tree, true)
	lints, versions := s.lints()
	if versions != 1 || len(lints) != 1 || strings.Count(lints[0], ".sh") != 2 {
		t.Fatalf("new release: want a version query and a lint of both bodies, got %q, %d", lints, versions)
	}
	if transcript(again) != transcript(cold) {
		t.Fatalf("new release changed the output\n%s", transcript(again))
	}
	// A damaged table is discarded: everything is linted again.
	files, _ := filepath.Glob(filepath.Join(s.cacheDir, "*.v2"))
	if len(files) == 0 {
		t.Fatal("no table written")
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		data[len(data)/2] ^= 0xff
		os.WriteFile(f, data, 0o644)
	}
	damaged := s.runShell(dir, tree, true)
	lints, versions = s.lints()
	if versions != 1 || len(lints) != 1 || strings.Count(lints[0], ".sh") != 2 {
		t.Fatalf("damaged table: want a version query and a full lint, got %q, %d", lints, versions)
	}
	if transcript(damaged) != transcript(cold) {
		t.Fatalf("damaged table changed the output\n%s", transcript(damaged))
	}
}

// TestSCUnitKey: each input of a unit's key, changed, names another key;
// a value that does not decode is a miss.
func TestSCUnitKey(t *testing.T) {
	dir := t.TempDir()
	st := cache.Open("test-stamp", func() (string, error) { return dir, nil })
	sc := &scCache{t: st.Table(scCacheTable, nil), release: "r1"}
	base := sc.unitKey("run-shell", scFlags("bash"), "bash", []byte("echo x\n"), nil)
	other := &scCache{t: sc.t, release: "r2"}
	for name, k := range map[string]string{
		"bytes":   sc.unitKey("run-shell", scFlags("bash"), "bash", []byte("echo y\n"), nil),
		"dialect": sc.unitKey("run-shell", scFlags("bash"), "sh", []byte("echo x\n"), nil),
		"flags":   sc.unitKey("run-shell", scFlags("sh"), "bash", []byte("echo x\n"), nil),
		"kind":    sc.unitKey("file", scFlags("bash"), "bash", []byte("echo x\n"), nil),
		"release": other.unitKey("run-shell", scFlags("bash"), "bash", []byte("echo x\n"), nil),
		"more":    sc.unitKey("run-shell", scFlags("bash"), "bash", []byte("echo x\n"), func(k *cache.Config) { k.AddString("dir", "/x") }),
	} {
		if k == base {
			t.Errorf("a changed %s keeps the key", name)
		}
	}
	if again := sc.unitKey("run-shell", scFlags("bash"), "bash", []byte("echo x\n"), nil); again != base {
		t.Fatal("the key is not deterministic")
	}
	want := []scReport{{line: 2, col: 5, level: "warning", text: "Quote this [SC2046]"}}
	sc.put(base, want)
	if got, ok := sc.get(base); !ok || len(got) != 1 || got[0] != want[0] {
		t.Fatalf("hit: %v %v", got, ok)
	}
	sc.t.Put("", base, []byte{0x07, 0xff})
	if got, ok := sc.get(base); ok {
		t.Fatalf("a value that does not decode served %v", got)
	}
	if _, ok := sc.get(sc.unitKey("run-shell", scFlags("bash"), "bash", []byte("echo z\n"), nil)); ok {
		t.Fatal("an absent key hit")
	}
}

func (s *scLog) shellcheck(dir string, files map[string]string, cached bool, args ...string) gatetest.Run {
	s.t.Helper()
	writeFiles(s.t, dir, files)
	return gatetest.Exec(s.withCache(checkShellcheck, cached), "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, s.env(), args...)
}

// TestShellcheckContentCache: check-shellcheck serves unchanged files,
// lints an edited one alone, re-lints a file whose sourced neighbour
// changed (ShellCheck follows a source to another input), and places a
// renamed file's served report at its new path.
func TestShellcheckContentCache(t *testing.T) {
	s := newSCLog(t, "0.9.0-test")
	dir := t.TempDir()
	files := map[string]string{
		"scripts/a.sh":   "#!/bin/sh\ncd /tmp\n",
		"scripts/b.sh":   "#!/bin/sh\necho ok\n",
		"scripts/lib.sh": "#!/bin/sh\n# shellcheck disable=SC2034\nfrom_lib=1\n",
		"scripts/c.sh":   "#!/bin/sh\n. ./scripts/lib.sh\necho \"$from_lib\"\n",
	}
	cold := s.shellcheck(dir, files, true)
	if cold.Code != 1 || !strings.Contains(cold.Stdout, "scripts/a.sh:2: warning:") || strings.Contains(cold.Stdout, "c.sh") {
		t.Fatalf("cold: %s", transcript(cold))
	}
	if lints, versions := s.lints(); len(lints) != 1 || versions != 1 {
		t.Fatalf("cold: %q %d", lints, versions)
	}
	warm := s.shellcheck(dir, files, true)
	if lints, versions := s.lints(); len(lints) != 0 || versions != 0 {
		t.Fatalf("warm: started shellcheck: %q %d", lints, versions)
	}
	if transcript(warm) != transcript(cold) {
		t.Fatalf("warm differs\n%s", transcript(warm))
	}
	// b.sh edited: it alone is linted.
	s.shellcheck(dir, map[string]string{"scripts/b.sh": "#!/bin/sh\necho changed\n"}, true)
	if lints, _ := s.lints(); len(lints) != 1 || !strings.HasSuffix(lints[0], "-- scripts/b.sh") {
		t.Fatalf("edit of b.sh: %q", lints)
	}
	// lib.sh edited so c.sh's variable is gone: c.sh is re-linted with it
	// and now warns, though its own bytes did not change.
	libEdit := map[string]string{"scripts/lib.sh": "#!/bin/sh\n# shellcheck disable=SC2034\nother=1\n"}
	got := s.shellcheck(dir, libEdit, true)
	lints, _ := s.lints()
	if len(lints) != 1 || !strings.Contains(lints[0], "scripts/c.sh") || !strings.Contains(lints[0], "scripts/lib.sh") || strings.Contains(lints[0], "a.sh") {
		t.Fatalf("edit of lib.sh: want c.sh and lib.sh linted, got %q", lints)
	}
	if !strings.Contains(got.Stdout, "scripts/c.sh:3: warning: from_lib is referenced but not assigned") {
		t.Fatalf("c.sh's report did not follow its library's edit: %s", transcript(got))
	}
	if fresh := s.shellcheck(dir, nil, false); transcript(fresh) != transcript(got) {
		t.Fatalf("cached and uncached differ\n%s\n--- uncached\n%s", transcript(got), transcript(fresh))
	}
	s.lints()
	// a.sh renamed, bytes unchanged: served, reported at its new path.
	if err := os.Rename(filepath.Join(dir, "scripts/a.sh"), filepath.Join(dir, "scripts/z.sh")); err != nil {
		t.Fatal(err)
	}
	renamed := s.shellcheck(dir, nil, true)
	if lints, _ := s.lints(); len(lints) != 0 {
		t.Fatalf("rename: started shellcheck: %q", lints)
	}
	if !strings.Contains(renamed.Stdout, "scripts/z.sh:2: warning:") || strings.Contains(renamed.Stdout, "a.sh") {
		t.Fatalf("rename: %s", transcript(renamed))
	}
	if fresh := s.shellcheck(dir, nil, false); transcript(fresh) != transcript(renamed) {
		t.Fatalf("renamed: cached and uncached differ\n%s\n--- uncached\n%s", transcript(renamed), transcript(fresh))
	}
}

// TestSCDeps: a text reaches the targets whose base name it spells,
// through quotes and continuations; $' on a source command's line
// reaches every target, and elsewhere no more than the text spells.
func TestSCDeps(t *testing.T) {
	targets := []string{"d/a.sh", "d/lib.sh", "e/lib.sh", "d/x y.sh"}
	for _, tc := range []struct {
		text string
		want string
	}{
		{"echo hi\n", "[]"},
		{". ./lib.sh\n", "[1 2]"},
		{". \"$d\"/li\"b\".sh\n", "[1 2]"},
		{". ./li\\\nb.sh\n", "[1 2]"},
		{"# shellcheck source=lib.sh\n", "[1 2]"},
		{". mylib.sh\n", "[]"},
		{". 'x y.sh'\n", "[3]"},
		{"echo $'\\x61'\n", "[]"},
		{"IFS=$'\\n' read -r x <lib.sh\n", "[1 2]"},
		{". \"$d\"/$'\\x61'.sh\n", "[0 1 2 3]"},
		{"source \\\n  $'\\x61.sh'\n", "[0 1 2 3]"},
		{"x=1; \".\" $'\\x61.sh'\n", "[0 1 2 3]"},
		{"echo $'.'\n. ./lib.sh\n", "[1 2]"},
		{"# a.sh: self\n", "[0]"},
	} {
		ts := make([]scTarget, len(targets))
		ts[0] = scTarget{data: []byte(tc.text), loaded: true}
		scDeps(targets, ts)
		if got := fmt.Sprint(ts[0].deps); got != tc.want {
			t.Errorf("%q reaches %s, want %s", tc.text, got, tc.want)
		}
	}
}
