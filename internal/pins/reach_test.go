package pins

import (
	"go/build"
	"os"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/walk"
)

// modulePath is the import path of this module.
const modulePath = "github.com/gate-sdk/gates"

// unlinked names every package under internal/ the binary is allowed not
// to import, each with why. A package that is neither linked into
// cmd/gates nor listed here is dead code: wire it or remove it.
var unlinked = map[string]string{
	"internal/ciskip":        "a test helper: how the end-to-end tests skip for a missing tool (a failure under CI)",
	"internal/gate/gatetest": "a test helper the gates' unit tests import",
	"internal/kitgen":        "the generator `make kit-manifest` runs; not part of the binary",
	"internal/pins":          "these architecture tests: no production code",
	"internal/shellkit":      "tests of the kit's shell surface: no production code",
	"internal/testenv":       "a test helper: the one sanctioned write of the process environment",
}

// linkedFrom answers every module-local package the package at importPath
// imports, directly or not, as module-relative paths; the build context's
// constraints apply, so a file built only under a tag (a tools pin) links
// nothing.
func linkedFrom(t *testing.T, importPath string) map[string]bool {
	t.Helper()
	seen := map[string]bool{}
	var visit func(string)
	visit = func(ip string) {
		rel := strings.TrimPrefix(strings.TrimPrefix(ip, modulePath), "/")
		if seen[rel] {
			return
		}
		seen[rel] = true
		pkg, err := build.Default.ImportDir(walk.Child(moduleRoot, rel), 0)
		if err != nil {
			t.Fatalf("read package %s: %v", rel, err)
		}
		for _, imp := range pkg.Imports {
			if imp == modulePath || strings.HasPrefix(imp, modulePath+"/") {
				visit(imp)
			}
		}
	}
	visit(importPath)
	return seen
}

// internalPackages answers every directory under internal/ holding a
// non-test Go file, module-relative, skipping what the go tool skips.
func internalPackages(t *testing.T) []string {
	t.Helper()
	var out []string
	var visit func(rel string)
	visit = func(rel string) {
		ents, err := os.ReadDir(walk.Child(moduleRoot, rel))
		if err != nil {
			t.Fatal(err)
		}
		has := false
		for _, e := range ents {
			n := e.Name()
			switch {
			case e.IsDir():
				if n == "testdata" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
					continue
				}
				if _, err := os.Stat(walk.Child(walk.Child(moduleRoot, path.Join(rel, n)), "go.mod")); err == nil {
					continue
				}
				visit(path.Join(rel, n))
			case strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go"):
				has = true
			}
		}
		if has {
			out = append(out, rel)
		}
	}
	visit("internal")
	sort.Strings(out)
	return out
}

// TestEveryInternalPackageIsLinked holds that `go list -deps ./cmd/gates`
// covers every non-test package under internal/ but the listed exceptions,
// and that every exception is still a package the binary does not link.
func TestEveryInternalPackageIsLinked(t *testing.T) {
	linked := linkedFrom(t, modulePath+"/cmd/gates")
	pkgs := internalPackages(t)
	present := map[string]bool{}
	for _, p := range pkgs {
		present[p] = true
		_, excused := unlinked[p]
		switch {
		case !linked[p] && !excused:
			t.Errorf("%s: no package of cmd/gates imports it; wire it where it is used, remove it, or list it in unlinked with why", p)
		case linked[p] && excused:
			t.Errorf("%s: listed in unlinked, but cmd/gates links it; drop the row", p)
		}
	}
	for p := range unlinked {
		if !present[p] {
			t.Errorf("unlinked lists %s, which holds no non-test Go file", p)
		}
	}
	if len(pkgs) < 10 || !linked["internal/cli"] {
		t.Fatalf("the walk found %d packages and cli linked=%v; the module root is not where it should be", len(pkgs), linked["internal/cli"])
	}
}
