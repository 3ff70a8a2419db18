package walk

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/gate-sdk/gates/internal/spawn"
)

// ConfigValues answers, without starting git, every value the config
// files git reads at a repository (common directory commonDir) give each
// of keys (spelled "section.key", no subsection, any case), file by file
// in git's order: system, global, the repository's. ok is false wherever
// this reader cannot be sure the files it reads are git's: off Linux, a
// git that is not /usr/bin/git (whose system file is /etc/gitconfig), an
// include, a worktree config, a -c setting in the environment, a file it
// cannot read or parse. The caller then asks git.
func ConfigValues(commonDir string, env []string, keys ...string) (map[string][]string, bool) {
	return collect(commonDir, env, func(c *config.Config, out map[string][]string) {
		for _, s := range c.Sections {
			for _, key := range keys {
				sec, name, _ := strings.Cut(strings.ToLower(key), ".")
				if !s.IsName(sec) {
					continue
				}
				for _, o := range s.Options {
					if strings.EqualFold(o.Key, name) {
						out[key] = append(out[key], o.Value)
					}
				}
			}
		}
	})
}

// ConfigSubsectionValues answers, as ConfigValues does and declining
// where it declines, the values of key under each subsection of section
// ("remote" and "url" for every remote.<name>.url), by the subsection's
// name as written (git compares it case and all), in git's file order.
func ConfigSubsectionValues(commonDir string, env []string, section, key string) (map[string][]string, bool) {
	return collect(commonDir, env, func(c *config.Config, out map[string][]string) {
		for _, s := range c.Sections {
			if !s.IsName(section) {
				continue
			}
			for _, sub := range s.Subsections {
				for _, o := range sub.Options {
					if strings.EqualFold(o.Key, key) {
						out[sub.Name] = append(out[sub.Name], o.Value)
					}
				}
			}
		}
	})
}

// collect runs take over each config file git reads at commonDir, in
// git's order; an include is read past where take finds nothing in the
// file it names (configFiles).
func collect(commonDir string, env []string, take func(*config.Config, map[string][]string)) (map[string][]string, bool) {
	files, ok := configFiles(commonDir, env, func(c *config.Config) bool {
		found := map[string][]string{}
		take(c, found)
		return len(found) > 0
	})
	if !ok {
		return nil, false
	}
	out := map[string][]string{}
	for _, c := range files {
		take(c, out)
	}
	return out, true
}

// configFiles decodes the config files git reads at commonDir, in its
// order, or declines (see ConfigValues) where a file, a variable or a
// setting could make git's answer differ from what they say. An include
// is read past only where the file it names sets nothing touches asks
// for (harmlessInclude): whether git takes it in then changes no answer.
func configFiles(commonDir string, env []string, touches func(*config.Config) bool) ([]*config.Config, bool) {
	if runtime.GOOS != "linux" || commonDir == "" {
		return nil, false
	}
	lookup := envLookup(env)
	for _, k := range []string{"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG", "GIT_DIR", "GIT_COMMON_DIR"} {
		if _, set := lookup(k); set {
			return nil, false
		}
	}
	var files []string
	v, _ := lookup("GIT_CONFIG_NOSYSTEM")
	noSystem, known := envBool(v)
	if !known {
		return nil, false
	}
	if !noSystem {
		if sys, set := lookup("GIT_CONFIG_SYSTEM"); set {
			files = append(files, sys)
		} else {
			git, ok := spawn.Where("git", lookup)
			if !ok {
				return nil, false
			}
			if real, err := filepath.EvalSymlinks(git); err != nil || real != "/usr/bin/git" {
				return nil, false
			}
			files = append(files, "/etc/gitconfig")
		}
	}
	if global, set := lookup("GIT_CONFIG_GLOBAL"); set {
		files = append(files, global)
	} else {
		home, _ := lookup("HOME")
		if home == "" {
			return nil, false
		}
		if xdg, _ := lookup("XDG_CONFIG_HOME"); xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		} else {
			files = append(files, filepath.Join(home, ".config", "git", "config"))
		}
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	files = append(files, filepath.Join(commonDir, "config"))
	var out []*config.Config
	for n, f := range files {
		c, ok := readConfig(f, n == len(files)-1)
		if !ok {
			return nil, false
		}
		for _, s := range c.Sections {
			if (s.IsName("include") || s.IsName("includeif")) && !includesHarmless(s, filepath.Dir(f), lookup, touches) {
				return nil, false
			}
			if s.IsName("extensions") {
				for _, o := range s.Options {
					if strings.EqualFold(o.Key, "worktreeconfig") && !isFalse(o.Value) {
						return nil, false
					}
				}
			}
		}
		out = append(out, c)
	}
	return out, true
}

