//go:build linux

package cli

import (
	"strconv"
	"syscall"
	"time"
)

// declID spells a declaration file's identity as a read of it sees it
// (through a link): inode, device, size, mode, modification and change
// times. With settled set, a file either of whose times is not before it
// answers false.
func declID(path string, settled time.Time) (string, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return "", false
	}
	if !settled.IsZero() {
		for _, t := range []syscall.Timespec{st.Mtim, st.Ctim} {
			if !time.Unix(int64(t.Sec), int64(t.Nsec)).Before(settled) {
				return "", false
			}
		}
	}
	b := make([]byte, 0, 96)
	b = strconv.AppendUint(b, st.Ino, 10)
	b = append(b, ' ')
	b = strconv.AppendUint(b, st.Dev, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, st.Size, 10)
	b = append(b, ' ')
	b = strconv.AppendUint(b, uint64(st.Mode), 8)
	for _, t := range []syscall.Timespec{st.Mtim, st.Ctim} {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(t.Sec), 10)
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(t.Nsec), 10)
	}
	return string(b), true
}
