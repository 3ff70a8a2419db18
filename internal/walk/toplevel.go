package walk

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gate-sdk/gates/internal/spawn"
)

// Location is git's answer about where an anchor stands.
type Location struct {
	// Top is the work-tree toplevel in the module's dialect.
	Top string
	// Prefix is the anchor relative to Top as git spells it: "" at the top,
	// else ending in '/'. A newline inside a component is kept.
	Prefix string
}

// RefusedError is a repository git could not read, or one it skipped to
// answer an enclosing repository. Either would fail every caller open if it
// were read as no repository, so it is an error.
type RefusedError struct {
	// Mark is the .git entry (or GIT_DIR value) that marks the repository.
	Mark string
	// Skipped is true when git exited 0 but answered the enclosing Top.
	Skipped bool
	Top     string
	// Hint is the git command that prints git's own reason.
	Hint string
}

func (e *RefusedError) Error() string {
	if e.Skipped {
		return fmt.Sprintf("git skipped the repository marked by %s and answered the enclosing %s; run `%s` for git's reason", e.Mark, e.Top, e.Hint)
	}
	return fmt.Sprintf("git could not read the repository marked by %s; run `%s` for git's reason", e.Mark, e.Hint)
}

// NotRepoError is Toplevel's fold of the absent answer.
type NotRepoError struct{ Anchor string }

func (e *NotRepoError) Error() string {
	return fmt.Sprintf("%s: not a git repository", e.Anchor)
}

// envLookup reads one variable from an explicit environment list (last
// entry wins), or from this process's when env is nil.
// EnvLookup answers a lookup in env as a child started under it would
// see it (the last spelling of a name wins); nil env is this process's.
func EnvLookup(env []string) func(string) (string, bool) { return envLookup(env) }

func envLookup(env []string) func(string) (string, bool) {
	if env == nil {
		return os.LookupEnv
	}
	return func(key string) (string, bool) {
		for i := len(env) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
				return v, true
			}
		}
		return "", false
	}
}

func gitArgs(anchor string, args ...string) []string {
	if anchor == "" {
		return args
	}
	return append([]string{"-C", anchor}, args...)
}

// Locate asks git, once, for the toplevel and prefix at anchor (the working
// directory when anchor is empty; a relative anchor is resolved from it as
// git resolves -C). env is the environment git runs under and the one
// GIT_DIR, GIT_WORK_TREE and GIT_CEILING_DIRECTORIES are read from; nil
// means this process's.
//
// Answers: a Location and true; absent (false, nil) when git exits non-zero
// at an anchor nothing marks as a repository; a *RefusedError for a marked
// anchor git refused or a nested repository git skipped; and the spawn's
// own error when git could not be started.
func Locate(anchor string, env []string) (Location, bool, error) {
	if !rememberOn() {
		return locate(anchor, env)
	}
	// assertion V: under RememberRepository git is asked once per anchor
	// and environment; only an answer git gave is kept.
	key := memoKey(anchor, env)
	remembered.Lock()
	loc, ok := remembered.locate[key]
	remembered.Unlock()
	if ok {
		return loc, true, nil
	}
	loc, ok, err := locateWithIndex(anchor, env)
	if ok && err == nil {
		remembered.Lock()
		remembered.locate[key] = loc
		remembered.Unlock()
	}
	return loc, ok, err
}

// locateWithIndex is locate whose one spawn also answers LocateIndex at
// the anchor, remembered beside it. Where that spawn does not answer
// cleanly (git refuses, or its lines are not the expected ones) the
// answer is locate's own, from its own spawn, so every refusal and
// absence reads exactly as without the memory.
func locateWithIndex(anchor string, env []string) (Location, bool, error) {
	loc, ok, err, place := locateBoth(anchor, env)
	if place != nil {
		remembered.Lock()
		if filepath.IsAbs(anchor) {
			remembered.index[memoKey(anchor, env)] = *place
		}
		if place.Prefix == "" && anchor != loc.Top {
			remembered.index[memoKey(loc.Top, env)] = *place
		}
		remembered.Unlock()
	}
	return loc, ok, err
}

