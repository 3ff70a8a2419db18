package ere

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// A dfa runs a prog by the subset construction, built lazily: each state
// is the set of NFA threads alive at one subject position, and a
// transition is computed the first time a search needs it and then cached.
// The cache is bounded and starts over when full, so at worst a search
// computes one thread-set closure per subject byte, which is the plain
// Thompson simulation: program-size work per byte, never backtracking.
//
// Assertions are absolute: ^ holds at position 0 and $ at len(subject).
// A state is computed for an interior position; a thread waiting on an
// assertion that may still hold later in the scan direction ($ forward,
// ^ backward) stays in the state, and the edge flag answers whether the
// state accepts once that assertion holds at the scan's far end.
//
// Concurrency: transitions are published with atomic stores and read with
// atomic loads, so the hot path takes no lock; building a state takes mu.
type dfa struct {
	p          *prog
	unanchored bool   // a new thread starts at every position
	prefix     string // non-empty: every match starts with it (unanchored forward only)

	classOf [256]uint8
	nclass  int

	starts [4]atomic.Pointer[dstate] // by (atBegin, atEnd)

	mu       sync.Mutex
	states   map[string]*dstate
	memUsed  int    // bytes held by the states in the cache
	midStart string // key of the unanchored start closure at an interior position
	visit    []uint32
	gen      uint32
	stack    []int32
	set      []int32
	bits     []uint64 // scratch for ordering large sets
	key      []byte

	// Work counters, under mu: transitions computed and threads popped by
	// closure. Tests bound them by the subject's length and the program's
	// size, the deterministic form of "linear time".
	steps, pops int64
}

const (
	fMatch uint8 = 1 << iota // accepts at an interior position
	fDead                    // no thread alive: nothing can match from here
	fIdle                    // only the fresh start threads: skip ahead on prefix
)

type dstate struct {
	next  []atomic.Pointer[dstate]
	pcs   []int32
	flags uint8
	edge  bool // accepts at the far end of the scan (position len forward, 0 backward)
}

// dfaMemory bounds the memory one DFA's cache holds.
const dfaMemory = 2 << 20

func newDFA(p *prog, unanchored bool, prefix string) *dfa {
	d := &dfa{
		p:          p,
		unanchored: unanchored,
		prefix:     prefix,
		classOf:    p.classOf,
		nclass:     p.nclass,
		states:     make(map[string]*dstate),
		visit:      make([]uint32, len(p.insts)),
	}
	d.bits = make([]uint64, (len(p.insts)+63)/64)
	if unanchored && prefix != "" && !p.reverse {
		d.set = d.set[:0]
		d.bump()
		d.closure(p.start, false, false)
		d.midStart = string(d.keyOf(d.sorted()))
	}
	return d
}

func (d *dfa) bump() {
	d.gen++
	if d.gen == 0 {
		clear(d.visit)
		d.gen = 1
	}
}

// closure adds to d.set every consuming, accepting or still-pending thread
// reachable from pc without consuming a byte, under the given assertion
// context. The caller bumps the generation once per set built.
func (d *dfa) closure(pc int32, atBegin, atEnd bool) {
	insts := d.p.insts
	stack := append(d.stack[:0], pc)
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		d.pops++
		if d.visit[pc] == d.gen {
			continue
		}
		d.visit[pc] = d.gen
		in := &insts[pc]
		switch in.op {
		case opByte, opMatch:
			d.set = append(d.set, pc)
		case opNop:
			stack = append(stack, in.out)
		case opSplit:
			stack = append(stack, in.alt, in.out)
		case opBegin:
			if atBegin {
				stack = append(stack, in.out)
			} else if d.p.reverse {
				d.set = append(d.set, pc)
			}
		case opEnd:
			if atEnd {
				stack = append(stack, in.out)
			} else if !d.p.reverse {
				d.set = append(d.set, pc)
			}
		}
	}
	d.stack = stack
}

// sorted puts d.set in ascending order: by comparison sort when the set
// is sparse, by a pass over a bitmap of the program when it is dense, so
// ordering costs O(program/64 + set) rather than O(set log set).
func (d *dfa) sorted() []int32 {
	set := d.set
	if len(set) < 64 || len(set) < len(d.bits) {
		slices.Sort(set)
		return set
	}
	for _, pc := range set {
		d.bits[pc>>6] |= 1 << (pc & 63)
	}
	set = set[:0]
	for w, word := range d.bits {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			set = append(set, int32(w*64+b))
			word &= word - 1
		}
		d.bits[w] = 0
	}
	d.set = set
	return set
}

func (d *dfa) keyOf(pcs []int32) []byte {
	k := d.key[:0]
	for _, pc := range pcs {
		k = binary.LittleEndian.AppendUint32(k, uint32(pc))
	}
	d.key = k
	return k
}

// intern answers the state for d.set, building it if new. Caller holds mu.
func (d *dfa) intern() *dstate {
	pcs := d.sorted()
	key := d.keyOf(pcs)
	if st, ok := d.states[string(key)]; ok {
		return st
	}
	st := &dstate{pcs: slices.Clone(pcs)}
	if len(pcs) == 0 {
		st.flags |= fDead
	}
	for _, pc := range pcs {
		if d.p.insts[pc].op == opMatch {
			st.flags |= fMatch
			st.edge = true
		}
	}
	if d.midStart != "" && string(key) == d.midStart {
		st.flags |= fIdle
	}
	if !st.edge {
		st.edge = d.edgeAccepts(st.pcs)
	}
	cost := d.nclass*8 + len(pcs)*8 + 128
	if d.memUsed+cost > dfaMemory && len(d.states) > 0 {
		// Start a fresh cache. States a running search holds stay valid
		// (a state is its thread set), and the old graph is collected
		// once no search holds it: old states point to new ones, never
		// the reverse.
		d.states = make(map[string]*dstate)
		d.memUsed = 0
		for i := range d.starts {
			d.starts[i].Store(nil)
		}
	}
	st.next = make([]atomic.Pointer[dstate], d.nclass)
	d.states[string(key)] = st
	d.memUsed += cost
	return st
}

