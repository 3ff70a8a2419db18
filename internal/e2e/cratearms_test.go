package e2e

import (
	"strings"
	"testing"
)

// crateScratch is a repository holding a module with one passing and one
// failing test, and nothing else for check-crate-arms to run (no kit, so
// no fixture suite).
func crateScratch(t *testing.T) *scratch {
	s := newScratch(t)
	s.write(".gitignore", ".tmp/\nhidden/\n*_local_test.go\n", 0o644)
	s.write("go.mod", "module example.invalid/crate\n\ngo 1.22\n", 0o644)
	s.write("c.go", "// Package crate is half green.\npackage crate\n\n// One answers 1.\nfunc One() int { return 1 }\n", 0o644)
	s.write("c_test.go", "package crate\n\nimport \"testing\"\n\nfunc TestGreen(t *testing.T) {\n\tif One() != 1 {\n\t\tt.Fatal(\"not one\")\n\t}\n}\n\nfunc TestRed(t *testing.T) { t.Fatal(\"a committed test that fails\") }\n", 0o644)
	s.git("add", "-A")
	s.git("commit", "-q", "--no-verify", "-m", "test: a module")
	return s
}

// TestCrateArmsFilteredRunNeverVouchesForAPlainOne: a run under a GOFLAGS
// that filters the failing test out (-run, -skip) or -short is green and
// may keep its record, but a later plain run answers from no such record:
// it runs the arms and reds on the committed failing test.
func TestCrateArmsFilteredRunNeverVouchesForAPlainOne(t *testing.T) {
	t.Parallel()
	for _, flags := range []string{"-run=TestGreen", "-skip=TestRed"} {
		s := crateScratch(t)
		code, out := s.run([]string{"GOFLAGS=" + flags}, binPath, "check-crate-arms")
		if code != 0 || !strings.Contains(out, "CRATE-ARMS: clean (go vet, go test and 0 fixture suites green") {
			t.Fatalf("GOFLAGS=%s: exit %d\n%s", flags, code, out)
		}
		code, out = s.run(nil, binPath, "check-crate-arms")
		if code != 1 || strings.Contains(out, "cached") || !strings.Contains(out, "a committed test that fails") {
			t.Fatalf("a plain run after GOFLAGS=%s answered exit %d:\n%s", flags, code, out)
		}
	}
}

// TestCrateArmsIgnoredTestIsNeverCached: a green tree's record does not
// answer once go test ./... would compile a file git ignores — a package
// in an ignored directory, or an ignored test file inside a tracked
// package — since no stamp can see it.
func TestCrateArmsIgnoredTestIsNeverCached(t *testing.T) {
	t.Parallel()
	s := crateScratch(t)
	s.write("c_test.go", "package crate\n\nimport \"testing\"\n\nfunc TestGreen(t *testing.T) {\n\tif One() != 1 {\n\t\tt.Fatal(\"not one\")\n\t}\n}\n", 0o644)
	s.git("add", "-A")
	s.git("commit", "-q", "--no-verify", "-m", "test: green")
	for i, want := range []string{"0 fixture suites green", "clean (cached: "} {
		if code, out := s.run(nil, binPath, "check-crate-arms"); code != 0 || !strings.Contains(out, want) {
			t.Fatalf("green run %d: exit %d\n%s", i+1, code, out)
		}
	}
	for _, f := range []string{"hidden/h_test.go", "c_local_test.go"} {
		pkg := "crate"
		if strings.HasPrefix(f, "hidden/") {
			pkg = "hidden"
		}
		s.write(f, "package "+pkg+"\n\nimport \"testing\"\n\nfunc TestIgnored(t *testing.T) { t.Fatal(\"an ignored test that fails\") }\n", 0o644)
		if st := s.git("status", "--porcelain"); st != "" {
			t.Fatalf("%s is not ignored: %q", f, st)
		}
		code, out := s.run(nil, binPath, "check-crate-arms")
		if code != 1 || strings.Contains(out, "cached") || !strings.Contains(out, "an ignored test that fails") {
			t.Fatalf("an ignored failing %s: exit %d\n%s", f, code, out)
		}
		s.run(nil, "rm", "-rf", s.dir+"/"+f)
	}
}
