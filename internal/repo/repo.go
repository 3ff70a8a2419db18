// Package repo reads a git repository: the tracked listing, index modes, the
// staged set, config, remotes and HEAD, plus the Snapshot the battery shares.
//
// Contract:
//   - Every listing whose names are read is NUL-terminated (-z) and split on
//     NUL, so a name carrying a non-ASCII byte, a quote or a backslash comes
//     back as written. A name that is not UTF-8 is a *NonUTF8Error, its own
//     class: never decoded lossily, never carried as bytes, never folded
//     into a failed listing.
//   - A listing git could not produce is a *ListingError; each caller
//     decides whether that refuses or degrades.
//   - CLI reads run through internal/spawn with the child's working
//     directory set to the directory asked about, so names come back the way
//     git answers there (relative to and scoped to it, for ls-files).
//   - go-git serves a read only where a test holds it equal to the CLI and a
//     benchmark shows it faster, and only at a toplevel the caller already
//     knows: it never discovers. Measured on a 20,000-file repository, HEAD
//     is the one such read (go-git far ahead of two git spawns); the index
//     is read faster by one `git ls-files -s -z` than by go-git's decoder,
//     and config and remotes stay on the CLI, which alone honours every
//     scope and include.
package repo

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// NonUTF8Error refuses a tracked name that is not UTF-8; its message names
// the path in lossy spelling.
type NonUTF8Error = walk.NonUTF8Error

// ListingError is a read git could not produce: it could not be started,
// or it exited non-zero (the failure report says why).
type ListingError struct {
	Dir  string
	What string // the read, e.g. "list tracked files"
	Err  error
	// By names the component that failed, when it is not git: gates' own
	// index reader decodes the file itself, and its failure must not be
	// reported as git's.
	By string
}

func (e *ListingError) Error() string {
	by := e.By
	if by == "" {
		by = "git"
	}
	return fmt.Sprintf("%s could not %s in %s: %v", by, e.What, e.Dir, e.Err)
}

// indexReader names gates' in-process index decoder in its refusals.
const indexReader = "gates' own index reader"

func (e *ListingError) Unwrap() error { return e.Err }

// reportError carries a failed child's report as an error.
type reportError string

func (r reportError) Error() string { return string(r) }

// Git reads through the git CLI under Env (nil: this process's).
type Git struct {
	Env []string
	// Debug, when set, hears the reads that fell back to the CLI.
	Debug io.Writer
	// RecordVerified keeps, in <common-dir>/gates-cache/index-verified,
	// the last index whose checksum this reader verified (its path, stat
	// fields and trailer): an index read again unchanged is not hashed
	// again (indexAt).
	RecordVerified bool
	// TreeWatch lets ChangedMemo ask the work tree's watcher (treevouch.go)
	// and start one where none answers; Linux only.
	TreeWatch bool
}

// run starts git in dir and answers its stdout, or a *ListingError.
func (g Git) run(dir, what string, args ...string) ([]byte, error) {
	return g.runStdin(dir, what, nil, args...)
}

// runStdin is run with stdin fed to the child (nil: the null device).
func (g Git) runStdin(dir, what string, stdin io.Reader, args ...string) ([]byte, error) {
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: args, Dir: dir, Env: g.Env, Stdin: stdin})
	if err != nil {
		return nil, &ListingError{Dir: dir, What: what, Err: err}
	}
	out, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		return nil, &ListingError{Dir: dir, What: what, Err: reportError(rep)}
	}
	return out, nil
}

// splitZ splits NUL-terminated names, refusing one that is not UTF-8.
func splitZ(out []byte) ([]string, error) {
	var names []string
	for len(out) > 0 {
		i := bytes.IndexByte(out, 0)
		if i < 0 {
			i = len(out)
		}
		name := string(out[:i])
		if err := walk.CheckName(name); err != nil {
			return nil, err
		}
		names = append(names, name)
		if i == len(out) {
			break
		}
		out = out[i+1:]
	}
	return names, nil
}

// Tracked lists the tracked files under dir (git ls-files -z), relative to
// dir and scoped to it, narrowed by pathspecs when given.
func Tracked(dir string, pathspecs ...string) ([]string, error) {
	return Git{}.Tracked(dir, pathspecs...)
}

// Tracked is the package-level Tracked under g's environment.
func (g Git) Tracked(dir string, pathspecs ...string) ([]string, error) {
	// assertion A: the listing is NUL-terminated and split on NUL.
	args := append([]string{"ls-files", "-z", "--"}, pathspecs...)
	out, err := g.run(dir, "list tracked files", args...)
	if err != nil {
		return nil, err
	}
	// assertion B: a name that is not UTF-8 is its own refusal.
	return splitZ(out)
}

