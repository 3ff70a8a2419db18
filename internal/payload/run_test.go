package payload

// Unit tests of `gates init` as a whole over a synthetic world: a
// temporary tree, knobs from a map, fake probes, baseline runs and hook
// state. They read what init wrote, printed and answered.

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// initFake is the world's moving parts a test sets and reads back.
type initFake struct {
	w        *InitWorld
	out, err *bytes.Buffer
	knobs    map[string]string
	env      map[string]string
	tracked  []string
	probes   map[string]probeAnswer
	probed   []string
	hooks    *fakeHooks
	installs []string
	refresh  []string
	baseline []byte
}

type probeAnswer struct {
	code int
	out  string
	err  error
}

func newInitFake(t *testing.T) *initFake {
	t.Helper()
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	top = filepath.ToSlash(top)
	f := &initFake{
		out: &bytes.Buffer{}, err: &bytes.Buffer{},
		knobs: map[string]string{
			"GATE_SDK_GATES_DIR":               "scripts",
			"GATE_SDK_NATIVE_BIN":              "bin/gates",
			"GATE_SDK_PAYLOAD_WITHHOLD":        "SPEC.md smoke",
			"GATE_SDK_MSG_PATTERN_FILES":       "scripts/patterns.list",
			"GATE_SDK_COMMIT_TYPES":            "feat fix",
			"GATE_SDK_ROOT_ALLOWLIST":          "scripts/root-allowlist.list",
			"GATE_SDK_TMP_DIR":                 ".tmp",
			"GATE_SDK_MSG_PATTERN_FILES_LOCAL": "scripts/local-patterns.list",
			"GATE_SDK_GRAPH_ARTIFACT":          "docs/graph.md",
		},
		env:     map[string]string{},
		tracked: []string{"README.md", "main.go"},
		probes:  map[string]probeAnswer{},
		hooks:   &fakeHooks{dir: top + "/.git/hooks"},
	}
	f.w = &InitWorld{
		Top: top, Stdout: f.out, Stderr: f.err, Stamp: "v1",
		Knob: func(n string) (string, error) {
			v, ok := f.knobs[n]
			if !ok {
				return "", errors.New("no knob " + n)
			}
			return v, nil
		},
		Env:     func(n string) (string, bool) { v, ok := f.env[n]; return v, ok },
		Self:    func() ([]byte, error) { return []byte("the gates binary"), nil },
		Tracked: func() ([]string, error) { return f.tracked, nil },
		Branch:  func() (string, error) { return "trunk", nil },
		Probe: func(g string) (int, []byte, error) {
			f.probed = append(f.probed, g)
			a := f.probes[g]
			return a.code, []byte(a.out), a.err
		},
		Baseline: func(bool) ([]byte, error) { return f.baseline, nil },
		InstallHooks: func(bin string, takeOver bool) (int, error) {
			f.installs = append(f.installs, bin+" "+map[bool]string{true: "take-over", false: "plain"}[takeOver])
			return 0, nil
		},
		RefreshHooks: func(bin string) (int, error) {
			f.refresh = append(f.refresh, bin)
			return 0, nil
		},
		Hooks: f.hooks,
	}
	return f
}

func (f *initFake) run(args ...string) int {
	f.out.Reset()
	f.err.Reset()
	return RunInit(args, f.w)
}

