package walk

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/spawn"
)

// IndexPlace is where git keeps the index it would read at a directory.
type IndexPlace struct {
	// File is the index file (GIT_INDEX_FILE honoured; a linked worktree's
	// own), CommonDir the directory holding the objects, both absolute.
	File      string
	CommonDir string
	// Format is the object format, "sha1" or "sha256".
	Format string
	// Prefix is the directory relative to the toplevel ("" or ending in '/').
	Prefix string
}

// LocateIndex asks git, once, where the index read at dir is. dir must be
// absolute and already located (Locate) by the caller; env as for Locate.
func LocateIndex(dir string, env []string) (IndexPlace, error) {
	if !rememberOn() {
		return locateIndex(dir, env)
	}
	// assertion V: asked once per directory and environment.
	key := memoKey(dir, env)
	remembered.Lock()
	place, ok := remembered.index[key]
	remembered.Unlock()
	if ok {
		return place, nil
	}
	place, err := locateIndex(dir, env)
	if err == nil {
		remembered.Lock()
		remembered.index[key] = place
		remembered.Unlock()
	}
	return place, err
}

func locateIndex(dir string, env []string) (IndexPlace, error) {
	// assertion R: one spawn answers the index file, the objects, the
	// object format and the prefix; none where discover can.
	if _, place, ok := discover(dir, env); ok {
		return place, nil
	}
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"rev-parse", "--show-object-format", "--path-format=absolute", "--git-path", "index", "--git-common-dir", "--show-prefix"}, Dir: dir, Env: env})
	if err != nil {
		return IndexPlace{}, err
	}
	out, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		return IndexPlace{}, fmt.Errorf("git could not locate the index at %s: %s", dir, rep)
	}
	format, rest, ok1 := strings.Cut(string(out), "\n")
	file, rest, ok2 := strings.Cut(rest, "\n")
	common, prefix, ok3 := strings.Cut(rest, "\n")
	if !ok1 || !ok2 || !ok3 {
		return IndexPlace{}, fmt.Errorf("git rev-parse answered %q at %s", out, dir)
	}
	return IndexPlace{File: AbsAgainst(dir, file), CommonDir: AbsAgainst(dir, common), Format: format, Prefix: strings.TrimSuffix(prefix, "\n")}, nil
}

// DiscoverCommonDir answers the common git directory of the repository
// holding dir where the in-process discovery can answer it (the cases
// LocateIndex answers without git); false sends the caller to git. It never
// starts git.
func DiscoverCommonDir(dir string, env []string) (string, bool) {
	_, place, ok := discover(dir, env)
	if !ok || place.CommonDir == "" {
		return "", false
	}
	return place.CommonDir, true
}
