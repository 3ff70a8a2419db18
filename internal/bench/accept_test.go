//go:build unix

package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The acceptance figures of issue 14, each row a ratio to its floor, the
// row and its floor measured side by side in this one run. Figures only:
// nothing here fails on a timing. GATES_BENCH_SWEEP=full widens the size
// sweep; the default keeps `make bench` within a few minutes.
// GATES_BENCH_ROWS=hook prints the hook rows alone.

// timed runs argv in dir (env: benchEnv plus extra) and answers wall time,
// peak RSS in KiB and the exit status.
func timed(b *testing.B, dir string, extra []string, argv ...string) (time.Duration, int64, int, string) {
	b.Helper()
	w, rss, code, out, _ := run(b, dir, extra, argv...)
	return w, rss, code, out
}

// timedCPU is timed answering the command's CPU time instead of its output.
func timedCPU(b *testing.B, dir string, extra []string, argv ...string) (time.Duration, int64, int, time.Duration) {
	b.Helper()
	w, rss, code, _, cpu := run(b, dir, extra, argv...)
	return w, rss, code, cpu
}

func run(b *testing.B, dir string, extra []string, argv ...string) (time.Duration, int64, int, string, time.Duration) {
	b.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(benchEnv(), extra...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			b.Fatalf("%v: %v", argv, err)
		}
		code = ee.ExitCode()
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss
	}
	return wall, rss, code, out.String(), cpuOf(cmd)
}

func median(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

// sample runs fn n times (before each, prep when set) and answers the
// median wall, the peak RSS and the last exit status.
func sample(n int, prep func(), fn func() (time.Duration, int64, int)) (time.Duration, int64, int) {
	var ws []time.Duration
	var peak int64
	code := 0
	for i := 0; i < n; i++ {
		if prep != nil {
			prep()
		}
		w, rss, c := fn()
		ws = append(ws, w)
		peak = max(peak, rss)
		code = c
	}
	return median(ws), peak, code
}

// cpuNow answers the CPU time (user and system) this process and its
// waited-for children have used so far.
func cpuNow() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

// cpuOf answers a finished command's CPU time (user and system).
func cpuOf(cmd *exec.Cmd) time.Duration {
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// readFloor is `git ls-files -z` and one read of every tracked byte, in
// this process; it answers the time, the bytes and the largest file.
func readFloor(b *testing.B, dir string) (time.Duration, int64, int64) {
	b.Helper()
	wall, _, total, largest := readFloorCPU(b, dir)
	return wall, total, largest
}

// readFloorCPU is readFloor answering its CPU time too (this process's
// and git's): on a loaded machine wall time measures the queue, CPU time
// the work.
func readFloorCPU(b *testing.B, dir string) (time.Duration, time.Duration, int64, int64) {
	b.Helper()
	cpu0 := cpuNow()
	start := time.Now()
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		b.Fatal(err)
	}
	var total, largest int64
	for _, name := range bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
		data, err := os.ReadFile(filepath.Join(dir, string(name)))
		if err != nil {
			b.Fatal(err)
		}
		total += int64(len(data))
		largest = max(largest, int64(len(data)))
	}
	return time.Since(start), cpuNow() - cpu0, total, largest
}

// shipped answers the kit's shipped gate names, less those named in drop.
func shipped(b *testing.B, drop ...string) []string {
	b.Helper()
	descs, err := filepath.Glob(filepath.Join(modRoot, "kits", "gate-sdk", "checks", "*.gate"))
	if err != nil || len(descs) == 0 {
		b.Fatalf("no shipped descriptors: %v", err)
	}
	var out []string
	for _, d := range descs {
		name := strings.TrimSuffix(filepath.Base(d), ".gate")
		keep := true
		for _, x := range drop {
			keep = keep && x != name
		}
		if keep {
			out = append(out, name)
		}
	}
	return out
}

// shellCheckers are the shipped gates that wrap ShellCheck.
var shellCheckers = []string{"check-action-run-shell", "check-shellcheck"}

type row struct {
	name        string
	wall, floor time.Duration
	note        string
}