// files answers every regular file under the tree, relative.
func (f *initFake) files(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(f.w.Top, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			rel, _ := filepath.Rel(f.w.Top, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func (f *initFake) lock(t *testing.T) *Lock {
	t.Helper()
	l, err := ReadLock(f.w.Top+"/scripts/gates.lock", "scripts/gates.lock")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func hasLine(out, line string) bool {
	for _, l := range strings.Split(out, "\n") {
		if l == line {
			return true
		}
	}
	return false
}

func TestRunInitFreshInstall(t *testing.T) {
	f := newInitFake(t)
	// A history whose subjects use only the kit's types.
	f.w.Messages = func(int) ([]HistoryCommit, error) {
		return []HistoryCommit{{Author: "Ann", Email: "ann@example.com", Message: "fix: a"}}, nil
	}
	f.w.Judge = func(string, string, []string) (bool, error) { return true, nil }
	if code := f.run(); code != 0 || f.err.Len() != 0 {
		t.Fatalf("exit %d err %s", code, f.err)
	}
	// No licence, no shell of its own, no type beyond the kit's: the knob
	// file names the kit set alone.
	want := "# gate-sdk's knobs for this repository, seeded by `gates init`; the file is yours.\n" +
		"# Grammar: NAME = value, one per line; `gates --emit knob-roster` lists every knob.\n\n" +
		"# The kit set this tree vendors. A vendored tree names it rather than\n" +
		"# deriving it from what directories exist.\n" +
		"GATE_SDK_KIT_DIRS = gate-sdk\n"
	if got, _ := readFile(t, f.w.Top, "scripts/gate-sdk-config.knobs"); got != want {
		t.Errorf("knob file:\n%s\nwant:\n%s", got, want)
	}
	if !hasLine(f.out.String(), "init: the commit-message gates were judged on the last 1 message by people (0 commits by bots left out)") {
		t.Errorf("out:\n%s", f.out)
	}
}

// richFake is a repository with gates of its own, shell, a kit it
// publishes, an open licence, a module and a container account, a
// release payload to seed CI from, and probes of each outcome.
func richFake(t *testing.T) *initFake {
	t.Helper()
	f := newInitFake(t)
	f.tracked = []string{"LICENSE", "go.mod", "Dockerfile", "scripts/check-own.sh", "tools/lint.sh", "kits/mine/checks/check-m.gate", "README.md"}
	writeFile(t, f.w.Top, "LICENSE", "MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\n")
	writeFile(t, f.w.Top, "go.mod", "module example.com/widget/v2\n")
	writeFile(t, f.w.Top, "Dockerfile", "FROM x\nUSER app\n")
	writeFile(t, f.w.Top, "README.md", "readme\n")
	writeFile(t, f.w.Top, "scripts/check-own.sh", "#!/bin/sh\n# graph: couples=*.md dir=one valve=none tier=precommit\n")
	f.env["GATES_PAYLOAD_URL"] = "https://example.com/p.tar.gz"
	f.env["GATES_PAYLOAD_SHA256"] = strings.Repeat("ab", 32)
	f.probes["check-tree-terms"] = probeAnswer{code: 1, out: "a.txt:1: banned\nb.txt:2: banned\nhelp: fix it\nCHECK-TREE-TERMS: FAIL (2)\n"}
	f.probes["check-shellcheck"] = probeAnswer{code: 2, out: "\nshellcheck \u2014 not found\nsecond line\n"}
	f.probes["check-exec-bit"] = probeAnswer{err: errors.New("fork failed")}
	f.probes["check-action-pinning"] = probeAnswer{code: 0, out: "CHECK-ACTION-PINNING: clean (2 unparseable YAML files skipped)\n"}
	f.baseline = []byte("check-tree-terms\ta.txt\tA\t" + strings.Repeat("1", 16) + "\tx2\n")
	f.w.EmitGraph = func() ([]byte, error) { return []byte("the graph page\n"), nil }
	return f
}

func TestRunInitRichInstall(t *testing.T) {
	f := richFake(t)
	if code := f.run(); code != 0 || f.err.Len() != 0 {
		t.Fatalf("exit %d err %s", code, f.err)
	}
	out := f.out.String()
	for _, l := range []string{
		"init: placed the gates binary at bin/gates (v1)",
		"init: wrote scripts/patterns.list",
		"init: wrote .github/workflows/gates.yml",
		"init: wrote scripts/gate-sdk-config.knobs",
		"init: wrote scripts/root-allowlist.list",
		"init: appended 4 lines to .gitignore",
		"init: wrote docs/graph.md (check-graph's page; regenerate it with gates --emit graph)",
		"init: LICENSE grants an open-source licence, so GATE_SDK_REPO_VISIBILITY = public (in scripts/gate-sdk-config.knobs); set it to private if only your organisation may read this repository",
		"init: check-exec-bit: not adopted: could not be probed: fork failed",
		"init: check-graph: registered",
		"init: check-tree-terms: registered with 2 accepted findings (scripts/gates.baseline)",
		"init: check-action-pinning: registered; 2 unparseable YAML files skipped (GitHub never loads them; the gate skips them each run)",
		"init: check-kit-registration: registered",
		"init: check-shellcheck: not adopted: cannot run on this tree yet: shellcheck - not found",
		"init: wrote scripts/gates.list (36 gates registered; each left out is named there with its reason)",
		"init: vendored 55 files of gate-sdk into gate-sdk/",
		"init: recorded the install in scripts/gates.lock",
		"  git add -A && bash gate-sdk/bin/run-gates.sh   the first battery, over the staged adoption (check-graph's page is emitted over it)",
		"  bin/gates doctor                       the gates that assert nothing yet, and the knob arming each",
		"  bin/gates init --hooks                 place the pre-commit and commit-msg hooks in this clone",
		"  gate-sdk/templates/adopt.md          the walk that fits the knobs to this repository",
	} {
		if !hasLine(out, l) {
			t.Errorf("no line %q in:\n%s", l, out)
		}
	}
	if strings.Contains(out, "did not seed") {
		t.Errorf("the workflow was seeded, yet:\n%s", out)
	}
	list, _ := readFile(t, f.w.Top, "scripts/gates.list")
	if !strings.HasSuffix(list, "check-workflow-tiering\n"+
		"# unregistered: check-exec-bit \u2014 zero-config: could not be probed: fork failed\n"+
		"# unregistered: check-shellcheck \u2014 on-surface: cannot run on this tree yet: shellcheck - not found\n") ||
		!strings.Contains(list, "check-tree-terms\n# On-surface: registered where they run on this tree; the findings it had when\n# init ran are accepted in scripts/gates.baseline.\ncheck-action-gh-repo\n") {
		t.Errorf("gates.list:\n%s", list)
	}
	knobs, _ := readFile(t, f.w.Top, "scripts/gate-sdk-config.knobs")
	if !strings.Contains(knobs, "\nGATE_SDK_KIT_DIRS = gate-sdk\n") || !strings.Contains(knobs, "\nGATE_SDK_REPO_VISIBILITY = public\n") ||
		!strings.HasSuffix(knobs, "\n# The directories of this repository's own shell, which check-shellcheck\n# lints (each one's *.sh directly in it).\nGATE_SDK_LINT_EXTRA_DIRS = tools\n") {
		t.Errorf("knob file:\n%s", knobs)
	}
	allow, _ := readFile(t, f.w.Top, "scripts/root-allowlist.list")
	if want := ".github\n.gitignore\nDockerfile\nLICENSE\nREADME.md\ngate-sdk\ngo.mod\nkits\nscripts\ntools\n"; !strings.HasSuffix(allow, "(check-root-tiering).\n"+want) {
		t.Errorf("allowlist:\n%s", allow)
	}
	if s, _ := readFile(t, f.w.Top, ".gitignore"); s != "# gates: scratch, the placed binary and private pattern lists\n/.tmp/\n/bin/gates\n/scripts/local-patterns.list\n" {
		t.Errorf(".gitignore:\n%s", s)
	}
	if s, _ := readFile(t, f.w.Top, "docs/graph.md"); s != "the graph page\n" {
		t.Errorf("graph page %q", s)
	}
	if s, _ := readFile(t, f.w.Top, "scripts/gates.baseline"); !strings.HasSuffix(s, "\ncheck-tree-terms\ta.txt\tA\t1111111111111111\tx2\n") {
		t.Errorf("baseline:\n%s", s)
	}
	pats, _ := readFile(t, f.w.Top, "scripts/patterns.list")
	if !strings.Contains(pats, "|app|widget)/$\n") {
		t.Errorf("patterns spare no project name:\n%s", pats)
	}
	wf, _ := readFile(t, f.w.Top, ".github/workflows/gates.yml")
	for _, l := range []string{"branches: [trunk] #", `GATES_PAYLOAD: "https://example.com/p.tar.gz" #`, `GATES_PAYLOAD_SHA256: "` + strings.Repeat("ab", 32) + `" #`, "GATE_SDK_KIT: gate-sdk #"} {
		if !strings.Contains(wf, l) {
			t.Errorf("workflow lacks %q", l)
		}
	}
	if m := mode(t, f.w.Top+"/bin/gates").Perm(); m != 0o755 {
		t.Errorf("binary mode %v", m)
	}
	if m := mode(t, f.w.Top+"/scripts/gates.list").Perm(); m != 0o644 {
		t.Errorf("registry mode %v", m)
	}
	if s, _ := readFile(t, f.w.Top, "bin/gates"); s != "the gates binary" {
		t.Errorf("binary %q", s)
	}
	l := f.lock(t)
	if l.KitVersion != "v1" || l.BinaryStamp != "v1" || l.KitRoot != "gate-sdk" || l.Kit != "gate-sdk" || len(l.Registered) != 36 || len(l.Pending) != 0 {
		t.Errorf("lock %+v", l)
	}
	for _, p := range []string{"scripts/gates.list", "docs/graph.md", "scripts/gates.baseline", "bin/gates", "scripts/root-allowlist.list", ".github/workflows/gates.yml"} {
		data, _ := readFile(t, f.w.Top, p)
		if rec, ok := l.file(p); !ok || rec.SHA256 != Digest([]byte(data)) {
			t.Errorf("lock records %s as %+v %v", p, rec, ok)
		}
	}
	if rec, _ := l.file("bin/gates"); rec.Class != classBinary {
		t.Errorf("binary class %q", rec.Class)
	}
	if rec, _ := l.file("gate-sdk/README.md"); rec.Class != classKit {
		t.Errorf("kit class %q", rec.Class)
	}
	if want := []string{"bin", "docs", "gate-sdk", ".github/workflows", ".github", "scripts"}; len(l.Dirs) < len(want) {
		t.Errorf("dirs %q", l.Dirs)
	}
	if len(l.Appended) != 1 || !l.Appended[0].Created || l.Appended[0].Path != ".gitignore" {
		t.Errorf("appended %+v", l.Appended)
	}
	// A second run finds the tree as it left it.
	probes := len(f.probed)
	if code := f.run(); code != 0 || f.out.String() != "init: nothing to do; the tree is as init left it\n" {
		t.Errorf("second run: exit %d out:\n%s", code, f.out)
	}
	// It asks again only of the gates left out.
	if got := strings.Join(f.probed[probes:], " "); got != "check-exec-bit check-shellcheck" {
		t.Errorf("a second run probed %q", got)
	}
}

func TestRunInitArguments(t *testing.T) {
	tests := []struct {
		args []string
		code int
		out  string
		err  string
	}{
		{[]string{"-h"}, 0, InitUsage + "\n", ""},
		{[]string{"--dry-run", "--help"}, 0, InitUsage + "\n", ""},
		{[]string{"--bogus"}, 2, "", "init: unknown option \"--bogus\"\n" + InitUsage + "\n"},
		{[]string{"--uninstall", "--hooks"}, 2, "", "init: --uninstall takes neither --hooks nor --with-fixtures\n" + InitUsage + "\n"},
		{[]string{"--with-fixtures", "--uninstall"}, 2, "", "init: --uninstall takes neither --hooks nor --with-fixtures\n" + InitUsage + "\n"},
		{[]string{"--take-over"}, 2, "", "init: --take-over is --hooks' option\n" + InitUsage + "\n"},
	}
	for _, tc := range tests {
		f := newInitFake(t)
		code := f.run(tc.args...)
		if code != tc.code || f.out.String() != tc.out || f.err.String() != tc.err {
			t.Errorf("%q: exit %d out %q err %q", tc.args, code, f.out, f.err)
		}
		if files := f.files(t); len(files) != 0 {
			t.Errorf("%q wrote %q", tc.args, files)
		}
	}
}

func TestRunInitDryRun(t *testing.T) {
	f := richFake(t)
	before := f.files(t)
	if code := f.run("--dry-run"); code != 0 || f.err.Len() != 0 {
		t.Fatalf("exit %d err %s", code, f.err)
	}
	if after := f.files(t); strings.Join(after, " ") != strings.Join(before, " ") {
		t.Errorf("a dry run wrote %q", after)
	}
	if len(f.probed) != 0 {
		t.Errorf("a dry run probed %q", f.probed)
	}
	want := "would create bin/gates\n" +
		"would create scripts/patterns.list\n" +
		"would create .github/workflows/gates.yml\n" +
		"would create scripts/gate-sdk-config.knobs\n" +
		"would create scripts/root-allowlist.list\n" +
		"would create scripts/gates.list: 26 zero-config gates, then each on-surface gate that runs on the tree (probed once the rest is written), today's findings accepted in scripts/gates.baseline\n" +
		"would create docs/graph.md, check-graph's page, where the registry names check-graph\n" +
		"would vendor gate-sdk into gate-sdk/: 55 files to create, 0 to update, 0 already in place\n" +
		"would append to .gitignore: # gates: scratch, the placed binary and private pattern lists | /.tmp/ | /bin/gates | /scripts/local-patterns.list\n"
	if f.out.String() != want {
		t.Errorf("out:\n%s\nwant:\n%s", f.out, want)
	}
	// After the install, a dry run has nothing to do.
	if code := f.run(); code != 0 {
		t.Fatalf("install: exit %d", code)
	}
	if code := f.run("--dry-run"); code != 0 || f.out.String() != "nothing to do; the tree is as init left it\n" {
		t.Errorf("exit %d out:\n%s", code, f.out)
	}
	// An edited seed and a kit file to update are planned as such.
	writeFile(t, f.w.Top, "scripts/gate-sdk-config.knobs", "# mine\n")
	writeFile(t, f.w.Top, "gate-sdk/README.md", "an older kit's readme\n")
	l := f.lock(t)
	recordFile(l, "gate-sdk/README.md", Digest([]byte("an older kit's readme\n")), classKit)
	writeFile(t, f.w.Top, "scripts/gates.lock", string(l.Encode()))
	if code := f.run("--dry-run"); code != 0 {
		t.Fatalf("exit %d", code)
	}
	want = "would keep scripts/gate-sdk-config.knobs (edited since init)\n" +
		"would vendor gate-sdk into gate-sdk/: 0 files to create, 1 to update, 54 already in place\n"
	if f.out.String() != want {
		t.Errorf("out:\n%s\nwant:\n%s", f.out, want)
	}
}

func TestRunInitRefusesConflicts(t *testing.T) {
	f := newInitFake(t)
	writeFile(t, f.w.Top, "scripts/root-allowlist.list", "mine\n")
	writeFile(t, f.w.Top, "scripts/gates.list", "check-mine\n")
	before := f.files(t)
	if code := f.run(); code != 2 {
		t.Fatalf("exit %d", code)
	}
	want := "init: refused: scripts/root-allowlist.list exists with other content and init did not write it\n" +
		"init: refused: scripts/gates.list exists and init did not write it\n" +
		"init: nothing written; move each named file aside (or merge it into what init writes by hand, see --dry-run) and run init again\n"
	if f.err.String() != want || f.out.Len() != 0 {
		t.Errorf("err:\n%s\nwant:\n%s\nout %q", f.err, want, f.out)
	}
	if after := f.files(t); strings.Join(after, " ") != strings.Join(before, " ") {
		t.Errorf("a refused run wrote %q", after)
	}
}

func TestRunInitRefusals(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, f *initFake)
		want  string
	}{
		{"a gates dir outside", func(t *testing.T, f *initFake) { f.knobs["GATE_SDK_GATES_DIR"] = "../x" }, "init: GATE_SDK_GATES_DIR=\"../x\" does not name a path inside the repository; init writes only there\n"},
		{"a knob unread", func(t *testing.T, f *initFake) { delete(f.knobs, "GATE_SDK_GATES_DIR") }, "no knob GATE_SDK_GATES_DIR\n"},
		{"a malformed lock", func(t *testing.T, f *initFake) { writeFile(t, f.w.Top, "scripts/gates.lock", "{") }, "init: the lock scripts/gates.lock does not parse: "},
		{"a kit root outside", func(t *testing.T, f *initFake) { f.env["GATE_SDK_ROOT"] = "/abs" }, "init: GATE_SDK_ROOT=\"/abs\" does not name a path inside the repository; init writes only there\n"},
		{"the binary's path", func(t *testing.T, f *initFake) { f.knobs["GATE_SDK_NATIVE_BIN"] = ".git/gates" }, "init: GATE_SDK_NATIVE_BIN=\".git/gates\" does not name a path inside the repository"},
		{"the withheld list", func(t *testing.T, f *initFake) { delete(f.knobs, "GATE_SDK_PAYLOAD_WITHHOLD") }, "no knob GATE_SDK_PAYLOAD_WITHHOLD\n"},
		{"the binary's image", func(t *testing.T, f *initFake) {
			f.w.Self = func() ([]byte, error) { return nil, errors.New("no image") }
		}, "no image\n"},
		{"the pattern list", func(t *testing.T, f *initFake) { f.knobs["GATE_SDK_MSG_PATTERN_FILES"] = "" }, "init: GATE_SDK_MSG_PATTERN_FILES=\"\" does not name"},
		{"the tracked listing", func(t *testing.T, f *initFake) {
			f.w.Tracked = func() ([]string, error) { return nil, errors.New("no index") }
		}, "no index\n"},
		{"the branch", func(t *testing.T, f *initFake) {
			f.w.Branch = func() (string, error) { return "", errors.New("no HEAD") }
		}, "no HEAD\n"},
		{"the commit types", func(t *testing.T, f *initFake) { delete(f.knobs, "GATE_SDK_COMMIT_TYPES") }, "no knob GATE_SDK_COMMIT_TYPES\n"},
		{"the history", func(t *testing.T, f *initFake) {
			f.w.Messages = func(int) ([]HistoryCommit, error) { return nil, errors.New("git log died") }
		}, "git log died\n"},
		{"the allowlist", func(t *testing.T, f *initFake) { delete(f.knobs, "GATE_SDK_ROOT_ALLOWLIST") }, "no knob GATE_SDK_ROOT_ALLOWLIST\n"},
		{"the scratch dir", func(t *testing.T, f *initFake) { delete(f.knobs, "GATE_SDK_TMP_DIR") }, "no knob GATE_SDK_TMP_DIR\n"},
		{"the local list", func(t *testing.T, f *initFake) { delete(f.knobs, "GATE_SDK_MSG_PATTERN_FILES_LOCAL") }, "no knob GATE_SDK_MSG_PATTERN_FILES_LOCAL\n"},
		{"the graph page", func(t *testing.T, f *initFake) {
			f.tracked = append(f.tracked, "scripts/check-own.sh")
			delete(f.knobs, "GATE_SDK_GRAPH_ARTIFACT")
		}, "no knob GATE_SDK_GRAPH_ARTIFACT\n"},
		{"a seeder", func(t *testing.T, f *initFake) {
			f.w.Seeders = []Seeder{func(*Plan, *InitWorld) error { return errors.New("seeder failed") }}
		}, "seeder failed\n"},
		{"a file that cannot be read", func(t *testing.T, f *initFake) {
			if err := os.MkdirAll(f.w.Top+"/scripts/patterns.list/x", 0o755); err != nil {
				t.Fatal(err)
			}
		}, "init: cannot read scripts/patterns.list: "},
		{"a .gitignore that cannot be read", func(t *testing.T, f *initFake) {
			if err := os.MkdirAll(f.w.Top+"/.gitignore", 0o755); err != nil {
				t.Fatal(err)
			}
		}, "init: cannot read .gitignore: "},
		{"a lock that cannot be read", func(t *testing.T, f *initFake) {
			if err := os.MkdirAll(f.w.Top+"/scripts/gates.lock", 0o755); err != nil {
				t.Fatal(err)
			}
		}, "init: cannot read the lock scripts/gates.lock: "},
		{"a write through a link out of the tree", func(t *testing.T, f *initFake) {
			if err := os.Symlink(t.TempDir(), f.w.Top+"/scripts"); err != nil {
				t.Fatal(err)
			}
		}, "init: refused: "},
		{"the ignore rules", func(t *testing.T, f *initFake) {
			f.w.Ignored = func([]string, []byte) (map[string]string, error) { return nil, errors.New("check-ignore died") }
		}, "init: cannot ask git which paths are ignored: check-ignore died\n"},
		{"the foreign hooks", func(t *testing.T, f *initFake) { f.hooks.failing = "Foreign" }, "Foreign failed\n"},
		{"the hooks dir, refusing", func(t *testing.T, f *initFake) {
			f.hooks.foreign = "husky's hooks"
			f.hooks.failing = "HooksDir"
		}, "HooksDir failed\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newInitFake(t)
			tc.setup(t, f)
			before := f.files(t)
			code := f.run("--hooks")
			if code != 2 || !strings.HasPrefix(f.err.String(), tc.want) || f.out.Len() != 0 {
				t.Errorf("exit %d out %q err %q, want 2 and %q", code, f.out, f.err, tc.want)
			}
			if after := f.files(t); strings.Join(after, " ") != strings.Join(before, " ") {
				t.Errorf("a refused run wrote %q", after)
			}
		})
	}
}

func TestRunInitUninstall(t *testing.T) {
	t.Run("no lock", func(t *testing.T) {
		f := newInitFake(t)
		if code := f.run("--uninstall"); code != 2 || f.err.String() != "init: no lock at scripts/gates.lock, so nothing here was installed by init; nothing removed\n" {
			t.Errorf("exit %d err %q", code, f.err)
		}
	})
	t.Run("everything init wrote", func(t *testing.T) {
		f := richFake(t)
		before := f.files(t)
		if code := f.run(); code != 0 {
			t.Fatalf("install: exit %d", code)
		}
		installed := f.files(t)
		n := len(f.lock(t).Files)
		// A dry run says what it would do and does nothing.
		if code := f.run("--uninstall", "--dry-run"); code != 0 {
			t.Fatalf("dry run: exit %d", code)
		}
		want := "would restore .gitignore\nwould remove " + strconv.Itoa(n) + " files init wrote\nwould remove scripts/gates.lock\n"
		if f.out.String() != want {
			t.Errorf("dry run:\n%s\nwant:\n%s", f.out, want)
		}
		if after := f.files(t); strings.Join(after, " ") != strings.Join(installed, " ") {
			t.Errorf("a dry run removed files")
		}
		if code := f.run("--uninstall"); code != 0 {
			t.Fatalf("exit %d err %s", code, f.err)
		}
		want = "restore .gitignore\nremove " + strconv.Itoa(n) + " files init wrote\nremove scripts/gates.lock\n"
		if f.out.String() != want {
			t.Errorf("out:\n%s\nwant:\n%s", f.out, want)
		}
		// What was there before stays; the directories init made go.
		if after := f.files(t); strings.Join(after, " ") != strings.Join(before, " ") {
			t.Errorf("left %q, want %q", after, before)
		}
		for _, d := range []string{"gate-sdk", "bin", "docs", ".github"} {
			if _, err := os.Lstat(f.w.Top + "/" + d); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s left behind: %v", d, err)
			}
		}
		if _, err := os.Lstat(f.w.Top + "/scripts"); err != nil {
			t.Errorf("scripts/, which was there before, is gone: %v", err)
		}
	})
	t.Run("what the adopter changed is kept", func(t *testing.T) {
		f := newInitFake(t)
		writeFile(t, f.w.Top, ".gitignore", "mine\n")
		if code := f.run(); code != 0 {
			t.Fatalf("install: exit %d", code)
		}
		writeFile(t, f.w.Top, "scripts/gates.list", "check-mine\n")
		writeFile(t, f.w.Top, ".gitignore", "everything new\n")
		if err := os.Remove(f.w.Top + "/gate-sdk/README.md"); err != nil {
			t.Fatal(err)
		}
		n := len(f.lock(t).Files)
		if code := f.run("--uninstall"); code != 1 {
			t.Fatalf("exit %d err %s", code, f.err)
		}
		want := "init: kept scripts/gates.list (changed since init)\n" +
			"init: kept .gitignore (the lines init appended are no longer its last lines)\n" +
			"remove " + strconv.Itoa(n-2) + " files init wrote\n" +
			"init: scripts/gates.lock now records only what was kept; the tree is not fully reversed\n"
		if f.out.String() != want {
			t.Errorf("out:\n%s\nwant:\n%s", f.out, want)
		}
		l := f.lock(t)
		if len(l.Files) != 1 || l.Files[0].Path != "scripts/gates.list" || len(l.Appended) != 1 || strings.Join(l.Dirs, " ") != "scripts" {
			t.Errorf("lock %+v", l)
		}
		if got := strings.Join(f.files(t), " "); got != ".gitignore scripts/gates.list scripts/gates.lock" {
			t.Errorf("left %q", got)
		}
	})
	t.Run("lines appended to a file of the adopter's", func(t *testing.T) {
		f := newInitFake(t)
		writeFile(t, f.w.Top, ".gitignore", "mine")
		if code := f.run(); code != 0 {
			t.Fatalf("install: exit %d", code)
		}
		if s, _ := readFile(t, f.w.Top, ".gitignore"); !strings.HasPrefix(s, "mine\n# gates: ") {
			t.Errorf(".gitignore %q", s)
		}
		if code := f.run("--uninstall"); code != 0 {
			t.Fatalf("exit %d", code)
		}
		if s, _ := readFile(t, f.w.Top, ".gitignore"); s != "mine" {
			t.Errorf(".gitignore %q", s)
		}
	})
	t.Run("the hooks are restored first", func(t *testing.T) {
		for _, had := range []bool{true, false} {
			f := newInitFake(t)
			if code := f.run(); code != 0 {
				t.Fatalf("install: exit %d", code)
			}
			writeFile(t, f.w.Top, ".git/hooks/pre-commit", "x")
			f.hooks.rec = &HookRecord{HadHooksPath: had, HooksPath: ".husky", DirExisted: had}
			f.hooks.set, f.hooks.val = true, f.hooks.dir
			if code := f.run("--uninstall", "--dry-run"); code != 0 || f.hooks.dropped || len(f.hooks.setTo) != 0 {
				t.Fatalf("dry run: exit %d, hooks %+v", code, f.hooks)
			}
			if code := f.run("--uninstall"); code != 0 {
				t.Fatalf("exit %d", code)
			}
			first, _, _ := strings.Cut(f.out.String(), "\n")
			_, dirErr := os.Lstat(f.hooks.dir)
			if had {
				if first != "restore core.hooksPath=.husky" || strings.Join(f.hooks.setTo, ",") != "set .husky" || dirErr != nil {
					t.Errorf("first %q set %q dir %v", first, f.hooks.setTo, dirErr)
				}
			} else if first != "unset core.hooksPath" || strings.Join(f.hooks.setTo, ",") != "unset" || !errors.Is(dirErr, os.ErrNotExist) {
				t.Errorf("first %q set %q dir %v", first, f.hooks.setTo, dirErr)
			}
			if !f.hooks.dropped {
				t.Error("the record was not dropped")
			}
		}
	})
	t.Run("refusals", func(t *testing.T) {
		for _, m := range []string{"Record", "HooksDir", "SetHooksPath", "DropRecord"} {
			f := newInitFake(t)
			if code := f.run(); code != 0 {
				t.Fatalf("install: exit %d", code)
			}
			f.hooks.rec = &HookRecord{DirExisted: true}
			f.hooks.failing = m
			if code := f.run("--uninstall"); code != 2 || f.err.String() != m+" failed\n" {
				t.Errorf("%s: exit %d err %q", m, code, f.err)
			}
			if _, ok := readFile(t, f.w.Top, "bin/gates"); !ok {
				t.Errorf("%s: removed files after a refusal", m)
			}
		}
		f := newInitFake(t)
		if code := f.run(); code != 0 {
			t.Fatalf("install: exit %d", code)
		}
		if err := os.Remove(f.w.Top + "/bin/gates"); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(f.w.Top+"/bin/gates", 0o755); err != nil {
			t.Fatal(err)
		}
		if code := f.run("--uninstall"); code != 2 || !strings.HasPrefix(f.err.String(), "init: cannot read bin/gates: ") {
			t.Errorf("exit %d err %q", code, f.err)
		}
	})
}

