package repo

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gate-sdk/gates/internal/walk"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// The landed-commit judge's reads of refs and objects, answered in process
// where the repository's shape lets a plain read of its files say what git
// would (§commit-audit N). Every reader here answers ok=false, never an
// empty answer, where it cannot: the caller then asks git.

// errNoInProcess is a reader's answer for a shape it leaves to git.
var errNoInProcess = errors.New("left to git")

// Objects reads the refs and objects of one repository in process.
type Objects struct {
	gitDir, common string
	st             *filesystem.Storage
	commits        map[string]*rawCommit
	// files reads objects at the cost of the objects (packread.go); nil,
	// or an object it cannot read, leaves the read to st.
	files *objectFiles
}

// OpenObjects answers the in-process reader of the repository whose git
// dir and common dir are given (absolute), or ok=false where its shape
// asks for git: a linked worktree's own refs, alternates, a shallow clone,
// grafts, replace refs, a ref store other than files, a partial clone, an
// object format other than SHA-1, or an environment that points git at
// other objects, refs or history than the directory holds. env is the
// environment git would run under (nil: this process's).
func OpenObjects(gitDir, common string, env []string) (*Objects, bool) {
	if gitDir == "" || gitDir != common {
		return nil, false
	}
	if env == nil {
		env = os.Environ()
	}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
			"GIT_SHALLOW_FILE", "GIT_GRAFT_FILE", "GIT_NAMESPACE", "GIT_REPLACE_REF_BASE", "GIT_REF_PARANOIA":
			return nil, false
		}
	}
	for _, rel := range []string{"objects/info/alternates", "shallow", "info/grafts", "reftable", "objects/info/http-alternates"} {
		if _, err := os.Lstat(walk.Child(common, rel)); !os.IsNotExist(err) {
			return nil, false
		}
	}
	if anyReplaceRef(common) {
		return nil, false
	}
	cfg, err := os.ReadFile(walk.Child(common, "config"))
	if err != nil {
		return nil, false
	}
	low := bytes.ToLower(cfg)
	// Any extension (a ref store, a partial clone's promisor, an object
	// format) sends the reads to git, and so does an include that could
	// set one; one whose file sets none (init's own, for linked
	// worktrees' hooks path) is read past.
	for _, w := range []string{"extensions", "promisor", "partialclone"} {
		if bytes.Contains(low, []byte(w)) {
			return nil, false
		}
	}
	if bytes.Contains(low, []byte("include")) && !walk.IncludesReadPast(walk.Child(common, "config"), touchesObjects) {
		return nil, false
	}
	if packs, err := os.ReadDir(walk.Child(common, "objects/pack")); err == nil {
		for _, p := range packs {
			if strings.HasSuffix(p.Name(), ".promisor") {
				return nil, false
			}
		}
	}
	st, err := sharedStore(common)
	if err != nil {
		return nil, false
	}
	return &Objects{gitDir: gitDir, common: common, st: st, commits: map[string]*rawCommit{}, files: sharedObjectFiles(common)}, true
}

// touchesObjects reports a config file that could change how objects
// are read: an extension, a promisor or a partial clone's filter.
func touchesObjects(c *config.Config) bool {
	for _, s := range c.Sections {
		if s.IsName("extensions") {
			return true
		}
		opts := s.Options
		for _, sub := range s.Subsections {
			opts = append(append(config.Options{}, opts...), sub.Options...)
		}
		for _, o := range opts {
			if k := strings.ToLower(o.Key); strings.Contains(k, "promisor") || strings.Contains(k, "partialclone") {
				return true
			}
		}
	}
	return false
}

var stores sync.Map // common dir -> *filesystem.Storage

// sharedStore answers one object store per common dir for the process:
// the pack indexes are read once however many reads follow.
func sharedStore(common string) (*filesystem.Storage, error) {
	if st, ok := stores.Load(common); ok {
		return st.(*filesystem.Storage), nil
	}
	st, err := objectStore(common)
	if err != nil {
		return nil, err
	}
	stores.Store(common, st)
	return st, nil
}

