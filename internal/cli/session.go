package cli

import (
	"fmt"
	"os"
	"sync"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/walk"
)

// Session is one invocation's shared, lazily built state: the working
// directory, the knob set, the kit roots and the snapshot of the tracked
// tree. Each is computed at most once and shared read-only by every gate
// the invocation runs, so a battery reads the tree once.
type Session struct {
	IO

	prog       string // the invoked name every refusal opens with
	liveStderr bool   // stderr is a terminal outside CI: a battery may show progress

	cwdOnce sync.Once
	cwd     string
	cwdErr  error
	// cwdTop is the work-tree top RunDir found ("" when it found none or
	// was pinned): Top answers it without asking git again.
	cwdTop string

	// registries holds each gates dir's loaded registry (loadRegistry):
	// the hook and every member reading the coupling graph share one read.
	regMu      sync.Mutex
	registries map[string]*registryLoad

	knobOnce sync.Once
	knobs    *knob.Set
	knobErr  error

	rootsOnce sync.Once
	roots     walk.KitRootSet
	rootsErr  error

	localOnce sync.Once
	local     *gateKnobs

	treeOnce sync.Once
	// treeBuild, when set, is how Snapshot lists the tree (the hook arm's
	// working-tree snapshot); nil is the index under the working directory.
	treeBuild func() (*repo.Snapshot, error)
	// editPrior, set for an edit judged over the index overlay, answers
	// the overlay an earlier edit of this index was judged in, for the
	// members that keep whole results (gate.Context.PriorFn).
	editPrior func() *gate.Prior
	tree      *repo.Snapshot
	treeErr   error

	cacheMu   sync.Mutex
	caches    map[string]*cache.Store // by common git dir
	treeStore *cache.Store            // the session snapshot's, located lazily
	// storesToFlush are the stores opened, in opening order.
	storesToFlush []*cache.Store

	baselines baselines

	// indexFirst makes the registry list and the knob files read as the
	// index records them, falling back to the work tree only for a file
	// the index does not hold: a git hook judges what the commit holds,
	// configuration included.
	indexFirst bool
	// staged is the snapshot an indexFirst run reads the rule inputs its
	// compiled members open by path from, when no snapshot is handed in.
	staged stagedCopies
	// indexCopies keeps the index's copies of the files a hook run asked
	// for by path (indexCopy), so one file asked twice decodes one index.
	indexCopies sync.Map

	// landed, when set, is the commit a landed-commit judge reads in
	// place of the index (see landedCommit).
	landed *landedCommit

	// proposedMessage marks the gate contexts of an agent hook's check of
	// a commit message before its command runs (gate.Context's field).
	proposedMessage bool
}

// caseDirKnob pins a run to one directory instead of the work-tree top
// (walk.RunDir); the fixture runner sets it for each case.
const caseDirKnob = "GATE_SDK_CASE_DIR"

func newSession(sio IO) *Session {
	if sio.Env == nil {
		sio.Env = os.LookupEnv
	}
	prog := sio.Name
	if prog == "" {
		prog = "gates"
	}
	return &Session{IO: sio, prog: prog}
}

// close persists the result caches the run filled; a cache that cannot be
// written costs the next run its speed, never a verdict, so it is a note.
func (s *Session) close() {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	verbose := s.Getenv("GATE_SDK_VERBOSE") != ""
	for _, st := range s.storesToFlush {
		if verbose {
			for _, t := range st.Stats() {
				fmt.Fprintf(s.Stderr, "%s: result cache: %s %d hits, %d misses\n", s.prog, t.Gate, t.Hits, t.Misses)
			}
		}
		if err := st.Flush(); err != nil && verbose {
			fmt.Fprintf(s.Stderr, "%s: result cache not written: %v\n", s.prog, err)
		}
	}
}

// treeCache answers the result cache of the session's own snapshot, its
// directory located only when a rule first opens a table.
func (s *Session) treeCache() *cache.Store {
	if !cacheWanted(s) {
		return nil
	}
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if s.treeStore == nil {
		s.treeStore = cache.Open(sourceStamp, func() (string, error) {
			snap, err := s.Snapshot()
			if err != nil {
				return "", err
			}
			if snap.CommonDir() == "" {
				return "", fmt.Errorf("no git directory known")
			}
			return walk.Child(snap.CommonDir(), cache.SubDir), nil
		})
		if s.treeStore != nil {
			s.storesToFlush = append(s.storesToFlush, s.treeStore)
		}
	}
	return s.treeStore
}

