//go:build linux

package repo

import (
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/gate-sdk/gates/internal/walk"
)

// fileStamp answers the stat fields that move when a file or directory
// changes (inode, device, size, mode, modification and change times) as
// one string, "absent" when there is none; follow stats through a link.
// With clock set, a time no older than clock answers false: what moved
// that recently may move again within the grain of the time stamps and
// show the same ones.
func fileStamp(p string, follow bool, clock fileTime) (string, bool) {
	var st syscall.Stat_t
	var err error
	if follow {
		err = syscall.Stat(p, &st)
	} else {
		err = syscall.Lstat(p, &st)
	}
	if err == syscall.ENOENT {
		return "absent", true
	}
	if err != nil {
		return "", false
	}
	if clock.sec != 0 && (!olderThan(st.Mtim, clock) || !olderThan(st.Ctim, clock)) {
		return "", false
	}
	// Spelled by hand, not by fmt: a memo holds a stamp per directory,
	// and a Stop compares hundreds of them.
	var buf [160]byte
	b := strconv.AppendUint(buf[:0], st.Ino, 10)
	b = append(b, ' ')
	b = strconv.AppendUint(b, st.Dev, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, st.Size, 10)
	b = append(b, ' ')
	b = strconv.AppendUint(b, uint64(st.Mode), 8)
	for _, t := range []syscall.Timespec{st.Mtim, st.Ctim} {
		b = append(b, ' ')
		b = strconv.AppendInt(b, t.Sec, 10)
		b = append(b, '.')
		b = strconv.AppendInt(b, t.Nsec, 10)
	}
	return string(b), true
}

func olderThan(t syscall.Timespec, clock fileTime) bool {
	return int64(t.Sec) < clock.sec || int64(t.Sec) == clock.sec && int64(t.Nsec) < clock.nsec
}

// fsClock writes the clock file in dir and answers the modification time
// the file system gave it: its own clock, in its own grain.
func fsClock(dir string) (fileTime, bool) {
	p := walk.Child(dir, treeClockName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fileTime{}, false
	}
	if err := os.WriteFile(p, []byte("clock\n"), 0o644); err != nil {
		return fileTime{}, false
	}
	var st syscall.Stat_t
	if err := syscall.Lstat(p, &st); err != nil || st.Mtim.Sec == 0 {
		return fileTime{}, false
	}
	return fileTime{int64(st.Mtim.Sec), int64(st.Mtim.Nsec)}, true
}

// trackedStatClean reports whether every entry is a stage-0 file or link,
// not intent-to-add nor outside a sparse checkout, whose stat data the
// index vouches for and which the work tree's file matches field for
// field. A listing of statCleanSplit entries or more is cut in as many
// parts as the process may run at once (at most 4), each tested on its
// own goroutine; the first part to find an entry that does not match
// stops the others.
func trackedStatClean(top string, entries []Entry) bool {
	parts := min(runtime.GOMAXPROCS(0), 4)
	if len(entries) < statCleanSplit || parts < 2 {
		return statCleanRange(top, entries, nil)
	}
	// assertion I (stop-gates): the parts' answers joined are the one
	// answer of a single pass.
	var stop atomic.Bool
	var wg sync.WaitGroup
	per := (len(entries) + parts - 1) / parts
	for lo := per; lo < len(entries); lo += per {
		part := entries[lo:min(lo+per, len(entries))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !statCleanRange(top, part, &stop) {
				stop.Store(true)
			}
		}()
	}
	ok := statCleanRange(top, entries[:per], &stop)
	if !ok {
		stop.Store(true)
	}
	wg.Wait()
	return ok && !stop.Load()
}

// statCleanSplit is the listing size from which trackedStatClean spreads
// its stats over goroutines (a variable so a test can spread a small one).
var statCleanSplit = 4096

// statCleanRangeByPath is trackedStatClean's test over entries in one
// pass, each file stat-tested by its path from the top, giving up (false)
// once stop is set. One Stat_t serves every entry: no file information is
// allocated. It is the reference statCleanRange (by directory, where the
// platform has it) is held to.
func statCleanRangeByPath(top string, entries []Entry, stop *atomic.Bool) bool {
	var st syscall.Stat_t
	buf := make([]byte, 0, len(top)+256)
	for i := range entries {
		if stop != nil && i&255 == 0 && stop.Load() {
			return false
		}
		e := &entries[i]
		if e.stat == nil || e.Stage != 0 || e.IntentToAdd() || e.SkipWorktree() || e.Mode == ModeGitlink {
			return false
		}
		buf = append(append(append(append(buf[:0], top...), '/'), e.Path...), 0)
		if err := lstatZ(buf, &st); err != nil {
			return false
		}
		if !statMatches(&st, e.stat, e.Mode) {
			return false
		}
	}
	return true
}
