package repo

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gate-sdk/gates/internal/walk"
)

// gitignoreName is the file git reads a directory's ignore rules from.
// consumer-value-exempt: git's own fixed file name, no choice of the consumer's
const gitignoreName = ".gitignore"

// The Stop's question "is the work tree clean?" answered at the cost of a
// stat per tracked file rather than a `git status` (§stop-gates, the
// harness section's tree memo). The answer in process is only ever
// "clean, vouched": every shape or doubt goes to git, whose listing then
// stands, and a clean listing leaves a memo for the next Stop.
//
// The memo holds what git's clean verdict depended on beyond the index
// entries' own stat data: each directory git descends into, with its stat
// stamp (an entry is added to or removed from a directory only by moving
// its modification time), the files the ignore rules and the config come
// from, a digest of the paths the index tracks (each with its stage) and
// the environment git ran under. While every one of them is as recorded, no
// untracked file can have appeared; the tracked files are then stat-tested
// against the index the way git tests them, and the index's cache tree
// compared with HEAD's tree for the staged side.

// treeMemoName is the memo's file in the harness state directory; the
// clock file beside it gives the file system's own time.
const (
	treeMemoName  = "tree-memo"
	treeClockName = "tree-clock"
	treeMemoHead  = "gates tree memo 4"
)

// treeMemo is a clean verdict's record (see above).
type treeMemo struct {
	env     string
	tracked string      // trackedDigest of the index at the verdict
	files   []memoStamp // stat followed: git reads these through links
	// dirs are not followed (git never descends a link); each stamp is
	// the stat stamp, " #", and the digest of the entries' names
	// (entryNames).
	dirs []memoStamp
	// skipped are the subdirectories of recorded directories that git
	// left whole as ignored, not descended: with dirs, every
	// subdirectory a recorded directory held.
	skipped []string
}

type memoStamp struct{ stamp, path string }

// ChangedMemo is Changed for the Stop: when the memo stateDir keeps from
// the last clean listing still vouches for the tree (cleanByMemo), the
// answer is nothing changed, with no git started; otherwise git lists the
// change, and a clean listing leaves a new memo there. A memo that cannot
// be read or written costs a listing, never a verdict.
func (g Git) ChangedMemo(top, stateDir string) ([]string, error) {
	memoFile := walk.Child(stateDir, treeMemoName)
	// The watcher's token is read before anything of the tree is: a clean
	// proof that follows may then be recorded under it.
	w := g.askWatch(stateDir)
	if w.vouched(g, top, stateDir) {
		return nil, nil
	}
	prev, prevOK := readTreeMemo(memoFile)
	// assertion E (stop-gates): in process the tree is only ever vouched
	// clean; anything else is git's listing.
	if prevOK {
		if p, ok := g.cleanProof(top, prev); ok {
			env := g.Env
			if env == nil {
				env = os.Environ()
			}
			w.afterProof(top, stateDir, prev, p, env)
			return nil, nil
		}
	}
	// The clock is read before git lists: whatever moved after it carries
	// a time no older than it, and is not recorded (racily clean).
	clock, clockOK := fsClock(stateDir)
	base, src, before, tracked, baseOK := g.memoBase(top)
	paths, ignoredDirs, err := g.changedIgnored(top)
	if err != nil || len(paths) > 0 || !clockOK || !baseOK {
		return paths, err
	}
	// git status may have rewritten the index (refreshing entries it had
	// to hash): its new stamp is recorded only when it tracks the same
	// paths as the index git read, so no path it untracked meanwhile is
	// taken for a tracked one.
	if !g.indexAfter(top, src, before, tracked) {
		return nil, nil
	}
	base.tracked = tracked
	var from *treeMemo
	if prevOK {
		from = &prev
	}
	if m, ok := buildMemo(top, base, ignoredDirs, clock, from); ok {
		if walk.ReplaceFile(memoFile, m.encode()) == nil {
			w.afterMemo(top, stateDir, m)
		}
	}
	return nil, nil
}