func TestRunInitHooks(t *testing.T) {
	t.Run("another manager's hooks refuse before any write", func(t *testing.T) {
		f := newInitFake(t)
		f.hooks.foreign = "husky's pre-commit"
		if code := f.run("--hooks"); code != 2 {
			t.Fatalf("exit %d", code)
		}
		want := "init: husky's pre-commit, so pointing core.hooksPath at " + f.hooks.dir + " would silently stop them; nothing placed."
		if !strings.HasPrefix(f.err.String(), want) || !strings.Contains(f.err.String(), "take over: gates init --hooks --take-over, ") || !strings.Contains(f.err.String(), f.w.Top+"/bin/gates --git-hook pre-commit") {
			t.Errorf("err:\n%s", f.err)
		}
		if files := f.files(t); len(files) != 0 {
			t.Errorf("wrote %q", files)
		}
	})
	t.Run("placed, the state found recorded first", func(t *testing.T) {
		f := newInitFake(t)
		if err := os.MkdirAll(f.hooks.dir, 0o755); err != nil {
			t.Fatal(err)
		}
		f.hooks.val, f.hooks.set = ".husky", true
		f.hooks.foreign = "husky's pre-commit"
		if code := f.run("--hooks", "--take-over"); code != 0 {
			t.Fatalf("exit %d err %s", code, f.err)
		}
		if r := f.hooks.saved; r == nil || !r.HadHooksPath || r.HooksPath != ".husky" || !r.DirExisted {
			t.Errorf("recorded %+v", r)
		}
		if strings.Join(f.installs, ",") != f.w.Top+"/bin/gates take-over" {
			t.Errorf("installs %q", f.installs)
		}
		if !hasLine(f.out.String(), "init: core.hooksPath was .husky; the gates hooks take its place (recorded; `gates init --uninstall` puts it back)") {
			t.Errorf("out:\n%s", f.out)
		}
		// A record already there is kept as the state first found.
		f.hooks.saved = nil
		f.hooks.val, f.hooks.foreign = "other", ""
		if code := f.run("--hooks"); code != 0 || f.hooks.saved != nil || len(f.installs) != 2 || f.installs[1] != f.w.Top+"/bin/gates plain" {
			t.Errorf("exit %d saved %+v installs %q", code, f.hooks.saved, f.installs)
		}
		if strings.Contains(f.out.String(), "take its place") {
			t.Errorf("no take-over asked, yet:\n%s", f.out)
		}
	})
	t.Run("not set: recorded as such", func(t *testing.T) {
		f := newInitFake(t)
		if code := f.run("--hooks"); code != 0 {
			t.Fatalf("exit %d err %s", code, f.err)
		}
		if r := f.hooks.saved; r == nil || r.HadHooksPath || r.HooksPath != "" || r.DirExisted {
			t.Errorf("recorded %+v", r)
		}
		// The hooks placed, the run goes on to say what comes next.
		if !strings.HasSuffix(f.out.String(), "\n  gate-sdk/templates/adopt.md          the walk that fits the knobs to this repository\n") {
			t.Errorf("out:\n%s", f.out)
		}
		if strings.Contains(f.out.String(), "take its place") {
			t.Errorf("out:\n%s", f.out)
		}
	})
	t.Run("already placed", func(t *testing.T) {
		f := newInitFake(t)
		f.hooks.val, f.hooks.set = f.hooks.dir, true
		if code := f.run("--hooks"); code != 0 {
			t.Fatalf("exit %d err %s", code, f.err)
		}
		if !hasLine(f.out.String(), "init: the hooks are already placed (core.hooksPath="+f.hooks.dir+")") || len(f.installs) != 0 || f.hooks.saved != nil {
			t.Errorf("installs %q out:\n%s", f.installs, f.out)
		}
	})
	t.Run("the placing fails", func(t *testing.T) {
		for _, tc := range []struct {
			failing string
			install func(string, bool) (int, error)
			code    int
			err     string
		}{
			{"", func(string, bool) (int, error) { return 3, nil }, 2, "init: --install-hooks exited 3\n"},
			{"", func(string, bool) (int, error) { return 0, errors.New("no fork") }, 2, "no fork\n"},
			{"Record", nil, 2, "Record failed\n"},
			{"SaveRecord", nil, 2, "SaveRecord failed\n"},
			{"HooksPath", nil, 2, "HooksPath failed\n"},
		} {
			f := newInitFake(t)
			f.hooks.failing = tc.failing
			if tc.install != nil {
				f.w.InstallHooks = tc.install
			}
			if code := f.run("--hooks"); code != tc.code || f.err.String() != tc.err {
				t.Errorf("%q: exit %d err %q", tc.failing, code, f.err)
			}
		}
	})
}

