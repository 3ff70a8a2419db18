//go:build unix

package bench

import (
	"fmt"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// BenchmarkSpawnContention measures what bounds `make test` here: the
// cost of starting a short process, one at a time and from two streams at
// once (the same number of processes in all), for git and for the gates
// binary. The test suite is mostly such processes (21,167 started by one
// `make test` at f3f13f6, counted with perf's exec tracepoint: git, gates,
// bash, ShellCheck and the shell utilities the kit's scripts call), so
// where a second stream does not halve the wall time the suite's second
// core buys less than that. Figures only: no timing fails. Medians of 3.
func BenchmarkSpawnContention(b *testing.B) {
	if err := setup(); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		fmt.Println("\nstarting short processes, one stream against two at once (the same count in all; medians of 3)")
		fmt.Println()
		fmt.Println("| program | processes | one stream | two streams | wall, two ÷ one | CPU per process, one stream | CPU per process, two streams |")
		fmt.Println("|---|---|---|---|---|---|---|")
		for _, p := range []struct {
			name string
			argv []string
		}{{"git --version", []string{"git", "--version"}}, {"gates --version", []string{binBench, "--version"}}} {
			const n = 300
			w1, c1 := spawnStreams(b, 1, n, p.argv)
			w2, c2 := spawnStreams(b, 2, n, p.argv)
			fmt.Printf("| `%s` | %d | %.0f ms | %.0f ms | %.2f× | %.2f ms | %.2f ms |\n",
				p.name, n, ms(w1), ms(w2), float64(w2)/float64(w1), ms(c1)/n, ms(c2)/n)
			b.ReportMetric(float64(w2)/float64(w1), "x-two-streams-"+slug(p.name))
		}
		fmt.Println()
	}
	b.ReportMetric(0, "ns/op")
}

// spawnStreams starts argv n times in all, split over streams goroutines
// each starting one after another, and answers the median wall time and
// CPU (this process's and its children's) of three such rounds.
func spawnStreams(b *testing.B, streams, n int, argv []string) (time.Duration, time.Duration) {
	var walls, cpus []time.Duration
	for round := 0; round < 3; round++ {
		c0, t0 := cpuNow(), time.Now()
		var wg sync.WaitGroup
		errs := make(chan error, streams)
		for s := 0; s < streams; s++ {
			wg.Add(1)
			go func(count int) {
				defer wg.Done()
				for i := 0; i < count; i++ {
					if err := exec.Command(argv[0], argv[1:]...).Run(); err != nil {
						errs <- fmt.Errorf("%v: %w", argv, err)
						return
					}
				}
			}(n / streams)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
		walls = append(walls, time.Since(t0))
		cpus = append(cpus, cpuNow()-c0)
	}
	return median(walls), median(cpus)
}
