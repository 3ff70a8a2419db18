//go:build unix

package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// shardSummary is the line a shard run ends with.
var shardSummary = regexp.MustCompile(`(?m)^shard ([0-9]+)/4: ([0-9]+) of ([0-9]+) gates? \((.*)\)$`)

// shardPerFile is the count of per-file members a shard's summary opens
// its parenthetical with.
var shardPerFile = regexp.MustCompile(`^([0-9]+) per-file gates? over the files hashing to this shard(?: \([0-9]+% of them\))?, ([0-9]+) whole; `)

// BenchmarkShards simulates a four-job CI matrix over a generated
// consumer of 100,000 files, the size the issue names for the split
// (GATES_BENCH_SHARD_FILES sets any other; 20,000 is the bench
// repository itself, which a quick run can reuse): the
// whole battery (every shipped gate, cache off so each gate does its whole
// work, as on a cold runner) once to record each gate's cost, then the
// whole battery and each `--shard K/4` timed, medians of 3, one after
// another on this machine. The row prints the slowest shard as a share of
// the whole run (the target: at most 35%) and checks that the
// shards together ran every aggregate gate once and every per-file gate
// in each shard. A last row is CI's usual case: the result cache the
// workflow restores, warm from the previous whole run, with one file
// changed since (each timed run starts from that same restored cache).
// Figures only: no timing fails.
func BenchmarkShards(b *testing.B) {
	if err := setup(); err != nil {
		b.Fatal(err)
	}
	size := 100000
	if v, err := strconv.Atoi(os.Getenv("GATES_BENCH_SHARD_FILES")); err == nil && v > 0 {
		size = v
	}
	for i := 0; i < b.N; i++ {
		shards(b, size)
	}
	b.ReportMetric(0, "ns/op")
}

func shards(b *testing.B, size int) {
	d := repoDir // the bench repository, at the default size
	if size != trackedFiles {
		d = filepath.Join(scratch, "shards-"+strconv.Itoa(size))
		if err := generate(d, size); err != nil {
			b.Fatal(err)
		}
		defer os.RemoveAll(d)
	}
	fmt.Printf("\nsharding over %d files: four `--shard K/4` jobs split by the whole run's cost record, GATE_SDK_CACHE=off (a cold runner), each run timed alone, medians of 3\n\n", size)
	fmt.Println("| battery | slowest shard | whole battery | share | shards | largest gate | note |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, v := range []struct {
		name    string
		members []string
	}{{"every shipped gate", shipped(b)}, {"ShellCheck excluded", shipped(b, shellCheckers...)}} {
		shardRow(b, d, size, v.name, v.members, nil)
	}
	warm := warmCache(b, d)
	shardRow(b, d, size, "every shipped gate, warm cache, one file changed", shipped(b), warm)
	fmt.Println()
}

// warmCache fills d's result cache with a whole run, changes one tracked
// file, and answers what each timed run does first: put the cache back as
// it was after that whole run, as CI restores it.
func warmCache(b *testing.B, d string) func() {
	if err := write(d, "scripts/gates.list", strings.Join(shipped(b), "\n")+"\n", 0o644); err != nil {
		b.Fatal(err)
	}
	pages(b, d)
	if _, _, code, out := timed(b, d, nil, binBench, "--run"); code != 0 {
		b.Fatalf("the warming run: exit %d\n%s", code, out)
	}
	cacheDir := filepath.Join(d, ".git", "gates-cache")
	saved := filepath.Join(scratch, "shards-cache-"+strconv.Itoa(os.Getpid()))
	_ = os.RemoveAll(saved)
	if out, err := exec.Command("cp", "-a", cacheDir, saved).CombinedOutput(); err != nil {
		b.Fatalf("saving the cache: %v\n%s", err, out)
	}
	if err := write(d, "docs/d000/note-00000.md", "# Note 0, edited\n", 0o644); err != nil {
		b.Fatal(err)
	}
	return func() {
		if err := os.RemoveAll(cacheDir); err != nil {
			b.Fatal(err)
		}
		if out, err := exec.Command("cp", "-a", saved, cacheDir).CombinedOutput(); err != nil {
			b.Fatalf("restoring the cache: %v\n%s", err, out)
		}
	}
}

