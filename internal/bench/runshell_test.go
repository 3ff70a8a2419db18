//go:build unix

package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The 12,500-block workflow of issue 14: check-action-run-shell over one
// workflow of that many distinct run: blocks, beside the floor the issue
// names (one ShellCheck pass over every block, serial) and, for the
// before figure, ShellCheck run once per block on stdin over a sample,
// scaled to the whole count. Figures only.

const (
	runShellBlocks = 12500
	runShellSample = 500 // blocks the per-block figure is timed on
)

// runShellBody is block i's body as the workflow carries it. Every fifth
// block raises SC2046; every fifth runs under sh; one in five holds an
// expression.
func runShellBody(i int) (dialect, body string) {
	switch i % 5 {
	case 0:
		return "bash", fmt.Sprintf("echo \"building part %d\"\nmake -C \"part-%d\" all\n", i, i)
	case 1:
		return "bash", fmt.Sprintf("cd \"dir-%d\"\n./configure --prefix=$(cat \"prefix-%d\")\n", i, i)
	case 2:
		return "bash", fmt.Sprintf("if [ -n \"${{ matrix.os }}\" ]; then\n  echo \"os for %d\"\nfi\n", i)
	case 3:
		return "sh", fmt.Sprintf("test -f \"out-%d\" && echo found\n", i)
	default:
		return "bash", fmt.Sprintf("for f in src/p%d/*.go; do\n  gofmt -l \"$f\"\ndone\n", i)
	}
}

// runShellWorkflow is one workflow of n run: blocks, fifty steps a job.
func runShellWorkflow(n int) string {
	var b strings.Builder
	b.WriteString("name: many\non: push\njobs:\n")
	for i := 0; i < n; i++ {
		if i%50 == 0 {
			fmt.Fprintf(&b, "  j%05d:\n    runs-on: ubuntu-latest\n    steps:\n", i/50)
		}
		dialect, body := runShellBody(i)
		if dialect != "bash" {
			fmt.Fprintf(&b, "      - shell: %s\n        run: |\n", dialect)
		} else {
			b.WriteString("      - run: |\n")
		}
		for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
			b.WriteString("          " + l + "\n")
		}
	}
	return b.String()
}

var (
	runShellOnce sync.Once
	runShellRows []row
)

// runShellFigures measures the rows once per process; the acceptance
// table and the benchmark of its own both print them.
func runShellFigures(b *testing.B) []row {
	b.Helper()
	runShellOnce.Do(func() { runShellRows = measureRunShell(b) })
	return runShellRows
}

