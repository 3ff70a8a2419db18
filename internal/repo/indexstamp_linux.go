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
