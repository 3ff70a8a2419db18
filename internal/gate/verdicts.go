package gate

import (
	"bytes"
	"encoding/binary"
	"errors"

	"github.com/gate-sdk/gates/internal/cache"
)

// Blobs is what a Tree may also offer: the blob id of the bytes Read
// answers for a tracked path, when it can vouch for them. A staged
// snapshot answers the index's id; a work-tree snapshot hashes the bytes it
// read, as git would store them. false: no id (a gitlink, an unreadable
// file), and the file is judged uncached.
type Blobs interface {
	BlobID(path string) (string, bool)
}

// ModeBlobs is what a Blobs tree may also offer: Mode's and BlobID's
// answers for a path from one lookup (ok is BlobID's).
type ModeBlobs interface {
	ModeAndBlob(path string) (mode uint32, blob string, ok bool)
}

// PerFile is one rule run's view of the result cache for a value it
// derives from one file alone (its findings, the declarations it holds):
// keyed by the file's path and blob id under a table of the derivation's
// id and configuration. A nil *PerFile (no cache, or a tree that offers no
// blob ids) misses every lookup and stores nothing.
type PerFile struct {
	t     *cache.Table
	blobs Blobs
}

// PerFile opens the table of derivation id under the effective
// configuration config (everything, besides the file's bytes and path, the
// derived value depends on); nil when the context has no cache or its tree
// no blob ids. Two rules sharing one derivation share its table by naming
// the same id.
func (c *Context) PerFile(id string, config *cache.Config) *PerFile {
	blobs, ok := c.Tree.(Blobs)
	if c.Cache == nil || !ok {
		return nil
	}
	return &PerFile{t: c.Cache.Table(id, config), blobs: blobs}
}

// Lookup answers path's cached value. blob is the id the lookup used (""
// when none), to be handed back to Store.
func (p *PerFile) Lookup(path string) (value []byte, blob string, hit bool) {
	if p == nil {
		return nil, "", false
	}
	// assertion G: the lookup key is the path and the id of the bytes the
	// tree vouches for; no id, no lookup.
	id, ok := p.blobs.BlobID(path)
	if !ok {
		return nil, "", false
	}
	data, ok := p.t.Get(path, id)
	if !ok {
		return nil, id, false
	}
	return data, id, true
}

// Store records path's value at blob (as Lookup answered it).
func (p *PerFile) Store(path, blob string, value []byte) {
	if p == nil || blob == "" {
		return
	}
	p.t.Put(path, blob, value)
}

// Verdicts is one rule run's per-file findings in the result cache. A nil
// *Verdicts misses every lookup and stores nothing.
type Verdicts struct {
	p *PerFile
	// leave answers the paths a miss may leave unjudged (nil: none).
	leave func(path string) bool
	// partial marks a shard's run, which judges part of the files.
	partial bool
}

// Verdicts opens the rule's findings table under the effective
// configuration config (everything, besides the file's bytes, its verdict
// on one file depends on); nil when the context has no cache or its tree
// no blob ids.
func (c *Context) Verdicts(config *cache.Config) *Verdicts {
	p := c.PerFile(ID(c.Name), config)
	if p == nil {
		return nil
	}
	v := &Verdicts{p: p, partial: c.part != nil}
	// assertion L: a file may be left to the battery only by a run that
	// is told which files the commit leaves unchanged, over a table some
	// other inputs' complete table supersedes.
	if c.Unchanged != nil && p.t.Superseded() {
		v.leave = c.Unchanged
	}
	return v
}

// Leave reports whether path, which missed, is left unjudged: this run
// may leave files (the gate's latest complete table is under other
// inputs: another binary, another rule input) and the commit leaves path
// as HEAD holds it. The rule then reads nothing of it, stores nothing for
// it, and reports the count it left (Context.LeftToBattery).
func (v *Verdicts) Leave(path string) bool {
	return v != nil && v.leave != nil && v.leave(path)
}

