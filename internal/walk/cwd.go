package walk

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Cwd answers this process's working directory in the module's dialect.
func Cwd() (string, error) {
	raw, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("could not read the working directory: %w", err)
	}
	return NormalizeAbs(raw), nil
}

// Canonicalize answers p's physical absolute path (symlinks resolved, ".."
// applied after them, as the filesystem applies it), in the host's own
// spelling: it is not converted. Compare it only with another Canonicalize
// answer, or strip it with StripExtendedPrefix before composing from it.
func Canonicalize(p string) (string, error) {
	phys, err := physical(p)
	if err != nil {
		return "", fmt.Errorf("could not canonicalize %s: %w", p, err)
	}
	return phys, nil
}

// physical resolves p against the raw working directory with no lexical
// step, then lets EvalSymlinks resolve each component in turn (it applies
// ".." to the already-resolved prefix, as the kernel does).
func physical(p string) (string, error) {
	if p == "" || !filepath.IsAbs(p) {
		raw, err := os.Getwd()
		if err != nil {
			return "", err
		}
		if p != "" {
			raw = raw + string(os.PathSeparator) + p
		}
		p = raw
	}
	return filepath.EvalSymlinks(p)
}

// NonUTF8Error refuses a file name that is not UTF-8. Path is the name in
// lossy spelling, for the message only: it opens nothing.
type NonUTF8Error struct {
	Path string
}

func (e *NonUTF8Error) Error() string {
	return fmt.Sprintf("%s: file name is not UTF-8; rename it to a UTF-8 name or remove it (ls -b shows its bytes), since a name that cannot be spelled can be neither read nor reported", e.Path)
}

// checkUTF8 answers a NonUTF8Error for a name that is not valid UTF-8.
func checkUTF8(name string) error {
	if utf8.ValidString(name) {
		return nil
	}
	return &NonUTF8Error{Path: strings.ToValidUTF8(name, "\uFFFD")}
}

// CheckName is the refusal every reader of file names applies: nil for a
// UTF-8 name, a *NonUTF8Error otherwise.
func CheckName(name string) error { return checkUTF8(name) }

// RunDir answers the directory a run reads its tree from, as git finds a
// repository: the work-tree top enclosing the working directory, so a run
// started in a subdirectory answers exactly as one started at the top.
// Outside a work tree it is the working directory itself. pin, when
// non-empty, is taken instead (absolute, or against the working
// directory): the fixture runner pins each case to its own directory.
// A repository git cannot read leaves the working directory in place; the
// reader that needs the top then reports why.
func RunDir(pin string, env []string) (dir string, top string, err error) {
	cwd, err := Cwd()
	if err != nil {
		return "", "", err
	}
	if pin != "" {
		return AbsAgainst(cwd, pin), "", nil
	}
	// assertion U: a run below the top enters the top first.
	loc, ok, lerr := Locate(cwd, env)
	if lerr != nil || !ok {
		return cwd, "", nil
	}
	return loc.Top, loc.Top, nil
}
