package cli

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

// The registry's load kept across hook calls (SPEC §edit-gates J): Load
// resolves every registered name with up to four stats and reads each
// resolved declaration whole, on every call, though an Edit seldom
// touches a declaration. The memo keeps the bytes the load read (the
// list and each resolved declaration) and each name's resolution, under
// the identities (declID) of what the load depended on: the registry
// list, every search dir (a file added, removed or renamed in a dir moves
// the dir's times) and each resolved declaration. While all of them are
// the recorded ones the list and the headers are parsed from the kept
// bytes, which is what Load would answer; anything else is a full Load,
// recorded again when all it read has settled.

// regMemoName is the memo's file under the result cache's directory.
const regMemoName = "registry-load"

// regMemoMagic opens a memo of this layout: a sequence of fields, each
// its length in decimal, a ':' and its bytes.
const regMemoMagic = "registry-load 2"

// absentID is the identity of a path that is not there.
const absentID = "-"

// pathID answers path's identity, absentID when nothing is there; false
// when it could not be read or (with settled set) moved too recently.
func pathID(path string, settled time.Time) (string, bool) {
	if id, ok := declID(path, settled); ok {
		return id, true
	}
	if _, err := os.Lstat(path); err != nil && absentPath(err) {
		return absentID, true
	}
	return "", false
}

