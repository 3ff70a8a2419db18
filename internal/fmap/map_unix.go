//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

// Package fmap reads a file by mapping it: read-only, private, its pages
// the page cache's, touched on demand. On this project's hosts a fresh
// anonymous page costs far more than a cached file page, so the large
// files a short run reads whole (the index, the result cache's tables)
// are mapped rather than copied into a buffer of their size.
//
// The rule that makes it safe: every file mapped here is replaced by
// writing another and renaming it into place (or appended to), never cut
// short where it stands, so the mapped bytes stay those of the file that
// was opened. A file cut short by someone else faults on the pages past
// its new end; a caller that cannot let that kill the process guards its
// reads (see repo's faultGuard).
package fmap

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// Map answers name's bytes and the call that lets them go. The bytes must
// not be written, nor used after release. A file that cannot be mapped
// (empty, not regular, on a file system that maps nothing) is read into a
// buffer, and release does nothing.
//
// Only a regular file is read: the open does not wait (O_NONBLOCK, so a
// FIFO cannot block it), and anything else (a pipe, a device such as
// /dev/zero behind a link) is refused with ErrNotRegular, never read to
// an end that does not come.
func Map(name string) (data []byte, release func(), err error) {
	data, release, _, err = MapStamp(name)
	return data, release, err
}

// MapStamp is Map answering too the mapped file's identity, read from the
// descriptor the bytes were mapped from: its inode, device, size,
// modification and change times, spelled as one string. It is "" when the
// bytes were read into a buffer rather than mapped.
func MapStamp(name string) (data []byte, release func(), stamp string, err error) {
	var fd int
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, nil, "", &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, nil, "", &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, nil, "", &fs.PathError{Op: "read", Path: name, Err: ErrNotRegular}
	}
	if st.Size > 0 && int64(int(st.Size)) == st.Size {
		if m, err := syscall.Mmap(fd, 0, int(st.Size), syscall.PROT_READ, syscall.MAP_PRIVATE); err == nil {
			return m, func() { _ = syscall.Munmap(m) }, stampOf(&st), nil
		}
	}
	data, err = os.ReadFile(name)
	return data, func() {}, "", err
}

// ErrNotRegular is Map's cause for a name that is not a regular file.
var ErrNotRegular = errors.New("not a regular file; only a regular file is read")
