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
