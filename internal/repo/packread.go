package repo

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/gate-sdk/gates/internal/walk"
	"github.com/go-git/go-git/v5/plumbing"
)

// objectFiles reads objects straight from the object directory's files at
// the cost of the objects asked for: a loose object's file, or a version 2
// pack index searched in place (its fan-out table, then a binary search of
// the names) and the pack entry at the offset it gives, deltas applied.
// Measured on the 20,000-file bench repository (issue 41 item 5), go-git's
// reader decoded the whole pack index and built a reverse index of every
// object before answering the first packed tree: a cost of the
// repository's size in every hook that read one. Anything this reader does
// not know (another index or pack version, an object it does not find, a
// record out of shape) is an error, and the caller asks go-git, whose
// answer then stands.
type objectFiles struct {
	dir   string // <common>/objects
	packs []*packFile
}

// packFile is one mapped pack and its mapped index.
type packFile struct {
	idx, pack []byte
	count     int
}

var errObjectFiles = errors.New("not read from the object files")

var objectReaders sync.Map // common dir -> *objectFiles

// sharedObjectFiles answers the process's reader of common's object
// files; nil where a pack's index or pack cannot be mapped or is not a
// shape this reader knows (go-git then reads every object).
func sharedObjectFiles(common string) *objectFiles {
	if r, ok := objectReaders.Load(common); ok {
		return r.(*objectFiles)
	}
	r := openObjectFiles(common)
	objectReaders.Store(common, r)
	return r
}

func openObjectFiles(common string) *objectFiles {
	dir := walk.Child(common, "objects")
	r := &objectFiles{dir: dir}
	ents, err := os.ReadDir(walk.Child(dir, "pack"))
	if err != nil && !os.IsNotExist(err) {
		return nil
	}
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".idx")
		if !ok {
			continue
		}
		idx, _, err := mapFile(walk.Child(dir, "pack/"+name+".idx"))
		if err != nil {
			return nil
		}
		pack, _, err := mapFile(walk.Child(dir, "pack/"+name+".pack"))
		if err != nil {
			// An index without its pack: git skips it, and so does
			// this reader (go-git answers what it misses).
			continue
		}
		p := &packFile{idx: idx, pack: pack}
		var ok2 bool
		if ferr := faultGuard(func() { ok2 = p.check() }); ferr != nil || !ok2 {
			return nil
		}
		r.packs = append(r.packs, p)
	}
	// The mappings live as long as the process: a hook is short, and a
	// pack replaced meanwhile keeps its mapped bytes.
	return r
}

// check validates the index's header and size and the pack's header.
func (p *packFile) check() bool {
	if len(p.idx) < 8+1024+2*sha1.Size || string(p.idx[:4]) != "\xfftOc" || binary.BigEndian.Uint32(p.idx[4:8]) != 2 {
		return false
	}
	n := int(binary.BigEndian.Uint32(p.idx[8+1020 : 8+1024]))
	// names, CRCs and 32-bit offsets, then the large offsets (any
	// number, eight bytes each), then two checksums.
	min := 8 + 1024 + n*(sha1.Size+8) + 2*sha1.Size
	if len(p.idx) < min || (len(p.idx)-min)%8 != 0 {
		return false
	}
	if len(p.pack) < 12+sha1.Size || string(p.pack[:4]) != "PACK" {
		return false
	}
	if v := binary.BigEndian.Uint32(p.pack[4:8]); v != 2 && v != 3 {
		return false
	}
	if int(binary.BigEndian.Uint32(p.pack[8:12])) != n {
		return false
	}
	p.count = n
	return true
}