// cacheWanted reads GATE_SDK_CACHE.
func cacheWanted(s *Session) bool {
	// assertion F: GATE_SDK_CACHE=off (or any value other than on)
	// disables the cache.
	v := s.Getenv("GATE_SDK_CACHE")
	return v == "" || v == "on"
}

// verdictCache answers the result cache of the repository whose common git
// dir is commonDir; nil when GATE_SDK_CACHE=off, the build's stamp names no
// sources, or commonDir is unknown.
func (s *Session) verdictCache(commonDir string) *cache.Store {
	if commonDir == "" || !cacheWanted(s) {
		return nil
	}
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if st, ok := s.caches[commonDir]; ok {
		return st
	}
	dir := walk.Child(commonDir, cache.SubDir)
	st := cache.Open(sourceStamp, func() (string, error) { return dir, nil })
	if s.caches == nil {
		s.caches = map[string]*cache.Store{}
	}
	s.caches[commonDir] = st
	if st != nil {
		s.storesToFlush = append(s.storesToFlush, st)
	}
	return st
}

// Getenv answers an environment variable, "" when unset.
func (s *Session) Getenv(name string) string {
	v, _ := s.Env(name)
	return v
}

// Cwd answers the working directory in the module's dialect.
func (s *Session) Cwd() (string, error) {
	s.cwdOnce.Do(func() {
		pin, _ := s.Env(caseDirKnob)
		s.cwd, s.cwdTop, s.cwdErr = walk.RunDir(pin, nil)
	})
	return s.cwd, s.cwdErr
}

// regFS answers the registry's file access, relative names taken against
// the session's working directory (which an arm may have set to a tree
// other than the process's).
func (s *Session) regFS() registry.FS {
	cwd, _ := s.Cwd()
	if s.landed != nil {
		return landedFS{OSAt: registry.OSAt{Dir: cwd}, c: s.landed}
	}
	if s.indexFirst {
		return sparseFS{OSAt: registry.OSAt{Dir: cwd}, s: s}
	}
	return registry.OSAt{Dir: cwd}
}

// Knobs answers the knob set resolved against the working directory.
func (s *Session) Knobs() (*knob.Set, error) {
	s.knobOnce.Do(func() {
		cwd, err := s.Cwd()
		if err != nil {
			s.knobErr = err
			return
		}
		opts := knob.Options{
			Dir:        cwd,
			Lookup:     s.Env,
			Environ:    os.Environ,
			AbsAgainst: walk.AbsAgainst,
		}
		if s.indexFirst {
			opts.ReadFile = s.readIndexFirst
		}
		s.knobs, s.knobErr = knob.Load(opts)
	})
	return s.knobs, s.knobErr
}

// KitRoots answers the kit roots in every spelling.
func (s *Session) KitRoots() (walk.KitRootSet, error) {
	s.rootsOnce.Do(func() {
		cwd, err := s.Cwd()
		if err != nil {
			s.rootsErr = err
			return
		}
		set, err := s.Knobs()
		if err != nil {
			s.rootsErr = err
			return
		}
		dirs, err := set.Scalar("GATE_SDK_KIT_DIRS")
		if err != nil {
			s.rootsErr = err
			return
		}
		sdk := s.Getenv("GATE_SDK_ROOT")
		in := walk.KitRootsInput{Cwd: cwd, SdkRoot: sdk, KitDirs: dirs}
		dirAt := isDir
		if s.landed != nil && s.landed.config != nil {
			// A foreign tree's kit is the configuration tree's.
			in.ReadDir, in.IsDir = s.landed.configReadDir, s.landed.configIsDir
			dirAt = s.landed.configIsDir
		}
		if sdk == "" && dirs == "" {
			// The default locator naming no directory means no kit is
			// vendored here (a fixture case, a bare consumer): no roots.
			if !dirAt(walk.AbsAgainst(cwd, walk.DefaultSdkRoot)) {
				return
			}
		}
		s.roots, s.rootsErr = walk.KitRoots(in)
	})
	return s.roots, s.rootsErr
}