// raw answers an object's type and bytes.
func (o *Objects) raw(id string) (plumbing.ObjectType, []byte, error) {
	if !walk.ObjectID(id) || len(id) != 2*sha1.Size {
		return plumbing.InvalidObject, nil, errNoInProcess
	}
	if o.files != nil {
		if t, data, err := o.files.read(id); err == nil {
			return t, data, nil
		}
	}
	obj, err := o.st.EncodedObject(plumbing.AnyObject, plumbing.NewHash(id))
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	r, err := obj.Reader()
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	return obj.Type(), data, nil
}

// has reports whether the object store holds id.
func (o *Objects) has(id string) bool {
	if !walk.ObjectID(id) || len(id) != 2*sha1.Size {
		return false
	}
	if o.files != nil && o.files.has(id) {
		return true
	}
	return o.st.HasEncodedObject(plumbing.NewHash(id)) == nil
}

// Tips answers what `git show-ref --head` lists: HEAD when it resolves,
// then every ref by name, loose ones over packed ones, a symbolic ref at
// the id it resolves to. ok is false for anything that listing would
// treat otherwise than a plain read: a ref name git would refuse, a
// record it cannot parse, a symbolic ref that does not resolve, a ref at
// an object the store lacks (show-ref refuses the listing then).
func (o *Objects) Tips() ([]Tip, bool) {
	refs := map[string]string{} // name -> raw content: an id or "ref: <target>"
	if data, err := os.ReadFile(walk.Child(o.common, "packed-refs")); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if l == "" || l[0] == '#' || l[0] == '^' {
				continue
			}
			id, name, found := strings.Cut(l, " ")
			if !found || !walk.ObjectID(id) || !plainRefName(name) {
				return nil, false
			}
			refs[name] = id
		}
	} else if !os.IsNotExist(err) {
		return nil, false
	}
	ok := true
	var walkDir func(rel string)
	walkDir = func(rel string) {
		ents, err := os.ReadDir(walk.Child(o.common, rel))
		if err != nil {
			ok = false
			return
		}
		for _, e := range ents {
			name := rel + "/" + e.Name()
			switch {
			case e.IsDir():
				walkDir(name)
			case e.Type().IsRegular():
				if !plainRefName(name) {
					ok = false
					return
				}
				data, err := os.ReadFile(walk.Child(o.common, name))
				if err != nil {
					ok = false
					return
				}
				refs[name] = strings.TrimRight(string(data), "\n")
			default:
				ok = false
				return
			}
			if !ok {
				return
			}
		}
	}
	walkDir("refs")
	if !ok {
		return nil, false
	}
	resolve := func(content string) (string, bool) {
		for depth := 0; depth < 5; depth++ {
			target, sym := strings.CutPrefix(content, "ref: ")
			if !sym {
				if walk.ObjectID(content) && len(content) == 2*sha1.Size && o.has(content) {
					return content, true
				}
				return "", false
			}
			next, found := refs[target]
			if !found {
				return "", false
			}
			content = next
		}
		return "", false
	}
	var tips []Tip
	head, err := os.ReadFile(walk.Child(o.gitDir, "HEAD"))
	if err != nil {
		return nil, false
	}
	hc := strings.TrimRight(string(head), "\n")
	if target, sym := strings.CutPrefix(hc, "ref: "); sym {
		if _, found := refs[target]; found {
			id, resolved := resolve(hc)
			if !resolved {
				return nil, false
			}
			tips = append(tips, Tip{Ref: "HEAD", ID: id})
		} else if !strings.HasPrefix(target, "refs/") {
			return nil, false
		}
		// An unborn branch: show-ref lists no HEAD.
	} else {
		id, resolved := resolve(hc)
		if !resolved {
			return nil, false
		}
		tips = append(tips, Tip{Ref: "HEAD", ID: id})
	}
	names := make([]string, 0, len(refs))
	for n := range refs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		id, resolved := resolve(refs[n])
		if !resolved {
			return nil, false
		}
		tips = append(tips, Tip{Ref: n, ID: id})
	}
	return tips, true
}

