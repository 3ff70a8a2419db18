package githook

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// assertion O: the launcher takes the binary for its own bytes only while
// neither file changed since the copy the records describe.
func TestSameBuild(t *testing.T) {
	common := t.TempDir()
	hooks := filepath.Join(common, HooksDirName)
	src := filepath.Join(t.TempDir(), "gates")
	mustWrite(t, src, "the binary\n")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(hooks, PreCommit)
	mustWrite(t, hook, "the binary\n")
	if SameBuild(hook, src) {
		t.Fatal("same build with no records")
	}
	if err := writeRecord(hooks, []string{PreCommit}); err != nil {
		t.Fatal(err)
	}
	if err := writeSource(hooks, src); err != nil {
		t.Fatal(err)
	}
	if !SameBuild(hook, src) {
		t.Fatal("the placed copy of an unchanged binary is not its build")
	}
	if SameBuild(hook, src+"-other") {
		t.Fatal("another path is the recorded source")
	}
	// A rebuilt binary (same name, new bytes or only new stat fields).
	time.Sleep(10 * time.Millisecond)
	mustWrite(t, src, "the binary, rebuilt\n")
	if SameBuild(hook, src) {
		t.Fatal("a rebuilt binary is taken for the hook's bytes")
	}
	// Re-recorded, then the hook itself rewritten.
	if err := writeSource(hooks, src); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, hook, "the binary, rebuilt\n")
	if err := writeRecord(hooks, []string{PreCommit}); err != nil {
		t.Fatal(err)
	}
	if !SameBuild(hook, src) {
		t.Fatal("re-recorded copy is not its build")
	}
	time.Sleep(10 * time.Millisecond)
	mustWrite(t, hook, "tampered\n")
	if SameBuild(hook, src) {
		t.Fatal("a rewritten hook is taken for the binary")
	}
}
