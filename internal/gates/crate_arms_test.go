package gates

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// crateRepo makes a repository holding a minimal green module.
func crateRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":      "module example.invalid/m\n\ngo 1.22\n",
		"m.go":        "// Package m is green.\npackage m\n\n// One answers 1.\nfunc One() int { return 1 }\n",
		"m_test.go":   "package m\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) {\n\tif One() != 1 {\n\t\tt.Fatal(\"not one\")\n\t}\n}\n",
		".gitignore":  ".tmp/\n",
		"scripts/.ok": "",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
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

// TestCrateArmsCache holds the record's rule: a green run writes it, the
// same key answers from it, an edit misses, and an untracked file under
// the module never hits.
func TestCrateArmsCache(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	dir := crateRepo(t)
	knobs := gatetest.Knobs{"GATE_SDK_NATIVE_CRATE": ".", "GATE_SDK_TMP_DIR": ".tmp"}
	env := map[string]string{"PATH": os.Getenv("PATH")}
	run := func() gatetest.Run {
		t.Helper()
		return gatetest.Exec(checkCrateArms, "check-crate-arms", dir, &gatetest.Tree{}, knobs, env)
	}
	first := run()
	if first.Code != 0 || strings.Contains(first.Stdout, "cached") {
		t.Fatalf("first run: %d %q %q", first.Code, first.Stdout, first.Stderr)
	}
	if again := run(); again.Code != 0 || !strings.Contains(again.Stdout, "CRATE-ARMS: clean (cached: ") {
		t.Fatalf("second run did not answer from the record: %q", again.Stdout)
	}
	// A content edit moves the stamp: the arms run again, and red.
	if err := os.WriteFile(filepath.Join(dir, "m.go"), []byte("// Package m is red.\npackage m\n\n// One answers 2.\nfunc One() int { return 2 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if red := run(); red.Code != 1 || !strings.Contains(red.Stdout, "go test -count=1 -vet=off -timeout=60m ./... failed") {
		t.Fatalf("an edit answered %d %q", red.Code, red.Stdout)
	}
	if err := os.WriteFile(filepath.Join(dir, "m.go"), []byte("// Package m is green.\npackage m\n\n// One answers 1.\nfunc One() int { return 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if back := run(); !strings.Contains(back.Stdout, "cached") {
		t.Fatalf("the restored tree missed its record: %q", back.Stdout)
	}
	// (A run under another GOFLAGS, a filtered or -short run, is another
	// key: the arms read this process's environment, so the end-to-end
	// TestCrateArmsFilteredRunNeverVouchesForAPlainOne holds it.)
	// A failing test in an ignored directory: go test ./... compiles and
	// runs it, the stamp cannot see it, so the record must not answer.
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".tmp/\nhidden/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "add", ".gitignore")
	run() // the edited .gitignore moved the stamp: record the new tree
	if again := run(); !strings.Contains(again.Stdout, "cached") {
		t.Fatalf("a warm tree missed: %q", again.Stdout)
	}
	if err := os.MkdirAll(filepath.Join(dir, "hidden"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hidden", "h_test.go"), []byte("package hidden\n\nimport \"testing\"\n\nfunc TestNo(t *testing.T) { t.Fatal(\"red\") }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if hid := run(); hid.Code != 1 || strings.Contains(hid.Stdout, "cached") {
		t.Fatalf("a failing test in an ignored directory answered %d %q", hid.Code, hid.Stdout)
	}
	os.RemoveAll(filepath.Join(dir, "hidden"))
	// An untracked file: never from the record.
	if err := os.WriteFile(filepath.Join(dir, "extra.go"), []byte("package m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if un := run(); un.Code != 0 || strings.Contains(un.Stdout, "cached") {
		t.Fatalf("an untracked file hit the cache: %q", un.Stdout)
	}
	// No module: clean, naming it.
	if none := gatetest.Exec(checkCrateArms, "check-crate-arms", t.TempDir(), &gatetest.Tree{}, knobs, env); none.Code != 0 || !strings.Contains(none.Stdout, "no Go module at .") {
		t.Fatalf("no module: %d %q", none.Code, none.Stdout)
	}
}

// TestCrateArmsReportsEachStage: with a progress channel, each arm that
// ran is reported once, in order, with its time, and none of it reaches
// the gate's output; a run answered from the record reports no stage.
func TestCrateArmsReportsEachStage(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	dir := crateRepo(t)
	var stages []string
	var out, errb strings.Builder
	c := &gate.Context{
		Name: "check-crate-arms", Dir: dir, GatesDir: "scripts",
		Env:      func(k string) (string, bool) { return os.Getenv("PATH"), k == "PATH" },
		Knobs:    gatetest.Knobs{"GATE_SDK_NATIVE_CRATE": ".", "GATE_SDK_TMP_DIR": ".tmp"},
		Tree:     &gatetest.Tree{},
		Out:      &out,
		Err:      &errb,
		Progress: func(stage string, took time.Duration) { stages = append(stages, stage) },
	}
	if code := checkCrateArms(c); code != 0 {
		t.Fatalf("exit %d %q %q", code, out.String(), errb.String())
	}
	// The arms run side by side, so they end in any order; each is
	// reported once, and go test's package lines come before its own.
	seen := map[string]int{}
	for i, s := range stages {
		seen[s] = i + 1
	}
	for _, want := range []string{"go vet ./...", "go test ./...", "fixture suites", "go test: ok example.invalid/m"} {
		if seen[want] == 0 {
			t.Errorf("stages %q lack %q", stages, want)
		}
	}
	if len(stages) != 4 || seen["go test: ok example.invalid/m"] > seen["go test ./..."] {
		t.Errorf("stages %q: want each arm once and the package line before its arm's", stages)
	}
	if strings.Count(out.String(), "\n") != 1 || errb.Len() != 0 {
		t.Errorf("the stages leaked into the output: stdout %q stderr %q", out.String(), errb.String())
	}
	stages, out = nil, strings.Builder{}
	if code := checkCrateArms(c); code != 0 || len(stages) != 0 || !strings.Contains(out.String(), "cached") {
		t.Errorf("a cached run: exit %d stages %q stdout %q", code, stages, out.String())
	}
}

// assertion G: the record's key carries the arms' environment: a run under
// GOFLAGS=-short (or any value the tests can see) is another key, while
// what only says where a shell, make or git started the run is not.
func TestCrateArmsKeyHoldsTheEnvironment(t *testing.T) {
	plain := []string{"PATH=/bin", "HOME=/h"}
	if envDigest(plain) == envDigest(append(plain, "GOFLAGS=-short")) {
		t.Error("GOFLAGS=-short left the key unchanged")
	}
	if envDigest(plain) == envDigest(append(plain, "CI=true")) {
		t.Error("CI=true left the key unchanged")
	}
	noise := append(append([]string(nil), plain...), "SHLVL=3", "PWD=/x", "MAKELEVEL=1", "GIT_INDEX_FILE=/i", "GATE_SDK_NATIVE_BIN=/b")
	if envDigest(plain) != envDigest(noise) {
		t.Error("shell, make or git bookkeeping moved the key")
	}
	if envDigest([]string{"A=1", "B=2"}) != envDigest([]string{"B=2", "A=1"}) {
		t.Error("the key depends on the environment's order")
	}
}
