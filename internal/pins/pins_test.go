package pins

import (
	"strings"
	"testing"
)

func loadModule(t *testing.T) []*srcFile {
	t.Helper()
	files, err := moduleFiles()
	if err != nil {
		t.Fatal(err)
	}
	// The scan must reach the packages it guards, or it proves nothing.
	seen := map[string]bool{}
	for _, f := range files {
		seen[f.path] = true
	}
	for _, must := range []string{"internal/spawn/spawn.go", "internal/walk/walk.go", "internal/repo/repo.go", "internal/pins/scan_test.go"} {
		if !seen[must] {
			t.Fatalf("module scan missed %s (%d files)", must, len(files))
		}
	}
	return files
}

func report(t *testing.T, route string, found []finding) {
	t.Helper()
	for _, f := range found {
		t.Errorf("%s", f)
	}
	if len(found) > 0 {
		t.Logf("route: %s", route)
	}
}

// assertion A: no shipped file outside internal/spawn starts a process.
func TestSpawnOnlyInSpawn(t *testing.T) {
	report(t, "start processes through internal/spawn (spawn.Run, RunMerged, RunStreamed)", run(loadModule(t), pinSpawn))
}

// assertion B: no shipped file outside internal/walk walks a tree, reads
// the working directory or tests absoluteness.
func TestWalkOnlyInWalk(t *testing.T) {
	report(t, "use walk.Walk, walk.Cwd, walk.PathRoot, walk.Canonicalize", run(loadModule(t), pinWalk))
	report(t, "read git-dir state through walk.ReadConfig", run(loadModule(t), pinStateRead))
}

// assertion C: nothing, tests included, changes the working directory.
func TestNoChdir(t *testing.T) {
	report(t, "set spawn.Cmd.Dir on the child; never enter a directory", run(loadModule(t), pinChdir))
}

// assertion D: only the one helper file writes the environment.
func TestSetenvOnlyInHelper(t *testing.T) {
	report(t, "pass spawn.Cmd.Env or a lookup function; only "+setenvHelper+" may write the environment", run(loadModule(t), pinSetenv))
}

// assertion E: only internal/spawn reads the binary's own path.
func TestExecutableOnlyInSpawn(t *testing.T) {
	report(t, "use spawn.SelfImage or spawn.SelfPath", run(loadModule(t), pinExecutable))
}

// assertion F: a tracked listing is read NUL-terminated outside
// internal/repo, and every roster row still names its one token.
func TestListingsAreNulTerminated(t *testing.T) {
	files := loadModule(t)
	report(t, "use repo.Tracked, or pass -z", run(files, pinLsFiles))
	for path, reason := range lsFilesRoster {
		n := -1
		for _, f := range files {
			if f.path == path {
				n = len(lsFilesTokens(f))
			}
		}
		if n != 1 {
			t.Errorf("roster row %s (%s) names %d line-form tokens, want 1", path, reason, n)
		}
	}
}

// assertion G: no shipped file outside internal/walk asks git where a
// repository is.
func TestProbesOnlyInWalk(t *testing.T) {
	report(t, "ask walk.ToplevelOpt or walk.Locate; git's probes misread refused and skipped repositories", run(loadModule(t), pinProbes))
}