// Entry is one index entry.
type Entry struct {
	Path string
	Hash string // object id, hex
	Mode uint32 // e.g. 0o100644, 0o100755, 0o120000, 0o160000
	// Flags are the entry's flags as git holds them once read (and as
	// `git ls-files --debug` prints them); see FlagIntentToAdd and kin.
	// The CLI's plain listing (IndexModes) leaves them 0.
	Flags uint32
	Stage int // 0 unless the path is in conflict
	// stat is the work-tree file's stat data as the index recorded it
	// when git last found the file to hold Hash, copied out of the index
	// only for a work-tree snapshot's decode and kept only while it can
	// vouch for that (see keepCleanStat); nil from every other reader.
	stat *statData
	// raw is the object id in binary where the index decoder left Hash
	// unspelled (see id): a hook that looks up a handful of 20,000 entries
	// spells a handful of ids. Set only by this package's own readers;
	// every entry handed out of the package has Hash spelled.
	raw string
	// (The two 32-bit fields sit side by side.)
}

// id answers the entry's object id in hex: Hash, or raw spelled out.
func (e *Entry) id() string {
	if e.Hash != "" || e.raw == "" {
		return e.Hash
	}
	var b [2 * 32]byte
	n := hex.Encode(b[:], []byte(e.raw))
	return string(b[:n])
}

// spelledIDs answers entries with every id spelled in Hash and raw
// cleared: a new slice when any needed spelling (the entries given may
// be the process's shared decoding), entries itself otherwise.
func spelledIDs(entries []Entry) []Entry {
	n := 0
	for i := range entries {
		if entries[i].Hash == "" && entries[i].raw != "" {
			n += 2 * len(entries[i].raw)
		}
	}
	if n == 0 {
		return entries
	}
	out := slices.Clone(entries)
	arena := make([]byte, 0, n)
	for i := range out {
		e := &out[i]
		if e.Hash == "" && e.raw != "" {
			at := len(arena)
			arena = appendHex(arena, []byte(e.raw))
			e.Hash = unsafe.String(&arena[at], 2*len(e.raw))
		}
		e.raw = ""
	}
	return out
}

// IndexModes lists the index entries under dir (git ls-files -s -z),
// relative to dir and scoped to it, in index order.
func IndexModes(dir string) ([]Entry, error) { return Git{}.IndexModes(dir) }