func TestRunInitRefreshesStaleHooks(t *testing.T) {
	placed := func(t *testing.T) *initFake {
		f := newInitFake(t)
		if code := f.run(); code != 0 {
			t.Fatalf("install: exit %d", code)
		}
		f.hooks.val, f.hooks.set = f.hooks.dir, true
		writeFile(t, f.w.Top, ".git/hooks/pre-commit", "the gates binary")
		writeFile(t, f.w.Top, ".git/hooks/commit-msg", "the gates binary")
		return f
	}
	t.Run("current hooks are left", func(t *testing.T) {
		f := placed(t)
		if code := f.run(); code != 0 || len(f.refresh) != 0 || !strings.HasSuffix(f.out.String(), "\ninit: nothing to do; the tree is as init left it\n") {
			t.Errorf("exit %d refresh %q out:\n%s", code, f.refresh, f.out)
		}
	})
	for _, stale := range []string{"pre-commit", "commit-msg"} {
		t.Run("a stale "+stale, func(t *testing.T) {
			f := placed(t)
			writeFile(t, f.w.Top, ".git/hooks/"+stale, "an older binary")
			if code := f.run(); code != 0 || strings.Join(f.refresh, ",") != f.w.Top+"/bin/gates" {
				t.Errorf("exit %d refresh %q", code, f.refresh)
			}
			if !hasLine(f.out.String(), "init: refreshed the git hooks in "+f.hooks.dir+": they were not bin/gates's bytes (an older or other binary)") {
				t.Errorf("out:\n%s", f.out)
			}
		})
	}
	t.Run("a missing hook", func(t *testing.T) {
		f := placed(t)
		if err := os.Remove(f.w.Top + "/.git/hooks/commit-msg"); err != nil {
			t.Fatal(err)
		}
		if code := f.run(); code != 0 || len(f.refresh) != 1 {
			t.Errorf("exit %d refresh %q", code, f.refresh)
		}
	})
	t.Run("hooks placed elsewhere are not ours", func(t *testing.T) {
		f := placed(t)
		writeFile(t, f.w.Top, ".git/hooks/pre-commit", "an older binary")
		f.hooks.val = ".husky"
		if code := f.run(); code != 0 || len(f.refresh) != 0 {
			t.Errorf("exit %d refresh %q", code, f.refresh)
		}
		f.hooks.val, f.hooks.set = "", true
		if code := f.run(); code != 0 || len(f.refresh) != 0 {
			t.Errorf("empty value: exit %d refresh %q", code, f.refresh)
		}
		f.hooks.val, f.hooks.set = f.hooks.dir, false
		if code := f.run(); code != 0 || len(f.refresh) != 0 {
			t.Errorf("unset: exit %d refresh %q", code, f.refresh)
		}
	})
	t.Run("no binary placed", func(t *testing.T) {
		f := placed(t)
		writeFile(t, f.w.Top, ".git/hooks/pre-commit", "an older binary")
		if err := os.Remove(f.w.Top + "/bin/gates"); err != nil {
			t.Fatal(err)
		}
		if code, err := refreshHooks(f.w, &Plan{Bin: "bin/gates"}); code != 0 || err != nil || len(f.refresh) != 0 {
			t.Errorf("refreshed from no binary: %d %v %q", code, err, f.refresh)
		}
	})
	t.Run("the refresh fails", func(t *testing.T) {
		for _, tc := range []struct {
			refresh func(string) (int, error)
			code    int
			err     string
		}{
			{func(string) (int, error) { return 4, nil }, 2, "init: --install-hooks --refresh exited 4\n"},
			{func(string) (int, error) { return 0, errors.New("no fork") }, 2, "no fork\n"},
		} {
			f := placed(t)
			writeFile(t, f.w.Top, ".git/hooks/pre-commit", "an older binary")
			f.w.RefreshHooks = tc.refresh
			if code := f.run(); code != tc.code || f.err.String() != tc.err {
				t.Errorf("exit %d err %q", code, f.err)
			}
			// Through --hooks, already placed, the same.
			if code := f.run("--hooks"); code != tc.code || f.err.String() != tc.err {
				t.Errorf("--hooks: exit %d err %q", code, f.err)
			}
		}
		f := placed(t)
		f.hooks.failing = "HooksDir"
		if code := f.run(); code != 2 || f.err.String() != "HooksDir failed\n" {
			t.Errorf("exit %d err %q", code, f.err)
		}
		f.w.RefreshHooks = nil
		if code := f.run(); code != 0 {
			t.Errorf("no refresher: exit %d err %q", code, f.err)
		}
	})
}