// changedIgnored is Changed that also answers the directories git left
// whole as ignored ("!! dir/" under --ignored=matching: the directory
// itself matches an ignore rule, so nothing inside it can be untracked).
func (g Git) changedIgnored(dir string) ([]string, map[string]bool, error) {
	out, err := g.run(dir, "list the uncommitted change", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=matching", "--no-renames", "--ignore-submodules=none")
	if err != nil {
		return nil, nil, err
	}
	var kept bytes.Buffer
	ignored := map[string]bool{}
	for rest := out; len(rest) > 0; {
		i := bytes.IndexByte(rest, 0)
		if i < 0 {
			break // parseStatus refuses it
		}
		rec := rest[:i+1]
		rest = rest[i+1:]
		if bytes.HasPrefix(rec, []byte("!! ")) {
			if p := string(rec[3 : len(rec)-1]); strings.HasSuffix(p, "/") {
				ignored[strings.TrimSuffix(p, "/")] = true
			}
			continue
		}
		kept.Write(rec)
	}
	paths, err := parseStatus(dir, kept.Bytes())
	return paths, ignored, err
}

// memoBase answers the parts of a memo read before git lists: false where
// the repository's shape is one the memo does not cover (a linked
// worktree, another index file, a scoped top, config the in-process
// reader cannot vouch for, a file-system monitor).
func (g Git) memoBase(top string) (m treeMemo, src IndexSource, before, tracked string, ok bool) {
	src, err := g.LocateIndex(top)
	if err != nil || src.Prefix != "" || src.CommonDir == "" || src.File != walk.Child(src.CommonDir, "index") {
		return treeMemo{}, src, "", "", false
	}
	if fi, err := os.Lstat(walk.Child(top, ".git")); err != nil || !fi.IsDir() {
		return treeMemo{}, src, "", "", false
	}
	before, _, ok = indexStamp(src.File)
	if !ok {
		return treeMemo{}, src, "", "", false
	}
	if tracked, ok = g.trackedDigest(top, src); !ok {
		return treeMemo{}, src, "", "", false
	}
	env := g.Env
	if env == nil {
		env = os.Environ()
	}
	vals, ok := walk.ConfigValues(src.CommonDir, env, "core.excludesfile", "core.fsmonitor")
	if !ok {
		return treeMemo{}, src, "", "", false
	}
	for _, v := range vals["core.fsmonitor"] {
		switch strings.ToLower(v) {
		case "false", "no", "off", "0", "":
		default:
			return treeMemo{}, src, "", "", false
		}
	}
	lookup := walk.EnvLookup(env)
	home, _ := lookup("HOME")
	xdg, _ := lookup("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = walk.Child(home, ".config")
	}
	files := []string{"/etc/gitconfig", walk.Child(src.CommonDir, "config"), walk.Child(src.CommonDir, "info/exclude")}
	if xdg != "" {
		files = append(files, walk.Child(xdg, "git/config"), walk.Child(xdg, "git/ignore"))
	}
	if home != "" {
		files = append(files, walk.Child(home, ".gitconfig"))
	}
	for _, k := range []string{"GIT_CONFIG_SYSTEM", "GIT_CONFIG_GLOBAL"} {
		if v, set := lookup(k); set && v != "" {
			files = append(files, v)
		}
	}
	for _, v := range vals["core.excludesfile"] {
		if rest, ok := strings.CutPrefix(v, "~/"); ok && home != "" {
			v = walk.Child(home, rest)
		}
		if !walk.PathRoot(v) {
			// Relative to where git runs: the top.
			v = walk.AbsAgainst(top, v)
		}
		files = append(files, v)
	}
	m = treeMemo{env: envDigest(env)}
	for _, f := range files {
		m.files = append(m.files, memoStamp{path: f})
	}
	return m, src, before, tracked, true
}

// indexAfter reports whether the index tracks now the paths it tracked
// before git listed (its stamp then, and the digest of those paths):
// unchanged, or rewritten over the same paths.
func (g Git) indexAfter(top string, src IndexSource, before, tracked string) bool {
	after, _, ok := indexStamp(src.File)
	if !ok {
		return false
	}
	if after != before {
		if now, ok := g.trackedDigest(top, src); !ok || now != tracked {
			return false
		}
	}
	return true
}

// trackedDigest names the paths the index at src tracks, each with its
// stage; false when the index cannot be decoded here.
//
// Only the names and stages are read, from the mapped file, unverified:
// the digest decides whether a memo is written, and the Stop that would
// trust the memo decodes and verifies the index itself and compares its
// entries' digest (trackedOf) with this one.
func (g Git) trackedDigest(top string, src IndexSource) (string, bool) {
	data, release, err := mapFile(src.File)
	if err != nil {
		return "", false
	}
	defer release()
	var d string
	var ok bool
	if faultGuard(func() { d, ok = indexTrackedDigest(data, src.HashLen) }) != nil {
		return "", false
	}
	return d, ok
}

// indexTrackedDigest is trackedOf over an index file's bytes: each
// entry's name (version 4's prefix compression undone) and stage, in
// file order; false for a file out of shape.
func indexTrackedDigest(data []byte, hashLen int) (string, bool) {
	if len(data) < 12+hashLen || string(data[:4]) != "DIRC" {
		return "", false
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return "", false
	}
	count := int(binary.BigEndian.Uint32(data[8:12]))
	body := data[:len(data)-hashLen]
	fixed := 40 + hashLen + 2
	h := sha1.New()
	buf := make([]byte, 0, 64<<10)
	var prev []byte
	pos := 12
	for i := 0; i < count; i++ {
		start := pos
		if pos+fixed > len(body) {
			return "", false
		}
		flags16 := uint32(binary.BigEndian.Uint16(body[pos+40+hashLen : pos+fixed]))
		pos += fixed
		if flags16&FlagExtended != 0 {
			if version < 3 || pos+2 > len(body) {
				return "", false
			}
			pos += 2
		}
		var name []byte
		if version == 4 {
			strip, n := varint(body[pos:])
			if n == 0 || strip > uint64(len(prev)) {
				return "", false
			}
			pos += n
			end := bytes.IndexByte(body[pos:], 0)
			if end < 0 {
				return "", false
			}
			name = append(prev[:len(prev)-int(strip):len(prev)-int(strip)], body[pos:pos+end]...)
			pos += end + 1
			prev = name
		} else {
			end := bytes.IndexByte(body[pos:], 0)
			if end < 0 {
				return "", false
			}
			name = body[pos : pos+end]
			pos = start + ((pos - start + end + 8) &^ 7)
		}
		if len(buf)+len(name)+2 > cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
		buf = append(append(buf, name...), 0, byte('0'+(flags16&flagStageMask)>>12))
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil)), true
}

