package gates

import (
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/walk"
)

// treeIgnores answers whether the repository's own tracked .gitignore
// files name a path: the rules every clone shares, read from the tree, so a
// contributor's personal excludes (info/exclude, core.excludesFile) change
// no verdict. Each directory's file is read once.
type treeIgnores struct {
	c        *gate.Context
	patterns map[string][]gitignore.Pattern // by directory ("" the top)
}

func newTreeIgnores(c *gate.Context) *treeIgnores {
	return &treeIgnores{c: c, patterns: map[string][]gitignore.Pattern{}}
}

// of answers the patterns of dir's tracked .gitignore (none when the tree
// holds none, or it cannot be read: a path is then not ignored, and the
// finding it would have excused stands).
func (t *treeIgnores) of(dir string) []gitignore.Pattern {
	if ps, ok := t.patterns[dir]; ok {
		return ps
	}
	var ps []gitignore.Pattern
	// consumer-value-exempt: git's own per-directory ignore file name, no choice of the consumer's
	file := path.Join(dir, ".gitignore")
	if mode, tracked := t.c.Tree.Mode(file); tracked && mode != 0o120000 && mode != 0o160000 {
		if b, err := t.c.Tree.Read(file); err == nil {
			var domain []string
			if dir != "" {
				domain = strings.Split(dir, "/")
			}
			for _, l := range strings.Split(walk.TrimBOM(string(b)), "\n") {
				l = strings.TrimSuffix(l, "\r")
				if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
					continue
				}
				ps = append(ps, gitignore.ParsePattern(l, domain))
			}
		}
	}
	t.patterns[dir] = ps
	return ps
}

// ignored reports whether p (relative to the top, '/'-separated) is named
// by the .gitignore files from the top down to p's directory, a later and
// deeper rule winning as git reads them.
func (t *treeIgnores) ignored(p string) bool {
	p = path.Clean(p)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || walk.PathRoot(p) {
		return false
	}
	parts := strings.Split(p, "/")
	var all []gitignore.Pattern
	for i := 0; i < len(parts); i++ {
		all = append(all, t.of(strings.Join(parts[:i], "/"))...)
	}
	if len(all) == 0 {
		return false
	}
	// A directory git ignores hides everything below it, whatever a
	// deeper rule says.
	m := gitignore.NewMatcher(all)
	for i := 1; i < len(parts); i++ {
		if m.Match(parts[:i], true) {
			return true
		}
	}
	return m.Match(parts, false)
}
