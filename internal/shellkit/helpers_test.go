package shellkit

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/repo"

	"github.com/gate-sdk/gates/internal/walk"
)

// suite is what TestMain prepares once per run: the module root and a gates
// binary built from it (or the reason it could not be built).
type suite struct {
	root     string // module root, absolute
	bin      string // built gates binary, absolute
	buildErr error
	scratch  string // parent of the build output, removed at exit
}

var fx suite

func TestMain(m *testing.M) {
	code := func() int {
		out, err := exec.Command("go", "env", "GOMOD").Output()
		if err != nil {
			fmt.Fprintf(os.Stderr, "shellkit: go env GOMOD: %v\n", err)
			return 2
		}
		gomod := strings.TrimSpace(string(out))
		if gomod == "" || gomod == os.DevNull {
			fmt.Fprintln(os.Stderr, "shellkit: not inside the gates module")
			return 2
		}
		fx.root = filepath.Dir(gomod)
		fx.scratch, err = os.MkdirTemp("", "shellkit-bin-")
		if err != nil {
			fmt.Fprintf(os.Stderr, "shellkit: %v\n", err)
			return 2
		}
		defer os.RemoveAll(fx.scratch)
		fx.bin = filepath.Join(fx.scratch, "gates")
		ldflag, err := repo.StampLDFlag(fx.root)
		if err != nil {
			fmt.Fprintf(os.Stderr, "shellkit: the source stamp: %v\n", err)
			return 2
		}
		build := exec.Command("go", "build", "-ldflags", ldflag, "-o", fx.bin, "./cmd/gates")
		build.Dir = fx.root
		if msg, err := build.CombinedOutput(); err != nil {
			fx.buildErr = fmt.Errorf("go build ./cmd/gates: %v\n%s", err, msg)
		}
		return m.Run()
	}()
	os.Exit(code)
}

// gatesBin answers the built binary, failing the test when it did not build.
func gatesBin(t *testing.T) string {
	t.Helper()
	if fx.buildErr != nil {
		t.Fatalf("the gates binary is needed here and did not build: %v", fx.buildErr)
	}
	return fx.bin
}

// kitPath answers a path under the repository's kits/gate-sdk.
func kitPath(rel string) string { return filepath.Join(fx.root, "kits", "gate-sdk", rel) }

// physicalTemp answers a fresh temporary directory, physically spelled.
func physicalTemp(t *testing.T) string {
	t.Helper()
	d, err := walk.Canonicalize(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// baseEnv is a child environment carrying none of the invoker's knobs: only
// PATH, a scratch HOME, git kept away from user and system config, and a
// ceiling at ceiling so no repository above the scratch is found.
func baseEnv(t *testing.T, ceiling string) []string {
	t.Helper()
	home := t.TempDir()
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"TMPDIR=" + home,
		"LC_ALL=C.UTF-8",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_AUTHOR_NAME=shellkit", "GIT_AUTHOR_EMAIL=shellkit@example.invalid",
		"GIT_COMMITTER_NAME=shellkit", "GIT_COMMITTER_EMAIL=shellkit@example.invalid",
		"GIT_CEILING_DIRECTORIES=" + ceiling,
	}
}

// result is one finished child.
type result struct {
	stdout, stderr string
	code           int
}

// run runs argv in dir with env (and stdin, when non-empty); a start
// failure fails the test.
func run(t *testing.T, dir string, env []string, stdin string, argv ...string) result {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("start %v: %v", argv, err)
		}
		code = ee.ExitCode()
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// mustRun runs argv and fails the test on a non-zero status.
func mustRun(t *testing.T, dir string, env []string, argv ...string) string {
	t.Helper()
	r := run(t, dir, env, "", argv...)
	if r.code != 0 {
		t.Fatalf("%v in %s: exit %d\nstdout: %s\nstderr: %s", argv, dir, r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// writeFile writes data at path (parents made) with mode.
func writeFile(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

// vendorKit copies the kit's bin/ and lib/ scripts into dst (a gate-sdk
// root), keeping their modes.
func vendorKit(t *testing.T, dst string) {
	t.Helper()
	for _, pat := range []string{"bin/*.sh", "bin/*.ps1", "lib/*.sh"} {
		files, err := filepath.Glob(kitPath(pat))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no kit file matches %s", pat)
		}
		for _, f := range files {
			st, err := os.Stat(f)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dst, filepath.Base(filepath.Dir(f)), filepath.Base(f)), string(data), st.Mode().Perm())
		}
	}
}

// scratchRepo makes a git repository with the kit vendored at gate-sdk/ and
// answers its physical root and a child environment ceilinged above it.
func scratchRepo(t *testing.T) (string, []string) {
	t.Helper()
	parent := physicalTemp(t)
	repo := filepath.Join(parent, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	env := baseEnv(t, parent)
	mustRun(t, repo, env, "git", "init", "-q", ".")
	vendorKit(t, filepath.Join(repo, "gate-sdk"))
	return repo, env
}

// with answers env plus extra entries (later entries win in exec).
func with(env []string, extra ...string) []string {
	return append(append([]string(nil), env...), extra...)
}

// handshakeLine answers the front end's handshake, as every fake gates
// binary must before the front end hands over to it.
const handshakeLine = `if [ "$1" = --handshake ]; then printf 'gates-handshake %s\n' "$2"; exit 0; fi
`

// argvStub is a fake gates binary that reports how it was started: its
// working directory, GATE_SDK_ROOT, each argument and its stdin.
const argvStub = `#!/bin/sh
` + handshakeLine + `printf 'cwd=%s\n' "$(pwd -P)"
printf 'root=%s\n' "${GATE_SDK_ROOT-<unset>}"
for a in "$@"; do printf 'arg=%s\n' "$a"; done
if [ "$1" = --hook ]; then printf 'stdin=%s\n' "$(cat)"; fi
exit 0
`
