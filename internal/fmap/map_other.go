//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fmap

import (
	"errors"
	"io/fs"
	"os"
)

// ErrNotRegular is Map's cause for a name that is not a regular file.
var ErrNotRegular = errors.New("not a regular file; only a regular file is read")

// Map is os.ReadFile where files are not mapped: the bytes are the
// process's own and release does nothing. Only a regular file is read.
func Map(name string) ([]byte, func(), error) {
	data, release, _, err := MapStamp(name)
	return data, release, err
}

// MapStamp is Map with no identity: where files are not mapped, a caller
// that keeps a record of a checked file checks it every time.
func MapStamp(name string) ([]byte, func(), string, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, nil, "", err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, "", &fs.PathError{Op: "read", Path: name, Err: ErrNotRegular}
	}
	data, err := os.ReadFile(name)
	return data, func() {}, "", err
}
