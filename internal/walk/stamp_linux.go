//go:build linux

package walk

import "syscall"

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