func (r row) String() string {
	return fmt.Sprintf("| %s | %.1f ms | %.1f ms | %.2f× | %s |", r.name, ms(r.wall), ms(r.floor), float64(r.wall)/float64(r.floor), r.note)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func BenchmarkAcceptance(b *testing.B) {
	if err := setup(); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		acceptance(b)
	}
	b.ReportMetric(0, "ns/op")
}

func acceptance(b *testing.B) {
	dir := repoDir
	cacheDir := filepath.Join(dir, ".git", "gates-cache")
	clear := func() { os.RemoveAll(cacheDir) }
	gates := binPlain
	const n = 7

	// The hook: one staged markdown file, every shipped gate registered.
	if err := write(dir, "scripts/gates.list", strings.Join(shipped(b), "\n")+"\n", 0o644); err != nil {
		b.Fatal(err)
	}
	if err := write(dir, "docs/d000/note-00000.md", "# Note 0\n\nedited for the hook benchmark.\n", 0o644); err != nil {
		b.Fatal(err)
	}
	pages(b, dir)
	run := func(extra []string, argv ...string) func() (time.Duration, int64, int) {
		return func() (time.Duration, int64, int) {
			w, rss, code, _ := timed(b, dir, extra, argv...)
			return w, rss, code
		}
	}
	// The hook runs the build carrying the benchmark members: the generated
	// tree declares them (scripts/bench-scan-*.gate), and under the plain
	// build check-gate-substrate-parity reds on those descriptors, so the
	// hook would stop there and time only the members before it.
	hookBin := binBench
	hookFloor, _, _ := sample(n, nil, run(nil, "git", "diff", "--cached", "--name-only", "-z"))
	hookCold, _, coldCode := sample(n, clear, run(nil, hookBin, "--git-hook", "pre-commit"))
	_, _, _, hookOut := timed(b, dir, nil, hookBin, "--git-hook", "pre-commit")
	hookWarm, _, warmCode := sample(n, nil, run(nil, hookBin, "--git-hook", "pre-commit"))
	hookOff, _, _ := sample(n, nil, run([]string{"GATE_SDK_CACHE=off"}, hookBin, "--git-hook", "pre-commit"))
	// The commit a user makes next: the cache warm from the last run, and
	// one file staged with bytes no run has judged (each sample stages a
	// new edit first, untimed).
	edit := 0
	stageNew := func() {
		edit++
		if err := write(dir, "docs/d000/note-00000.md", fmt.Sprintf("# Note 0\n\nedit %d for the hook benchmark.\n", edit), 0o644); err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command("git", "add", "docs/d000/note-00000.md")
		cmd.Dir, cmd.Env = dir, benchEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git add: %v\n%s", err, out)
		}
	}
	hookNew, _, newCode := sample(n, stageNew, run(nil, hookBin, "--git-hook", "pre-commit"))
	rows := []row{
		{"pre-commit hook, one staged file, warm cache", hookWarm, hookFloor, fmt.Sprintf("exit %d; target ≤ 8×", warmCode)},
		{"pre-commit hook, one newly edited file staged, cache warm from the run before", hookNew, hookFloor, fmt.Sprintf("exit %d", newCode)},
		{"pre-commit hook, one staged file, cold cache", hookCold, hookFloor, fmt.Sprintf("exit %d", coldCode)},
		{"pre-commit hook, one staged file, GATE_SDK_CACHE=off", hookOff, hookFloor, ""},
	}
	if lh := filepath.Join(modRoot, ".tmp", "tools", "bin", "lefthook"); fileExists(lh) {
		if err := write(dir, "lefthook.yml", "pre-commit:\n  commands:\n    trivial:\n      run: \"true\"\n", 0o644); err != nil {
			b.Fatal(err)
		}
		w, _, code := sample(n, nil, run([]string{"LEFTHOOK_QUIET=meta,summary,execution"}, lh, "run", "pre-commit"))
		os.Remove(filepath.Join(dir, "lefthook.yml"))
		rows = append(rows, row{"lefthook running one trivial command", w, hookFloor, fmt.Sprintf("exit %d; lefthook's own overhead", code)})
	}
	// A hook that stops at a red member times only the members before it,
	// so a row measured that way is not a figure: the run stops instead.
	if coldCode != 0 || warmCode != 0 || newCode != 0 {
		b.Fatalf("the hook exited %d cold, %d warm, %d after a new edit over the bench repository; its rows would time a partial run:\n%s", coldCode, warmCode, newCode, hookOut)
	}
	if os.Getenv("GATES_BENCH_ROWS") == "hook" {
		b.Logf("hook output:\n%s", hookOut)
	}
	if os.Getenv("GATES_BENCH_ROWS") == "hook" {
		// The hook rows alone, for iterating on the hook path.
		printRows(b, rows, "hook rows `git diff --cached --name-only -z`", n)
		return
	}

	// The battery, ShellCheck excluded, against the read floor.
	members := shipped(b, shellCheckers...)
	if err := write(dir, "scripts/gates.list", strings.Join(members, "\n")+"\n", 0o644); err != nil {
		b.Fatal(err)
	}
	pages(b, dir)
	var floors []time.Duration
	for i := 0; i < n; i++ {
		f, _, _ := readFloor(b, dir)
		floors = append(floors, f)
	}
	floor := median(floors)
	batCold, _, bc := sample(n, clear, run(nil, gates, "--run"))
	batWarm, _, bw := sample(n, nil, run(nil, gates, "--run"))
	batOff, _, _ := sample(n, nil, run([]string{"GATE_SDK_CACHE=off"}, gates, "--run"))
	rows = append(rows,
		row{fmt.Sprintf("battery, %d gates, ShellCheck excluded, warm cache", len(members)), batWarm, floor, fmt.Sprintf("exit %d; target ≤ 2×", bw)},
		row{"battery, ShellCheck excluded, cold cache", batCold, floor, fmt.Sprintf("exit %d", bc)},
		row{"battery, ShellCheck excluded, GATE_SDK_CACHE=off", batOff, floor, ""},
	)
	// The 12,500-block workflow, against one ShellCheck pass over its blocks.
	rows = append(rows, runShellFigures(b)...)
	// The Actions gates over 63 real workflows, against actionlint.
	rows = append(rows, actionsFigures(b)...)
	printRows(b, rows, "hook rows `git diff --cached --name-only -z`, battery rows `git ls-files -z` + one read of every tracked byte", n)

	// Size sweep: time and peak RSS of the battery (ShellCheck excluded,
	// cache off: every file judged), and the line read off at a million.
	sizeSweep(b, dir, members)
}