// Every pin can fail: each runs over an in-memory offender and must red,
// and over the same source where it is allowed and must stay green.
func TestPinsCanFail(t *testing.T) {
	const head = "package x\n\n"
	cases := []struct {
		name  string
		pin   func(*srcFile) []finding
		path  string
		src   string
		wants int
	}{
		{"exec.Command", pinSpawn, "internal/gates/x.go", head + `import "os/exec"
func f() { exec.Command("git").Run() }`, 1},
		{"aliased exec.CommandContext", pinSpawn, "internal/gates/x.go", head + `import (
	"context"
	ex "os/exec"
)
func f() { ex.CommandContext(context.Background(), "git") }`, 1},
		{"exec.Cmd literal", pinSpawn, "cmd/gates/x.go", head + `import "os/exec"
var c = &exec.Cmd{Path: "/bin/sh"}`, 1},
		{"os.StartProcess", pinSpawn, "internal/x/x.go", head + `import "os"
func f() { os.StartProcess("/bin/sh", nil, nil) }`, 1},
		{"syscall.ForkExec and Exec", pinSpawn, "internal/x/x.go", head + `import "syscall"
func f() { syscall.ForkExec("/bin/sh", nil, nil); syscall.Exec("/bin/sh", nil, nil) }`, 2},
		{"syscall.Exec with an empty valve", pinSpawn, "internal/x/x.go", head + `import "syscall"
func f() {
	// spawn-funnel-exempt:
	syscall.Exec("/bin/sh", nil, nil)
}`, 1},
		{"syscall.Exec valved", pinSpawn, "internal/x/x.go", head + `import "syscall"
func f() {
	// spawn-funnel-exempt: replaces this process image; nothing returns
	syscall.Exec("/bin/sh", nil, nil)
}`, 0},
		{"exec inside spawn", pinSpawn, "internal/spawn/x.go", head + `import "os/exec"
func f() { exec.Command("git") }`, 0},
		{"exec in a test", pinSpawn, "internal/gates/x_test.go", head + `import "os/exec"
func f() { exec.Command("git") }`, 0},
		{"a local Command is no spawn", pinSpawn, "internal/x/x.go", head + `type e struct{}
func (e) Command() {}
func f() { var exec e; exec.Command() }`, 0},

		{"filepath.WalkDir", pinWalk, "internal/gates/x.go", head + `import "path/filepath"
func f() { filepath.WalkDir(".", nil) }`, 1},
		{"fs.WalkDir and filepath.Walk", pinWalk, "internal/gates/x.go", head + `import (
	"io/fs"
	"path/filepath"
)
func f() { fs.WalkDir(nil, ".", nil); filepath.Walk(".", nil) }`, 2},
		{"os.Getwd, Abs, EvalSymlinks, IsAbs", pinWalk, "internal/gates/x.go", head + `import (
	"os"
	"path"
	"path/filepath"
)
func f() { os.Getwd(); filepath.Abs("x"); filepath.EvalSymlinks("x"); filepath.IsAbs("x"); path.IsAbs("x") }`, 5},
		{"state read", pinStateRead, "internal/githook/x.go", head + `import "os"
func f() { os.ReadFile("x") }`, 1},
		{"state read elsewhere", pinStateRead, "internal/gates/x.go", head + `import "os"
func f() { os.ReadFile("x") }`, 0},
		{"walk inside walk", pinWalk, "internal/walk/x.go", head + `import "path/filepath"
func f() { filepath.WalkDir(".", nil) }`, 0},

		{"os.Chdir", pinChdir, "internal/x/x.go", head + `import "os"
func f() { os.Chdir("/") }`, 1},
		{"t.Chdir in a test", pinChdir, "internal/x/x_test.go", head + `import "testing"
func TestX(t *testing.T) { t.Chdir("/") }`, 1},
		{"syscall.Chdir in walk", pinChdir, "internal/walk/x.go", head + `import "syscall"
func f() { syscall.Chdir("/") }`, 1},
		{"a comment naming Chdir", pinChdir, "internal/x/x.go", head + `// os.Chdir is banned
func f() {}`, 0},

		{"os.Setenv", pinSetenv, "internal/x/x.go", head + `import "os"
func f() { os.Setenv("A", "1"); os.Unsetenv("A"); os.Clearenv() }`, 3},
		{"t.Setenv on a renamed test var", pinSetenv, "internal/x/x_test.go", head + `import "testing"
func TestX(tt *testing.T) { tt.Setenv("A", "1") }`, 1},
		{"Setenv in the helper", pinSetenv, setenvHelper, head + `import "os"
func f() { os.Setenv("A", "1") }`, 0},
		{"a fake env's Setenv", pinSetenv, "internal/knob/x_test.go", head + `type fake map[string]string
func (f fake) Setenv(k, v string) { f[k] = v }
func g() { env := fake{}; env.Setenv("A", "1") }`, 0},

		{"os.Executable", pinExecutable, "internal/x/x_test.go", head + `import "os"
func f() { os.Executable() }`, 1},
		{"os.Executable in spawn", pinExecutable, "internal/spawn/x.go", head + `import "os"
func f() { os.Executable() }`, 0},

		{"line-form ls-files", pinLsFiles, "internal/gates/x.go", head + `func run(args ...string) {}
func f() { run("ls-files", "--", "*.md") }`, 1},
		{"line-form ls-files in an argv literal", pinLsFiles, "internal/gates/x_test.go", head + `var argv = []string{"git", "ls-files", "-s"}`, 1},
		{"NUL-form ls-files", pinLsFiles, "internal/gates/x.go", head + `func run(args ...string) {}
func f() { run("ls-files", "-z", "--", "*.md") }`, 0},
		{"probe ls-files", pinLsFiles, "internal/gates/x.go", head + `var argv = []string{"ls-files", "--error-unmatch", "x"}`, 0},
		{"ls-files in repo", pinLsFiles, "internal/repo/x.go", head + `var argv = []string{"ls-files"}`, 0},

		{"rev-parse probe", pinProbes, "internal/gates/x.go", head + `var argv = []string{"rev-parse", "--is-inside-work-tree"}`, 1},
		{"rev-parse in walk", pinProbes, "internal/walk/x.go", head + `var argv = []string{"rev-parse", "--show-toplevel"}`, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sf, err := parseSource(tc.path, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			got := tc.pin(sf)
			if len(got) != tc.wants {
				t.Fatalf("%d findings, want %d: %v", len(got), tc.wants, got)
			}
			for _, f := range got {
				if f.line < 3 || !strings.HasPrefix(f.String(), tc.path+":") {
					t.Errorf("finding %q does not locate its site", f)
				}
			}
		})
	}
}

// The roster's vanished-row check can fail too.
func TestLsFilesRosterRowCounts(t *testing.T) {
	one, _ := parseSource("internal/x/a.go", []byte("package x\nvar a = []string{\"ls-files\"}\n"))
	none, _ := parseSource("internal/x/b.go", []byte("package x\n"))
	if n := len(lsFilesTokens(one)); n != 1 {
		t.Fatalf("tokens = %d", n)
	}
	if n := len(lsFilesTokens(none)); n != 0 {
		t.Fatalf("tokens = %d", n)
	}
	lsFilesRoster["internal/x/a.go"] = "test row"
	defer delete(lsFilesRoster, "internal/x/a.go")
	if got := pinLsFiles(one); len(got) != 0 {
		t.Fatalf("a rostered token still reds: %v", got)
	}
}
