package walk

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// MaxConfigBytes bounds every configuration file gates reads whole (the
// registry, a knob file, the baseline, a pattern list, an allowlist, the
// queue, a state record): far above any honest one (the largest baseline
// of a 100,000-file tree is a few MiB), far below what would exhaust a
// machine's memory.
const MaxConfigBytes = 64 << 20

// ErrNotRegular is the cause ReadConfig gives for a path that names
// something other than a regular file (a device, a pipe, a socket, a
// directory), through a link or directly.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is the cause ReadConfig gives for a file over MaxConfigBytes.
var ErrTooLarge = fmt.Errorf("larger than the %d MiB a configuration file may hold", MaxConfigBytes>>20)

// ReadConfig is the one reader of a configuration file: os.ReadFile for a
// regular file (a link is followed to one) of at most MaxConfigBytes, and
// a *fs.PathError naming name otherwise, so a file linked to /dev/zero, a
// FIFO or a runaway file is refused instead of read without end or blocked
// on. An absent file answers os.Stat's own error (errors.Is ErrNotExist
// holds), so a reader of an optional file keeps telling absent from
// unreadable.
func ReadConfig(name string) ([]byte, error) {
	// The type and the size are checked before any open, so
	// nothing that is not a regular file is ever opened (a FIFO's open
	// blocks until a writer comes).
	fi, err := os.Stat(name)
	if err != nil {
		return nil, dangling(name, err)
	}
	if err := configShape(name, fi); err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The open file is checked again and read through a
	// bound, so a swap between the stat and the open gains nothing.
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := configShape(name, fi); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxConfigBytes+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	if len(data) > MaxConfigBytes {
		return nil, &fs.PathError{Op: "read", Path: name, Err: ErrTooLarge}
	}
	return data, nil
}

// ErrDangling is the cause ReadConfig gives for a symbolic link whose
// target does not exist.
var ErrDangling = errors.New("a symbolic link whose target does not exist")

// dangling turns a stat error that reads as absent into a refusal when
// the name itself is there as a symbolic link: the link exists, so the
// file is not absent, only unreadable, and a reader of an optional file
// must not take its defaults over it.
func dangling(name string, err error) error {
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	fi, lerr := os.Lstat(name)
	if lerr != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return err
	}
	target, rerr := os.Readlink(name)
	if rerr != nil {
		target = "?"
	}
	return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w (it points at %s); point it at a file that exists, or remove it if the file is meant to be absent", ErrDangling, target)}
}

// ErrLeavesTree is the cause ReadConfigIn gives for a path inside the tree
// that a symbolic link carries outside it.
var ErrLeavesTree = errors.New("a link that leaves the tree")

// ReadConfigIn is ReadConfig for a file of the tree at top: a path that
// lies inside top (as spelled) must also resolve inside it, so a link in
// the tree may point at a regular file of the tree and nowhere else (not
// at a device, and not at another tree's configuration). A path spelled
// outside top, or an empty top, is ReadConfig's alone.
func ReadConfigIn(top, name string) ([]byte, error) {
	// What the file is comes first: a device is refused as a device,
	// wherever its link points.
	if fi, err := os.Stat(name); err == nil {
		if err := configShape(name, fi); err != nil {
			return nil, err
		}
	}
	if top != "" {
		// Inside as spelled: under top with no ".." (a path climbing out
		// through ".." is spelled outside, and read as it is named).
		if _, inside := ListingSpelling(NormalizeAbs(top), NormalizeAbs(name)); inside {
			real, err := resolveFile(name)
			if err != nil {
				// Absent, or a dangling link: ReadConfig answers for it.
				return ReadConfig(name)
			}
			realTop, err := resolveDir(top)
			if err != nil {
				return nil, &fs.PathError{Op: "read", Path: name, Err: err}
			}
			if _, ok := RelUnder(NormalizeAbs(realTop), NormalizeAbs(real)); !ok {
				return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w (it resolves to %s, outside %s); point it at a file inside the tree, or copy the file in", ErrLeavesTree, real, top)}
			}
		}
	}
	return ReadConfig(name)
}

// configShape refuses what a configuration file may not be.
func configShape(name string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return NotRegular(name, fi.Mode())
	}
	if fi.Size() > MaxConfigBytes {
		return &fs.PathError{Op: "read", Path: name, Err: ErrTooLarge}
	}
	return nil
}

// NotRegular is the refusal of name, whose type is m's and not a regular
// file's: errors.Is ErrNotRegular holds, and the text names the path and
// what it is.
func NotRegular(name string, m fs.FileMode) error {
	return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w (it is %s); gates reads a regular file, or a link to one, and opens nothing else", ErrNotRegular, kindOf(m))}
}

// kindOf names a file mode's type for a refusal.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// resolvedDirs holds the directories resolveDir resolved in this process,
// by spelling: a run reads the registry's declarations, a few dozen files
// in two or three directories, each through ReadConfigIn, and resolving
// every component of each path again cost a dozen stat calls a file.
var resolvedDirs sync.Map

// resolveDir is filepath.EvalSymlinks of a directory, kept for the
// process when the directory is spelled from the root (a relative one
// follows the working directory, which may change).
func resolveDir(dir string) (string, error) {
	if !filepath.IsAbs(dir) {
		return filepath.EvalSymlinks(dir)
	}
	if v, ok := resolvedDirs.Load(dir); ok {
		return v.(string), nil
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	resolvedDirs.Store(dir, real)
	return real, nil
}

// resolveFile is filepath.EvalSymlinks of a file: a name that is no link
// resolves to its directory's resolution joined with its base; a link,
// or a name whose base is no plain component, is resolved whole.
func resolveFile(name string) (string, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return "", err
	}
	dir, base := filepath.Split(name)
	if fi.Mode()&fs.ModeSymlink != 0 || dir == "" || base == "" || base == "." || base == ".." {
		return filepath.EvalSymlinks(name)
	}
	real, err := resolveDir(dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(real, base), nil
}

// BOM is UTF-8's encoding signature, U+FEFF, that editors on Windows
// write at the start of a text file.
const BOM = "\ufeff"

// TrimBOM answers a file's text without the encoding signature it opens
// with, if any: the mark is no part of the first line.
func TrimBOM(text string) string { return strings.TrimPrefix(text, BOM) }