// locateBoth answers locate's answer and, when the one spawn gave it
// too, the index place at the anchor (nil when it did not).
func locateBoth(anchor string, env []string) (Location, bool, error, *IndexPlace) {
	// assertion W: under RememberRepository one spawn answers Locate and
	// LocateIndex at the anchor; any other answer falls back to locate.
	// A plain repository is answered with no spawn at all (discover).
	if loc, place, ok := discover(anchor, env); ok {
		return loc, true, nil, &place
	}
	c, err := spawn.Run(spawn.Cmd{
		Program: spawn.Git(),
		Args:    gitArgs(anchor, "rev-parse", "--show-toplevel", "--show-object-format", "--path-format=absolute", "--git-path", "index", "--git-common-dir", "--show-prefix"),
		Env:     env,
	})
	if err != nil {
		return Location{}, false, err, nil
	}
	out, ok := c.Stdout()
	if !ok {
		loc, ok, err := locate(anchor, env)
		return loc, ok, err, nil
	}
	lines := strings.SplitN(string(out), "\n", 5)
	if len(lines) != 5 || !filepath.IsAbs(lines[0]) || (lines[1] != "sha1" && lines[1] != "sha256") || !filepath.IsAbs(lines[2]) || !filepath.IsAbs(lines[3]) {
		loc, ok, err := locate(anchor, env)
		return loc, ok, err, nil
	}
	rawTop, prefix := lines[0], strings.TrimSuffix(lines[4], "\n")
	gitDir, _ := envLookup(env)("GIT_DIR")
	loc, ok, err := located(anchor, env, gitDir, rawTop, prefix)
	if !ok || err != nil {
		return loc, ok, err, nil
	}
	return loc, ok, err, &IndexPlace{File: lines[2], CommonDir: lines[3], Format: lines[1], Prefix: prefix}
}

func locate(anchor string, env []string) (Location, bool, error) {
	if loc, _, ok := discover(anchor, env); ok {
		return loc, true, nil
	}
	c, err := spawn.Run(spawn.Cmd{
		Program: spawn.Git(),
		Args:    gitArgs(anchor, "rev-parse", "--show-toplevel", "--show-prefix"),
		Env:     env,
	})
	if err != nil {
		// assertion G: a dead git is the spawn's own error, propagated.
		return Location{}, false, err
	}
	lookup := envLookup(env)
	gitDir, _ := lookup("GIT_DIR")
	out, ok := c.Stdout()
	if !ok {
		mark := markOf(anchor, gitDir, lookup)
		if mark == "" {
			// assertion H: non-zero at an unmarked anchor is absent.
			return Location{}, false, nil
		}
		// assertion I: non-zero at a marked anchor is a refusal.
		return Location{}, false, &RefusedError{Mark: mark, Hint: "git -C " + anchorSpelling(anchor) + " status"}
	}
	// assertion F: one spawn, split at the first newline; the prefix runs
	// to its own final newline, so a newline inside it survives.
	i := bytes.IndexByte(out, '\n')
	if i < 0 {
		return Location{}, false, fmt.Errorf("git rev-parse --show-toplevel answered no toplevel line at %s", anchorSpelling(anchor))
	}
	rawTop := string(out[:i])
	prefix := strings.TrimSuffix(string(out[i+1:]), "\n")
	return located(anchor, env, gitDir, rawTop, prefix)
}

// located is locate's answer from git's toplevel and prefix lines.
func located(anchor string, env []string, gitDir, rawTop, prefix string) (Location, bool, error) {
	loc := Location{Top: NormalizeAbs(rawTop), Prefix: prefix}
	if gitDir != "" || prefix == "" {
		return loc, true, nil
	}
	// assertion J: exit 0 whose prefix crosses a .git entry below the top
	// is a skipped nested repository, unless that entry is the repository
	// git selected (a GIT_WORK_TREE above it).
	entry := nearestEntry(rawTop, prefix)
	if entry == "" {
		return loc, true, nil
	}
	same, err := isSelected(anchor, entry, env)
	if err != nil {
		return Location{}, false, err
	}
	if same {
		return loc, true, nil
	}
	mark := NormalizeAbs(entry)
	return Location{}, false, &RefusedError{Mark: mark, Skipped: true, Top: loc.Top, Hint: "git --git-dir=" + mark + " status"}
}

