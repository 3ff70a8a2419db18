package cli

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/walk"
)

// readIndexFirst reads a configuration file as the index records it: a
// path under the work tree that the index holds is its staged bytes,
// whatever the work tree now says; any other path, or one the index does
// not hold (an untracked overlay), is the file on disk.
func (s *Session) readIndexFirst(p string) ([]byte, error) {
	cwd, err := s.Cwd()
	if err != nil {
		return nil, err
	}
	abs := walk.AbsAgainst(cwd, p)
	if s.landed != nil {
		// A landed commit's judge: the commit's copy where it holds one.
		data, found, err := s.landed.copyOf(abs)
		if err != nil || found {
			return data, err
		}
		return walk.ReadConfigIn(cwd, abs)
	}
	if rel, ok := walk.RelUnder(cwd, abs); ok && rel != "" {
		data, found, err := s.indexCopy(cwd, rel)
		if err != nil {
			return nil, err
		}
		if found {
			return data, nil
		}
	}
	return walk.ReadConfigIn(cwd, abs)
}

// indexCopy answers the index's copy of rel (a path below top), each path
// asked of the index once per session. An index this process already
// verified unchanged is not hashed again, unless the run keeps no stored
// state.
func (s *Session) indexCopy(top, rel string) ([]byte, bool, error) {
	type copied struct {
		data  []byte
		found bool
	}
	key := top + "\x00" + rel
	if c, ok := s.indexCopies.Load(key); ok {
		return c.(copied).data, c.(copied).found, nil
	}
	data, found, err := repo.Git{RecordVerified: cacheWanted(s)}.IndexFile(top, filepath.ToSlash(rel))
	if err != nil {
		return nil, false, err
	}
	s.indexCopies.Store(key, copied{data, found})
	return data, found, nil
}

// indexFirstFS is a registry FS whose registry list is read index first;
// declarations and everything else come from the FS beneath.
type indexFirstFS struct {
	registry.FS
	list string
	read func(string) ([]byte, error)
}

func (f indexFirstFS) ReadFile(name string) ([]byte, error) {
	if name == f.list {
		return f.read(name)
	}
	return f.FS.ReadFile(name)
}

// stagedCopies keeps the staged snapshot a hook run without one of its
// own (commit-msg) reads its rule inputs from, built on first use.
type stagedCopies struct {
	once sync.Once
	tree *repo.Snapshot
	err  error
}

// indexConfigCopy is gate.Context.ConfigCopy for a git hook run with no
// snapshot handed to it: the copies the index records under the work-tree
// top, read from one staged snapshot built on first use.
func (s *Session) indexConfigCopy(abs string) ([]byte, bool, error) {
	if s.landed != nil {
		return s.landed.copyOf(abs)
	}
	s.staged.once.Do(func() {
		cwd, err := s.Cwd()
		if err != nil {
			s.staged.err = err
			return
		}
		s.staged.tree, s.staged.err = repo.Git{RecordVerified: cacheWanted(s)}.StagedSnapshot(cwd)
	})
	if s.staged.err != nil {
		return nil, false, s.staged.err
	}
	return snapshotCopy(s.staged.tree)(abs)
}

// snapshotCopy is gate.Context.ConfigCopy over a staged snapshot: a file
// the snapshot records as a regular file is its staged bytes, and a link
// it records is followed through the snapshot while it stays inside the
// work tree (at most eight links). Anything else (a path outside the tree,
// one the index does not hold, an untracked overlay, a link leaving the
// tree or passing through a linked directory, a submodule) is left to the
// disk, as the registry and knob files are.
func snapshotCopy(tree *repo.Snapshot) func(abs string) ([]byte, bool, error) {
	return func(abs string) ([]byte, bool, error) {
		rel, ok := walk.RelUnder(tree.Dir(), abs)
		if !ok || rel == "" {
			return nil, false, nil
		}
		rel = filepath.ToSlash(rel)
		for hops := 0; hops <= 8; hops++ {
			mode, held := tree.Mode(rel)
			if !held {
				return nil, false, nil
			}
			switch mode {
			case repo.ModeRegular, repo.ModeExecutable:
				data, err := tree.Read(rel)
				if err != nil {
					return nil, false, err
				}
				return data, true, nil
			case repo.ModeSymlink:
				target, err := tree.Read(rel)
				if err != nil {
					return nil, false, err
				}
				t := string(target)
				// A link text is a '/'-separated string git recorded: a
				// rooted one, or one spelled in another dialect, leaves
				// the tree as far as the index can follow it.
				// path-dialect-exempt: a link text git recorded, '/'-separated on every host, not a path of this one
				if t == "" || strings.HasPrefix(t, "/") || strings.ContainsAny(t, `\:`) {
					return nil, false, nil
				}
				next := path.Clean(path.Join(path.Dir(rel), t))
				if next == "." || next == ".." || strings.HasPrefix(next, "../") {
					return nil, false, nil
				}
				rel = next
			default:
				return nil, false, nil
			}
		}
		return nil, false, nil
	}
}

// sparseFS is a git hook's registry FS: a declaration a sparse checkout
// left out of the work tree (its directory is not on disk) is read as the
// index records it, so a commit in a cone that holds no gates dir is
// judged by the gates it records. A file whose directory is on disk is
// the file on disk, present or not, and costs no read of the index.
type sparseFS struct {
	registry.OSAt
	s *Session
}

// held answers the index's copy of name when its directory is not on
// disk.
func (f sparseFS) held(name string) ([]byte, bool) {
	abs := walk.AbsAgainst(f.Dir, name)
	if _, err := os.Stat(filepath.Dir(abs)); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	rel, ok := walk.RelUnder(f.Dir, abs)
	if !ok || rel == "" {
		return nil, false
	}
	data, found, err := repo.Git{RecordVerified: cacheWanted(f.s)}.IndexFile(f.Dir, filepath.ToSlash(rel))
	if err != nil || !found {
		return nil, false
	}
	return data, true
}

func (f sparseFS) ReadFile(name string) ([]byte, error) {
	data, err := f.OSAt.ReadFile(name)
	if err != nil && errors.Is(err, fs.ErrNotExist) {
		if held, ok := f.held(name); ok {
			return held, nil
		}
	}
	return data, err
}

func (f sparseFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := f.OSAt.Stat(name)
	if err != nil && errors.Is(err, fs.ErrNotExist) {
		if held, ok := f.held(name); ok {
			return heldFile{name: filepath.Base(name), size: int64(len(held))}, nil
		}
	}
	return fi, err
}
