//go:build linux

package repo

import "syscall"

// statClean reports whether the file at full has, field for field, the
// stat data d the index recorded for an entry of mode: the test git's own
// status makes before it trusts an entry's id without hashing the file.
// Every field is compared, the change time included, so an edit that puts
// the modification time back (touch -r, cp -p) still misses.
func statClean(full string, d *statData, mode uint32) bool {
	var st syscall.Stat_t
	if err := syscall.Lstat(full, &st); err != nil {
		return false
	}
	return statMatches(&st, d, mode)
}

// statMatches is statClean's test over stat fields already read.
func statMatches(st *syscall.Stat_t, d *statData, mode uint32) bool {
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		exec := st.Mode&0o100 != 0
		if mode != ModeRegular && mode != ModeExecutable || exec != (mode == ModeExecutable) {
			return false
		}
	case syscall.S_IFLNK:
		if mode != ModeSymlink {
			return false
		}
	default:
		return false
	}
	return d.field(0) == uint32(st.Ctim.Sec) && d.field(1) == uint32(st.Ctim.Nsec) &&
		d.field(2) == uint32(st.Mtim.Sec) && d.field(3) == uint32(st.Mtim.Nsec) &&
		d.field(4) == uint32(st.Dev) && d.field(5) == uint32(st.Ino) &&
		d.field(7) == st.Uid && d.field(8) == st.Gid &&
		d.field(9) == uint32(st.Size)
}
