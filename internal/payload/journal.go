package payload

// The install journal: before init writes anything it records, in the lock,
// every file it is about to write and every block it is about to append
// (Pending, PendingAppended), with the directories those writes create. A
// run killed part way leaves a lock naming exactly what it may have
// written, so the next `init` finishes the install and `init --uninstall`
// removes it. Each file lands by an atomic rename, so a pending path holds
// either what was there before (absent, or init's own earlier copy) or
// init's new bytes; never a half-written file and never the adopter's.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

// settlePending turns a killed run's journal into ordinary lock entries:
// a pending file that is on disk is init's (recorded with its current
// digest and marked, so this run rewrites it even where it is a seed); a
// pending append whose bytes end the file is recorded as appended; the
// rest never happened and is dropped. A leftover temporary file of a
// pending write is removed. It answers whether the lock held a journal.
func settlePending(top string, l *Lock) (bool, error) {
	if l == nil || len(l.Pending)+len(l.PendingAppended) == 0 {
		return false, nil
	}
	// assertion J: an interrupted install is settled before anything else.
	l.settled = map[string]bool{}
	for _, f := range l.Pending {
		abs := joinTop(top, f.Path)
		if err := os.Remove(abs + tmpSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return true, fmt.Errorf("init: cannot remove the leftover %s%s: %v", f.Path, tmpSuffix, err)
		}
		d, err := FileDigest(abs)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return true, fmt.Errorf("init: cannot read %s: %v", f.Path, err)
		}
		recordFile(l, f.Path, d, f.Class)
		l.settled[f.Path] = true
	}
	for _, a := range l.PendingAppended {
		cur, err := os.ReadFile(joinTop(top, a.Path))
		if err == nil && strings.HasSuffix(string(cur), a.Suffix) && !slices.Contains(l.Appended, a) {
			l.Appended = append(l.Appended, a)
		}
	}
	l.Pending, l.PendingAppended = nil, nil
	return true, nil
}

// wasPending reports whether a killed run may have written path.
func (l *Lock) wasPending(p string) bool { return l != nil && l.settled[p] }

// journal writes the lock with every coming write recorded as pending, and
// the directories those writes will create, before any of them happens.
func journal(top, lockRel string, next *Lock, steps []step, appends map[string][]string) error {
	j := *next
	j.Files = append([]LockFile(nil), next.Files...)
	j.Dirs = append([]string(nil), next.Dirs...)
	j.Pending, j.PendingAppended = nil, nil
	for _, s := range steps {
		if s.verb == "create" || s.verb == "update" {
			j.Pending = append(j.Pending, LockFile{Path: s.path, SHA256: Digest(s.data), Class: s.class})
			plannedDirs(top, s.path, &j)
		}
	}
	for p, lines := range appends {
		cur, err := os.ReadFile(joinTop(top, p))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("init: cannot read %s: %v", p, err)
		}
		j.PendingAppended = append(j.PendingAppended, LockAppend{Path: p, Suffix: appendSuffix(cur, lines), Created: err != nil})
		plannedDirs(top, p, &j)
	}
	plannedDirs(top, lockRel, &j)
	// The directories are recorded in next too: the final lock must name
	// them, since the run below creates them.
	next.Dirs = j.Dirs
	return writeTracked(top, lockRel, j.Encode(), false, nil)
}

// plannedDirs records in l the parent directories of rel that do not exist
// yet, the ones writing rel will create.
func plannedDirs(top, rel string, l *Lock) {
	for d := path.Dir(rel); d != "." && d != "/"; d = path.Dir(d) {
		if isDir(joinTop(top, d)) {
			break
		}
		if !slices.Contains(l.Dirs, d) {
			l.Dirs = append(l.Dirs, d)
		}
	}
}

// appendSuffix is the exact bytes appendTo adds to a file holding cur.
func appendSuffix(cur []byte, lines []string) string {
	suffix := strings.Join(lines, "\n") + "\n"
	if len(cur) > 0 && cur[len(cur)-1] != '\n' {
		suffix = "\n" + suffix
	}
	return suffix
}
