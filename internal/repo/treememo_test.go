//go:build linux

package repo

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// The Stop's in-process status (ChangedMemo) held to git's: for each tree
// state the memo either vouches clean where `git status --porcelain` lists
// nothing, or leaves the answer to git, and the answer ChangedMemo gives is
// Changed's, path for path.

type memoRepo struct {
	t     *testing.T
	dir   string
	state string
	g     Git
}

func newMemoRepo(t *testing.T) *memoRepo {
	t.Helper()
	root := physTemp(t)
	home := filepath.Join(root, "home")
	dir := filepath.Join(root, "work")
	r := &memoRepo{t: t, dir: dir, state: filepath.Join(dir, ".git", "gates-agent"), g: Git{Env: testEnv(home)}}
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "docs", "a.md"), "alpha\n", 0o644)
	writeFile(t, filepath.Join(dir, "docs", "deep", "b.md"), "bravo\n", 0o644)
	writeFile(t, filepath.Join(dir, "run.sh"), "#!/bin/sh\n", 0o755)
	writeFile(t, filepath.Join(dir, ".gitignore"), "*.log\nout/\n", 0o644)
	writeFile(t, filepath.Join(dir, "out", "kept.bin"), "x\n", 0o644)
	writeFile(t, filepath.Join(dir, "old.log"), "ignored\n", 0o644)
	// Every file an hour old: git records stat data older than the index
	// it writes, so no entry is racily clean.
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{"docs/a.md", "docs/deep/b.md", "run.sh", ".gitignore"} {
		if err := os.Chtimes(filepath.Join(dir, p), old, old); err != nil {
			t.Fatal(err)
		}
	}
	runGit(t, dir, r.g.Env, "init", "-q", "-b", "main")
	// A file only the repository's own exclude file ignores.
	writeFile(t, filepath.Join(dir, ".git/info/exclude"), "*.tmp\n", 0o644)
	writeFile(t, filepath.Join(dir, "docs/scratch.tmp"), "tmp\n", 0o644)
	runGit(t, dir, r.g.Env, "add", "-A")
	runGit(t, dir, r.g.Env, "commit", "-q", "-m", "init")
	// Past the file system's time stamp grain, so the directories just
	// written are older than the memo's clock.
	time.Sleep(30 * time.Millisecond)
	return r
}

// gitClean is git's own verdict.
func (r *memoRepo) gitClean() bool {
	return runGit(r.t, r.dir, r.g.Env, "status", "--porcelain", "--untracked-files=all", "--ignore-submodules=none") == ""
}

func (r *memoRepo) memoFile() string { return filepath.Join(r.state, treeMemoName) }

// settle lists the tree through ChangedMemo and holds its answer to
// Changed's.
func (r *memoRepo) settle() []string {
	r.t.Helper()
	got, err := r.g.ChangedMemo(r.dir, r.state)
	if err != nil {
		r.t.Fatal(err)
	}
	want, err := r.g.Changed(r.dir)
	if err != nil {
		r.t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		r.t.Fatalf("ChangedMemo answered %q, Changed %q", got, want)
	}
	return got
}

