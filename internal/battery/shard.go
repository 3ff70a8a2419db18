package battery

// Sharding: `gates --run --shard K/N` runs one of N disjoint parts of the
// battery, so N matrix jobs together run every member exactly once.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Shard names one part of a split: K of N, 1-based.
type Shard struct{ K, N int }

// ParseShard reads "K/N": two decimal integers with 1 ≤ K ≤ N.
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	ki, kerr := strconv.Atoi(k)
	ni, nerr := strconv.Atoi(n)
	if !ok || kerr != nil || nerr != nil || strings.ContainsAny(s, "+- ") {
		return Shard{}, fmt.Errorf("--shard takes K/N (two whole numbers, 1 ≤ K ≤ N), not %q", s)
	}
	if ni < 1 || ki < 1 || ki > ni {
		return Shard{}, fmt.Errorf("--shard %s: K must be between 1 and N, and N at least 1", s)
	}
	return Shard{K: ki, N: ni}, nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// ParseCosts reads a timings record (`<gate> <ms>` lines, `TOTAL` last,
// as Timings writes it) into each gate's cost. A malformed line is
// skipped: the record only steers the split, never a verdict.
func ParseCosts(data string) map[string]int64 {
	costs := map[string]int64{}
	for _, line := range strings.Split(data, "\n") {
		name, ms, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || name == "TOTAL" {
			continue
		}
		if v, err := strconv.ParseInt(strings.TrimSpace(ms), 10, 64); err == nil && v >= 0 {
			costs[name] = v
		}
	}
	return costs
}

// Partition assigns each of names (in registry order) to one of n
// shards and answers, per shard, the indexes into names it runs, each
// list in registry order.
//
// With costs, it is the longest-first greedy split: names sorted by cost,
// largest first (ties by registry order), each given to the shard with
// the least cost so far (ties to the lowest shard). A name the record
// lacks costs the mean of the recorded ones (1 ms when none is above 0),
// and every cost is at least 1 ms, so a shard of free gates still counts
// them. With no costs at all it is an even split by count: name i goes
// to shard i mod n. Either way the answer depends only on its inputs.
func Partition(names []string, costs map[string]int64, n int) [][]int {
	out := make([][]int, n)
	if n < 1 {
		return nil
	}
	if len(costs) == 0 {
		for i := range names {
			out[i%n] = append(out[i%n], i)
		}
		return out
	}
	cost := memberCosts(names, costs)
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return cost[order[a]] > cost[order[b]] })
	load := make([]int64, n)
	for _, i := range order {
		best := 0
		for s := 1; s < n; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		load[best] += cost[i]
		out[best] = append(out[best], i)
	}
	for s := range out {
		sort.Ints(out[s])
	}
	return out
}

// Split is Partition with the per-file members split by file instead of
// placed: a member perFile marks is in every shard (each judges the files
// of its own part, gate.FilePart), and the others, the aggregate members,
// are placed by Partition over them alone (the per-file members add the
// same share of their cost to every shard, so they change no placement).
// Each shard's list is in registry order.
func Split(names []string, perFile []bool, costs map[string]int64, n int) [][]int {
	if n < 1 {
		return nil
	}
	var whole []int
	var wholeNames []string
	for i, name := range names {
		if i >= len(perFile) || !perFile[i] {
			whole = append(whole, i)
			wholeNames = append(wholeNames, name)
		}
	}
	placed := Partition(wholeNames, costs, n)
	out := make([][]int, n)
	for s := range out {
		in := map[int]bool{}
		for _, j := range placed[s] {
			in[whole[j]] = true
		}
		for i := range names {
			if in[i] || (i < len(perFile) && perFile[i]) {
				out[s] = append(out[s], i)
			}
		}
	}
	return out
}

// FileShares answers, for a Split of names into n shards, each shard's
// share of the files its per-file members judge: what evens the shards'
// loads, given the cost of the aggregate members each runs whole (the
// same recorded costs and fill as Partition) and the per-file members'
// cost spread by share. A shard whose aggregates already cost more than
// the level the rest fill to gets none. With no costs, or no per-file
// cost, every share is equal.
func FileShares(names []string, perFile []bool, costs map[string]int64, split [][]int) []float64 {
	n := len(split)
	shares := make([]float64, n)
	for s := range shares {
		shares[s] = 1
	}
	if n == 0 || len(costs) == 0 {
		return shares
	}
	costOf := memberCosts(names, costs)
	cost := func(i int) float64 { return float64(costOf[i]) }
	var spread float64
	for i := range names {
		if i < len(perFile) && perFile[i] {
			spread += cost(i)
		}
	}
	if spread <= 0 {
		return shares
	}
	load := make([]float64, n)
	for s, idx := range split {
		for _, i := range idx {
			if i >= len(perFile) || !perFile[i] {
				load[s] += cost(i)
			}
		}
	}
	// The level every shard below it fills to: the shards taking a share
	// are the least loaded ones, and their loads plus the spread cost
	// share the level evenly.
	sorted := append([]float64(nil), load...)
	sort.Float64s(sorted)
	level, acc := 0.0, 0.0
	for m := 1; m <= n; m++ {
		acc += sorted[m-1]
		level = (acc + spread) / float64(m)
		if m == n || level <= sorted[m] {
			break
		}
	}
	for s := range shares {
		shares[s] = max(0, level-load[s])
	}
	return shares
}

// memberCosts answers each name's cost from the record: a name the record
// lacks costs the recorded mean (1 ms when none is above 0), and none
// costs less than 1 ms.
func memberCosts(names []string, costs map[string]int64) []int64 {
	var sum, cnt int64
	for _, c := range costs {
		sum += c
		cnt++
	}
	fill := int64(1)
	if cnt > 0 && sum/cnt > 1 {
		fill = sum / cnt
	}
	cost := make([]int64, len(names))
	for i, name := range names {
		c, ok := costs[name]
		if !ok {
			c = fill
		}
		cost[i] = max(c, 1)
	}
	return cost
}
