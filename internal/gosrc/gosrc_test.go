package gosrc

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// pkgOf parses named sources into one package.
func pkgOf(t testing.TB, importPath string, srcs map[string]string) (*Package, map[string]*File) {
	t.Helper()
	files := map[string]*File{}
	var list []*File
	names := make([]string, 0, len(srcs))
	for n := range srcs {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		f, err := Parse(n, []byte(srcs[n]))
		if err != nil {
			t.Fatalf("parse %s: %v", n, err)
		}
		files[n] = f
		list = append(list, f)
	}
	return NewPackage(importPath, list), files
}

func values(t testing.TB, lits []Literal) []string {
	t.Helper()
	var out []string
	for _, l := range lits {
		out = append(out, l.Value)
	}
	return out
}

// TestSpellingsReadAlike is the differential test: one value, every way
// Go can spell it, reads as that one value at exactly one site.
func TestSpellingsReadAlike(t *testing.T) {
	const want = "scripts/gates.list"
	other := map[string]string{"other.go": "package p\n\nconst elsewhere = \"scripts/gates.list\"\nconst dirPart = \"scripts/\"\nconst namePart = `gates.list`\n"}
	spellings := map[string]string{
		"interpreted":            `var v = "scripts/gates.list"`,
		"raw":                    "var v = `scripts/gates.list`",
		"escaped":                `var v = "scripts\x2fgates\u002elist"`,
		"concatenated":           `var v = "scripts/" + "gates.list"`,
		"concatenated raw mixed": "var v = `scripts` + \"/\" + `gates.list`",
		"parenthesised":          `var v = ("scripts/" + ("gates" + ".list"))`,
		"multi-line":             "var v = \"scripts/\" +\n\t\"gates.list\"",
		"local const":            "func f() string {\n\tconst c = \"scripts/gates.list\"\n\treturn c\n}",
		"file const":             "const c = \"scripts/gates.list\"\n\nvar v = c",
		"typed const":            "type path string\n\nconst c path = \"scripts/gates.list\"\n\nvar v = c",
		"converted":              `var v = string("scripts/gates.list")`,
		"const group repetition": "const (\n\ta = \"scripts/gates.list\"\n\tb\n)\n\nvar v = b",
	}
	for name, body := range spellings {
		t.Run(name, func(t *testing.T) {
			p, files := pkgOf(t, "m/p", map[string]string{"a.go": "package p\n\n" + body + "\n"})
			lits, err := Literals(files["a.go"], p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := values(t, lits); !slices.Equal(got, []string{want}) {
				t.Fatalf("values %q, want exactly [%q]", got, want)
			}
			if lits[0].Line != 3 && !strings.Contains(name, "const") {
				t.Errorf("opening line %d, want 3", lits[0].Line)
			}
		})
	}
	// Composed from constants declared in a sibling file: the value is
	// judged where it is composed, and each part where it is spelled.
	srcs := map[string]string{"a.go": "package p\n\nvar v = dirPart + namePart\nvar w = elsewhere\n"}
	for k, v := range other {
		srcs[k] = v
	}
	p, files := pkgOf(t, "m/p", srcs)
	lits, err := Literals(files["a.go"], p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := values(t, lits); !slices.Equal(got, []string{want}) {
		t.Fatalf("sibling-composed values %q, want [%q] (a bare reference is judged where it was spelled)", got, want)
	}
	lits, _ = Literals(files["other.go"], p, nil)
	if got := values(t, lits); !slices.Equal(got, []string{want, "scripts/", "gates.list"}) {
		t.Fatalf("the declaring file's values %q", got)
	}
}

// TestCrossPackageConstants folds a selector through the resolver, honours
// an import alias, and leaves a package the resolver does not know opaque.
func TestCrossPackageConstants(t *testing.T) {
	dep, _ := pkgOf(t, "m/internal/paths", map[string]string{"paths.go": "package paths\n\nconst Dir = \"docs\"\n"})
	renamed, _ := pkgOf(t, "m/internal/v2", map[string]string{"v.go": "package naming\n\nconst Leaf = \"queue.md\"\n"})
	resolve := func(ip string) (*Package, error) {
		switch ip {
		case "m/internal/paths":
			return dep, nil
		case "m/internal/v2":
			return renamed, nil
		}
		return nil, nil
	}
	src := "package p\n\nimport (\n\t\"os\"\n\tq \"m/internal/paths\"\n\t\"m/internal/v2\"\n)\n\n" +
		"var a = q.Dir + \"/\" + naming.Leaf\nvar b = os.DevNull + \"/x\"\nvar c = q.Dir\n"
	p, files := pkgOf(t, "m/p", map[string]string{"a.go": src})
	lits, err := Literals(files["a.go"], p, resolve)
	if err != nil {
		t.Fatal(err)
	}
	if got := values(t, lits); !slices.Equal(got, []string{"docs/queue.md", "/x"}) {
		t.Fatalf("values %q", got)
	}
	failing := func(string) (*Package, error) { return nil, errors.New("boom") }
	if _, err := Literals(files["a.go"], p, failing); err == nil {
		t.Fatal("a resolver failure was swallowed")
	}
}

// TestHostileSpellings holds what is not a value, and what must not fold.
func TestHostileSpellings(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string
	}{
		{"import path and struct tag are no values", "import _ \"embed\"\n\ntype T struct {\n\tF string `json:\"docs/queue.md\"`\n}", nil},
		{"rune literals and numbers", "var r = 'x'\nvar n = 1 + 2", nil},
		{"a comment holding a literal", "// \"docs/queue.md\"\n/* \"docs/queue.md\" */\nvar v = 1", nil},
		{"a variable operand leaves its constant part alone", "var d = \"docs\"\n\nvar v = d + \"/queue.md\"", []string{"docs", "/queue.md"}},
		{"a shadowing variable is no constant", "const c = \"a\"\n\nfunc f() string {\n\tc := \"b\"\n\treturn c + \"x\"\n}", []string{"a", "b", "x"}},
		{"len is no conversion", "const n = len(\"docs\")\n\nvar v = n", []string{"docs"}},
		{"a self-referential const does not loop", "const a = b + \"x\"\nconst b = a + \"y\"\n\nvar v = a + \"z\"", []string{"x", "y", "z"}},
		{"a conversion to a declared type keeps the constant", "type kind string\n\nvar v = kind(\"docs\") + \"/q\"", []string{"docs/q"}},
		{"a function call is no constant", "func g(s string) string { return s }\n\nvar v = g(\"docs\") + \"/q\"", []string{"docs", "/q"}},
		{"a multi-line raw string keeps its bytes", "var v = `a\nb`", []string{"a\nb"}},
		{"a method value on a string", "var v = strings.ToUpper(\"docs\")", []string{"docs"}},
		{"a key in a composite literal", "var m = map[string]int{\"docs\": 1}", []string{"docs"}},
		{"case clauses", "func f(s string) bool {\n\tswitch s {\n\tcase \"a\", \"b\" + \"c\":\n\t\treturn true\n\t}\n\treturn false\n}", []string{"a", "bc"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, files := pkgOf(t, "m/p", map[string]string{"a.go": "package p\n\n" + tc.body + "\n"})
			lits, err := Literals(files["a.go"], p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := values(t, lits); !slices.Equal(got, tc.want) {
				t.Fatalf("values %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseRefusesAtTheLine(t *testing.T) {
	_, err := Parse("x/bad.go", []byte("package p\n\nvar v = \"unterminated\n"))
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 3 || se.Path != "x/bad.go" {
		t.Fatalf("err %v, want a SyntaxError at x/bad.go:3", err)
	}
	if !strings.HasPrefix(se.Error(), "x/bad.go:3: ") {
		t.Fatalf("message %q does not lead with file:line", se.Error())
	}
	if _, err := Parse("y.go", []byte("not go at all")); err == nil {
		t.Fatal("a file without a package clause parsed")
	}
}

func TestCutHops(t *testing.T) {
	f, err := Parse("a.go", []byte("package p\n\nimport (\n\t\"fmt\"\n\tx \"m/internal/x\"\n)\n\nfunc Rule() { fmt.Println(helper(), x.V, local) }\n\nvar local = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Imports(); !slices.Equal(got, []string{"fmt", "m/internal/x"}) {
		t.Errorf("imports %q", got)
	}
	if got := f.Leans(); !slices.Contains(got, "helper") || slices.Contains(got, "local") || slices.Contains(got, "fmt") {
		t.Errorf("leans %q: want helper, not the file's own names or its imports", got)
	}
	if got := f.Declares(); !slices.Equal(got, []string{"Rule", "local"}) {
		t.Errorf("declares %q", got)
	}
}

func TestComments(t *testing.T) {
	f, err := Parse("a.go", []byte("package p\n\n// one\nvar v = 1 /* two\nthree */\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := f.Comments()
	want := []Comment{{3, "// one"}, {4, "/* two"}, {5, "three */"}}
	if !slices.Equal(got, want) {
		t.Fatalf("comments %v, want %v", got, want)
	}
}

func TestModulePath(t *testing.T) {
	cases := []struct{ in, want, err string }{
		{"module example.com/m\n\ngo 1.22\n", "example.com/m", ""},
		{"// a comment\nmodule \"example.com/q\" // trailing\n", "example.com/q", ""},
		{"go 1.22\nmodule\tx/y\n", "x/y", ""},
		{"modulex y\n", "", "no module directive"},
		{"go 1.22\n", "", "no module directive"},
		{"module a b\n", "", "go.mod:1: malformed"},
		{"module \"unterminated\n", "", "go.mod:1: malformed"},
		{"module\n", "", "go.mod:1: malformed"},
	}
	for _, tc := range cases {
		got, err := ModulePath("go.mod", []byte(tc.in))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// FuzzLiterals: any bytes either refuse with a located SyntaxError or read
// without panicking, and every interpreted literal the file spells alone on
// a var line is among the values read.
func FuzzLiterals(f *testing.F) {
	f.Add([]byte("package p\n\nconst a = \"x\" + `y`\nvar v = a + \"z\"\n"))
	f.Add([]byte("package p\n\nconst (\n\ta = b\n\tb = a\n)\n"))
	f.Add([]byte("package p\n\nvar v = string(\"q\") + len(\"r\")\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("f.go", src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Path != "f.go" {
				t.Fatalf("refusal %v is not a located SyntaxError", err)
			}
			return
		}
		p := NewPackage("m/p", []*File{file})
		if _, err := Literals(file, p, func(string) (*Package, error) { return p, nil }); err != nil {
			t.Fatalf("a resolver that never fails failed: %v", err)
		}
		_ = file.Comments()
		_, _ = ModulePath("go.mod", src)
	})
}

func FuzzModulePath(f *testing.F) {
	f.Add([]byte("module a/b\n"))
	f.Add([]byte("module \"a b\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ModulePath("go.mod", data)
		if err == nil && (got == "" || strings.ContainsAny(got, " \t\"`()")) {
			t.Fatalf("accepted %q from %q", got, data)
		}
	})
}