// ToplevelOpt answers the toplevel at anchor, false for absent, or an
// error for a dead git or a refused repository. A caller may degrade on
// the absent answer only and must pass errors through.
func ToplevelOpt(anchor string, env []string) (string, bool, error) {
	loc, ok, err := Locate(anchor, env)
	return loc.Top, ok, err
}

// Toplevel is ToplevelOpt with the absent answer folded into an error.
func Toplevel(anchor string, env []string) (string, error) {
	top, ok, err := ToplevelOpt(anchor, env)
	if err != nil {
		return "", err
	}
	if !ok {
		// assertion K: Toplevel folds the absent answer into an error.
		return "", &NotRepoError{Anchor: anchorSpelling(anchor)}
	}
	return top, nil
}

func anchorSpelling(anchor string) string {
	if anchor != "" {
		return anchor
	}
	if cwd, err := Cwd(); err == nil {
		return cwd
	}
	return "."
}

// markOf answers what marks the anchor as a repository: a non-empty
// GIT_DIR, else the nearest .git entry of any type at or above the anchor's
// physical path, the ascent stopping where git's own stops at
// GIT_CEILING_DIRECTORIES. A -C anchor that is no directory is never
// marked. "" means unmarked.
func markOf(anchor, gitDir string, lookup func(string) (string, bool)) string {
	if gitDir != "" {
		return gitDir
	}
	start, err := physical(anchor)
	if err != nil {
		// An anchor that resolves to nothing is no directory, so unmarked.
		return ""
	}
	if fi, err := os.Stat(start); err != nil || !fi.IsDir() {
		return ""
	}
	ceilings := ceilingDirs(lookup)
	for d := start; ; {
		if d != start && ceilings[d] {
			return ""
		}
		if _, err := os.Lstat(d + string(os.PathSeparator) + ".git"); err == nil {
			return NormalizeAbs(d + string(os.PathSeparator) + ".git")
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// ceilingDirs parses GIT_CEILING_DIRECTORIES as git does: relative entries
// are ignored, an empty entry stops symlink resolution of the entries after
// it, the rest are resolved to physical paths.
func ceilingDirs(lookup func(string) (string, bool)) map[string]bool {
	v, _ := lookup("GIT_CEILING_DIRECTORIES")
	out := map[string]bool{}
	resolve := true
	for _, e := range filepath.SplitList(v) {
		if e == "" {
			resolve = false
			continue
		}
		if !filepath.IsAbs(e) {
			continue
		}
		p := filepath.Clean(e)
		if resolve {
			if r, err := filepath.EvalSymlinks(e); err == nil {
				p = r
			}
		}
		out[p] = true
	}
	return out
}

// nearestEntry answers the .git entry nearest the anchor among the
// directories the prefix crosses below the top, or "".
func nearestEntry(top, prefix string) string {
	segs := strings.Split(strings.TrimSuffix(prefix, "/"), "/")
	for n := len(segs); n >= 1; n-- {
		entry := top + "/" + strings.Join(segs[:n], "/") + "/.git"
		if _, err := os.Lstat(entry); err == nil {
			return entry
		}
	}
	return ""
}

// isSelected compares the entry with the repository git selected, as
// physical paths; asked only once an entry is found.
func isSelected(anchor, entry string, env []string) (bool, error) {
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: gitArgs(anchor, "rev-parse", "--absolute-git-dir"), Env: env})
	if err != nil {
		return false, err
	}
	out, ok := c.Stdout()
	if !ok {
		return false, nil
	}
	selected, err := filepath.EvalSymlinks(strings.TrimSuffix(string(out), "\n"))
	if err != nil {
		return false, nil
	}
	target, err := entryGitDir(entry)
	if err != nil {
		return false, nil
	}
	return target == selected, nil
}

// entryGitDir resolves a .git entry to the physical git directory it names:
// the entry itself when it is a directory, else the gitfile's target.
func entryGitDir(entry string) (string, error) {
	fi, err := os.Stat(entry)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return filepath.EvalSymlinks(entry)
	}
	target, err := readGitfile(entry)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(target) {
		target = filepath.Dir(entry) + string(os.PathSeparator) + target
	}
	return filepath.EvalSymlinks(target)
}

