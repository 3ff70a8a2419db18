package githook

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchFiles is the size of the generated repository.
const benchFiles = 20000

// The pre-commit hook over a large repository is timed by internal/bench
// (the acceptance table's hook rows, beside their floors, over a consumer
// gates init vendored); this package times the harness members alone.

func mustWrite(b testing.TB, p, body string) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkCommitAuditNoRefMoved times what the harness pays after a
// shell command that moved no ref, in the same generated repository (hooks
// placed): `gates --hook commit-audit` on PostToolUse, a process start, one
// ref listing and the session's kept tips compared. The guard
// sub-benchmark is commit-guard's PreToolUse on a plain command, the
// placed-hooks check included. Run it with:
// go test -run x -bench CommitAuditNoRefMoved ./internal/githook
func BenchmarkCommitAuditNoRefMoved(b *testing.B) {
	repo, env := benchOutcomeRepo(b)
	bin := filepath.Join(repo, "bin/gates")
	// cpu sums the processor time of every process a call started (the
	// binary and the gits it waited for): on a loaded machine the wall
	// clock measures the queue, this the work.
	var cpu time.Duration
	hook := func(member, event string) string {
		payload := fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":%q,"tool_name":"Bash","tool_input":{"command":"ls"}}`, repo, event)
		cmd := exec.Command(bin, "--hook", member)
		cmd.Dir, cmd.Env = repo, env
		cmd.Stdin = strings.NewReader(payload)
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("--hook %s: %v\n%s", member, err, out)
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		return string(out)
	}
	report := func(b *testing.B, start time.Time) {
		b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/call")
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/call")
	}
	if out := hook("commit-audit", "PreToolUse"); out != "" {
		b.Fatalf("PreToolUse said %q", out)
	}
	// The floor: the binary started on an arm that reads nothing, and the
	// one ref listing, so a loaded machine's figure still reads as a ratio.
	b.Run("floor", func(b *testing.B) {
		cpu = 0
		start := time.Now()
		for i := 0; i < b.N; i++ {
			for _, argv := range [][]string{{bin, "--version"}, {"git", "show-ref", "--head"}} {
				cmd := exec.Command(argv[0], argv[1:]...)
				cmd.Dir, cmd.Env = repo, env
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", argv, err, out)
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
		}
		report(b, start)
	})
	for _, m := range []struct{ name, member, event string }{
		{"post", "commit-audit", "PostToolUse"},
		{"guard", "commit-guard", "PreToolUse"},
	} {
		b.Run(m.name, func(b *testing.B) {
			cpu = 0
			start := time.Now()
			for i := 0; i < b.N; i++ {
				if out := hook(m.member, m.event); out != "" {
					b.Fatalf("a command that moved no ref was answered: %q", out)
				}
			}
			report(b, start)
		})
	}
}

// benchOutcomeRepo generates benchFiles tracked files with the kit
// vendored, one gate registered and the hooks placed: the members timed
// here run no gate, so the battery is beside the point.
func benchOutcomeRepo(b *testing.B) (string, []string) {
	b.Helper()
	_, repo, bin, env, sh := benchBase(b)
	mustWrite(b, filepath.Join(repo, "scripts/gates.list"), "check-tree-terms\n")
	for n := 0; n < benchFiles; n++ {
		mustWrite(b, filepath.Join(repo, fmt.Sprintf("tree/d%03d/s%d/f%05d.md", n/100, n%4, n)), fmt.Sprintf("# file %d\n", n))
	}
	sh(repo, "git", "add", "-A")
	sh(repo, "git", "commit", "-q", "--no-verify", "-m", "generated")
	sh(repo, bin, "--install-hooks")
	return repo, env
}

// benchBase builds the binary into a fresh repository with the kit
// vendored, and answers the module root, the repository, the binary, the
// environment and a runner that stops the benchmark on a failure.
func benchBase(b *testing.B) (root, repo, bin string, env []string, sh func(dir, name string, args ...string)) {
	b.Helper()
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		b.Fatal(err)
	}
	root = filepath.Dir(strings.TrimSpace(string(gomod)))
	repo = b.TempDir()
	bin = filepath.Join(repo, "bin/gates")
	build := exec.Command("go", "build", "-o", bin, "./cmd/gates")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // static, as make build links it
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "GATE_SDK_") {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+b.TempDir(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@example.invalid", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@example.invalid")
	sh = func(dir string, name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	sh(repo, "git", "init", "-q")
	// No background gc: it would write into .git while the temp dir goes.
	sh(repo, "git", "config", "gc.auto", "0")
	sh(repo, "git", "config", "maintenance.auto", "false")
	mustWrite(b, filepath.Join(repo, ".gitignore"), "/bin/\n/.tmp/\n")
	sh(repo, "cp", "-R", filepath.Join(root, "kits/gate-sdk"), filepath.Join(repo, "gate-sdk"))
	return root, repo, bin, env, sh
}
