package walk

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

type memMemo struct {
	data         []byte
	kept         bool
	stores       int
	hits, misses int
}

func (m *memMemo) Load() ([]byte, bool) { return m.data, m.kept }
func (m *memMemo) Store(b []byte)       { m.data, m.kept = append([]byte(nil), b...), true; m.stores++ }
func (m *memMemo) Served(hit bool) {
	if hit {
		m.hits++
	} else {
		m.misses++
	}
}

func specs(name string) bool {
	return strings.HasPrefix(name, "SPEC-") && strings.HasSuffix(name, ".md")
}

func mk(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		writeFile(t, filepath.Join(root, filepath.FromSlash(f)), "x\n")
	}
}

// assertion T: a kept listing is answered only while every directory the
// walk entered keeps its stat data; any entry added, removed or renamed
// anywhere in the walked tree walks again, and the answer always equals a
// fresh walk's.
func TestFindKeepsListingUntilADirectoryChanges(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("listings are kept only where directory stat data is read (linux)")
	}
	old := racyWindow
	racyWindow = 0
	t.Cleanup(func() { racyWindow = old })
	root := t.TempDir()
	mk(t, root, "SPEC-a.md", "docs/SPEC-b.md", "docs/deep/note.md", "node_modules/SPEC-x.md")
	opt := Options{Prune: NewPruneSet("node_modules", "")}
	fresh := func() []string {
		t.Helper()
		got, err := Find(root, opt, nil, specs)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	memo := &memMemo{}
	check := func(what string, wantStores int) {
		t.Helper()
		var rec Recorder
		o := opt
		o.Recorder = &rec
		stores, hits, misses := memo.stores, memo.hits, memo.misses
		got, err := Find(root, o, memo, specs)
		if err != nil {
			t.Fatal(err)
		}
		if want := fresh(); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: kept listing %v, a fresh walk finds %v", what, got, want)
		}
		if memo.stores != wantStores {
			t.Fatalf("%s: %d stores, want %d", what, memo.stores, wantStores)
		}
		// A kept listing that proved stale is a miss, never a hit: the
		// counter counts what the memo served.
		wantHit := memo.stores == stores
		if memo.hits+memo.misses != hits+misses+1 || (memo.hits > hits) != wantHit {
			t.Fatalf("%s: served hit=%v (hits %d->%d, misses %d->%d), want hit=%v", what, memo.hits > hits, hits, memo.hits, misses, memo.misses, wantHit)
		}
		if len(rec.Roots()) != 1 || len(rec.Dirs()) == 0 {
			t.Fatalf("%s: the observer saw roots %v dirs %v", what, rec.Roots(), rec.Dirs())
		}
	}
	check("first walk", 1)
	check("unchanged tree", 1)
	mk(t, root, "docs/deep/SPEC-c.md")
	check("a file added two levels down", 2)
	check("unchanged again", 2)
	if err := os.Rename(filepath.Join(root, "docs", "SPEC-b.md"), filepath.Join(root, "docs", "SPEC-renamed.md")); err != nil {
		t.Fatal(err)
	}
	check("a file renamed", 3)
	if err := os.RemoveAll(filepath.Join(root, "docs", "deep")); err != nil {
		t.Fatal(err)
	}
	check("a directory removed", 4)
	mk(t, root, "node_modules/SPEC-y.md")
	check("a change inside a pruned directory", 4)
	// A damaged listing is walked again, never trusted.
	memo.data = memo.data[:len(memo.data)-1]
	check("a damaged listing", 5)
}

// A directory changed within the racy window is never vouched for: the
// listing is not kept.
func TestFindKeepsNoListingOfAFreshDirectory(t *testing.T) {
	root := t.TempDir()
	mk(t, root, "SPEC-a.md")
	memo := &memMemo{}
	if _, err := Find(root, Options{}, memo, specs); err != nil {
		t.Fatal(err)
	}
	if memo.stores != 0 {
		t.Fatal("a listing of a directory changed this instant was kept")
	}
}

func FuzzDecodeListing(f *testing.F) {
	f.Add(encodeListing([]listedDir{{"", stamp{1, 2, 3, 4, 5, 6}}, {"docs", stamp{}}}, []string{"SPEC-a.md"}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		dirs, found, ok := decodeListing(b)
		if !ok {
			return
		}
		// What decodes survives a round trip unchanged.
		d2, f2, ok := decodeListing(encodeListing(dirs, found))
		if !ok || !reflect.DeepEqual(d2, dirs) || !reflect.DeepEqual(f2, found) {
			t.Fatalf("round trip changed the listing")
		}
	})
}
