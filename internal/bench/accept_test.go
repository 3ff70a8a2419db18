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
// GATES_BENCH_ROWS=hook prints the hook rows alone; =shellcheck the
// ShellCheck rows alone; =actions the Actions rows alone.

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

// noOwnInputs are the shipped gates that judge a kit's own test and gate
// sources and refuse (exit 2) in a consumer that authors none: with the
// kit recorded as vendored (scripts/gates.lock), the bench consumer has
// nothing for them to read, and `gates init` leaves them out of such a
// consumer too.
var noOwnInputs = []string{"check-assertion-strength", "check-gate-fail-closed", "check-test-hermetic"}

// shipped answers the kit's shipped gate names that can run in the bench
// consumer (less noOwnInputs), less those named in drop.
func shipped(b *testing.B, drop ...string) []string {
	b.Helper()
	drop = append(append([]string(nil), drop...), noOwnInputs...)
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
	// The generated consumer declares the fifty benchmark members
	// (scripts/bench-scan-*.gate), so every run over it uses the build that
	// carries them: under the plain build check-gate-substrate-parity reds
	// on those descriptors and every battery row would time a red run.
	gates := binBench
	const n = 7

	if os.Getenv("GATES_BENCH_ROWS") == "shellcheck" {
		// The ShellCheck rows alone.
		printRows(b, shellcheckBatteryRows(b, dir, n), "the CPU of `git ls-files -z` + one read of every tracked byte", n)
		printRows(b, runShellFigures(b), "one serial ShellCheck pass over every block", 3)
		return
	}
	if os.Getenv("GATES_BENCH_ROWS") == "actions" {
		// The Actions rows alone.
		printRows(b, actionsFigures(b), "actionlint -shellcheck= -pyflakes= over the same workflows", 15)
		return
	}
	// The hook: one staged markdown file, every shipped gate registered.
	rows, hookOut := hookRows(b, dir, trackedFiles, n)
	if os.Getenv("GATES_BENCH_ROWS") == "hook" {
		b.Logf("hook output:\n%s", hookOut)
		// The hook rows alone, for iterating on the hook path; the
		// 100,000-file rows under GATES_BENCH_SWEEP=full.
		printRows(b, rows, "hook rows `git diff --cached --name-only -z`", n)
		if os.Getenv("GATES_BENCH_SWEEP") == "full" {
			big, _ := hookRows(b, filepath.Join(scratch, "hook-100000"), 100000, n)
			printRowsAt(b, big, 100000, "hook rows `git diff --cached --name-only -z`", n)
			os.RemoveAll(filepath.Join(scratch, "hook-100000"))
		}
		return
	}
	run := func(extra []string, argv ...string) func() (time.Duration, int64, int) {
		return func() (time.Duration, int64, int) {
			w, rss, code, _ := timed(b, dir, extra, argv...)
			return w, rss, code
		}
	}
	if lh := filepath.Join(modRoot, ".tmp", "tools", "bin", "lefthook"); fileExists(lh) {
		hookFloor, _, _ := sample(n, nil, run(nil, "git", "diff", "--cached", "--name-only", "-z"))
		if err := write(dir, "lefthook.yml", "pre-commit:\n  commands:\n    trivial:\n      run: \"true\"\n", 0o644); err != nil {
			b.Fatal(err)
		}
		w, _, code := sample(n, nil, run([]string{"LEFTHOOK_QUIET=meta,summary,execution"}, lh, "run", "pre-commit"))
		os.Remove(filepath.Join(dir, "lefthook.yml"))
		rows = append(rows, row{"lefthook running one trivial command", w, hookFloor, fmt.Sprintf("exit %d; lefthook's own overhead", code)})
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
	if _, _, code, out := timed(b, dir, nil, gates, "--run"); code != 0 {
		b.Fatalf("the battery over the bench repository exited %d; its rows would time a red run:\n%s", code, out)
	}
	batCold, _, bc := sample(n, clear, run(nil, gates, "--run"))
	batWarm, _, bw := sample(n, nil, run(nil, gates, "--run"))
	batOff, _, _ := sample(n, nil, run([]string{"GATE_SDK_CACHE=off"}, gates, "--run"))
	rows = append(rows,
		row{fmt.Sprintf("battery, %d gates, ShellCheck excluded, warm cache", len(members)), batWarm, floor, fmt.Sprintf("exit %d; target ≤ 2×", bw)},
		row{"battery, ShellCheck excluded, cold cache", batCold, floor, fmt.Sprintf("exit %d", bc)},
		row{"battery, ShellCheck excluded, GATE_SDK_CACHE=off", batOff, floor, ""},
	)
	rows = append(rows, shellcheckBatteryRows(b, dir, n)...)
	if os.Getenv("GATES_BENCH_ROWS") == "battery" {
		// The hook and battery rows alone.
		printRows(b, rows, "hook rows `git diff --cached --name-only -z`, battery rows `git ls-files -z` + one read of every tracked byte", n)
		return
	}
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
	printRowsAt(b, rows, trackedFiles, floors, n)
}

// printRowsAt is printRows over a repository of files tracked files.
func printRowsAt(b *testing.B, rows []row, files int, floors string, n int) {
	fmt.Printf("\nacceptance, %d tracked files (medians of %d; floor: %s)\n\n", files, n, floors)
	fmt.Println("| path | median | floor | ratio | note |")
	fmt.Println("|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Println(r)
		b.ReportMetric(float64(r.wall)/float64(r.floor), fmt.Sprintf("x-%d-%s", files, slug(r.name)))
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
			cmd := exec.Command(binBench, "--emit", p.arm)
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

// hookRows measures the pre-commit hook over a repository of files tracked
// files at dir (generated when it is not the shared one), every shipped
// gate registered and one markdown file staged, against the floor `git
// diff --cached --name-only -z`. It answers the rows and one run's output.
func hookRows(b *testing.B, dir string, files, n int) ([]row, string) {
	b.Helper()
	if dir != repoDir {
		if err := generate(dir, files); err != nil {
			b.Fatal(err)
		}
	}
	cacheDir := filepath.Join(dir, ".git", "gates-cache")
	clear := func() { os.RemoveAll(cacheDir) }
	if err := write(dir, "scripts/gates.list", strings.Join(shipped(b), "\n")+"\n", 0o644); err != nil {
		b.Fatal(err)
	}
	pages(b, dir)
	// The registry and the pages committed, so the commit the rows time
	// stages one file, as the rows say.
	commit := exec.Command("git", "commit", "-q", "--no-verify", "--allow-empty", "-m", "chore: the bench registry")
	commit.Dir, commit.Env = dir, benchEnv()
	if out, err := commit.CombinedOutput(); err != nil {
		b.Fatalf("git commit: %v\n%s", err, out)
	}
	if err := write(dir, "docs/d000/note-00000.md", "# Note 0\n\nedited for the hook benchmark.\n", 0o644); err != nil {
		b.Fatal(err)
	}
	add := exec.Command("git", "add", "docs/d000/note-00000.md")
	add.Dir, add.Env = dir, benchEnv()
	if out, err := add.CombinedOutput(); err != nil {
		b.Fatalf("git add: %v\n%s", err, out)
	}
	// Each sample's CPU time (the command's and its children's) is kept
	// beside its wall time: on a loaded machine the wall measures the run
	// queue, the CPU the work.
	var cpus []time.Duration
	run := func(extra []string, argv ...string) func() (time.Duration, int64, int) {
		return func() (time.Duration, int64, int) {
			w, rss, code, cpu := timedCPU(b, dir, extra, argv...)
			cpus = append(cpus, cpu)
			return w, rss, code
		}
	}
	cpu := func() time.Duration {
		m := median(cpus)
		cpus = nil
		return m
	}
	// The hook runs the build carrying the benchmark members: the generated
	// tree declares them (scripts/bench-scan-*.gate), and under the plain
	// build check-gate-substrate-parity reds on those descriptors, so the
	// hook would stop there and time only the members before it.
	hookBin := binBench
	hook := []string{hookBin, "--git-hook", "pre-commit"}
	// The hook runs under the variables git sets for a pre-commit hook
	// (`git commit` exports the index it commits, its exec path and the
	// prefix), so a reader that leaves such an environment to git costs
	// here what it costs in a real commit.
	execPath, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		b.Fatalf("git --exec-path: %v", err)
	}
	hookEnv := []string{"GIT_INDEX_FILE=.git/index", "GIT_EXEC_PATH=" + strings.TrimSpace(string(execPath)), "GIT_PREFIX=", "GIT_EDITOR=:"}
	hookFloor, _, _ := sample(n, nil, run(nil, "git", "diff", "--cached", "--name-only", "-z"))
	floorCPU := cpu()
	// A cleared cache (a fresh clone's first commit): no whole judgement
	// on record, so every file is judged.
	hookCleared, _, clearedCode := sample(n, clear, run(hookEnv, hook...))
	clearedCPU := cpu()
	_, _, _, hookOut := timed(b, dir, hookEnv, hook...)
	hookWarm, _, warmCode := sample(n, nil, run(hookEnv, hook...))
	warmCPU := cpu()
	hookOff, _, _ := sample(n, nil, run(append(hookEnv, "GATE_SDK_CACHE=off"), hook...))
	offCPU := cpu()
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
	hookNew, _, newCode := sample(n, stageNew, run(hookEnv, hook...))
	newCPU := cpu()
	// The first commit after a rule-input change: each sample edits the
	// local pattern list (untracked, read from disk) to a pattern no run
	// has judged under, so check-tree-terms' verdicts are all under other
	// inputs, as after an upgrade of the binary or a knob edit.
	local := filepath.Join(dir, "scripts", "msg-patterns.local.list")
	ruleEdit := 0
	editRule := func() {
		ruleEdit++
		if err := os.WriteFile(local, []byte(fmt.Sprintf("zz-bench-rule-%d-qq\n", ruleEdit)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	hookCold, _, coldCode := sample(n, editRule, run(hookEnv, hook...))
	coldCPU := cpu()
	_, _, _, coldOut := timed(b, dir, hookEnv, hook...)
	os.Remove(local)
	os.Remove(filepath.Join(dir, ".git", "gates-debt"))
	// A hook that stops at a red member times only the members before it,
	// so a row measured that way is not a figure: the run stops instead.
	if clearedCode != 0 || coldCode != 0 || warmCode != 0 || newCode != 0 {
		b.Fatalf("the hook exited %d cleared, %d after a rule edit, %d warm, %d after a new edit over the bench repository; its rows would time a partial run:\n%s", clearedCode, coldCode, warmCode, newCode, hookOut)
	}
	if !strings.Contains(coldOut, "left to the battery") {
		b.Fatalf("after a rule edit the hook left nothing to the battery:\n%s", coldOut)
	}
	note := func(code int, c time.Duration, goal string) string {
		return fmt.Sprintf("exit %d; CPU %.1f ms against the floor's %.1f ms: %.2f×%s", code, ms(c), ms(floorCPU), float64(c)/float64(floorCPU), goal)
	}
	return []row{
		{"pre-commit hook, one staged file, warm cache", hookWarm, hookFloor, note(warmCode, warmCPU, "; goal ≤ 5×")},
		{"pre-commit hook, one newly edited file staged, cache warm from the run before", hookNew, hookFloor, note(newCode, newCPU, "; goal ≤ 5×")},
		{"pre-commit hook, first commit after a rule-input change (cold tables; the unchanged rest left to the battery)", hookCold, hookFloor, note(coldCode, coldCPU, "; goal ≤ 15×")},
		{"pre-commit hook, cache cleared (no whole judgement on record: every file judged)", hookCleared, hookFloor, note(clearedCode, clearedCPU, "")},
		{"pre-commit hook, GATE_SDK_CACHE=off", hookOff, hookFloor, note(0, offCPU, "")},
	}, hookOut
}

// shellcheckBatteryRows are the "battery with check-shellcheck,
// warm" row: every shipped gate, the ShellCheck wrappers included, over a
// warm cache, in CPU time against the CPU of the read floor (on a loaded
// machine wall time measures the queue), with the ShellCheck-free battery
// measured beside it, so the wrappers' own share reads off the pair. It
// leaves gates.list naming the ShellCheck-free members again.
func shellcheckBatteryRows(b *testing.B, dir string, n int) []row {
	b.Helper()
	lists := map[bool][]string{true: shipped(b), false: shipped(b, shellCheckers...)}
	cpu := map[bool][]time.Duration{}
	codes := map[bool]int{}
	var fcpu []time.Duration
	for _, with := range []bool{true, false} {
		if err := write(dir, "scripts/gates.list", strings.Join(lists[with], "\n")+"\n", 0o644); err != nil {
			b.Fatal(err)
		}
		pages(b, dir)
		if _, _, rc, _ := timedCPU(b, dir, nil, binBench, "--run"); rc != 0 { // fills the cache
			_, _, _, out := timed(b, dir, nil, binBench, "--run")
			b.Fatalf("the battery over the bench repository exited %d; its rows would time a red run:\n%s", rc, out)
		}
		for i := 0; i < n; i++ {
			if with {
				_, c, _, _ := readFloorCPU(b, dir)
				fcpu = append(fcpu, c)
			}
			_, _, rc, c := timedCPU(b, dir, nil, binBench, "--run")
			cpu[with], codes[with] = append(cpu[with], c), rc
		}
	}
	return []row{
		{fmt.Sprintf("battery with check-shellcheck, %d gates, warm cache (CPU)", len(lists[true])), median(cpu[true]), median(fcpu),
			fmt.Sprintf("exit %d; CPU time against the read floor's CPU; target ≤ 1.2×", codes[true])},
		{fmt.Sprintf("the same battery less the ShellCheck wrappers, %d gates, warm cache (CPU)", len(lists[false])), median(cpu[false]), median(fcpu),
			fmt.Sprintf("exit %d; measured beside the row above", codes[false])},
	}
}