func TestTreeMemoAgreesWithGitStatus(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, dir string)
		clean  bool // git's verdict after the change
	}{
		{"untouched", func(*testing.T, string) {}, true},
		{"same size, new bytes", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "docs/a.md"), "ALPHA\n", 0o644)
		}, false},
		{"new content", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "docs/deep/b.md"), "bravo, longer\n", 0o644)
		}, false},
		{"chmod +x", func(t *testing.T, dir string) {
			if err := os.Chmod(filepath.Join(dir, "docs/a.md"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"deleted", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "docs/a.md")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"new untracked file", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "docs/deep/new.md"), "new\n", 0o644)
		}, false},
		{"new untracked directory", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "fresh/sub/c.md"), "c\n", 0o644)
		}, false},
		{"new ignored file", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "docs/run.log"), "log\n", 0o644)
		}, true},
		{"new file in an ignored directory", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "out/more.bin"), "y\n", 0o644)
		}, true},
		{"file replaced by a symlink", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "docs/deep/b.md")
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("../a.md", p); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"touched, bytes unchanged", func(t *testing.T, dir string) {
			now := time.Now()
			if err := os.Chtimes(filepath.Join(dir, "docs/a.md"), now, now); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"an ignore rule lifted in info/exclude", func(t *testing.T, dir string) {
			// The ignored file becomes untracked when the rule goes; no
			// directory of the work tree moves.
			writeFile(t, filepath.Join(dir, ".git/info/exclude"), "# none\n", 0o644)
		}, false},
		{"untracked by git rm --cached and committed", func(t *testing.T, dir string) {
			env := testEnv(filepath.Join(filepath.Dir(dir), "home"))
			runGit(t, dir, env, "rm", "-q", "--cached", "docs/a.md")
			runGit(t, dir, env, "commit", "-q", "-m", "untrack")
		}, false},
		{"staged", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "docs/a.md"), "staged\n", 0o644)
			runGit(t, dir, testEnv(filepath.Join(filepath.Dir(dir), "home")), "add", "docs/a.md")
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newMemoRepo(t)
			if got := r.settle(); len(got) != 0 {
				t.Fatalf("the fresh tree lists %q", got)
			}
			if _, err := os.Stat(r.memoFile()); err != nil {
				t.Fatalf("a clean listing left no memo: %v", err)
			}
			if !r.g.cleanByMemo(r.dir, r.memoFile()) {
				t.Fatal("the memo of a clean listing does not vouch for the unchanged tree")
			}
			tc.change(t, r.dir)
			if got := r.gitClean(); got != tc.clean {
				t.Fatalf("git status clean = %v, the case expects %v", got, tc.clean)
			}
			vouched := r.g.cleanByMemo(r.dir, r.memoFile())
			if vouched && !tc.clean {
				t.Fatal("the memo vouched clean for a tree git lists changes in")
			}
			if tc.name == "untouched" && !vouched {
				t.Fatal("the memo does not vouch for the unchanged tree")
			}
			r.settle()
			// Once more: the memo a second listing left (if any) is as
			// true as the first.
			r.settle()
		})
	}
}

