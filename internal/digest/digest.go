// Package digest is the one spelling of the sha256 identities gates
// records of files it places (the init lock, the placed hooks, release
// sidecars): lowercase hex, of the bytes or of a file read whole.
package digest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
)

// Bytes answers the lowercase hex sha256 of data.
func Bytes(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// File answers the lowercase hex sha256 of the file at p.
// Only a regular file is read: anything else (a FIFO that would block
// the open, a device that never ends) is an error naming p.
func File(p string) (string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", &fs.PathError{Op: "read", Path: p, Err: errors.New("not a regular file")}
	}
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
