package walk

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"time"
)

// Memo keeps one Find's listing between runs: the caller backs it with a
// result-cache entry. Load answers what the last Store kept, if anything;
// Served hears, once per Find, whether a kept listing was answered (a
// listing that was there but stale is not), so a hit counter counts what
// the memo served, not what it merely held.
type Memo interface {
	Load() ([]byte, bool)
	Store([]byte)
	Served(bool)
}

// racyWindow is how recently a directory may have changed and still be
// vouched for by its stat data: a change inside one timestamp tick of the
// listing would leave the stamp unchanged, so a listing holding a
// directory this fresh is never kept.
var racyWindow = 2 * time.Second

// Find answers the path, relative to root, of every entry under root that
// is not a directory and whose basename match accepts, in walk order (a
// Walk with opt). With a memo it first tries the last listing: each
// directory that walk entered is stat'ed again, and when every one keeps
// its device, inode, mode, size, change and modification times (so no
// entry was added, removed, renamed or retyped in any of them) the listing
// is answered without reading a directory. Otherwise the tree is walked
// and the new listing kept, unless a directory in it changed within
// racyWindow or the platform offers no stat data to vouch for it.
func Find(root string, opt Options, memo Memo, match func(name string) bool) ([]string, error) {
	if memo != nil {
		served := false
		if data, ok := memo.Load(); ok {
			if dirs, found, ok := decodeListing(data); ok && stillListed(root, dirs) {
				memo.Served(true)
				// The observer sees the walk the listing stands for.
				opt.Recorder.root(root)
				for _, d := range dirs {
					opt.Recorder.dir(dirPath(root, d.rel))
				}
				return found, nil
			}
		}
		memo.Served(served)
	}
	start := time.Now()
	var dirs []listedDir
	var found []string
	stampable := memo != nil
	note := func(rel string) {
		if !stampable {
			return
		}
		st, ok := dirStamp(dirPath(root, rel))
		if !ok || time.Unix(0, st.mtime).After(start.Add(-racyWindow)) || time.Unix(0, st.ctime).After(start.Add(-racyWindow)) {
			stampable = false
			return
		}
		dirs = append(dirs, listedDir{rel, st})
	}
	// assertion T: a directory is stamped before it is read, so a change
	// made while the walk runs moves its stamp past the kept one.
	note("")
	err := Walk(root, opt, func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			note(rel)
		} else if match(d.Name()) {
			found = append(found, rel)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if stampable {
		memo.Store(encodeListing(dirs, found))
	}
	return found, nil
}

func dirPath(root, rel string) string {
	if rel == "" {
		return root
	}
	return Child(root, rel)
}

// stamp is a directory's stat data as Find compares it.
type stamp struct {
	dev, ino, mode, size uint64
	mtime, ctime         int64
}

type listedDir struct {
	rel string
	st  stamp
}

// stillListed reports whether every directory keeps its stamp.
func stillListed(root string, dirs []listedDir) bool {
	if len(dirs) == 0 {
		return false
	}
	for _, d := range dirs {
		st, ok := dirStamp(dirPath(root, d.rel))
		if !ok || st != d.st {
			return false
		}
	}
	return true
}

// encodeListing lays a listing out: the directory count, each directory's
// path and stamp, the match count, each match.
func encodeListing(dirs []listedDir, found []string) []byte {
	var b []byte
	str := func(s string) { b = binary.AppendUvarint(b, uint64(len(s))); b = append(b, s...) }
	b = binary.AppendUvarint(b, uint64(len(dirs)))
	for _, d := range dirs {
		str(d.rel)
		for _, v := range []uint64{d.st.dev, d.st.ino, d.st.mode, d.st.size, uint64(d.st.mtime), uint64(d.st.ctime)} {
			b = binary.AppendUvarint(b, v)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(found)))
	for _, f := range found {
		str(f)
	}
	return b
}

var errListing = errors.New("listing does not decode")

// decodeListing reads what encodeListing wrote; false on any flaw.
func decodeListing(b []byte) ([]listedDir, []string, bool) {
	num := func() (uint64, error) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, errListing
		}
		b = b[n:]
		return v, nil
	}
	str := func() (string, error) {
		n, err := num()
		if err != nil || n > uint64(len(b)) {
			return "", errListing
		}
		s := string(b[:n])
		b = b[n:]
		return s, nil
	}
	nd, err := num()
	if err != nil || nd > uint64(len(b)) {
		return nil, nil, false
	}
	dirs := make([]listedDir, 0, nd)
	for i := uint64(0); i < nd; i++ {
		rel, err := str()
		if err != nil {
			return nil, nil, false
		}
		var v [6]uint64
		for j := range v {
			if v[j], err = num(); err != nil {
				return nil, nil, false
			}
		}
		dirs = append(dirs, listedDir{rel, stamp{v[0], v[1], v[2], v[3], int64(v[4]), int64(v[5])}})
	}
	nf, err := num()
	if err != nil || nf > uint64(len(b)) {
		return nil, nil, false
	}
	found := make([]string, nf)
	for i := range found {
		if found[i], err = str(); err != nil {
			return nil, nil, false
		}
	}
	if len(b) != 0 {
		return nil, nil, false
	}
	return dirs, found, true
}