// edgeAccepts reports whether threads pcs reach a match once the pending
// assertion of the scan direction holds.
func (d *dfa) edgeAccepts(pcs []int32) bool {
	saved := d.set
	d.set = nil
	d.bump()
	for _, pc := range pcs {
		switch d.p.insts[pc].op {
		case opBegin, opEnd:
			d.closure(pc, d.p.reverse, !d.p.reverse)
		}
	}
	ok := false
	for _, pc := range d.set {
		if d.p.insts[pc].op == opMatch {
			ok = true
			break
		}
	}
	d.set = saved
	return ok
}

// start answers the state at a scan's first position.
func (d *dfa) start(atBegin, atEnd bool) *dstate {
	i := 0
	if atBegin {
		i |= 1
	}
	if atEnd {
		i |= 2
	}
	if st := d.starts[i].Load(); st != nil {
		return st
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.set = d.set[:0]
	d.bump()
	d.closure(d.p.start, atBegin, atEnd)
	st := d.intern()
	d.starts[i].Store(st)
	return st
}

// step answers the state after s consumes b, at an interior position.
func (d *dfa) step(s *dstate, b byte) *dstate {
	c := d.classOf[b]
	d.mu.Lock()
	defer d.mu.Unlock()
	if ns := s.next[c].Load(); ns != nil {
		return ns
	}
	d.steps++
	d.set = d.set[:0]
	d.bump()
	insts := d.p.insts
	for _, pc := range s.pcs {
		if in := &insts[pc]; in.op == opByte && in.set.has(b) {
			d.closure(in.out, false, false)
		}
	}
	if d.unanchored {
		d.closure(d.p.start, false, false)
	}
	ns := d.intern()
	s.next[c].Store(ns)
	return ns
}

// work answers the transitions computed and the closure pops so far.
func (d *dfa) work() (steps, pops int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.steps, d.pops
}

// firstEnd runs an unanchored forward dfa from position from and answers
// the first position at which some match ends, or -1.
func (d *dfa) firstEnd(text string, from int) int {
	n := len(text)
	s := d.start(from == 0, from == n)
	i := from
	for i < n {
		if s.flags != 0 {
			if s.flags&fMatch != 0 {
				return i
			}
			if s.flags&fDead != 0 {
				return -1
			}
			k := strings.Index(text[i:], d.prefix)
			if k < 0 {
				return -1
			}
			i += k
		}
		ns := s.next[d.classOf[text[i]]].Load()
		if ns == nil {
			ns = d.step(s, text[i])
		}
		s = ns
		i++
	}
	if s.edge {
		return n
	}
	return -1
}

// leftmostStart runs an unanchored reverse dfa from the subject's end down
// to position from and answers the smallest position at or after from at
// which some match starts, or -1.
func (d *dfa) leftmostStart(text string, from int) int {
	n := len(text)
	s := d.start(n == 0, true)
	best := -1
	for i := n; ; i-- {
		if i == 0 {
			if s.edge {
				best = i
			}
		} else if s.flags&fMatch != 0 {
			best = i
		}
		if i == from || s.flags&fDead != 0 {
			return best
		}
		ns := s.next[d.classOf[text[i-1]]].Load()
		if ns == nil {
			ns = d.step(s, text[i-1])
		}
		s = ns
	}
}

// longestEnd runs an anchored forward dfa from position from and answers
// the last position at which a match starting at from ends, or -1.
func (d *dfa) longestEnd(text string, from int) int {
	n := len(text)
	s := d.start(from == 0, from == n)
	last := -1
	for i := from; ; i++ {
		if i == n {
			if s.edge {
				last = i
			}
			return last
		}
		if s.flags&fMatch != 0 {
			last = i
		}
		if s.flags&fDead != 0 {
			return last
		}
		ns := s.next[d.classOf[text[i]]].Load()
		if ns == nil {
			ns = d.step(s, text[i])
		}
		s = ns
	}
}

// marksForward runs an anchored forward dfa over [from, to] and sets
// ends[i-from] for every i at which a match starting at from ends.
func (d *dfa) marksForward(text string, from, to int, ends []bool) {
	n := len(text)
	s := d.start(from == 0, from == n)
	for i := from; ; i++ {
		if i == n {
			ends[i-from] = s.edge
		} else {
			ends[i-from] = s.flags&fMatch != 0
		}
		if i == to || s.flags&fDead != 0 {
			return
		}
		ns := s.next[d.classOf[text[i]]].Load()
		if ns == nil {
			ns = d.step(s, text[i])
		}
		s = ns
	}
}

// marksBackward runs an anchored reverse dfa over [from, to], right to
// left, and sets starts[i-from] for every i at which a match ending at to
// starts.
func (d *dfa) marksBackward(text string, from, to int, starts []bool) {
	n := len(text)
	s := d.start(to == 0, to == n)
	for i := to; ; i-- {
		if i == 0 {
			starts[i-from] = s.edge
		} else {
			starts[i-from] = s.flags&fMatch != 0
		}
		if i == from || s.flags&fDead != 0 {
			return
		}
		ns := s.next[d.classOf[text[i-1]]].Load()
		if ns == nil {
			ns = d.step(s, text[i-1])
		}
		s = ns
	}
}
