//go:build linux && (amd64 || arm64)

package repo

import (
	"strings"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// statCleanRange is trackedStatClean's test over entries in one pass, by
// directory (statCleanRangeByDir).
func statCleanRange(top string, entries []Entry, stop *atomic.Bool) bool {
	// assertion J (stop-gates): each file's stat is asked of its
	// directory's descriptor; the verdict is the stat by path's.
	return statCleanRangeByDir(top, entries, stop)
}

// statCleanRangeByDir is statCleanRangeByPath asking each entry's stat of a
// descriptor of its directory (fstatat(dirfd, name, AT_SYMLINK_NOFOLLOW))
// instead of its path from the top: each directory is opened once (the
// open resolves its path as lstat resolves a path's leading components,
// following links), and the kernel then walks one component a file. A
// directory that cannot be opened (gone, now a file) answers false, as
// the lstat of a path through it does.
func statCleanRangeByDir(top string, entries []Entry, stop *atomic.Bool) bool {
	var st syscall.Stat_t
	cur, curFD := "\x00", -1
	defer func() {
		if curFD >= 0 {
			syscall.Close(curFD)
		}
	}()
	name := make([]byte, 0, 256)
	for i := range entries {
		if stop != nil && i&255 == 0 && stop.Load() {
			return false
		}
		e := &entries[i]
		if e.stat == nil || e.Stage != 0 || e.IntentToAdd() || e.SkipWorktree() || e.Mode == ModeGitlink {
			return false
		}
		dir, base := "", e.Path
		if j := strings.LastIndexByte(e.Path, '/'); j >= 0 {
			dir, base = e.Path[:j], e.Path[j+1:]
		}
		if dir != cur || curFD < 0 {
			// One descriptor at a time: the index lists a directory's
			// files together, but for its subdirectories' paths between
			// them, so a directory is opened about once and no more
			// than one descriptor is ever held.
			if curFD >= 0 {
				syscall.Close(curFD)
				curFD = -1
			}
			p := top
			if dir != "" {
				p = top + "/" + dir
			}
			fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC|oPath, 0)
			if err != nil {
				return false
			}
			cur, curFD = dir, fd
		}
		name = append(append(name[:0], base...), 0)
		const atSymlinkNoFollow = 0x100
		if _, _, errno := syscall.Syscall6(sysFstatat, uintptr(curFD), uintptr(unsafe.Pointer(&name[0])), uintptr(unsafe.Pointer(&st)), atSymlinkNoFollow, 0, 0); errno != 0 {
			return false
		}
		if !statMatches(&st, e.stat, e.Mode) {
			return false
		}
	}
	return true
}

// oPath opens a directory only to name it (O_PATH): no read access is
// checked and nothing is read.
const oPath = 0x200000
