package ere

import (
	"math/rand"
	"testing"
)

// classesByByte is the byte-at-a-time split buildClasses must equal.
func classesByByte(p *prog) ([256]uint8, int) {
	var boundary [257]bool
	for i := range p.insts {
		in := &p.insts[i]
		if in.op != opByte {
			continue
		}
		for b := 1; b < 256; b++ {
			if in.set.has(byte(b)) != in.set.has(byte(b-1)) {
				boundary[b] = true
			}
		}
	}
	var classOf [256]uint8
	cls := 0
	for b := 0; b < 256; b++ {
		if b > 0 && boundary[b] {
			cls++
		}
		classOf[b] = uint8(cls)
	}
	return classOf, cls + 1
}

// The word-wise class split equals the byte-wise one over random sets
// (single bytes, ranges across word edges, bytes 0 and 255, full and
// empty sets), and count and only agree with a byte loop.
func TestBuildClassesEqualsTheByteSplit(t *testing.T) {
	rng := rand.New(rand.NewSource(48))
	randSet := func() byteSet {
		var s byteSet
		switch rng.Intn(5) {
		case 0:
			s.add(byte(rng.Intn(256)))
		case 1:
			lo := rng.Intn(256)
			s.addRange(lo, lo+rng.Intn(256-lo))
		case 2:
			for k := 0; k < 4; k++ {
				s[k] = rng.Uint64()
			}
		case 3:
			s.addRange(0, 255)
		default:
			for _, b := range []int{0, 63, 64, 127, 128, 191, 192, 255} {
				if rng.Intn(2) == 0 {
					s.add(byte(b))
				}
			}
		}
		return s
	}
	for round := 0; round < 3000; round++ {
		p := &prog{}
		for k := rng.Intn(6); k >= 0; k-- {
			p.insts = append(p.insts, inst{op: opByte, set: randSet()})
			if rng.Intn(3) == 0 {
				p.insts = append(p.insts, inst{op: opSplit, set: randSet()}) // not a byte test: ignored
			}
		}
		want, wantN := classesByByte(p)
		p.buildClasses()
		if p.classOf != want || p.nclass != wantN {
			t.Fatalf("round %d: classes %v (%d), want %v (%d)", round, p.classOf, p.nclass, want, wantN)
		}
		s := randSet()
		n, first := 0, -1
		for b := 0; b < 256; b++ {
			if s.has(byte(b)) {
				n++
				if first < 0 {
					first = b
				}
			}
		}
		if s.count() != n {
			t.Fatalf("count %d, want %d", s.count(), n)
		}
		if n == 1 && int(s.only()) != first {
			t.Fatalf("only %d, want %d", s.only(), first)
		}
	}
}