// shardRow records the costs of one registry over d, then times the whole
// battery and its four shards and prints the row.
//
// restore, when set, runs with the cache on and is called before each
// timed run; otherwise the cache is off.
func shardRow(b *testing.B, d string, size int, name string, members []string, restore func()) {
	if err := write(d, "scripts/gates.list", strings.Join(members, "\n")+"\n", 0o644); err != nil {
		b.Fatal(err)
	}
	pages(b, d)
	off := []string{"GATE_SDK_CACHE=off"}
	if restore != nil {
		off = nil
		restore()
	}
	if _, _, code, out := timed(b, d, off, binBench, "--run"); code != 0 {
		b.Fatalf("the recording run: exit %d\n%s", code, out)
	}
	record, err := os.ReadFile(filepath.Join(d, ".tmp", "gate-timings.txt"))
	if err != nil {
		b.Fatalf("the whole run wrote no cost record: %v", err)
	}
	// The placement reads only a tracked record (every job of a commit
	// sees the same one), so the project tracks the whole run's.
	if err := write(d, "scripts/gate-timings.txt", string(record), 0o644); err != nil {
		b.Fatal(err)
	}
	add := exec.Command("git", "add", "scripts/gate-timings.txt")
	add.Dir = d
	if out, err := add.CombinedOutput(); err != nil {
		b.Fatalf("git add the cost record: %v\n%s", err, out)
	}
	largest, largestMS, total := "", int64(0), int64(0)
	for _, l := range strings.Split(string(record), "\n") {
		g, v, _ := strings.Cut(l, " ")
		n, _ := strconv.ParseInt(v, 10, 64)
		if g == "TOTAL" {
			total = n
		} else if n > largestMS {
			largest, largestMS = g, n
		}
	}
	wall := func(argv ...string) (time.Duration, string) {
		var out string
		w, _, _ := sample(3, nil, func() (time.Duration, int64, int) {
			if restore != nil {
				restore()
			}
			w, rss, code, o := timed(b, d, off, argv...)
			out = o
			return w, rss, code
		})
		return w, out
	}
	whole, _ := wall(binBench, "--run")
	var slowest time.Duration
	var parts []string
	ran, perFile := 0, -1
	for k := 1; k <= 4; k++ {
		w, out := wall(binBench, "--run", "--shard", fmt.Sprintf("%d/4", k))
		m := shardSummary.FindStringSubmatch(out)
		if m == nil {
			b.Fatalf("shard %d/4 printed no summary:\n%s", k, out)
		}
		n, _ := strconv.Atoi(m[2])
		per := 0
		if pm := shardPerFile.FindStringSubmatch(m[4]); pm != nil {
			per, _ = strconv.Atoi(pm[1])
		}
		if perFile >= 0 && per != perFile {
			b.Fatalf("shard %d/4 ran %d per-file gates, another shard %d", k, per, perFile)
		}
		perFile = per
		ran += n - per
		slowest = max(slowest, w)
		parts = append(parts, fmt.Sprintf("%d: %.0f ms", n, ms(w)))
	}
	if ran+perFile != len(members) {
		b.Fatalf("the four shards ran %d aggregate gates and %d per-file ones of %d", ran, perFile, len(members))
	}
	fmt.Printf("| %s, %d gates | %.0f ms | %.0f ms | %.0f%% | %s | %s %d of %d ms | target ≤ 35%%; %d per-file gates in every shard over its files, the rest each in one shard |\n",
		name, len(members), ms(slowest), ms(whole), 100*float64(slowest)/float64(whole), strings.Join(parts, ", "), largest, largestMS, total, perFile)
	b.ReportMetric(float64(slowest)/float64(whole), "x-slowest-shard-"+slug(name))
}
