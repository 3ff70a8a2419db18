package repo

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
)

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

// mayConvert reports whether git may have written some work-tree file of
// s with bytes other than its blob's: an attributes file anywhere git
// reads one for these paths (a .gitattributes in any directory of the
// listing, tracked or not; the repository's info/attributes; the user's
// and the system's), core.autocrlf set to anything but false, or the
// environment pointing git at other attributes. Any of these, or a
// question that cannot be answered, and the stat test vouches for no
// file: a clean file's bytes are then not known to be its blob's.
func (g Git) mayConvert(s *Snapshot, commonDir string) bool {
	lookup := walk.EnvLookup(g.Env)
	for _, k := range []string{"GIT_ATTR_SOURCE", "GIT_ATTR_NOSYSTEM", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"} {
		if _, set := lookup(k); set {
			return true
		}
	}
	exists := func(p string) bool {
		_, err := os.Lstat(p)
		return err == nil || !errors.Is(err, fs.ErrNotExist)
	}
	// Every directory a listed path sits in, each asked once; the listing
	// is in path order, so a directory's paths come together.
	last := "\x00"
	for _, f := range s.files {
		d := ""
		if i := strings.LastIndexByte(f, '/'); i >= 0 {
			d = f[:i]
		}
		if d == last {
			continue
		}
		last = d
		rel := ".gitattributes"
		if d != "" {
			rel = d + "/.gitattributes"
		}
		if exists(walk.Child(s.dir, rel)) {
			return true
		}
	}
	if commonDir == "" || exists(walk.Child(commonDir, "info/attributes")) || exists("/etc/gitattributes") {
		return true
	}
	if x, ok := lookup("XDG_CONFIG_HOME"); ok && x != "" {
		if exists(walk.Child(x, "git/attributes")) {
			return true
		}
	} else if h, ok := lookup("HOME"); ok && h != "" && exists(walk.Child(h, ".config/git/attributes")) {
		return true
	}
	// assertion V: the two settings are read from git's config files in
	// process where walk.ConfigValues can name those files, else from git.
	vals, ok := walk.ConfigValues(commonDir, g.Env, "core.autocrlf", "core.attributesfile")
	if !ok {
		out, err := g.runCodes(s.dir, "read the line-ending configuration", []int{1}, "config", "-z", "--get-regexp", `^core\.(autocrlf|attributesfile)$`)
		if err != nil {
			return true
		}
		vals = map[string][]string{}
		for _, rec := range strings.Split(string(out), "\x00") {
			if key, val, _ := strings.Cut(rec, "\n"); key != "" {
				vals[strings.ToLower(key)] = append(vals[strings.ToLower(key)], val)
			}
		}
	}
	if len(vals["core.attributesfile"]) > 0 {
		return true
	}
	for _, v := range vals["core.autocrlf"] {
		switch strings.ToLower(v) {
		case "false", "no", "off", "0":
		default:
			return true
		}
	}
	return false
}