// IndexModes is the package-level IndexModes under g's environment.
func (g Git) IndexModes(dir string) ([]Entry, error) {
	out, err := g.run(dir, "list the index", "ls-files", "-s", "-z")
	if err != nil {
		return nil, err
	}
	recs, err := splitZ(out)
	if err != nil {
		return nil, err
	}
	entries := make([]Entry, 0, len(recs))
	for _, r := range recs {
		e, err := parseStageLine(r)
		if err != nil {
			return nil, &ListingError{Dir: dir, What: "list the index", Err: err}
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// parseStageLine reads "<mode> <object> <stage>\t<path>".
func parseStageLine(r string) (Entry, error) {
	head, path, ok := strings.Cut(r, "\t")
	if !ok {
		return Entry{}, fmt.Errorf("malformed ls-files -s record %q", r)
	}
	modeText, rest, ok1 := strings.Cut(head, " ")
	hash, stageText, ok2 := strings.Cut(rest, " ")
	if !ok1 || !ok2 || hash == "" {
		return Entry{}, fmt.Errorf("malformed ls-files -s record %q", r)
	}
	mode, err := strconv.ParseUint(modeText, 8, 32)
	if err != nil {
		return Entry{}, fmt.Errorf("malformed mode in ls-files -s record %q", r)
	}
	stage, err := strconv.Atoi(stageText)
	if err != nil {
		return Entry{}, fmt.Errorf("malformed stage in ls-files -s record %q", r)
	}
	return Entry{Path: path, Mode: CanonMode(uint32(mode)), Hash: hash, Stage: stage}, nil
}

// Staged lists the paths staged as added, copied, modified, renamed or
// changed in type, or left unmerged (git diff --cached --name-only -z
// --diff-filter=ACMRTU):
// a symlink replaced by a file is staged content. git spells them relative
// to the toplevel whatever dir is.
func Staged(dir string) ([]string, error) { return Git{}.Staged(dir) }

// Staged is the package-level Staged under g's environment.
func (g Git) Staged(dir string) ([]string, error) {
	// assertion D: added, copied, modified, renamed, type-changed, unmerged;
	// NUL-terminated.
	out, err := g.run(dir, "list staged paths", "diff", "--cached", "--name-only", "-z", "--diff-filter=ACMRTU")
	if err != nil {
		return nil, err
	}
	return splitZ(out)
}

// Change is one path the index holds differently from HEAD: its status
// letter (A, C, D, M, T or U, renames split into a D and an A) and its
// mode on each side (0 where the side has none).
type Change struct {
	Path             string
	Status           byte
	OldMode, NewMode uint32
}

// Shape reports whether the change moves what a listing reader sees: a
// path entering or leaving the tracked set, a type change, or a mode
// change with the same content.
func (c Change) Shape() bool {
	switch c.Status {
	case 'A', 'C', 'D', 'T':
		return true
	case 'U':
		return false
	}
	return c.OldMode != c.NewMode
}

// StagedChanges lists every staged path against HEAD, deletions included
// and renames split (git diff --cached --raw -z --no-renames), spelled
// relative to the toplevel whatever dir is.
func (g Git) StagedChanges(dir string) ([]Change, error) {
	// assertion D: every staged status, renames split, NUL-terminated.
	out, err := g.run(dir, "list staged changes", "diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev")
	if err != nil {
		return nil, err
	}
	recs, err := splitZ(out)
	if err != nil {
		return nil, err
	}
	changes, err := parseRawChanges(recs)
	if err != nil {
		return nil, &ListingError{Dir: dir, What: "list staged changes", Err: err}
	}
	return changes, nil
}

// parseRawChanges reads `diff --raw -z` records: a ":<old> <new> <oid>
// <oid> <status>" head, then its path.
func parseRawChanges(recs []string) ([]Change, error) {
	if len(recs)%2 != 0 {
		return nil, fmt.Errorf("diff --raw record %q has no path", recs[len(recs)-1])
	}
	var changes []Change
	for i := 0; i+1 < len(recs); i += 2 {
		head, path := recs[i], recs[i+1]
		f := strings.Fields(strings.TrimPrefix(head, ":"))
		if !strings.HasPrefix(head, ":") || len(f) != 5 || f[4] == "" || !strings.ContainsRune("ACDMRTUX", rune(f[4][0])) || strings.Trim(f[4][1:], "0123456789") != "" {
			return nil, fmt.Errorf("malformed diff --raw record %q", head)
		}
		oldMode, err1 := strconv.ParseUint(f[0], 8, 32)
		newMode, err2 := strconv.ParseUint(f[1], 8, 32)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("malformed mode in diff --raw record %q", head)
		}
		changes = append(changes, Change{Path: path, Status: f[4][0], OldMode: uint32(oldMode), NewMode: uint32(newMode)})
	}
	return changes, nil
}

// Unstaged lists the tracked paths whose work-tree state differs from the
// index (git diff --name-only -z --ignore-submodules=dirty), an
// intent-to-add entry among them, relative to the toplevel.
func (g Git) Unstaged(dir string) ([]string, error) {
	// assertion D: the work tree against the index; NUL-terminated.
	out, err := g.run(dir, "list unstaged paths", "diff", "--name-only", "-z", "--ignore-submodules=dirty")
	if err != nil {
		return nil, err
	}
	return splitZ(out)
}

// ConfigGet reads one config value as git resolves it (every scope,
// includes honoured): the value and true, false when the key is unset.
func ConfigGet(dir, key string) (string, bool, error) { return Git{}.ConfigGet(dir, key) }

// ConfigGetLocal reads one config value from the repository's own config
// file alone (--local): the value and true, false when that file does not
// set the key.
func ConfigGetLocal(dir, key string) (string, bool, error) {
	return Git{}.configGet(dir, key, "--local")
}

// ConfigGet is the package-level ConfigGet under g's environment.
func (g Git) ConfigGet(dir, key string) (string, bool, error) { return g.configGet(dir, key) }

func (g Git) configGet(dir, key string, scope ...string) (string, bool, error) {
	out, set, err := g.config(dir, "read config "+key, append(append([]string(nil), scope...), "-z", "--get", key)...)
	if !set || err != nil {
		return "", false, err
	}
	return string(bytes.TrimSuffix(out, []byte{0})), true, nil
}

// config runs `git config args...` and answers its output and true, or
// false when git exits 1 in silence: nothing set. what names the read in
// an error.
func (g Git) config(dir, what string, args ...string) ([]byte, bool, error) {
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: append([]string{"config"}, args...), Dir: dir, Env: g.Env})
	if err != nil {
		return nil, false, &ListingError{Dir: dir, What: what, Err: err}
	}
	if c.Code() == 1 && len(bytes.TrimSpace(c.Stderr())) == 0 {
		// assertion E: exit 1 in silence is an unset key; an invalid key
		// says so and is an error.
		return nil, false, nil
	}
	out, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		return nil, false, &ListingError{Dir: dir, What: what, Err: reportError(rep)}
	}
	return out, true, nil
}

