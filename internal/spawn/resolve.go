package spawn

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// fallbackPathext is what Windows tries when PATHEXT is unset or empty.
const fallbackPathext = ".COM;.EXE;.BAT;.CMD"

// pathCarrying reports whether name already names a location, which a
// caller resolved and resolution leaves alone.
func pathCarrying(name string) bool {
	return strings.ContainsAny(name, `/\`) || (len(name) >= 2 && name[1] == ':')
}

// exeNames answers the file names an installed program called name may
// carry, in the order they are tried. On Windows that is name plus each
// PATHEXT extension (the fallback list when PATHEXT is empty), with the bare
// name last; a Windows search never runs an extensionless file ahead of a
// shim beside it. Elsewhere it is the bare name alone.
func exeNames(name, pathext string, windows bool) []string {
	if !windows {
		return []string{name}
	}
	if strings.TrimSpace(pathext) == "" {
		pathext = fallbackPathext
	}
	var out []string
	for _, ext := range strings.Split(pathext, ";") {
		ext = strings.TrimSpace(ext)
		if ext == "" {
			continue
		}
		out = append(out, name+ext)
	}
	return append(out, name)
}

// splitWindowsList splits a Windows PATH on ';', honouring double quotes
// around an entry (which may then carry ';'), and drops empty entries.
func splitWindowsList(list string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
		}
		cur.Reset()
	}
	for i := 0; i < len(list); i++ {
		switch c := list[i]; {
		case c == '"':
			quoted = !quoted
		case c == ';' && !quoted:
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

func joinWindows(dir, name string) string {
	if strings.HasSuffix(dir, `\`) || strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + `\` + name
}

// Candidates is Windows program resolution as a pure function of the PATH
// list, the PATHEXT list and an existence predicate. It answers every
// existing file the search reaches, in search order (directories in PATH
// order, within each the PATHEXT names and then the bare name), so the first
// element is the resolution and an empty answer means nothing resolved. A
// name that already carries a path is answered untouched.
func Candidates(name, pathList, pathext string, exists func(string) bool) []string {
	// assertion G: extensions first, bare name last, paths untouched.
	if pathCarrying(name) {
		return []string{name}
	}
	names := exeNames(name, pathext, true)
	var hits []string
	for _, dir := range splitWindowsList(pathList) {
		for _, n := range names {
			if full := joinWindows(dir, n); exists(full) {
				hits = append(hits, full)
			}
		}
	}
	return hits
}

// resolveWindows picks the first candidate, falling back to the bare name
// so the spawn yields the OS's own error where nothing resolves: the
// resolution can turn no run into a refusal.
func resolveWindows(name string, env LookupEnv) string {
	if pathCarrying(name) {
		return name
	}
	path, _ := env("PATH")
	pathext, _ := env("PATHEXT")
	if hits := Candidates(name, path, pathext, isFile); len(hits) > 0 {
		return hits[0]
	}
	return name
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func isExecutableFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// OnPath is `command -v name` reduced to "is there an executable of this name
// on PATH". env supplies PATH (and PATHEXT on Windows); nil reads this
// process's environment. On Windows it answers through Candidates, the same
// resolution every spawn takes, so a true answer means the spawn reaches the
// file the probe found.
func OnPath(name string, env LookupEnv) bool {
	// assertion H: the probe and the spawn resolve alike.
	if env == nil {
		env = os.LookupEnv
	}
	if name == "" {
		return false
	}
	if runtime.GOOS == "windows" {
		if pathCarrying(name) {
			return isFile(name)
		}
		path, _ := env("PATH")
		pathext, _ := env("PATHEXT")
		return len(Candidates(name, path, pathext, isFile)) > 0
	}
	if strings.Contains(name, "/") {
		return isExecutableFile(name)
	}
	_, ok := lookPathIn(name, env)
	return ok
}

// lookPathIn is the POSIX search: the first executable regular file called
// name in PATH's directories (an empty entry is the working directory).
func lookPathIn(name string, env LookupEnv) (string, bool) {
	path, _ := env("PATH")
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		if p := dir + "/" + name; isExecutableFile(p) {
			return p, true
		}
	}
	return "", false
}

// Where answers the file a bare name resolves to on PATH (POSIX search;
// on Windows through Candidates), for a caller that must place a link to
// the very program a spawn of that name would start.
func Where(name string, env LookupEnv) (string, bool) {
	if env == nil {
		env = os.LookupEnv
	}
	if name == "" || pathCarrying(name) {
		return "", false
	}
	if runtime.GOOS == "windows" {
		path, _ := env("PATH")
		pathext, _ := env("PATHEXT")
		if c := Candidates(name, path, pathext, isFile); len(c) > 0 {
			return c[0], true
		}
		return "", false
	}
	return lookPathIn(name, env)
}
