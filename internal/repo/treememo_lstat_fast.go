//go:build linux && (amd64 || arm64)

package repo

import (
	"syscall"
	"unsafe"
)

// lstatZ is syscall.Lstat over a path already ending in a NUL, so the
// 20,000 calls of a Stop allocate no copy of their paths.
func lstatZ(path []byte, st *syscall.Stat_t) error {
	const atFDCWD, atSymlinkNoFollow = -100, 0x100
	fd := atFDCWD
	_, _, e := syscall.Syscall6(sysFstatat, uintptr(fd), uintptr(unsafe.Pointer(&path[0])), uintptr(unsafe.Pointer(st)), atSymlinkNoFollow, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}