// trackedOf digests entries' paths, each with its stage, in index order.
func trackedOf(entries []Entry) string {
	h := sha1.New()
	buf := make([]byte, 0, 64<<10)
	for _, e := range entries {
		if len(buf)+len(e.Path)+2 > cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
		buf = append(append(buf, e.Path...), 0, byte('0'+e.Stage))
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil))
}

// envDigest names the environment a listing ran under: every GIT_
// variable and what picks git and its config files.
func envDigest(env []string) string {
	var keep []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "XDG_CONFIG_HOME" || k == "PATH" || k == "PREFIX" {
			keep = append(keep, kv)
		}
	}
	sort.Strings(keep)
	h := sha1.Sum([]byte(strings.Join(keep, "\x00")))
	return hex.EncodeToString(h[:])
}

// buildMemo walks the work tree after a clean listing: every directory
// git descends into (all but .git and those ignored whole) with its stamp,
// and the stamps of base's files and of every .gitignore met. false when
// something recorded moved at or after clock (it may move again unseen
// within the time stamps' grain), when a nested repository is met (git
// would not look inside it), or when anything cannot be read.
func buildMemo(top string, base treeMemo, ignoredDirs map[string]bool, clock fileTime, prev *treeMemo) (treeMemo, bool) {
	m := base
	for i := range m.files {
		s, ok := fileStamp(m.files[i].path, true, clock)
		if !ok {
			return treeMemo{}, false
		}
		m.files[i].stamp = s
	}
	// assertion G (stop-gates): a directory whose stamp is the one the
	// last memo recorded holds the entries it held then: its
	// subdirectories (descended or skipped as ignored) are the last
	// memo's, taken without listing it again, while the environment and
	// the config and exclude files are as they were.
	var oldStamp map[string]string
	var oldChildren map[string][]string
	var oldIgnore map[string]bool // the .gitignore files the last walk met
	if prev != nil && prev.env == m.env && len(prev.files) >= len(m.files) && slices.Equal(prev.files[:len(m.files)], m.files) {
		oldStamp = make(map[string]string, len(prev.dirs))
		oldIgnore = map[string]bool{}
		for _, f := range prev.files[len(m.files):] {
			oldIgnore[f.path] = true
		}
		oldChildren = make(map[string][]string, len(prev.dirs))
		child := func(p string) {
			parent := ""
			if i := strings.LastIndexByte(p, '/'); i >= 0 {
				parent = p[:i]
			}
			oldChildren[parent] = append(oldChildren[parent], p)
		}
		for _, d := range prev.dirs {
			oldStamp[d.path] = d.stamp
			if d.path != "" {
				child(d.path)
			}
		}
		for _, p := range prev.skipped {
			child(p)
		}
	}
	gitignore := func(child string) bool {
		p := walk.Child(top, child)
		gs, ok := fileStamp(p, true, clock)
		if !ok {
			return false
		}
		if gs != "absent" {
			m.files = append(m.files, memoStamp{stamp: gs, path: p})
		}
		return true
	}
	stack := []string{""}
	for len(stack) > 0 {
		rel := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		full := top
		if rel != "" {
			full = walk.Child(top, rel)
		}
		s, ok := fileStamp(full, false, clock)
		if !ok {
			return treeMemo{}, false
		}
		m.dirs = append(m.dirs, memoStamp{stamp: s, path: rel})
		if old, ok := oldStamp[rel]; ok && strings.HasPrefix(old, s+" #") {
			m.dirs[len(m.dirs)-1].stamp = old
			// Whether a subdirectory is descended is this listing's
			// answer, never the last memo's.
			for _, child := range oldChildren[rel] {
				if ignoredDirs[child] {
					m.skipped = append(m.skipped, child)
				} else {
					stack = append(stack, child)
				}
			}
			// Its .gitignore, if the last walk met one there, is still
			// there (the directory's entries are the same); its bytes
			// are stamped anew.
			ig := gitignoreName
			if rel != "" {
				ig = rel + "/.gitignore"
			}
			if oldIgnore[walk.Child(top, ig)] && !gitignore(ig) {
				return treeMemo{}, false
			}
			continue
		}
		ents, err := os.ReadDir(full)
		if err != nil {
			return treeMemo{}, false
		}
		m.dirs[len(m.dirs)-1].stamp = s + " #" + entryNames(ents)
		for _, e := range ents {
			name := e.Name()
			child := name
			if rel != "" {
				child = rel + "/" + name
			}
			switch {
			case name == ".git" && rel == "":
				continue
			case name == ".git":
				return treeMemo{}, false
			case e.IsDir():
				if ignoredDirs[child] {
					m.skipped = append(m.skipped, child)
				} else {
					stack = append(stack, child)
				}
			case name == gitignoreName:
				if !gitignore(child) {
					return treeMemo{}, false
				}
			}
		}
	}
	return m, true
}

