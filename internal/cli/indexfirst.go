package cli

import (
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
	if rel, ok := walk.RelUnder(cwd, abs); ok && rel != "" {
		// An index this process already verified unchanged is not hashed
		// again, unless the run keeps no stored state.
		data, found, err := repo.Git{RecordVerified: cacheWanted(s)}.IndexFile(cwd, rel)
		if err != nil {
			return nil, err
		}
		if found {
			return data, nil
		}
	}
	return walk.ReadConfigIn(cwd, abs)
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