// IncludesReadPast reports whether every include the config file at path
// holds is one harmlessInclude reads past for touches (so the file's own
// settings, with whatever those includes add, answer touches' questions
// alone); false for a file it cannot read or parse. A path from HOME is
// left to git.
func IncludesReadPast(path string, touches func(*config.Config) bool) bool {
	c, ok := readConfig(path, true)
	if !ok {
		return false
	}
	for _, s := range c.Sections {
		if (s.IsName("include") || s.IsName("includeif")) && !includesHarmless(s, filepath.Dir(path), noEnv, touches) {
			return false
		}
	}
	return true
}

// noEnv is an environment with nothing set.
func noEnv(string) (string, bool) { return "", false }

// includesHarmless reports whether every path an include section (an
// [include] or each [includeIf "…"]) names is harmlessInclude's.
func includesHarmless(s *config.Section, dir string, lookup func(string) (string, bool), touches func(*config.Config) bool) bool {
	opts := s.Options
	for _, sub := range s.Subsections {
		opts = append(append(config.Options{}, opts...), sub.Options...)
	}
	for _, o := range opts {
		if strings.EqualFold(o.Key, "path") && !harmlessInclude(o.Value, dir, lookup, touches) {
			return false
		}
	}
	return true
}

// harmlessInclude reports an include whose file, named by path as git
// resolves it (from dir, the including file's directory, or from HOME
// for "~/"), is missing (git skips it) or sets nothing touches asks for,
// no extension and no include of its own. Whatever its condition, taking
// it in or leaving it out then gives the same answer. `gates init` writes
// one such include for linked worktrees (core.hooksPath only), so an
// adopted clone's config is still read in process.
func harmlessInclude(path, dir string, lookup func(string) (string, bool), touches func(*config.Config) bool) bool {
	switch {
	case path == "" || strings.HasPrefix(path, "%(") || (strings.HasPrefix(path, "~") && !strings.HasPrefix(path, "~/")):
		return false
	case strings.HasPrefix(path, "~/"):
		home, _ := lookup("HOME")
		if home == "" {
			return false
		}
		path = filepath.Join(home, path[2:])
	case !filepath.IsAbs(path):
		path = filepath.Join(dir, path)
	}
	c, ok := readConfig(path, false)
	if !ok {
		return false
	}
	for _, s := range c.Sections {
		if s.IsName("include") || s.IsName("includeif") || s.IsName("extensions") {
			return false
		}
	}
	return !touches(c)
}

// readConfig decodes one config file; a missing file is an empty config
// unless required, and anything unreadable declines.
func readConfig(path string, required bool) (*config.Config, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) && !required {
			return config.New(), true
		}
		return nil, false
	}
	// A value continued over lines keeps its newline in go-git's reading
	// and loses it in git's; leave such files to git.
	if bytes.Contains(data, []byte("\\\n")) || bytes.Contains(data, []byte("\\\r\n")) {
		return nil, false
	}
	c := config.New()
	if err := config.NewDecoder(bytes.NewReader(data)).Decode(c); err != nil {
		return nil, false
	}
	// Subsections of core or extensions are not settings git reads here
	// the way this reader does; leave them to git.
	for _, s := range c.Sections {
		if (s.IsName("core") || s.IsName("extensions")) && len(s.Subsections) > 0 {
			return nil, false
		}
	}
	return c, true
}

func lastOption(opts config.Options, key string) string {
	v := ""
	for _, o := range opts {
		if strings.EqualFold(o.Key, key) {
			v = o.Value
		}
	}
	return v
}

// isFalse is git's spelling of a false boolean.
func isFalse(v string) bool {
	switch strings.ToLower(v) {
	case "false", "no", "off", "0":
		return true
	}
	return false
}

// envBool reads a boolean variable as git does; known is false for a
// spelling this reader does not take.
func envBool(v string) (val, known bool) {
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1":
		return true, true
	case "false", "no", "off", "0", "":
		return false, true
	}
	return false, false
}
