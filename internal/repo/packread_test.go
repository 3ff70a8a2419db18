package repo

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The object-file reader held to git: every object of a repository whose
// history is packed with deltas (against an offset, or a base named by
// id) and partly loose reads back as `git cat-file` prints it.

func objectRepo(t *testing.T, gcArgs ...string) (dir string, env []string) {
	t.Helper()
	root := physTemp(t)
	dir = filepath.Join(root, "r")
	env = testEnv(filepath.Join(root, "home"))
	runGit(t, root, env, "init", "-q", "-b", "main", dir)
	// A file grown a little per commit packs as a chain of deltas.
	var body strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&body, "line %d of a file that changes a little with every commit, so git stores deltas\n", i)
		writeFile(t, filepath.Join(dir, "notes.md"), body.String(), 0o644)
		writeFile(t, filepath.Join(dir, fmt.Sprintf("d%d/f.txt", i%5)), strings.Repeat(fmt.Sprintf("row %d\n", i), 50+i), 0o644)
		runGit(t, dir, env, "add", "-A")
		runGit(t, dir, env, "commit", "-q", "-m", fmt.Sprintf("commit %d", i))
	}
	runGit(t, dir, env, append(gcArgs, "gc", "-q", "--aggressive")...)
	// Later objects stay loose.
	writeFile(t, filepath.Join(dir, "loose.md"), "loose\n", 0o644)
	runGit(t, dir, env, "add", "-A")
	runGit(t, dir, env, "commit", "-q", "-m", "loose")
	return dir, env
}

func TestObjectFilesReadEveryObjectAsGitDoes(t *testing.T) {
	t.Run("offset deltas", func(t *testing.T) { objectFilesAsGit(t) })
	// Without offsets each delta names its base by id.
	t.Run("deltas by id", func(t *testing.T) { objectFilesAsGit(t, "-c", "repack.useDeltaBaseOffset=false") })
}

func objectFilesAsGit(t *testing.T, gcArgs ...string) {
	dir, env := objectRepo(t, gcArgs...)
	common := filepath.Join(dir, ".git")
	r := openObjectFiles(common)
	if r == nil || len(r.packs) == 0 {
		t.Fatal("the packed repository's object files were not opened")
	}
	list := runGit(t, dir, env, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)")
	deltas := runGit(t, dir, env, "verify-pack", "-v", filepath.Join(common, "objects/pack", packName(t, common)))
	if !strings.Contains(deltas, "chain length") {
		t.Fatalf("the pack holds no deltas; the test would prove nothing:\n%s", deltas)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		id, kind, _ := strings.Cut(line, " ")
		typ, data, err := r.read(id)
		if err != nil {
			t.Fatalf("%s %s: %v", kind, id, err)
		}
		if typ.String() != kind {
			t.Fatalf("%s: type %s, git says %s", id, typ, kind)
		}
		if want := runGit(t, dir, env, "cat-file", kind, id); !bytes.Equal(data, []byte(want)) {
			t.Fatalf("%s %s: %d bytes differ from git's %d", kind, id, len(data), len(want))
		}
		if !r.has(id) {
			t.Fatalf("%s: has answers false for an object read", id)
		}
		n++
	}
	if n < 100 {
		t.Fatalf("only %d objects compared", n)
	}
	if _, _, err := r.read(strings.Repeat("ab", 20)); err == nil {
		t.Fatal("an absent object was read")
	}
	if r.has(strings.Repeat("ab", 20)) {
		t.Fatal("an absent object is had")
	}
}

func packName(t *testing.T, common string) string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(common, "objects/pack"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".idx") {
			return e.Name()
		}
	}
	t.Fatal("no pack index")
	return ""
}

// A pack index of a version this reader does not know opens no reader:
// go-git reads every object then.
func TestObjectFilesRefuseAnUnknownIndexVersion(t *testing.T) {
	dir, _ := objectRepo(t)
	common := filepath.Join(dir, ".git")
	p := filepath.Join(common, "objects/pack", packName(t, common))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data[7] = 3
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := openObjectFiles(common); r != nil {
		t.Fatal("an index of version 3 was opened")
	}
}

// A delta out of shape is refused, never applied past its bounds.
func TestApplyDeltaRefusesWhatIsOutOfShape(t *testing.T) {
	base := []byte("0123456789")
	// src 10, dst 4: copy 4 bytes from offset 2.
	good := []byte{10, 4, 0x80 | 0x01 | 0x10, 2, 4}
	if out, err := applyDelta(base, good); err != nil || string(out) != "2345" {
		t.Fatalf("good delta: %q %v", out, err)
	}
	for name, d := range map[string][]byte{
		"wrong source size":     {9, 4, 0x91, 2, 4},
		"copy past the base":    {10, 4, 0x91, 8, 4},
		"longer than declared":  {10, 3, 0x91, 2, 4},
		"shorter than declared": {10, 5, 0x91, 2, 4},
		"insert past the end":   {10, 4, 4, 'a'},
		"reserved opcode":       {10, 1, 0},
	} {
		if out, err := applyDelta(base, d); err == nil {
			t.Errorf("%s: applied as %q", name, out)
		}
	}
}
