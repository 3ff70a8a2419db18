package cli

import (
	"os"
	"strings"
	"time"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/walk"
)

// The descriptor corpus's knob names kept per declaration file (SPEC
// §edit-gates I): the `knob:*` sentinel reads every declaration the
// search dirs hold, most of them registered nowhere (Load reads the
// registered ones), and each such read was a stat, an open, a read and a
// parse on every hook call. The memo keeps the knob names each one's
// manifest carries under the file's identity (inode, device, size, mode,
// modification and change times, through a link as the read follows
// it); a file whose identity is the one recorded is not read again.

// corpusMemoName is the memo's file under the result cache's directory.
const corpusMemoName = "corpus-knobs"

// corpusMemoMagic opens a memo of this layout.
const corpusMemoMagic = "corpus-knobs 1"

// corpusSettled is how much older than now a declaration's modification
// and change times must be before its names are recorded: a file written
// again in place within its time stamps' grain would keep its identity
// (a variable so a test need not wait it out).
var corpusSettled = 2 * time.Second

// listingSettled is corpusSettled for a search dir's listing: an entry
// added, removed or renamed within the dir's time stamps' grain of the
// last would leave its times as they were.
var listingSettled = 2 * time.Second

type corpusEntry struct {
	id    string
	names []string
}

// corpusMemo is the registry's KnobNamesMemo over the memo file: read once
// when opened, written back (whole, by rename) by flush when a lookup or a
// store changed what it holds.
type corpusMemo struct {
	dir, file, head string
	kept            map[string]corpusEntry
	seen            map[string]string // path -> identity before its read
	next            map[string]corpusEntry
	// The search dirs' listings (registry.ListingMemo), as the files':
	// each dir's declaration file names under the dir's identity.
	keptDirs, nextDirs map[string]corpusEntry
	dirty              bool
}

// openCorpusMemo reads the memo in dir for this build (stamp) and this
// working directory (cwd: the declarations' paths are spelled against
// it). Anything the memo cannot read is an empty memo.
func openCorpusMemo(dir, stamp, cwd string) *corpusMemo {
	empty := func() *corpusMemo {
		return &corpusMemo{
			dir: dir, file: walk.Child(dir, corpusMemoName),
			head: corpusMemoMagic + "\x00" + stamp + "\x00" + cwd,
			kept: map[string]corpusEntry{}, seen: map[string]string{}, next: map[string]corpusEntry{},
			keptDirs: map[string]corpusEntry{}, nextDirs: map[string]corpusEntry{},
		}
	}
	m := empty()
	data, err := walk.ReadConfig(m.file)
	if err != nil {
		return m
	}
	lines := strings.Split(string(data), "\n")
	if len(lines) < 2 || lines[0] != m.head || lines[len(lines)-1] != "" {
		return m
	}
	for _, l := range lines[1 : len(lines)-1] {
		// A declaration's line: its path, identity and knob names; a
		// search dir's: "dir", its path, identity and declaration names.
		f := strings.Split(l, "\x00")
		into := m.kept
		if len(f) == 4 && f[0] == "dir" {
			f, into = f[1:], m.keptDirs
		}
		if len(f) != 3 || f[0] == "" || f[1] == "" {
			return empty()
		}
		var names []string
		if f[2] != "" {
			names = strings.Split(f[2], "\x01")
		}
		into[f[0]] = corpusEntry{id: f[1], names: names}
	}
	return m
}

// Lookup answers the names kept for path while its identity is the
// recorded one; it notes the identity either way, for Store.
func (m *corpusMemo) Lookup(path string) ([]string, bool) {
	id, ok := declID(path, time.Time{})
	if !ok {
		return nil, false
	}
	m.seen[path] = id
	e, ok := m.kept[path]
	if !ok || e.id != id {
		return nil, false
	}
	m.next[path] = e
	return e.names, true
}

// Store records the names read from path when the file kept, across the
// read, the identity Lookup noted before it, and has not moved for
// corpusSettled; else the file is read again next time.
func (m *corpusMemo) Store(path string, names []string) {
	before, ok := m.seen[path]
	if !ok || strings.ContainsAny(path, "\x00\n") {
		return
	}
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, "\x00\x01\n") {
			return
		}
	}
	id, ok := declID(path, time.Now().Add(-corpusSettled))
	if !ok || id != before {
		return
	}
	m.next[path] = corpusEntry{id: id, names: names}
	m.dirty = true
}

// Listing answers the declaration names kept for search dir while its
// identity is the recorded one: no entry of it was added, removed or
// renamed since (each moves the dir's times). It notes the identity
// either way, for StoreListing.
func (m *corpusMemo) Listing(dir string) ([]string, bool) {
	// assertion M (edit-gates): a search dir is listed again unless its
	// identity is the one its kept listing was made under.
	id, ok := declID(dir, time.Time{})
	if !ok {
		return nil, false
	}
	m.seen["dir\x00"+dir] = id
	e, ok := m.keptDirs[dir]
	if !ok || e.id != id {
		return nil, false
	}
	m.nextDirs[dir] = e
	return e.names, true
}

// StoreListing records the names listed in dir when the dir kept, across
// the listing, the identity Listing noted before it, and has not moved
// for listingSettled.
func (m *corpusMemo) StoreListing(dir string, names []string) {
	before, ok := m.seen["dir\x00"+dir]
	if !ok || dir == "" || strings.ContainsAny(dir, "\x00\n") {
		return
	}
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, "\x00\x01\n") {
			return
		}
	}
	id, ok := declID(dir, time.Now().Add(-listingSettled))
	if !ok || id != before {
		return
	}
	m.nextDirs[dir] = corpusEntry{id: id, names: names}
	m.dirty = true
}

// flush writes the memo back when a file was read and recorded, holding
// the entries this call looked up or stored (a declaration gone is
// dropped). Best effort: a memo not written costs the next call reads.
func (m *corpusMemo) flush() {
	if !m.dirty && len(m.next) == len(m.kept) && len(m.nextDirs) == len(m.keptDirs) {
		return
	}
	var b strings.Builder
	b.WriteString(m.head + "\n")
	for p, e := range m.next {
		b.WriteString(p + "\x00" + e.id + "\x00" + strings.Join(e.names, "\x01") + "\n")
	}
	for d, e := range m.nextDirs {
		b.WriteString("dir\x00" + d + "\x00" + e.id + "\x00" + strings.Join(e.names, "\x01") + "\n")
	}
	if err := os.MkdirAll(m.dir, 0o755); err != nil {
		return
	}
	_ = walk.ReplaceFile(m.file, []byte(b.String()))
}

// corpusMemoDir answers the result cache's directory under commonDir.
func corpusMemoDir(commonDir string) string { return walk.Child(commonDir, cache.SubDir) }

// declID spells a declaration file's (or directory's) identity as a read
// of it sees it, the tree memo's stamp of it (repo.FileIdentity): with
// settled set, a file either of whose times is not before it answers
// false, as does any file off Linux, where no memo is kept.
func declID(path string, settled time.Time) (string, bool) { return repo.FileIdentity(path, settled) }