// entryNames digests a directory's entries as os.ReadDir lists them
// (sorted by name): each name, marked when it is a directory.
func entryNames(ents []os.DirEntry) string {
	h := sha1.New()
	for _, e := range ents {
		h.Write([]byte(e.Name()))
		if e.IsDir() {
			h.Write([]byte{'/'})
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// encode spells the memo as NUL-ended records, a kind, a stamp, a tab
// and a path (a stamp holds no tab; a path may).
func (m treeMemo) encode() []byte {
	var b bytes.Buffer
	rec := func(kind, stamp, path string) {
		b.WriteString(kind + " " + stamp + "\t" + path + "\x00")
	}
	b.WriteString(treeMemoHead + "\x00")
	rec("e", m.env, "")
	rec("t", m.tracked, "")
	for _, f := range m.files {
		rec("f", f.stamp, f.path)
	}
	for _, d := range m.dirs {
		rec("d", d.stamp, d.path)
	}
	for _, p := range m.skipped {
		rec("x", "-", p)
	}
	return b.Bytes()
}

// decodeTreeMemo reads encode's spelling; false for anything else.
func decodeTreeMemo(data []byte) (treeMemo, bool) {
	var m treeMemo
	head, rest, ok := bytes.Cut(data, []byte{0})
	if !ok || string(head) != treeMemoHead {
		return treeMemo{}, false
	}
	seen := 0
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, 0)
		if i < 0 {
			return treeMemo{}, false
		}
		rec := string(rest[:i])
		rest = rest[i+1:]
		kindStamp, path, ok := strings.Cut(rec, "\t")
		kind, stamp, ok2 := strings.Cut(kindStamp, " ")
		if !ok || !ok2 || stamp == "" {
			return treeMemo{}, false
		}
		switch kind {
		case "e":
			m.env = stamp
			seen |= 1
		case "t":
			m.tracked = stamp
			seen |= 2
		case "f":
			m.files = append(m.files, memoStamp{stamp, path})
		case "d":
			m.dirs = append(m.dirs, memoStamp{stamp, path})
		case "x":
			m.skipped = append(m.skipped, path)
		default:
			return treeMemo{}, false
		}
	}
	// The top directory is always recorded: a memo without it is not one
	// buildMemo wrote.
	if seen != 3 || len(m.dirs) == 0 || m.dirs[0].path != "" {
		return treeMemo{}, false
	}
	return m, true
}

// cleanByMemo reports whether the tree at top is vouched clean in
// process: the memo in memoFile read, the environment, the index file,
// every recorded file and directory as recorded, the index readable here
// with its cache tree equal to HEAD's tree, and every entry an ordinary
// file or link whose stat data the index may vouch for and the file on
// disk matches field for field. Any doubt answers false.
func (g Git) cleanByMemo(top, memoFile string) bool {
	m, ok := readTreeMemo(memoFile)
	return ok && g.cleanBy(top, m)
}

// readTreeMemo reads and decodes the memo file; false when there is none
// or it is not one buildMemo wrote.
func readTreeMemo(memoFile string) (treeMemo, bool) {
	data, err := os.ReadFile(memoFile)
	if err != nil {
		return treeMemo{}, false
	}
	return decodeTreeMemo(data)
}

// cleanBy is cleanByMemo over a decoded memo.
func (g Git) cleanBy(top string, m treeMemo) bool {
	_, ok := g.cleanProof(top, m)
	return ok
}

// memoProof is what a clean verdict by the memo read on the way, for a
// tree watcher's vouch (treevouch.go): the index file's stamp taken before
// it was read, HEAD's tree, and whether every tracked file lies in a
// recorded directory (so its directory, and the file itself, is watched).
type memoProof struct {
	index, tree string
	watchable   bool
}

// cleanProof is cleanBy answering what its verdict read.
func (g Git) cleanProof(top string, m treeMemo) (memoProof, bool) {
	var p memoProof
	env := g.Env
	if env == nil {
		env = os.Environ()
	}
	if m.env != envDigest(env) {
		return p, false
	}
	src, err := g.LocateIndex(top)
	if err != nil || src.Prefix != "" || src.CommonDir == "" || src.File != walk.Child(src.CommonDir, "index") || src.HashLen != sha1.Size {
		return p, false
	}
	for _, f := range m.files {
		if s, ok := fileStamp(f.path, true, fileTime{}); !ok || s != f.stamp {
			return p, false
		}
	}
	// The index is stamped before it is read: a later index is another
	// stamp, so a vouch recorded with this one never stands for it.
	p.index, _, _ = indexStamp(src.File)
	for _, d := range m.dirs {
		full := top
		if d.path != "" {
			full = walk.Child(top, d.path)
		}
		stat, names, _ := strings.Cut(d.stamp, " #")
		s, ok := fileStamp(full, false, fileTime{})
		if !ok {
			return p, false
		}
		if s == stat {
			continue
		}
		// assertion H (stop-gates): a directory that moved still vouches
		// when it holds the entries it held (a file replaced under its
		// own name, as a checkout or an editor's rename does).
		ents, err := os.ReadDir(full)
		if err != nil || entryNames(ents) != names {
			return p, false
		}
	}
	// assertion F (stop-gates): the index's stat data vouches only for
	// entries older than the index file (keepCleanStat); a racily clean
	// entry leaves the answer to git.
	idx, err := g.readIndexWith(top, src, true)
	if err != nil || idx == nil || idx.Tree == "" {
		return p, false
	}
	// The index may have been rewritten since (a commit, a refresh): what
	// the memo needs of it is the set of paths it tracks.
	if trackedOf(idx.Entries) != m.tracked {
		return p, false
	}
	if tree, ok := headTree(src.CommonDir, env); !ok || tree != idx.Tree {
		return p, false
	}
	p.tree = idx.Tree
	if !trackedStatClean(top, idx.Entries) {
		return p, false
	}
	p.watchable = p.index != "" && entriesUnder(idx.Entries, m.dirs)
	return p, true
}

// entriesUnder reports whether every entry's directory is one of dirs:
// a watcher of dirs then sees each tracked file's every change.
func entriesUnder(entries []Entry, dirs []memoStamp) bool {
	in := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		in[d.path] = true
	}
	last := "\x00"
	for i := range entries {
		dir := ""
		if j := strings.LastIndexByte(entries[i].Path, '/'); j >= 0 {
			dir = entries[i].Path[:j]
		}
		if dir == last {
			continue
		}
		if !in[dir] {
			return false
		}
		last = dir
	}
	return true
}

