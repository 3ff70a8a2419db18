package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gate-sdk/gates/internal/baseline"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/walk"
)

// baselines is a session's reads of the baseline file: the work tree's,
// read once from disk, and one per index snapshot the hook judges, read
// from the snapshot's own bytes (the file the commit records).
type baselines struct {
	// off runs every rule with no baseline: what `gates baseline` and
	// doctor record and compare.
	off bool

	diskOnce sync.Once
	disk     *baseline.File
	diskErr  error

	mu    sync.Mutex
	trees map[*repo.Snapshot]baselineRead
}

type baselineRead struct {
	f   *baseline.File
	err error
}

// baselineSource answers the baseline's repository-relative path.
func (s *Session) baselineSource() (string, error) {
	gatesDir, err := s.GatesDir()
	if err != nil {
		return "", err
	}
	return registry.Join(gatesDir, baseline.Name), nil
}

// diskBaseline answers the work tree's baseline, nil when there is none.
func (s *Session) diskBaseline() (*baseline.File, error) {
	b := &s.baselines
	b.diskOnce.Do(func() {
		src, err := s.baselineSource()
		if err != nil {
			b.diskErr = err
			return
		}
		cwd, err := s.Cwd()
		if err != nil {
			b.diskErr = err
			return
		}
		data, err := walk.ReadConfigIn(cwd, walk.AbsAgainst(cwd, src))
		if errors.Is(err, fs.ErrNotExist) {
			return
		}
		if err != nil {
			b.diskErr = fmt.Errorf("cannot read %s: %v", src, err)
			return
		}
		b.disk, b.diskErr = baseline.Parse(src, data)
		if b.diskErr == nil {
			b.disk = b.disk.Follow(s.baselineRenames(b.disk, nil))
		}
	})
	return b.disk, b.diskErr
}

// treeBaseline answers the baseline a snapshot records, read once per
// snapshot; nil when the snapshot does not track one.
func (s *Session) treeBaseline(tree *repo.Snapshot) (*baseline.File, error) {
	b := &s.baselines
	b.mu.Lock()
	defer b.mu.Unlock()
	if r, ok := b.trees[tree]; ok {
		return r.f, r.err
	}
	var r baselineRead
	src, err := s.baselineSource()
	if err != nil {
		r.err = err
	} else if _, tracked := tree.Mode(src); tracked {
		data, err := tree.Read(src)
		if err != nil {
			r.err = fmt.Errorf("cannot read %s: %v", src, err)
		} else {
			r.f, r.err = baseline.Parse(src, data)
			if r.err == nil {
				r.f = r.f.Follow(s.baselineRenames(r.f, tree))
			}
		}
	}
	if b.trees == nil {
		b.trees = map[*repo.Snapshot]baselineRead{}
	}
	b.trees[tree] = r
	return r.f, r.err
}

// judgedBaseline answers the baseline the hook holds tree to: the one it
// records, but for a foreign tree (§commit-audit C), which records none of
// the project's configuration: the default branch's, whose accepted
// findings a tree from before the adoption still holds.
func (s *Session) judgedBaseline(tree *repo.Snapshot) (*baseline.File, error) {
	if s.landed != nil && s.landed.config != nil && tree == s.landed.tree {
		tree = s.landed.config
	}
	return s.treeBaseline(tree)
}

// acceptFrom sets c's baseline ledger from f (none when f names nothing
// of the gate, or the session records raw findings).
func (s *Session) acceptFrom(c *gate.Context, f *baseline.File) {
	c.Accepts = nil
	if s.baselines.off {
		return
	}
	if l := f.For(c.Name); l != nil {
		c.Accepts = l
	}
}

// baselineRenames answers the renames git detects since the last commit
// that wrote the baseline, commit by commit along the first-parent line
// to HEAD, then from HEAD to the tree judged (the index when staged, else
// the work tree): each entry's old path to its file's new one. git is
// asked only when some entry names a path the tree lacks. Where git
// cannot say (no commit holds the baseline yet, git fails), nothing is
// followed: the entries keep their paths, so a moved finding reds rather
// than passing unread.
func (s *Session) baselineRenames(f *baseline.File, tree *repo.Snapshot) map[string]string {
	top, err := s.Top()
	if err != nil {
		return nil
	}
	present := func(p string) bool {
		if tree != nil {
			return tree.Has(p)
		}
		_, err := os.Lstat(filepath.Join(top, filepath.FromSlash(p)))
		return err == nil
	}
	if !f.Absent(present) {
		return nil
	}
	// A landed commit's tree is judged as of that commit: the renames are
	// those up to it, not up to where HEAD stands after the command (a
	// rename undone by a later commit of the same command is still this
	// commit's), and no index or work tree follows it.
	rev := "HEAD"
	if s.landed != nil && tree != nil && s.landed.tree == tree {
		rev = s.landed.id
	}
	g := repo.Git{}
	out, err := g.Run(top, "git log", nil, "log", "-1", "--format=%H", rev, "--", ":(literal)"+f.Source)
	base := strings.TrimSpace(string(out))
	if err != nil || base == "" {
		return nil
	}
	list := []string{"--no-ext-diff", "--name-status", "-z", "-M", "--diff-filter=R"}
	var pairs [][2]string
	out, err = g.Run(top, "git log", nil, append([]string{"log", "--reverse", "--first-parent", "--diff-merges=first-parent", "--format="}, append(list, base+".."+rev, "--")...)...)
	if err != nil {
		return nil
	}
	if pairs, err = baseline.ParseRenames(out); err != nil {
		return nil
	}
	if rev != "HEAD" {
		return baseline.Chain(pairs)
	}
	args := append([]string{"diff"}, list...)
	if tree != nil && tree.Staged() {
		args = append(args, "--cached")
	}
	out, err = g.Run(top, "git diff", nil, append(args, "HEAD", "--")...)
	if err != nil {
		return nil
	}
	more, err := baseline.ParseRenames(out)
	if err != nil {
		return nil
	}
	return baseline.Chain(append(pairs, more...))
}
