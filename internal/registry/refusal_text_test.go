package registry

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestRefusalLocation: a refusal about a whole file names the file
// alone; one about a line names file:line.
func TestRefusalLocation(t *testing.T) {
	_, err := ParseManifest("x.gate", []byte("# spec: a §b\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "x.gate: no # graph:") {
		t.Errorf("no graph line: got %v, want it located at the file alone", err)
	}
	_, err = ParseManifest("x.gate", []byte("# graph: couples=a dir=two valve=none tier=precommit\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "x.gate:1: ") {
		t.Errorf("bad value on line 1: got %v, want x.gate:1:", err)
	}
}

// TestParseUnregisteredLeadingDash: an em dash opening the payload names
// no member and keeps the whole reason.
func TestParseUnregisteredLeadingDash(t *testing.T) {
	if n, r := ParseUnregistered("\u2014 the reason"); n != "" || r != "the reason" {
		t.Errorf("got %q, %q; want no name and the reason", n, r)
	}
}

// rootFS serves a MapFS under "/" so a kit root can sit at the top of
// the filesystem.
type rootFS struct{ m fstest.MapFS }

func (r rootFS) name(n string) string { return strings.TrimPrefix(n, "/") }
func (r rootFS) ReadFile(n string) ([]byte, error) {
	return fs.ReadFile(r.m, r.name(n))
}
func (r rootFS) Stat(n string) (fs.FileInfo, error)      { return fs.Stat(r.m, r.name(n)) }
func (r rootFS) ReadDir(n string) ([]fs.DirEntry, error) { return fs.ReadDir(r.m, r.name(n)) }

// TestFixtureSuiteAtTheRoot: a kit directly under "/" names its suite by
// its own name, as any other kit does.
func TestFixtureSuiteAtTheRoot(t *testing.T) {
	fsys := rootFS{fstest.MapFS{
		"my-kit/gate-tests/check-x/good/a": {Data: []byte("x")},
		"my-kit/checks/check-x.gate":       {Data: []byte("x")},
	}}
	got, err := FixtureSuites(fsys, []string{"/my-kit"}, "/scripts", nil)
	if err != nil || len(got) != 1 {
		t.Fatalf("got %+v, %v", got, err)
	}
	if got[0].Name != "my_kit" || got[0].TestsDir != "/my-kit/gate-tests" || got[0].ChecksDir != "/my-kit/checks" {
		t.Errorf("suite %+v, want my_kit over /my-kit", got[0])
	}
}

// TestHeaderFieldSpellings: a tab after the colon still makes a field;
// a # spec: opening with an em dash has no location, only a statement;
// an empty # armed-by: is refused, not read.
func TestHeaderFieldSpellings(t *testing.T) {
	if _, err := ParseManifest("x.gate", []byte(okGraph+"\n# owner:\tme\n")); !hasKind(err, KindUnknownField) {
		t.Errorf("tab after the colon: got %v, want an unknown field", err)
	}
	m, err := ParseManifest("x.gate", []byte(okGraph+"\n# spec:\t\u2014 the statement\n"))
	if err != nil || m.Spec == nil || m.Spec.Location != "" || m.Spec.Statement != "the statement" {
		t.Errorf("spec led by an em dash: %+v, %v", m, err)
	}
	m, err = ParseManifest("x.gate", []byte(okGraph+"\n# spec: SPEC.md §A \u2014 holds\n"))
	if err != nil || m.Spec.Location != "SPEC.md §A" || m.Spec.Statement != "holds" {
		t.Errorf("spec with a statement: %+v, %v", m.Spec, err)
	}
	if _, err := ParseManifest("x.gate", []byte(okGraph+"\n# armed-by:\n")); !hasKind(err, KindBadValue) {
		t.Errorf("empty armed-by: got %v, want a bad value", err)
	}
}

// TestDeclarationsNeedANameBeforeTheSuffix: files named ".gate" or ".sh"
// alone declare no member.
func TestDeclarationsNeedANameBeforeTheSuffix(t *testing.T) {
	fsys := rootFS{fstest.MapFS{
		"g/.gate":  {Data: []byte(okGraph + "\n")},
		"g/.sh":    {Data: []byte("#!/bin/sh\n")},
		"g/a.gate": {Data: []byte(okGraph + "\n")},
		"g/b.sh":   {Data: []byte("#!/bin/sh\n")},
	}}
	got, err := Declarations(fsys, []string{"g"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range got {
		names = append(names, d.Name+"="+d.Path)
	}
	if strings.Join(names, " ") != "a=g/a.gate b=g/b.sh" {
		t.Errorf("declarations %q, want a and b only", names)
	}
}

// TestFixtureDirsOrder: the consumer's tests dir first, then each kit
// tree that is not the same dir.
func TestFixtureDirsOrder(t *testing.T) {
	got := FixtureDirs("tests/", []string{"tests", "kit/gate-tests", "other/gate-tests"})
	if strings.Join(got, " ") != "tests kit/gate-tests other/gate-tests" {
		t.Errorf("FixtureDirs = %q", got)
	}
}

// failFS fails every stat with a fault that is not absence.
type failFS struct{ rootFS }

func (failFS) Stat(string) (fs.FileInfo, error) { return nil, fs.ErrPermission }

// TestFixtureLookupFailsClosed: a tests dir the registry cannot stat is
// an error, never "no pair found".
func TestFixtureLookupFailsClosed(t *testing.T) {
	if _, err := FindFixture(failFS{}, []string{"tests"}, "check-x"); err == nil || !IsKind(err, KindIO) {
		t.Errorf("FindFixture over an unreadable tree: %v, want an I/O refusal", err)
	}
	if _, err := Declarations(failFS{}, []string{"g"}); err == nil || !IsKind(err, KindIO) {
		t.Errorf("Declarations over an unreadable tree: %v, want an I/O refusal", err)
	}
	if _, err := FixtureSuites(failFS{}, []string{"/k"}, "/s", nil); err == nil || !IsKind(err, KindIO) {
		t.Errorf("FixtureSuites over an unreadable tree: %v, want an I/O refusal", err)
	}
}

// TestOSAtReadsItsTree: OSAt takes relative names against its Dir, and
// with no Dir against the working directory (the package's, under go
// test).
func TestOSAtReadsItsTree(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gates.list"), []byte("check-a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	at := OSAt{Dir: filepath.ToSlash(dir)}
	if b, err := at.ReadFile("gates.list"); err != nil || string(b) != "check-a\n" {
		t.Errorf("ReadFile: %q %v", b, err)
	}
	if fi, err := at.Stat("gates.list"); err != nil || fi.IsDir() {
		t.Errorf("Stat: %v", err)
	}
	if es, err := at.ReadDir("."); err != nil || len(es) != 1 {
		t.Errorf("ReadDir: %v %v", es, err)
	}
	if _, err := (OSAt{}).Stat("refusal_text_test.go"); err != nil {
		t.Errorf("no Dir: %v, want the working directory's file", err)
	}
	if _, err := at.Stat("refusal_text_test.go"); err == nil {
		t.Error("a Dir: the working directory's file was found")
	}
}
