package workflow

import (
	"sort"
	"strings"
)

// Corpus narrows a tracked listing (paths relative to the run directory,
// '/'-separated) to the files under root whose name ends in one of exts,
// leaving out every path pruned answers true for (it is handed the path
// relative to root; nil prunes nothing). The answer is sorted, so output
// built from it is deterministic. root "." or "" is the whole listing.
func Corpus(files []string, root string, pruned func(rel string) bool, exts ...string) []string {
	root = strings.TrimSuffix(strings.TrimPrefix(root, "./"), "/")
	if root == "." {
		root = ""
	}
	var out []string
	for _, f := range files {
		rel := f
		if root != "" {
			if !strings.HasPrefix(f, root+"/") {
				continue
			}
			rel = f[len(root)+1:]
		}
		if !hasExt(rel, exts) || (pruned != nil && pruned(rel)) {
			continue
		}
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

func hasExt(p string, exts []string) bool {
	for _, e := range exts {
		if strings.HasSuffix(p, e) && len(p) > len(e) {
			return true
		}
	}
	return false
}
