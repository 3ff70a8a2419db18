package cli

import (
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
)

// HeldIn answers, of ids, those a ref of the repository at dir (a work
// tree with a .git, or a git dir) reaches; none when dir is this clone.
// An id the other repository does not have, or cannot list, is not held.
func (r hookRepo) HeldIn(dir string, ids []string) ([]string, error) {
	_, common, err := r.gitDirs()
	if err != nil {
		return nil, err
	}
	gd := dir
	if _, err := os.Lstat(walk.Child(dir, ".git")); err == nil { // consumer-value-exempt: git's own name for its directory
		gd = walk.Child(dir, ".git") // consumer-value-exempt: git's own name for its directory
	}
	_, other, err := walk.GitDirs(dir, append(os.Environ(), "GIT_DIR="+gd))
	if err != nil || other == walk.NormalizeAbs(common) {
		return nil, nil // not a repository git reads, or this clone
	}
	g := asWritten()
	var held []string
	for _, id := range ids {
		refs, err := g.Run(dir, "ask the other repository for the commit", nil, "--git-dir="+gd, "for-each-ref", "--count=1", "--contains="+id, "--format=%(refname)")
		if err == nil && strings.TrimSpace(string(refs)) != "" {
			held = append(held, id)
		}
	}
	return held, nil
}
