package githook

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// Placer writes hook files into one hooks directory without a moment in
// which a hook is absent: each file is first made under a sibling name
// that is created exclusively, proven to answer as the gates binary, then
// renamed over the hook. A hook is always a copy, never a hard link: a
// link shares the binary's inode, so truncating or emptying the binary
// would empty the hook too, and git runs an empty hook as an empty shell
// script that passes every commit. A copy keeps working as the launcher,
// which then fails the commit with a message when the binary cannot run.
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
	remove func(name string) error
	rename func(oldpath, newpath string) error
	// verify proves a placed file answers as the gates binary; nil is
	// the handshake (Handshake).
	verify func(path string) error
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

func (p *Placer) ops() (func(string) error, func(string, string) error, func(string) error) {
	remove, rename, verify := p.remove, p.rename, p.verify
	if remove == nil {
		remove = os.Remove
	}
	if rename == nil {
		rename = os.Rename
	}
	if verify == nil {
		verify = Handshake
	}
	return remove, rename, verify
}

// Sibling answers the name the file for hook is written under before
// its rename.
func (p *Placer) Sibling(hook string) string {
	return walk.Child(p.Dir, fmt.Sprintf(".%s.%d.%s.placing", hook, p.PID, p.Token))
}

// staleAfter is how old a placement file must be before a later run takes
// it for the leftover of a placement that was killed: a live placement
// copies one binary and asks it one question, which takes seconds.
var staleAfter = 10 * time.Minute

// Sweep removes the placement files of earlier runs that were cut short
// (killed between the copy and the rename, they serve no hook and each
// holds a whole binary) and answers their names: one whose process id
// names no running process on this host, or, where that cannot be asked
// or the id is reused, one older than staleAfter. Another run's file whose
// process still runs (or runs in a namespace this one cannot see, and is
// young) is left.
func (p *Placer) Sweep() []string {
	remove, _, _ := p.ops()
	ents, err := os.ReadDir(p.Dir)
	if err != nil {
		return nil
	}
	var swept []string
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".placing") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if pid := placingPID(name); (pid <= 0 || pid == p.PID || pidAlive(pid)) && time.Since(info.ModTime()) < staleAfter {
			continue
		}
		// assertion M: a killed placement's file is removed by a later run.
		if err := remove(walk.Child(p.Dir, name)); err == nil {
			swept = append(swept, name)
		}
	}
	return swept
}

// placingPID answers the process id a placement file's name carries
// (.<hook>.<pid>.<token>.placing), or 0.
func placingPID(name string) int {
	parts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(name, "."), ".placing"), ".")
	if len(parts) < 3 {
		return 0
	}
	pid, err := strconv.Atoi(parts[len(parts)-2])
	if err != nil {
		return 0
	}
	return pid
}

// PlaceError is a placement that did not land; the hook already there,
// if any, is untouched.
type PlaceError struct {
	Hook string
	Msg  string
}

func (e *PlaceError) Error() string { return e.Hook + ": " + e.Msg }

// Place makes <Dir>/<name> a copy of src carrying the executable bit,
// once the copy has proven it answers as the gates binary.
func (p *Placer) Place(src, name string) error {
	remove, rename, verify := p.ops()
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
	// assertion D: an exclusively created sibling, a copy (never a link),
	// renamed over the hook.
	if err := copyNew(src, sib, drop); err != nil {
		if errors.Is(err, fs.ErrExist) {
			// Another placement owns that name; nothing may write through it.
			return fail("the placement file %s already exists (another placement's); left as found, nothing placed", sib)
		}
		return fail("cannot copy %s (%v); the hook already there is kept", src, err)
	}
	// assertion D: the copy answers the handshake before it serves.
	if err := verify(sib); err != nil {
		drop()
		return fail("the copy of %s does not answer as the gates binary (%v); the hook already there is kept", src, err)
	}
	if err := rename(sib, hook); err != nil {
		drop()
		return fail("cannot replace the hook (%v); the earlier file still serves it, re-run once no commit is running", err)
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

// HandshakeFlag is the top-level flag a caller uses to prove a file is a
// working gates binary before handing over to it.
const HandshakeFlag = "--handshake"

// HandshakeReply is the one line the binary answers to HandshakeFlag.
func HandshakeReply(nonce string) string { return "gates-handshake " + nonce }

// Handshake runs path with HandshakeFlag and a fresh nonce, and answers
// nil only when it printed HandshakeReply(nonce): an empty or truncated
// file, or another program, answers an error saying what came back.
func Handshake(path string) error {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Errorf("drawing a handshake nonce: %w", err)
	}
	nonce := hex.EncodeToString(b[:])
	c, err := spawn.Run(spawn.Cmd{Program: spawn.At(path), Args: []string{HandshakeFlag, nonce}})
	if err != nil {
		return fmt.Errorf("it cannot be started: %v", err)
	}
	out, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		return fmt.Errorf("it failed: %s", strings.TrimSpace(rep))
	}
	if got := strings.TrimRight(string(out), "\r\n"); got != HandshakeReply(nonce) {
		return fmt.Errorf("it answered %q, not the handshake", got)
	}
	return nil
}
