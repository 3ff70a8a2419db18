//go:build linux

package repo

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// statRepo is a committed repository whose files were last modified an
// hour ago, so the index (written now) is strictly newer than each.
func statRepo(t *testing.T, files map[string]string) (string, []string) {
	t.Helper()
	dir := physTemp(t)
	env := testEnv(physTemp(t))
	runGit(t, dir, env, "init", "-q", "-b", "main")
	old := time.Now().Add(-time.Hour)
	for rel, body := range files {
		p := filepath.Join(dir, rel)
		writeFile(t, p, body, 0o644)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	runGit(t, dir, env, "add", "-A")
	runGit(t, dir, env, "commit", "-q", "-m", "init")
	return dir, env
}

func blobOf(t *testing.T, dir string, env []string, rel string) string {
	t.Helper()
	return strings.TrimSpace(runGit(t, dir, env, "hash-object", "--", rel))
}

// assertion T: a file whose stat data is the index's record is named by
// the index's id and not read.
func TestWorkTreeIDFromCleanStatReadsNothing(t *testing.T) {
	dir, env := statRepo(t, map[string]string{"a.txt": "alpha\n"})
	s, err := Git{Env: env}.NewSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	id, ok := s.BlobID("a.txt")
	if !ok || id != blobOf(t, dir, env, "a.txt") {
		t.Fatalf("BlobID = %q %v, want the file's blob", id, ok)
	}
	e, _ := s.lookup("a.txt")
	if e.st.Load() != nil || e.clean == nil || e.clean.Load() != cleanVouched {
		t.Fatalf("a clean file was read for its id (read state %v, clean %v)", e.st.Load() != nil, e.clean)
	}
	data, err := s.Read("a.txt")
	if err != nil || string(data) != "alpha\n" {
		t.Fatalf("Read = %q %v", data, err)
	}
}

// assertion T: an edit that keeps the size and puts the modification time
// back (touch -r, cp -p) moves the change time, so the id comes from the
// bytes.
func TestWorkTreeIDEditWithMtimeRestoredIsRead(t *testing.T) {
	dir, env := statRepo(t, map[string]string{"a.txt": "alpha\n"})
	p := filepath.Join(dir, "a.txt")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("omega\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	s, err := Git{Env: env}.NewSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	id, ok := s.BlobID("a.txt")
	if want := blobOf(t, dir, env, "a.txt"); !ok || id != want {
		t.Fatalf("BlobID = %q %v, want %q (the edited bytes)", id, ok, want)
	}
	if e, _ := s.lookup("a.txt"); e.clean == nil || e.clean.Load() == cleanVouched {
		t.Fatal("the index vouched for a file whose change time moved")
	}
}

// assertion T: an entry not strictly older than the index file is racily
// clean and never vouched for.
func TestWorkTreeIDRacyEntryIsRead(t *testing.T) {
	dir, env := statRepo(t, map[string]string{"a.txt": "alpha\n"})
	p := filepath.Join(dir, "a.txt")
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(p, future, future); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, env, "update-index", "--refresh")
	s, err := Git{Env: env}.NewSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.BlobID("a.txt"); !ok {
		t.Fatal("no id")
	}
	if e, _ := s.lookup("a.txt"); e.stat != nil || e.clean != nil && e.clean.Load() == cleanVouched {
		t.Fatal("an entry newer than its index kept its stat data")
	}
}

// assertion U: a file edited after the stat test vouched for it, before
// its bytes were read, is refused rather than judged under the old id.
func TestVouchedFileEditedBeforeReadIsRefused(t *testing.T) {
	dir, env := statRepo(t, map[string]string{"a.txt": "alpha\n"})
	s, err := Git{Env: env}.NewSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.BlobID("a.txt"); !ok {
		t.Fatal("no id")
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("omega\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Read("a.txt"); err == nil || !strings.Contains(err.Error(), "changed in the work tree") {
		t.Fatalf("Read after the edit = %v, want a refusal", err)
	}
}

// The stat data stays inside the snapshot: the public decoders answer none.
func TestIndexListingsCarryNoStatData(t *testing.T) {
	dir, env := statRepo(t, map[string]string{"a.txt": "alpha\n"})
	es, err := Git{Env: env}.Index(dir)
	if err != nil || len(es) != 1 || es[0].stat != nil {
		t.Fatalf("Index = %+v %v", es, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := ParseIndex(data, 20)
	if err != nil || idx.Entries[0].stat != nil {
		t.Fatalf("ParseIndex = %+v %v", idx, err)
	}
}

// assertion T: where git may convert a file on checkout (an eol
// attribute, tracked or not, or core.autocrlf), its work-tree bytes are
// not its blob's, so no index id is vouched for and a CRLF checkout reads
// as its own bytes.
func TestConvertingRepositoryVouchesForNothing(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, dir string, env []string)
	}{
		{"tracked eol attribute", func(t *testing.T, dir string, env []string) {
			writeFile(t, filepath.Join(dir, ".gitattributes"), "*.bat eol=crlf\n", 0o644)
			runGit(t, dir, env, "add", ".gitattributes")
			runGit(t, dir, env, "commit", "-q", "-m", "attrs")
		}},
		{"untracked attributes in a subdirectory", func(t *testing.T, dir string, env []string) {
			writeFile(t, filepath.Join(dir, "sub", ".gitattributes"), "*.bat eol=crlf\n", 0o644)
		}},
		{"core.autocrlf", func(t *testing.T, dir string, env []string) {
			runGit(t, dir, env, "config", "core.autocrlf", "true")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, env := statRepo(t, map[string]string{"sub/run.bat": "echo one\necho two\n"})
			c.setup(t, dir, env)
			// Checked out again under the attribute: CRLF on disk.
			if err := os.Remove(filepath.Join(dir, "sub", "run.bat")); err != nil {
				t.Fatal(err)
			}
			runGit(t, dir, env, "checkout", "--", "sub/run.bat")
			s, err := Git{Env: env}.NewSnapshot(dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, _ = s.BlobID("sub/run.bat"); s.clean.Load() != nil {
				t.Fatal("the stat test is armed where git may convert bytes")
			}
			data, err := s.Read("sub/run.bat")
			if err != nil {
				t.Fatalf("Read = %v", err)
			}
			id, ok := s.BlobID("sub/run.bat")
			if !ok || id != (&blobStore{src: IndexSource{HashLen: 20}}).hashOf(data) {
				t.Fatalf("BlobID = %q %v, want the hash of the bytes read", id, ok)
			}
		})
	}
}

// Issue 42 item 17: an entry git smudged as racily clean (its recorded
// size cut to 0 while its blob is not the empty one) is never vouched for
// by the stat test, even when the file on disk is empty and every other
// field matches: git itself always reads such an entry's file.
func TestWorkTreeIDSmudgedEntryIsRead(t *testing.T) {
	dir, env := statRepo(t, map[string]string{"e.txt": ""})
	file := filepath.Join(dir, ".git", "index")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// The one entry: its id follows the 40 bytes of stat data and the mode.
	// Give it a non-empty blob's id, as git's smudge leaves an entry whose
	// file changed in the racy window (size 0, the old blob's id).
	id, err := hex.DecodeString(blobOfText(t, dir, env, "leak\n"))
	if err != nil {
		t.Fatal(err)
	}
	copy(data[12+40:12+40+20], id)
	sum := sha1.Sum(data[:len(data)-20])
	copy(data[len(data)-20:], sum[:])
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Git{Env: env}.NewSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := s.BlobID("e.txt")
	if want := blobOf(t, dir, env, "e.txt"); !ok || got != want {
		t.Fatalf("BlobID = %q %v, want %q (the empty file's bytes, read)", got, ok, want)
	}
	if e, _ := s.lookup("e.txt"); e.clean != nil && e.clean.Load() == cleanVouched {
		t.Fatal("the stat test vouched for a smudged entry")
	}
}

// blobOfText writes text as a blob and answers its id.
func blobOfText(t *testing.T, dir string, env []string, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "blob")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(runGit(t, dir, env, "hash-object", "-w", "--", p))
}

// keepCleanStat trusts an entry's stat data only when its recorded mtime
// is strictly older than the index file's; an equal second with a
// nanosecond not older, or an unknown one (0), is racily clean. A
// conflict stage, and any entry of an index whose own time is unknown,
// is trusted never.
func TestKeepCleanStatRacyBoundaries(t *testing.T) {
	stat := func(sec, nsec uint32) *statData {
		var d statData
		binary.BigEndian.PutUint32(d[8:12], sec)
		binary.BigEndian.PutUint32(d[12:16], nsec)
		return &d
	}
	written := fileTime{sec: 100, nsec: 500}
	for _, tc := range []struct {
		name      string
		sec, nsec uint32
		stage     int
		written   fileTime
		kept      bool
	}{
		{"a second older", 99, 999, 0, written, true},
		{"a nanosecond older", 100, 499, 0, written, true},
		{"the same instant", 100, 500, 0, written, false},
		{"a nanosecond newer", 100, 501, 0, written, false},
		{"the same second, no nanoseconds", 100, 0, 0, written, false},
		{"a second newer", 101, 0, 0, written, false},
		{"a conflict stage", 99, 0, 2, written, false},
		{"the index's time unknown", 99, 0, 0, fileTime{}, false},
	} {
		es := []Entry{{Path: "a", Stage: tc.stage, stat: stat(tc.sec, tc.nsec)}, {Path: "b"}}
		keepCleanStat(es, tc.written)
		if (es[0].stat != nil) != tc.kept || es[1].stat != nil {
			t.Errorf("%s: kept %v, want %v", tc.name, es[0].stat != nil, tc.kept)
		}
	}
}

// mayConvert answers true where any attribute source git reads for these
// paths exists, or the configuration may convert line ends, and false
// where none does.
func TestMayConvertReadsEveryAttributeSource(t *testing.T) {
	without := func(env []string, key string) []string {
		var out []string
		for _, kv := range env {
			if !strings.HasPrefix(kv, key+"=") {
				out = append(out, kv)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir, home string, env []string) []string
		want  bool
	}{
		{"no source", func(t *testing.T, dir, home string, env []string) []string { return env }, false},
		{"the environment names attributes", func(t *testing.T, dir, home string, env []string) []string {
			return append(env, "GIT_ATTR_SOURCE=HEAD")
		}, true},
		{"a subdirectory's .gitattributes", func(t *testing.T, dir, home string, env []string) []string {
			writeFile(t, filepath.Join(dir, "sub", ".gitattributes"), "*.txt text\n", 0o644)
			return env
		}, true},
		{"the top's .gitattributes", func(t *testing.T, dir, home string, env []string) []string {
			writeFile(t, filepath.Join(dir, ".gitattributes"), "*.txt text\n", 0o644)
			return env
		}, true},
		{"info/attributes", func(t *testing.T, dir, home string, env []string) []string {
			writeFile(t, filepath.Join(dir, ".git", "info", "attributes"), "*.txt text\n", 0o644)
			return env
		}, true},
		{"XDG_CONFIG_HOME's attributes", func(t *testing.T, dir, home string, env []string) []string {
			writeFile(t, filepath.Join(home, "xdg", "git", "attributes"), "*.txt text\n", 0o644)
			return append(without(env, "XDG_CONFIG_HOME"), "XDG_CONFIG_HOME="+filepath.Join(home, "xdg"))
		}, true},
		{"XDG_CONFIG_HOME set: HOME's file is not read", func(t *testing.T, dir, home string, env []string) []string {
			writeFile(t, filepath.Join(home, ".config", "git", "attributes"), "*.txt text\n", 0o644)
			return append(without(env, "XDG_CONFIG_HOME"), "XDG_CONFIG_HOME="+filepath.Join(home, "xdg"))
		}, false},
		{"HOME's attributes, XDG_CONFIG_HOME unset", func(t *testing.T, dir, home string, env []string) []string {
			writeFile(t, filepath.Join(home, ".config", "git", "attributes"), "*.txt text\n", 0o644)
			return without(env, "XDG_CONFIG_HOME")
		}, true},
		{"HOME's attributes, XDG_CONFIG_HOME empty", func(t *testing.T, dir, home string, env []string) []string {
			writeFile(t, filepath.Join(home, ".config", "git", "attributes"), "*.txt text\n", 0o644)
			return append(without(env, "XDG_CONFIG_HOME"), "XDG_CONFIG_HOME=")
		}, true},
		{"core.autocrlf input", func(t *testing.T, dir, home string, env []string) []string {
			runGit(t, dir, env, "config", "core.autocrlf", "input")
			return env
		}, true},
		{"core.autocrlf false", func(t *testing.T, dir, home string, env []string) []string {
			runGit(t, dir, env, "config", "core.autocrlf", "false")
			return env
		}, false},
		{"core.attributesFile", func(t *testing.T, dir, home string, env []string) []string {
			runGit(t, dir, env, "config", "core.attributesFile", filepath.Join(home, "none"))
			return env
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, env := statRepo(t, map[string]string{"sub/x.txt": "x\n", "top.txt": "t\n"})
			home := physTemp(t)
			env = tc.setup(t, dir, home, append(without(env, "HOME"), "HOME="+home))
			s := SnapshotOf(dir, []Entry{{Path: "sub/x.txt"}, {Path: "top.txt"}})
			if got := (Git{Env: env}).mayConvert(s, filepath.ToSlash(filepath.Join(dir, ".git"))); got != tc.want {
				t.Errorf("mayConvert = %v, want %v", got, tc.want)
			}
		})
	}
	s := SnapshotOf(physTemp(t), []Entry{{Path: "a"}})
	if !(Git{}).mayConvert(s, "") {
		t.Error("an unknown common dir vouched for a file")
	}
}

// Where the configuration holds an include, git itself is asked for the
// line-end settings, and its answer decides as the file's would.
func TestMayConvertAsksGitPastAnInclude(t *testing.T) {
	for _, tc := range []struct {
		included string
		want     bool
	}{
		{"[core]\n\tautocrlf = true\n", true},
		{"[core]\n\tautocrlf = false\n", false},
		{"[user]\n\tname = x\n", false},
	} {
		dir, env := statRepo(t, map[string]string{"a.txt": "a\n"})
		writeFile(t, filepath.Join(dir, ".git", "extra.config"), tc.included, 0o644)
		runGit(t, dir, env, "config", "include.path", "extra.config")
		s := SnapshotOf(dir, []Entry{{Path: "a.txt"}})
		if got := (Git{Env: env}).mayConvert(s, filepath.ToSlash(filepath.Join(dir, ".git"))); got != tc.want {
			t.Errorf("%q: mayConvert = %v, want %v", tc.included, got, tc.want)
		}
	}
}
