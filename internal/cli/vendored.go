package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/payload"
	"github.com/gate-sdk/gates/internal/walk"
)

// vendoredRoots answers which of the resolved kit roots is a vendored
// copy: the one `gates init` recorded as its kit root in the lock it
// writes (<gates-dir>/gates.lock). A tree with no lock vendors nothing,
// so the kit's own source tree (this repository's kits/gate-sdk, which no
// init wrote) is always judged. A lock that does not parse refuses: the
// gates that judge gates cannot tell theirs from the release's. It also
// answers the lock's file digests by working-directory path: what the
// release shipped, as it shipped it.
func (s *Session) vendoredRoots(roots walk.KitRootSet, gatesDir string) ([]string, map[string]string, error) {
	cwd, err := s.Cwd()
	if err != nil {
		return nil, nil, err
	}
	rel := gatesDir + "/" + payload.LockName
	data, err := os.ReadFile(walk.AbsAgainst(cwd, rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	lock, err := payload.ParseLock(rel, data)
	if err != nil {
		return nil, nil, err
	}
	top, err := s.Top()
	if err != nil {
		return nil, nil, err
	}
	// assertion L: the lock's kit root is the vendored one; no lock, none.
	want := walk.AbsAgainst(top, lock.KitRoot)
	var out []string
	for _, r := range roots.Roots() {
		if r.Abs == want {
			out = append(out, r.Path)
		}
	}
	// A run of init in progress (its own adoption trial) records what it
	// is writing as pending; those are the release's bytes too.
	shipped := map[string]string{}
	for _, f := range append(append([]payload.LockFile(nil), lock.Files...), lock.Pending...) {
		if p, ok := walk.RelUnder(cwd, walk.AbsAgainst(top, f.Path)); ok {
			shipped[filepath.ToSlash(p)] = f.SHA256
		}
	}
	return out, shipped, nil
}

// shippedBy answers the predicate a context's Shipped holds: the tree's
// bytes for p (the work tree's where the tree does not hold p, as while
// init's own adoption trial runs before the kit is tracked) digest to
// what the lock recorded. A file that cannot be read is not vouched for,
// so it is judged. Answers are kept, since the rules of one run ask from
// several goroutines about the same files.
func shippedBy(tree gate.Tree, dir string, digests map[string]string) func(string) bool {
	var memo sync.Map
	return func(p string) bool {
		p = strings.TrimPrefix(p, "./")
		if v, ok := memo.Load(p); ok {
			return v.(bool)
		}
		want, ok := digests[p]
		v := false
		if ok {
			data, err := tree.Read(p)
			if err != nil {
				data, err = os.ReadFile(walk.AbsAgainst(dir, p))
			}
			if err == nil {
				v = payload.Digest(data) == want
			}
		}
		memo.Store(p, v)
		return v
	}
}

// shippedKey spells the lock's digests (shippedBy's map) in one digest,
// in path order.
func shippedKey(digests map[string]string) string {
	paths := make([]string, 0, len(digests))
	for p := range digests {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	h := sha256.New()
	for _, p := range paths {
		fmt.Fprintf(h, "%d:%s;%d:%s;", len(p), p, len(digests[p]), digests[p])
	}
	return hex.EncodeToString(h.Sum(nil))
}