func TestRunInitUpgrade(t *testing.T) {
	f := newInitFake(t)
	if code := f.run(); code != 0 {
		t.Fatalf("install: exit %d", code)
	}
	var tpl, gateFile string
	for _, p := range f.files(t) {
		if tpl == "" && strings.HasPrefix(p, "gate-sdk/templates/") {
			tpl = p
		}
		if gateFile == "" && strings.HasPrefix(p, "gate-sdk/checks/") && strings.HasSuffix(p, ".gate") {
			gateFile = p
		}
	}
	if tpl == "" || gateFile == "" {
		t.Fatal("the kit carries no template or no gate")
	}
	// The tree as an older release left it: an older template, and a
	// gate that release did not have.
	l := f.lock(t)
	l.KitVersion = "v0"
	writeFile(t, f.w.Top, tpl, "an older template\n")
	recordFile(l, tpl, Digest([]byte("an older template\n")), classKit)
	if err := os.Remove(f.w.Top + "/" + gateFile); err != nil {
		t.Fatal(err)
	}
	var files []LockFile
	for _, x := range l.Files {
		if x.Path != gateFile {
			files = append(files, x)
		}
	}
	l.Files = files
	writeFile(t, f.w.Top, "scripts/gates.lock", string(l.Encode()))
	f.w.Stamp = "v2"
	if code := f.run(); code != 0 {
		t.Fatalf("exit %d err %s", code, f.err)
	}
	name := strings.TrimSuffix(strings.TrimPrefix(gateFile, "gate-sdk/checks/"), ".gate")
	out := f.out.String()
	for _, want := range []string{
		"init: the kit moves from the build stamped v0 to v2; against the kit vendored here:",
		"init:   gates new in this release: " + name,
		"init:   templates changed: " + tpl,
		"init: vendored 2 files of gate-sdk into gate-sdk/",
		"  git status && git diff          what the release changed in your tree",
		"  bin/gates doctor                 exit 0: nothing wrong",
		"  git add -A && git commit -m 'chore: upgrade gate-sdk'",
	} {
		if !hasLine(out, want) {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "chore: vendor gate-sdk") {
		t.Errorf("an upgrade printed the first adoption's steps:\n%s", out)
	}
	l = f.lock(t)
	if l.KitVersion != "v2" || l.BinaryStamp != "v1" {
		t.Errorf("stamps: kit %q binary %q", l.KitVersion, l.BinaryStamp)
	}
	// A new binary is stamped on its own.
	f.w.Self = func() ([]byte, error) { return []byte("a newer binary"), nil }
	f.w.Stamp = "v3"
	if code := f.run(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if l = f.lock(t); l.KitVersion != "v2" || l.BinaryStamp != "v3" {
		t.Errorf("stamps: kit %q binary %q", l.KitVersion, l.BinaryStamp)
	}
	if !hasLine(f.out.String(), "init: placed the gates binary at bin/gates (v3)") || strings.Contains(f.out.String(), "vendored") {
		t.Errorf("out:\n%s", f.out)
	}
}

func TestRunInitSettlesAnInterruptedInstall(t *testing.T) {
	f := newInitFake(t)
	// A first run killed after it wrote the binary: the journal names
	// every coming write, the lock carries no stamp yet.
	writeFile(t, f.w.Top, "bin/gates", "the gates binary")
	writeFile(t, f.w.Top, "bin/gates"+tmpSuffix, "half")
	l := &Lock{Version: LockVersion, Kit: "gate-sdk", KitRoot: "gate-sdk",
		Pending: []LockFile{{Path: "bin/gates", SHA256: Digest([]byte("the gates binary")), Class: classBinary}, {Path: "scripts/gates.list", SHA256: Digest(nil), Class: classSeed}}}
	writeFile(t, f.w.Top, "scripts/gates.lock", string(l.Encode()))
	if code := f.run(); code != 0 {
		t.Fatalf("exit %d err %s", code, f.err)
	}
	out := f.out.String()
	if first, _, _ := strings.Cut(out, "\n"); first != "init: scripts/gates.lock records an install that was cut short; settling it" {
		t.Errorf("first line %q", first)
	}
	if _, ok := readFile(t, f.w.Top, "bin/gates"+tmpSuffix); ok {
		t.Error("the leftover temporary file stays")
	}
	l = f.lock(t)
	if l.KitVersion != "v1" || l.BinaryStamp != "v1" || len(l.Pending) != 0 {
		t.Errorf("lock %+v", l)
	}
	if strings.Contains(out, "placed the gates binary") {
		t.Errorf("the binary the killed run placed was placed again:\n%s", out)
	}
	// A dry run does not settle.
	f2 := newInitFake(t)
	writeFile(t, f2.w.Top, "scripts/gates.lock", string(l.Encode()))
	l.Pending = []LockFile{{Path: "bin/gates", SHA256: Digest(nil), Class: classBinary}}
	writeFile(t, f2.w.Top, "scripts/gates.lock", string(l.Encode()))
	if code := f2.run("--dry-run"); code != 0 || strings.Contains(f2.out.String(), "cut short") {
		t.Errorf("exit %d out:\n%s", code, f2.out)
	}
	// A leftover that cannot be removed refuses.
	f3 := newInitFake(t)
	writeFile(t, f3.w.Top, "bin/gates"+tmpSuffix+"/x", "")
	writeFile(t, f3.w.Top, "scripts/gates.lock", string(l.Encode()))
	if code := f3.run(); code != 2 || !strings.HasPrefix(f3.err.String(), "init: cannot remove the leftover bin/gates"+tmpSuffix+": ") {
		t.Errorf("exit %d err %q", code, f3.err)
	}
}

func TestRunInitHistoryDecides(t *testing.T) {
	f := newInitFake(t)
	var commits []HistoryCommit
	for i := 0; i < 10; i++ {
		commits = append(commits, HistoryCommit{Author: "Ann", Email: "ann@example.com", Message: "release: cut " + strconv.Itoa(i)})
	}
	commits = append(commits, HistoryCommit{Author: "dependabot[bot]", Email: "bot@example.com", Message: "chore: bump"})
	f.w.Messages = func(int) ([]HistoryCommit, error) { return commits, nil }
	var judged []string
	f.w.Judge = func(g, msg string, env []string) (bool, error) {
		judged = append(judged, g+" "+strings.Join(env, ","))
		// Subjects pass with the history's types admitted; messages fail.
		return g == "check-commit-subject" && len(env) == 1, nil
	}
	if code := f.run(); code != 0 {
		t.Fatalf("exit %d err %s", code, f.err)
	}
	out := f.out.String()
	for _, want := range []string{
		"init: the commit-message gates were judged on the last 10 messages by people (1 commit by bots left out)",
		"init: GATE_SDK_COMMIT_TYPES admits the types this history uses beyond the kit's: release (10 subjects) (set in scripts/gate-sdk-config.knobs)",
		"init: check-commit-msg: not adopted: 0 of the 10 recent commit messages by people would pass; to adopt: echo check-commit-msg >> scripts/gates.list",
		"init: check-commit-subject: registered",
	} {
		if !hasLine(out, want) {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
	knobs, _ := readFile(t, f.w.Top, "scripts/gate-sdk-config.knobs")
	if !strings.Contains(knobs, "\n# use (init read them off the last 10 subjects by people).\nGATE_SDK_COMMIT_TYPES = feat fix release\n") {
		t.Errorf("knob file:\n%s", knobs)
	}
	if !strings.Contains(strings.Join(judged, "\n"), "check-commit-subject GATE_SDK_COMMIT_TYPES=feat fix release") {
		t.Errorf("judged %q", judged)
	}
	// The history unread is a reason, not a refusal.
	f = newInitFake(t)
	f.w.Messages = func(int) ([]HistoryCommit, error) { return commits, nil }
	f.w.Judge = func(string, string, []string) (bool, error) { return false, errors.New("no judge") }
	if code := f.run(); code != 0 || !hasLine(f.out.String(), "init: check-commit-msg: not adopted: the commit history could not be read: no judge") {
		t.Errorf("exit %d out:\n%s", code, f.out)
	}
}

func TestRunInitWithAnAdoptersBaseline(t *testing.T) {
	f := newInitFake(t)
	writeFile(t, f.w.Top, "scripts/gates.baseline", "# mine\n")
	f.probes["check-tree-terms"] = probeAnswer{code: 1, out: "a.txt:1: banned\nb.txt:2: banned\nc.txt:3: banned\nhelp: fix it\nCHECK-TREE-TERMS: FAIL (3)\n"}
	f.probes["check-core-files"] = probeAnswer{code: 0, out: "x.yml:3: cannot read it (GitHub loads this file)\nx.yml:9: cannot read it (GitHub loads this file)\ny.yml:1: cannot read z (GitHub loads this file)\n1 test input under testdata/ skipped\n1 unparseable YAML file skipped\n"}
	called := false
	f.w.Baseline = func(bool) ([]byte, error) { called = true; return nil, nil }
	if code := f.run(); code != 0 {
		t.Fatalf("exit %d err %s", code, f.err)
	}
	out := f.out.String()
	for _, want := range []string{
		"init: check-tree-terms: not adopted: reds on the tree as init found it (3 finding lines), and scripts/gates.baseline is yours, not init's; run `gates baseline` to accept them, then register it",
		"init: check-core-files: registered; 2 files GitHub loads cannot be read (x.yml, y.yml): accepted in scripts/gates.baseline until fixed; 1 unparseable YAML file skipped (GitHub never loads them; the gate skips them each run); 1 test input under testdata/ skipped (GitHub never loads them; the gate skips them each run)",
	} {
		if !hasLine(out, want) {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
	if called {
		t.Error("the adopter's baseline was rewritten")
	}
	if s, _ := readFile(t, f.w.Top, "scripts/gates.baseline"); s != "# mine\n" {
		t.Errorf("baseline %q", s)
	}
}

func TestRunInitRegistryAndPage(t *testing.T) {
	t.Run("a removed registry is written again", func(t *testing.T) {
		f := newInitFake(t)
		if code := f.run(); code != 0 {
			t.Fatalf("install: exit %d", code)
		}
		if err := os.Remove(f.w.Top + "/scripts/gates.list"); err != nil {
			t.Fatal(err)
		}
		if code := f.run(); code != 0 {
			t.Fatalf("exit %d", code)
		}
		if !hasLine(f.out.String(), "init: wrote scripts/gates.list (16 gates registered; each left out is named there with its reason; recreated: it was removed since init)") {
			t.Errorf("out:\n%s", f.out)
		}
	})
	t.Run("a removed seed stays removed", func(t *testing.T) {
		f := newInitFake(t)
		if code := f.run(); code != 0 {
			t.Fatalf("install: exit %d", code)
		}
		if err := os.Remove(f.w.Top + "/scripts/root-allowlist.list"); err != nil {
			t.Fatal(err)
		}
		if code := f.run(); code != 0 {
			t.Fatalf("exit %d", code)
		}
		if !hasLine(f.out.String(), "init: did not write scripts/root-allowlist.list (removed since init, and a seed you removed stays removed; `gates init --uninstall` and init again seed it afresh)") {
			t.Errorf("out:\n%s", f.out)
		}
		if _, ok := readFile(t, f.w.Top, "scripts/root-allowlist.list"); ok {
			t.Error("written again")
		}
	})
	t.Run("an edited registry grows", func(t *testing.T) {
		f := newInitFake(t)
		f.probes["check-exec-bit"] = probeAnswer{code: 2, out: "not yet"}
		if code := f.run(); code != 0 {
			t.Fatalf("install: exit %d", code)
		}
		list, _ := readFile(t, f.w.Top, "scripts/gates.list")
		writeFile(t, f.w.Top, "scripts/gates.list", list+"# mine\n")
		f.probes["check-exec-bit"] = probeAnswer{}
		if code := f.run(); code != 0 {
			t.Fatalf("exit %d err %s", code, f.err)
		}
		out := f.out.String()
		if !hasLine(out, "init: kept scripts/gates.list (edited since init)") || !strings.Contains(out, "check-exec-bit") {
			t.Errorf("out:\n%s", out)
		}
		if grown, _ := readFile(t, f.w.Top, "scripts/gates.list"); !strings.Contains(grown, "\ncheck-exec-bit\n") || !strings.HasSuffix(grown, "# mine\n") {
			t.Errorf("registry:\n%s", grown)
		}
	})
	t.Run("a page path that cannot be read refuses", func(t *testing.T) {
		f := newInitFake(t)
		f.tracked = append(f.tracked, "scripts/check-own.sh")
		writeFile(t, f.w.Top, "docs", "a file where a directory would be")
		if code := f.run(); code != 2 || !strings.HasPrefix(f.err.String(), "init: cannot read docs/graph.md: ") {
			t.Errorf("exit %d err %q", code, f.err)
		}
	})
	t.Run("an adopter's page is not planned", func(t *testing.T) {
		f := newInitFake(t)
		f.tracked = append(f.tracked, "scripts/check-own.sh")
		f.w.EmitGraph = func() ([]byte, error) { return []byte("page"), nil }
		writeFile(t, f.w.Top, "docs/graph.md", "mine\n")
		if code := f.run(); code != 0 {
			t.Fatalf("exit %d err %s", code, f.err)
		}
		if s, _ := readFile(t, f.w.Top, "docs/graph.md"); s != "mine\n" {
			t.Errorf("page %q", s)
		}
		if strings.Contains(f.out.String(), "git add -A && bash") {
			t.Errorf("out:\n%s", f.out)
		}
	})
	t.Run("the page's emission fails", func(t *testing.T) {
		f := newInitFake(t)
		f.tracked = append(f.tracked, "scripts/check-own.sh")
		f.w.EmitGraph = func() ([]byte, error) { return nil, errors.New("emit died") }
		if code := f.run(); code != 2 || f.err.String() != "init: the coupling-graph page: emit died\n" {
			t.Errorf("exit %d err %q", code, f.err)
		}
	})
	t.Run("check-graph left out writes no page", func(t *testing.T) {
		f := newInitFake(t)
		f.tracked = append(f.tracked, "scripts/check-own.sh")
		f.probes["check-graph"] = probeAnswer{code: 2, out: "no"}
		f.w.EmitGraph = func() ([]byte, error) { return []byte("page"), nil }
		if code := f.run(); code != 0 {
			t.Fatalf("exit %d err %s", code, f.err)
		}
		if _, ok := readFile(t, f.w.Top, "docs/graph.md"); ok {
			t.Error("a page was written")
		}
	})
	t.Run("accepting fails", func(t *testing.T) {
		f := newInitFake(t)
		f.probes["check-tree-terms"] = probeAnswer{code: 1, out: "a:1: x\n"}
		f.w.Baseline = func(bool) ([]byte, error) { return nil, errors.New("baseline died") }
		if code := f.run(); code != 2 || f.err.String() != "init: gates baseline: baseline died\n" {
			t.Errorf("exit %d err %q", code, f.err)
		}
	})
	t.Run("the baseline cannot be read", func(t *testing.T) {
		f := newInitFake(t)
		if err := os.MkdirAll(f.w.Top+"/scripts/gates.baseline", 0o755); err != nil {
			t.Fatal(err)
		}
		if code := f.run(); code != 2 || !strings.HasPrefix(f.err.String(), "init: cannot read scripts/gates.baseline: ") {
			t.Errorf("exit %d err %q", code, f.err)
		}
	})
}

func TestRunInitWorkflowSeed(t *testing.T) {
	f := newInitFake(t)
	f.env["GATES_PAYLOAD_URL"] = "https://example.com/p.tar.gz;rm"
	if code := f.run(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !hasLine(f.out.String(), "init: did not seed .github/workflows/gates.yml: GATES_PAYLOAD_URL holds characters init does not write into a workflow, so a runner would have nothing to install it from. "+CINeeds) {
		t.Errorf("out:\n%s", f.out)
	}
	// A workflow of the adopter's own: nothing said.
	writeFile(t, f.w.Top, WorkflowPath, "mine\n")
	if code := f.run(); code != 0 || strings.Contains(f.out.String(), "did not seed") {
		t.Errorf("exit %d out:\n%s", code, f.out)
	}
}

func TestRunInitFixturesAndWithheld(t *testing.T) {
	f := newInitFake(t)
	f.knobs["GATE_SDK_PAYLOAD_WITHHOLD"] = "SPEC.md bin/ "
	if code := f.run("--with-fixtures"); code != 0 {
		t.Fatalf("exit %d err %s", code, f.err)
	}
	files := strings.Join(f.files(t), "\n") + "\n"
	if !strings.Contains(files, "gate-sdk/gate-tests/") || !strings.Contains(files, "gate-sdk/SPEC.md\n") || strings.Contains(files, "\ngate-sdk/bin/") {
		t.Errorf("vendored:\n%s", files)
	}
	// A later run without the flag keeps the fixtures current.
	fixture := ""
	for _, p := range f.files(t) {
		if strings.HasPrefix(p, "gate-sdk/gate-tests/") {
			fixture = p
			break
		}
	}
	if err := os.Remove(f.w.Top + "/" + fixture); err != nil {
		t.Fatal(err)
	}
	if code := f.run(); code != 0 || !hasLine(f.out.String(), "init: vendored 1 file of gate-sdk into gate-sdk/") {
		t.Errorf("exit %d out:\n%s", code, f.out)
	}
	if _, ok := readFile(t, f.w.Top, fixture); !ok {
		t.Errorf("%s not vendored again", fixture)
	}
}

func TestRunInitJudgesWithTheKnobsAloneWhenNoTypeIsAdded(t *testing.T) {
	for _, gatesDirKnob := range []bool{false, true} {
		f := newInitFake(t)
		commits := []HistoryCommit{{Author: "Ann", Email: "ann@example.com", Message: "feat: a"}}
		f.w.Messages = func(int) ([]HistoryCommit, error) { return commits, nil }
		var envs [][]string
		f.w.Judge = func(g, msg string, env []string) (bool, error) {
			envs = append(envs, env)
			return true, nil
		}
		if gatesDirKnob {
			// The adopter's knob file sets the kit's roster itself.
			writeFile(t, f.w.Top, "scripts/gate-sdk-config.knobs", "GATE_SDK_COMMIT_TYPES = feat fix\n")
			l := &Lock{Version: LockVersion, Kit: "gate-sdk", KitRoot: "gate-sdk", KitVersion: "v1", BinaryStamp: "v1",
				Files: []LockFile{{Path: "scripts/gate-sdk-config.knobs", SHA256: Digest([]byte("x")), Class: classSeed}}}
			writeFile(t, f.w.Top, "scripts/gates.lock", string(l.Encode()))
		}
		if code := f.run(); code != 0 {
			t.Fatalf("exit %d err %s", code, f.err)
		}
		if len(envs) != 2 {
			t.Fatalf("judged %d times", len(envs))
		}
		for _, env := range envs {
			if len(env) != 0 {
				t.Errorf("judged with %q though the history adds no type", env)
			}
		}
	}
}

func TestRunInitFollowsAnUneditedTemplate(t *testing.T) {
	f := newInitFake(t)
	if code := f.run(); code != 0 {
		t.Fatalf("install: exit %d", code)
	}
	// The pattern list as an older release seeded it, never edited.
	old := "# an older release's list\n"
	writeFile(t, f.w.Top, "scripts/patterns.list", old)
	l := f.lock(t)
	recordFile(l, "scripts/patterns.list", Digest([]byte(old)), classSeed)
	writeFile(t, f.w.Top, "scripts/gates.lock", string(l.Encode()))
	if code := f.run(); code != 0 {
		t.Fatalf("exit %d err %s", code, f.err)
	}
	if !hasLine(f.out.String(), "init: updated scripts/patterns.list (unedited since init, and this release's template differs)") {
		t.Errorf("out:\n%s", f.out)
	}
	if s, _ := readFile(t, f.w.Top, "scripts/patterns.list"); s == old {
		t.Error("the list was not brought to the template")
	}
	// Edited since, it is the adopter's: kept.
	writeFile(t, f.w.Top, "scripts/patterns.list", "mine\n")
	if code := f.run(); code != 0 || !hasLine(f.out.String(), "init: kept scripts/patterns.list (edited since init)") {
		t.Errorf("exit %d out:\n%s", code, f.out)
	}
	// A kit file edited since init whose copy here differs too refuses.
	writeFile(t, f.w.Top, "gate-sdk/README.md", "mine\n")
	l = f.lock(t)
	recordFile(l, "gate-sdk/README.md", Digest([]byte("an older kit's\n")), classKit)
	writeFile(t, f.w.Top, "scripts/gates.lock", string(l.Encode()))
	if code := f.run(); code != 2 || !hasLine(f.err.String(), "init: refused: gate-sdk/README.md edited since init, and this binary's copy differs too") {
		t.Errorf("exit %d err:\n%s", code, f.err)
	}
}

func TestRunInitRewritesALockSpelledOtherwise(t *testing.T) {
	f := newInitFake(t)
	if code := f.run(); code != 0 {
		t.Fatalf("install: exit %d", code)
	}
	canon, _ := readFile(t, f.w.Top, "scripts/gates.lock")
	// The same record, spelled on one line: nothing to write but the lock
	// in its own spelling, and no journal stands in for it.
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(canon)); err != nil {
		t.Fatal(err)
	}
	writeFile(t, f.w.Top, "scripts/gates.lock", compact.String())
	if code := f.run(); code != 0 {
		t.Fatalf("exit %d err %s", code, f.err)
	}
	if !hasLine(f.out.String(), "init: recorded the install in scripts/gates.lock") || strings.Contains(f.out.String(), "nothing to do") {
		t.Errorf("out:\n%s", f.out)
	}
	if got, _ := readFile(t, f.w.Top, "scripts/gates.lock"); got != canon {
		t.Errorf("lock:\n%s\nwant:\n%s", got, canon)
	}
}
