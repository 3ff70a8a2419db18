//go:build linux

package githook

import (
	"os"
	"syscall"
)

// ctimeIno answers a file's status-change time and inode number.
func ctimeIno(fi os.FileInfo) (int64, int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctim.Sec*1e9 + st.Ctim.Nsec, int64(st.Ino)
	}
	return 0, 0
}
