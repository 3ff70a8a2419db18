//go:build linux

package fmap

import (
	"strconv"
	"syscall"
)

// stampOf spells a mapped file's identity: inode, device, size, and the
// modification and change times to the nanosecond.
func stampOf(st *syscall.Stat_t) string {
	b := make([]byte, 0, 96)
	b = strconv.AppendUint(b, st.Ino, 10)
	b = append(b, ' ')
	b = strconv.AppendUint(b, st.Dev, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, st.Size, 10)
	for _, t := range []syscall.Timespec{st.Mtim, st.Ctim} {
		b = append(b, ' ')
		b = strconv.AppendInt(b, t.Sec, 10)
		b = append(b, '.')
		b = strconv.AppendInt(b, t.Nsec, 10)
	}
	return string(b)
}
