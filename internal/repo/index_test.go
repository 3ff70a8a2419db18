package repo

import (
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// holdIndexEqual holds the in-process index read at dir equal to git's own
// listing there: entries, modes, ids and stages to `git ls-files -s -z`,
// flags to `git ls-files --debug`, skip-worktree to `-t`'s S tag and
// assume-valid to `-v`'s lower-case tag. It answers the entries.
func holdIndexEqual(t *testing.T, dir string, env []string, wantFallback bool) []Entry {
	t.Helper()
	var debug bytes.Buffer
	g := Git{Env: env, Debug: &debug}
	got, err := g.Index(dir)
	if err != nil {
		t.Fatalf("Index(%s): %v", dir, err)
	}
	if fell := debug.Len() > 0; fell != wantFallback {
		t.Fatalf("Index(%s) fell back to the CLI: %v (want %v); debug %q", dir, fell, wantFallback, debug.String())
	}
	plain, err := g.IndexModes(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain) != len(got) {
		t.Fatalf("%s: %d entries in process, %d from git ls-files -s", dir, len(got), len(plain))
	}
	for i := range plain {
		e := got[i]
		e.Flags = 0
		if e != plain[i] {
			t.Fatalf("%s: entry %d in process %+v, git ls-files -s %+v", dir, i, e, plain[i])
		}
	}
	cli, err := g.IndexFlags(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, cli) && !(len(got) == 0 && len(cli) == 0) {
		t.Fatalf("%s: in process %+v\nls-files --debug %+v", dir, got, cli)
	}
	tags := runGit(t, dir, env, "ls-files", "-t", "-v", "-z")
	recs := strings.Split(strings.TrimSuffix(tags, "\x00"), "\x00")
	if tags == "" {
		recs = nil
	}
	// -t lists an unmerged path once per stage, as -s does.
	if len(recs) != len(got) {
		t.Fatalf("%s: ls-files -t lists %d, the index %d", dir, len(recs), len(got))
	}
	for i, r := range recs {
		tag, name := r[:1], r[2:]
		if name != got[i].Path {
			t.Fatalf("%s: ls-files -t entry %d is %q, the index %q", dir, i, name, got[i].Path)
		}
		if sw := strings.ToUpper(tag) == "S"; sw != got[i].SkipWorktree() {
			t.Errorf("%s: %s skip-worktree %v, ls-files -t tag %q", dir, name, got[i].SkipWorktree(), tag)
		}
		if av := tag != strings.ToUpper(tag); av != got[i].AssumeValid() {
			t.Errorf("%s: %s assume-valid %v, ls-files -v tag %q", dir, name, got[i].AssumeValid(), tag)
		}
	}
	return got
}

// indexRepo is a committed repository carrying the shapes an index can
// hold: non-ASCII and hard names, an executable, a symlink, a submodule,
// an intent-to-add entry, an assume-unchanged and a skip-worktree entry.
func indexRepo(t *testing.T) fixture {
	t.Helper()
	fx := newFixture(t)
	sub := filepath.Join(filepath.Dir(fx.top), "subsrc")
	writeFile(t, filepath.Join(sub, "s.txt"), "s\n", 0o644)
	runGit(t, sub, fx.env, "init", "-q")
	runGit(t, sub, fx.env, "add", "-A")
	runGit(t, sub, fx.env, "commit", "-q", "-m", "s")
	runGit(t, fx.top, fx.env, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "vendor/sub")
	// Long names: past the 12-bit length field, and a v4 prefix run.
	long := strings.Repeat("l", 4200)
	writeFile(t, filepath.Join(fx.top, "deep", long[:200], "a.txt"), "a\n", 0o644)
	writeFile(t, filepath.Join(fx.top, "deep", long[:200], "b.txt"), "b\n", 0o644)
	runGit(t, fx.top, fx.env, "add", "-A")
	runGit(t, fx.top, fx.env, "commit", "-q", "-m", "more")
	writeFile(t, filepath.Join(fx.top, "ita.md"), "intent\n", 0o644)
	runGit(t, fx.top, fx.env, "add", "-N", "ita.md")
	runGit(t, fx.top, fx.env, "update-index", "--assume-unchanged", "plain.txt")
	runGit(t, fx.top, fx.env, "update-index", "--skip-worktree", "run.sh")
	return fx
}

// assertion G: the in-process index equals git's listing, every version.
func TestIndexEqualsGit(t *testing.T) {
	fx := indexRepo(t)
	for _, v := range []string{"2", "3", "4"} {
		t.Run("v"+v, func(t *testing.T) {
			runGit(t, fx.top, fx.env, "update-index", "--index-version", v)
			data, err := os.ReadFile(filepath.Join(fx.top, ".git/index"))
			if err != nil {
				t.Fatal(err)
			}
			idx, err := ParseIndex(data, 20)
			if err != nil {
				t.Fatal(err)
			}
			// git writes version 2 up as 3 when an entry needs extended flags.
			if want := map[string]int{"2": 3, "3": 3, "4": 4}[v]; idx.Version != want {
				t.Fatalf("version %d, want %d", idx.Version, want)
			}
			got := holdIndexEqual(t, fx.top, fx.env, false)
			var ita, sw, av bool
			for _, e := range got {
				ita = ita || e.Path == "ita.md" && e.IntentToAdd()
				sw = sw || e.Path == "run.sh" && e.SkipWorktree()
				av = av || e.Path == "plain.txt" && e.AssumeValid()
			}
			if !ita || !sw || !av {
				t.Fatalf("flags lost: intent-to-add %v, skip-worktree %v, assume-valid %v", ita, sw, av)
			}
			holdIndexEqual(t, filepath.Join(fx.top, "nested"), fx.env, false)
		})
	}
	t.Run("v2 without extended flags", func(t *testing.T) {
		fx := newFixture(t)
		runGit(t, fx.top, fx.env, "update-index", "--index-version", "2")
		holdIndexEqual(t, fx.top, fx.env, false)
	})
}

// assertion G: a conflict lists every stage, in order.
func TestIndexConflict(t *testing.T) {
	fx := newFixture(t)
	runGit(t, fx.top, fx.env, "checkout", "-q", "-b", "side")
	writeFile(t, filepath.Join(fx.top, "plain.txt"), "side\n", 0o644)
	runGit(t, fx.top, fx.env, "commit", "-q", "-am", "side")
	runGit(t, fx.top, fx.env, "checkout", "-q", "main")
	writeFile(t, filepath.Join(fx.top, "plain.txt"), "main\n", 0o644)
	runGit(t, fx.top, fx.env, "commit", "-q", "-am", "main")
	cmd := exec.Command("git", "merge", "-q", "side")
	cmd.Dir, cmd.Env = fx.top, fx.env
	if err := cmd.Run(); err == nil {
		t.Fatal("the merge did not conflict")
	}
	got := holdIndexEqual(t, fx.top, fx.env, false)
	var stages []int
	for _, e := range got {
		if e.Path == "plain.txt" {
			stages = append(stages, e.Stage)
		}
	}
	if !reflect.DeepEqual(stages, []int{1, 2, 3}) {
		t.Fatalf("plain.txt stages %v, want [1 2 3]", stages)
	}
}

// assertion G, J: a sparse checkout reads in process; a sparse index and a
// split index go to git and say so.
func TestIndexSparseAndSplit(t *testing.T) {
	fx := newFixture(t)
	runGit(t, fx.top, fx.env, "sparse-checkout", "set", "--no-cone", "/nested/")
	got := holdIndexEqual(t, fx.top, fx.env, false)
	off := 0
	for _, e := range got {
		if e.SkipWorktree() {
			off++
		}
	}
	if off == 0 {
		t.Fatal("the sparse checkout left no skip-worktree entry")
	}
	runGit(t, fx.top, fx.env, "sparse-checkout", "set", "--cone", "--sparse-index", "nested")
	holdIndexEqual(t, fx.top, fx.env, true)
	runGit(t, fx.top, fx.env, "sparse-checkout", "disable")

	runGit(t, fx.top, fx.env, "update-index", "--split-index")
	holdIndexEqual(t, fx.top, fx.env, true)
	runGit(t, fx.top, fx.env, "update-index", "--no-split-index")
	holdIndexEqual(t, fx.top, fx.env, false)
}

// assertion G: a linked worktree's index lives in its own git dir, and
// GIT_INDEX_FILE names another.
func TestIndexWorktreeAndIndexFile(t *testing.T) {
	fx := newFixture(t)
	wt := filepath.Join(filepath.Dir(fx.top), "wt")
	runGit(t, fx.top, fx.env, "worktree", "add", "-q", "-b", "w", wt)
	writeFile(t, filepath.Join(wt, "only-in-wt.txt"), "w\n", 0o644)
	runGit(t, wt, fx.env, "add", "only-in-wt.txt")
	got := holdIndexEqual(t, wt, fx.env, false)
	if got[len(got)-1].Path == "" || !hasPath(got, "only-in-wt.txt") {
		t.Fatal("the worktree's own index was not read")
	}
	if hasPath(holdIndexEqual(t, fx.top, fx.env, false), "only-in-wt.txt") {
		t.Fatal("the main checkout read the worktree's index")
	}
	alt := filepath.Join(filepath.Dir(fx.top), "alt-index")
	env := append(append([]string(nil), fx.env...), "GIT_INDEX_FILE="+alt)
	runGit(t, fx.top, env, "read-tree", "HEAD")
	writeFile(t, filepath.Join(fx.top, "alt-only.txt"), "a\n", 0o644)
	runGit(t, fx.top, env, "add", "alt-only.txt")
	if !hasPath(holdIndexEqual(t, fx.top, env, false), "alt-only.txt") {
		t.Fatal("GIT_INDEX_FILE was not honoured")
	}
}

func hasPath(es []Entry, p string) bool {
	for _, e := range es {
		if e.Path == p {
			return true
		}
	}
	return false
}

// assertion G: this repository's own index reads as git lists it.
func TestIndexThisRepository(t *testing.T) {
	holdIndexEqual(t, ".", nil, false)
}

// assertion B: a name that is not UTF-8 is its own refusal in process too.
func TestIndexNonUTF8(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("the file system refuses non-UTF-8 names")
	}
	fx := newFixture(t)
	writeFile(t, filepath.Join(fx.top, "bad\xff.txt"), "x\n", 0o644)
	runGit(t, fx.top, fx.env, "add", "-A")
	_, err := Git{Env: fx.env}.Index(fx.top)
	var bad *NonUTF8Error
	if !errors.As(err, &bad) {
		t.Fatalf("Index over a non-UTF-8 name: %v, want a *NonUTF8Error", err)
	}
}