// ConfigGetEach reads several config values in one git child, each as
// ConfigGet would answer it (every scope, includes honoured, the last
// setting of a key winning): a map from each key that is set, spelled as
// passed, to its value. Keys are plain section.name pairs, no subsection.
func (g Git) ConfigGetEach(dir string, keys ...string) (map[string]string, error) {
	byCanon := map[string]string{}
	var alts []string
	for _, k := range keys {
		canon := strings.ToLower(k)
		byCanon[canon] = k
		alts = append(alts, regexp.QuoteMeta(canon))
	}
	what := "read config " + strings.Join(keys, ", ")
	out, set, err := g.config(dir, what, "-z", "--get-regexp", "^("+strings.Join(alts, "|")+")$")
	if err != nil {
		return nil, err
	}
	got := map[string]string{}
	if !set {
		return got, nil
	}
	// Each entry is the canonical key, then a newline and the value when
	// it has one, then a NUL; a later entry overrides an earlier one.
	for _, e := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		key, value, _ := strings.Cut(e, "\n")
		name, ok := byCanon[key]
		if !ok {
			return nil, &ListingError{Dir: dir, What: what, Err: fmt.Errorf("git answered a key not asked for: %q", key)}
		}
		got[name] = value
	}
	return got, nil
}

// Remote is one configured remote and its fetch URLs, in config order.
type Remote struct {
	Name string
	URLs []string
}

// Remotes lists the configured remotes and their URLs as written in config
// (no insteadOf rewriting), ordered by first appearance.
func Remotes(dir string) ([]Remote, error) { return Git{}.Remotes(dir) }

// Remotes is the package-level Remotes under g's environment.
func (g Git) Remotes(dir string) ([]Remote, error) {
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"config", "-z", "--get-regexp", `^remote\..*\.url$`}, Dir: dir, Env: g.Env})
	if err != nil {
		return nil, &ListingError{Dir: dir, What: "read remotes", Err: err}
	}
	if c.Code() == 1 && len(bytes.TrimSpace(c.Stderr())) == 0 {
		return nil, nil
	}
	out, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		return nil, &ListingError{Dir: dir, What: "read remotes", Err: reportError(rep)}
	}
	recs, err := splitZ(out)
	if err != nil {
		return nil, err
	}
	var remotes []Remote
	index := map[string]int{}
	for _, r := range recs {
		key, val, _ := strings.Cut(r, "\n")
		name := strings.TrimSuffix(strings.TrimPrefix(key, "remote."), ".url")
		i, seen := index[name]
		if !seen {
			i = len(remotes)
			index[name] = i
			remotes = append(remotes, Remote{Name: name})
		}
		remotes[i].URLs = append(remotes[i].URLs, val)
	}
	return remotes, nil
}

// Head is where HEAD points.
type Head struct {
	// Branch is HEAD's symbolic target (e.g. refs/heads/main), "" when
	// detached.
	Branch string
	// Hash is the commit HEAD resolves to, "" on an unborn branch.
	Hash string
}

// ReadHead reads HEAD through the CLI.
func ReadHead(dir string) (Head, error) { return Git{}.ReadHead(dir) }

// ReadHead is the package-level ReadHead under g's environment.
func (g Git) ReadHead(dir string) (Head, error) {
	var h Head
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"symbolic-ref", "-q", "HEAD"}, Dir: dir, Env: g.Env})
	if err != nil {
		return Head{}, &ListingError{Dir: dir, What: "read HEAD", Err: err}
	}
	if out, ok := c.Stdout(); ok {
		h.Branch = strings.TrimSuffix(string(out), "\n")
	} else if c.Code() != 1 {
		rep, _ := c.FailureReport()
		return Head{}, &ListingError{Dir: dir, What: "read HEAD", Err: reportError(rep)}
	}
	c, err = spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"rev-parse", "-q", "--verify", "HEAD^{commit}"}, Dir: dir, Env: g.Env})
	if err != nil {
		return Head{}, &ListingError{Dir: dir, What: "read HEAD", Err: err}
	}
	if out, ok := c.Stdout(); ok {
		h.Hash = strings.TrimSuffix(string(out), "\n")
	} else if c.Code() != 1 {
		rep, _ := c.FailureReport()
		return Head{}, &ListingError{Dir: dir, What: "read HEAD", Err: reportError(rep)}
	}
	return h, nil
}
