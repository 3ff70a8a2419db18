package repo

import "strings"

// Holds reports whether commit rev's tree records a regular file,
// executable or link at path (slash-separated, relative to the top). ok is
// false where the objects cannot be read in process; git is then asked.
func (o *Objects) Holds(rev, path string) (held, ok bool) {
	c, err := o.commit(rev)
	if err != nil {
		return false, false
	}
	tree := c.tree
	parts := strings.Split(path, "/")
	for i, part := range parts {
		ents, err := o.tree(tree)
		if err != nil {
			return false, false
		}
		found := false
		for _, e := range ents {
			if e.name != part {
				continue
			}
			last := i == len(parts)-1
			switch {
			case last && (e.mode == ModeRegular || e.mode == ModeExecutable || e.mode == ModeSymlink):
				return true, true
			case !last && e.mode == modeTree:
				tree, found = e.id, true
			}
		}
		if !found {
			return false, true
		}
	}
	return false, true
}
