package repo

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// blobStore reads staged blobs by id: go-git's object store over the
// repository's common dir (opened once, on first need), and `git cat-file
// blob` where go-git cannot read the object (a SHA-256 repository, an
// object format or a pack feature it does not know).
type blobStore struct {
	g       Git
	dir     string
	src     IndexSource
	once    sync.Once
	repo    *filesystem.Storage
	openErr error
}

func newBlobStore(g Git, dir string, src IndexSource) *blobStore {
	return &blobStore{g: g, dir: dir, src: src}
}

// matches reports whether data hashes to the blob id.
func (b *blobStore) matches(id string, data []byte) bool { return b.hashOf(data) == id }

// hashOf answers data's blob id in the repository's object format.
func (b *blobStore) hashOf(data []byte) string {
	var h hash.Hash
	if b.src.HashLen == sha256.Size {
		h = sha256.New()
	} else {
		h = sha1.New()
	}
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// readInProcess answers the blob's bytes from go-git's object store, or
// an error where it cannot (the caller then asks git).
func (b *blobStore) readInProcess(id string) ([]byte, error) {
	if b.src.HashLen != sha1.Size {
		return nil, fmt.Errorf("go-git reads no %d-byte object ids", b.src.HashLen)
	}
	b.once.Do(func() {
		b.repo, b.openErr = objectStore(b.src.CommonDir)
	})
	if b.openErr != nil {
		return nil, b.openErr
	}
	return b.readGoGit(id)
}

// read answers the blob's bytes.
func (b *blobStore) read(path, id string) ([]byte, error) {
	if data, err := b.readInProcess(id); err == nil {
		return data, nil
	}
	out, err := b.g.run(b.dir, "read the staged blob of "+path, "cat-file", "blob", id)
	if err != nil {
		return nil, fmt.Errorf("cannot read the staged content of %s: %w", path, err)
	}
	return out, nil
}

func (b *blobStore) readGoGit(id string) ([]byte, error) {
	obj, err := b.repo.EncodedObject(plumbing.BlobObject, plumbing.NewHash(id))
	if err != nil {
		return nil, err
	}
	r, err := obj.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var buf bytes.Buffer
	buf.Grow(int(obj.Size()))
	if _, err := io.Copy(&buf, r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
