//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package repo

import (
	"io/fs"
	"syscall"
)

// mapFile maps name read-only and private, answering its bytes and the
// call that unmaps them. The index (and every file git replaces) is
// written to a lock file and renamed into place, never rewritten where it
// stands, so the mapped bytes stay the bytes of the file that was opened;
// their pages come from the page cache, touched on demand, instead of a
// fresh buffer of the file's size. A file that cannot be mapped (empty,
// or on a file system that maps nothing) is read as readFile reads it.
// The bytes must not be used after release, nor be written.
func mapFile(name string) (data []byte, release func(), err error) {
	var fd int
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG && st.Size > 0 && int64(int(st.Size)) == st.Size {
		if m, err := syscall.Mmap(fd, 0, int(st.Size), syscall.PROT_READ, syscall.MAP_PRIVATE); err == nil {
			return m, func() { _ = syscall.Munmap(m) }, nil
		}
	}
	data, err = readFile(name)
	return data, func() {}, err
}