// GatesDir answers the consumer's gates directory (an environment-only
// locator the knob engine answers with its default).
func (s *Session) GatesDir() (string, error) {
	set, err := s.Knobs()
	if err != nil {
		return "", err
	}
	return set.Scalar("GATE_SDK_GATES_DIR")
}

// Top answers the git toplevel of the working directory, refusing outside
// a repository with a message naming the directory.
func (s *Session) Top() (string, error) {
	cwd, err := s.Cwd()
	if err != nil {
		return "", err
	}
	if s.cwdTop != "" {
		return s.cwdTop, nil
	}
	top, ok, err := walk.ToplevelOpt(cwd, nil)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("%s: not inside a git repository", cwd)
	}
	return top, nil
}

// Snapshot answers the tracked tree under the working directory, listed
// once per process.
func (s *Session) Snapshot() (*repo.Snapshot, error) {
	s.treeOnce.Do(func() {
		if s.treeBuild != nil {
			s.tree, s.treeErr = s.treeBuild()
			return
		}
		if _, err := s.Top(); err != nil {
			s.treeErr = err
			return
		}
		cwd, _ := s.Cwd()
		s.tree, s.treeErr = repo.NewSnapshot(cwd)
	})
	return s.tree, s.treeErr
}

// lazyTree adapts the session's snapshot to gate.Tree, listing the tree
// only when a gate first asks.
type lazyTree struct{ s *Session }

func (t lazyTree) Files() ([]string, error) {
	snap, err := t.s.Snapshot()
	if err != nil {
		return nil, err
	}
	return snap.Files(), nil
}

func (t lazyTree) Read(p string) ([]byte, error) {
	snap, err := t.s.Snapshot()
	if err != nil {
		return nil, err
	}
	return snap.Read(p)
}

// Claim registers a scan's reads with the snapshot (see repo.Claim); a
// tree that cannot be listed answers that refusal on every read.
func (t lazyTree) Claim(paths []string) gate.Claim {
	snap, err := t.s.Snapshot()
	if err != nil {
		return refusedClaim{err}
	}
	return snap.Claim(paths)
}

type refusedClaim struct{ err error }

func (r refusedClaim) Read(string) ([]byte, error) { return nil, r.err }
func (refusedClaim) Drop(string)                   {}
func (refusedClaim) Done()                         {}

func (t lazyTree) BlobID(p string) (string, bool) {
	snap, err := t.s.Snapshot()
	if err != nil {
		return "", false
	}
	return snap.BlobID(p)
}

// FromBlob tells a walk-based rule whether a tracked path the disk lacks
// is read from its blob (repo.Snapshot.FromBlob).
func (t lazyTree) FromBlob(p string) bool {
	snap, err := t.s.Snapshot()
	if err != nil {
		return false
	}
	return snap.FromBlob(p)
}

func (t lazyTree) Mode(p string) (uint32, bool) {
	snap, err := t.s.Snapshot()
	if err != nil {
		return 0, false
	}
	return snap.Mode(p)
}

func (t lazyTree) ModeAndBlob(p string) (uint32, string, bool) {
	snap, err := t.s.Snapshot()
	if err != nil {
		return 0, "", false
	}
	return snap.ModeAndBlob(p)
}

func (t lazyTree) TreeDigest() (string, bool) {
	snap, err := t.s.Snapshot()
	if err != nil {
		return "", false
	}
	return snap.TreeDigest()
}

func (t lazyTree) PathsDigest() (string, bool) {
	snap, err := t.s.Snapshot()
	if err != nil {
		return "", false
	}
	return snap.PathsDigest()
}

// Both adapters of the snapshot let a walk-based rule read what the disk
// lacks (gate.BlobBacked); a tree that dropped it would silently judge a
// sparse checkout without its off-disk entries.
var (
	_ gate.BlobBacked = lazyTree{}
	_ gate.BlobBacked = snapshotTree{}
)
