package gate

// A per-file rule under `gates --run --shard K/N` judges part of the
// tree: the files whose path hashes to K. The N shards together judge
// every file once, and each reads only the files it judges.

import (
	"fmt"
	"hash/fnv"
	"math"
)

// FilePart is part K of an N-way split of the tracked files, 1-based.
// Without a range (WeightedParts sets one) the parts are equal.
type FilePart struct {
	K, N int
	// lo and hi bound the part's share of the hash space, [lo, hi), the
	// last part's hi inclusive; ranged says they are set.
	lo, hi uint64
	ranged bool
}

// Holds reports whether path falls to this part: the 64-bit FNV-1a hash
// of its bytes, as the listing spells it, taken mod N, is K-1, or, for a
// weighted part, falls in its range. It depends on the path and the parts
// alone, so every shard of one run, over any checkout of the same tree,
// splits the files alike.
func (p FilePart) Holds(path string) bool {
	if p.N <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(path))
	v := h.Sum64()
	if p.ranged {
		return v >= p.lo && (v < p.hi || p.K == p.N)
	}
	return v%uint64(p.N) == uint64(p.K-1)
}

// WeightedParts answers the N parts whose shares of the files are shares
// (non-negative, any scale; all zero reads as equal): part K holds a run
// of the hash space as wide as its share, the parts in order, together
// the whole space, each file in exactly one.
//
// Equal shares (all zero among them) answer the equal split by remainder,
// the parts a shard without a cost record takes.
func WeightedParts(shares []float64) []FilePart {
	n := len(shares)
	var sum float64
	equal := true
	for _, s := range shares {
		if s > 0 {
			sum += s
		}
		equal = equal && s == shares[0]
	}
	if equal {
		sum = 0
	}
	out := make([]FilePart, n)
	var at float64
	for k := range out {
		out[k] = FilePart{K: k + 1, N: n}
		if sum <= 0 {
			continue
		}
		lo := at
		if shares[k] > 0 {
			at += shares[k] / sum
		}
		out[k].ranged = true
		out[k].lo, out[k].hi = scale(lo), scale(at)
	}
	if n > 0 && sum > 0 {
		out[0].lo = 0
	}
	return out
}

// scale maps a fraction of the hash space to its bound.
func scale(f float64) uint64 {
	if f <= 0 {
		return 0
	}
	if f >= 1 {
		return math.MaxUint64
	}
	return uint64(f * float64(math.MaxUint64))
}

func (p FilePart) String() string { return fmt.Sprintf("%d/%d", p.K, p.N) }

// partState is a context's part and what the rule said it judged.
type partState struct {
	FilePart
	judged, of int
	counted    bool
}

// SetPart restricts a per-file rule's context to part p of the files;
// the battery calls it for a shard's per-file members only.
func (c *Context) SetPart(p FilePart) {
	c.part = &partState{FilePart: p}
}

// Part answers the context's part and whether the rule judges only part
// of the files (a shard run).
func (c *Context) Part() (FilePart, bool) {
	if c.part == nil {
		return FilePart{}, false
	}
	return c.part.FilePart, true
}

// Judges reports whether the rule judges path in this run: always, except
// in a shard, where only the files of the shard's part. A per-file rule
// asks it before it reads a file, so a shard reads only what it judges.
func (c *Context) Judges(path string) bool {
	return c.part == nil || c.part.Holds(path)
}

// JudgedPart records, for the report's note, that the rule judged judged
// of the of files it would judge in a whole run. A no-op outside a shard.
func (c *Context) JudgedPart(judged, of int) {
	if c.part != nil {
		c.part.judged, c.part.of, c.part.counted = judged, of, true
	}
}

// partNote is the clause a shard's per-file report carries, so its clean
// line never reads as the whole tree's: "shard 2/4: 5012 of 20000 files
// judged here, the rest by the other shards".
func (c *Context) partNote() string {
	if c.part == nil {
		return ""
	}
	if !c.part.counted {
		return fmt.Sprintf("shard %d/%d: only the files hashing to this shard judged, the rest by the other shards", c.part.K, c.part.N)
	}
	return fmt.Sprintf("shard %d/%d: %d of %s judged here, the rest by the other shards", c.part.K, c.part.N, c.part.judged, Count(c.part.of, "file", "files"))
}
