package battery

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestPartitionCompleteDisjointDeterministic: over many registries and
// shard counts, every name lands in exactly one shard, each shard keeps
// registry order, and the same inputs give the same split.
func TestPartitionCompleteDisjointDeterministic(t *testing.T) {
	for size := 0; size <= 40; size += 7 {
		names := make([]string, size)
		costs := map[string]int64{}
		for i := range names {
			names[i] = fmt.Sprintf("check-%02d", i)
			if i%5 != 0 { // some gates have no record
				costs[names[i]] = int64((i*37)%101 + 1)
			}
		}
		for n := 1; n <= 6; n++ {
			for _, c := range []map[string]int64{nil, costs} {
				got := Partition(names, c, n)
				if len(got) != n {
					t.Fatalf("size %d n %d: %d shards", size, n, len(got))
				}
				seen := map[int]int{}
				for _, shard := range got {
					for j, i := range shard {
						seen[i]++
						if j > 0 && shard[j-1] >= i {
							t.Fatalf("size %d n %d: shard %v is not in registry order", size, n, shard)
						}
					}
				}
				for i := range names {
					if seen[i] != 1 {
						t.Fatalf("size %d n %d costs %v: %s is in %d shards", size, n, c != nil, names[i], seen[i])
					}
				}
				if again := Partition(names, c, n); !reflect.DeepEqual(again, got) {
					t.Fatalf("size %d n %d: two splits differ: %v %v", size, n, got, again)
				}
			}
		}
	}
}

// TestPartitionBalancesByCost: the recorded costs decide the split
// (longest first onto the least loaded shard), every shard's load stays
// within the greedy bound (the mean load plus the largest cost), and with
// no record the split is even by count.
func TestPartitionBalancesByCost(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e"}
	costs := map[string]int64{"a": 100, "b": 60, "c": 50, "d": 40, "e": 10}
	got := Partition(names, costs, 2)
	if want := [][]int{{0, 3}, {1, 2, 4}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("split %v, want %v", got, want)
	}
	// A count split would put a, c, e (160) against b, d (100); by cost
	// the slowest shard carries 140.
	if even := Partition(names, nil, 2); !reflect.DeepEqual(even, [][]int{{0, 2, 4}, {1, 3}}) {
		t.Fatalf("even split %v", even)
	}
	// One dominant gate gets a shard of its own.
	var many []string
	heavy := map[string]int64{"big": 1000}
	for i := 0; i < 30; i++ {
		n := fmt.Sprintf("g%02d", i)
		many = append(many, n)
		heavy[n] = int64(i%7 + 1)
	}
	many = append(many, "big")
	split := Partition(many, heavy, 4)
	var total, largest int64
	for _, c := range heavy {
		total += c
		largest = max(largest, c)
	}
	for s, shard := range split {
		var load int64
		for _, i := range shard {
			load += heavy[many[i]]
		}
		if load > total/4+largest {
			t.Errorf("shard %d carries %d, over the bound %d", s+1, load, total/4+largest)
		}
		if len(shard) == 1 && many[shard[0]] != "big" {
			t.Errorf("shard %d holds only %s", s+1, many[shard[0]])
		}
	}
	if len(split[0]) != 1 || many[split[0][0]] != "big" {
		t.Errorf("the dominant gate shares its shard: %v", split[0])
	}
}

func TestParseShardAndCosts(t *testing.T) {
	for _, ok := range []string{"1/1", "2/4", "4/4"} {
		if s, err := ParseShard(ok); err != nil || s.String() != ok {
			t.Errorf("%q: %v %v", ok, s, err)
		}
	}
	for _, bad := range []string{"", "0/4", "5/4", "1/0", "a/b", "1", "1/2/3", "-1/2", "+1/2", " 1/2"} {
		if _, err := ParseShard(bad); err == nil || !strings.Contains(err.Error(), "--shard") {
			t.Errorf("%q: accepted (%v)", bad, err)
		}
	}
	got := ParseCosts("check-a 12\ncheck-b x\ncheck-c 0\nTOTAL 12\n\n")
	if want := map[string]int64{"check-a": 12, "check-c": 0}; !reflect.DeepEqual(got, want) {
		t.Errorf("costs %v, want %v", got, want)
	}
}

