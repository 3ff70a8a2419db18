//go:build linux && !(amd64 || arm64)

package repo

import "syscall"

// lstatZ is syscall.Lstat over a path ending in a NUL.
func lstatZ(path []byte, st *syscall.Stat_t) error {
	return syscall.Lstat(string(path[:len(path)-1]), st)
}