// find answers the pack offset of the object named id (20 bytes).
func (p *packFile) find(id []byte) (int64, bool) {
	fan := func(b int) int { return int(binary.BigEndian.Uint32(p.idx[8+4*b : 12+4*b])) }
	lo := 0
	if id[0] > 0 {
		lo = fan(int(id[0]) - 1)
	}
	hi := fan(int(id[0]))
	if lo > hi || hi > p.count {
		return 0, false
	}
	names := 8 + 1024
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(p.idx[names+mid*sha1.Size:names+(mid+1)*sha1.Size], id); {
		case c == 0:
			offs := names + p.count*(sha1.Size+4)
			off := binary.BigEndian.Uint32(p.idx[offs+4*mid : offs+4*mid+4])
			if off&0x80000000 == 0 {
				return int64(off), true
			}
			large := offs + 4*p.count + 8*int(off&0x7fffffff)
			if large+8 > len(p.idx)-2*sha1.Size {
				return 0, false
			}
			return int64(binary.BigEndian.Uint64(p.idx[large : large+8])), true
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// read answers the type and bytes of the object named id (hex), from its
// loose file or a pack; an error where this reader cannot.
func (r *objectFiles) read(id string) (t plumbing.ObjectType, data []byte, err error) {
	bin, herr := hex.DecodeString(id)
	if herr != nil || len(bin) != sha1.Size {
		return plumbing.InvalidObject, nil, errObjectFiles
	}
	return r.readDepth(bin, 0)
}

// has reports whether the object files hold id (hex): its loose file or
// a pack index entry. false sends the caller to go-git.
func (r *objectFiles) has(id string) bool {
	bin, err := hex.DecodeString(id)
	if err != nil || len(bin) != sha1.Size {
		return false
	}
	if _, err := os.Lstat(walk.Child(r.dir, id[:2]+"/"+id[2:])); err == nil {
		return true
	}
	for _, p := range r.packs {
		found := false
		if faultGuard(func() { _, found = p.find(bin) }) == nil && found {
			return true
		}
	}
	return false
}

// maxDeltaDepth bounds a chain of deltas (git's own default is 50; a pack
// may go deeper, a cycle would not end).
const maxDeltaDepth = 10000

func (r *objectFiles) readDepth(bin []byte, depth int) (plumbing.ObjectType, []byte, error) {
	if depth > maxDeltaDepth {
		return plumbing.InvalidObject, nil, errObjectFiles
	}
	hexID := hex.EncodeToString(bin)
	if raw, err := os.ReadFile(walk.Child(r.dir, hexID[:2]+"/"+hexID[2:])); err == nil {
		return looseObject(raw)
	} else if !os.IsNotExist(err) {
		return plumbing.InvalidObject, nil, errObjectFiles
	}
	for _, p := range r.packs {
		if off, ok := p.find(bin); ok {
			var t plumbing.ObjectType
			var data []byte
			var err error
			if ferr := faultGuard(func() { t, data, err = r.entry(p, off, depth) }); ferr != nil {
				return plumbing.InvalidObject, nil, errObjectFiles
			}
			return t, data, err
		}
	}
	return plumbing.InvalidObject, nil, errObjectFiles
}

// looseObject inflates a loose object's file: "<type> <size>\0<bytes>".
// The body is read into one buffer of the size the header states (bounded
// as inflateSized bounds a pack entry), never grown as it is read.
func looseObject(raw []byte) (plumbing.ObjectType, []byte, error) {
	zr, err := inflater(raw)
	if err != nil {
		return plumbing.InvalidObject, nil, errObjectFiles
	}
	defer inflaters.Put(zr)
	// The header: a type, a space, a decimal size and a NUL, well inside
	// 64 bytes for every size an object can have.
	var head [64]byte
	got, nul := 0, -1
	for nul < 0 {
		if got == len(head) {
			return plumbing.InvalidObject, nil, errObjectFiles
		}
		n, err := zr.Read(head[got:])
		got += n
		nul = bytes.IndexByte(head[:got], 0)
		if nul < 0 && err != nil {
			return plumbing.InvalidObject, nil, errObjectFiles
		}
	}
	kind, size, ok := strings.Cut(string(head[:nul]), " ")
	n, err := strconv.Atoi(size)
	if !ok || err != nil || n < 0 || uint64(n) > uint64(len(raw))*1032+64 {
		return plumbing.InvalidObject, nil, errObjectFiles
	}
	t, err := plumbing.ParseObjectType(kind)
	if err != nil || t < plumbing.CommitObject || t > plumbing.TagObject {
		return plumbing.InvalidObject, nil, errObjectFiles
	}
	body := make([]byte, n)
	had := copy(body, head[nul+1:got])
	if got-(nul+1) > n {
		return plumbing.InvalidObject, nil, errObjectFiles
	}
	if _, err := io.ReadFull(zr, body[had:]); err != nil {
		return plumbing.InvalidObject, nil, errObjectFiles
	}
	// The stream must end where the size says.
	var one [1]byte
	if m, err := zr.Read(one[:]); m != 0 || err != io.EOF {
		return plumbing.InvalidObject, nil, errObjectFiles
	}
	return t, body, nil
}

// inflaters keeps zlib readers for reuse: each holds a 32 KB window and
// its tables, which a new reader per object (a landed commit's judge
// reads a dozen trees and commits) allocated and filled again.
var inflaters sync.Pool

// inflater answers a zlib reader over b, a kept one reset when there is
// one. The caller puts it back in inflaters when done.
func inflater(b []byte) (io.ReadCloser, error) {
	src := bytes.NewReader(b)
	if zr, ok := inflaters.Get().(io.ReadCloser); ok {
		if err := zr.(zlib.Resetter).Reset(src, nil); err != nil {
			return nil, err
		}
		return zr, nil
	}
	return zlib.NewReader(src)
}

// entry reads the pack entry at off: a whole object, or a delta against
// a base at an earlier offset or named by id, applied.
func (r *objectFiles) entry(p *packFile, off int64, depth int) (plumbing.ObjectType, []byte, error) {
	if depth > maxDeltaDepth {
		return plumbing.InvalidObject, nil, errObjectFiles
	}
	end := int64(len(p.pack) - sha1.Size)
	if off < 12 || off >= end {
		return plumbing.InvalidObject, nil, errObjectFiles
	}
	pos := off
	c := p.pack[pos]
	pos++
	typ := plumbing.ObjectType((c >> 4) & 7)
	size := uint64(c & 15)
	for shift := 4; c&0x80 != 0; shift += 7 {
		if pos >= end || shift > 60 {
			return plumbing.InvalidObject, nil, errObjectFiles
		}
		c = p.pack[pos]
		pos++
		size |= uint64(c&0x7f) << shift
	}
	switch typ {
	case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
		data, err := inflateSized(p.pack[pos:end], size)
		return typ, data, err
	case plumbing.OFSDeltaObject:
		if pos >= end {
			return plumbing.InvalidObject, nil, errObjectFiles
		}
		c = p.pack[pos]
		pos++
		rel := int64(c & 0x7f)
		for c&0x80 != 0 {
			if pos >= end || rel > 1<<55 {
				return plumbing.InvalidObject, nil, errObjectFiles
			}
			c = p.pack[pos]
			pos++
			rel = (rel+1)<<7 | int64(c&0x7f)
		}
		if rel <= 0 || rel > off {
			return plumbing.InvalidObject, nil, errObjectFiles
		}
		bt, base, err := r.entry(p, off-rel, depth+1)
		if err != nil {
			return plumbing.InvalidObject, nil, err
		}
		delta, err := inflateSized(p.pack[pos:end], size)
		if err != nil {
			return plumbing.InvalidObject, nil, err
		}
		data, err := applyDelta(base, delta)
		return bt, data, err
	case plumbing.REFDeltaObject:
		if pos+sha1.Size > end {
			return plumbing.InvalidObject, nil, errObjectFiles
		}
		baseID := append([]byte(nil), p.pack[pos:pos+sha1.Size]...)
		pos += sha1.Size
		bt, base, err := r.readDepth(baseID, depth+1)
		if err != nil {
			return plumbing.InvalidObject, nil, err
		}
		delta, err := inflateSized(p.pack[pos:end], size)
		if err != nil {
			return plumbing.InvalidObject, nil, err
		}
		data, err := applyDelta(base, delta)
		return bt, data, err
	}
	return plumbing.InvalidObject, nil, errObjectFiles
}

// inflateSized inflates exactly size bytes from the zlib stream at the
// start of b.
func inflateSized(b []byte, size uint64) ([]byte, error) {
	if size > uint64(len(b))*1032+64 {
		// No deflate stream grows its input by more than this.
		return nil, errObjectFiles
	}
	zr, err := inflater(b)
	if err != nil {
		return nil, errObjectFiles
	}
	defer inflaters.Put(zr)
	out := make([]byte, size)
	if _, err := io.ReadFull(zr, out); err != nil {
		return nil, errObjectFiles
	}
	// The stream must end where the size says.
	var one [1]byte
	if n, err := zr.Read(one[:]); n != 0 || err != io.EOF {
		return nil, errObjectFiles
	}
	return out, nil
}

// applyDelta builds an object from its base and a delta: the base's size,
// the result's size, then copy (from the base) and insert instructions.
func applyDelta(base, delta []byte) ([]byte, error) {
	varint := func() (uint64, bool) {
		var v uint64
		for shift := 0; shift < 64; shift += 7 {
			if len(delta) == 0 {
				return 0, false
			}
			c := delta[0]
			delta = delta[1:]
			v |= uint64(c&0x7f) << shift
			if c&0x80 == 0 {
				return v, true
			}
		}
		return 0, false
	}
	src, ok1 := varint()
	dst, ok2 := varint()
	if !ok1 || !ok2 || src != uint64(len(base)) || dst > uint64(len(delta))*0xffffff {
		return nil, errObjectFiles
	}
	out := make([]byte, 0, dst)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var off, n uint64
			for i := 0; i < 4; i++ {
				if op&(1<<i) != 0 {
					if len(delta) == 0 {
						return nil, errObjectFiles
					}
					off |= uint64(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			for i := 0; i < 3; i++ {
				if op&(0x10<<i) != 0 {
					if len(delta) == 0 {
						return nil, errObjectFiles
					}
					n |= uint64(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > uint64(len(base)) || uint64(len(out))+n > dst {
				return nil, errObjectFiles
			}
			out = append(out, base[off:off+n]...)
		case op != 0:
			n := int(op)
			if n > len(delta) || uint64(len(out)+n) > dst {
				return nil, errObjectFiles
			}
			out = append(out, delta[:n]...)
			delta = delta[n:]
		default:
			return nil, errObjectFiles
		}
	}
	if uint64(len(out)) != dst {
		return nil, errObjectFiles
	}
	return out, nil
}
