package registry

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const resolveTree = "../../testdata/registry/resolve"

func TestParseList(t *testing.T) {
	src := "# head\n\nfoo\r\n  bar  \n# unregistered: check-x \u2014 no surface here\n#unregistered: check-y\n# omitted: check-z slow on this tree\n# omitted:\nfoo\n"
	l, err := ParseList("scripts/gates.list", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{"foo", 3}, {"bar", 4}, {"foo", 9}}
	if !reflect.DeepEqual(l.Entries, want) {
		t.Errorf("entries = %v, want %v", l.Entries, want)
	}
	wantU := []Unregistered{{"check-x", "no surface here", 5}, {"check-y", "", 6}}
	if !reflect.DeepEqual(l.Unregistered, wantU) {
		t.Errorf("unregistered = %v, want %v", l.Unregistered, wantU)
	}
	wantO := []Omission{{"check-z", "slow on this tree", 7}, {"", "", 8}}
	if !reflect.DeepEqual(l.Omitted, wantO) {
		t.Errorf("omitted = %v, want %v", l.Omitted, wantO)
	}
}

// A gates.list saved with a UTF-8 byte-order mark lists the same members:
// the mark opening the file is no part of the first name (kept, the first
// member resolved to no descriptor and the battery went red on a list it
// should have run). A mark later in the file stays in its line.
func TestParseListDropsALeadingByteOrderMark(t *testing.T) {
	for _, src := range []string{"\ufefffoo\nbar\n", "\ufeff# head\nfoo\nbar\n"} {
		l, err := ParseList("scripts/gates.list", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		first := 1
		if strings.Contains(src, "#") {
			first = 2
		}
		want := []Entry{{"foo", first}, {"bar", first + 1}}
		if !reflect.DeepEqual(l.Entries, want) {
			t.Errorf("%q: entries = %+v, want %+v", src, l.Entries, want)
		}
	}
	l, err := ParseList("scripts/gates.list", []byte("foo\n\ufeffbar\n"))
	if err != nil || len(l.Entries) != 2 || l.Entries[1].Name != "\ufeffbar" {
		t.Errorf("a mark past the first byte was dropped: %v %v", l, err)
	}
}

func TestParseListRefusals(t *testing.T) {
	for _, line := range []string{"foo # trailing", "scripts/foo", "-x", "..", "a\\b", "a\tb"} {
		_, err := ParseList("g.list", []byte("ok\n"+line+"\n"))
		if !IsKind(err, KindListLine) {
			t.Errorf("%q: want a list-line refusal, got %v", line, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), "g.list:2: ") {
			t.Errorf("%q: refusal %q does not name file and line", line, err)
		}
	}
}

func TestParseUnregistered(t *testing.T) {
	for in, want := range map[string][2]string{
		" a \u2014 b c ":   {"a", "b c"},
		" a b":             {"a", ""},
		"":                 {"", ""},
		"a\u2014":          {"a", ""},
		" \u2014 reason":   {"", "reason"},
		"a - not em dash ": {"a", ""},
	} {
		n, r := ParseUnregistered(in)
		if n != want[0] || r != want[1] {
			t.Errorf("ParseUnregistered(%q) = %q, %q; want %q, %q", in, n, r, want[0], want[1])
		}
	}
}

func TestResolveOrder(t *testing.T) {
	gates := resolveTree + "/scripts"
	roots := []string{resolveTree + "/gate-sdk", resolveTree + "/other-kit"}
	cases := []struct {
		name string
		kind DeclKind
		path string
		alt  string
	}{
		// A consumer's descriptor shadows a kit's shell gate.
		{"foo", Descriptor, gates + "/foo.gate", ""},
		// Both spellings in one dir: ambiguous, .sh named first.
		{"both", Ambiguous, gates + "/both.sh", gates + "/both.gate"},
		{"kitonly", Descriptor, resolveTree + "/gate-sdk/checks/kitonly.gate", ""},
		// Kit roots in order: the first kit declaring the name answers.
		{"second", Descriptor, resolveTree + "/gate-sdk/checks/second.gate", ""},
		{"missing", Unresolved, "", ""},
	}
	for _, c := range cases {
		r, err := Resolve(OS{}, c.name, gates, roots)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.Kind != c.kind || r.Path != c.path || r.Alt != c.alt {
			t.Errorf("%s: got %v %q %q, want %v %q %q", c.name, r.Kind, r.Path, r.Alt, c.kind, c.path, c.alt)
		}
	}
	r, _ := Resolve(OS{}, "both", gates, roots)
	if err := r.Err(); !IsKind(err, KindAmbiguous) || !strings.Contains(err.Error(), "both.sh") || !strings.Contains(err.Error(), "both.gate") {
		t.Errorf("ambiguous refusal should name both files: %v", err)
	}
	r, _ = Resolve(OS{}, "missing", gates, roots)
	if !IsKind(r.Err(), KindUnresolved) {
		t.Errorf("unresolved: want a typed refusal, got %v", r.Err())
	}
	r, _ = Resolve(OS{}, "foo", gates, roots)
	if r.Err() != nil {
		t.Errorf("resolved member has refusal %v", r.Err())
	}
	// An explicit dir list replaces the default search order.
	r, _ = ResolveIn(OS{}, "foo", []string{resolveTree + "/other-kit/checks", resolveTree + "/gate-sdk/checks"})
	if r.Kind != Shell || r.Path != resolveTree+"/gate-sdk/checks/foo.sh" {
		t.Errorf("ResolveIn foo: got %v %q", r.Kind, r.Path)
	}
	// Within one dir a lone .sh resolves as shell.
	r, _ = Resolve(OS{}, "second", gates, []string{resolveTree + "/other-kit"})
	if r.Kind != Shell || r.Path != resolveTree+"/other-kit/checks/second.sh" {
		t.Errorf("second under other-kit: got %v %q", r.Kind, r.Path)
	}
}

func TestResolveIgnoresDirectories(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "g", "x.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "g", "x.gate"), []byte("# graph: couples=a dir=one valve=none tier=precommit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := filepath.ToSlash(filepath.Join(dir, "g"))
	r, err := Resolve(OS{}, "x", g, []string{filepath.ToSlash(filepath.Join(dir, "nokit"))})
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind != Descriptor {
		t.Errorf("a directory named x.sh is no declaration: got %v", r.Kind)
	}
}

func TestLoad(t *testing.T) {
	gates := resolveTree + "/scripts"
	roots := []string{resolveTree + "/gate-sdk", resolveTree + "/other-kit"}
	reg, err := Load(OS{}, gates, roots)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range reg.Members {
		got = append(got, m.Name+":"+m.Kind.String())
	}
	want := []string{"foo:descriptor", "both:ambiguous", "kitonly:descriptor", "second:descriptor", "missing:unresolved", "foo:descriptor"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("members = %v, want %v", got, want)
	}
	if m, _ := reg.Member("missing"); m.Line != 7 {
		t.Errorf("missing is on registry line 7, got %d", m.Line)
	}
	if n := len(reg.Distinct()); n != 5 {
		t.Errorf("Distinct: %d members, want 5", n)
	}
	if s := reg.Skipped(); len(s) != 1 || s[0].Name != "missing" {
		t.Errorf("Skipped = %v", s)
	}
	if m, _ := reg.Member("kitonly"); m.ManifestErr != nil || m.Manifest.Install == nil || m.Manifest.Install.Text != InstallZero {
		t.Errorf("kitonly manifest: %+v %v", m.Manifest, m.ManifestErr)
	}
	if len(reg.Unregistered) != 2 || reg.Unregistered[0].Name != "check-withheld" || reg.Unregistered[1].Reason != "" {
		t.Errorf("unregistered = %+v", reg.Unregistered)
	}
	if len(reg.Omitted) != 1 || reg.Omitted[0].Name != "check-heavy" || reg.Omitted[0].Reason != "slow" {
		t.Errorf("omitted = %+v", reg.Omitted)
	}
	corpus, err := reg.Corpus(OS{})
	if err != nil {
		t.Fatal(err)
	}
	// Every .gate in the search dirs plus the .sh a member resolves to.
	var paths []string
	for _, m := range corpus {
		paths = append(paths, m.Path)
	}
	wantPaths := []string{gates + "/both.gate", gates + "/foo.gate", resolveTree + "/gate-sdk/checks/kitonly.gate",
		resolveTree + "/gate-sdk/checks/second.gate", resolveTree + "/other-kit/checks/stray.gate", gates + "/both.sh"}
	if !reflect.DeepEqual(paths, wantPaths) {
		t.Errorf("corpus = %v\nwant %v", paths, wantPaths)
	}
}

func TestLoadRefusals(t *testing.T) {
	_, err := Load(OS{}, t.TempDir(), nil)
	if !IsKind(err, KindNoRegistry) || !strings.Contains(err.Error(), "no registry at ") {
		t.Errorf("absent registry: got %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gates.list"), []byte("a b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(OS{}, filepath.ToSlash(dir), nil); !IsKind(err, KindListLine) {
		t.Errorf("bad member line: got %v", err)
	}
}

func TestDeclarations(t *testing.T) {
	d, err := Declarations(OS{}, SearchDirs(resolveTree+"/scripts", []string{resolveTree + "/gate-sdk", resolveTree + "/nope"}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range d {
		got = append(got, x.Name+"."+map[DeclKind]string{Shell: "sh", Descriptor: "gate"}[x.Kind])
	}
	want := []string{"both.gate", "both.sh", "foo.gate", "foo.sh", "kitonly.gate", "second.gate"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("declarations = %v, want %v", got, want)
	}
}

func TestSearchDirs(t *testing.T) {
	got := SearchDirs("scripts", []string{"gate-sdk/", "canon-kit", "gate-sdk", "."})
	want := []string{"scripts", "gate-sdk/checks", "canon-kit/checks", "checks"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SearchDirs = %v, want %v", got, want)
	}
}

func TestJoin(t *testing.T) {
	for _, c := range [][3]string{{"", "a", "a"}, {".", "a", "a"}, {"d", "a", "d/a"}, {"d/", "a", "d/a"}, {"/", "a", "/a"}} {
		if got := Join(c[0], c[1]); got != c[2] {
			t.Errorf("Join(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func TestFixtureSuites(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"gate-sdk/gate-tests", "foo-kit/gate-tests", "foo-kit/checks", "bar-kit/checks", "scripts/gate-tests/check-x/good"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "bar-kit", "gate-tests"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.ToSlash(dir)
	got, err := FixtureSuites(OS{}, []string{root + "/gate-sdk", root + "/foo-kit", root + "/bar-kit", root + "/gate-sdk"}, root+"/scripts", nil)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, s := range got {
		rows = append(rows, strings.ReplaceAll(s.Row(), root+"/", ""))
	}
	want := []string{"gate_sdk\tgate-sdk/gate-tests\t", "foo_kit\tfoo-kit/gate-tests\tfoo-kit/checks", "scripts\tscripts/gate-tests\t"}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows = %q\nwant %q", rows, want)
	}
}

// The tree that authors the kit keeps gate-sdk's pairs outside the kit
// root: the knob relocates the first root's suite, which keeps its name
// and its checks/, and leaves every other root's alone.
func TestFixtureSuitesRelocatedKitTree(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"gate-tests/check-x/good", "kits/gate-sdk/checks", "kits/foo-kit/gate-tests", "scripts/gate-tests"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.ToSlash(dir)
	got, err := FixtureSuites(OS{}, []string{root + "/kits/gate-sdk", root + "/kits/foo-kit"}, root+"/scripts", []string{root + "/gate-tests/"})
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, s := range got {
		rows = append(rows, strings.ReplaceAll(s.Row(), root+"/", ""))
	}
	want := []string{"gate_sdk\tgate-tests\tkits/gate-sdk/checks", "foo_kit\tkits/foo-kit/gate-tests\t", "scripts\tscripts/gate-tests\t"}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows = %q\nwant %q", rows, want)
	}
	// Without the knob the kit root's own (absent) tree is read: no row.
	got, err = FixtureSuites(OS{}, []string{root + "/kits/gate-sdk"}, root+"/scripts", nil)
	if err != nil || len(got) != 1 || got[0].Name != "scripts" {
		t.Errorf("unrelocated: %+v %v", got, err)
	}
	if _, err := FixtureSuites(OS{}, []string{root + "/kits/gate-sdk"}, root+"/scripts", []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "GATE_SDK_KIT_TESTS_DIR names 2 directories") {
		t.Errorf("two words: %v", err)
	}
}

// countFS is OS counting each file read.
type countFS struct {
	OS
	reads map[string]int
}

func (c countFS) ReadFile(name string) ([]byte, error) {
	c.reads[name]++
	return c.OS.ReadFile(name)
}

// CorpusReusing answers what Corpus answers, manifest for manifest, and
// reads no registered member's declaration a second time; a declaration
// no member resolves to is read as before.
func TestCorpusReusingTheMembersManifests(t *testing.T) {
	gates := resolveTree + "/scripts"
	roots := []string{resolveTree + "/gate-sdk", resolveTree + "/other-kit"}
	reg, err := Load(OS{}, gates, roots)
	if err != nil {
		t.Fatal(err)
	}
	want, err := reg.Corpus(OS{})
	if err != nil {
		t.Fatal(err)
	}
	fsys := countFS{reads: map[string]int{}}
	got, err := reg.CorpusReusing(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("corpus reusing the members' manifests differs:\n%+v\nwant\n%+v", got, want)
	}
	for _, m := range reg.Members {
		if m.Kind != Unresolved && m.ManifestErr == nil && fsys.reads[m.Path] != 0 {
			t.Errorf("%s was read again", m.Path)
		}
	}
	if fsys.reads[resolveTree+"/other-kit/checks/stray.gate"] != 1 {
		t.Errorf("a declaration no member resolves to was not read: %v", fsys.reads)
	}
}