// A racily clean entry (its recorded modification time not older than
// the index file) is never vouched for, even with every stamp as the
// memo recorded it: its bytes may have changed within the grain.
func TestTreeMemoLeavesRacilyCleanToGit(t *testing.T) {
	r := newMemoRepo(t)
	r.settle()
	src, err := r.g.LocateIndex(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	ancient := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(src.File, ancient, ancient); err != nil {
		t.Fatal(err)
	}
	// Every stamp the memo holds is as recorded (the index's own time is
	// none of them), so only the racy rule stands between the entries and
	// a clean verdict.
	if r.g.cleanByMemo(r.dir, r.memoFile()) {
		t.Fatal("entries newer than the index file were vouched clean")
	}
	if err := os.Chtimes(src.File, time.Now(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if !r.g.cleanByMemo(r.dir, r.memoFile()) {
		t.Fatal("with the index newer than its entries the memo does not vouch")
	}
}

// What moved at or after the clock is not recorded: a memo is not made.
func TestTreeMemoRefusesWhatMovedAfterTheClock(t *testing.T) {
	r := newMemoRepo(t)
	base, _, _, _, ok := r.g.memoBase(r.dir)
	if !ok {
		t.Fatal("no memo base for a plain repository")
	}
	if _, ok := buildMemo(r.dir, base, nil, fileTime{sec: 1}, nil); ok {
		t.Fatal("a memo was built over directories newer than its clock")
	}
	if _, ok := buildMemo(r.dir, base, nil, fileTime{sec: time.Now().Add(time.Hour).Unix()}, nil); !ok {
		t.Fatal("no memo over directories older than its clock")
	}
}

// A memo that is not one buildMemo wrote vouches for nothing.
func TestTreeMemoDecodeRefusesOtherBytes(t *testing.T) {
	r := newMemoRepo(t)
	r.settle()
	for _, bad := range []string{"", "gates tree memo 1\x00", "gates tree memo 2\x00e x\t\x00i y\t\x00d z\t\x00", "junk"} {
		if err := os.WriteFile(r.memoFile(), []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if r.g.cleanByMemo(r.dir, r.memoFile()) {
			t.Fatalf("the memo %q vouched clean", bad)
		}
	}
}

// git status may rewrite the index while it lists (refreshing entries it
// hashed): the memo then keeps the new index's stamp, but only while it
// tracks the paths the index git read tracked.
func TestTreeMemoFollowsAnIndexGitRewrote(t *testing.T) {
	r := newMemoRepo(t)
	_, src, before, tracked, ok := r.g.memoBase(r.dir)
	if !ok {
		t.Fatal("no memo base for a plain repository")
	}
	if !r.g.indexAfter(r.dir, src, before, tracked) {
		t.Fatal("an unchanged index was not taken")
	}
	// A refresh rewrites the index over the same paths.
	now := time.Now()
	if err := os.Chtimes(filepath.Join(r.dir, "docs/a.md"), now, now); err != nil {
		t.Fatal(err)
	}
	runGit(t, r.dir, r.g.Env, "update-index", "-q", "--refresh")
	if after, _, _ := indexStamp(src.File); after == before {
		t.Fatal("the refresh did not rewrite the index; the case proves nothing")
	}
	if !r.g.indexAfter(r.dir, src, before, tracked) {
		t.Fatal("an index rewritten over the same paths was not taken")
	}
	// A path untracked meanwhile: the memo is not made.
	runGit(t, r.dir, r.g.Env, "rm", "-q", "--cached", "docs/a.md")
	if r.g.indexAfter(r.dir, src, before, tracked) {
		t.Fatal("an index tracking other paths was taken")
	}
}

// A commit that changes only the bytes of tracked files rewrites the index
// but tracks the same paths: the memo still vouches once the committed
// files are older than the index; a commit that adds a path does not.
func TestTreeMemoOutlivesACommitOfTheSamePaths(t *testing.T) {
	r := newMemoRepo(t)
	r.settle()
	p := filepath.Join(r.dir, "docs/a.md")
	writeFile(t, p, "alpha, edited\n", 0o644)
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	runGit(t, r.dir, r.g.Env, "commit", "-q", "-am", "edit")
	if !r.gitClean() {
		t.Fatal("git lists the committed tree")
	}
	if !r.g.cleanByMemo(r.dir, r.memoFile()) {
		t.Fatal("a commit of the same paths voided the memo")
	}
	// A path untracked and committed leaves every directory as it was;
	// only the tracked paths tell.
	runGit(t, r.dir, r.g.Env, "rm", "-q", "--cached", "docs/deep/b.md")
	runGit(t, r.dir, r.g.Env, "commit", "-q", "-m", "untrack")
	if r.g.cleanByMemo(r.dir, r.memoFile()) {
		t.Fatal("the memo vouched for an index tracking other paths")
	}
	if r.gitClean() {
		t.Fatal("git does not list the file untracked")
	}
	r.settle()
}

// A memo built from the last one takes an unchanged directory's
// subdirectories from it, but whether each is descended is the new
// listing's answer: a directory ignored whole before and not now (its
// rule narrowed to its files) is watched from then on.
func TestTreeMemoFromTheLastWatchesADirectoryNoLongerIgnored(t *testing.T) {
	r := newMemoRepo(t)
	r.settle()
	m, ok := readTreeMemo(r.memoFile())
	if !ok || !slices.Contains(m.skipped, "out") {
		t.Fatalf("the first memo does not record out/ as skipped: %+v", m.skipped)
	}
	// out/ holds only kept.bin; the rule now names its files, not it.
	writeFile(t, filepath.Join(r.dir, ".gitignore"), "*.log\n*.bin\n", 0o644)
	runGit(t, r.dir, r.g.Env, "commit", "-q", "-am", "narrow the rule")
	time.Sleep(30 * time.Millisecond)
	if got := r.settle(); len(got) != 0 {
		t.Fatalf("the narrowed tree lists %q", got)
	}
	m, ok = readTreeMemo(r.memoFile())
	if !ok || slices.Contains(m.skipped, "out") || !slices.ContainsFunc(m.dirs, func(d memoStamp) bool { return d.path == "out" }) {
		t.Fatalf("the memo built from the last does not watch out/: dirs %v skipped %v", m.dirs, m.skipped)
	}
	writeFile(t, filepath.Join(r.dir, "out/new.txt"), "new\n", 0o644)
	if r.gitClean() {
		t.Fatal("git does not list the new file")
	}
	if r.g.cleanByMemo(r.dir, r.memoFile()) {
		t.Fatal("a new file in a directory no longer ignored was vouched clean")
	}
	r.settle()
}

// The memo's tracked-path digest read straight from the index file equals
// the one the Stop computes over the decoded entries, in every index
// version git writes, with extended flags and a conflict's stages.
func TestIndexTrackedDigestIsTheDecodedOnes(t *testing.T) {
	r := newMemoRepo(t)
	env := r.g.Env
	// A conflict: three stages of one path.
	runGit(t, r.dir, env, "checkout", "-q", "-b", "side")
	writeFile(t, filepath.Join(r.dir, "docs/a.md"), "side\n", 0o644)
	runGit(t, r.dir, env, "commit", "-q", "-am", "side")
	runGit(t, r.dir, env, "checkout", "-q", "main")
	writeFile(t, filepath.Join(r.dir, "docs/a.md"), "main\n", 0o644)
	runGit(t, r.dir, env, "commit", "-q", "-am", "main")
	if _, err := (Git{Env: env}).run(r.dir, "merge", "merge", "-q", "side"); err == nil {
		t.Fatal("the merge did not conflict")
	}
	// An intent-to-add entry sets the extended flags (version 3).
	writeFile(t, filepath.Join(r.dir, "docs/new.md"), "n\n", 0o644)
	runGit(t, r.dir, env, "add", "-N", "docs/new.md")
	src, err := r.g.LocateIndex(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, version := range []string{"3", "4", "2"} {
		if version == "2" {
			// Version 2 holds no extended flags: the intent-to-add goes.
			runGit(t, r.dir, env, "rm", "-q", "--cached", "docs/new.md")
		}
		runGit(t, r.dir, env, "update-index", "--index-version", version)
		data, err := os.ReadFile(src.File)
		if err != nil {
			t.Fatal(err)
		}
		idx, err := ParseIndex(data, src.HashLen)
		if err != nil {
			t.Fatalf("version %s: %v", version, err)
		}
		if idx.Version != int(version[0]-'0') {
			t.Fatalf("asked for version %s, git wrote %d", version, idx.Version)
		}
		got, ok := indexTrackedDigest(data, src.HashLen)
		if want := trackedOf(idx.Entries); !ok || got != want {
			t.Fatalf("version %s: digest %q %v, decoded entries' %q", version, got, ok, want)
		}
	}
	if _, ok := indexTrackedDigest([]byte("DIRC\x00\x00\x00\x05"), 20); ok {
		t.Fatal("an index of version 5 was read")
	}
}

// A directory that moved because a file in it was replaced under its own
// name (git checkout writes a new file) holds the same entries: the memo
// still vouches, once the index records the new file. A directory that
// gained an entry, even an ignored one, does not.
func TestTreeMemoVouchesForADirectoryHoldingTheSameEntries(t *testing.T) {
	r := newMemoRepo(t)
	r.settle()
	p := filepath.Join(r.dir, "docs/a.md")
	dir := filepath.Join(r.dir, "docs")
	before, _ := fileStamp(dir, false, fileTime{})
	writeFile(t, p, "scratch\n", 0o644)
	runGit(t, r.dir, r.g.Env, "checkout", "-q", "--", "docs/a.md")
	if now, _ := fileStamp(dir, false, fileTime{}); now == before {
		t.Fatal("git checkout left the directory unmoved; the case proves nothing")
	}
	// The index newer than the file git wrote, so its entry is not
	// racily clean.
	src, err := r.g.LocateIndex(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(src.File, later, later); err != nil {
		t.Fatal(err)
	}
	if !r.gitClean() {
		t.Fatal("git lists the restored tree")
	}
	if !r.g.cleanByMemo(r.dir, r.memoFile()) {
		t.Fatal("a directory holding the same entries voided the memo")
	}
	writeFile(t, filepath.Join(r.dir, "docs/build.log"), "ignored\n", 0o644)
	if r.g.cleanByMemo(r.dir, r.memoFile()) {
		t.Fatal("a directory that gained an entry was vouched for")
	}
	r.settle()
}
