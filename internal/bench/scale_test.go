//go:build unix

package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/memlimit"
)

// The size sweep ("linear to a million files"): the battery,
// ShellCheck excluded and the cache off (every file judged), beside the
// read floor at each size, then a straight line fitted through the sizes
// from 20,000 files up and read off at a million. Figures only.
// GATES_BENCH_SWEEP=full adds the small sizes and 300,000 files (whose
// repository takes some minutes to generate and commit).

// sweepSizes are the sizes measured.
func sweepSizes() []int {
	if os.Getenv("GATES_BENCH_SWEEP") == "full" {
		return []int{2000, 5000, 10000, 20000, 50000, 100000, 300000}
	}
	return []int{20000, 50000, 100000}
}

type sweepPoint struct {
	files    int
	cpu, rss float64 // battery CPU ms, peak RSS MiB
}

// sizeSweep prints the sweep table for members (the repository at dir is
// the 20,000-file one already generated) and the extrapolation.
func sizeSweep(b *testing.B, dir string, members []string) {
	b.Helper()
	gates := binBench // see acceptance
	fmt.Printf("\nsize sweep: battery of %d gates, GATE_SDK_CACHE=off, medians of 3 (GATES_BENCH_SWEEP=full adds 2,000-10,000 and 300,000 files)\n\n", len(members))
	fmt.Println("| files | tracked MiB | largest file KiB | battery | read floor | ratio | ms per 1,000 files | battery CPU | floor CPU | CPU ratio | CPU ms per 1,000 files | peak RSS MiB | RSS bound (1.5×largest + 100 MiB) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	var pts []sweepPoint
	for _, size := range sweepSizes() {
		d := dir
		if size != trackedFiles {
			d = filepath.Join(scratch, "sweep-"+strconv.Itoa(size))
			if err := generate(d, size); err != nil {
				b.Fatal(err)
			}
		}
		if err := write(d, "scripts/gates.list", strings.Join(members, "\n")+"\n", 0o644); err != nil {
			b.Fatal(err)
		}
		pages(b, d)
		var fl, fcpu, bcpu []time.Duration
		var total, largest int64
		for i := 0; i < 3; i++ {
			f, c, t, l := readFloorCPU(b, d)
			fl, fcpu = append(fl, f), append(fcpu, c)
			total, largest = t, l
		}
		wall, rss, _ := sample(3, nil, func() (time.Duration, int64, int) {
			w, r, c, cpu := timedCPU(b, d, []string{"GATE_SDK_CACHE=off"}, gates, "--run")
			if c != 0 {
				b.Fatalf("the battery over %d files exited %d; the sweep would time a red run", size, c)
			}
			bcpu = append(bcpu, cpu)
			return w, r, c
		})
		f, fc, bc := median(fl), median(fcpu), median(bcpu)
		bound := 1.5*float64(largest)/(1<<20) + 100
		fmt.Printf("| %d | %.1f | %.1f | %.0f ms | %.0f ms | %.2f× | %.1f | %.0f ms | %.0f ms | %.2f× | %.1f | %.0f | %.0f |\n", size, float64(total)/(1<<20), float64(largest)/1024, ms(wall), ms(f), float64(wall)/float64(f), ms(wall)/float64(size)*1000,
			ms(bc), ms(fc), float64(bc)/float64(fc), ms(bc)/float64(size)*1000, float64(rss)/1024, bound)
		b.ReportMetric(float64(bc)/float64(fc), fmt.Sprintf("x-cpu-battery-%dk", size/1000))
		pts = append(pts, sweepPoint{size, ms(bc), float64(rss) / 1024})
		if size != trackedFiles {
			os.RemoveAll(d)
		}
	}
	fmt.Println()
	fmt.Println(extrapolate(pts, 1000000))
}

// extrapolate fits CPU against files by least squares over the points
// from 20,000 files up and answers the line read at n. Peak RSS is not
// fitted: with the collector off below the soft limit the heap grows to
// the limit, so the peak is the limit the listing is given
// (memlimit.For) plus the runtime's own memory outside it, which is
// taken from the largest size measured.
func extrapolate(pts []sweepPoint, n int) string {
	var use []sweepPoint
	for _, p := range pts {
		if p.files >= 20000 {
			use = append(use, p)
		}
	}
	if len(use) < 2 {
		return "extrapolation: fewer than two sizes from 20,000 files up; none drawn"
	}
	var sx, sy, sxx, sxy float64
	for _, p := range use {
		x := float64(p.files)
		sx, sy, sxx, sxy = sx+x, sy+p.cpu, sxx+x*x, sxy+x*p.cpu
	}
	k := float64(len(use))
	slope := (k*sxy - sx*sy) / (k*sxx - sx*sx)
	icept := (sy - slope*sx) / k
	var sizes []string
	for _, p := range use {
		sizes = append(sizes, strconv.Itoa(p.files))
	}
	last := use[len(use)-1]
	// What runs outside the limit (the binary's mapped code, mostly): the
	// largest size's peak past its limit, none when it stayed under.
	own := max(0, last.rss-float64(memlimit.For(last.files))/(1<<20))
	limit := float64(memlimit.For(n)) / (1 << 20)
	return fmt.Sprintf("extrapolation to %d files: battery CPU %.0f ms + %.2f ms per 1,000 files (least squares over %s files) = %.1f s; peak RSS at most the soft limit for %d files, %.0f MiB (max(%d MiB, %d B a file)), plus %.0f MiB outside it (measured at %d files: peak %.0f MiB) = %.0f MiB\n",
		n, icept, slope*1000, strings.Join(sizes, ", "), (icept+slope*float64(n))/1000, n, limit, memlimit.Floor>>20, memlimit.PerFile, own, last.files, last.rss, limit+own)
}
