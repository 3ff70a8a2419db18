package registry

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/gate-sdk/gates/internal/walk"
)

// FS is the file access the registry needs: whole-file reads, single-path
// stats and one-level directory listings. Names are spelled as the caller
// spells them (relative to the working directory, '/'-separated); the
// registry never walks a tree.
type FS interface {
	ReadFile(name string) ([]byte, error)
	Stat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
}

// OS is the production FS over the operating system's files.
type OS struct{}

// ReadFile reads a whole file.
func (OS) ReadFile(name string) ([]byte, error) { return walk.ReadConfig(name) }

// Stat stats a path, following symbolic links.
func (OS) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }

// ReadDir lists one directory, sorted by name.
func (OS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }

// absent reports whether err says the path is not there, including a
// path running through a regular file.
func absent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// isFile reports whether name exists and is not a directory.
func isFile(fsys FS, name string) (bool, error) {
	fi, err := fsys.Stat(name)
	if err != nil {
		if absent(err) {
			return false, nil
		}
		return false, &Error{File: name, Kind: KindIO, Msg: "cannot stat: " + err.Error(), Err: err}
	}
	return !fi.IsDir(), nil
}

// isDir reports whether name exists and is a directory.
func isDir(fsys FS, name string) (bool, error) {
	fi, err := fsys.Stat(name)
	if err != nil {
		if absent(err) {
			return false, nil
		}
		return false, &Error{File: name, Kind: KindIO, Msg: "cannot stat: " + err.Error(), Err: err}
	}
	return fi.IsDir(), nil
}

// Join spells child under dir with one '/'. A dir of "" or "." adds no
// prefix, so a member of the working directory keeps its bare name. The
// registry joins as strings on purpose: every path it prints stays in the
// spelling its caller handed in, on every platform.
func Join(dir, child string) string {
	if dir == "" || dir == "." {
		return child
	}
	if strings.HasSuffix(dir, "/") {
		return dir + child
	}
	return dir + "/" + child
}

// base answers the last element of a '/'-spelled path.
func base(p string) string {
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// OSAt is OS with relative names taken against Dir instead of the
// process's working directory: an arm that runs a tree it did not start
// in (the harness arm enters the toplevel) reads that tree's registry.
type OSAt struct{ Dir string }

func (o OSAt) path(name string) string {
	if o.Dir == "" {
		return name
	}
	return walk.AbsAgainst(o.Dir, name)
}

// ReadFile reads a whole file.
func (o OSAt) ReadFile(name string) ([]byte, error) { return walk.ReadConfigIn(o.Dir, o.path(name)) }

// Stat stats a path, following symbolic links.
func (o OSAt) Stat(name string) (fs.FileInfo, error) { return os.Stat(o.path(name)) }

// ReadDir lists one directory, sorted by name.
func (o OSAt) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(o.path(name)) }
