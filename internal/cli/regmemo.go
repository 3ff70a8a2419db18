package cli

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

// The registry's load kept across hook calls (SPEC §edit-gates J): Load
// resolves every registered name with up to four stats and reads each
// resolved declaration whole, on every call, though an Edit seldom
// touches a declaration. The memo keeps the loaded registry under the
// identities (declID) of what the load depended on: the registry list,
// every search dir (a file added, removed or renamed in a dir moves the
// dir's times) and each resolved declaration. While all of them are the
// recorded ones the registry is the one Load would answer; anything else
// is a full Load, recorded again when all it read has settled.

// regMemoName is the memo's file under the result cache's directory.
const regMemoName = "registry-load"

// regMemoMagic opens a memo of this layout.
const regMemoMagic = "registry-load 1"

// regMemoMember is one member as kept: a member whose header did not parse
// is never kept (its error is no data), so Manifest is always set for a
// resolved member.
type regMemoMember struct {
	Name     string
	Line     int
	Res      registry.Resolution
	Manifest *registry.Manifest
	IDs      []string // the identities of Res.Path and Res.Alt, when set
}

// regMemoFile is the memo's content.
type regMemoFile struct {
	Head    string
	ListID  string
	List    *registry.List
	Dirs    []string
	DirIDs  []string
	Members []regMemoMember
}

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

// lookupRegistryMemo answers the registry kept in dir when every identity
// it was recorded under holds; false sends the caller to registry.Load.
func lookupRegistryMemo(dir, stamp, cwd, gatesDir string, roots []string) (*registry.Registry, bool) {
	data, err := walk.ReadConfig(walk.Child(dir, regMemoName))
	if err != nil {
		return nil, false
	}
	var m regMemoFile
	if json.Unmarshal(data, &m) != nil || m.Head != regMemoHead(stamp, cwd, gatesDir, roots) || m.List == nil {
		return nil, false
	}
	dirs := registry.SearchDirs(gatesDir, roots)
	if !slices.Equal(dirs, m.Dirs) || len(m.DirIDs) != len(dirs) {
		return nil, false
	}
	if id, ok := pathID(registry.ListPath(gatesDir), time.Time{}); !ok || id != m.ListID {
		return nil, false
	}
	for i, d := range dirs {
		if id, ok := pathID(d, time.Time{}); !ok || id != m.DirIDs[i] {
			return nil, false
		}
	}
	if len(m.Members) != len(m.List.Entries) {
		return nil, false
	}
	r := &registry.Registry{List: m.List, GatesDir: gatesDir, KitRoots: slices.Clone(roots)}
	for i, k := range m.Members {
		if k.Name != m.List.Entries[i].Name || k.Line != m.List.Entries[i].Line {
			return nil, false
		}
		paths := resolvedPaths(k.Res)
		if len(paths) != len(k.IDs) || (k.Res.Kind != registry.Unresolved && k.Manifest == nil) {
			return nil, false
		}
		for j, p := range paths {
			if id, ok := declID(p, time.Time{}); !ok || id != k.IDs[j] {
				return nil, false
			}
		}
		r.Members = append(r.Members, registry.Member{Name: k.Name, Line: k.Line, Resolution: k.Res, Manifest: k.Manifest})
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

// storeRegistryMemo records reg, just answered by registry.Load, when
// everything it rests on has settled and kept its identity across the
// load (listID and dirIDs were taken before it). A member whose header
// did not parse, a search dir holding a name's file that the resolution
// passed over (a dangling link, a directory), or a manifest the memo would
// not give back unchanged leaves the memo unwritten. Best effort.
func storeRegistryMemo(dir, stamp, cwd string, reg *registry.Registry, listID string, dirIDs []string) {
	settled := time.Now().Add(-corpusSettled)
	dirs := registry.SearchDirs(reg.GatesDir, reg.KitRoots)
	if len(dirIDs) != len(dirs) {
		return
	}
	if id, ok := pathID(registry.ListPath(reg.GatesDir), settled); !ok || id != listID || id == absentID {
		return
	}
	for i, d := range dirs {
		if id, ok := pathID(d, settled); !ok || id != dirIDs[i] {
			return
		}
	}
	m := regMemoFile{Head: regMemoHead(stamp, cwd, reg.GatesDir, reg.KitRoots), ListID: listID, List: reg.List, Dirs: dirs, DirIDs: dirIDs}
	for _, mem := range reg.Members {
		if mem.ManifestErr != nil || (mem.Kind != registry.Unresolved && mem.Manifest == nil) {
			return
		}
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
		k := regMemoMember{Name: mem.Name, Line: mem.Line, Res: mem.Resolution, Manifest: mem.Manifest}
		for _, p := range resolvedPaths(mem.Resolution) {
			id, ok := declID(p, settled)
			if !ok {
				return
			}
			k.IDs = append(k.IDs, id)
		}
		m.Members = append(m.Members, k)
	}
	data, err := json.Marshal(&m)
	if err != nil {
		return
	}
	// The memo must give back what Load answered, field for field (JSON
	// would mend a string that is not UTF-8, for one).
	var back regMemoFile
	if json.Unmarshal(data, &back) != nil || !reflect.DeepEqual(back, m) {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	_ = walk.ReplaceFile(walk.Child(dir, regMemoName), data)
}

// loadRegistryMemo is registry.Load(fsys, ...) over the working
// directory's files (gatesDir and roots spelled against cwd, the
// process's directory, which fsys reads),
// answered from the memo in dir when it vouches for every file the load
// rests on, else read whole and offered to the memo.
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
	reg, err := registry.Load(fsys, gatesDir, roots)
	if err != nil {
		return nil, err
	}
	if listOK && dirsOK {
		storeRegistryMemo(dir, stamp, cwd, reg, listID, dirIDs)
	}
	return reg, nil
}