// assertion G: damage refuses: a flipped byte fails the checksum, a
// truncated file, a wrong signature, an unknown version.
func TestIndexRefusesDamage(t *testing.T) {
	fx := newFixture(t)
	data, err := os.ReadFile(filepath.Join(fx.top, ".git/index"))
	if err != nil {
		t.Fatal(err)
	}
	flip := append([]byte(nil), data...)
	flip[40] ^= 1
	ver := append([]byte(nil), data...)
	ver[7] = 9
	for name, b := range map[string][]byte{
		"flipped":   flip,
		"truncated": data[:len(data)/2],
		"signature": append([]byte("DIRX"), data[4:]...),
		"version":   ver,
		"empty":     nil,
	} {
		if _, err := ParseIndex(b, 20); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
	// An all-zero checksum is index.skipHash's, and accepted.
	zero := append([]byte(nil), data...)
	copy(zero[len(zero)-20:], make([]byte, 20))
	if _, err := ParseIndex(zero, 20); err != nil {
		t.Fatalf("a skipHash index refused: %v", err)
	}
	if _, err := ParseIndex(data, 7); err == nil {
		t.Fatal("an unknown id length parsed")
	}
}

// FuzzParseIndex: no input panics, and what parses re-lists in order.
func FuzzParseIndex(f *testing.F) {
	fx := newFixture(f)
	for _, v := range []string{"2", "3", "4"} {
		runGit(f, fx.top, fx.env, "update-index", "--index-version", v)
		data, err := os.ReadFile(filepath.Join(fx.top, ".git/index"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00"))
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		check := func(b []byte) {
			idx, err := ParseIndex(b, 20)
			if err != nil {
				if idx != nil {
					t.Fatal("an error with an index")
				}
				return
			}
			for i := 1; i < len(idx.Entries); i++ {
				a, c := idx.Entries[i-1], idx.Entries[i]
				if a.Path > c.Path || a.Path == c.Path && a.Stage >= c.Stage {
					t.Fatalf("entries out of order: %q then %q", a.Path, c.Path)
				}
			}
		}
		check(b)
		// The same bytes under a correct checksum, so the mutation reaches
		// the entry and extension decoders.
		if len(b) >= 32 {
			fixed := append([]byte(nil), b...)
			sum := sha1.Sum(fixed[:len(fixed)-20])
			copy(fixed[len(fixed)-20:], sum[:])
			check(fixed)
		}
	})
}

// TestDamagedIndexNamesOurReader: a checksum that no longer matches is
// found by gates' own decoder, and the refusal says so rather than
// blaming git, which was never asked.
func TestDamagedIndexNamesOurReader(t *testing.T) {
	fx := newFixture(t)
	p := filepath.Join(fx.top, ".git", "index")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data[40] ^= 0xff
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Git{Env: fx.env}.NewSnapshot(fx.top)
	if err == nil {
		t.Fatal("a damaged index was read")
	}
	msg := err.Error()
	if !strings.Contains(msg, "gates' own index reader could not read the index") || strings.Contains(msg, "git could not") || !strings.Contains(msg, "checksum mismatch") {
		t.Fatalf("the refusal names the wrong component: %s", msg)
	}
}

// TestVerifiedIndexReadOnce (assertion P): a recording reader verifies an
// index once and takes the trailer as read while the file is unchanged; a
// file rewritten since (new stat fields) is verified again, so a damaged
// index is still refused, by the recording reader and by every other.
func TestVerifiedIndexReadOnce(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the stat fields are read on Linux only")
	}
	fx := newFixture(t)
	g := Git{Env: fx.env, RecordVerified: true}
	first, err := g.StagedSnapshot(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	record := filepath.Join(fx.top, ".git", "gates-cache", "index-verified")
	rec, err := os.ReadFile(record)
	if err != nil || !strings.Contains(string(rec), filepath.Join(fx.top, ".git", "index")) {
		t.Fatalf("no record after a verified read: %q %v", rec, err)
	}
	again, err := g.StagedSnapshot(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	d1, _ := first.TreeDigest()
	d2, _ := again.TreeDigest()
	if d1 != d2 || len(first.Files()) != len(again.Files()) {
		t.Fatalf("a trusted read differs: %s / %s", d1, d2)
	}
	// Damage the index the way a write would (the stat fields move): the
	// recording reader verifies again and refuses it.
	p := filepath.Join(fx.top, ".git", "index")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data[40] ^= 0xff
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := g.StagedSnapshot(fx.top); err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Fatalf("a damaged index was trusted: %v", err)
	}
	// A reader that records nothing never consults the record.
	if _, err := (Git{Env: fx.env}).NewSnapshot(fx.top); err == nil {
		t.Fatal("a damaged index was read")
	}
}

// assertion H: a version 4 index whose names outgrow its own bytes (long
// shared prefixes, a few bytes of suffix each) decodes to git's listing:
// the names and ids then fill more than one arena.
func TestIndexV4NamesOutgrowTheFile(t *testing.T) {
	fx := newFixture(t)
	deep := strings.Repeat("a", 200) + "/" + strings.Repeat("b", 200)
	for i := 0; i < 300; i++ {
		writeFile(t, filepath.Join(fx.top, deep, fmt.Sprintf("f%03d", i)), fmt.Sprintf("%d\n", i), 0o644)
	}
	runGit(t, fx.top, fx.env, "add", "-A")
	runGit(t, fx.top, fx.env, "update-index", "--index-version", "4")
	data, err := os.ReadFile(filepath.Join(fx.top, ".git/index"))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := ParseIndex(data, 20)
	if err != nil {
		t.Fatal(err)
	}
	names := 0
	for _, e := range idx.Entries {
		names += len(e.Path)
	}
	if idx.Version != 4 || names <= len(data) {
		t.Fatalf("version %d, %d bytes of names beside a %d-byte file: not the shape asked for", idx.Version, names, len(data))
	}
	holdIndexEqual(t, fx.top, fx.env, false)
}
