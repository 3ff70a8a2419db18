// Package diff renders the difference between two line sequences in the
// normal format, exactly as `diff` with no options prints it.
//
// Normal is pure: it reads no knob, takes no path, starts no process and
// knows nothing about what the lines mean. It returns every hunk; cutting
// a report short is the caller's business (Capped, with StaleReportCap for
// the freshness reports).
//
// Byte-for-byte agreement with GNU diff means choosing the same hunks, not
// just a minimal edit script, so the algorithm follows GNU diff's own: the
// common prefix and suffix are set aside, lines with no partner in the
// other sequence are discarded before the comparison (and confusing
// frequent lines, by the same rules), the remainder goes through Myers'
// middle-snake divide and conquer with GNU's diagonal order, and change
// runs are then slid to GNU's canonical positions.
package diff

import (
	"math"
	"strconv"
)

// StaleReportCap is how many lines of a diff a stale-projection report
// shows: the shell freshness gates piped their diff through head -20.
const StaleReportCap = 20

// Capped answers at most max of lines, the first ones, as head -n max
// would. A negative max leaves lines whole.
func Capped(lines []string, max int) []string {
	if max < 0 || len(lines) <= max {
		return lines
	}
	return lines[:max]
}

// Normal answers the normal-format diff from a to b: for each hunk a
// header "NcM", "NdM" or "NaM" with N and M line numbers or "first,last"
// ranges, the removed lines prefixed "< ", a "---" line when the hunk both
// removes and adds, and the added lines prefixed "> ". Equal inputs give
// no lines. The lines carry no trailing newline; each element is one line.
func Normal(a, b []string) []string { return normal(a, b, nil) }

func normal(a, b []string, onTooExpensive func()) []string {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma) == 0 && len(mb) == 0 {
		return nil
	}

	// Equivalence classes, numbered from 1.
	ids := make(map[string]int)
	eqs := [2][]int{make([]int, len(ma)), make([]int, len(mb))}
	for f, lines := range [2][]string{ma, mb} {
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = len(ids) + 1
				ids[l] = id
			}
			eqs[f][i] = id
		}
	}
	// changed[f][i+1] marks line i of the middle of file f; the ends are
	// sentinels that stay false.
	changed := [2][]bool{make([]bool, len(ma)+2), make([]bool, len(mb)+2)}

	kept, real := discardConfusing(eqs, len(ids), changed)
	c := &context{xv: kept[0], yv: kept[1], onTooExpensive: onTooExpensive}
	diags := len(c.xv) + len(c.yv) + 3
	c.fd = make([]int, diags)
	c.bd = make([]int, diags)
	c.off = len(c.yv) + 1
	te := 1
	for d := diags; d != 0; d >>= 2 {
		te <<= 1
	}
	c.tooExpensive = max(4096, te)
	c.noteDelete = func(x int) { changed[0][real[0][x]+1] = true }
	c.noteInsert = func(y int) { changed[1][real[1][y]+1] = true }
	c.compareseq(0, len(c.xv), 0, len(c.yv), false)

	shiftBoundaries(eqs, changed)
	return render(ma, mb, pre, changed)
}

