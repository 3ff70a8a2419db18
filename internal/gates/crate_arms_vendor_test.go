package gates

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// assertion H: an ignored vendor/ directory, which go builds from in
// place of the module cache, is in no stamp: a tree holding one never
// answers from the green record.
func TestCrateArmsIgnoredVendorIsNeverCached(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	dir := crateRepo(t)
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".tmp/\nvendor/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "add", ".gitignore")
	knobs := gatetest.Knobs{"GATE_SDK_NATIVE_CRATE": ".", "GATE_SDK_TMP_DIR": ".tmp"}
	env := map[string]string{"PATH": os.Getenv("PATH")}
	run := func() gatetest.Run {
		t.Helper()
		return gatetest.Exec(checkCrateArms, "check-crate-arms", dir, &gatetest.Tree{}, knobs, env)
	}
	run()
	if again := run(); !strings.Contains(again.Stdout, "cached") {
		t.Fatalf("a warm tree missed its record: %q", again.Stdout)
	}
	if err := os.MkdirAll(filepath.Join(dir, "vendor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "vendor", "modules.txt"), []byte("# example.invalid/dep v1.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := run(); strings.Contains(v.Stdout, "cached") {
		t.Fatalf("an ignored vendor/ directory answered from the record: %d %q", v.Code, v.Stdout)
	}
}