// Complete records that the run judged every file of its scan into the
// table (it left none): the table becomes the gate's latest complete one.
func (v *Verdicts) Complete() {
	// A shard judged its part of the files only: its table is not whole.
	if v == nil || v.partial {
		return
	}
	v.p.t.MarkComplete()
}

// Lookup answers path's cached findings. blob is the id the lookup used
// ("" when none), to be handed back to Store.
func (v *Verdicts) Lookup(path string) (findings []Finding, blob string, hit bool) {
	if v == nil {
		return nil, "", false
	}
	data, id, ok := v.p.Lookup(path)
	if !ok {
		return nil, id, false
	}
	// assertion H: the value is the structured findings, so every
	// renderer prints a hit as it prints a fresh verdict.
	fs, err := DecodeFindings(data)
	if err != nil {
		// A value that does not decode is a miss, never a verdict.
		return nil, id, false
	}
	return fs, id, true
}

// Store records path's findings at blob (as Lookup answered it).
func (v *Verdicts) Store(path, blob string, findings []Finding) {
	if v == nil {
		return
	}
	v.p.Store(path, blob, EncodeFindings(findings))
}

// EncodeFindings lays findings out as length-framed fields; Help is left
// out (the rule's Report fills it). A rule caching another per-file value
// spelled as findings (PerFile) encodes it here too.
func EncodeFindings(fs []Finding) []byte {
	var b bytes.Buffer
	var n [binary.MaxVarintLen64]byte
	num := func(x int) { b.Write(n[:binary.PutVarint(n[:], int64(x))]) }
	str := func(s string) { num(len(s)); b.WriteString(s) }
	num(len(fs))
	for _, f := range fs {
		str(f.Class)
		str(f.Path)
		num(f.Line)
		num(f.Column)
		str(f.Msg)
		str(f.Text)
		str(f.Identity)
		str(f.About)
	}
	return b.Bytes()
}

var errBadValue = errors.New("malformed cached findings")

// DecodeFindings is EncodeFindings' inverse; anything else is an error.
func DecodeFindings(data []byte) ([]Finding, error) {
	if len(data) == 1 && data[0] == 0 {
		// The common value: a clean file, no findings.
		return nil, nil
	}
	r := bytes.NewReader(data)
	num := func() (int, error) {
		x, err := binary.ReadVarint(r)
		if err != nil || x < 0 || x > 1<<40 {
			return 0, errBadValue
		}
		return int(x), nil
	}
	str := func() (string, error) {
		l, err := num()
		if err != nil || l > r.Len() {
			return "", errBadValue
		}
		buf := make([]byte, l)
		if _, err := r.Read(buf); err != nil && l > 0 {
			return "", errBadValue
		}
		return string(buf), nil
	}
	count, err := num()
	if err != nil || count > len(data) {
		return nil, errBadValue
	}
	out := make([]Finding, 0, count)
	for i := 0; i < count; i++ {
		var f Finding
		var e [8]error
		f.Class, e[0] = str()
		f.Path, e[1] = str()
		f.Line, e[2] = num()
		f.Column, e[3] = num()
		f.Msg, e[4] = str()
		f.Text, e[5] = str()
		f.Identity, e[6] = str()
		f.About, e[7] = str()
		if err := errors.Join(e[:]...); err != nil {
			return nil, errBadValue
		}
		out = append(out, f)
	}
	if r.Len() != 0 {
		return nil, errBadValue
	}
	return out, nil
}

// SetResults is one rule run's view of the result cache for a value it
// derives from a known set of tracked files as a whole: an entry is keyed
// by a digest over each file's path, index mode and blob id, taken from
// the tree's ids without reading a byte, so any file of the set added,
// dropped, re-moded or changed names another entry. A nil *SetResults
// misses every lookup and stores nothing.
type SetResults struct {
	t     *cache.Table
	tree  Tree
	blobs Blobs
}