// plainRefName reports a ref name any git reads as written: refs/ and
// components of letters, digits, '-', '_', '.' and '/', none starting
// with '.' or ending in ".lock".
func plainRefName(name string) bool {
	if !strings.HasPrefix(name, "refs/") {
		return false
	}
	for _, c := range strings.Split(name, "/") {
		if c == "" || c[0] == '.' || strings.HasSuffix(c, ".lock") {
			return false
		}
		for i := 0; i < len(c); i++ {
			b := c[i]
			if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '_' || b == '.') {
				return false
			}
		}
	}
	return true
}

// rawCommit is what the judge reads of a commit object.
type rawCommit struct {
	id      string
	tree    string
	parents []string
	date    int64 // the committer's
	message string
	flags   uint8
	parsed  bool
}

const (
	flagSeen = 1 << iota
	flagUninteresting
)

// commit reads and parses commit id once.
func (o *Objects) commit(id string) (*rawCommit, error) {
	c := o.commits[id]
	if c == nil {
		c = &rawCommit{id: id}
		o.commits[id] = c
	}
	if c.parsed {
		return c, nil
	}
	typ, data, err := o.raw(id)
	if err != nil {
		return nil, err
	}
	if typ != plumbing.CommitObject {
		return nil, errNoInProcess
	}
	head, msg, found := bytes.Cut(data, []byte("\n\n"))
	if !found {
		// A commit with no message: its header ends the object.
		head, msg = bytes.TrimSuffix(data, []byte("\n")), nil
	}
	for i, l := range strings.Split(string(head), "\n") {
		key, val, _ := strings.Cut(l, " ")
		switch {
		case i == 0:
			if key != "tree" || !walk.ObjectID(val) {
				return nil, errNoInProcess
			}
			c.tree = val
		case key == "parent":
			// git reads the parent lines that follow the tree line only.
			if !walk.ObjectID(val) || i != len(c.parents)+1 {
				return nil, errNoInProcess
			}
			c.parents = append(c.parents, val)
		case key == "committer":
			f := strings.Fields(val[strings.LastIndexByte(val, '>')+1:])
			if len(f) != 2 {
				return nil, errNoInProcess
			}
			d, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				return nil, errNoInProcess
			}
			c.date = d
		case key == "encoding":
			// git log re-encodes such a message: left to git.
			return nil, errNoInProcess
		}
	}
	c.message = string(msg)
	c.parsed = true
	return c, nil
}

// CommitMeta is what `git log -1 --format=%s%x00%P%x00%B` answers of one
// commit, without the abbreviated id.
type CommitMeta struct {
	Subject string
	Parents []string
	Message string
	Tree    string
}

// Meta reads commit id's subject (the first paragraph's lines, trailing
// blanks cut, joined by spaces, as %s), parents and raw message.
func (o *Objects) Meta(id string) (CommitMeta, bool) {
	c, err := o.commit(id)
	if err != nil {
		return CommitMeta{}, false
	}
	return CommitMeta{Subject: subjectOf(c.message), Parents: append([]string(nil), c.parents...), Message: c.message, Tree: c.tree}, true
}

// subjectOf is git's %s of a raw message.
func subjectOf(msg string) string {
	lines := strings.SplitAfter(msg, "\n")
	i := 0
	for i < len(lines) && lines[i] != "" && strings.TrimRight(lines[i], " \t\n\v\f\r") == "" {
		i++
	}
	var parts []string
	for ; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t\n\v\f\r")
		if l == "" {
			break
		}
		parts = append(parts, l)
	}
	return strings.Join(parts, " ")
}

// walkBudget bounds the commits one in-process listing reads before it
// leaves the listing to git.
const walkBudget = 4096

