//go:build linux

package repo

import (
	"fmt"
	"syscall"
)

// indexStamp answers the stat fields that move whenever a file's bytes
// can have changed (size, modification and change times, inode, device),
// spelled as one string, and the modification time; false when they
// cannot be read.
func indexStamp(name string) (string, fileTime, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(name, &st); err != nil {
		return "", fileTime{}, false
	}
	return fmt.Sprintf("%d %d.%d %d.%d %d %d", st.Size, st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec, st.Ino, st.Dev), fileTime{st.Mtim.Sec, st.Mtim.Nsec}, true
}

// readTrailer answers the last n bytes of file, false when they cannot be
// read or are all zero (no checksum was written).
func readTrailer(file string, n int) (string, bool) {
	fd, err := syscall.Open(file, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", false
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size < int64(12+n) {
		return "", false
	}
	buf := make([]byte, n)
	if got, err := syscall.Pread(fd, buf, st.Size-int64(n)); err != nil || got != n || allZero(buf) {
		return "", false
	}
	return string(buf), true
}
