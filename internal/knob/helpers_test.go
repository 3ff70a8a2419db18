package knob

import (
	"errors"
	"os"
	"path"
	"strings"
	"testing"
)

// env is an injected environment.
type env map[string]string

func (e env) lookup(name string) (string, bool) { v, ok := e[name]; return v, ok }

func (e env) environ() []string {
	var out []string
	for k, v := range e {
		out = append(out, k+"="+v)
	}
	return out
}

// absAgainst stands in for walk.AbsAgainst in tests (POSIX spellings only).
func absAgainst(base, p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	return base + "/" + p
}

// testTables is gate-sdk's embedded table plus the named test kits.
func testTables(t *testing.T, kits ...string) []*Table {
	t.Helper()
	tables, err := DefaultTables()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range kits {
		data, err := os.ReadFile("../../testdata/knob/" + k + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		tb, err := ParseTable(k, data)
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, tb)
	}
	return tables
}

func allTestKits() []string { return []string{"canon-kit", "evidence-kit", "drift-kit"} }

// tree writes files (relative path -> content) under a fresh directory.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := dir + "/" + rel
		if err := os.MkdirAll(path.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func load(t *testing.T, dir string, e env) *Set {
	t.Helper()
	s, err := Load(Options{Dir: dir, Lookup: e.lookup, Environ: e.environ, Tables: testTables(t, allTestKits()...), AbsAgainst: absAgainst})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// findingsOf flattens an error into its findings.
func findingsOf(err error) []*Finding {
	var ce *ConfigError
	if errors.As(err, &ce) {
		return ce.Findings
	}
	var f *Finding
	if errors.As(err, &f) {
		return []*Finding{f}
	}
	return nil
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