// headTree answers the tree of the commit HEAD names, read in process;
// false where HEAD is unborn, not a plain ref, or the object reader
// leaves the repository to git.
func headTree(common string, env []string) (string, bool) {
	data, err := os.ReadFile(walk.Child(common, "HEAD"))
	if err != nil {
		return "", false
	}
	id := strings.TrimSpace(string(data))
	if ref, ok := strings.CutPrefix(id, "ref: "); ok {
		if !plainRefName(ref) {
			return "", false
		}
		id = ""
		if loose, err := os.ReadFile(walk.Child(common, ref)); err == nil {
			id = strings.TrimSpace(string(loose))
		} else if !os.IsNotExist(err) {
			return "", false
		} else if packed, err := os.ReadFile(walk.Child(common, "packed-refs")); err == nil {
			for _, l := range strings.Split(string(packed), "\n") {
				if h, name, ok := strings.Cut(l, " "); ok && name == ref {
					id = h
					break
				}
			}
		}
	}
	if !walk.ObjectID(id) || len(id) != 2*sha1.Size {
		return "", false
	}
	o, ok := OpenObjects(common, common, env)
	if !ok {
		return "", false
	}
	c, err := o.commit(id)
	if err != nil {
		return "", false
	}
	return c.tree, true
}

// FileIdentity answers the identity of the file at p as a read of it sees
// it (through a link): its inode, device, size, mode, modification and
// change times, spelled as the tree memo spells a stamp. A file that is
// gone, cannot be stat'ed, or (with settled set) has either time at or
// after settled answers false: what moved that recently may move again
// within the grain of the time stamps. Off Linux it always answers false.
func FileIdentity(p string, settled time.Time) (string, bool) {
	var clock fileTime
	if !settled.IsZero() {
		clock = fileTime{sec: settled.Unix(), nsec: int64(settled.Nanosecond())}
	}
	s, ok := fileStamp(p, true, clock)
	if !ok || s == "absent" {
		return "", false
	}
	return s, true
}