func absentPath(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// regMemoHead is the memo's first field for this build, working directory
// and registry.
func regMemoHead(stamp, cwd, gatesDir string, roots []string) string {
	return strings.Join(append([]string{regMemoMagic, stamp, cwd, gatesDir}, roots...), "\x00")
}

// memoFields splits the memo into its fields; false when it is not one
// whole sequence.
func memoFields(data []byte) ([]string, bool) {
	var out []string
	for len(data) > 0 {
		i := bytes.IndexByte(data, ':')
		if i <= 0 || i > 9 {
			return nil, false
		}
		n, err := strconv.Atoi(string(data[:i]))
		if err != nil || n < 0 || n > len(data)-i-1 {
			return nil, false
		}
		out = append(out, string(data[i+1:i+1+n]))
		data = data[i+1+n:]
	}
	return out, true
}

// lookupRegistryMemo answers the registry kept in dir when every identity
// it was recorded under holds; false sends the caller to registry.Load.
func lookupRegistryMemo(dir, stamp, cwd, gatesDir string, roots []string) (*registry.Registry, bool) {
	data, err := walk.ReadConfig(walk.Child(dir, regMemoName))
	if err != nil {
		return nil, false
	}
	f, ok := memoFields(data)
	if !ok || len(f) < 3 || f[0] != regMemoHead(stamp, cwd, gatesDir, roots) {
		return nil, false
	}
	next := func(n int) []string {
		if len(f) < n {
			return nil
		}
		out := f[:n]
		f = f[n:]
		return out
	}
	head := next(3)
	listPath := registry.ListPath(gatesDir)
	if id, ok := pathID(listPath, time.Time{}); !ok || id != head[1] {
		return nil, false
	}
	for _, d := range registry.SearchDirs(gatesDir, roots) {
		want := next(1)
		if want == nil {
			return nil, false
		}
		if id, ok := pathID(d, time.Time{}); !ok || id != want[0] {
			return nil, false
		}
	}
	l, err := registry.ParseList(listPath, []byte(head[2]))
	if err != nil {
		return nil, false
	}
	r := &registry.Registry{List: l, GatesDir: gatesDir, KitRoots: slices.Clone(roots)}
	for _, e := range l.Entries {
		// kind, path, alt, dir, then the identities of path and alt
		// where set, then the bytes of path where resolved.
		k := next(4)
		if k == nil {
			return nil, false
		}
		kind, err := strconv.Atoi(k[0])
		if err != nil {
			return nil, false
		}
		m := registry.Member{Name: e.Name, Line: e.Line, Resolution: registry.Resolution{Name: e.Name, Kind: registry.DeclKind(kind), Path: k[1], Alt: k[2], Dir: k[3]}}
		if (m.Kind == registry.Unresolved) != (m.Path == "") {
			return nil, false
		}
		for _, p := range resolvedPaths(m.Resolution) {
			want := next(1)
			if want == nil {
				return nil, false
			}
			if id, ok := declID(p, time.Time{}); !ok || id != want[0] {
				return nil, false
			}
		}
		if m.Kind != registry.Unresolved {
			body := next(1)
			if body == nil {
				return nil, false
			}
			m.Manifest, m.ManifestErr = registry.ParseManifest(m.Path, []byte(body[0]))
		}
		r.Members = append(r.Members, m)
	}
	if len(f) != 0 {
		return nil, false
	}
	return r, true
}

// resolvedPaths answers the declaration files a resolution rests on.
func resolvedPaths(res registry.Resolution) []string {
	var out []string
	for _, p := range []string{res.Path, res.Alt} {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// recordingFS is an FS that keeps the bytes of every whole-file read.
type recordingFS struct {
	registry.FS
	read map[string]string
}

func (r recordingFS) ReadFile(name string) ([]byte, error) {
	data, err := r.FS.ReadFile(name)
	if err == nil {
		r.read[name] = string(data)
	}
	return data, err
}

// storeRegistryMemo records reg, just answered by registry.Load from the
// bytes in read, when everything it rests on has settled and kept its
// identity across the load (listID and dirIDs were taken before it). A
// declaration that did not read, or a search dir holding a name's file
// the resolution passed over (a dangling link, a directory), leaves the
// memo unwritten. Best effort.
func storeRegistryMemo(dir, stamp, cwd string, reg *registry.Registry, read map[string]string, listID string, dirIDs []string) {
	settled := time.Now().Add(-corpusSettled)
	dirs := registry.SearchDirs(reg.GatesDir, reg.KitRoots)
	listPath := registry.ListPath(reg.GatesDir)
	list, ok := read[listPath]
	if !ok || len(dirIDs) != len(dirs) {
		return
	}
	if id, ok := pathID(listPath, settled); !ok || id != listID || id == absentID {
		return
	}
	var b []byte
	add := func(fields ...string) {
		for _, s := range fields {
			b = strconv.AppendInt(b, int64(len(s)), 10)
			b = append(b, ':')
			b = append(b, s...)
		}
	}
	add(regMemoHead(stamp, cwd, reg.GatesDir, reg.KitRoots), listID, list)
	for i, d := range dirs {
		if id, ok := pathID(d, settled); !ok || id != dirIDs[i] {
			return
		}
		add(dirIDs[i])
	}
	for _, mem := range reg.Members {
		// Every spelling of the name in the dirs the resolution passed
		// over, and the spelling it did not take in its own dir, must be
		// absent outright: an unchanged dir then still lacks it.
		for _, d := range dirs {
			for _, ext := range []string{".sh", ".gate"} {
				p := registry.Join(d, mem.Name+ext)
				if p == mem.Path || p == mem.Alt {
					continue
				}
				if _, err := os.Lstat(p); err == nil || !absentPath(err) {
					return
				}
			}
			if mem.Kind != registry.Unresolved && d == mem.Dir {
				break
			}
		}
		add(strconv.Itoa(int(mem.Kind)), mem.Path, mem.Alt, mem.Dir)
		for _, p := range resolvedPaths(mem.Resolution) {
			id, ok := declID(p, settled)
			if !ok {
				return
			}
			add(id)
		}
		if mem.Kind != registry.Unresolved {
			body, ok := read[mem.Path]
			if !ok {
				return
			}
			add(body)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	_ = walk.ReplaceFile(walk.Child(dir, regMemoName), b)
}

// loadRegistryMemo is registry.Load(fsys, ...) over the working
// directory's files (gatesDir and roots spelled against cwd, the
// process's directory, which fsys reads), answered from the memo in dir
// when it vouches for every file the load rests on, else read whole and
// offered to the memo.
func loadRegistryMemo(fsys registry.FS, dir, stamp, cwd, gatesDir string, roots []string) (*registry.Registry, error) {
	if reg, ok := lookupRegistryMemo(dir, stamp, cwd, gatesDir, roots); ok {
		return reg, nil
	}
	dirs := registry.SearchDirs(gatesDir, roots)
	listID, listOK := pathID(registry.ListPath(gatesDir), time.Time{})
	dirIDs := make([]string, len(dirs))
	dirsOK := true
	for i, d := range dirs {
		id, ok := pathID(d, time.Time{})
		dirIDs[i], dirsOK = id, dirsOK && ok
	}
	rec := recordingFS{FS: fsys, read: map[string]string{}}
	reg, err := registry.Load(rec, gatesDir, roots)
	if err != nil {
		return nil, err
	}
	if listOK && dirsOK {
		storeRegistryMemo(dir, stamp, cwd, reg, rec.read, listID, dirIDs)
	}
	return reg, nil
}
