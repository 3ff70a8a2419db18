package kits

import (
	"bytes"
	"os"
	"path"
	"strings"
	"testing"
)

// The module archive is the tracked files it names: a fixture case that is
// a Go module, edited, added or removed without `make kit-manifest`, fails
// here.
func TestModuleArchiveMatchesTree(t *testing.T) {
	for _, kit := range Vendorable() {
		raw, err := manifests.ReadFile(kit + manifestSuffix)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := ParseManifest(kit+manifestSuffix, raw)
		if err != nil {
			t.Fatal(err)
		}
		files, err := ModuleFiles(kit, entries, func(src string) ([]byte, error) { return os.ReadFile("../" + src) })
		if err != nil {
			t.Fatal(err)
		}
		got, err := archives.ReadFile(ArchiveName(kit))
		if err != nil {
			t.Fatal(err)
		}
		if want := EncodeArchive(ArchiveHeader, files); !bytes.Equal(got, want) {
			t.Errorf("kits/%s is stale against the tree; run `make kit-manifest`", ArchiveName(kit))
		}
		if kit != Core {
			continue
		}
		mods := 0
		for _, f := range files {
			if path.Base(f.Path) == "go.mod" {
				mods++
			}
		}
		if mods == 0 {
			t.Errorf("the core kit's archive holds no go.mod; its fixture cases that are modules are not carried")
		}
	}
}

// Tree answers every manifest line: the nested modules' files from the
// archive, byte for byte as the tree holds them.
func TestTreeCarriesNestedModules(t *testing.T) {
	files, err := Tree(Core)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, f := range files {
		if !strings.HasPrefix(f.Path, "gate-tests/") {
			continue
		}
		disk, err := os.ReadFile("../" + SourcePath(Core, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(disk, f.Data) {
			t.Errorf("Tree's %s differs from the tree's file", f.Path)
		}
		if path.Base(f.Path) == "go.mod" {
			seen++
		}
	}
	if seen == 0 {
		t.Fatal("Tree answers no fixture go.mod")
	}
}

func TestArchiveRoundTrip(t *testing.T) {
	in := []File{
		{Path: "b/no-newline", Data: []byte("tail")},
		{Path: "a/go.mod", Data: []byte("module x\n\n-- 100644 3 fake --\n")},
		{Path: "a/run.sh", Exec: true, Data: []byte("#!/bin/sh\n")},
		{Path: "c d/empty", Data: nil},
	}
	raw := EncodeArchive(ArchiveHeader, in)
	out, err := DecodeArchive("t", raw)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a/go.mod", "a/run.sh", "b/no-newline", "c d/empty"}
	if len(out) != len(want) {
		t.Fatalf("got %d files", len(out))
	}
	for i, f := range out {
		if f.Path != want[i] {
			t.Errorf("file %d is %s, want %s", i, f.Path, want[i])
		}
		for _, g := range in {
			if g.Path == f.Path && (!bytes.Equal(g.Data, f.Data) || g.Exec != f.Exec) {
				t.Errorf("%s: got %q exec=%v, want %q exec=%v", f.Path, f.Data, f.Exec, g.Data, g.Exec)
			}
		}
	}
	if !bytes.Equal(EncodeArchive(ArchiveHeader, out), raw) {
		t.Error("re-encoding the decoded files changes the bytes")
	}
}

func TestDecodeArchiveRefuses(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"# c\n-- 100644 1 a --\nxx", "t:2: a: 1 bytes of content and a newline"},
		{"-- 100644 5 a --\nab\n", "t:1: a: 5 bytes"},
		{"-- 100600 1 a --\nx\n", "t:1: mode \"100600\""},
		{"-- 100644 -1 a --\nx\n", "size \"-1\""},
		{"-- 100644 01 a --\nx\n", "size \"01\""},
		{"-- 100644 1 ../a --\nx\n", "not clean and relative"},
		{"-- 100644 1 /a --\nx\n", "not clean and relative"},
		{"-- 100644 1 a//b --\nx\n", "not clean and relative"},
		{"-- 100644 1 a\nx\n", "not a \"-- <mode> <size> <path> --\" header"},
		{"stray\n", "t:1: not a"},
		{"-- 100644 1 b --\nx\n-- 100644 1 a --\ny\n", "t:3: a comes after b"},
		{"-- 100644 1 a --\nx\n-- 100644 1 a --\ny\n", "t:3: a comes after a"},
		{"-- 100644 2 a --\n\n\n\n-- 100644 1 a --\ny\n", "t:5: a comes after a"},
		{"# c", "t:1: a comment line with no newline"},
		{"-- 100644 1 a --", "a header line with no newline"},
	} {
		_, err := DecodeArchive("t", []byte(c.raw))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeArchive(%q) = %v, want an error containing %q", c.raw, err, c.want)
		}
	}
	if f, err := DecodeArchive("t", []byte("# only a comment\n")); err != nil || len(f) != 0 {
		t.Errorf("a comment-only archive: %v %v", f, err)
	}
}

func FuzzDecodeArchive(f *testing.F) {
	f.Add([]byte(ArchiveHeader + "-- 100644 3 a/go.mod --\nabc\n-- 100755 0 b --\n\n"))
	f.Add([]byte("-- 100644 1 a --\nx"))
	f.Fuzz(func(t *testing.T, data []byte) {
		files, err := DecodeArchive("f", data)
		if err != nil {
			return
		}
		for i, fl := range files {
			if fl.Path == "" || strings.HasPrefix(fl.Path, "/") || strings.HasPrefix(fl.Path, "../") || path.Clean(fl.Path) != fl.Path {
				t.Fatalf("accepted path %q", fl.Path)
			}
			if i > 0 && files[i-1].Path >= fl.Path {
				t.Fatalf("accepted %q after %q", fl.Path, files[i-1].Path)
			}
		}
		// What decodes re-encodes to an archive that decodes the same.
		again, err := DecodeArchive("f", EncodeArchive("", files))
		if err != nil || len(again) != len(files) {
			t.Fatalf("re-encoding: %v", err)
		}
		for i := range files {
			if again[i].Path != files[i].Path || !bytes.Equal(again[i].Data, files[i].Data) || again[i].Exec != files[i].Exec {
				t.Fatalf("round trip changed %q", files[i].Path)
			}
		}
	})
}
