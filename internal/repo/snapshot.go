package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/gate-sdk/gates/internal/walk"
)

// File modes as the index records them.
const (
	ModeRegular    uint32 = 0o100644
	ModeExecutable uint32 = 0o100755
	ModeSymlink    uint32 = 0o120000
	ModeGitlink    uint32 = 0o160000
)

// Snapshot is the tracked-file view one process builds once and every gate
// shares read-only: the tracked listing under a directory with each path's
// index mode, and each file's work-tree bytes read lazily, at most once,
// and cached. All methods are safe for concurrent use.
//
// Read answers a symlink (mode 120000) as its link target's text, the bytes
// git stores for it, never the file it points at; a gitlink (a submodule,
// mode 160000) is refused. Bytes handed out are shared: callers must not
// modify them.
type Snapshot struct {
	dir     string
	files   []string
	entries map[string]*snapEntry
}

type snapEntry struct {
	mode uint32

	readOnce sync.Once
	data     []byte
	err      error

	statOnce sync.Once
	present  bool
}

// NewSnapshot lists the index under dir (one git ls-files -s -z) and
// answers the snapshot; names are relative to dir and scoped to it.
func NewSnapshot(dir string) (*Snapshot, error) { return Git{}.NewSnapshot(dir) }

// NewSnapshot is the package-level NewSnapshot under g's environment.
func (g Git) NewSnapshot(dir string) (*Snapshot, error) {
	entries, err := g.IndexModes(dir)
	if err != nil {
		return nil, err
	}
	return SnapshotOf(dir, entries), nil
}

// SnapshotOf builds a snapshot from index entries already read (relative to
// dir). A path in conflict keeps its first stage's mode.
func SnapshotOf(dir string, entries []Entry) *Snapshot {
	s := &Snapshot{dir: dir, entries: make(map[string]*snapEntry, len(entries)), files: make([]string, 0, len(entries))}
	for _, e := range entries {
		if _, dup := s.entries[e.Path]; dup {
			continue
		}
		s.entries[e.Path] = &snapEntry{mode: e.Mode}
		s.files = append(s.files, e.Path)
	}
	return s
}

// Dir is the directory the snapshot's names are relative to.
func (s *Snapshot) Dir() string { return s.dir }

// Files answers the tracked paths in index order (a fresh slice).
func (s *Snapshot) Files() []string { return append([]string(nil), s.files...) }

// Len is the number of tracked paths.
func (s *Snapshot) Len() int { return len(s.files) }

// Has reports whether path is tracked.
func (s *Snapshot) Has(path string) bool {
	_, ok := s.entries[path]
	return ok
}

// Mode answers path's index mode, false when untracked.
func (s *Snapshot) Mode(path string) (uint32, bool) {
	e, ok := s.entries[path]
	if !ok {
		return 0, false
	}
	return e.mode, true
}

// Exists reports whether path is tracked and present in the work tree (a
// dangling symlink counts as present: it is the link that is tracked).
func (s *Snapshot) Exists(path string) bool {
	e, ok := s.entries[path]
	if !ok {
		return false
	}
	e.statOnce.Do(func() {
		_, err := os.Lstat(walk.Child(s.dir, path))
		e.present = err == nil
	})
	return e.present
}

// Read answers path's work-tree bytes, reading them at most once per
// snapshot. An untracked path is refused; a tracked file missing from the
// work tree answers an error wrapping fs.ErrNotExist.
func (s *Snapshot) Read(path string) ([]byte, error) {
	e, ok := s.entries[path]
	if !ok {
		return nil, fmt.Errorf("%s: not tracked", path)
	}
	// assertion F: each file's bytes are read at most once.
	e.readOnce.Do(func() { e.data, e.err = s.load(path, e.mode) })
	return e.data, e.err
}

func (s *Snapshot) load(path string, mode uint32) ([]byte, error) {
	full := walk.Child(s.dir, path)
	switch mode {
	case ModeGitlink:
		return nil, fmt.Errorf("%s: a submodule has no file bytes", path)
	case ModeSymlink:
		fi, err := os.Lstat(full)
		if err != nil {
			return nil, readErr(path, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(full)
			if err != nil {
				return nil, readErr(path, err)
			}
			return []byte(target), nil
		}
		// core.symlinks=false checks a link out as a file holding its
		// target's text: the same bytes.
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return nil, readErr(path, err)
	}
	return data, nil
}

func readErr(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: tracked but missing from the work tree: %w", path, fs.ErrNotExist)
	}
	return fmt.Errorf("could not read %s: %w", path, err)
}
