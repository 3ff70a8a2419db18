package githook

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/gate-sdk/gates/internal/walk"
)

// Placer writes hook files into one hooks directory without a moment in
// which a hook is absent: each file is first made under a sibling name
// that is created exclusively, then renamed over the hook.
type Placer struct {
	// Dir is the hooks directory, absolute.
	Dir string
	// PID and Token make the sibling names of this run: the process id,
	// and a value drawn at random once per run so that runs in different
	// process-id namespaces sharing one directory never collide.
	PID   int
	Token string
	// Report receives the path of a sibling that could not be removed.
	Report io.Writer

	// The filesystem operations, replaceable by tests.
	link   func(oldname, newname string) error
	remove func(name string) error
	rename func(oldpath, newpath string) error
}

// NewPlacer answers a placer for dir with this process's id and a fresh
// random token.
func NewPlacer(dir string, report io.Writer) (*Placer, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("drawing a random placement token: %w", err)
	}
	return &Placer{Dir: dir, PID: os.Getpid(), Token: hex.EncodeToString(b[:]), Report: report}, nil
}

func (p *Placer) ops() (func(string, string) error, func(string) error, func(string, string) error) {
	link, remove, rename := p.link, p.remove, p.rename
	if link == nil {
		link = os.Link
	}
	if remove == nil {
		remove = os.Remove
	}
	if rename == nil {
		rename = os.Rename
	}
	return link, remove, rename
}

// Sibling answers the name the file for hook is written under before
// its rename.
func (p *Placer) Sibling(hook string) string {
	return walk.Child(p.Dir, fmt.Sprintf(".%s.%d.%s.placing", hook, p.PID, p.Token))
}

// PlaceError is a placement that did not land; the hook already there,
// if any, is untouched.
type PlaceError struct {
	Hook string
	Msg  string
}

func (e *PlaceError) Error() string { return e.Hook + ": " + e.Msg }

// Place makes <Dir>/<name> a hard link to src, or a copy carrying the
// executable bit where no link can be made.
func (p *Placer) Place(src, name string) error {
	link, remove, rename := p.ops()
	hook := walk.Child(p.Dir, name)
	sib := p.Sibling(name)
	fail := func(format string, a ...any) error {
		return &PlaceError{Hook: hook, Msg: fmt.Sprintf(format, a...)}
	}
	drop := func() {
		if err := remove(sib); err != nil && !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(p.Report, "install-hooks: could not remove the placement file %s (%v); it serves no hook, delete it by hand\n", sib, err)
		}
	}
	// assertion D: an exclusively created sibling, renamed over the hook.
	lerr := link(src, sib)
	if errors.Is(lerr, fs.ErrExist) {
		// Another placement owns that name; it may be a link to the very
		// file the hooks serve, so nothing may write through it.
		return fail("the placement file %s already exists (another placement's); left as found, nothing placed", sib)
	}
	if lerr != nil {
		if err := copyNew(src, sib, drop); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fail("the placement file %s already exists (another placement's); left as found, nothing placed", sib)
			}
			return fail("cannot link (%v) or copy (%v) %s; the hook already there is kept", lerr, err, src)
		}
	}
	if err := rename(sib, hook); err != nil {
		drop()
		return fail("cannot replace the hook (%v); the earlier file still serves it, re-run once no commit is running", err)
	}
	// rename(2) does nothing when both names are links to one file (a
	// re-run from an unchanged binary), leaving the sibling in place.
	if _, err := os.Lstat(sib); err == nil {
		drop()
	}
	return nil
}

// copyNew copies src to a file it creates at dst, refusing a name that is
// already there. A copy cut short removes what it made (through drop).
func copyNew(src, dst string, drop func()) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	_, cerr := io.Copy(out, in)
	clerr := out.Close()
	if cerr == nil {
		cerr = clerr
	}
	if cerr == nil {
		cerr = os.Chmod(dst, 0o755)
	}
	if cerr != nil {
		drop()
		return cerr
	}
	return nil
}
