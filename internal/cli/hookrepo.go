package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gate-sdk/gates/internal/githook"
	"github.com/gate-sdk/gates/internal/harness"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// hookRepo is the harness members' reader of the repository at top.
type hookRepo struct {
	s   *Session
	top string
	// dirs are the git dirs, asked of git once per call.
	dirs *gitDirsOnce
}

type gitDirsOnce struct {
	once           sync.Once
	gitDir, common string
	err            error
}

func newHookRepo(s *Session, top string) hookRepo {
	return hookRepo{s: s, top: top, dirs: &gitDirsOnce{}}
}

// gitDirs answers the git dir and the common dir, absolute.
func (r hookRepo) gitDirs() (string, string, error) {
	r.dirs.once.Do(func() {
		// The common case needs no git: a top whose .git is a directory
		// (no GIT_DIR in the hook's environment) is both.
		gitDirSet := true
		if r.s.Env != nil {
			_, gitDirSet = r.s.Env("GIT_DIR")
		}
		if !gitDirSet {
			dot := walk.Child(r.top, ".git")
			if fi, err := os.Lstat(dot); err == nil && fi.IsDir() {
				if c, err := walk.Canonicalize(dot); err == nil {
					r.dirs.gitDir, r.dirs.common = walk.NormalizeAbs(c), walk.NormalizeAbs(c)
					return
				}
			}
		}
		r.dirs.gitDir, r.dirs.common, r.dirs.err = walk.GitDirs(r.top, nil)
	})
	return r.dirs.gitDir, r.dirs.common, r.dirs.err
}

// StateDirName is the directory under the git dir the harness members
// keep their per-session state in.
const StateDirName = "gates-agent"

// binSpelling answers the binary as the repair command names it.
func (r hookRepo) binSpelling() string {
	set, err := r.s.Knobs()
	if err == nil {
		if v, err := set.Scalar("GATE_SDK_NATIVE_BIN"); err == nil && v != "" {
			return v
		}
	}
	return "gates"
}

func (r hookRepo) Hooks() (harness.HooksState, error) {
	p, err := githook.CheckPlaced(r.top)
	if err != nil {
		return harness.HooksState{}, err
	}
	st := harness.HooksState{OptedIn: p.OptedIn, Problems: p.Problems}
	if len(p.Problems) > 0 {
		// The knobs are read only to name the repair.
		st.Repair = r.binSpelling() + " " + p.Repair
	}
	return st, nil
}

func (r hookRepo) Tips() ([]harness.Tip, error) {
	tips, err := repo.Git{}.Tips(r.top)
	if err != nil {
		return nil, err
	}
	out := make([]harness.Tip, len(tips))
	for i, t := range tips {
		out[i] = harness.Tip{Ref: t.Ref, ID: t.ID}
	}
	return out, nil
}

func (r hookRepo) Commits(include, exclude []string, since int64, max int) ([]string, bool, error) {
	return repo.Git{}.Commits(r.top, include, exclude, since, max)
}

func (r hookRepo) StateDir() (string, error) {
	gd, _, err := r.gitDirs()
	if err != nil {
		return "", err
	}
	return walk.Child(gd, StateDirName), nil
}

func (r hookRepo) Protected() ([]string, error) {
	gd, common, err := r.gitDirs()
	if err != nil {
		return nil, err
	}
	ours, err := githook.HooksDir(r.top)
	if err != nil {
		return nil, err
	}
	dirs := []string{gd, common, ours, walk.Child(r.top, ".git")}
	if hp, err := (repo.Git{}).HooksPath(r.top); err == nil {
		dirs = append(dirs, hp)
	}
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		out = append(out, r.Canonical(filepath.FromSlash(d)))
	}
	return out, nil
}