// discardConfusing sets aside lines that cannot help the comparison: a
// line with no equal in the other file is always a change, and a line with
// very many equals is set aside when it sits inside a run of such lines.
// It marks set-aside lines changed and answers, per file, the class ids of
// the lines kept and their indexes in the middle.
func discardConfusing(eqs [2][]int, nclasses int, changed [2][]bool) (kept, real [2][]int) {
	var counts [2][]int
	for f := range 2 {
		counts[f] = make([]int, nclasses+1)
		for _, e := range eqs[f] {
			counts[f][e]++
		}
	}
	var discards [2][]byte
	for f := range 2 {
		end := len(eqs[f])
		discards[f] = make([]byte, end)
		other := counts[1-f]
		many := 5
		for tem := end / 64; ; {
			tem >>= 2
			if tem <= 0 {
				break
			}
			many *= 2
		}
		for i, e := range eqs[f] {
			switch n := other[e]; {
			case n == 0:
				discards[f][i] = 1
			case n > many:
				discards[f][i] = 2
			}
		}
	}
	// A provisional discard (2) stands only inside a run of discards that
	// starts and ends with a definite one, and not too near either end.
	for f := range 2 {
		d := discards[f]
		end := len(d)
		for i := 0; i < end; i++ {
			if d[i] == 2 {
				d[i] = 0
				continue
			}
			if d[i] == 0 {
				continue
			}
			provisional := 0
			j := i
			for ; j < end && d[j] != 0; j++ {
				if d[j] == 2 {
					provisional++
				}
			}
			for j > i && d[j-1] == 2 {
				j--
				d[j] = 0
				provisional--
			}
			length := j - i
			if provisional*4 > length {
				for j > i {
					j--
					if d[j] == 2 {
						d[j] = 0
					}
				}
				continue
			}
			minimum := 1
			for tem := length >> 2; ; {
				tem >>= 2
				if tem <= 0 {
					break
				}
				minimum <<= 1
			}
			minimum++
			consec := 0
			for j = 0; j < length; j++ {
				if d[i+j] != 2 {
					consec = 0
					continue
				}
				consec++
				if consec == minimum {
					j -= consec
				} else if consec > minimum {
					d[i+j] = 0
				}
			}
			consec = 0
			for j = 0; j < length; j++ {
				if j >= 8 && d[i+j] == 1 {
					break
				}
				switch d[i+j] {
				case 2:
					consec = 0
					d[i+j] = 0
				case 0:
					consec = 0
				default:
					consec++
				}
				if consec == 3 {
					break
				}
			}
			i += length - 1
			consec = 0
			for j = 0; j < length; j++ {
				if j >= 8 && d[i-j] == 1 {
					break
				}
				switch d[i-j] {
				case 2:
					consec = 0
					d[i-j] = 0
				case 0:
					consec = 0
				default:
					consec++
				}
				if consec == 3 {
					break
				}
			}
		}
	}
	for f := range 2 {
		for i, e := range eqs[f] {
			if discards[f][i] == 0 {
				kept[f] = append(kept[f], e)
				real[f] = append(real[f], i)
			} else {
				changed[f][i+1] = true
			}
		}
	}
	return kept, real
}

type context struct {
	xv, yv       []int
	fd, bd       []int // furthest-reaching x per diagonal, indexed by diagonal+off
	off          int
	tooExpensive int
	noteDelete   func(x int)
	noteInsert   func(y int)

	onTooExpensive func() // test hook
}

// compareseq finds the changes between xv[xoff:xlim] and yv[yoff:ylim].
func (c *context) compareseq(xoff, xlim, yoff, ylim int, findMinimal bool) {
	xv, yv := c.xv, c.yv
	for xoff < xlim && yoff < ylim && xv[xoff] == yv[yoff] {
		xoff++
		yoff++
	}
	for xoff < xlim && yoff < ylim && xv[xlim-1] == yv[ylim-1] {
		xlim--
		ylim--
	}
	switch {
	case xoff == xlim:
		for ; yoff < ylim; yoff++ {
			c.noteInsert(yoff)
		}
	case yoff == ylim:
		for ; xoff < xlim; xoff++ {
			c.noteDelete(xoff)
		}
	default:
		xmid, ymid, loMin, hiMin := c.diag(xoff, xlim, yoff, ylim, findMinimal)
		c.compareseq(xoff, xmid, yoff, ymid, loMin)
		c.compareseq(xmid, xlim, ymid, ylim, hiMin)
	}
}

// diag finds the midpoint of a shortest edit script for the two ranges by
// running the forward and backward searches until they overlap, giving up
// for an approximate midpoint past tooExpensive rounds.
func (c *context) diag(xoff, xlim, yoff, ylim int, findMinimal bool) (int, int, bool, bool) {
	xv, yv := c.xv, c.yv
	off := c.off
	fd, bd := c.fd, c.bd
	dmin, dmax := xoff-ylim, xlim-yoff
	fmid, bmid := xoff-yoff, xlim-ylim
	fmin, fmax := fmid, fmid
	bmin, bmax := bmid, bmid
	odd := (fmid-bmid)&1 != 0
	fd[fmid+off] = xoff
	bd[bmid+off] = xlim
	for cost := 1; ; cost++ {
		if fmin > dmin {
			fmin--
			fd[fmin-1+off] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			fd[fmax+1+off] = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			tlo, thi := fd[d-1+off], fd[d+1+off]
			x0 := tlo + 1
			if tlo < thi {
				x0 = thi
			}
			x, y := x0, x0-d
			for x < xlim && y < ylim && xv[x] == yv[y] {
				x++
				y++
			}
			fd[d+off] = x
			if odd && bmin <= d && d <= bmax && bd[d+off] <= x {
				return x, y, true, true
			}
		}
		if bmin > dmin {
			bmin--
			bd[bmin-1+off] = math.MaxInt
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			bd[bmax+1+off] = math.MaxInt
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			tlo, thi := bd[d-1+off], bd[d+1+off]
			x0 := thi - 1
			if tlo < thi {
				x0 = tlo
			}
			x, y := x0, x0-d
			for xoff < x && yoff < y && xv[x-1] == yv[y-1] {
				x--
				y--
			}
			bd[d+off] = x
			if !odd && fmin <= d && d <= fmax && x <= fd[d+off] {
				return x, y, true, true
			}
		}
		if findMinimal || cost < c.tooExpensive {
			continue
		}
		if c.onTooExpensive != nil {
			c.onTooExpensive()
		}
		// Too expensive: take the better of the furthest forward and
		// backward reaches as the split point.
		fxybest, fxbest := -1, 0
		for d := fmax; d >= fmin; d -= 2 {
			x := min(fd[d+off], xlim)
			y := x - d
			if ylim < y {
				x, y = ylim+d, ylim
			}
			if fxybest < x+y {
				fxybest, fxbest = x+y, x
			}
		}
		bxybest, bxbest := math.MaxInt, 0
		for d := bmax; d >= bmin; d -= 2 {
			x := max(xoff, bd[d+off])
			y := x - d
			if y < yoff {
				x, y = yoff+d, yoff
			}
			if x+y < bxybest {
				bxybest, bxbest = x+y, x
			}
		}
		if (xlim+ylim)-bxybest < fxybest-(xoff+yoff) {
			return fxbest, fxybest - fxbest, true, false
		}
		return bxbest, bxybest - bxbest, false, true
	}
}

