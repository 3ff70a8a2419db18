//go:build linux && (amd64 || arm64)

package repo

import (
	"os"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
)

// The Stop's stat test over a repository's index, by full path and by
// directory descriptor (issue 41, item 5; measurement only). The
// repository is GATES_STAT_BENCH_TOP when set (the agent bench's
// consumer), else the generated one.
//
//	go test -run x -bench 'StatClean' -benchtime 20x ./internal/repo
func statBenchEntries(b *testing.B) (string, []Entry) {
	top, env := os.Getenv("GATES_STAT_BENCH_TOP"), []string(nil)
	if top == "" {
		r := largeRepo(b)
		if r.err != nil {
			b.Fatal(r.err)
		}
		top, env = r.top, r.env
	}
	entries, _, _, err := Git{Env: env}.snapshotIndex(top, true)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		if e.stat == nil {
			b.Fatalf("%s has no stat data to test", e.Path)
		}
	}
	return top, entries
}

func BenchmarkStatCleanByPath(b *testing.B) {
	top, entries := statBenchEntries(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !statCleanRangeByPath(top, entries, nil) {
			b.Fatal("not clean")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(entries)), "ns/path")
}

func BenchmarkStatCleanByDir(b *testing.B) {
	top, entries := statBenchEntries(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !statCleanRangeByDir(top, entries, nil) {
			b.Fatal("not clean")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(entries)), "ns/path")
}

// threadCPU answers the calling thread's processor time (user and system).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	const rusageThread = 1
	syscall.Getrusage(rusageThread, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkStatCleanSideBySide runs the two in turn on one locked thread
// and reports each one's processor time per path (its thread's user and
// system time), so a loaded host's queue does not count.
func BenchmarkStatCleanSideBySide(b *testing.B) {
	top, entries := statBenchEntries(b)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var byPath, byDir []time.Duration
	for i := 0; i < b.N; i++ {
		for k := 0; k < 2; k++ {
			t0 := threadCPU()
			var ok bool
			if (i+k)%2 == 0 {
				ok = statCleanRangeByPath(top, entries, nil)
				byPath = append(byPath, threadCPU()-t0)
			} else {
				ok = statCleanRangeByDir(top, entries, nil)
				byDir = append(byDir, threadCPU()-t0)
			}
			if !ok {
				b.Fatal("not clean")
			}
		}
	}
	med := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Nanoseconds()) / float64(len(entries))
	}
	b.ReportMetric(med(byPath), "cpu-ns/path-bypath")
	b.ReportMetric(med(byDir), "cpu-ns/path-bydir")
	b.ReportMetric(float64(len(entries)), "paths")
}
