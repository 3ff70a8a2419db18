//go:build linux && (amd64 || arm64)

package repo

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// assertion J (stop-gates): the stat test by directory descriptor answers
// what the stat by path answers, over a tree as the index records it and
// over every change under a path's leading directories: a directory
// replaced by a link to a copy of it (the same files, other inodes) and to
// itself moved away (the same inodes; a file's own directory and one
// further up), a directory that became a file, a
// directory gone, a file gone, another file's stat data, a file's link
// retargeted, files at the top, and a directory's files split by a
// subdirectory's entries in index order.
func TestStatCleanByDirAgreesWithByPath(t *testing.T) {
	type file struct {
		rel  string
		link string // a symbolic link's target, else a file
	}
	layout := []file{
		{rel: "top.md"}, {rel: "a/x.md"}, {rel: "a/b/c.md"}, {rel: "a/b/d.md"},
		{rel: "a/b.md"}, {rel: "a/z.md"}, {rel: "e/f/g/h.md"}, {rel: "e/link", link: "f/g/h.md"},
		{rel: "zz.md"},
	}
	build := func(t *testing.T) (string, []Entry) {
		dir := physTemp(t)
		var es []Entry
		for _, f := range layout {
			p := filepath.Join(dir, f.rel)
			mode := ModeRegular
			if f.link != "" {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(f.link, p); err != nil {
					t.Fatal(err)
				}
				mode = ModeSymlink
			} else {
				writeFile(t, p, "body of "+f.rel+"\n", 0o644)
			}
			es = append(es, Entry{Path: f.rel, Mode: mode})
		}
		slices.SortFunc(es, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
		for i := range es {
			es[i].stat = statOf(t, filepath.Join(dir, es[i].Path))
		}
		return dir, es
	}
	mustDo := func(t *testing.T, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name  string
		clean bool
		edit  func(t *testing.T, dir string, es []Entry)
	}{
		{"untouched", true, func(*testing.T, string, []Entry) {}},
		{"a directory replaced by a link to a copy", false, func(t *testing.T, dir string, _ []Entry) {
			copyDir := filepath.Join(dir, "copy-of-b")
			mustDo(t, os.MkdirAll(copyDir, 0o755))
			for _, n := range []string{"c.md", "d.md"} {
				data, err := os.ReadFile(filepath.Join(dir, "a/b", n))
				mustDo(t, err)
				writeFile(t, filepath.Join(copyDir, n), string(data), 0o644)
			}
			mustDo(t, os.RemoveAll(filepath.Join(dir, "a/b")))
			mustDo(t, os.Symlink("../copy-of-b", filepath.Join(dir, "a/b")))
		}},
		{"a directory moved and linked back", true, func(t *testing.T, dir string, _ []Entry) {
			mustDo(t, os.Rename(filepath.Join(dir, "e/f"), filepath.Join(dir, "moved-f")))
			mustDo(t, os.Symlink("../moved-f", filepath.Join(dir, "e/f")))
		}},
		{"a file's own directory moved and linked back", true, func(t *testing.T, dir string, _ []Entry) {
			mustDo(t, os.Rename(filepath.Join(dir, "a/b"), filepath.Join(dir, "moved-b")))
			mustDo(t, os.Symlink("../moved-b", filepath.Join(dir, "a/b")))
		}},
		{"a directory that became a file", false, func(t *testing.T, dir string, _ []Entry) {
			mustDo(t, os.RemoveAll(filepath.Join(dir, "a/b")))
			writeFile(t, filepath.Join(dir, "a/b"), "now a file\n", 0o644)
		}},
		{"a directory gone", false, func(t *testing.T, dir string, _ []Entry) {
			mustDo(t, os.RemoveAll(filepath.Join(dir, "e")))
		}},
		{"a file gone", false, func(t *testing.T, dir string, _ []Entry) {
			mustDo(t, os.Remove(filepath.Join(dir, "a/z.md")))
		}},
		{"a top file gone", false, func(t *testing.T, dir string, _ []Entry) {
			mustDo(t, os.Remove(filepath.Join(dir, "zz.md")))
		}},
		{"another file's stat data", false, func(t *testing.T, _ string, es []Entry) {
			other := *es[1].stat
			es[2].stat = &other
		}},
		{"a link retargeted", false, func(t *testing.T, dir string, _ []Entry) {
			mustDo(t, os.Remove(filepath.Join(dir, "e/link")))
			mustDo(t, os.Symlink("f/g/other.md", filepath.Join(dir, "e/link")))
		}},
		{"a link made a file", false, func(t *testing.T, dir string, _ []Entry) {
			mustDo(t, os.Remove(filepath.Join(dir, "e/link")))
			writeFile(t, filepath.Join(dir, "e/link"), "f/g/h.md", 0o644)
		}},
		{"a directory made unreadable but searchable", true, func(t *testing.T, dir string, _ []Entry) {
			mustDo(t, os.Chmod(filepath.Join(dir, "a/b"), 0o311))
			t.Cleanup(func() { os.Chmod(filepath.Join(dir, "a/b"), 0o755) })
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, es := build(t)
			c.edit(t, dir, es)
			byPath := statCleanRangeByPath(dir, es, nil)
			byDir := statCleanRangeByDir(dir, es, nil)
			if byDir != byPath {
				t.Fatalf("by directory %v, by path %v", byDir, byPath)
			}
			if byPath != c.clean {
				t.Fatalf("by path %v, want %v", byPath, c.clean)
			}
			if got := trackedStatClean(dir, es); got != byPath {
				t.Fatalf("the Stop's test %v, by path %v", got, byPath)
			}
		})
	}
}
