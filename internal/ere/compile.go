package ere

type opcode uint8

const (
	opByte  opcode = iota // consume one byte in set, go to out
	opSplit               // go to out and to alt
	opNop                 // go to out
	opBegin               // continue to out only at subject position 0
	opEnd                 // continue to out only at the subject's end
	opMatch               // accept
)

type inst struct {
	op       opcode
	out, alt int32
	set      byteSet
}

// prog is a Thompson NFA. A reverse prog accepts the reversed language and
// is run from right to left; its anchors keep their absolute meaning.
type prog struct {
	insts   []inst
	start   int32
	reverse bool
	classOf [256]uint8 // byte -> equivalence class over every set in insts
	nclass  int
}

type hole struct {
	pc  int32
	alt bool
}

type frag struct {
	start int32
	holes []hole
}

type compiler struct {
	insts   []inst
	reverse bool
	tooBig  bool
}

func (c *compiler) emit(in inst) int32 {
	if len(c.insts) >= maxInsts {
		c.tooBig = true
		return 0
	}
	c.insts = append(c.insts, in)
	return int32(len(c.insts) - 1)
}

func (c *compiler) patch(hs []hole, to int32) {
	for _, h := range hs {
		if h.alt {
			c.insts[h.pc].alt = to
		} else {
			c.insts[h.pc].out = to
		}
	}
}

// progSize bounds from above the instructions n compiles to, saturating
// just past maxInsts so intervals of intervals cannot overflow.
func progSize(n *node) int {
	sat := func(v int) int { return min(v, maxInsts+1) }
	switch n.kind {
	case nGroup:
		return progSize(n.subs[0])
	case nCat, nAlt:
		t := len(n.subs)
		for _, s := range n.subs {
			t = sat(t + progSize(s))
		}
		return t
	case nRepeat:
		s := progSize(n.subs[0]) + 1
		copies := n.max
		if copies < 0 {
			copies = max(n.min, 1)
		}
		return sat(s*copies + 1)
	}
	return 1
}

// compileProg builds the program for n, or nil when it exceeds maxInsts.
func compileProg(n *node, reverse bool) *prog {
	size := progSize(n)
	if size > maxInsts {
		return nil
	}
	// The bound sizes the program's array once (the match instruction
	// beside it), where growing it by appends copied it about ten times
	// for a pattern of a few hundred instructions.
	c := &compiler{reverse: reverse, insts: make([]inst, 0, min(size+1, 4096))}
	f := c.gen(n)
	m := c.emit(inst{op: opMatch})
	if c.tooBig {
		return nil
	}
	c.patch(f.holes, m)
	p := &prog{insts: c.insts, start: f.start, reverse: reverse}
	p.buildClasses()
	return p
}

func (c *compiler) gen(n *node) frag {
	if c.tooBig {
		return frag{}
	}
	switch n.kind {
	case nSet:
		pc := c.emit(inst{op: opByte, set: n.set})
		return frag{pc, []hole{{pc, false}}}
	case nBegin, nEnd, nEmpty:
		op := opNop
		if n.kind == nBegin {
			op = opBegin
		} else if n.kind == nEnd {
			op = opEnd
		}
		pc := c.emit(inst{op: op})
		return frag{pc, []hole{{pc, false}}}
	case nGroup:
		return c.gen(n.subs[0])
	case nCat:
		subs := n.subs
		var f frag
		for k := range subs {
			s := subs[k]
			if c.reverse {
				s = subs[len(subs)-1-k]
			}
			g := c.gen(s)
			if k == 0 {
				f = g
				continue
			}
			if c.tooBig {
				return frag{}
			}
			c.patch(f.holes, g.start)
			f.holes = g.holes
		}
		return f
	case nAlt:
		var holes []hole
		var starts []int32
		for _, s := range n.subs {
			g := c.gen(s)
			starts = append(starts, g.start)
			holes = append(holes, g.holes...)
		}
		// Chain splits right to left: split(b0, split(b1, ... bn)).
		next := starts[len(starts)-1]
		for k := len(starts) - 2; k >= 0; k-- {
			next = c.emit(inst{op: opSplit, out: starts[k], alt: next})
		}
		return frag{next, holes}
	case nRepeat:
		return c.repeat(n)
	}
	panic("ere: unknown node")
}

func (c *compiler) repeat(n *node) frag {
	sub := n.subs[0]
	var parts []frag
	if n.max == 0 {
		pc := c.emit(inst{op: opNop})
		return frag{pc, []hole{{pc, false}}}
	}
	mandatory := n.min
	if n.max < 0 && mandatory > 0 {
		mandatory-- // the last mandatory copy becomes the loop body of x+
	}
	for k := 0; k < mandatory && !c.tooBig; k++ {
		parts = append(parts, c.gen(sub))
	}
	switch {
	case n.max < 0 && n.min > 0: // x+
		g := c.gen(sub)
		l := c.emit(inst{op: opSplit, out: g.start})
		if c.tooBig {
			return frag{}
		}
		c.patch(g.holes, l)
		parts = append(parts, frag{g.start, []hole{{l, true}}})
	case n.max < 0: // x*
		l := c.emit(inst{op: opSplit})
		g := c.gen(sub)
		if c.tooBig {
			return frag{}
		}
		c.insts[l].out = g.start
		c.patch(g.holes, l)
		parts = append(parts, frag{l, []hole{{l, true}}})
	default: // (x(x(x)?)?)? for the max-min optional copies
		var inner *frag
		for k := 0; k < n.max-n.min && !c.tooBig; k++ {
			g := c.gen(sub)
			if c.tooBig {
				return frag{}
			}
			if inner != nil {
				c.patch(g.holes, inner.start)
				g.holes = inner.holes
			}
			sp := c.emit(inst{op: opSplit, out: g.start})
			inner = &frag{sp, append(g.holes, hole{sp, true})}
		}
		if inner != nil {
			parts = append(parts, *inner)
		}
	}
	if c.tooBig {
		return frag{}
	}
	f := parts[0]
	for _, g := range parts[1:] {
		c.patch(f.holes, g.start)
		f.holes = g.holes
	}
	return f
}

// buildClasses splits the 256 byte values into runs of consecutive bytes
// that every instruction treats alike, so the DFA keeps one transition per
// run instead of one per byte. A run starts at byte b (b > 0) when some
// set holds exactly one of b-1 and b: the set XOR itself shifted up by one
// bit, taken over the four words at once, marks every such b.
func (p *prog) buildClasses() {
	var boundary byteSet
	for i := range p.insts {
		in := &p.insts[i]
		if in.op != opByte {
			continue
		}
		s := &in.set
		// bit b of up is bit b-1 of s (bit 0 is clear).
		up := byteSet{s[0] << 1, s[1]<<1 | s[0]>>63, s[2]<<1 | s[1]>>63, s[3]<<1 | s[2]>>63}
		for w := range boundary {
			boundary[w] |= s[w] ^ up[w]
		}
	}
	boundary[0] &^= 1 // byte 0 opens the first run, never a new one
	cls := 0
	for b := 0; b < 256; b++ {
		if boundary.has(byte(b)) {
			cls++
		}
		p.classOf[b] = uint8(cls)
	}
	p.nclass = cls + 1
}
