package harness

import (
	"io"
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
)

// Holder is a Repo that asks another repository on this machine what its
// refs reach.
type Holder interface {
	// HeldIn answers, of ids, those a ref of the repository at dir (a work
	// tree or a git dir) reaches; none when dir is this repository or no
	// repository.
	HeldIn(dir string, ids []string) ([]string, error)
}

// Bounds of the look for the repositories a command names.
const (
	carriedFiles = 8        // files the command names, read for more names
	carriedBytes = 64 << 10 // of each, at most this much is read
	carriedDirs  = 16       // repositories asked
)

// carriedOut answers the red commits named before (kept) that the command
// took off every ref here and that a repository the command names now
// holds: they left the clone by a route no pre-push record saw (a
// --no-verify push or a send-pack the command hid, a fetch run in the
// other repository), so they are named again, with where they went.
func carriedOut(c *Call, kept map[string]*judged, before, now []Tip) ([]*judged, error) {
	h, ok := c.Repo.(Holder)
	if !ok || c.Payload == nil {
		return nil, nil
	}
	red := map[string]*judged{}
	for id, j := range kept {
		if j != nil && len(j.Red) > 0 {
			red[id] = j
		}
	}
	if len(red) == 0 {
		return nil, nil
	}
	var all []string
	still := map[string]bool{}
	for _, t := range now {
		all = append(all, t.ID)
		still[t.ID] = true
	}
	moved := false
	for _, id := range landed(before) {
		moved = moved || !still[id]
	}
	if !moved {
		return nil, nil // every tip before is a tip still: nothing left the refs
	}
	left, _, err := c.Repo.Commits(landed(before), all, 0, maxListed)
	if err != nil {
		return nil, err
	}
	var dropped []string
	for _, id := range left {
		if red[id] != nil {
			dropped = append(dropped, id)
		}
	}
	if len(dropped) == 0 {
		return nil, nil
	}
	var in struct {
		Command string `json:"command"`
	}
	if !c.Payload.Input(&in) {
		return nil, nil
	}
	var out []*judged
	seen := map[string]bool{}
	for _, dir := range namedRepos(c.Payload.Cwd, in.Command) {
		held, err := h.HeldIn(dir, dropped)
		if err != nil {
			return nil, err
		}
		for _, id := range held {
			if seen[id] {
				continue
			}
			seen[id] = true
			j := *red[id]
			j.carried = dir
			out = append(out, &j)
		}
	}
	return out, nil
}

// namedRepos answers the directories the command's words name (relative
// ones against cwd, $PWD read as cwd) that look like a repository: a work tree with a .git
// or a git dir with HEAD and objects. The words of the files the command
// names are read too, once: a script run by path names its repositories
// there.
func namedRepos(cwd, command string) []string {
	var dirs []string
	seen := map[string]bool{}
	files := 0
	// The shell's usual spellings of where the command stands are read as
	// that place; any other expansion leaves its word unread.
	here := strings.NewReplacer(`$(dirname "$PWD")`, walk.AbsAgainstPhysical(cwd, ".."), `$(dirname $PWD)`, walk.AbsAgainstPhysical(cwd, ".."), `"$PWD"`, cwd, `${PWD}`, cwd, `$PWD`, cwd)
	var look func(text string, depth int)
	look = func(text string, depth int) {
		text = here.Replace(text)
		for _, w := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(" \t\r\n'\"=;|&()<>`", r) }) {
			if strings.ContainsAny(w, "$*?[") || len(dirs) == carriedDirs {
				continue
			}
			p := walk.AbsAgainstPhysical(cwd, w)
			if seen[p] {
				continue
			}
			seen[p] = true
			fi, err := os.Stat(p)
			switch {
			case err != nil:
			case fi.IsDir():
				if isRepoDir(p) {
					dirs = append(dirs, p)
				}
			case fi.Mode().IsRegular() && depth == 0 && files < carriedFiles:
				files++
				f, err := os.Open(p)
				if err != nil {
					continue
				}
				// One Read may stop short of the bound; what a failed
				// read left is still searched (the look only adds names).
				data, _ := io.ReadAll(io.LimitReader(f, carriedBytes))
				f.Close()
				look(string(data), 1)
			}
		}
	}
	look(command, 0)
	return dirs
}

// isRepoDir reports a work tree with a .git, or a git dir.
func isRepoDir(p string) bool {
	if _, err := os.Lstat(walk.Child(p, ".git")); err == nil {
		return true
	}
	head, err := os.Stat(walk.Child(p, "HEAD"))
	if err != nil || !head.Mode().IsRegular() {
		return false
	}
	objs, err := os.Stat(walk.Child(p, "objects"))
	return err == nil && objs.IsDir()
}
