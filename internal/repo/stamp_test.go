package repo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shellStamp runs lib/gate.sh's gate_native_source_stamp over dir.
func shellStamp(t *testing.T, dir string) (string, error) {
	t.Helper()
	lib, err := filepath.Abs("../../kits/gate-sdk/lib/gate.sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", `. "$1" && gate_native_source_stamp "$2"`, "stamp", lib, dir)
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

func stampRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	for name, body := range map[string]string{
		"go.mod":                "module example.invalid/m\n",
		"a.go":                  "package m\n",
		"sub/b b.go":            "package sub\n",
		"naïve/\"q\\uote\".txt": "quoted by git\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, dir, "add", "-A")
	return dir
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestSourceStampHoldersAgree holds the Go and the shell holder of the
// stamp equal, on a scratch module whose names git quotes and on this
// repository itself.
func TestSourceStampHoldersAgree(t *testing.T) {
	for _, dir := range []string{stampRepo(t), "../.."} {
		goSide, err := SourceStamp(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		shSide, err := shellStamp(t, dir)
		if err != nil {
			t.Fatalf("%s: shell holder: %v", dir, err)
		}
		if goSide != shSide || len(goSide) < 40 {
			t.Errorf("%s: Go stamp %q, shell stamp %q", dir, goSide, shSide)
		}
	}
}

// TestSourceStampMoves pins what moves the stamp: a content edit without
// staging, a new file only once staged; an untracked file never.
func TestSourceStampMoves(t *testing.T) {
	dir := stampRepo(t)
	stamp := func() string {
		t.Helper()
		s, err := SourceStamp(dir)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	base := stamp()
	if again := stamp(); again != base {
		t.Fatalf("stamp not stable: %s then %s", base, again)
	}
	if err := os.WriteFile(filepath.Join(dir, "new.go"), []byte("package m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := stamp(); s != base {
		t.Errorf("an untracked file moved the stamp")
	}
	gitIn(t, dir, "add", "new.go")
	staged := stamp()
	if staged == base {
		t.Errorf("staging a new file did not move the stamp")
	}
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package m // edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := stamp(); s == staged {
		t.Errorf("an unstaged content edit did not move the stamp")
	}
	// A tracked file missing from the worktree cannot be hashed: refuse.
	if err := os.Remove(filepath.Join(dir, "a.go")); err != nil {
		t.Fatal(err)
	}
	if s, err := SourceStamp(dir); err == nil {
		t.Errorf("a deleted tracked file stamped %s", s)
	}
	if _, err := shellStamp(t, dir); err == nil {
		t.Errorf("the shell holder stamped a tree with a deleted tracked file")
	}
}

// TestStampSymbolIsTheMakefiles holds the Makefile's LDFLAGS to the symbol
// the Go side names.
func TestStampSymbolIsTheMakefiles(t *testing.T) {
	data, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "-X "+StampSymbol+"=$(STAMP)") {
		t.Errorf("the Makefile's LDFLAGS does not bake %s", StampSymbol)
	}
}

// TestBuildNamesUntrackedCompiledFiles: the stamp covers tracked files
// only, so the build is refused while it would compile or embed a file git
// does not track (an untracked .go file in the package, an ignored one, an
// untracked embedded file); a tracked set names nothing.
func TestBuildNamesUntrackedCompiledFiles(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	lib, err := filepath.Abs("../../kits/gate-sdk/lib/gate.sh")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.invalid/m\n\ngo 1.22\n")
	write("cmd/gates/main.go", "package main\n\nimport (\n\t_ \"embed\"\n\n\t\"example.invalid/m/lib\"\n)\n\n//go:embed data.txt\nvar data string\n\nfunc main() { lib.F(); _ = data }\n")
	write("cmd/gates/data.txt", "tracked\n")
	write("lib/lib.go", "package lib\n\n// F does nothing.\nfunc F() {}\n")
	write("other/other.go", "package other\n") // not a dependency of cmd/gates
	write(".gitignore", "lib/gen_*.go\n")
	gitIn(t, dir, "add", "-A")
	names := func() string {
		t.Helper()
		out, err := exec.Command("bash", "-c", `. "$1" && gate_native_untracked_compiled "$2"`, "untracked", lib, dir).Output()
		if err != nil {
			t.Fatalf("gate_native_untracked_compiled: %v", err)
		}
		return string(out)
	}
	if got := names(); got != "" {
		t.Fatalf("a tracked build named %q", got)
	}
	write("other/new.go", "package other\n")
	if got := names(); got != "" {
		t.Fatalf("a file outside the build was named: %q", got)
	}
	write("cmd/gates/extra.go", "package main\n")
	write("lib/gen_x.go", "package lib\n")
	if got, want := names(), "lib/gen_x.go\ncmd/gates/extra.go\n"; got != want { // go lists dependencies first
		t.Fatalf("named %q, want %q", got, want)
	}
	os.Remove(filepath.Join(dir, "cmd/gates/extra.go"))
	os.Remove(filepath.Join(dir, "lib/gen_x.go"))
	gitIn(t, dir, "rm", "-q", "--cached", "cmd/gates/data.txt")
	if got, want := names(), "cmd/gates/data.txt\n"; got != want {
		t.Fatalf("an untracked embedded file: named %q, want %q", got, want)
	}
}

// TestMakeBuildRefusesUntrackedCompiledFiles pins that make build and the
// kit's build script both ask the question above before they build.
func TestMakeBuildRefusesUntrackedCompiledFiles(t *testing.T) {
	for _, f := range []string{"../../Makefile", "../../kits/gate-sdk/bin/build-native.sh"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "gate_native_untracked_compiled") {
			t.Errorf("%s builds without asking gate_native_untracked_compiled", f)
		}
	}
}

// StampLDFlag is the -X flag naming the stamp symbol and the tree's stamp;
// where no stamp can be made, no flag is.
func TestStampLDFlag(t *testing.T) {
	dir := stampRepo(t)
	stamp, err := SourceStamp(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := StampLDFlag(dir); err != nil || got != "-X "+StampSymbol+"="+stamp {
		t.Errorf("StampLDFlag = %q %v", got, err)
	}
	if got, err := StampLDFlag(physTemp(t)); err == nil || got != "" {
		t.Errorf("outside a repository: %q %v", got, err)
	}
}