// shiftBoundaries slides each run of changes as far back as it can merge
// with an earlier run, then forward as far as it can, and finally back to
// line up with a run of changes in the other file where one corresponds.
func shiftBoundaries(eqs [2][]int, changed [2][]bool) {
	for f := range 2 {
		ch := changed[f]
		oth := changed[1-f]
		eq := eqs[f]
		iEnd := len(eq)
		i, j := 0, 0
		for {
			for i < iEnd && !ch[i+1] {
				for oth[j+1] {
					j++
				}
				j++
				i++
			}
			if i == iEnd {
				break
			}
			start := i
			i++
			for ch[i+1] {
				i++
			}
			for oth[j+1] {
				j++
			}
			var corresponding int
			for {
				runlength := i - start
				for start > 0 && eq[start-1] == eq[i-1] {
					start--
					ch[start+1] = true
					i--
					ch[i+1] = false
					for ch[start] {
						start--
					}
					for {
						j--
						if !oth[j+1] {
							break
						}
					}
				}
				corresponding = iEnd
				if oth[j] {
					corresponding = i
				}
				for i != iEnd && eq[start] == eq[i] {
					ch[start+1] = false
					start++
					ch[i+1] = true
					i++
					for ch[i+1] {
						i++
					}
					for {
						j++
						if !oth[j+1] {
							break
						}
						corresponding = i
					}
				}
				if runlength == i-start {
					break
				}
			}
			for corresponding < i {
				start--
				ch[start+1] = true
				i--
				ch[i+1] = false
				for {
					j--
					if !oth[j+1] {
						break
					}
				}
			}
		}
	}
}

// render walks both middles in step; unchanged lines pair off one to one,
// and every stretch between pairs is one hunk.
func render(a, b []string, pre int, changed [2][]bool) []string {
	var out []string
	ca, cb := changed[0], changed[1]
	i0, i1 := 0, 0
	for i0 < len(a) || i1 < len(b) {
		if (i0 < len(a) && ca[i0+1]) || (i1 < len(b) && cb[i1+1]) {
			s0, s1 := i0, i1
			for i0 < len(a) && ca[i0+1] {
				i0++
			}
			for i1 < len(b) && cb[i1+1] {
				i1++
			}
			out = hunk(out, a, b, pre, s0, i0, s1, i1)
		}
		i0++
		i1++
	}
	return out
}

func hunk(out, a, b []string, pre, s0, e0, s1, e1 int) []string {
	op := "c"
	switch {
	case s1 == e1:
		op = "d"
	case s0 == e0:
		op = "a"
	}
	out = append(out, span(pre+s0, pre+e0)+op+span(pre+s1, pre+e1))
	for _, l := range a[s0:e0] {
		out = append(out, "< "+l)
	}
	if op == "c" {
		out = append(out, "---")
	}
	for _, l := range b[s1:e1] {
		out = append(out, "> "+l)
	}
	return out
}

// span prints the 1-based lines (s, e]: "e" for one line or for none (the
// line the change follows), "s+1,e" for several.
func span(s, e int) string {
	if e-s > 1 {
		return strconv.Itoa(s+1) + "," + strconv.Itoa(e)
	}
	return strconv.Itoa(e)
}
