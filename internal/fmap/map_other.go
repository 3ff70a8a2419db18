//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fmap

import "os"

// Map is os.ReadFile where files are not mapped: the bytes are the
// process's own and release does nothing.
func Map(name string) ([]byte, func(), error) {
	data, err := os.ReadFile(name)
	return data, func() {}, err
}