// SetResults opens the table of derivation id under config; nil when the
// context has no cache or its tree no blob ids.
func (c *Context) SetResults(id string, config *cache.Config) *SetResults {
	blobs, ok := c.Tree.(Blobs)
	if c.Cache == nil || !ok {
		return nil
	}
	return &SetResults{t: c.Cache.Table(id, config), tree: c.Tree, blobs: blobs}
}

// TreeDigests is what a Blobs tree may also offer: one digest naming its
// whole listing, every path with its mode and blob id (a staged snapshot:
// the index's checksum). ok false: none is offered.
type TreeDigests interface {
	TreeDigest() (digest string, ok bool)
}

// PathsDigests is what a tree may also offer: one digest naming the paths
// its listing holds, apart from their modes and bytes (an edit overlay
// that put only tracked, present files over an index: that index's
// checksum, which names its paths). Two trees answering one such digest
// list the same paths. ok false: none is offered. A tree that filters
// another's listing must not pass the inner tree's on.
type PathsDigests interface {
	PathsDigest() (digest string, ok bool)
}

// WholeListing reports whether the context's tree names its whole listing
// in one digest, so a set's key needs no visit to its files (KeyOf).
func (c *Context) WholeListing() bool {
	d, ok := c.Tree.(TreeDigests)
	if !ok {
		return false
	}
	_, ok = d.TreeDigest()
	return ok
}

// KeyOf answers the key of the set paths, which the caller selected from
// the tree's listing by a rule selection fully spells (every input of the
// choice: roots, prune words, exempt paths). When the tree offers a digest
// of its whole listing the key is that digest with the selection, and the
// paths are not visited: the same listing under the same selection picks
// the same files with the same ids. Otherwise it is Key(paths).
func (s *SetResults) KeyOf(selection *cache.Config, paths []string) (string, bool) {
	if s == nil {
		return "", false
	}
	if d, ok := s.tree.(TreeDigests); ok {
		if digest, ok := d.TreeDigest(); ok {
			return s.KeyAt(digest, selection)
		}
	}
	return s.Key(paths)
}

// KeyAt answers the whole-listing key KeyOf makes for a tree whose digest
// is digest, under selection: a prior tree's key (Context.Prior).
func (s *SetResults) KeyAt(digest string, selection *cache.Config) (string, bool) {
	if s == nil || digest == "" {
		return "", false
	}
	// assertion J: a whole-listing key is the tree's digest and the
	// selection, framed apart from a per-path key.
	var k cache.Config
	k.AddString("tree", digest)
	if selection != nil {
		k.AddString("selection", selection.Digest())
	}
	return k.Digest(), true
}

// Key answers the digest of paths (in the order given); false when some
// path has no blob id, and the set is then not cached.
func (s *SetResults) Key(paths []string) (string, bool) {
	if s == nil {
		return "", false
	}
	// assertion I: a set's key is its files' paths, modes and blob ids,
	// in order, length-framed; a file without an id leaves it uncached.
	var k cache.Config
	var mode [4]byte
	both, one := s.tree.(ModeBlobs)
	for _, p := range paths {
		var id string
		var m uint32
		var ok bool
		if one {
			m, id, ok = both.ModeAndBlob(p)
		} else {
			id, ok = s.blobs.BlobID(p)
			m, _ = s.tree.Mode(p)
		}
		if !ok {
			return "", false
		}
		binary.BigEndian.PutUint32(mode[:], m)
		k.AddString("path", p)
		k.Add("mode", mode[:])
		k.AddString("blob", id)
	}
	return k.Digest(), true
}

// Lookup answers the value stored under key.
func (s *SetResults) Lookup(key string) ([]byte, bool) {
	if s == nil || key == "" {
		return nil, false
	}
	return s.t.Get("", key)
}

// Store records value under key.
func (s *SetResults) Store(key string, value []byte) {
	if s == nil || key == "" {
		return
	}
	s.t.Put("", key, value)
}
