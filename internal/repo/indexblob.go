package repo

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// IndexFile answers the bytes the index records for path (spelled relative
// to dir's work-tree top, '/'-separated), and false when the index holds
// no stage-0 entry for it. One `git cat-file --batch` answers it, under
// the environment git handed the caller (a hook's GIT_INDEX_FILE among
// it), so a commit's own index is the one read.
func IndexFile(dir, path string) ([]byte, bool, error) { return Git{}.IndexFile(dir, path) }

// IndexFile is the package-level IndexFile under g's environment.
func (g Git) IndexFile(dir, path string) ([]byte, bool, error) {
	if strings.ContainsAny(path, "\n\r") || path == "" {
		return nil, false, fmt.Errorf("cannot ask the index for %q", path)
	}
	// assertion Q: read in process where the index decoder and the object
	// store can answer; git answers the rest.
	if data, found, ok := g.indexFileInProcess(dir, path); ok {
		return data, found, nil
	}
	out, err := g.runStdin(dir, "the index's copy of "+path, strings.NewReader(":"+path+"\n"), "cat-file", "--batch")
	if err != nil {
		return nil, false, err
	}
	head, rest, ok := bytes.Cut(out, []byte("\n"))
	if !ok {
		return nil, false, fmt.Errorf("git cat-file answered %q for %s", out, path)
	}
	fields := strings.Fields(string(head))
	if len(fields) == 2 && fields[1] == "missing" {
		return nil, false, nil
	}
	if len(fields) != 3 || fields[1] != "blob" {
		return nil, false, fmt.Errorf("git cat-file answered %q for %s", head, path)
	}
	n, err := strconv.Atoi(fields[2])
	if err != nil || n < 0 || n > len(rest) {
		return nil, false, fmt.Errorf("git cat-file answered %q for %s", head, path)
	}
	return rest[:n], true, nil
}

// blobStores keeps, per object store and environment, the store this
// process opened, so each configuration file read index first opens
// none of its own.
var blobStores struct {
	sync.Mutex
	m map[string]*blobStore
}

// indexFileInProcess is IndexFile answered without git: the index located
// (once per process), decoded in process (once per process and stat
// stamp, shared with the snapshot) and the blob read from the object
// store. ok is false wherever that cannot answer as `git cat-file --batch`
// would (an index the decoder leaves to git, a gitlink, an unreadable
// object), and the caller asks git.
func (g Git) indexFileInProcess(dir, path string) (data []byte, found, ok bool) {
	src, err := g.LocateIndex(dir)
	if err != nil {
		return nil, false, false
	}
	// `:path` names a path from the work-tree top, whatever the
	// directory: the whole index, unscoped.
	whole := src
	whole.Prefix = ""
	idx, err := g.readIndex(dir, whole)
	if err != nil {
		return nil, false, false
	}
	if idx == nil {
		return nil, false, true
	}
	// The decoder holds the entries in git's order (by path, then
	// stage), so the path's entries are found by binary search.
	var e *Entry
	i := sort.Search(len(idx.Entries), func(i int) bool { return idx.Entries[i].Path >= path })
	for ; i < len(idx.Entries) && idx.Entries[i].Path == path; i++ {
		if idx.Entries[i].Stage == 0 {
			e = &idx.Entries[i]
			break
		}
	}
	if e == nil {
		return nil, false, true
	}
	if e.Mode&0o170000 == 0o160000 {
		// A gitlink names a commit, not a blob: git's answer (a refusal)
		// is the one to give.
		return nil, false, false
	}
	key := src.CommonDir + "\x00" + strconv.Itoa(src.HashLen) + "\x00" + strings.Join(g.Env, "\x00")
	blobStores.Lock()
	if blobStores.m == nil {
		blobStores.m = map[string]*blobStore{}
	}
	b := blobStores.m[key]
	if b == nil {
		b = newBlobStore(g, dir, src)
		blobStores.m[key] = b
	}
	blobStores.Unlock()
	data, err = b.readInProcess(e.id())
	if err != nil {
		return nil, false, false
	}
	return data, true, true
}
