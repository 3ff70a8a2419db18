package repo

import "encoding/binary"

// statData is an index entry's first 40 bytes as the file holds them: the
// ctime and mtime (seconds, nanoseconds), dev, ino, mode, uid, gid and
// size of the work-tree file when git last recorded it, each a big-endian
// 32-bit field (git truncates wider values).
type statData [40]byte

func (d *statData) field(i int) uint32 { return binary.BigEndian.Uint32(d[4*i : 4*i+4]) }

// fileTime is a modification time, seconds and nanoseconds.
type fileTime struct{ sec, nsec int64 }

// keepCleanStat drops the stat data of every entry it cannot trust once
// the index file was written at written (zero: trust none). An entry whose
// recorded mtime is not strictly older than the index file is racily
// clean: the file may have changed again within the timestamp's grain
// after git hashed it, with no stat field moving, so only its bytes can
// tell. A recorded mtime with no nanoseconds is compared by the second, as
// a git that keeps none would.
func keepCleanStat(entries []Entry, written fileTime) {
	for i := range entries {
		e := &entries[i]
		if e.stat == nil {
			continue
		}
		if written.sec == 0 || e.Stage != 0 {
			e.stat = nil
			continue
		}
		sec, nsec := int64(e.stat.field(2)), int64(e.stat.field(3))
		if sec > written.sec || sec == written.sec && (nsec == 0 || nsec >= written.nsec) {
			e.stat = nil
		}
	}
}