// printRows prints the acceptance table and reports each ratio.
func printRows(b *testing.B, rows []row, floors string, n int) {
	fmt.Printf("\nissue 14 acceptance, %d tracked files (medians of %d; floor: %s)\n\n", trackedFiles, n, floors)
	fmt.Println("| path | median | floor | ratio | note |")
	fmt.Println("|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Println(r)
		b.ReportMetric(float64(r.wall)/float64(r.floor), "x-"+slug(r.name))
	}
}

// pages writes the two committed projections the registry implies (the
// enforcement map and the coupling-graph page) and stages everything, so
// the hook and the battery run every member instead of stopping at a
// stale page. The emissions read each other, so they run twice.
func pages(b *testing.B, dir string) {
	b.Helper()
	for i := 0; i < 2; i++ {
		for _, p := range []struct{ arm, file string }{{"enforcement-map", "docs/enforcement.md"}, {"graph", "scripts/CHECK-GRAPH.html"}} {
			cmd := exec.Command(binPlain, "--emit", p.arm)
			cmd.Dir, cmd.Env = dir, benchEnv()
			out, err := cmd.Output()
			if err != nil {
				b.Fatalf("--emit %s: %v", p.arm, err)
			}
			if err := write(dir, p.file, string(out), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		cmd := exec.Command("git", "add", "-A")
		cmd.Dir, cmd.Env = dir, benchEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git add: %v\n%s", err, out)
		}
	}
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