// Commits answers what `git rev-list [--max-age=since] --stdin` answers
// for include and ^exclude (git's limited walk: commits by committer
// date, newest first, the walk ending once only excluded commits remain
// after a few more), or ok=false when an id is not a commit the store
// holds or the walk passes walkBudget commits.
func (o *Objects) Commits(include, exclude []string, since int64) ([]string, bool) {
	if len(exclude) == 0 {
		// git's unlimited walk orders and stops otherwise: left to it.
		return nil, false
	}
	for _, c := range o.commits {
		c.flags = 0
	}
	var start []*rawCommit
	add := func(id string, neg bool) bool {
		c, err := o.commit(id)
		if err != nil {
			return false
		}
		if neg {
			c.flags |= flagUninteresting
		}
		if c.flags&flagSeen == 0 {
			c.flags |= flagSeen
			start = append(start, c)
		}
		return true
	}
	for _, id := range include {
		if !add(id, false) {
			return nil, false
		}
	}
	for _, id := range exclude {
		if !add(id, true) {
			return nil, false
		}
	}
	read := 0
	markParents := func(c *rawCommit) {
		stack := []*rawCommit{c}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !x.parsed {
				continue
			}
			for _, p := range x.parents {
				pc := o.commits[p]
				if pc == nil {
					pc = &rawCommit{id: p}
					o.commits[p] = pc
				}
				if pc.flags&flagUninteresting != 0 {
					continue
				}
				pc.flags |= flagUninteresting
				stack = append(stack, pc)
			}
		}
	}
	for _, c := range start {
		if c.flags&flagUninteresting != 0 {
			markParents(c)
		}
	}
	// The list by date, newest first, an equal date after those already
	// in it (git's insertion by date); the start sorted stably.
	list := append([]*rawCommit(nil), start...)
	sort.SliceStable(list, func(i, j int) bool { return list[i].date > list[j].date })
	insert := func(c *rawCommit) {
		i := sort.Search(len(list), func(i int) bool { return list[i].date < c.date })
		list = append(list, nil)
		copy(list[i+1:], list[i:])
		list[i] = c
	}
	const slopMax = 5
	slop := slopMax
	var date int64 = 1<<63 - 1
	var out []*rawCommit
	for len(list) > 0 {
		c := list[0]
		list = list[1:]
		if since != 0 && c.date < since {
			c.flags |= flagUninteresting
		}
		// The parents, read and queued.
		for _, p := range c.parents {
			if read++; read > walkBudget {
				return nil, false
			}
			pc, err := o.commit(p)
			if err != nil {
				return nil, false
			}
			if c.flags&flagUninteresting != 0 {
				pc.flags |= flagUninteresting
				if len(pc.parents) > 0 {
					markParents(pc)
				}
			}
			if pc.flags&flagSeen == 0 {
				pc.flags |= flagSeen
				insert(pc)
			}
		}
		if c.flags&flagUninteresting != 0 {
			markParents(c)
			// still_interesting
			switch {
			case len(list) == 0:
				slop = 0
			case date <= list[0].date:
				slop = slopMax
			case !allUninteresting(list):
				slop = slopMax
			default:
				slop--
			}
			if slop > 0 {
				continue
			}
			break
		}
		date = c.date
		out = append(out, c)
	}
	var ids []string
	for _, c := range out {
		if c.flags&flagUninteresting == 0 {
			ids = append(ids, c.id)
		}
	}
	return ids, true
}

func allUninteresting(list []*rawCommit) bool {
	for _, c := range list {
		if c.flags&flagUninteresting == 0 {
			return false
		}
	}
	return true
}

// treeEntry is one record of a tree object, its mode canonical.
type treeEntry struct {
	name string
	mode uint32
	id   string
}

