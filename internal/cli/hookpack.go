package cli

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gate-sdk/gates/internal/walk"
)

// packCommits answers the commits held by the packs under objdir/pack
// whose .pack or .idx file is newer than since (a fetch, fast-import,
// repack, gc, index-pack or unbundle the command ran). Each new pack's ids
// come from its index (version 2), each entry's type from its header in
// the pack (a delta's from its base's); entries whose base lies outside
// the pack are asked of one `git cat-file --batch-check`. A new pack that
// cannot be read is an error, never "no commits".
func (r hookRepo) packCommits(objdir string, since time.Time) ([]string, error) {
	dir := walk.Child(objdir, "pack")
	fi, err := os.Stat(dir)
	if err != nil || !fi.ModTime().After(since) {
		// A pack is written under a temporary name and renamed into
		// place: the directory changed if any pack came since.
		return nil, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	var out, ask []string
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, "pack-") || !strings.HasSuffix(name, ".idx") {
			continue
		}
		idx := filepath.Join(dir, name)
		pack := strings.TrimSuffix(idx, ".idx") + ".pack"
		newer := false
		for _, p := range []string{idx, pack} {
			if st, err := os.Stat(p); err == nil && st.ModTime().After(since) {
				newer = true
			}
		}
		if !newer {
			continue
		}
		ids, unsure, err := readPackCommits(idx, pack)
		if errors.Is(err, os.ErrNotExist) {
			continue // removed since it was listed (a repack's -d)
		}
		if err != nil {
			return nil, fmt.Errorf("read the new pack %s: %w", name, err)
		}
		out = append(out, ids...)
		ask = append(ask, unsure...)
	}
	if len(ask) > 0 {
		data, err := asWritten().Run(r.top, "read the types of a new pack's objects", []byte(strings.Join(ask, "\n")+"\n"),
			"cat-file", "--batch-check=%(objectname) %(objecttype)")
		if err != nil {
			return nil, err
		}
		for _, l := range strings.Split(string(data), "\n") {
			if id, typ, ok := strings.Cut(l, " "); ok && typ == "commit" {
				out = append(out, id)
			}
		}
	}
	return out, nil
}

// Pack entry types, as a pack's entry header spells them.
const (
	packCommit   = 1
	packOfsDelta = 6
	packRefDelta = 7
)

// readPackCommits reads one pack's index and its entries' headers: the
// commits, and the ids whose type rests on a base outside the pack.
func readPackCommits(idxPath, packPath string) ([]string, []string, error) {
	idx, err := os.ReadFile(idxPath)
	if err != nil {
		return nil, nil, err
	}
	ids, offs, err := parseIdx(idx)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.Open(packPath)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	// The entries in pack order: a delta's base by offset lies before it,
	// so its type is known when the delta is read.
	n := len(offs)
	order := make([]entryAt, n)
	for i, o := range offs {
		order[i] = entryAt{o, int32(i)}
	}
	slices.SortFunc(order, func(a, b entryAt) int { return cmp.Compare(a.off, b.off) })
	types := make([]byte, n)
	type pending struct {
		at   int
		base string
	}
	var later []pending
	rd := bufio.NewReaderSize(f, 1<<16)
	var pos uint64
	for k, e := range order {
		off, i := e.off, int(e.i)
		if k > 0 && off == order[k-1].off {
			return nil, nil, fmt.Errorf("two entries at %d", off)
		}
		if off-pos >= 1<<16 {
			if _, err := f.Seek(int64(off), 0); err != nil {
				return nil, nil, err
			}
			rd.Reset(f)
		} else if _, err := rd.Discard(int(off - pos)); err != nil {
			return nil, nil, fmt.Errorf("entry at %d: %w", off, err)
		}
		pos = off
		c, err := rd.ReadByte()
		if err != nil {
			return nil, nil, fmt.Errorf("entry at %d: %w", off, err)
		}
		pos++
		typ := c >> 4 & 7
		for c&0x80 != 0 {
			if c, err = rd.ReadByte(); err != nil {
				return nil, nil, fmt.Errorf("entry at %d: %w", off, err)
			}
			pos++
		}
		switch typ {
		case packOfsDelta:
			c, err := rd.ReadByte()
			if err != nil {
				return nil, nil, fmt.Errorf("entry at %d: %w", off, err)
			}
			pos++
			back := uint64(c & 0x7f)
			for c&0x80 != 0 {
				if c, err = rd.ReadByte(); err != nil {
					return nil, nil, fmt.Errorf("entry at %d: %w", off, err)
				}
				pos++
				back = (back+1)<<7 | uint64(c&0x7f)
			}
			j, ok := slices.BinarySearchFunc(order[:k], off-back, func(a entryAt, o uint64) int { return cmp.Compare(a.off, o) })
			if back == 0 || back > off || !ok {
				return nil, nil, fmt.Errorf("entry at %d: a delta base at no entry", off)
			}
			b := int(order[j].i)
			if typ = types[b]; typ == 0 {
				later = append(later, pending{i, hex.EncodeToString(ids[b*20 : b*20+20])})
			}
		case packRefDelta:
			var base [20]byte
			if _, err := io.ReadFull(rd, base[:]); err != nil {
				return nil, nil, fmt.Errorf("entry at %d: %w", off, err)
			}
			pos += 20
			typ = 0
			later = append(later, pending{i, hex.EncodeToString(base[:])})
		case 1, 2, 3, 4:
		default:
			return nil, nil, fmt.Errorf("entry at %d: type %d", off, typ)
		}
		types[i] = typ
	}
	// A base named by id is resolved through the pack, as often as a chain
	// needs; one outside it is git's to say.
	if len(later) > 0 {
		byID := make(map[string]int, n)
		for i := 0; i < n; i++ {
			byID[hex.EncodeToString(ids[i*20:i*20+20])] = i
		}
		for changed := true; changed; {
			changed = false
			rest := later[:0]
			for _, p := range later {
				if b, ok := byID[p.base]; ok && types[b] != 0 {
					types[p.at] = types[b]
					changed = true
					continue
				}
				rest = append(rest, p)
			}
			later = rest
		}
	}
	var out, unsure []string
	for _, p := range later {
		unsure = append(unsure, hex.EncodeToString(ids[p.at*20:p.at*20+20]))
	}
	for i, t := range types {
		if t == packCommit {
			out = append(out, hex.EncodeToString(ids[i*20:i*20+20]))
		}
	}
	return out, unsure, nil
}

