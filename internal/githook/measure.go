package githook

import (
	"bytes"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"time"
)

// MeasureUsage is --measure-commit's usage line.
const MeasureUsage = "usage: --measure-commit"

// measureRuns is how many times the selection is run.
const measureRuns = 3

// RunMeasure is `--measure-commit`: the pre-commit selection over every
// tracked path, dispatched serially three times, reported as the median
// and the three samples in run order, then the host line. A red member
// ends the run with the hook's own failure report and no figure.
func RunMeasure(args []string, w World) int {
	const arm = "measure-commit"
	// assertion A: no operand, at the top, inside a repository.
	if len(args) != 0 {
		fmt.Fprintf(w.Stderr, "%s: takes no operand, got %q\n%s\n", arm, args[0], MeasureUsage)
		return 2
	}
	top, ok := w.top(arm)
	if !ok {
		return 2
	}
	tree, err := w.git().StagedSnapshot(top)
	if err != nil {
		fmt.Fprintf(w.Stderr, "%s: %v\n", arm, err)
		return 2
	}
	tracked := tree.Files()
	reg, ok := w.loadRegistry(arm)
	if !ok {
		return 2
	}
	// assertion B: the hook's own plan over every tracked path, three times.
	plan, err := PreCommitPlan(reg, tree, tracked, true)
	if err != nil {
		fmt.Fprintf(w.Stderr, "%s: %v\n", arm, strings.TrimRight(err.Error(), "\n"))
		return 2
	}
	r := w.runner(top)
	r.verbose = false
	var samples []time.Duration
	for i := 0; i < measureRuns; i++ {
		var report bytes.Buffer
		r.stdout = &report
		start := time.Now()
		// Each run reads the index afresh, as each commit would.
		if r.tree, err = w.git().StagedSnapshot(top); err != nil {
			fmt.Fprintf(w.Stderr, "%s: %v\n", arm, err)
			return 2
		}
		code := r.serial(PreCommit, plan)
		elapsed := time.Since(start)
		if code != 0 {
			// assertion D: a red member is the hook's report, no figure.
			// The failure is the hook's own, printed as the hook prints it.
			w.Stdout.Write(report.Bytes())
			return 1
		}
		samples = append(samples, elapsed)
	}
	fmt.Fprintln(w.Stdout, MeasureReport(samples, len(plan), len(tracked)))
	fmt.Fprintln(w.Stdout, HostLine(runtime.GOOS, runtime.GOARCH, runtime.NumCPU()))
	return 0
}

// MeasureReport renders the figure line from the samples in run order.
// assertion C: the two report lines.
func MeasureReport(samples []time.Duration, members, paths int) string {
	ms := make([]int64, len(samples))
	for i, s := range samples {
		ms[i] = s.Round(time.Millisecond).Milliseconds()
	}
	sorted := append([]int64(nil), ms...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	median := int64(0)
	if len(sorted) > 0 {
		median = sorted[len(sorted)/2]
	}
	parts := make([]string, len(ms))
	for i, v := range ms {
		parts[i] = fmt.Sprintf("%dms", v)
	}
	return fmt.Sprintf("measure-commit: %dms median of %d (%s) \u2014 %d pre-commit member(s) over %d tracked path(s), every path selected",
		median, len(ms), strings.Join(parts, ", "), members, paths)
}

// HostLine renders the host line from the build's target and the
// available parallelism.
func HostLine(goos, goarch string, cpus int) string {
	return fmt.Sprintf("host: %s %s, %d logical CPU(s)", goos, goarch, cpus)
}
