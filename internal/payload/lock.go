package payload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"

	"github.com/gate-sdk/gates/internal/walk"
)

// LockVersion is the lock grammar's version; a lock of another version is
// refused rather than guessed at.
const LockVersion = 1

// Lock is init's record of what it installed: the binary's stamp, the kit
// and the stamp of the binary that vendored it, the gates it registered,
// every file it wrote with its digest, the lines it appended and the
// directories it created. --uninstall reverses exactly this record.
type Lock struct {
	Version     int          `json:"lock"`
	BinaryStamp string       `json:"binary_stamp"`
	Kit         string       `json:"kit"`
	KitRoot     string       `json:"kit_root"`
	KitVersion  string       `json:"kit_version"`
	Registered  []string     `json:"registered"`
	Files       []LockFile   `json:"files"`
	Appended    []LockAppend `json:"appended"`
	Dirs        []string     `json:"dirs"`
	// Pending and PendingAppended are the journal of a run in progress:
	// what it is about to write. A finished run leaves them empty; a run
	// killed part way leaves them for the next init (see journal.go).
	Pending         []LockFile   `json:"pending,omitempty"`
	PendingAppended []LockAppend `json:"pending_appended,omitempty"`

	// settled marks the paths a killed run may have written, once its
	// journal was settled (never encoded).
	settled map[string]bool
}

// LockFile is one file init wrote.
type LockFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Class  string `json:"class"`
}

// LockAppend is one block of lines init appended to a file: the exact
// bytes, so the reversal can cut them off again.
type LockAppend struct {
	Path    string `json:"path"`
	Suffix  string `json:"suffix"`
	Created bool   `json:"created"`
}

func (l *Lock) file(p string) (LockFile, bool) {
	if l == nil {
		return LockFile{}, false
	}
	for _, f := range l.Files {
		if f.Path == p {
			return f, true
		}
	}
	return LockFile{}, false
}

// ReadLock reads the lock at abs; a missing lock answers nil.
func ReadLock(abs, rel string) (*Lock, error) {
	data, err := walk.ReadConfig(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, refusef("init: cannot read the lock %s: %v", rel, err)
	}
	return ParseLock(rel, data)
}

// ParseLock parses a lock's bytes, refusing an unknown field, another
// version, or an entry missing its path or digest.
func ParseLock(rel string, data []byte) (*Lock, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var l Lock
	if err := dec.Decode(&l); err != nil {
		return nil, refusef("init: the lock %s does not parse: %v; restore it from git or remove it", rel, err)
	}
	if l.Version != LockVersion {
		return nil, refusef("init: the lock %s is version %d; this binary reads version %d", rel, l.Version, LockVersion)
	}
	for i, f := range l.Files {
		if f.Path == "" || len(f.SHA256) != 64 {
			return nil, refusef("init: the lock %s: file entry %d lacks a path or a sha256", rel, i+1)
		}
		if _, err := repoPath("the lock's path", f.Path); err != nil {
			return nil, refusef("init: the lock %s: file entry %d: %v", rel, i+1, err)
		}
	}
	for i, f := range l.Pending {
		if f.Path == "" || len(f.SHA256) != 64 {
			return nil, refusef("init: the lock %s: pending entry %d lacks a path or a sha256", rel, i+1)
		}
		if _, err := repoPath("the lock's path", f.Path); err != nil {
			return nil, refusef("init: the lock %s: pending entry %d: %v", rel, i+1, err)
		}
	}
	for i, a := range l.PendingAppended {
		if _, err := repoPath("the lock's path", a.Path); err != nil || a.Suffix == "" {
			return nil, refusef("init: the lock %s: pending appended entry %d lacks a path inside the repository or its lines", rel, i+1)
		}
	}
	for i, a := range l.Appended {
		if _, err := repoPath("the lock's path", a.Path); err != nil || a.Suffix == "" {
			return nil, refusef("init: the lock %s: appended entry %d lacks a path inside the repository or its lines", rel, i+1)
		}
	}
	for _, d := range l.Dirs {
		if _, err := repoPath("the lock's directory", d); err != nil {
			return nil, refusef("init: the lock %s: %v", rel, err)
		}
	}
	return &l, nil
}

// Encode answers the lock's canonical bytes: entries sorted, so the same
// install always writes the same lock.
func (l *Lock) Encode() []byte {
	sort.Slice(l.Files, func(i, j int) bool { return l.Files[i].Path < l.Files[j].Path })
	sort.Strings(l.Registered)
	sort.Strings(l.Dirs)
	data, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("a lock always encodes: %v", err))
	}
	return append(data, '\n')
}