// entryAt is one pack entry's offset and its place in the index.
type entryAt struct {
	off uint64
	i   int32
}

// parseIdx reads a version 2 pack index: its ids (20 bytes each, in
// one slice) and their offsets.
func parseIdx(b []byte) ([]byte, []uint64, error) {
	const head = 8 + 256*4
	if len(b) < head || !bytes.Equal(b[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return nil, nil, errors.New("not a version 2 pack index (a SHA-1 repository's)")
	}
	n := int(binary.BigEndian.Uint32(b[head-4 : head]))
	names, offs := head, head+n*20+n*4
	large := offs + n*4
	if n < 0 || n > len(b) || len(b) < large+40 {
		return nil, nil, errors.New("the pack index is cut short")
	}
	at := make([]uint64, n)
	for i := 0; i < n; i++ {
		o := binary.BigEndian.Uint32(b[offs+i*4:])
		if o&0x80000000 != 0 {
			k := large + int(o&0x7fffffff)*8
			if k+8 > len(b)-40 {
				return nil, nil, errors.New("a large offset past the pack index's table")
			}
			at[i] = binary.BigEndian.Uint64(b[k:])
		} else {
			at[i] = uint64(o)
		}
	}
	return b[names : names+n*20], at, nil
}

// oldReflogIDs answers the ids the reflogs recorded before since (the
// entries' own times, whole seconds, strictly before since's second): a
// commit one of them reaches was there before the command, whatever pack
// a gc or repack moved it into.
func (r hookRepo) oldReflogIDs(common string, since time.Time) []string {
	cut := since.Unix()
	seen := map[string]bool{}
	var out []string
	read := func(p string) {
		data, err := os.ReadFile(p)
		if err != nil {
			return
		}
		for _, l := range strings.Split(string(data), "\n") {
			meta, _, _ := strings.Cut(l, "\t")
			f := strings.Fields(meta)
			if len(f) < 4 {
				continue
			}
			ts, err := strconv.ParseInt(f[len(f)-2], 10, 64)
			if err != nil || ts >= cut {
				continue
			}
			for _, id := range f[:2] {
				if walk.ObjectID(id) && strings.Trim(id, "0") != "" && !seen[id] {
					seen[id] = true
					out = append(out, id)
				}
			}
		}
	}
	// The reflogs under logs/, each directory read as it comes (refs are
	// a few levels deep at most).
	var under func(d string)
	under = func(d string) {
		ents, err := os.ReadDir(d)
		if err != nil {
			return
		}
		for _, e := range ents {
			p := filepath.Join(d, e.Name())
			if e.IsDir() {
				under(p)
			} else if e.Type().IsRegular() {
				read(p)
			}
		}
	}
	under(walk.Child(common, "logs"))
	for _, e := range r.linkedWorktrees() {
		read(walk.Child(walk.Child(walk.Child(common, "worktrees"), e.name), "logs/HEAD"))
	}
	return out
}
