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

// BenchmarkPreCommitHook times what git pays per commit for one staged
// markdown file in a generated repository of benchFiles tracked files with
// every gate the kit ships registered: the placed hook (the launcher, a
// first start of the binary) starting the binary on --git-hook pre-commit
// (a second start), which selects and runs the members the staged path
// triggers. The members sub-benchmark runs the same members standalone,
// one after another, so the hook's own cost is the difference. Run it
// with: go test -run x -bench PreCommitHook ./internal/githook
func BenchmarkPreCommitHook(b *testing.B) {
	repo, env := benchRepo(b)
	hook := filepath.Join(repo, ".git/gate-hooks/pre-commit")
	run := func(extra []string, name string, args ...string) string {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = repo, append(append([]string(nil), env...), extra...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out)
	}
	// Warm the page cache, check the hook is green, and read its members.
	var members []string
	for _, l := range strings.Split(run([]string{"GATE_SDK_VERBOSE=1"}, hook), "\n") {
		if name, ok := strings.CutPrefix(l, "  PASS: "); ok {
			members = append(members, name)
		}
	}
	b.Logf("%d member(s) selected: %s", len(members), strings.Join(members, " "))
	bin := filepath.Join(repo, "bin/gates")
	b.Run("hook", func(b *testing.B) {
		start := time.Now()
		for i := 0; i < b.N; i++ {
			run(nil, hook)
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/commit")
	})
	b.Run("members", func(b *testing.B) {
		start := time.Now()
		for i := 0; i < b.N; i++ {
			for _, m := range members {
				run(nil, bin, m)
			}
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/commit")
	})
}

// benchRepo generates the repository once per benchmark run.
func benchRepo(b *testing.B) (string, []string) {
	b.Helper()
	root, repo, bin, env, sh := benchBase(b)
	// The kit's own install recipe writes the surfaces its gates read.
	install := exec.Command("bash", "gate-sdk/smoke/install.sh")
	install.Dir = repo
	install.Env = append(append([]string(nil), env...), "SMOKE_KIT_ROOT="+filepath.Join(repo, "gate-sdk"), "GATE_SDK_ROOT=gate-sdk")
	if out, err := install.CombinedOutput(); err != nil {
		b.Fatalf("smoke/install.sh: %v\n%s", err, out)
	}
	allow, err := os.ReadFile(filepath.Join(repo, "scripts/root-allowlist.list"))
	if err != nil {
		b.Fatal(err)
	}
	mustWrite(b, filepath.Join(repo, "scripts/root-allowlist.list"), string(allow)+"tree\n")
	// Every shipped gate registered.
	decls, err := filepath.Glob(filepath.Join(root, "kits/gate-sdk/checks/*.gate"))
	if err != nil || len(decls) == 0 {
		b.Fatalf("no shipped gate found under kits/gate-sdk/checks: %v", err)
	}
	var list strings.Builder
	for _, d := range decls {
		list.WriteString(strings.TrimSuffix(filepath.Base(d), ".gate") + "\n")
	}
	mustWrite(b, filepath.Join(repo, "scripts/gates.list"), list.String())
	// The generated tree: markdown, Go, shell and YAML in nested dirs.
	kinds := []string{".md", ".go", ".txt", ".md", ".json"}
	n := 0
	for d := 0; n < benchFiles; d++ {
		for f := 0; f < 100 && n < benchFiles; f++ {
			ext := kinds[n%len(kinds)]
			mustWrite(b, filepath.Join(repo, fmt.Sprintf("tree/d%03d/s%d/f%05d%s", d, f%4, n, ext)), fmt.Sprintf("# file %d\n\nline of text for file %d\n", n, n))
			n++
		}
	}
	sh(repo, "git", "add", "-A")
	sh(repo, "git", "commit", "-q", "--no-verify", "-m", "generated")
	sh(repo, bin, "--install-hooks")
	mustWrite(b, filepath.Join(repo, "tree/d000/s0/f00000.md"), "# file 0, edited\n")
	sh(repo, "git", "add", "tree/d000/s0/f00000.md")
	return repo, env
}

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