func measureRunShell(b *testing.B) []row {
	b.Helper()
	dir := filepath.Join(scratch, "run-shell")
	if err := vendorKit(dir); err != nil {
		b.Fatal(err)
	}
	if err := write(dir, ".github/workflows/many.yml", runShellWorkflow(runShellBlocks), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "feat: generated"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, benchEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	// The bodies as ShellCheck reads them (an expression is ${GHEXPR}).
	bodies := filepath.Join(scratch, "run-shell-bodies")
	var files []string
	byDialect := map[string][]string{}
	for i := 0; i < runShellBlocks; i++ {
		dialect, body := runShellBody(i)
		p := filepath.Join(bodies, fmt.Sprintf("%d.sh", i))
		if err := write(bodies, fmt.Sprintf("%d.sh", i), strings.ReplaceAll(body, "${{ matrix.os }}", "${GHEXPR}"), 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, p)
		byDialect[dialect] = append(byDialect[dialect], p)
	}

	const n = 3
	// The cold row lints every block: the content cache is cleared first.
	clearCache := func() { os.RemoveAll(filepath.Join(dir, ".git", "gates-cache")) }
	wall, rss, code := sample(n, clearCache, func() (time.Duration, int64, int) {
		w, r, c, out := timed(b, dir, nil, binPlain, "check-action-run-shell")
		if c != 1 || strings.Count(out, "[SC2046]") != runShellBlocks/5 {
			b.Fatalf("check-action-run-shell: exit %d, %d SC2046 findings, want exit 1 and %d\n%.2000s", c, strings.Count(out, "[SC2046]"), runShellBlocks/5, out)
		}
		return w, r, c
	})
	// Warm, one block edited: the cache holds every other body (the cold
	// row's last run filled it), and each sample edits block 0 first.
	edits := 0
	editOne := func() {
		edits++
		wf := strings.Replace(runShellWorkflow(runShellBlocks), "building part 0\"", fmt.Sprintf("building part 0, edit %d\"", edits), 1)
		if err := write(dir, ".github/workflows/many.yml", wf, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	var editCPU []time.Duration
	editWall, _, editCode := sample(n, editOne, func() (time.Duration, int64, int) {
		w, r, c, out, cpu := run(b, dir, nil, binPlain, "check-action-run-shell")
		if c != 1 || strings.Count(out, "[SC2046]") != runShellBlocks/5 {
			b.Fatalf("check-action-run-shell, one block edited: exit %d, %d SC2046 findings, want exit 1 and %d\n%.2000s", c, strings.Count(out, "[SC2046]"), runShellBlocks/5, out)
		}
		editCPU = append(editCPU, cpu)
		return w, r, c
	})
	// The floor: one serial ShellCheck pass per dialect over every body.
	floor, _, _ := sample(n, nil, func() (time.Duration, int64, int) {
		var total time.Duration
		for _, d := range []string{"bash", "sh"} {
			for from := 0; from < len(byDialect[d]); from += 2000 {
				chunk := byDialect[d][from:min(from+2000, len(byDialect[d]))]
				w, _, _, _ := timed(b, bodies, nil, append([]string{"shellcheck", "--norc", "-s", d, "-S", "warning", "-f", "gcc", "--"}, chunk...)...)
				total += w
			}
		}
		return total, 0, 0
	})
	// Before: one ShellCheck per block on stdin, serial, over a sample.
	start := time.Now()
	for i := 0; i < runShellSample; i++ {
		dialect, _ := runShellBody(i)
		cmd := exec.Command("shellcheck", "--norc", "-s", dialect, "-S", "warning", "-f", "gcc", "-")
		f, err := os.Open(files[i])
		if err != nil {
			b.Fatal(err)
		}
		cmd.Stdin = f
		_ = cmd.Run() // exit 1 on the findings; the figure is the time
		f.Close()
	}
	perBlock := time.Since(start) * runShellBlocks / runShellSample
	return []row{
		{fmt.Sprintf("check-action-run-shell, one workflow of %d run: blocks", runShellBlocks), wall, floor,
			fmt.Sprintf("exit %d; cold cache; peak RSS %.0f MiB; target ≤ 5 s; floor: one serial ShellCheck pass over every block", code, float64(rss)/1024)},
		{fmt.Sprintf("one ShellCheck per block on stdin (before), %d blocks timed, scaled to %d", runShellSample, runShellBlocks), perBlock, floor, ""},
		{fmt.Sprintf("check-action-run-shell, one workflow of %d run: blocks, one block edited, warm cache", runShellBlocks), editWall, floor,
			fmt.Sprintf("exit %d; CPU %.0f ms (the gate and its ShellCheck); target ≤ 1 s; floor: one serial ShellCheck pass over every block", editCode, ms(median(editCPU)))},
	}
}

// BenchmarkActionRunShell12500Blocks prints the 12,500-block rows alone.
func BenchmarkActionRunShell12500Blocks(b *testing.B) {
	if err := setup(); err != nil {
		b.Fatal(err)
	}
	var rows []row
	for i := 0; i < b.N; i++ {
		rows = runShellFigures(b)
	}
	fmt.Println("\n| path | median | floor | ratio | note |")
	fmt.Println("|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Println(r)
	}
	b.ReportMetric(ms(rows[0].wall), "ms-median")
	b.ReportMetric(0, "ns/op")
}