// readGitfile reads a gitfile's target as git does: the first line past
// "gitdir:", its line ending stripped and any other trailing blank kept.
func readGitfile(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	line := string(data)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSuffix(line, "\r")
	rest, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s: not a gitfile", path)
	}
	return strings.TrimLeft(rest, " "), nil
}

// GitDirs answers git's --git-dir and --git-common-dir at dir (the working
// directory when empty) as physical paths in the module's dialect: the one
// reader of the pair. A linked worktree answers two different directories.
// It errs when git could not be started or could not answer.
func GitDirs(dir string, env []string) (gitDir, commonDir string, err error) {
	key := ""
	if rememberOn() {
		key = memoKey(dir, env)
		remembered.Lock()
		d, ok := remembered.dirs[key]
		remembered.Unlock()
		if ok {
			return d[0], d[1], nil
		}
	}
	gd, common, err := gitDirs(dir, env)
	if err == nil && key != "" {
		remembered.Lock()
		remembered.dirs[key] = [2]string{NormalizeAbs(gd), NormalizeAbs(common)}
		remembered.Unlock()
	}
	if err != nil {
		return "", "", err
	}
	return NormalizeAbs(gd), NormalizeAbs(common), nil
}

// gitDirs is GitDirs in the host's spelling.
func gitDirs(dir string, env []string) (gitDir, common string, err error) {
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: gitArgs(dir, "rev-parse", "--git-dir", "--git-common-dir"), Env: env})
	if err != nil {
		return "", "", err
	}
	out, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		return "", "", fmt.Errorf("git could not answer its directories at %s: %s", anchorSpelling(dir), rep)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2 {
		return "", "", fmt.Errorf("git rev-parse --git-dir --git-common-dir answered %d lines at %s", len(lines), anchorSpelling(dir))
	}
	base, err := physical(dir)
	if err != nil {
		return "", "", fmt.Errorf("could not resolve %s: %w", anchorSpelling(dir), err)
	}
	var res [2]string
	for i, l := range lines {
		if !filepath.IsAbs(l) {
			l = base + string(os.PathSeparator) + l
		}
		r, err := filepath.EvalSymlinks(l)
		if err != nil {
			return "", "", fmt.Errorf("could not resolve git's directory %s: %w", l, err)
		}
		res[i] = r
	}
	return res[0], res[1], nil
}

// MainCheckoutRoot answers the main checkout's root when dir is in a linked
// worktree whose common dir is <main>/.git: git's --git-dir and
// --git-common-dir differ and the common dir's leaf is .git. Any failure,
// and every other layout, answers false.
func MainCheckoutRoot(dir string, env []string) (string, bool) {
	// assertion L: a linked worktree's capture resolves to the main root.
	gd, common, err := gitDirs(dir, env)
	if err != nil || gd == common || filepath.Base(common) != ".git" {
		return "", false
	}
	return NormalizeAbs(filepath.Dir(common)), true
}

// CapturePath resolves a capture path a writer names. An absolute path is
// used as written; a relative one is composed onto the main checkout's root
// when root is a linked worktree of it, else onto root itself. Readers keep
// their own root and do not call this.
func CapturePath(p, root string, env []string) string {
	if PathRoot(p) {
		return p
	}
	if main, ok := MainCheckoutRoot(root, env); ok {
		return Child(main, p)
	}
	return Child(root, p)
}
