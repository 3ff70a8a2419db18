package repo

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// HooksPath answers the hooks directory git would run a commit's hooks
// from at dir, absolute: git itself resolves it (`rev-parse --git-path
// hooks`), so every config scope, include and worktree config counts.
func (g Git) HooksPath(dir string) (string, error) {
	out, err := g.run(dir, "resolve the hooks directory", "rev-parse", "--git-path", "hooks")
	if err != nil {
		return "", err
	}
	p := strings.TrimRight(string(out), "\r\n")
	if p == "" {
		return "", &ListingError{Dir: dir, What: "resolve the hooks directory", Err: reportError("git answered nothing")}
	}
	return walk.AbsAgainst(dir, walk.CrossArg(p)), nil
}

// Tip is one ref and the object it names.
type Tip struct {
	Ref string
	ID  string
}

// Tips answers every ref under dir's repository with the object it names,
// HEAD first when it resolves; an empty repository answers none.
func (g Git) Tips(dir string) ([]Tip, error) {
	out, err := g.runCodes(dir, "list the refs", []int{1}, "show-ref", "--head")
	if err != nil {
		return nil, err
	}
	var tips []Tip
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		id, ref, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		tips = append(tips, Tip{Ref: ref, ID: id})
	}
	return tips, nil
}

// runCodes is run that also takes the exit statuses in quiet (with
// nothing on stderr) as an empty answer.
func (g Git) runCodes(dir, what string, quiet []int, args ...string) ([]byte, error) {
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: args, Dir: dir, Env: g.Env})
	if err != nil {
		return nil, &ListingError{Dir: dir, What: what, Err: err}
	}
	for _, q := range quiet {
		if c.Code() == q && len(bytes.TrimSpace(c.Stderr())) == 0 {
			return nil, nil
		}
	}
	out, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		return nil, &ListingError{Dir: dir, What: what, Err: reportError(rep)}
	}
	return out, nil
}

// Commits answers the commits reachable from include and from none of
// exclude, newest first, at most max of them; more reports that some were
// left out. since, when not 0, keeps the commits committed at or after it
// (Unix seconds).
func (g Git) Commits(dir string, include, exclude []string, since int64, max int) (ids []string, more bool, err error) {
	if len(include) == 0 {
		return nil, false, nil
	}
	ids, more, err = g.commits(dir, include, exclude, since, max)
	if err == nil || len(exclude) == 0 {
		return ids, more, err
	}
	// An excluded id whose object is gone (a deleted branch's tip, pruned)
	// excludes nothing still reachable, but git refuses the whole listing
	// over it: list again without the gone ones.
	present, perr := g.Present(dir, exclude)
	if perr != nil || len(present) == len(exclude) {
		return nil, false, err
	}
	return g.commits(dir, include, present, since, max)
}

// Present answers the ids of ids whose object the repository holds.
func (g Git) Present(dir string, ids []string) ([]string, error) {
	var in bytes.Buffer
	for _, id := range ids {
		in.WriteString(id + "\n")
	}
	out, err := g.runStdin(dir, "check the recorded tips", &in, "cat-file", "--batch-check=%(objectname)")
	if err != nil {
		return nil, err
	}
	var have []string
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if id, missing := strings.CutSuffix(l, " missing"); !missing && id != "" {
			have = append(have, id)
		}
	}
	return have, nil
}

func (g Git) commits(dir string, include, exclude []string, since int64, max int) (ids []string, more bool, err error) {
	var in bytes.Buffer
	for _, id := range include {
		in.WriteString(id + "\n")
	}
	// A ^ per excluded id: git before 2.42 takes no options on --stdin.
	for _, id := range exclude {
		in.WriteString("^" + id + "\n")
	}
	args := []string{"rev-list", fmt.Sprintf("--max-count=%d", max+1)}
	if since != 0 {
		args = append(args, fmt.Sprintf("--max-age=%d", since))
	}
	out, err := g.runStdin(dir, "list the new commits", &in, append(args, "--stdin")...)
	if err != nil {
		return nil, false, err
	}
	for _, l := range strings.Fields(string(out)) {
		ids = append(ids, l)
	}
	if len(ids) > max {
		return ids[:max], true, nil
	}
	return ids, false, nil
}

// Run runs git at dir with args (stdin fed when in is not nil), answering
// stdout or an error naming what failed.
func (g Git) Run(dir, what string, in []byte, args ...string) ([]byte, error) {
	if in == nil {
		return g.run(dir, what, args...)
	}
	return g.runStdin(dir, what, bytes.NewReader(in), args...)
}
