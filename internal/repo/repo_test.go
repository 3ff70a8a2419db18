package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

func testEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
}

func physTemp(tb testing.TB) string {
	tb.Helper()
	d, err := walk.Canonicalize(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

func runGit(tb testing.TB, dir string, env []string, args ...string) string {
	tb.Helper()
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: args, Dir: dir, Env: env})
	if err != nil {
		tb.Fatal(err)
	}
	out, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		tb.Fatalf("git %v: %s", args, rep)
	}
	return string(out)
}

func writeFile(tb testing.TB, p, body string, mode os.FileMode) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		tb.Fatal(err)
	}
}

// hardNames are names git's line form would quote.
func hardNames() []string {
	names := []string{
		"plain.txt",
		"spaced name.md",
		"non-ascii-é.md",
		"日本/語.txt",
		"nested/deep/x.go",
		"nested/deep/spaced dir/y z.go",
		"nested/top.sh",
	}
	if runtime.GOOS != "windows" {
		names = append(names, `quote"d.txt`, `back\slash.txt`, "tab\tname.txt", "new\nline.txt")
	}
	return names
}

type fixture struct {
	top string
	env []string
}

// newFixture builds a committed repository tracking hardNames, an
// executable, a symlink and a remote pair.
func newFixture(tb testing.TB) fixture {
	tb.Helper()
	root := physTemp(tb)
	top := filepath.Join(root, "repo")
	env := testEnv(filepath.Join(root, "home"))
	for _, n := range hardNames() {
		writeFile(tb, filepath.Join(top, n), "body of "+n+"\n", 0o644)
	}
	writeFile(tb, filepath.Join(top, "run.sh"), "#!/bin/sh\n", 0o755)
	if runtime.GOOS != "windows" {
		if err := os.Symlink("nested/deep/x.go", filepath.Join(top, "link")); err != nil {
			tb.Fatal(err)
		}
	}
	runGit(tb, top, env, "init", "-q", "-b", "main")
	runGit(tb, top, env, "add", "-A")
	runGit(tb, top, env, "commit", "-q", "-m", "init")
	runGit(tb, top, env, "remote", "add", "origin", "https://example.invalid/a.git")
	runGit(tb, top, env, "remote", "add", "up.stream", "git@example.invalid:b.git")
	runGit(tb, top, env, "config", "--add", "remote.origin.url", "https://mirror.invalid/a.git")
	runGit(tb, top, env, "config", "gates.spaced", "a value  with spaces")
	return fixture{top: top, env: env}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// assertion A: tracked names come back exactly as written, scoped to the
// directory asked about.
func TestTrackedNamesAsWritten(t *testing.T) {
	fx := newFixture(t)
	g := Git{Env: fx.env}
	got, err := g.Tracked(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	want := append(hardNames(), "run.sh")
	if runtime.GOOS != "windows" {
		want = append(want, "link")
	}
	if !reflect.DeepEqual(sorted(got), sorted(want)) {
		t.Fatalf("Tracked =\n %q\nwant\n %q", sorted(got), sorted(want))
	}
	sub, err := g.Tracked(filepath.Join(fx.top, "nested"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"deep/spaced dir/y z.go", "deep/x.go", "top.sh"}; !reflect.DeepEqual(sub, want) {
		t.Fatalf("scoped Tracked = %q, want %q", sub, want)
	}
	spec, err := g.Tracked(fx.top, "nested/deep", "*.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"nested/deep/spaced dir/y z.go", "nested/deep/x.go", "non-ascii-é.md", "spaced name.md"}; !reflect.DeepEqual(sorted(spec), want) {
		t.Fatalf("pathspec Tracked = %q", spec)
	}
}

// A fixture case inside another repository: the listing is the enclosing
// repository's, scoped to the case, as git answers it.
func TestTrackedFixtureCaseScope(t *testing.T) {
	fx := newFixture(t)
	caseDir := filepath.Join(fx.top, "gate-tests", "g", "good")
	writeFile(t, filepath.Join(caseDir, "in.md"), "x", 0o644)
	writeFile(t, filepath.Join(caseDir, "untracked.md"), "x", 0o644)
	runGit(t, fx.top, fx.env, "add", "gate-tests/g/good/in.md")
	got, err := Git{Env: fx.env}.Tracked(caseDir)
	if err != nil || !reflect.DeepEqual(got, []string{"in.md"}) {
		t.Fatalf("case listing = %q, %v", got, err)
	}
}

// assertion B: a name that is not UTF-8 is a NonUTF8Error naming the path
// in lossy spelling; a failed listing is a ListingError.
func TestTrackedRefusals(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs a filesystem admitting non-UTF-8 names")
	}
	fx := newFixture(t)
	writeFile(t, filepath.Join(fx.top, "bad\xffname.md"), "x", 0o644)
	runGit(t, fx.top, fx.env, "add", "-A")
	g := Git{Env: fx.env}
	_, err := g.Tracked(fx.top)
	var nu *NonUTF8Error
	if !errors.As(err, &nu) || nu.Path != "bad\uFFFDname.md" || !strings.Contains(err.Error(), "bad\uFFFDname.md: file name is not UTF-8") {
		t.Fatalf("err = %v", err)
	}
	var le *ListingError
	if errors.As(err, &le) {
		t.Fatal("a non-UTF-8 name was folded into a failed listing")
	}
	for name, read := range map[string]func() error{
		"IndexModes":   func() error { _, err := g.IndexModes(fx.top); return err },
		"Staged":       func() error { _, err := g.Staged(fx.top); return err },
		"go-git index": func() error { _, err := IndexEntriesAt(fx.top); return err },
		"NewSnapshot":  func() error { _, err := g.NewSnapshot(fx.top); return err },
	} {
		if err := read(); !errors.As(err, &nu) {
			t.Errorf("%s: err = %v, want a NonUTF8Error", name, err)
		}
	}

	outside := physTemp(t)
	_, err = Git{Env: append(fx.env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(outside))}.Tracked(outside)
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "git could not list tracked files in "+outside) {
		t.Fatalf("listing outside a repository: %v", err)
	}
	_, err = Git{Env: append(fx.env, "PATH=/nonexistent")}.Tracked(fx.top)
	var se *spawn.StartError
	if !errors.As(err, &le) || !errors.As(err, &se) {
		t.Fatalf("dead git: %v", err)
	}
}

// assertion C: each go-git read equals the CLI read on the same repository.
func TestGoGitEqualsCLI(t *testing.T) {
	fx := newFixture(t)
	g := Git{Env: fx.env}
	// Stage a change so the index differs from HEAD.
	writeFile(t, filepath.Join(fx.top, "plain.txt"), "changed\n", 0o755)
	if err := os.Chmod(filepath.Join(fx.top, "plain.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, fx.top, fx.env, "add", "plain.txt")

	cli, err := g.IndexModes(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	gg, err := IndexEntriesAt(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cli, gg) {
		t.Fatalf("index differs\n cli %+v\n go-git %+v", cli, gg)
	}
	modes := map[string]uint32{}
	for _, e := range cli {
		modes[e.Path] = e.Mode
	}
	if modes["run.sh"] != ModeExecutable || modes["plain.txt"] != ModeExecutable || modes["spaced name.md"] != ModeRegular {
		t.Fatalf("modes %v", modes)
	}
	if runtime.GOOS != "windows" && modes["link"] != ModeSymlink {
		t.Fatalf("link mode %o", modes["link"])
	}

	subCLI, err := g.IndexModes(filepath.Join(fx.top, "nested"))
	if err != nil {
		t.Fatal(err)
	}
	if sc := ScopeEntries(gg, "nested/"); !reflect.DeepEqual(subCLI, sc) {
		t.Fatalf("scoped index differs\n cli %+v\n go-git %+v", subCLI, sc)
	}

	hc, err := g.ReadHead(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	hg, err := HeadAt(fx.top)
	if err != nil || hc != hg || hc.Branch != "refs/heads/main" || len(hc.Hash) != 40 {
		t.Fatalf("HEAD cli %+v go-git %+v %v", hc, hg, err)
	}
	rc, err := g.Remotes(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	rg, err := RemotesAt(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	wantRemotes := []Remote{
		{Name: "origin", URLs: []string{"https://example.invalid/a.git", "https://mirror.invalid/a.git"}},
		{Name: "up.stream", URLs: []string{"git@example.invalid:b.git"}},
	}
	if !reflect.DeepEqual(rc, wantRemotes) || !reflect.DeepEqual(rg, wantRemotes) {
		t.Fatalf("remotes cli %+v go-git %+v", rc, rg)
	}

	// Detached and unborn HEADs read alike too.
	runGit(t, fx.top, fx.env, "checkout", "-q", "--detach")
	hc, _ = g.ReadHead(fx.top)
	hg, _ = HeadAt(fx.top)
	if hc != hg || hc.Branch != "" || hc.Hash == "" {
		t.Fatalf("detached HEAD cli %+v go-git %+v", hc, hg)
	}
	if h, err := g.Head(fx.top); err != nil || h != hc {
		t.Fatalf("Head = %+v %v", h, err)
	}
	// A linked worktree's HEAD is its own.
	wt := filepath.Join(physTemp(t), "wt")
	runGit(t, fx.top, fx.env, "worktree", "add", "-q", "-b", "side", wt)
	hc, _ = g.ReadHead(wt)
	hg, err = HeadAt(wt)
	if err != nil || hc != hg || hc.Branch != "refs/heads/side" {
		t.Fatalf("worktree HEAD cli %+v go-git %+v %v", hc, hg, err)
	}
	wtIdx, err := g.IndexModes(wt)
	if err != nil {
		t.Fatal(err)
	}
	if gg, err := IndexEntriesAt(wt); err != nil || !reflect.DeepEqual(gg, wtIdx) {
		t.Fatalf("worktree index differs: %v", err)
	}
	unborn := filepath.Join(physTemp(t), "u")
	runGit(t, "", fx.env, "init", "-q", "-b", "trunk", unborn)
	hc, err = g.ReadHead(unborn)
	if err != nil {
		t.Fatal(err)
	}
	hg, err = HeadAt(unborn)
	if err != nil || hc != hg || hc != (Head{Branch: "refs/heads/trunk"}) {
		t.Fatalf("unborn HEAD cli %+v go-git %+v %v", hc, hg, err)
	}
	if r, err := g.Remotes(unborn); err != nil || r != nil {
		t.Fatalf("no remotes: %+v %v", r, err)
	}
}

// assertion D: the staged set is ACMRT and top-relative; E: an unset key
// is no error, an invalid one is.
func TestStagedAndConfig(t *testing.T) {
	fx := newFixture(t)
	g := Git{Env: fx.env}
	writeFile(t, filepath.Join(fx.top, "nested", "new file.md"), "n", 0o644)
	writeFile(t, filepath.Join(fx.top, "spaced name.md"), "m", 0o644)
	runGit(t, fx.top, fx.env, "add", "-A")
	runGit(t, fx.top, fx.env, "rm", "-q", "--cached", "plain.txt")
	if runtime.GOOS != "windows" {
		// A symlink replaced by a file is a type change, and staged.
		os.Remove(filepath.Join(fx.top, "link"))
		writeFile(t, filepath.Join(fx.top, "link"), "now a file\n", 0o644)
		runGit(t, fx.top, fx.env, "add", "link")
	}
	got, err := g.Staged(filepath.Join(fx.top, "nested"))
	if err != nil {
		t.Fatal(err)
	}
	// Top-relative whatever the directory; the deletion is filtered out.
	want := []string{"nested/new file.md", "spaced name.md"}
	if runtime.GOOS != "windows" {
		want = []string{"link", "nested/new file.md", "spaced name.md"}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Staged = %q, want %q", got, want)
	}

	// StagedChanges keeps the deletion, and says which changes move the
	// listing or a mode.
	changes, err := g.StagedChanges(filepath.Join(fx.top, "nested"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, c := range changes {
		rows = append(rows, fmt.Sprintf("%c %s %v", c.Status, c.Path, c.Shape()))
	}
	wantRows := []string{"A nested/new file.md true", "D plain.txt true", "M spaced name.md false"}
	if runtime.GOOS != "windows" {
		wantRows = []string{"T link true", "A nested/new file.md true", "D plain.txt true", "M spaced name.md false"}
	}
	if !reflect.DeepEqual(rows, wantRows) {
		t.Fatalf("StagedChanges = %q, want %q", rows, wantRows)
	}
	runGit(t, fx.top, fx.env, "reset", "-q")
	writeFile(t, filepath.Join(fx.top, "spaced name.md"), "m", 0o644)
	if err := os.Chmod(filepath.Join(fx.top, "plain.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, fx.top, fx.env, "add", "plain.txt")
	if changes, err = g.StagedChanges(fx.top); err != nil || len(changes) != 1 || changes[0].Status != 'M' || !changes[0].Shape() {
		t.Fatalf("a mode change: %+v %v", changes, err)
	}

	v, ok, err := g.ConfigGet(fx.top, "gates.spaced")
	if err != nil || !ok || v != "a value  with spaces" {
		t.Fatalf("ConfigGet = %q %v %v", v, ok, err)
	}
	if _, ok, err := g.ConfigGet(fx.top, "gates.unset"); ok || err != nil {
		t.Fatalf("unset key: %v %v", ok, err)
	}
	if _, _, err := g.ConfigGet(fx.top, "not-a-valid-key"); err == nil {
		t.Fatal("an invalid key read as unset")
	}
}

// assertion F: the snapshot reads each file at most once, concurrently,
// answers modes, and reads a symlink as its target's text.
func TestSnapshot(t *testing.T) {
	fx := newFixture(t)
	s, err := Git{Env: fx.env}.NewSnapshot(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != len(s.Files()) || !s.Has("nested/deep/x.go") || s.Has("nested") {
		t.Fatalf("files %q", s.Files())
	}
	var wg sync.WaitGroup
	results := make([][]byte, 16)
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i], _ = s.Read("nested/deep/x.go")
		}(i)
	}
	wg.Wait()
	for _, r := range results {
		if string(r) != "body of nested/deep/x.go\n" || &r[0] != &results[0][0] {
			t.Fatal("concurrent reads disagree or read twice")
		}
	}
	// A change on disk after the first read is not seen: read at most once.
	writeFile(t, filepath.Join(fx.top, "nested", "deep", "x.go"), "rewritten", 0o644)
	if b, _ := s.Read("nested/deep/x.go"); string(b) != "body of nested/deep/x.go\n" {
		t.Fatalf("re-read %q", b)
	}
	if m, ok := s.Mode("run.sh"); !ok || m != ModeExecutable {
		t.Fatalf("Mode(run.sh) = %o %v", m, ok)
	}
	if _, ok := s.Mode("untracked"); ok {
		t.Fatal("Mode of an untracked path")
	}
	if runtime.GOOS != "windows" {
		if b, err := s.Read("link"); err != nil || string(b) != "nested/deep/x.go" {
			t.Fatalf("symlink read %q %v", b, err)
		}
	}
	if err := os.Remove(filepath.Join(fx.top, "plain.txt")); err != nil {
		t.Fatal(err)
	}
	if s.Exists("plain.txt") || !s.Exists("spaced name.md") || s.Exists("nope") {
		t.Fatal("Exists disagrees with the work tree")
	}
	if _, err := s.Read("plain.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing tracked file: %v", err)
	}
	if _, err := s.Read("untracked.txt"); err == nil {
		t.Fatal("read an untracked path")
	}
	sub, err := Git{Env: fx.env}.NewSnapshot(filepath.Join(fx.top, "nested"))
	if err != nil || !reflect.DeepEqual(sub.Files(), []string{"deep/spaced dir/y z.go", "deep/x.go", "top.sh"}) {
		t.Fatalf("scoped snapshot %q %v", sub.Files(), err)
	}
	if b, err := sub.Read("top.sh"); err != nil || string(b) != "body of nested/top.sh\n" {
		t.Fatalf("scoped read %q %v", b, err)
	}
	gl := SnapshotOf(fx.top, []Entry{{Path: "sub", Mode: ModeGitlink}, {Path: "sub", Mode: ModeRegular, Stage: 2}})
	if _, err := gl.Read("sub"); err == nil || gl.Len() != 1 {
		t.Fatal("a gitlink read as a file")
	}
}

func TestParseStageLine(t *testing.T) {
	e, err := parseStageLine("100755 0123456789abcdef0123456789abcdef01234567 0\tdir/a b\tc")
	if err != nil || e.Mode != 0o100755 || e.Path != "dir/a b\tc" || e.Stage != 0 {
		t.Fatalf("%+v %v", e, err)
	}
	for _, bad := range []string{"", "100644 x 0", "1006x4 x 0\tp", "100644 x\tp", "100644 x z\tp"} {
		if _, err := parseStageLine(bad); err == nil {
			t.Errorf("parsed %q", bad)
		}
	}
}

func TestSplitZ(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a\x00", []string{"a"}},
		{"a\x00b c\x00", []string{"a", "b c"}},
		{"no-terminator", []string{"no-terminator"}},
		{"\"q\"\x00", []string{`"q"`}},
	}
	for _, tc := range cases {
		got, err := splitZ([]byte(tc.in))
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitZ(%q) = %q %v", tc.in, got, err)
		}
	}
	if _, err := splitZ([]byte("ok\x00\xfe\x00")); err == nil {
		t.Error("splitZ accepted a non-UTF-8 name")
	}
}

func FuzzSplitZ(f *testing.F) {
	f.Add([]byte("a\x00b\x00"))
	f.Add([]byte("\xff"))
	f.Fuzz(func(t *testing.T, in []byte) {
		names, err := splitZ(in)
		if err != nil {
			return
		}
		joined := strings.Join(names, "\x00")
		if trimmed := strings.TrimSuffix(string(in), "\x00"); joined != trimmed {
			t.Fatalf("splitZ(%q) = %q loses bytes", in, names)
		}
	})
}

func ExampleSnapshot() {
	fmt.Println(ModeSymlink == 0o120000)
	// Output: true
}

func FuzzParseStageLine(f *testing.F) {
	f.Add("100644 0123456789abcdef0123456789abcdef01234567 0\tpath/with\ttab")
	f.Add("160000 x 3\t")
	f.Add("")
	f.Fuzz(func(t *testing.T, rec string) {
		e, err := parseStageLine(rec)
		if err != nil {
			return
		}
		if !strings.HasSuffix(rec, "\t"+e.Path) || e.Hash == "" || strings.ContainsAny(e.Hash, " \t") {
			t.Fatalf("parseStageLine(%q) = %+v", rec, e)
		}
	})
}

// TestConfigGetEachEqualsConfigGet holds the one-child read of several
// keys to one `git config --get` per key over the spellings a config can
// take: a key set twice (the last wins), one with no value, mixed-case
// names, an included file, a command-line setting and an unset key.
func TestConfigGetEachEqualsConfigGet(t *testing.T) {
	fx := newFixture(t)
	inc := filepath.Join(physTemp(t), "inc.cfg")
	writeFile(t, inc, "[core]\n\tcommentChar = !\n", 0o644)
	cfg := filepath.Join(fx.top, ".git", "config")
	old, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"commit.cleanup", "core.commentChar", "core.commentString", "gates.unset"}
	layouts := []struct{ name, text string }{
		{"none set", ""},
		{"set twice", "[core]\n\tcommentChar = ;\n[core]\n\tcommentchar = %\n"},
		{"no value", "[core]\n\tcommentString\n"},
		{"mixed case", "[Commit]\n\tCleanup = Scissors\n[CORE]\n\tCOMMENTSTRING = //\n"},
		{"an include after a setting", "[core]\n\tcommentChar = ;\n[include]\n\tpath = " + inc + "\n"},
		{"a setting after an include", "[include]\n\tpath = " + inc + "\n[core]\n\tcommentChar = ;\n"},
	}
	for _, l := range layouts {
		for _, cmdline := range []bool{false, true} {
			if err := os.WriteFile(cfg, append(append([]byte(nil), old...), l.text...), 0o644); err != nil {
				t.Fatal(err)
			}
			g := Git{Env: fx.env}
			if cmdline {
				g.Env = append(append([]string(nil), fx.env...), "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.commentChar", "GIT_CONFIG_VALUE_0=@")
			}
			got, err := g.ConfigGetEach(fx.top, keys...)
			if err != nil {
				t.Fatalf("%s: %v", l.name, err)
			}
			want := map[string]string{}
			for _, k := range keys {
				v, ok, err := g.ConfigGet(fx.top, k)
				if err != nil {
					t.Fatalf("%s: ConfigGet %s: %v", l.name, k, err)
				}
				if ok {
					want[k] = v
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (command line %v): ConfigGetEach = %q, one --get per key = %q", l.name, cmdline, got, want)
			}
		}
	}
}

// oneCommitRepo makes a repository at <root>/repo holding a.txt in one
// commit on main, with a private home for git: the root, the top, the
// environment and the commit's id.
func oneCommitRepo(t *testing.T) (root, top string, env []string, rev string) {
	t.Helper()
	root = physTemp(t)
	top = filepath.Join(root, "repo")
	env = testEnv(filepath.Join(root, "home"))
	writeFile(t, filepath.Join(top, "a.txt"), "a\n", 0o644)
	runGit(t, top, env, "init", "-q", "-b", "main")
	runGit(t, top, env, "add", "-A")
	runGit(t, top, env, "commit", "-q", "-m", "one")
	return root, top, env, strings.TrimSpace(runGit(t, top, env, "rev-parse", "HEAD"))
}

// bareClone clones top to <root>/bare.git and answers its path.
func bareClone(t *testing.T, root, top string, env []string) string {
	t.Helper()
	bare := filepath.Join(root, "bare.git")
	runGit(t, root, env, "clone", "-q", "--bare", top, bare)
	return bare
}
