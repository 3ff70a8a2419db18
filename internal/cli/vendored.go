package cli

import (
	"errors"
	"io/fs"
	"os"

	"github.com/gate-sdk/gates/internal/payload"
	"github.com/gate-sdk/gates/internal/walk"
)

// vendoredRoots answers which of the resolved kit roots is a vendored
// copy: the one `gates init` recorded as its kit root in the lock it
// writes (<gates-dir>/gates.lock). A tree with no lock vendors nothing,
// so the kit's own source tree (this repository's kits/gate-sdk, which no
// init wrote) is always judged. A lock that does not parse refuses: the
// gates that judge gates cannot tell theirs from the release's.
func (s *Session) vendoredRoots(roots walk.KitRootSet, gatesDir string) ([]string, error) {
	cwd, err := s.Cwd()
	if err != nil {
		return nil, err
	}
	rel := gatesDir + "/" + payload.LockName
	data, err := os.ReadFile(walk.AbsAgainst(cwd, rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	lock, err := payload.ParseLock(rel, data)
	if err != nil {
		return nil, err
	}
	top, err := s.Top()
	if err != nil {
		return nil, err
	}
	// assertion L: the lock's kit root is the vendored one; no lock, none.
	want := walk.AbsAgainst(top, lock.KitRoot)
	var out []string
	for _, r := range roots.Roots() {
		if r.Abs == want {
			out = append(out, r.Path)
		}
	}
	return out, nil
}