// Canonical resolves the symlinks of the longest existing part of abs and
// keeps the rest as spelled (a Write may name a file not made yet).
func (r hookRepo) Canonical(abs string) string {
	rest := ""
	p := filepath.Clean(abs)
	for {
		if c, err := walk.Canonicalize(p); err == nil {
			return filepath.Join(c, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Clean(abs)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// Judge runs the git hooks over one commit in a scratch worktree whose
// HEAD is the commit's first parent and whose index and files are the
// commit's tree: the pre-commit hook then judges exactly the change the
// commit records, with the registry and knobs the commit carries, and the
// commit-msg hook its message. The repository's own work tree, index and
// refs are not touched.
func (r hookRepo) Judge(id string) (harness.CommitVerdict, error) {
	g := repo.Git{}
	meta, err := g.Run(r.top, "read the commit", nil, "log", "-1", "--format=%h%x00%s%x00%P", id)
	if err != nil {
		return harness.CommitVerdict{}, err
	}
	f := strings.SplitN(strings.TrimRight(string(meta), "\n"), "\x00", 3)
	if len(f) != 3 {
		return harness.CommitVerdict{}, fmt.Errorf("git log answered %q for %s", meta, id)
	}
	v := harness.CommitVerdict{ID: id, Short: f[0], Subject: f[1]}
	parents := strings.Fields(f[2])
	raw, err := g.Run(r.top, "read the commit", nil, "cat-file", "commit", id)
	if err != nil {
		return v, err
	}
	_, msg, _ := strings.Cut(string(raw), "\n\n")
	scratch, err := r.s.scratchDir("gates-audit-")
	if err != nil {
		return v, fmt.Errorf("cannot make a scratch directory: %v", err)
	}
	defer os.RemoveAll(scratch)
	wt := filepath.Join(scratch, "tree")
	base := id
	if len(parents) > 0 {
		base = parents[0]
	}
	if _, err := g.Run(r.top, "add a scratch worktree", nil, "worktree", "add", "--detach", "--no-checkout", wt, base); err != nil {
		return v, err
	}
	defer func() {
		if _, err := g.Run(r.top, "remove the scratch worktree", nil, "worktree", "remove", "--force", wt); err != nil {
			os.RemoveAll(wt)
			g.Run(r.top, "prune the scratch worktree", nil, "worktree", "prune")
		}
	}()
	if len(parents) == 0 {
		// A root commit: nothing before it, so every file is its change.
		if _, err := g.Run(wt, "unborn HEAD", nil, "symbolic-ref", "HEAD", "refs/heads/gates-audit-root-"+id); err != nil {
			return v, err
		}
	}
	if _, err := g.Run(wt, "check the commit out", nil, "read-tree", "-u", "--reset", id); err != nil {
		return v, err
	}
	msgFile := filepath.Join(scratch, "COMMIT_EDITMSG")
	if err := os.WriteFile(msgFile, []byte(msg), 0o644); err != nil {
		return v, err
	}
	self, err := spawn.Self()
	if err != nil {
		return v, err
	}
	for _, hook := range [][]string{{githook.CommitMsg, msgFile}, {githook.PreCommit}} {
		c, err := spawn.RunMerged(spawn.Cmd{
			Program: self, Args: append([]string{"--git-hook"}, hook...), Dir: wt,
			UnsetEnv: []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX"},
		})
		if err != nil {
			return v, err
		}
		if c.ReportedCode() == 0 {
			continue
		}
		v.Red = append(v.Red, hookRed(hook[0], c.ReportedCode(), string(c.Output())))
	}
	// A commit that grows the baseline passed its hooks by accepting what
	// they found: judged as a bypass of them.
	red, err := r.s.commitBaselineRed(id, parents)
	if err != nil {
		return v, err
	}
	if red != nil {
		v.Red = append(v.Red, *red)
	}
	return v, nil
}

// hookRed reads a failed hook's report: the member it names as failed, and
// the findings without the hook's bypass line (the agent is never told to
// bypass).
func hookRed(hook string, code int, out string) harness.Red {
	name := hook
	var keep []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if strings.TrimSpace(l) == strings.TrimSpace(githook.BypassLine) {
			continue
		}
		if rest, ok := strings.CutPrefix(l, hook+": "); ok {
			if gate, ok := strings.CutSuffix(rest, " failed (see above)."); ok {
				name = gate
				continue
			}
		}
		keep = append(keep, l)
	}
	if code != 1 {
		code = 2
	}
	return harness.Red{Name: name, Code: code, Output: strings.TrimSpace(strings.Join(keep, "\n"))}
}
