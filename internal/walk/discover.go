//go:build linux

package walk

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing/format/config"
)

// discover answers, without starting git, what `git rev-parse
// --show-toplevel --show-object-format --path-format=absolute --git-path
// index --git-common-dir --show-prefix` would at anchor, in the one layout
// where every line of that answer follows from files alone: no git
// variable that steers discovery, the nearest .git entry above the anchor a
// well-formed repository the caller owns, its config plain (no bare flag,
// no core.worktree, no include, no extension git might read differently).
// Anywhere else it declines (ok false) and the caller asks git, so a layout
// this reader does not know costs a child process, never a wrong answer.
// internal/walk/discover_test.go holds every answer it gives to git's.
func discover(anchor string, env []string) (Location, IndexPlace, bool) {
	// assertion X: any git variable but the few that name a person, an
	// editor or a transport, and the ceiling list and index file read
	// below, sends the question to git.
	if env == nil {
		env = os.Environ()
	}
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GIT_") && !inertGitVar(k) && k != ceilingVar && k != indexVar {
			return Location{}, IndexPlace{}, false
		}
	}
	start, err := physical(anchor)
	if err != nil {
		return Location{}, IndexPlace{}, false
	}
	lookup := envLookup(env)
	ceiling := -1
	if v, set := lookup(ceilingVar); set {
		var ok bool
		if ceiling, ok = ceilingOffset(start, v); !ok {
			return Location{}, IndexPlace{}, false
		}
	}
	var first syscall.Stat_t
	if syscall.Stat(start, &first) != nil || first.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return Location{}, IndexPlace{}, false
	}
	uid := uint32(os.Geteuid())
	for d := start; ; {
		var st syscall.Stat_t
		// assertion Y: the ascent stops short of a filesystem boundary
		// and of a directory that is itself a git directory (a bare
		// repository, the inside of .git); git has rules of its own there.
		if syscall.Stat(d, &st) != nil || st.Dev != first.Dev {
			return Location{}, IndexPlace{}, false
		}
		if _, err := os.Lstat(filepath.Join(d, "HEAD")); err == nil {
			return Location{}, IndexPlace{}, false
		}
		mark := filepath.Join(d, ".git")
		if fi, err := os.Lstat(mark); err == nil {
			loc, place, ok := plainRepository(d, mark, fi, start, uid, st.Uid)
			if v, set := lookup(indexVar); ok && set {
				// assertion Y: an index git was pointed at (every hook
				// git runs is) is answered where git would resolve it.
				place.File, ok = indexFromEnv(d, v)
			}
			return loc, place, ok
		}
		parent := filepath.Dir(d)
		// The ascent never enters a ceiling directory nor anything above
		// one; git calls what lies past it no repository, and that is
		// git's to say.
		if parent == d || len(strings.TrimSuffix(parent, "/")) <= ceiling {
			return Location{}, IndexPlace{}, false
		}
		d = parent
	}
}

// indexVar points git at an index other than the git directory's own; git
// sets it for every hook it runs.
const indexVar = "GIT_INDEX_FILE"

// indexFromEnv answers the index file git reads under GIT_INDEX_FILE=v in
// the work tree whose physical toplevel is top: a relative value is taken
// from the toplevel (git moves there before it reads the variable) and
// the directory holding the file is resolved through its symlinks. It
// declines (false) a spelling whose resolution it would have to guess: an
// empty value, a "." or ".." component, a doubled or trailing slash, a
// directory that does not resolve, or a file that is there but is not a
// regular file.
func indexFromEnv(top, v string) (string, bool) {
	if v == "" || filepath.Clean(v) != v || v == "/" {
		return "", false
	}
	for _, part := range strings.Split(strings.TrimPrefix(v, "/"), "/") {
		if part == "." || part == ".." {
			return "", false
		}
	}
	if !filepath.IsAbs(v) {
		v = filepath.Join(top, v)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(v))
	if err != nil {
		return "", false
	}
	file := filepath.Join(dir, filepath.Base(v))
	if fi, err := os.Lstat(file); err == nil && !fi.Mode().IsRegular() {
		return "", false
	} else if err != nil && !os.IsNotExist(err) {
		return "", false
	}
	return file, true
}

