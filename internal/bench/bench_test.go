//go:build unix

// Package bench measures the battery over a large generated consumer
// repository: `make bench` runs these benchmarks and they report figures;
// no test here fails on a timing.
package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-sdk/gates/kits"
)

const trackedFiles = 20000

var (
	setupOnce sync.Once
	setupErr  error
	repoDir   string // the generated consumer repository
	binPlain  string // the shipped build
	binBench  string // the build carrying the fifty benchmark members
	modRoot   string
	scratch   string // removed when the benchmarks end
)

func TestMain(m *testing.M) {
	code := m.Run()
	if scratch != "" && os.Getenv("GATES_BENCH_KEEP") == "" {
		os.RemoveAll(scratch)
	} else if scratch != "" {
		fmt.Fprintf(os.Stderr, "bench: kept %s\n", scratch)
	}
	os.Exit(code)
}

func setup() error {
	setupOnce.Do(func() { setupErr = build() })
	return setupErr
}

func build() error {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return err
	}
	modRoot = filepath.Dir(strings.TrimSpace(string(out)))
	tmp, err := os.MkdirTemp("", "gates-bench-")
	if err != nil {
		return err
	}
	scratch = tmp
	binPlain = filepath.Join(tmp, "gates")
	binBench = filepath.Join(tmp, "gates-bench")
	// A stamp unique to this run: the result cache is live (a dev stamp
	// disables it) and no earlier run's table is ever served.
	stamp := fmt.Sprintf("bench-%d", time.Now().UnixNano())
	for _, b := range []struct{ out, tags string }{{binPlain, ""}, {binBench, "bench"}} {
		cmd := exec.Command("go", "build", "-tags", b.tags, "-ldflags", "-X github.com/gate-sdk/gates/internal/cli.sourceStamp="+stamp, "-o", b.out, "./cmd/gates")
		cmd.Dir = modRoot
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // static, as make build links it
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %v\n%s", err, out)
		}
	}
	repoDir = filepath.Join(tmp, "consumer")
	return generate(repoDir, trackedFiles)
}

// generate writes a consumer repository of about n files: prose, source
// and data, the kit vendored at gate-sdk/, and commits it.
func generate(dir string, n int) error {
	words := strings.Fields("the gate reads each tracked file once and the battery shares that read across every member so the cost stays close to one pass over the tree while each rule applies its own predicate")
	var para bytes.Buffer
	for i := 0; i < 40; i++ {
		para.WriteString(words[i%len(words)])
		if i%12 == 11 {
			para.WriteString(".\n")
		} else {
			para.WriteByte(' ')
		}
	}
	for i := 0; i < n-200; i++ {
		var rel, body string
		switch i % 4 {
		case 0, 1:
			rel = fmt.Sprintf("docs/d%03d/note-%05d.md", i%300, i)
			body = fmt.Sprintf("# Note %d\n\n%s\n%s", i, para.String(), para.String())
		case 2:
			rel = fmt.Sprintf("src/p%03d/file%05d.go", i%300, i)
			body = fmt.Sprintf("package p%03d\n\n// F%d is generated.\nfunc F%d() int { return %d }\n", i%300, i, i, i)
		default:
			rel = fmt.Sprintf("data/t%03d/row%05d.txt", i%300, i)
			body = strings.Repeat(fmt.Sprintf("row %d value %d\n", i, i*7), 20)
		}
		if err := write(dir, rel, body, 0o644); err != nil {
			return err
		}
	}
	// The consumer's own shell: a script per hundred files, directly in
	// the gates dir, where check-shellcheck finds a consumer's shell.
	for i := 0; i < n/100; i++ {
		body := fmt.Sprintf("#!/bin/sh\n# task %d: generated for the benchmark.\nset -eu\nname=\"task-%05d\"\nfor arg in \"$@\"; do\n  printf '%%s %%s\\n' \"$name\" \"$arg\"\ndone\n", i, i)
		if err := write(dir, fmt.Sprintf("scripts/task-%05d.sh", i), body, 0o755); err != nil {
			return err
		}
	}
	if err := vendorKit(dir); err != nil {
		return err
	}
	// A consumer configured the way the kit's install recipe leaves one, so
	// every shipped gate has its inputs and none refuses for want of them.
	patterns, err := os.ReadFile(filepath.Join(modRoot, "templates", "msg-patterns.list"))
	if err != nil {
		return err
	}
	for rel, body := range map[string]string{
		"scripts/msg-patterns.list":   string(patterns),
		"scripts/root-allowlist.list": "data\ndocs\nsrc\ngate-sdk\nscripts\n.workflow\nREADME.md\n",
		// The record `gates init` leaves: it names gate-sdk/ as the vendored
		// kit, so the gates that judge gates judge the consumer's own and
		// leave the release's copy to the release.
		"scripts/gates.lock":  "{\"lock\":1,\"binary_stamp\":\"bench\",\"kit\":\"gate-sdk\",\"kit_root\":\"gate-sdk\",\"kit_version\":\"bench\",\"registered\":[],\"files\":[],\"appended\":[],\"dirs\":[]}\n",
		".workflow/README.md": "# contract: gate-sdk/SPEC.md §The workflow directory\n",
		// The registry and runner doc check-kit-registration reads.
		"README.md": "# bench consumer\n\nThe kit: [gate-sdk](gate-sdk/). Its fixture pairs: `gates --run-gate-tests gate-sdk/gate-tests`.\n",
	} {
		if err := write(dir, rel, body, 0o644); err != nil {
			return err
		}
	}
	for i := 1; i <= 50; i++ {
		desc := "# graph: couples=* dir=one valve=none tier=precommit trigger=*\n# no-fixture: benchmark-only member\n"
		if err := write(dir, fmt.Sprintf("scripts/bench-scan-%02d.gate", i), desc, 0o644); err != nil {
			return err
		}
	}
	if err := write(dir, "scripts/gates.list", "check-tree-terms\n", 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "feat: generated"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = benchEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v\n%s", args, err, out)
		}
	}
	return nil
}

func benchEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GATE_SDK_") || strings.HasPrefix(k, "GIT_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GATE_SDK_ROOT=gate-sdk",
		"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.invalid",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.invalid")
}

func write(root, rel, body string, mode os.FileMode) error {
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(body), mode)
}

func vendorKit(dir string) error {
	// The kit as `gates init` vendors it: the embedded copy, its fixture
	// pairs (authored at the top-level gate-tests/) included.
	files, err := kits.Tree(kits.Core)
	if err != nil {
		return err
	}
	for _, f := range files {
		mode := os.FileMode(0o644)
		if f.Exec {
			mode = 0o755
		}
		if err := write(dir, "gate-sdk/"+f.Path, string(f.Data), mode); err != nil {
			return err
		}
	}
	return nil
}

// battery runs `bin --run` over the repository with gates.list set to
// members and answers wall time and peak resident memory.
func battery(b *testing.B, bin string, members []string, args ...string) (time.Duration, int64, string) {
	b.Helper()
	if err := write(repoDir, "scripts/gates.list", strings.Join(members, "\n")+"\n", 0o644); err != nil {
		b.Fatal(err)
	}
	wall, rss, _, out := timed(b, repoDir, nil, append([]string{bin, "--run"}, args...)...)
	return wall, rss, out
}

func report(b *testing.B, walls []time.Duration, rss int64) {
	sort.Slice(walls, func(i, j int) bool { return walls[i] < walls[j] })
	b.ReportMetric(float64(walls[len(walls)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(rss)/1024, "MiB-peak-rss")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkBattery50InProcessMembers: fifty in-process members, each
// reading every one of the 20,000 tracked files, over one snapshot.
func BenchmarkBattery50InProcessMembers(b *testing.B) {
	if err := setup(); err != nil {
		b.Fatal(err)
	}
	var members []string
	for i := 1; i <= 50; i++ {
		members = append(members, fmt.Sprintf("bench-scan-%02d", i))
	}
	var walls []time.Duration
	var peak int64
	for i := 0; i < b.N; i++ {
		wall, rss, out := battery(b, binBench, members)
		if !strings.Contains(out, "All 50 gates passed.") {
			b.Fatalf("battery not green:\n%s", out)
		}
		walls = append(walls, wall)
		peak = max(peak, rss)
	}
	report(b, walls, peak)
}

// BenchmarkBatteryShippedGates: every gate the kit ships, registered in a
// 20,000-file consumer.
func BenchmarkBatteryShippedGates(b *testing.B) {
	if err := setup(); err != nil {
		b.Fatal(err)
	}
	members := shipped(b)
	// The registry's pages re-emitted for this list, so the run is green.
	if err := write(repoDir, "scripts/gates.list", strings.Join(members, "\n")+"\n", 0o644); err != nil {
		b.Fatal(err)
	}
	pages(b, repoDir)
	var walls []time.Duration
	var peak int64
	var last string
	for i := 0; i < b.N; i++ {
		wall, rss, out := battery(b, binBench, members)
		walls = append(walls, wall)
		peak = max(peak, rss)
		last = out
	}
	b.Logf("%d shipped gates; last summary: %s", len(members), lastLine(last))
	report(b, walls, peak)
}

// BenchmarkStartToFirstMember: a one-member battery whose member reads no
// file, so the figure is process start, knob and registry resolution.
func BenchmarkStartToFirstMember(b *testing.B) {
	if err := setup(); err != nil {
		b.Fatal(err)
	}
	if err := write(repoDir, "scripts/check-commit-subject.gate", "# graph: couples=.git/COMMIT_EDITMSG dir=one valve=none tier=commit-msg\n", 0o644); err != nil {
		b.Fatal(err)
	}
	defer os.Remove(filepath.Join(repoDir, "scripts/check-commit-subject.gate"))
	var walls []time.Duration
	var peak int64
	for i := 0; i < b.N; i++ {
		wall, rss, out := battery(b, binPlain, []string{"check-commit-subject"})
		if !strings.Contains(out, "The 1 gate passed") {
			b.Fatalf("not green:\n%s", out)
		}
		walls = append(walls, wall)
		peak = max(peak, rss)
	}
	report(b, walls, peak)
}

// BenchmarkTreeReadFloor: the floor the battery is measured against —
// `git ls-files -z` and reading every tracked byte once.
func BenchmarkTreeReadFloor(b *testing.B) {
	if err := setup(); err != nil {
		b.Fatal(err)
	}
	var walls []time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		cmd := exec.Command("git", "ls-files", "-z")
		cmd.Dir = repoDir
		out, err := cmd.Output()
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, name := range bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
			data, err := os.ReadFile(filepath.Join(repoDir, string(name)))
			if err != nil {
				b.Fatal(err)
			}
			n += len(data)
		}
		walls = append(walls, time.Since(start))
		_ = n
	}
	report(b, walls, 0)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}