func (o *Objects) tree(id string) ([]treeEntry, error) {
	typ, data, err := o.raw(id)
	if err != nil {
		return nil, err
	}
	if typ != plumbing.TreeObject {
		return nil, errNoInProcess
	}
	var out []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		if sp < 0 {
			return nil, errNoInProcess
		}
		mode, err := strconv.ParseUint(string(data[:sp]), 8, 32)
		if err != nil {
			return nil, errNoInProcess
		}
		data = data[sp+1:]
		nul := bytes.IndexByte(data, 0)
		if nul <= 0 || len(data) < nul+1+sha1.Size {
			return nil, errNoInProcess
		}
		name := string(data[:nul])
		m := CanonMode(uint32(mode))
		switch m {
		case ModeRegular, ModeExecutable, ModeSymlink, ModeGitlink, modeTree:
		default:
			return nil, errNoInProcess
		}
		e := treeEntry{name: name, mode: m, id: hex.EncodeToString(data[nul+1 : nul+1+sha1.Size])}
		// git's diff-tree walks a tree's entries as stored; a tree out of
		// its order, or naming one entry twice, gets an answer from git
		// that the ordered walk here would not give: left to git.
		if len(out) > 0 && treeKey(out[len(out)-1]) >= treeKey(e) {
			return nil, errNoInProcess
		}
		out = append(out, e)
		data = data[nul+1+sha1.Size:]
	}
	return out, nil
}

const modeTree = 0o040000

// treeKey is an entry's place in git's tree order: a tree's name sorts as
// if it ended in '/'.
func treeKey(e treeEntry) string {
	if e.mode == modeTree {
		return e.name + "/"
	}
	return e.name
}

// Changes answers what `git diff-tree -r --raw --no-renames` answers
// between base's tree and rev's (base "" for a root commit: every path
// added), in git's order, or ok=false where the objects cannot be read.
func (o *Objects) Changes(base, rev string) ([]Change, bool) {
	c, err := o.commit(rev)
	if err != nil {
		return nil, false
	}
	from := ""
	if base != "" {
		b, err := o.commit(base)
		if err != nil {
			return nil, false
		}
		from = b.tree
	}
	var out []Change
	if err := o.diffTrees(from, c.tree, "", &out); err != nil {
		return nil, false
	}
	return out, true
}

func (o *Objects) diffTrees(a, b, prefix string, out *[]Change) error {
	if a == b {
		return nil
	}
	var ea, eb []treeEntry
	var err error
	if a != "" {
		if ea, err = o.tree(a); err != nil {
			return err
		}
	}
	if b != "" {
		if eb, err = o.tree(b); err != nil {
			return err
		}
	}
	// Both lists in git's order (tree refuses a tree out of it).
	gone := func(e treeEntry) error {
		if e.mode == modeTree {
			return o.diffTrees(e.id, "", prefix+e.name+"/", out)
		}
		*out = append(*out, Change{Path: prefix + e.name, Status: 'D', OldMode: e.mode})
		return nil
	}
	came := func(e treeEntry) error {
		if e.mode == modeTree {
			return o.diffTrees("", e.id, prefix+e.name+"/", out)
		}
		*out = append(*out, Change{Path: prefix + e.name, Status: 'A', NewMode: e.mode})
		return nil
	}
	i, j := 0, 0
	for i < len(ea) || j < len(eb) {
		switch {
		case j == len(eb) || i < len(ea) && treeKey(ea[i]) < treeKey(eb[j]):
			err = gone(ea[i])
			i++
		case i == len(ea) || treeKey(eb[j]) < treeKey(ea[i]):
			err = came(eb[j])
			j++
		default:
			x, y := ea[i], eb[j]
			i, j = i+1, j+1
			switch {
			case x.mode == modeTree:
				err = o.diffTrees(x.id, y.id, prefix+x.name+"/", out)
			case x.id == y.id && x.mode == y.mode:
			case x.mode&0o170000 != y.mode&0o170000:
				*out = append(*out, Change{Path: prefix + x.name, Status: 'T', OldMode: x.mode, NewMode: y.mode})
			default:
				*out = append(*out, Change{Path: prefix + x.name, Status: 'M', OldMode: x.mode, NewMode: y.mode})
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}
