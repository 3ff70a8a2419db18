//go:build unix

package repo

import (
	"io/fs"
	"syscall"

	"github.com/gate-sdk/gates/internal/walk"
)

// readFile is os.ReadFile for the snapshot's many small reads, with its
// answers and error values: the same open, size and read-to-EOF, but
// through the system calls directly, so a file costs no *os.File (no
// poller registration attempt, no cleanup to run) and its buffer is
// exactly its size instead of at least 512 bytes.
func readFile(name string) ([]byte, error) { return readFileSized(name, -1) }

// maxSizeHint bounds a size hint readFileSized trusts: a stale index
// entry naming a huge size for a file since cut short must not allocate
// that much.
const maxSizeHint = 1 << 20

// readFileSized is readFile told the size the file is expected to have
// (the index's record; -1 for none). A hint up to maxSizeHint sizes the
// buffer; the read still runs to end of file, so a file that grew or
// shrank since reads whole either way.
//
// Only a regular file is read: the open does not wait (O_NONBLOCK, so a
// FIFO cannot block it) and the open file is checked with fstat before any
// read, so a pipe, a device or a socket at a tracked path (a link to
// /dev/zero included) is refused with walk.ErrNotRegular instead of read
// without end or waited on.
func readFileSized(name string, hint int) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, walk.NotRegular(name, modeType(uint32(st.Mode)))
	}
	size := 0
	if hint >= 0 && hint <= maxSizeHint {
		size = hint
	} else if st.Size > 0 && int64(int(st.Size)) == st.Size {
		size = int(st.Size)
	}
	data := make([]byte, 0, size)
	var tail [512]byte
	for {
		buf := data[len(data):cap(data)]
		if len(buf) == 0 {
			// Full (or sized 0, as /proc files are): read on through a
			// small stack buffer, growing only if the file did.
			buf = tail[:]
		}
		n, err := syscall.Read(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if n <= 0 {
			return data, nil
		}
		if &buf[0] == &tail[0] {
			data = append(data, tail[:n]...)
		} else {
			data = data[:len(data)+n]
		}
	}
}

// modeType answers the fs type bits of a stat mode, for the refusal's text.
func modeType(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	}
	return fs.ModeIrregular
}
