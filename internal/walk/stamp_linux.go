//go:build linux

package walk

import (
	"syscall"
	"time"
)

// dirStamp answers the stat data of the directory at path; false when it
// cannot be stat'ed or is no longer a directory.
func dirStamp(path string) (stamp, bool) {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return stamp{}, false
	}
	return stamp{
		dev:   uint64(st.Dev),
		ino:   uint64(st.Ino),
		mode:  uint64(st.Mode),
		size:  uint64(st.Size),
		mtime: st.Mtim.Nano(),
		ctime: st.Ctim.Nano(),
	}, true
}

// ChangedBefore reports whether the entry at path (not followed) was last
// changed, its bytes or its metadata, before t: its change time, which no
// tool can set back, is earlier. False when it cannot be stat'ed.
func ChangedBefore(path string, t time.Time) bool {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		return false
	}
	return time.Unix(st.Ctim.Sec, st.Ctim.Nsec).Before(t)
}
