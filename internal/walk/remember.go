package walk

import (
	"strings"
	"sync"
)

// A process that judges one repository from start to end (the git hooks)
// asks git where that repository is from many places: the arm, the index
// reader, each member. The answers cannot change within such a run, so
// once RememberRepository is called each question is put to git once per
// anchor and environment, and the first Locate also answers LocateIndex
// and GitDirs at its anchor in the same spawn. Only answers git gave are
// kept; an absent or refused repository is asked again.

var remembered struct {
	sync.Mutex
	on     bool
	locate map[string]Location
	index  map[string]IndexPlace
	dirs   map[string][2]string
}

// RememberRepository turns the per-process memory of git's answers on.
func RememberRepository() {
	remembered.Lock()
	defer remembered.Unlock()
	if !remembered.on {
		remembered.on = true
		remembered.locate = map[string]Location{}
		remembered.index = map[string]IndexPlace{}
		remembered.dirs = map[string][2]string{}
	}
}

// memoKey spells an anchor and an environment as one key.
func memoKey(anchor string, env []string) string {
	return anchor + "\x00" + strings.Join(env, "\x00")
}

func rememberOn() bool {
	remembered.Lock()
	defer remembered.Unlock()
	return remembered.on
}