// TestSplitPerFileInEveryShard: a per-file member is in every shard, the
// aggregate members are placed as Partition places them alone, each
// exactly once, and every shard stays in registry order.
func TestSplitPerFileInEveryShard(t *testing.T) {
	names := []string{"a", "pf1", "b", "c", "pf2", "d"}
	per := []bool{false, true, false, false, true, false}
	costs := map[string]int64{"a": 100, "pf1": 5000, "b": 60, "c": 50, "pf2": 900, "d": 40}
	for _, c := range []map[string]int64{nil, costs} {
		got := Split(names, per, c, 3)
		agg := Partition([]string{"a", "b", "c", "d"}, c, 3)
		aggIdx := []int{0, 2, 3, 5}
		for s, shard := range got {
			var want []int
			for i := range names {
				in := per[i]
				for _, j := range agg[s] {
					in = in || aggIdx[j] == i
				}
				if in {
					want = append(want, i)
				}
			}
			if !reflect.DeepEqual(shard, want) {
				t.Errorf("costs %v shard %d: %v, want %v", c != nil, s+1, shard, want)
			}
		}
	}
}

// TestFileSharesEvenTheLoads: the shard running a costly aggregate whole
// takes fewer of the per-file members' files, the shares lift every
// sharing shard to one level, and no record means equal shares.
func TestFileSharesEvenTheLoads(t *testing.T) {
	names := []string{"check-big", "check-a", "check-b", "check-c", "check-terms"}
	perFile := []bool{false, false, false, false, true}
	costs := map[string]int64{"check-big": 200, "check-a": 100, "check-b": 100, "check-c": 100, "check-terms": 400}
	split := Split(names, perFile, costs, 4)
	shares := FileShares(names, perFile, costs, split)
	load := make([]float64, 4)
	for s, idx := range split {
		for _, i := range idx {
			if !perFile[i] {
				load[s] += float64(costs[names[i]])
			}
		}
	}
	var sum float64
	for _, v := range shares {
		sum += v
	}
	if sum < 399.9 || sum > 400.1 {
		t.Fatalf("shares %v spread %v of the 400 ms", shares, sum)
	}
	for s := range shares {
		if total := load[s] + shares[s]; total < 224.9 || total > 225.1 {
			t.Fatalf("shard %d: load %v + share %v, want every shard at 225 (shares %v)", s+1, load[s], shares[s], shares)
		}
	}
	if got := FileShares(names, perFile, nil, Split(names, perFile, nil, 4)); got[0] != got[1] || got[1] != got[2] || got[2] != got[3] {
		t.Fatalf("no record: shares %v, want equal", got)
	}
	// An aggregate above the level takes no share.
	costs["check-big"] = 2000
	shares = FileShares(names, perFile, costs, Split(names, perFile, costs, 4))
	zero := 0
	for _, v := range shares {
		if v == 0 {
			zero++
		}
	}
	if zero != 1 {
		t.Fatalf("shares %v: want the shard of the 2000 ms aggregate to take none", shares)
	}
}

// Issue 42 item 17 (mutants that survived): one shard of one is the whole
// selection, per-file members and placed ones alike, with every file; and
// a member the record lacks costs the record's mean, never 1 ms.
func TestShardOfOneAndTheUnrecordedCost(t *testing.T) {
	names := []string{"a", "b", "c"}
	perFile := []bool{false, true, false}
	for _, costs := range []map[string]int64{nil, {"a": 5, "b": 7}} {
		split := Split(names, perFile, costs, 1)
		if !reflect.DeepEqual(split, [][]int{{0, 1, 2}}) {
			t.Errorf("Split(..., 1) with costs %v = %v, want [[0 1 2]]", costs, split)
		}
		if shares := FileShares(names, perFile, costs, split); len(shares) != 1 || shares[0] <= 0 {
			t.Errorf("FileShares of one shard = %v, want one positive share", shares)
		}
		if p := Partition(names, costs, 1); !reflect.DeepEqual(p, [][]int{{0, 1, 2}}) {
			t.Errorf("Partition(..., 1) = %v", p)
		}
	}
	got := memberCosts([]string{"a", "b", "new"}, map[string]int64{"a": 100, "b": 300})
	if !reflect.DeepEqual(got, []int64{100, 300, 200}) {
		t.Errorf("memberCosts = %v, want [100 300 200] (the unrecorded member at the mean)", got)
	}
	// Placement follows: the unrecorded member weighs the mean, so it is
	// not stacked onto the heavy shard as a 1 ms member would be.
	p := Partition([]string{"heavy", "mid", "new"}, map[string]int64{"heavy": 1000, "mid": 10}, 2)
	if !reflect.DeepEqual(p, [][]int{{0}, {1, 2}}) {
		t.Errorf("Partition with an unrecorded member = %v, want [[0] [1 2]]", p)
	}
}