// ceilingVar lists the directories git's discovery must not climb into.
const ceilingVar = "GIT_CEILING_DIRECTORIES"

// ceilingOffset answers, for the physical path start and a value of
// GIT_CEILING_DIRECTORIES, the length of the longest listed directory that
// is a proper ancestor of start (-1 when none is), compared as git
// compares them: each absolute entry resolved through its symlinks, a
// relative one ignored. It answers false for a list it cannot resolve as
// git would: an empty entry (after one, git stops resolving symlinks) or
// an entry that does not resolve.
func ceilingOffset(start, value string) (int, bool) {
	longest := -1
	for _, e := range strings.Split(value, ":") {
		if e == "" {
			return 0, false
		}
		if !filepath.IsAbs(e) {
			continue
		}
		real, err := filepath.EvalSymlinks(e)
		if err != nil {
			return 0, false
		}
		real = strings.TrimSuffix(real, "/")
		n := len(real)
		if len(start) > n+1 && start[n] == '/' && start[:n] == real && n > longest {
			longest = n
		}
	}
	return longest, true
}

// inertGitVar answers whether a git variable cannot move a repository's
// discovery, its index or its object format: the ones naming a person, an
// editor or pager, a transport (HTTP, SSL, SSH, a proxy) or a trace, where
// git's own programs live and the prefix git hands its hooks and aliases,
// the switch that turns replace refs off (it changes which objects are
// read, never where they live), and the three that pick the user's and
// system's config files (the repository's own config, which alone says
// where its work tree is, is read here). Every other GIT_ name, known or not, leaves the question to
// git, but for the ceiling list and the index file, which discover reads.
func inertGitVar(k string) bool {
	switch k {
	case "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "GIT_TERMINAL_PROMPT", "GIT_ASKPASS", "GIT_EXEC_PATH", "GIT_PREFIX",
		"GIT_FLUSH", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_NO_REPLACE_OBJECTS":
		return true
	}
	for _, p := range []string{"GIT_AUTHOR_", "GIT_COMMITTER_", "GIT_SSL_", "GIT_HTTP_", "GIT_CURL_", "GIT_SSH", "GIT_PROXY_", "GIT_TRACE"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// plainRepository answers the repository whose .git entry is mark in the
// directory top, when it is one discover may answer for.
func plainRepository(top, mark string, fi os.FileInfo, start string, uid, topUID uint32) (Location, IndexPlace, bool) {
	no := func() (Location, IndexPlace, bool) { return Location{}, IndexPlace{}, false }
	// assertion Z: the work tree, the gitfile and the git directory are
	// the caller's own (git's safe.directory check never has a say).
	if topUID != uid || !ownedBy(mark, uid) {
		return no()
	}
	gitDir := mark
	switch {
	case fi.Mode().IsDir():
	case fi.Mode().IsRegular():
		target, err := readGitfile(mark)
		if err != nil || target == "" {
			return no()
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(top, target)
		}
		gitDir = target
	default:
		return no()
	}
	gitDir, err := filepath.EvalSymlinks(gitDir)
	if err != nil || !ownedBy(gitDir, uid) {
		return no()
	}
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimRight(string(b), "\n")
		if c == "" || strings.ContainsAny(c, "\n\r") {
			return no()
		}
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		if common, err = filepath.EvalSymlinks(c); err != nil {
			return no()
		}
	} else if !os.IsNotExist(err) {
		return no()
	}
	// A git directory: a HEAD git would accept, objects and refs.
	if !headLooksValid(filepath.Join(gitDir, "HEAD")) || !isDir(filepath.Join(common, "objects")) || !isDir(filepath.Join(common, "refs")) {
		return no()
	}
	format, ok := plainConfig(common, gitDir)
	if !ok {
		return no()
	}
	index := filepath.Join(gitDir, "index")
	if fi, err := os.Lstat(index); err == nil && !fi.Mode().IsRegular() {
		return no()
	} else if err != nil && !os.IsNotExist(err) {
		return no()
	}
	prefix := ""
	if start != top {
		rel, err := filepath.Rel(top, start)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return no()
		}
		prefix = filepath.ToSlash(rel) + "/"
	}
	return Location{Top: NormalizeAbs(top), Prefix: prefix},
		IndexPlace{File: index, CommonDir: common, Format: format, Prefix: prefix}, true
}

