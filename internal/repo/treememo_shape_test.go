//go:build linux

package repo

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tree memo's edges a surviving mutant showed untested: the shapes
// memoBase leaves to git and the files it watches, the index digest's
// refusals, the memo's spelling, the environment's digest, HEAD's tree,
// and the clock's bounds.

func envWithout(env []string, keys ...string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(keys, k) {
			out = append(out, kv)
		}
	}
	return out
}

func memoPaths(m treeMemo) []string {
	var out []string
	for _, f := range m.files {
		out = append(out, f.path)
	}
	return out
}

// The files a memo watches: the system, repository and exclude files, the
// user's config and ignore files where HOME and XDG_CONFIG_HOME put them,
// the files GIT_CONFIG_SYSTEM and GIT_CONFIG_GLOBAL name, and each
// core.excludesFile, "~/" and relative forms resolved.
func TestTreeMemoBaseWatchesEveryConfigFile(t *testing.T) {
	r := newMemoRepo(t)
	home := filepath.Join(filepath.Dir(r.dir), "home")
	common := filepath.Join(r.dir, ".git")
	runGit(t, r.dir, r.g.Env, "config", "--add", "core.excludesFile", "~/ex-home")
	runGit(t, r.dir, r.g.Env, "config", "--add", "core.excludesFile", "rel/ex")
	runGit(t, r.dir, r.g.Env, "config", "--add", "core.excludesFile", "/abs/ex")
	base := []string{"/etc/gitconfig", filepath.Join(common, "config"), filepath.Join(common, "info/exclude")}
	excl := []string{filepath.Join(home, "ex-home"), filepath.Join(r.dir, "rel/ex"), "/abs/ex"}
	xdg := filepath.Join(home, "x")
	for _, c := range []struct {
		name string
		env  []string
		want []string
	}{
		{"HOME and XDG_CONFIG_HOME", append(envWithout(r.g.Env, "XDG_CONFIG_HOME"), "XDG_CONFIG_HOME="+xdg),
			slices.Concat(base, []string{filepath.Join(xdg, "git/config"), filepath.Join(xdg, "git/ignore"), filepath.Join(home, ".gitconfig")}, excl)},
		{"HOME alone", envWithout(r.g.Env, "XDG_CONFIG_HOME"),
			slices.Concat(base, []string{filepath.Join(home, ".config/git/config"), filepath.Join(home, ".config/git/ignore"), filepath.Join(home, ".gitconfig")}, excl)},
		{"GIT_CONFIG_SYSTEM and GIT_CONFIG_GLOBAL", append(envWithout(r.g.Env, "XDG_CONFIG_HOME"), "GIT_CONFIG_SYSTEM=/s/sys", "GIT_CONFIG_GLOBAL=/s/glob"),
			slices.Concat(base, []string{filepath.Join(home, ".config/git/config"), filepath.Join(home, ".config/git/ignore"), filepath.Join(home, ".gitconfig"), "/s/sys", "/s/glob"}, excl)},
		{"empty GIT_CONFIG_GLOBAL", append(envWithout(r.g.Env, "XDG_CONFIG_HOME"), "GIT_CONFIG_GLOBAL="),
			slices.Concat(base, []string{filepath.Join(home, ".config/git/config"), filepath.Join(home, ".config/git/ignore"), filepath.Join(home, ".gitconfig")}, excl)},
	} {
		g := Git{Env: c.env}
		m, _, _, _, ok := g.memoBase(r.dir)
		if !ok {
			t.Fatalf("%s: no memo base", c.name)
		}
		if got := memoPaths(m); !slices.Equal(got, c.want) {
			t.Errorf("%s: watches\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}

// Shapes the memo does not cover are left to git: a file-system monitor,
// a scoped top, a linked worktree, a .git that is a file; a monitor
// turned off in any spelling is no monitor.
func TestTreeMemoBaseLeavesShapesToGit(t *testing.T) {
	r := newMemoRepo(t)
	for _, off := range []string{"false", "no", "off", "0", "FALSE"} {
		runGit(t, r.dir, r.g.Env, "config", "core.fsmonitor", off)
		if _, _, _, _, ok := r.g.memoBase(r.dir); !ok {
			t.Errorf("core.fsmonitor=%s: no memo base", off)
		}
	}
	runGit(t, r.dir, r.g.Env, "config", "core.fsmonitor", "true")
	if _, _, _, _, ok := r.g.memoBase(r.dir); ok {
		t.Error("a file-system monitor was taken")
	}
	runGit(t, r.dir, r.g.Env, "config", "--unset", "core.fsmonitor")
	if _, _, _, _, ok := r.g.memoBase(r.dir); !ok {
		t.Fatal("the plain repository has no memo base")
	}
	if _, _, _, _, ok := r.g.memoBase(filepath.Join(r.dir, "docs")); ok {
		t.Error("a top below the work tree's was taken")
	}
	wt := filepath.Join(filepath.Dir(r.dir), "linked")
	runGit(t, r.dir, r.g.Env, "worktree", "add", "-q", wt)
	if _, _, _, _, ok := r.g.memoBase(wt); ok {
		t.Error("a linked worktree was taken")
	}
	if _, _, _, _, ok := (Git{Env: append(r.g.Env, "GIT_CONFIG_COUNT=0")}).memoBase(r.dir); ok {
		t.Error("config the in-process reader cannot vouch for was taken")
	}
	sep := filepath.Join(filepath.Dir(r.dir), "sep")
	other := filepath.Join(filepath.Dir(r.dir), "other")
	runGit(t, filepath.Dir(r.dir), r.g.Env, "init", "-q", "--separate-git-dir", sep, other)
	writeFile(t, filepath.Join(other, "f"), "f\n", 0o644)
	runGit(t, other, r.g.Env, "add", "f")
	if _, _, _, _, ok := r.g.memoBase(other); ok {
		t.Error("a .git file was taken")
	}
	// The clean listing of such a tree leaves no memo.
	state := filepath.Join(t.TempDir(), "state")
	if got, err := r.g.ChangedMemo(wt, state); err != nil || len(got) != 0 {
		t.Fatalf("the linked worktree lists %q %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(state, treeMemoName)); err == nil {
		t.Error("a linked worktree's clean listing left a memo")
	}
}

// The index digest refuses every file out of shape rather than digest
// part of it.
func TestIndexTrackedDigestRefusesShapes(t *testing.T) {
	r := newMemoRepo(t)
	src, err := r.g.LocateIndex(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(src.File)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := indexTrackedDigest(data, 20); !ok {
		t.Fatal("the index was not read")
	}
	with := func(at int, v ...byte) []byte {
		c := append([]byte(nil), data...)
		copy(c[at:], v)
		return c
	}
	// The first entry's flags: after 40 bytes of stat data and the id.
	flags := 12 + 40 + 20
	empty := append([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00"), make([]byte, 20)...)
	if d, ok := indexTrackedDigest(empty, 20); !ok || d != trackedOf(nil) {
		t.Fatalf("an index of no entry: %q %v", d, ok)
	}
	for name, b := range map[string][]byte{
		"shorter than a header":     empty[:len(empty)-1],
		"magic":                     with(0, 'X'),
		"version 1":                 with(7, 1),
		"version 5":                 with(7, 5),
		"more entries than it has":  with(11, 200),
		"extended flag, version 2":  with(flags, data[flags]|0x40),
		"a name with no end":        append(clip(data, flags+2+3), make([]byte, 20)...),
		"an entry cut in its stats": append(append([]byte(nil), data[:30]...), make([]byte, 20)...),
	} {
		if d, ok := indexTrackedDigest(b, 20); ok {
			t.Errorf("%s: digested as %q", name, d)
		}
	}
	// Version 3: an entry cut right after its flags, its extended flags
	// missing.
	v3 := append([]byte(nil), data[:flags+2+1]...)
	v3[7] = 3
	v3[flags] |= 0x40
	if _, ok := indexTrackedDigest(append(v3, make([]byte, 20)...), 20); ok {
		t.Error("version 3: an entry cut in its extended flags was taken")
	}
	// Version 4: a strip longer than the last name, or a name with no end.
	runGit(t, r.dir, r.g.Env, "update-index", "--index-version", "4")
	v4, err := os.ReadFile(src.File)
	if err != nil {
		t.Fatal(err)
	}
	if binary.BigEndian.Uint32(v4[4:8]) != 4 {
		t.Fatal("git did not write version 4")
	}
	if d, ok := indexTrackedDigest(v4, 20); !ok || d != r.trackedNow(t) {
		t.Fatalf("version 4: %q %v", d, ok)
	}
	c := append([]byte(nil), v4...)
	c[flags+2] = 5 // the first entry strips 5 bytes of no name
	if _, ok := indexTrackedDigest(c, 20); ok {
		t.Error("version 4: a strip past the last name was taken")
	}
	if _, ok := indexTrackedDigest(append(clip(v4, flags+2+1+3), make([]byte, 20)...), 20); ok {
		t.Error("version 4: a name with no end was taken")
	}
	if _, ok := indexTrackedDigest(append(v4[:flags+2:flags+2], make([]byte, 20)...), 20); ok {
		t.Error("version 4: an entry with no strip count was taken")
	}
}

func (r *memoRepo) trackedNow(t *testing.T) string {
	t.Helper()
	src, err := r.g.LocateIndex(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(src.File)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := ParseIndex(data, src.HashLen)
	if err != nil {
		t.Fatal(err)
	}
	return trackedOf(idx.Entries)
}

// The memo's spelling reads back as written, paths with blanks and tabs
// included, and every other spelling is refused.
func TestTreeMemoEncodingRoundTrip(t *testing.T) {
	m := treeMemo{env: "e1", tracked: "t1",
		files:   []memoStamp{{"1 2 3", "/a b/c\td"}, {"absent", "/x"}},
		dirs:    []memoStamp{{"4 5 #n", ""}, {"6 7 #m", "sub dir"}},
		skipped: []string{"out", "a\tb"}}
	got, ok := decodeTreeMemo(m.encode())
	if !ok || got.env != m.env || got.tracked != m.tracked || !slices.Equal(got.files, m.files) || !slices.Equal(got.dirs, m.dirs) || !slices.Equal(got.skipped, m.skipped) {
		t.Fatalf("round trip: %+v %v", got, ok)
	}
	h := treeMemoHead + "\x00"
	for name, s := range map[string]string{
		"no env":               h + "t x\t\x00d s\t\x00",
		"no tracked":           h + "e x\t\x00d s\t\x00",
		"no directory":         h + "e x\t\x00t y\t\x00",
		"top not first":        h + "e x\t\x00t y\t\x00d s\tsub\x00d s\t\x00",
		"an empty stamp":       h + "e x\t\x00t y\t\x00d \t\x00",
		"no tab":               h + "e x\t\x00t y\t\x00d s\x00",
		"no blank":             h + "e x\t\x00t y\t\x00ds\t\x00",
		"an unknown kind":      h + "e x\t\x00t y\t\x00d s\t\x00q s\tp\x00",
		"a record with no end": h + "e x\t\x00t y\t\x00d s\t\x00f s\tp",
		"another head":         "gates tree memo 3\x00e x\t\x00t y\t\x00d s\t\x00",
	} {
		if _, ok := decodeTreeMemo([]byte(s)); ok {
			t.Errorf("%s: decoded", name)
		}
	}
	if _, ok := decodeTreeMemo([]byte(h + "e x\t\x00t y\t\x00d s\t\x00")); !ok {
		t.Error("the least memo was refused")
	}
}

// The environment's digest moves with every variable that picks git or
// its config files, and with no other.
func TestEnvDigestKeys(t *testing.T) {
	base := []string{"HOME=/h", "XDG_CONFIG_HOME=/x", "PATH=/bin", "PREFIX=/p", "GIT_DIR=/g", "TERM=xterm"}
	d := envDigest(base)
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "PATH", "PREFIX", "GIT_DIR"} {
		env := append(envWithout(base, k), k+"=/other")
		if envDigest(env) == d {
			t.Errorf("%s: the digest did not move", k)
		}
	}
	if envDigest(append(envWithout(base, "TERM"), "TERM=dumb", "LANG=C")) != d {
		t.Error("a variable git's listing does not depend on moved the digest")
	}
	if envDigest([]string{"PATH=/bin", "HOME=/h"}) != envDigest([]string{"HOME=/h", "PATH=/bin"}) {
		t.Error("the digest depends on the variables' order")
	}
}

// HEAD's tree, read in process from a loose ref, a packed ref, or a
// detached HEAD; false for an unborn branch, a ref out of shape or one
// that cannot be read.
func TestHeadTreeShapes(t *testing.T) {
	r := newMemoRepo(t)
	common := filepath.Join(r.dir, ".git")
	want := strings.TrimSpace(runGit(t, r.dir, r.g.Env, "rev-parse", "HEAD^{tree}"))
	head := strings.TrimSpace(runGit(t, r.dir, r.g.Env, "rev-parse", "HEAD"))
	if got, ok := headTree(common, r.g.Env); !ok || got != want {
		t.Fatalf("loose ref: %q %v", got, ok)
	}
	runGit(t, r.dir, r.g.Env, "pack-refs", "--all")
	if _, err := os.Stat(filepath.Join(common, "refs/heads/main")); err == nil {
		t.Fatal("pack-refs left the loose ref")
	}
	if got, ok := headTree(common, r.g.Env); !ok || got != want {
		t.Fatalf("packed ref: %q %v", got, ok)
	}
	writeFile(t, filepath.Join(common, "HEAD"), head+"\n", 0o644)
	if got, ok := headTree(common, r.g.Env); !ok || got != want {
		t.Fatalf("detached: %q %v", got, ok)
	}
	for name, h := range map[string]string{
		"unborn":          "ref: refs/heads/none\n",
		"not a plain ref": "ref: refs/heads/../../x\n",
		"short id":        head[:39] + "\n",
		"not an id":       "nonsense\n",
		"absent object":   strings.Repeat("ab", 20) + "\n",
	} {
		writeFile(t, filepath.Join(common, "HEAD"), h, 0o644)
		if got, ok := headTree(common, r.g.Env); ok {
			t.Errorf("%s: answered %q", name, got)
		}
	}
	if err := os.MkdirAll(filepath.Join(common, "refs/heads/dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(common, "HEAD"), "ref: refs/heads/dir\n", 0o644)
	if got, ok := headTree(common, r.g.Env); ok {
		t.Errorf("a ref that cannot be read: answered %q", got)
	}
	if err := os.Remove(filepath.Join(common, "HEAD")); err != nil {
		t.Fatal(err)
	}
	if _, ok := headTree(common, r.g.Env); ok {
		t.Error("no HEAD: answered")
	}
}

// olderThan at its bounds, and a stamp whose times are not older than
// the clock refused.
func TestFileStampClockBounds(t *testing.T) {
	clock := fileTime{sec: 100, nsec: 500}
	for _, c := range []struct {
		sec, nsec int64
		older     bool
	}{{99, 999999999, true}, {100, 499, true}, {100, 500, false}, {100, 501, false}, {101, 0, false}} {
		if got := olderThan(syscall.Timespec{Sec: c.sec, Nsec: c.nsec}, clock); got != c.older {
			t.Errorf("%d.%d against 100.500: older %v", c.sec, c.nsec, got)
		}
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	writeFile(t, p, "f\n", 0o644)
	at := time.Unix(1000, 0)
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
	var st syscall.Stat_t
	if err := syscall.Lstat(p, &st); err != nil {
		t.Fatal(err)
	}
	// The change time is now: a clock past it takes the file, one at its
	// modification time does not.
	if _, ok := fileStamp(p, false, fileTime{sec: 1000}); ok {
		t.Error("a file at the clock was stamped")
	}
	if _, ok := fileStamp(p, false, fileTime{sec: st.Ctim.Sec + 1}); !ok {
		t.Error("a file older than the clock was refused")
	}
	if _, ok := fileStamp(p, false, fileTime{sec: st.Ctim.Sec, nsec: st.Ctim.Nsec}); ok {
		t.Error("a file changed at the clock was stamped")
	}
	if s, ok := fileStamp(filepath.Join(dir, "none"), false, fileTime{}); !ok || s != "absent" {
		t.Errorf("absent: %q %v", s, ok)
	}
	if _, ok := fileStamp(filepath.Join(p, "under"), false, fileTime{}); ok {
		t.Error("a path under a file was stamped")
	}
	// Through a link or not.
	l := filepath.Join(dir, "l")
	if err := os.Symlink("f", l); err != nil {
		t.Fatal(err)
	}
	sf, _ := fileStamp(l, true, fileTime{})
	sp, _ := fileStamp(p, true, fileTime{})
	sl, _ := fileStamp(l, false, fileTime{})
	if sf != sp || sl == sp {
		t.Errorf("follow: link %q file %q lstat %q", sf, sp, sl)
	}
	// The clock: a directory that cannot be made or written gives none.
	if c, ok := fsClock(filepath.Join(p, "state")); ok {
		t.Errorf("a clock under a file: %+v", c)
	}
	if c, ok := fsClock(dir); !ok || c.sec == 0 {
		t.Errorf("the clock: %+v %v", c, ok)
	}
}

// A nested repository in the work tree makes no memo: git would not look
// inside it.
func TestTreeMemoRefusesANestedRepository(t *testing.T) {
	r := newMemoRepo(t)
	base, _, _, _, ok := r.g.memoBase(r.dir)
	if !ok {
		t.Fatal("no memo base")
	}
	later := fileTime{sec: time.Now().Add(time.Hour).Unix()}
	m, ok := buildMemo(r.dir, base, map[string]bool{"out": true}, later, nil)
	if !ok {
		t.Fatal("no memo of the plain tree")
	}
	if !slices.Contains(m.skipped, "out") || slices.ContainsFunc(m.dirs, func(d memoStamp) bool { return d.path == "out" || d.path == ".git" }) {
		t.Fatalf("dirs %v skipped %v", m.dirs, m.skipped)
	}
	if !slices.Contains(memoPaths(m), filepath.Join(r.dir, ".gitignore")) {
		t.Fatalf("the top .gitignore is not watched: %q", memoPaths(m))
	}
	// Built from itself: every directory's stamp is the last memo's, its
	// names not listed again (a stamp altered after " #" survives).
	prev := m
	prev.dirs = append([]memoStamp(nil), m.dirs...)
	for i := range prev.dirs {
		stat, _, _ := strings.Cut(prev.dirs[i].stamp, " #")
		prev.dirs[i].stamp = stat + " #from-the-last"
	}
	m2, ok := buildMemo(r.dir, base, map[string]bool{"out": true}, later, &prev)
	if !ok || len(m2.dirs) != len(m.dirs) {
		t.Fatalf("from the last: %v %v", m2.dirs, ok)
	}
	for _, d := range m2.dirs {
		if !strings.HasSuffix(d.stamp, " #from-the-last") {
			t.Errorf("%q listed again: %q", d.path, d.stamp)
		}
	}
	if !slices.Equal(memoPaths(m2), memoPaths(m)) || !slices.Equal(m2.skipped, m.skipped) {
		t.Errorf("from the last: files %q skipped %q", memoPaths(m2), m2.skipped)
	}
	// A base watching exactly the last memo's files: still taken.
	eq := base
	eq.files = nil
	for _, f := range m.files {
		eq.files = append(eq.files, memoStamp{path: f.path})
	}
	m4, ok := buildMemo(r.dir, eq, map[string]bool{"out": true}, later, &prev)
	if !ok || !strings.HasSuffix(m4.dirs[0].stamp, " #from-the-last") {
		t.Errorf("a base of the last memo's very files took nothing from it: %v", m4.dirs)
	}
	// Another environment: nothing is taken from the last memo.
	other := base
	other.env = "other"
	m3, ok := buildMemo(r.dir, other, map[string]bool{"out": true}, later, &prev)
	if !ok || strings.HasSuffix(m3.dirs[0].stamp, " #from-the-last") {
		t.Errorf("another environment took the last memo's stamps: %v", m3.dirs)
	}
	writeFile(t, filepath.Join(r.dir, "docs/inner/.git/HEAD"), "ref: refs/heads/main\n", 0o644)
	if _, ok := buildMemo(r.dir, base, nil, later, nil); ok {
		t.Fatal("a memo was built over a nested repository")
	}
}

// lstatZ is syscall.Lstat over a NUL-ended path, relative ones (from the
// working directory) included.
func TestLstatZIsLstat(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "f"), "f\n", 0o644)
	if err := os.Symlink("f", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "f"), filepath.Join(dir, "l"), dir, "treememo.go", "testdata"} {
		var want, got syscall.Stat_t
		if err := syscall.Lstat(p, &want); err != nil {
			t.Fatal(err)
		}
		if err := lstatZ(append([]byte(p), 0), &got); err != nil || got != want {
			t.Errorf("%s: lstatZ %+v %v, Lstat %+v", p, got, err, want)
		}
	}
	var st syscall.Stat_t
	if err := lstatZ([]byte(filepath.Join(dir, "none")+"\x00"), &st); err != syscall.ENOENT {
		t.Errorf("an absent path: %v", err)
	}
}
