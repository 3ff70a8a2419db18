package repo

import (
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/walk"
	"github.com/go-git/go-git/v5/plumbing"
)

// The in-process reader asks the object-file reader first and takes its
// answer; only what that reader cannot read goes to go-git. Proven with an
// object only the object-file reader holds (a pack built by hand put in
// its place), and a real one it is not given.
func TestObjectsReadThroughTheObjectFilesFirst(t *testing.T) {
	root := physTemp(t)
	dir := filepath.Join(root, "r")
	env := testEnv(filepath.Join(root, "home"))
	runGit(t, root, env, "init", "-q", "-b", "main", dir)
	writeFile(t, filepath.Join(dir, "a.md"), "a\n", 0o644)
	runGit(t, dir, env, "add", "-A")
	runGit(t, dir, env, "commit", "-q", "-m", "one")
	head := strings.TrimSpace(runGit(t, dir, env, "rev-parse", "HEAD"))
	gd := walk.NormalizeAbs(filepath.Join(dir, ".git"))
	o, ok := OpenObjects(gd, gd, cleanEnv())
	if !ok {
		t.Fatal("the in-process reader refused a plain repository")
	}
	if o.files == nil || o.files != sharedObjectFiles(gd) {
		t.Fatal("the reader was opened without the shared object-file reader")
	}
	only := wholeEntry(t, synthID(0x5a, 1), 3, "held by the built pack alone")
	idx, pack, _ := synthPack([]synthEntry{only}, nil)
	id := hex.EncodeToString(only.id)
	for _, files := range []*objectFiles{nil, synthReader(t, idx, pack)} {
		o.files = files
		typ, data, err := o.raw(id)
		if files == nil {
			if err == nil || o.has(id) {
				t.Fatalf("without the object-file reader the built object was read: %v %q", typ, data)
			}
			continue
		}
		if err != nil || typ != plumbing.BlobObject || string(data) != "held by the built pack alone" {
			t.Fatalf("the object-file reader's object: %v %q %v", typ, data, err)
		}
		if !o.has(id) {
			t.Fatal("the object-file reader's object is not had")
		}
		// What it does not hold is go-git's to read.
		if typ, data, err := o.raw(head); err != nil || typ != plumbing.CommitObject || !strings.Contains(string(data), "\n\none\n") {
			t.Fatalf("HEAD through go-git: %v %q %v", typ, data, err)
		}
		if !o.has(head) {
			t.Fatal("HEAD is not had")
		}
	}
}
