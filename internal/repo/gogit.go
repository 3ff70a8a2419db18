package repo

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/gate-sdk/gates/internal/walk"
)

// openAt opens the storage of the repository whose work tree is top: its
// git directory and common directory as the crosser answers them
// (walk.GitDirs, the only thing that answers where a repository is). It
// reads go-git's storage layer alone: the package that opens a whole
// Repository links every transport (HTTP, SSH, OpenPGP), and their
// initialisers ran in every process that never fetches anything.
func openAt(top string) (*filesystem.Storage, error) {
	gitDir, common, err := walk.GitDirs(top, nil)
	if err != nil {
		return nil, fmt.Errorf("go-git could not open the repository at %s: %w", top, err)
	}
	var fs billy.Filesystem = osfs.New(gitDir)
	if common != gitDir {
		fs = dotgit.NewRepositoryFilesystem(fs, osfs.New(common))
	}
	return filesystem.NewStorage(fs, cache.NewObjectLRUDefault()), nil
}

// objectStore opens the object store of a common git directory.
func objectStore(commonDir string) (*filesystem.Storage, error) {
	if _, err := os.Stat(commonDir); err != nil {
		return nil, fmt.Errorf("go-git could not open the object store at %s: %w", commonDir, err)
	}
	return filesystem.NewStorage(osfs.New(commonDir), cache.NewObjectLRUDefault()), nil
}

// IndexEntriesAt reads the whole index of the repository whose toplevel is
// top, in process, names relative to top in index order. ScopeEntries
// narrows the answer to a subdirectory as git ls-files would.
func IndexEntriesAt(top string) ([]Entry, error) {
	// assertion C: held equal to IndexModes by test; slower, so the CLI
	// serves the snapshot.
	r, err := openAt(top)
	if err != nil {
		return nil, err
	}
	idx, err := r.Index()
	if err != nil {
		return nil, fmt.Errorf("go-git could not read the index at %s: %w", top, err)
	}
	out := make([]Entry, 0, len(idx.Entries))
	for _, e := range idx.Entries {
		if err := walk.CheckName(e.Name); err != nil {
			return nil, err
		}
		out = append(out, Entry{Path: e.Name, Mode: uint32(e.Mode), Hash: e.Hash.String(), Stage: int(e.Stage)})
	}
	return out, nil
}

// ScopeEntries keeps the entries under prefix (a walk.Location prefix:
// "" or ending in '/') and spells them relative to it.
func ScopeEntries(entries []Entry, prefix string) []Entry {
	if prefix == "" {
		return entries
	}
	var out []Entry
	for _, e := range entries {
		if rest, ok := strings.CutPrefix(e.Path, prefix); ok {
			e.Path = rest
			out = append(out, e)
		}
	}
	return out
}

// HeadAt reads HEAD of the repository at top, in process.
func HeadAt(top string) (Head, error) {
	r, err := openAt(top)
	if err != nil {
		return Head{}, err
	}
	var h Head
	ref, err := r.Reference(plumbing.HEAD)
	if err != nil {
		return Head{}, fmt.Errorf("go-git could not read HEAD at %s: %w", top, err)
	}
	if ref.Type() == plumbing.SymbolicReference {
		h.Branch = ref.Target().String()
	}
	res, err := storer.ResolveReference(r, plumbing.HEAD)
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
	case err != nil:
		return Head{}, fmt.Errorf("go-git could not resolve HEAD at %s: %w", top, err)
	default:
		h.Hash = res.Hash().String()
	}
	return h, nil
}

// RemotesAt reads the remotes of the repository at top from its own config
// file, in process, in config order.
func RemotesAt(top string) ([]Remote, error) {
	r, err := openAt(top)
	if err != nil {
		return nil, err
	}
	cfg, err := r.Config()
	if err != nil {
		return nil, fmt.Errorf("go-git could not read config at %s: %w", top, err)
	}
	var out []Remote
	for _, sub := range cfg.Raw.Section("remote").Subsections {
		urls := sub.Options.GetAll("url")
		if len(urls) == 0 {
			continue
		}
		out = append(out, Remote{Name: sub.Name, URLs: urls})
	}
	return out, nil
}

// Head reads HEAD at the toplevel top in process (go-git, measured some
// fifty times faster than the two git spawns ReadHead takes), and falls back
// to the CLI where go-git cannot read the repository (a ref format it does
// not know, say): the CLI stays the authority.
func (g Git) Head(top string) (Head, error) {
	// assertion C: go-git where it is faithful and faster.
	if h, err := HeadAt(top); err == nil {
		return h, nil
	}
	return g.ReadHead(top)
}
