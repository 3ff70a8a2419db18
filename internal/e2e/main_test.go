// Package e2e drives the built binary in scratch git repositories, as a
// user would: through the kit's front end, the fixture runner and git.
package e2e

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/repo"
)

// binPath is the binary built once for the whole package.
var binPath string

// moduleRoot is the repository this test runs in.
var moduleRoot string

func TestMain(m *testing.M) {
	// The tests mostly wait on the git, bash and gates children they
	// start, so twice as many in flight as CPUs keeps the CPUs busy; an
	// explicit -parallel wins.
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		flag.Set("test.parallel", strconv.Itoa(2*runtime.GOMAXPROCS(0)))
	}
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: go env GOMOD:", err)
		os.Exit(2)
	}
	moduleRoot = filepath.Dir(strings.TrimSpace(string(out)))
	dir, err := os.MkdirTemp("", "gates-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binPath = filepath.Join(dir, "gates")
	// The binary carries the stamp make build bakes, so the gates that
	// ask it (check-gate-binary-fresh) read it as a real build.
	ldflag, err := repo.StampLDFlag(moduleRoot)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: the source stamp:", err)
		os.Exit(2)
	}
	build := exec.Command("go", "build", "-ldflags", ldflag, "-o", binPath, "./cmd/gates")
	build.Dir = moduleRoot
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // static, as make build links it
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: building the binary failed: %v\n%s", err, out)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	if outcomeTemplate.dir != "" {
		os.RemoveAll(filepath.Dir(outcomeTemplate.dir))
	}
	os.Exit(code)
}

// scratch is a throwaway consumer repository.
type scratch struct {
	t   *testing.T
	dir string
	env []string
}

// newScratch makes a git repository with the kit's front end and library
// vendored at gate-sdk/, as a consumer vendors it.
func newScratch(t *testing.T) *scratch {
	t.Helper()
	dir := t.TempDir()
	s := &scratch{t: t, dir: dir}
	s.env = cleanEnv(dir)
	s.git("init", "-q", "-b", "main")
	for _, sub := range []string{"bin", "lib"} {
		s.copyTree(filepath.Join(moduleRoot, "kits", "gate-sdk", sub), filepath.Join(dir, "gate-sdk", sub))
	}
	return s
}

// cleanEnv is the environment every scratch command runs under: no knob
// of the invoking tree leaks in, git has an identity and stops at dir.
func cleanEnv(dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GATE_SDK_") || strings.HasPrefix(k, "GIT_") || strings.HasSuffix(k, "_KNOB_FILE") {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		// No Stop of a scratch starts a tree watcher that would outlive
		// the test; TestAgentStopTreeWatch turns it on and stops it.
		"GATE_SDK_TREE_WATCH=off",
		"GATE_SDK_NATIVE_BIN="+binPath,
		"GIT_CEILING_DIRECTORIES="+filepath.Dir(dir),
		"GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.invalid",
		"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@example.invalid",
	)
}

func (s *scratch) copyTree(from, to string) {
	s.t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, info.Mode().Perm())
	})
	if err != nil {
		s.t.Fatal(err)
	}
}

func (s *scratch) write(rel, body string, mode os.FileMode) {
	s.t.Helper()
	p := filepath.Join(s.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		s.t.Fatal(err)
	}
}

func (s *scratch) git(args ...string) string {
	s.t.Helper()
	code, out := s.run(nil, "git", args...)
	if code != 0 {
		s.t.Fatalf("git %v: exit %d\n%s", args, code, out)
	}
	return out
}

// run runs a program in the scratch repository with extra env entries and
// answers its exit status and merged output.
func (s *scratch) run(extra []string, name string, args ...string) (int, string) {
	s.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = s.dir
	cmd.Env = append(append([]string(nil), s.env...), extra...)
	var buf bytes.Buffer
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	err := cmd.Run()
	if err == nil {
		return 0, buf.String()
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), buf.String()
	}
	s.t.Fatalf("%s %v: %v", name, args, err)
	return 0, ""
}

// frontEnd runs gate-sdk/bin/run-gates.sh with args.
func (s *scratch) frontEnd(extra []string, args ...string) (int, string) {
	return s.run(extra, "bash", append([]string{"gate-sdk/bin/run-gates.sh"}, args...)...)
}