// plainConfig reads the repository's config (and a linked worktree's own,
// when the worktreeConfig extension is on) and answers the object format,
// false where any setting could change where git finds the work tree or
// how it reads the repository.
func plainConfig(common, gitDir string) (string, bool) {
	main, ok := readConfig(filepath.Join(common, "config"), true)
	if !ok {
		return "", false
	}
	files := []*config.Config{main}
	dirs := []string{common}
	version, format, worktreeConfig := "0", "sha1", false
	for _, s := range main.Sections {
		switch {
		case s.IsName("core"):
			if v := lastOption(s.Options, "repositoryformatversion"); v != "" {
				version = v
			}
		case s.IsName("extensions"):
			for _, o := range s.Options {
				switch strings.ToLower(o.Key) {
				case "objectformat":
					format = strings.ToLower(o.Value)
				case "worktreeconfig":
					worktreeConfig = strings.EqualFold(o.Value, "true")
				case "refstorage", "partialclone", "preciousobjects", "noop":
				default:
					return "", false
				}
			}
		}
	}
	if (version != "0" && version != "1") || (format != "sha1" && format != "sha256") || (version == "0" && format != "sha1") {
		return "", false
	}
	if worktreeConfig {
		wt, ok := readConfig(filepath.Join(gitDir, "config.worktree"), false)
		if !ok {
			return "", false
		}
		files = append(files, wt)
		dirs = append(dirs, gitDir)
	}
	for i, c := range files {
		for _, s := range c.Sections {
			switch {
			case s.IsName("include"), s.IsName("includeif"):
				// An include read past only where its file sets nothing
				// discovery reads (harmlessInclude): init's own, for
				// linked worktrees' hooks path, is one. A path from HOME
				// is left to git (discovery is not told HOME).
				if !includesHarmless(s, dirs[i], noEnv, touchesDiscovery) {
					return "", false
				}
			case s.IsName("core"):
				for _, o := range s.Options {
					switch strings.ToLower(o.Key) {
					case "worktree":
						return "", false
					case "bare":
						if !isFalse(o.Value) {
							return "", false
						}
					}
				}
			}
		}
	}
	return format, true
}

// touchesDiscovery reports a config file that sets what discovery reads:
// the work tree, bareness or the repository's format.
func touchesDiscovery(c *config.Config) bool {
	for _, s := range c.Sections {
		if s.IsName("core") && (s.Options.Has("worktree") || s.Options.Has("bare") || s.Options.Has("repositoryformatversion")) {
			return true
		}
	}
	return false
}

// headLooksValid answers whether HEAD is a file git would take: a
// symbolic ref under refs/ or an object id.
func headLooksValid(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	line := strings.TrimRight(string(b), "\n")
	if ref, ok := strings.CutPrefix(line, "ref: "); ok {
		return strings.HasPrefix(ref, "refs/") && !strings.ContainsAny(ref, " \t\n")
	}
	return ObjectID(line)
}

func ownedBy(path string, uid uint32) bool {
	var st syscall.Stat_t
	return syscall.Lstat(path, &st) == nil && st.Uid == uid
}
