package cli

import (
	"bytes"
	"compress/zlib"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gate-sdk/gates/internal/githook"
	"github.com/gate-sdk/gates/internal/harness"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// hookRepo is the harness members' reader of the repository at top.
type hookRepo struct {
	s   *Session
	top string
	// dirs are the git dirs, asked of git once per call.
	dirs *gitDirsOnce
	// objs is the in-process reader of refs and objects, opened once.
	objs *objectsOnce
	// tip is the configuration a foreign tree is judged with, found once.
	tip *tipOnce
}

type gitDirsOnce struct {
	once           sync.Once
	gitDir, common string
	err            error
}

type objectsOnce struct {
	once sync.Once
	o    *repo.Objects
	ok   bool
}

func newHookRepo(s *Session, top string) hookRepo {
	return hookRepo{s: s, top: top, dirs: &gitDirsOnce{}, objs: &objectsOnce{}, tip: &tipOnce{}}
}

// objects answers the in-process reader of the clone's refs and objects,
// or false where its shape leaves those reads to git (§commit-audit N).
func (r hookRepo) objects() (*repo.Objects, bool) {
	if r.objs == nil {
		return nil, false
	}
	r.objs.once.Do(func() {
		gd, common, err := r.gitDirs()
		if err != nil {
			return
		}
		r.objs.o, r.objs.ok = repo.OpenObjects(gd, common, nil)
	})
	return r.objs.o, r.objs.ok
}

// gitDirs answers the git dir and the common dir, absolute.
func (r hookRepo) gitDirs() (string, string, error) {
	r.dirs.once.Do(func() {
		// The common case needs no git: a top whose .git is a directory
		// (no GIT_DIR in the hook's environment) is both.
		gitDirSet := true
		if r.s.Env != nil {
			_, gitDirSet = r.s.Env("GIT_DIR")
		}
		if !gitDirSet {
			dot := walk.Child(r.top, ".git")
			if fi, err := os.Lstat(dot); err == nil && fi.IsDir() {
				if c, err := walk.Canonicalize(dot); err == nil {
					r.dirs.gitDir, r.dirs.common = walk.NormalizeAbs(c), walk.NormalizeAbs(c)
					return
				}
			}
		}
		r.dirs.gitDir, r.dirs.common, r.dirs.err = walk.GitDirs(r.top, nil)
	})
	return r.dirs.gitDir, r.dirs.common, r.dirs.err
}

// noReplace turns off git's replace refs: the judge reads the history as
// written, so a red commit hidden behind `git replace --graft` (or a tree
// or blob swapped by `git replace`) is still seen.
const noReplace = "GIT_NO_REPLACE_OBJECTS=1"

// asWritten is git with replace refs off (noReplace).
func asWritten() repo.Git { return repo.Git{Env: append(os.Environ(), noReplace)} }

// LocalOnly reports that rel's index entry carries skip-worktree while no
// sparse checkout is on (harness.SkipWorktree). Anything it cannot read
// answers false: the edit is judged.
func (r hookRepo) LocalOnly(rel string) bool {
	_, common, err := r.gitDirs()
	if err != nil {
		return false
	}
	vals, ok := walk.ConfigValues(common, os.Environ(), "core.sparseCheckout")
	if !ok {
		return false
	}
	if v := vals["core.sparseCheckout"]; len(v) > 0 && !strings.EqualFold(strings.TrimSpace(v[len(v)-1]), "false") {
		return false
	}
	entries, err := repo.Git{}.Index(r.top)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Path == rel {
			return e.Stage == 0 && e.SkipWorktree()
		}
	}
	return false
}

// StateDirName is the directory under the git dir the harness members
// keep their per-session state in.
const StateDirName = "gates-agent"

// binSpelling answers the binary as the repair command names it.
func (r hookRepo) binSpelling() string {
	set, err := r.s.Knobs()
	if err == nil {
		if v, err := set.Scalar("GATE_SDK_NATIVE_BIN"); err == nil && v != "" {
			return v
		}
	}
	return "gates"
}

func (r hookRepo) Hooks() (harness.HooksState, error) {
	p, err := githook.CheckPlaced(r.top)
	if err != nil {
		// assertion W: a placed-hooks record (or hooks path) that does not
		// read is no proof the hooks serve: a problem, with the repair
		// that writes the record again, never a comparison skipped.
		return harness.HooksState{OptedIn: true, Problems: []string{err.Error()}, Repair: r.binSpelling() + " --install-hooks"}, nil
	}
	st := harness.HooksState{OptedIn: p.OptedIn, Problems: p.Problems, Other: p.Other}
	if p.OptedIn && len(p.Problems) == 0 {
		// The hooks are the placed ones: the binary they start must be
		// the recorded build too (§The launcher X).
		if why, repair := r.binaryFooting(p.Resolved); why != "" {
			st.Problems, st.Repair = []string{why}, repair
			return st, nil
		}
	}
	if len(p.Problems) > 0 {
		// The knobs are read only to name the repair.
		bin := r.binSpelling()
		st.Repair = bin + " " + p.Repair
		if p.Other != "" && walk.NormalizeAbs(p.Other) == walk.NormalizeAbs(p.Ours) {
			// Another manager installed over the placed hooks in their own
			// directory, keeping them as <name>.old (lefthook's way).
			st.Chain = fmt.Sprintf("Its install kept the gates' hooks beside its own as pre-commit.old and commit-msg.old, which it does not run. To keep its hooks and run the gates as well, call the gates from its configuration: a pre-commit command `%s --git-hook pre-commit` and a commit-msg command `%s --git-hook commit-msg {1}` (for lefthook, in lefthook.yml). Only if its hooks should go, `%s --install-hooks` puts the gates' hooks back. This is the operator's choice: tell them.", bin, bin, bin)
		} else if p.Other != "" {
			st.Chain = fmt.Sprintf("To keep those hooks and run the gates as well, call the gates from them: add `%s --git-hook pre-commit` to the pre-commit hook and `%s --git-hook commit-msg \"$1\"` to the commit-msg hook that directory runs (for husky, .husky/pre-commit and .husky/commit-msg). Only if those hooks should go, `%s --install-hooks --take-over` puts the gates' hooks in their place (and `--restore` brings them back). This is the operator's choice: tell them.", bin, bin, bin)
		}
	}
	return st, nil
}

func (r hookRepo) Tips() ([]harness.Tip, error) {
	var tips []repo.Tip
	var err error
	// assertion N (commit-audit): the refs read in process where a plain
	// read answers as show-ref would; git lists them otherwise.
	if o, ok := r.objects(); ok {
		if tips, ok = o.Tips(); !ok {
			tips, err = repo.Git{}.Tips(r.top)
		}
	} else {
		tips, err = repo.Git{}.Tips(r.top)
	}
	if err != nil {
		// show-ref refuses the whole listing over one broken ref; the
		// refs git can read still say where the commits are.
		var ok bool
		if tips, ok = readableTips(r.top); !ok {
			return nil, err
		}
	}
	out := make([]harness.Tip, len(tips))
	for i, t := range tips {
		out[i] = harness.Tip{Ref: t.Ref, ID: t.ID}
	}
	return append(out, r.worktreeHeads()...), nil
}

// readableTips lists HEAD and every ref git can read, skipping the broken
// ones as for-each-ref does, in show-ref --head's order (HEAD, then refs by
// name).
func readableTips(top string) ([]repo.Tip, bool) {
	g := repo.Git{}
	out, err := g.Run(top, "list the readable refs", nil, "for-each-ref", "--format=%(objectname) %(refname)")
	if err != nil {
		return nil, false
	}
	var tips []repo.Tip
	if head, err := g.Run(top, "read HEAD", nil, "rev-parse", "-q", "--verify", "HEAD"); err == nil {
		if id := strings.TrimSpace(string(head)); walk.ObjectID(id) {
			tips = append(tips, repo.Tip{Ref: "HEAD", ID: id})
		}
	}
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if id, ref, ok := strings.Cut(l, " "); ok && walk.ObjectID(id) {
			tips = append(tips, repo.Tip{Ref: ref, ID: id})
		}
	}
	return tips, true
}

// worktreeHeads answers the detached HEADs of the linked worktrees (read
// from their HEAD files, no git started): a commit made there lands on no
// ref, and is this repository's all the same. A HEAD on a branch is
// already among the refs; an unreadable entry is skipped.
func (r hookRepo) worktreeHeads() []harness.Tip {
	var out []harness.Tip
	for _, e := range r.linkedWorktrees() {
		if id := strings.TrimSpace(string(e.head)); walk.ObjectID(id) {
			out = append(out, harness.Tip{Ref: "worktrees/" + e.name + "/HEAD", ID: id})
		}
	}
	return out
}

// linkedWorktree is one entry under <common>/worktrees: its name, its HEAD
// file's bytes and its gitdir file's (gitdirOK false when that one is
// unreadable).
type linkedWorktree struct {
	name         string
	head, gitdir []byte
	gitdirOK     bool
}

// linkedWorktrees reads the entries under <common>/worktrees whose HEAD
// file reads, no git started.
func (r hookRepo) linkedWorktrees() []linkedWorktree {
	_, common, err := r.gitDirs()
	if err != nil {
		return nil
	}
	dir := walk.Child(common, "worktrees")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []linkedWorktree
	for _, e := range ents {
		at := walk.Child(dir, e.Name())
		head, err := walk.ReadConfig(walk.Child(at, "HEAD"))
		if err != nil {
			continue
		}
		gitdir, err := walk.ReadConfig(walk.Child(at, "gitdir"))
		out = append(out, linkedWorktree{name: e.Name(), head: head, gitdir: gitdir, gitdirOK: err == nil})
	}
	return out
}

// MadeSince answers the commits written as loose objects after since
// (their files newer; an object directory not changed since is not
// read), less a stash's own commits (`WIP on`/`On` over an `index on`
// commit, and that index and untracked-files commit): what a command
// wrote, whether or not a ref holds it now.
func (r hookRepo) MadeSince(since time.Time) ([]string, error) {
	_, common, err := r.gitDirs()
	if err != nil {
		return nil, err
	}
	objdir := walk.Child(common, "objects")
	var out []string
	// Each new loose commit's parents and subject, read as it is found,
	// for the stash's own commits below.
	metas := map[string]commitMeta{}
	for i := 0; i < 256; i++ {
		sub := strconv.FormatInt(int64(i>>4), 16) + strconv.FormatInt(int64(i&15), 16)
		d := filepath.Join(objdir, sub)
		fi, err := os.Stat(d)
		if err != nil || !fi.ModTime().After(since) {
			continue
		}
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			info, err := e.Info()
			if err != nil || !info.ModTime().After(since) || !walk.ObjectID(sub+e.Name()) {
				continue
			}
			if m, ok := looseCommitMeta(filepath.Join(d, e.Name())); ok {
				out = append(out, sub+e.Name())
				metas[sub+e.Name()] = m
			}
		}
	}
	// assertion P: a commit written into a pack counts as a loose one
	// does, less what a tip reaches and what a reflog entry older than
	// the command names (a gc or repack moves old commits into a new
	// pack; they were not made now).
	packed, err := r.packCommits(objdir, since)
	if err != nil {
		return nil, err
	}
	if len(packed) > 0 {
		tips, err := r.Tips()
		if err != nil {
			return nil, err
		}
		var excl []string
		for _, t := range tips {
			excl = append(excl, t.ID)
		}
		if packed, err = r.unreached(packed, excl); err != nil {
			return nil, err
		}
		if len(packed) > 0 {
			_, common, _ := r.gitDirs()
			// A reflog naming a commit that is gone makes no listing:
			// then the reflogs set nothing apart.
			if fewer, err := r.unreached(packed, append(excl, r.oldReflogIDs(common, since)...)); err == nil {
				packed = fewer
			}
		}
		seen := map[string]bool{}
		for _, id := range out {
			seen[id] = true
		}
		for _, id := range packed {
			if !seen[id] {
				out = append(out, id)
			}
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	// The subjects and parents of packed ones (rare: a fast-import or a
	// repack in the command): one git answer, asked only for them.
	var unread []string
	for _, id := range out {
		if _, ok := metas[id]; !ok {
			unread = append(unread, id)
		}
	}
	if len(unread) > 0 {
		args := append([]string{"log", "--no-walk=unsorted", "--format=%H%x00%P%x00%s"}, unread...)
		data, err := asWritten().Run(r.top, "read the new commits' subjects", nil, args...)
		if err != nil {
			return out, nil // judged as any new commit
		}
		for _, l := range strings.Split(string(data), "\n") {
			f := strings.SplitN(l, "\x00", 3)
			if len(f) == 3 {
				metas[f[0]] = commitMeta{strings.Fields(f[1]), f[2]}
			}
		}
	}
	meta := func(id string) commitMeta {
		if m, ok := metas[id]; ok {
			return m
		}
		// A stash's index commit written before the look began.
		if walk.ObjectID(id) {
			if m, ok := looseCommitMeta(filepath.Join(objdir, id[:2], id[2:])); ok {
				return m
			}
		}
		return commitMeta{}
	}
	stash := func(id string) bool {
		m := meta(id)
		if strings.HasPrefix(m.subject, "index on ") || strings.HasPrefix(m.subject, "untracked files on ") {
			return true
		}
		return (strings.HasPrefix(m.subject, "WIP on ") || strings.HasPrefix(m.subject, "On ")) && len(m.parents) >= 2 &&
			strings.HasPrefix(meta(m.parents[1]).subject, "index on ")
	}
	keep := out[:0]
	for _, id := range out {
		if !stash(id) {
			keep = append(keep, id)
		}
	}
	return keep, nil
}

// SquashSplits reads each commit's message (in process where the objects
// read, else one git answer for them all) and answers the library commit
// that git subtree's squash commits among them name.
func (r hookRepo) SquashSplits(ids []string) []string {
	var out, unread []string
	o, ok := r.objects()
	for _, id := range ids {
		if ok {
			if m, read := o.Meta(id); read {
				if split, is := subtreeSplit(m.Message); is {
					out = append(out, split)
				}
				continue
			}
		}
		unread = append(unread, id)
	}
	if len(unread) > 0 {
		args := append([]string{"log", "--no-walk=unsorted", "--format=%B%x00"}, unread...)
		if data, err := asWritten().Run(r.top, "read the new commits' messages", nil, args...); err == nil {
			for _, msg := range strings.Split(string(data), "\x00") {
				if split, is := subtreeSplit(strings.TrimLeft(msg, "\n")); is {
					out = append(out, split)
				}
			}
		}
	}
	return out
}

// subtreeSplit answers the library commit a squash commit's message names
// (git subtree writes "Squashed '<dir>/' content from commit <short>" or
// "... changes from <a>..<b>", then git-subtree-dir and git-subtree-split
// lines); false for any other message.
func subtreeSplit(msg string) (string, bool) {
	subject, _, _ := strings.Cut(msg, "\n")
	dir, rest, ok := strings.Cut(strings.TrimPrefix(subject, "Squashed '"), "/' ")
	if !ok || !strings.HasPrefix(subject, "Squashed '") ||
		!(strings.HasPrefix(rest, "content from commit ") || strings.HasPrefix(rest, "changes from ")) {
		return "", false
	}
	var split string
	hasDir := false
	for _, l := range strings.Split(msg, "\n") {
		if v, ok := strings.CutPrefix(l, "git-subtree-dir: "); ok {
			hasDir = hasDir || strings.TrimRight(strings.TrimSpace(v), "/") == dir
		}
		if v, ok := strings.CutPrefix(l, "git-subtree-split: "); ok {
			split = strings.TrimSpace(v)
		}
	}
	if !hasDir || !walk.ObjectID(split) {
		return "", false
	}
	// The subject's short id is the split's own.
	short := rest[strings.LastIndexAny(rest, " .")+1:]
	if short == "" || !strings.HasPrefix(split, short) {
		return "", false
	}
	return split, true
}

// unreached answers the ids no commit of excl reaches.
func (r hookRepo) unreached(ids, excl []string) ([]string, error) {
	left, _, err := r.Commits(ids, excl, 0, len(ids)+1)
	if err != nil {
		return nil, err
	}
	in := map[string]bool{}
	for _, id := range ids {
		in[id] = true
	}
	var out []string
	for _, id := range left {
		if in[id] {
			out = append(out, id)
		}
	}
	return out, nil
}

// commitMeta is what the stash filter reads of a commit.
type commitMeta struct {
	parents []string
	subject string
}

// looseCommitMeta reads a loose object file that holds a commit: its
// parents and its subject (the message's first line), inflated in
// process; false for any other object or an unreadable file. At most
// looseCommitCap bytes are inflated: a subject past them reads as empty.
func looseCommitMeta(p string) (commitMeta, bool) {
	f, err := os.Open(p)
	if err != nil {
		return commitMeta{}, false
	}
	defer f.Close()
	z, err := zlib.NewReader(f)
	if err != nil {
		return commitMeta{}, false
	}
	defer z.Close()
	data, err := io.ReadAll(io.LimitReader(z, looseCommitCap))
	head, body, ok := bytes.Cut(data, []byte{0})
	if !ok || !bytes.HasPrefix(head, []byte("commit ")) {
		// Not a commit, or so damaged its header does not inflate: git
		// cannot read it either, so no ref can have been pushed with it.
		return commitMeta{}, false
	}
	if err != nil {
		// A commit whose body is damaged past its header is still a
		// commit written now: judged as one, with no stash subject read.
		return commitMeta{}, true
	}
	var m commitMeta
	hdr, msg, _ := bytes.Cut(body, []byte("\n\n"))
	for _, l := range bytes.Split(hdr, []byte("\n")) {
		if id, ok := bytes.CutPrefix(l, []byte("parent ")); ok {
			m.parents = append(m.parents, string(id))
		}
	}
	subject, _, _ := bytes.Cut(msg, []byte("\n"))
	m.subject = string(subject)
	return m, true
}

// looseCommitCap bounds what looseCommitMeta inflates of one object.
const looseCommitCap = 1 << 20

// Worktrees answers each linked worktree's directory and its HEAD: the
// ref it is on, or the commit of a detached one (read from the entries
// under <common>/worktrees, no git started); an unreadable entry is
// skipped.
func (r hookRepo) Worktrees() []harness.Worktree {
	var out []harness.Worktree
	for _, e := range r.linkedWorktrees() {
		if !e.gitdirOK {
			continue
		}
		w := harness.Worktree{Dir: filepath.Dir(strings.TrimSpace(string(e.gitdir)))}
		h := strings.TrimSpace(string(e.head))
		if ref, ok := strings.CutPrefix(h, "ref: "); ok {
			w.Ref = strings.TrimSpace(ref)
		} else if walk.ObjectID(h) {
			w.ID = h
		} else {
			continue
		}
		out = append(out, w)
	}
	return out
}

func (r hookRepo) Commits(include, exclude []string, since int64, max int) ([]string, bool, error) {
	if len(include) == 0 {
		return nil, false, nil
	}
	if o, ok := r.objects(); ok {
		if ids, ok := o.Commits(include, exclude, since); ok {
			if len(ids) > max {
				return ids[:max], true, nil
			}
			return ids, false, nil
		}
	}
	return asWritten().Commits(r.top, include, exclude, since, max)
}

// Fetched reads FETCH_HEAD's ids and, for each remote-tracking tip, the
// newest line of its reflog: a tip a fetch, pull or clone wrote last is
// others' work as it arrived. A ref with no reflog file is not counted.
func (r hookRepo) Fetched(tips []harness.Tip) ([]string, error) {
	gd, common, err := r.gitDirs()
	if err != nil {
		return nil, err
	}
	var out []string
	if data, err := walk.ReadConfig(walk.Child(gd, "FETCH_HEAD")); err == nil {
		var remotes map[string]bool
		for _, l := range strings.Split(string(data), "\n") {
			f := strings.Fields(l)
			if len(f) == 0 || !walk.ObjectID(f[0]) {
				continue
			}
			// assertion G: only what a configured remote sent is others'
			// work; a fetch by URL (a scratch clone of the agent's) is not.
			i := strings.LastIndex(l, " of ")
			if i < 0 {
				continue
			}
			if remotes == nil {
				remotes = r.remoteURLs()
			}
			if remotes[trimURL(l[i+len(" of "):])] {
				out = append(out, f[0])
			}
		}
	}
	for _, t := range tips {
		if !strings.HasPrefix(t.Ref, "refs/remotes/") {
			continue
		}
		if msg, ok := lastReflog(walk.Child(common, "logs/"+t.Ref), t.ID); ok && byFetch(msg) {
			if rs, _ := r.Remotes(); fetchedFromRemote(msg, rs) {
				out = append(out, t.ID)
			}
		}
	}
	return out, nil
}

// remoteURLs answers the URLs the clone's configured remotes fetch from,
// spelled as FETCH_HEAD names them (trimURL).
func (r hookRepo) remoteURLs() map[string]bool {
	out := map[string]bool{}
	rs, _ := r.Remotes()
	for _, u := range rs {
		out[u] = true
	}
	return out
}

// Remotes answers each configured remote's name and the URL it fetches
// from (trimURL's spelling, after git's url.<base>.insteadOf rewrite);
// none when no remote is configured.
func (r hookRepo) Remotes() (map[string]string, error) {
	out := map[string]string{}
	// The config files are read in process where walk can be sure they
	// are git's (no include, no -c in the environment, ...): a clone with
	// a remote then pays no git start for every landed commit.
	if _, common, err := r.gitDirs(); err == nil {
		if vals, ok := walk.ConfigSubsectionValues(common, os.Environ(), "remote", "url"); ok {
			var rules map[string]string
			for name, urls := range vals {
				for _, u := range urls {
					if name != "" && u != "" {
						if rules == nil {
							rules = r.insteadOf(common)
						}
						out[name] = trimURL(rewriteURL(u, rules)) // the last one, as below
					}
				}
			}
			return out, nil
		}
	}
	return r.remotesByGit()
}

// remotesByGit is Remotes asked of git config.
func (r hookRepo) remotesByGit() (map[string]string, error) {
	out := map[string]string{}
	data, err := asWritten().Run(r.top, "list the remotes' URLs", nil, "config", "--get-regexp", `^remote\..*\.url$`)
	if err != nil {
		return out, nil // no remote configured: git answers 1
	}
	var rules map[string]string
	for _, l := range strings.Split(string(data), "\n") {
		key, url, ok := strings.Cut(strings.TrimSpace(l), " ")
		name, isURL := strings.CutSuffix(strings.TrimPrefix(key, "remote."), ".url")
		if ok && isURL && name != "" && url != "" {
			if rules == nil {
				rules = r.insteadOfByGit()
			}
			out[name] = trimURL(rewriteURL(url, rules))
		}
	}
	return out, nil
}

// insteadOf answers git's url.<base>.insteadOf rules, each prefix with
// the base it stands for. assertion G: a rule written during the session
// repoints a remote as set-url does, so the remote's URL is read as git
// rewrites it.
func (r hookRepo) insteadOf(common string) map[string]string {
	vals, ok := walk.ConfigSubsectionValues(common, os.Environ(), "url", "insteadOf")
	if !ok {
		return r.insteadOfByGit()
	}
	rules := map[string]string{}
	for base, prefixes := range vals {
		for _, p := range prefixes {
			rules[p] = base
		}
	}
	return rules
}

// insteadOfByGit is insteadOf asked of git config.
func (r hookRepo) insteadOfByGit() map[string]string {
	rules := map[string]string{}
	data, err := asWritten().Run(r.top, "list the URL rewrites", nil, "config", "--get-regexp", `^url\..*\.insteadof$`)
	if err != nil {
		return rules // none configured: git answers 1
	}
	for _, l := range strings.Split(string(data), "\n") {
		key, prefix, ok := strings.Cut(strings.TrimSpace(l), " ")
		base, isRule := strings.CutSuffix(strings.TrimPrefix(key, "url."), ".insteadof")
		if ok && isRule && base != "" {
			rules[prefix] = base
		}
	}
	return rules
}

// rewriteURL answers u as git fetches from it: the longest insteadOf
// prefix it starts with replaced by that rule's base.
func rewriteURL(u string, rules map[string]string) string {
	best := ""
	for p := range rules {
		if len(p) > len(best) && strings.HasPrefix(u, p) {
			best = p
		}
	}
	if best == "" {
		return u
	}
	return rules[best] + u[len(best):]
}

// FetchedFrom is Fetched counting only what the remotes of base sent, each
// still fetching from the URL it had there: a FETCH_HEAD line whose source
// is one of those URLs, and a remote-tracking tip of one of those remotes
// whose newest reflog entry a fetch wrote.
func (r hookRepo) FetchedFrom(tips []harness.Tip, base map[string]string) ([]string, error) {
	if len(base) == 0 {
		// No remote at the session's start: nothing counts as fetched
		// whatever the remotes are now, so git is not asked for them.
		return nil, nil
	}
	gd, common, err := r.gitDirs()
	if err != nil {
		return nil, err
	}
	now, err := r.Remotes()
	if err != nil {
		return nil, err
	}
	urls := map[string]bool{}
	var names []string
	still := map[string]string{}
	for name, u := range base {
		if now[name] == u {
			urls[u] = true
			names = append(names, name)
			still[name] = u
		}
	}
	var out []string
	if data, err := walk.ReadConfig(walk.Child(gd, "FETCH_HEAD")); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			f := strings.Fields(l)
			if len(f) == 0 || !walk.ObjectID(f[0]) {
				continue
			}
			if i := strings.LastIndex(l, " of "); i >= 0 && urls[trimURL(l[i+len(" of "):])] {
				out = append(out, f[0])
			}
		}
	}
	for _, t := range tips {
		rest, ok := strings.CutPrefix(t.Ref, "refs/remotes/")
		if !ok {
			continue
		}
		of := false
		for _, n := range names {
			if strings.HasPrefix(rest, n+"/") {
				of = true
			}
		}
		if !of {
			continue
		}
		if msg, ok := lastReflog(walk.Child(common, "logs/"+t.Ref), t.ID); ok && byFetch(msg) && fetchedFromRemote(msg, still) {
			out = append(out, t.ID)
		}
	}
	return out, nil
}

// fetchValued are the fetch and pull options whose value may follow as
// the next word.
var fetchValued = map[string]bool{"--depth": true, "--deepen": true, "--shallow-since": true, "--shallow-exclude": true, "--upload-pack": true,
	"--refmap": true, "-j": true, "--jobs": true, "--negotiation-tip": true, "-o": true, "--server-option": true,
	"-s": true, "--strategy": true, "-X": true, "--strategy-option": true, "--filter": true}

// fetchedFromRemote reports a fetch or pull reflog message whose source
// is one of remotes (name to URL): its words name no repository (the
// configured default), or each repository they name is one of those
// remotes, by name or by URL. A fetch by path or URL into a
// remote-tracking ref (`git fetch ../scratch main:refs/remotes/origin/main`)
// is not the remote's. A clone's message is the remote's.
func fetchedFromRemote(msg string, remotes map[string]string) bool {
	words := msg
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		words = msg[:i]
	}
	f := strings.Fields(strings.TrimSuffix(words, ":"))
	if len(f) == 0 || f[0] == "clone" {
		return true
	}
	urls := map[string]bool{}
	for _, u := range remotes {
		urls[u] = true
	}
	multiple := false
	var repos []string
	for i := 1; i < len(f); i++ {
		w := f[i]
		switch {
		case w == "--multiple":
			multiple = true
		case fetchValued[w]:
			i++
		case strings.HasPrefix(w, "-"):
		default:
			repos = append(repos, w)
		}
	}
	if !multiple && len(repos) > 1 {
		repos = repos[:1] // the rest are refspecs
	}
	for _, r := range repos {
		if _, ok := remotes[r]; !ok && !urls[trimURL(r)] {
			return false
		}
	}
	return true
}

// trimURL spells a fetch URL as FETCH_HEAD does: no trailing slash or
// ".git".
func trimURL(u string) string {
	u = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(u), "/"))
	u = strings.TrimSuffix(u, ".git")
	return strings.TrimRight(u, "/")
}

func (r hookRepo) Pushed(tips []harness.Tip) ([]string, error) {
	_, common, err := r.gitDirs()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, t := range tips {
		if !strings.HasPrefix(t.Ref, "refs/remotes/") {
			continue
		}
		if msg, ok := lastReflog(walk.Child(common, "logs/"+t.Ref), t.ID); ok && msg == "update by push" {
			out = append(out, t.ID)
		}
	}
	return out, nil
}

// PushedSince answers the commits the placed pre-push hook recorded as
// sent by a push at or after since (Unix seconds) that this clone still
// holds: those sent from a notes ref to a notes ref apart.
func (r hookRepo) PushedSince(since int64) (sent, notes []string, err error) {
	_, common, err := r.gitDirs()
	if err != nil {
		return nil, nil, err
	}
	rec, err := githook.ReadPushed(common)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	var ids []string
	isNotes := map[string]bool{}
	for _, p := range rec {
		if p.At < since {
			continue
		}
		if !p.Notes {
			isNotes[p.Commit] = false // sent as a branch's too: judged as one
		} else if _, ok := isNotes[p.Commit]; !ok {
			isNotes[p.Commit] = true
		}
		if !seen[p.Commit] {
			seen[p.Commit] = true
			ids = append(ids, p.Commit)
		}
	}
	if len(ids) == 0 {
		return nil, nil, nil
	}
	held, err := asWritten().Present(r.top, ids)
	if err != nil {
		return nil, nil, err
	}
	for _, id := range held {
		if isNotes[id] {
			notes = append(notes, id)
		} else {
			sent = append(sent, id)
		}
	}
	return sent, notes, nil
}

// PushedNewSince answers the commits the placed pre-push hook recorded as
// sent at or after since (Unix seconds) while no fetch had brought them.
func (r hookRepo) PushedNewSince(since int64) ([]string, error) {
	_, common, err := r.gitDirs()
	if err != nil {
		return nil, err
	}
	rec, err := githook.ReadPushedNew(common)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range rec {
		if p.At >= since {
			out = append(out, p.Commit)
		}
	}
	return out, nil
}

// PushStamp answers when the placed pre-push hook last wrote its record.
func (r hookRepo) PushStamp() (time.Time, bool) {
	_, common, err := r.gitDirs()
	if err != nil {
		return time.Time{}, false
	}
	fi, err := os.Stat(walk.Child(common, githook.PushedName))
	if err != nil {
		return time.Time{}, false
	}
	return fi.ModTime(), true
}

// byFetch reports a reflog message written by a fetch (pull and clone
// fetch too; `git remote update` runs fetch).
func byFetch(msg string) bool {
	for _, w := range []string{"fetch", "pull", "clone"} {
		if msg == w || strings.HasPrefix(msg, w+" ") || strings.HasPrefix(msg, w+":") {
			return true
		}
	}
	return false
}

// lastReflog answers the message of the reflog's newest entry when that
// entry moved the ref to id; it reads the file's tail only.
func lastReflog(p, id string) (string, bool) {
	f, err := os.Open(p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", false
	}
	const tail = 8 << 10
	off := fi.Size() - tail
	if off < 0 {
		off = 0
	}
	buf := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil {
		return "", false
	}
	lines := strings.Split(strings.TrimRight(string(buf), "\n"), "\n")
	last := lines[len(lines)-1]
	head, msg, ok := strings.Cut(last, "\t")
	if f := strings.Fields(head); !ok || len(f) < 2 || f[1] != id {
		return "", false
	}
	return msg, true
}

// Foreign lists the commits of tips not reachable from exclude with their
// committer, and answers those this clone's identity did not commit at or
// after since.
func (r hookRepo) Foreign(tips, exclude []string, since int64) (map[string]bool, error) {
	// Tips the exclusions all hold reach nothing past them (what a clone
	// fetched before the session, still where it was): no listing to ask
	// git for.
	excluded := map[string]bool{}
	for _, id := range exclude {
		excluded[id] = true
	}
	past := false
	for _, id := range tips {
		past = past || !excluded[id]
	}
	if !past {
		return map[string]bool{}, nil
	}
	g := asWritten()
	list := func(exclude []string) ([]byte, error) {
		var in strings.Builder
		for _, id := range tips {
			in.WriteString(id + "\n")
		}
		for _, id := range exclude {
			in.WriteString("^" + id + "\n")
		}
		return g.Run(r.top, "list the fetched commits", []byte(in.String()), "log", "--stdin", "--format=%H %ct %ce")
	}
	out, err := list(exclude)
	if err != nil && len(exclude) > 0 {
		// A recorded tip whose object is gone excludes nothing still
		// reachable (as in Commits): list again without it.
		if present, perr := g.Present(r.top, exclude); perr == nil && len(present) < len(exclude) {
			out, err = list(present)
		}
	}
	if err != nil {
		return nil, err
	}
	foreign := map[string]bool{}
	if len(bytes.TrimSpace(out)) == 0 {
		return foreign, nil
	}
	email := ""
	if id, err := g.Run(r.top, "read the committer identity", nil, "var", "GIT_COMMITTER_IDENT"); err == nil {
		s := string(id)
		if i, j := strings.IndexByte(s, '<'), strings.IndexByte(s, '>'); i >= 0 && j > i {
			email = s[i+1 : j]
		}
	}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.SplitN(l, " ", 3)
		if len(f) != 3 {
			continue
		}
		at, err := strconv.ParseInt(f[1], 10, 64)
		mine := err == nil && at >= since && (email == "" || strings.EqualFold(f[2], email))
		if !mine {
			foreign[f[0]] = true
		}
	}
	return foreign, nil
}

// binaryFooting answers why the binary the placed hooks in dir start is
// not the recorded build, and the one command that repairs it ("" when it
// is). A knob pointing elsewhere is undone where it is set; a binary that
// differs is recorded again, for this process is that binary, and it
// runs as the gates (a stub that exits 0 would not be running this code).
func (r hookRepo) binaryFooting(dir string) (string, string) {
	_, common, err := r.gitDirs()
	if err != nil {
		return "", ""
	}
	env := r.s.Env
	if env == nil {
		env = os.LookupEnv
	}
	state, why := githook.Footing(r.top, common, dir, githook.Lookup(env))
	if state != githook.FootingBroken {
		return "", ""
	}
	bin, err := githook.ReadNativeBin(r.top, githook.Lookup(env))
	if err != nil {
		return why, r.binSpelling() + " --install-hooks --refresh"
	}
	switch bin.Origin {
	case "default":
		return why, bin.Value + " --install-hooks --refresh"
	case "environment":
		return why, "unset " + githook.NativeBinKnob
	}
	file := bin.Origin
	if rel, ok := walk.RelUnder(walk.NormalizeAbs(r.top), walk.NormalizeAbs(file)); ok && rel != "" {
		file = rel
	}
	return why, fmt.Sprintf("sed -i '/^[[:space:]]*%s[[:space:]]*=/d' %s", githook.NativeBinKnob, file)
}

func (r hookRepo) Binary() (string, string, error) {
	env := r.s.Env
	if env == nil {
		env = os.LookupEnv
	}
	bin, err := githook.ReadNativeBin(r.top, githook.Lookup(env))
	if err != nil {
		return "", "", err
	}
	return walk.AbsAgainst(r.top, bin.Value), r.top, nil
}

func (r hookRepo) Elsewhere(abs string) bool {
	top := canonicalPath(r.top)
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		other, found, err := walk.ToplevelOpt(abs, nil)
		if err != nil {
			// git refuses it: no commit of this clone's lands there.
			return true
		}
		if !found {
			return true
		}
		if canonicalPath(other) == top {
			return false
		}
		// Another work tree: this repository's still when it shares the
		// common directory (a linked worktree), whose refs and hooks are
		// these.
		_, theirs, err := walk.GitDirs(other, nil)
		if err != nil {
			return false
		}
		_, ours, err := r.gitDirs()
		if err != nil {
			return false
		}
		return canonicalPath(theirs) != canonicalPath(ours)
	}
	// Not made yet (or not a directory): this repository's when it would
	// lie under the top.
	_, under := walk.RelUnder(top, canonicalPath(abs))
	return !under
}

func (r hookRepo) StateDir() (string, error) {
	gd, _, err := r.gitDirs()
	if err != nil {
		return "", err
	}
	return walk.Child(gd, StateDirName), nil
}

// MirrorDir is where the judge keeps the copy of its starting records:
// the user's cache directory, under a name drawn from the state
// directory's path, so no command run in the clone removes it with the
// git directory's files.
func (r hookRepo) MirrorDir() (string, error) {
	state, err := r.StateDir()
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(walk.NormalizeAbs(state)))
	return filepath.Join(cache, "gate-sdk", "agent", hex.EncodeToString(sum[:16])), nil
}

func (r hookRepo) Protected() ([]string, error) {
	gd, common, err := r.gitDirs()
	if err != nil {
		return nil, err
	}
	ours, err := githook.HooksDir(r.top)
	if err != nil {
		return nil, err
	}
	dirs := []string{gd, common, ours, walk.Child(r.top, ".git")}
	if hp, err := (repo.Git{}).HooksPath(r.top); err == nil {
		dirs = append(dirs, hp)
	}
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		out = append(out, r.Canonical(filepath.FromSlash(d)))
	}
	return out, nil
}

// Canonical resolves the symlinks of the longest existing part of abs and
// keeps the rest as spelled (a Write may name a file not made yet).
func (r hookRepo) Canonical(abs string) string {
	rest := ""
	p := filepath.Clean(abs)
	for {
		if c, err := walk.Canonicalize(p); err == nil {
			return filepath.Join(c, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Clean(abs)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// Judge runs the git hooks over one commit as they would have run had
// its change been staged here: the commit-msg hook on its message, the
// pre-commit hook on the change it records against its first parent, with
// the registry, knobs and lists the commit carries (and the clone's own
// `*.local.*` lists). It runs in process over the commit's tree, reading
// the objects the selected members ask for, at the cost of the change;
// only a plan with a member that reads the work tree itself (a shell
// member, a touched gate's fixture pair) is judged on a scratch checkout.
// The repository's own work tree, index and refs are not touched.
func (r hookRepo) Judge(id string) (harness.CommitVerdict, error) {
	v, parents, msg, err := r.commitMeta(id)
	if err != nil {
		return v, err
	}
	scratch, err := r.s.scratchDir("gates-audit-")
	if err != nil {
		return v, fmt.Errorf("cannot make a scratch directory: %v", err)
	}
	defer os.RemoveAll(scratch)
	msgFile := filepath.Join(scratch, "COMMIT_EDITMSG")
	if err := os.WriteFile(msgFile, []byte(msg), 0o644); err != nil {
		return v, err
	}
	base := ""
	if len(parents) > 0 {
		base = parents[0]
	}
	v.Parent = base
	hooks, changed, err := r.judgeLanded(id, base, msgFile)
	if errors.Is(err, errNeedsCheckout) {
		changed = nil
		hooks, err = r.judgeOnCheckout(id, base, scratch, msgFile)
	}
	var odd *walk.NonUTF8Error
	if errors.As(err, &odd) {
		// A tree holding a name that cannot be spelled is refused, as the
		// pre-commit hook refuses an index holding it: the commit is named,
		// not the judge's footing.
		if err := r.shortOf(&v); err != nil {
			return v, err
		}
		v.Red = append(v.Red, harness.Red{Name: githook.PreCommit, Code: 1, Output: odd.Error(), Hook: githook.PreCommit})
		return v, nil
	}
	if err != nil {
		return v, err
	}
	for _, h := range hooks {
		if h.code == 0 {
			continue
		}
		if err := r.shortOf(&v); err != nil {
			return v, err
		}
		out := h.out
		if h.hook == githook.CommitMsg {
			out = landedMessage(out, msgFile, v.Short)
		}
		red := hookRed(h.hook, h.code, out)
		red.Hook = h.hook
		v.Red = append(v.Red, red)
	}
	// A commit that takes a gate out of the registry, or a ban out of the
	// pattern list, turned its hooks off for itself: judged as a bypass.
	weak, err := r.weakenedRed(id, base, changed)
	if err != nil {
		return v, err
	}
	if weak != nil {
		if err := r.shortOf(&v); err != nil {
			return v, err
		}
		v.Red = append(v.Red, *weak)
	}
	// A commit that grows the baseline passed its hooks by accepting what
	// they found: judged as a bypass of them. One whose change, listed
	// already, leaves the baseline file alone grows nothing.
	if src, _, err := r.s.baselineSite(); err == nil && base != "" && changed != nil && !changed[src] {
		return v, nil
	}
	red, err := r.s.commitBaselineRed(id, parents)
	if err != nil {
		return v, err
	}
	if red != nil {
		if err := r.shortOf(&v); err != nil {
			return v, err
		}
		v.Red = append(v.Red, *red)
	}
	return v, nil
}

// JudgeTree answers the pre-commit hook's red results over commit id, as
// Judge reads them, in process only: no message hook, no scratch
// directory (an edit makes none, edit-gates K), and an error where a
// member needs a checkout of the tree.
func (r hookRepo) JudgeTree(id string) ([]harness.Red, error) {
	_, parents, _, err := r.commitMeta(id)
	if err != nil {
		return nil, err
	}
	base := ""
	if len(parents) > 0 {
		base = parents[0]
	}
	hooks, _, err := r.judgeLanded(id, base, "")
	if err != nil {
		return nil, err
	}
	return landedReds(hooks), nil
}

// landedReds answers the red hook runs of a landed judgement, each named
// by its hook.
func landedReds(hooks []landedHook) []harness.Red {
	var reds []harness.Red
	for _, h := range hooks {
		if h.code != 0 {
			red := hookRed(h.hook, h.code, h.out)
			red.Hook = h.hook
			reds = append(reds, red)
		}
	}
	return reds
}

// JudgeSpan answers the pre-commit hook's red results over the change
// from base to commit id taken as one commit ("" base: the whole tree),
// as JudgeTree reads them, in process only, with a registry entry or a
// ban the span drops judged as a bypass, and a span that touches the
// baseline answered red.
func (r hookRepo) JudgeSpan(id, base string) ([]harness.Red, error) {
	hooks, changed, err := r.judgeLanded(id, base, "")
	if err != nil {
		return nil, err
	}
	reds := landedReds(hooks)
	weak, err := r.weakenedRed(id, base, changed)
	if err != nil {
		return nil, err
	}
	if weak != nil {
		reds = append(reds, *weak)
	}
	// A span that touches the baseline may have accepted what it did not
	// fix: never taken for a repair.
	if src, _, err := r.s.baselineSite(); err != nil || changed == nil || changed[src] {
		reds = append(reds, harness.Red{Name: "gates baseline", Code: 1, Hook: githook.PreCommit, Output: "the change touches the baseline, or its paths are unknown"})
	}
	return reds, nil
}

// commitMeta reads commit id's subject, parents and raw message: in
// process where the clone's shape allows (the short id is then asked of
// git only for a commit judged red, the one place it is shown), in one
// git process otherwise.
func (r hookRepo) commitMeta(id string) (harness.CommitVerdict, []string, string, error) {
	if o, ok := r.objects(); ok {
		if m, ok := o.Meta(id); ok {
			v := harness.CommitVerdict{ID: id, Subject: m.Subject, Root: len(m.Parents) == 0}
			return v, m.Parents, m.Message, nil
		}
	}
	// One git process for the short id, the subject, the parents and the
	// message as the commit records it (%B is its raw text).
	meta, err := asWritten().Run(r.top, "read the commit", nil, "log", "-1", "--no-walk", "--format=format:%h%x00%s%x00%P%x00%B", id)
	if err != nil {
		return harness.CommitVerdict{}, nil, "", err
	}
	f := strings.SplitN(string(meta), "\x00", 4)
	if len(f) != 4 {
		return harness.CommitVerdict{}, nil, "", fmt.Errorf("git log answered %q for %s", meta, id)
	}
	parents := strings.Fields(f[2])
	return harness.CommitVerdict{ID: id, Short: f[0], Subject: f[1], Root: len(parents) == 0}, parents, f[3], nil
}

// shortOf fills v's short id, as git abbreviates it, when not known yet.
func (r hookRepo) shortOf(v *harness.CommitVerdict) error {
	if v.Short != "" {
		return nil
	}
	out, err := asWritten().Run(r.top, "abbreviate the commit id", nil, "log", "-1", "--no-walk", "--format=format:%h", v.ID)
	if err != nil {
		return err
	}
	if v.Short = strings.TrimSpace(string(out)); v.Short == "" {
		return fmt.Errorf("git log answered no short id for %s", v.ID)
	}
	return nil
}

// judgeOnCheckout runs the git hooks over one commit in a scratch
// worktree whose HEAD is the commit's first parent (unborn for a root
// commit) and whose index and files are the commit's tree: the way left
// for a plan whose members read the work tree themselves.
func (r hookRepo) judgeOnCheckout(id, base, scratch, msgFile string) ([]landedHook, error) {
	g := asWritten()
	wt := filepath.Join(scratch, "tree")
	from := base
	if from == "" {
		from = id
	}
	if _, err := g.Run(r.top, "add a scratch worktree", nil, "worktree", "add", "--detach", "--no-checkout", wt, from); err != nil {
		return nil, err
	}
	defer func() {
		if _, err := g.Run(r.top, "remove the scratch worktree", nil, "worktree", "remove", "--force", wt); err != nil {
			os.RemoveAll(wt)
			g.Run(r.top, "prune the scratch worktree", nil, "worktree", "prune")
		}
	}()
	if base == "" {
		// A root commit: nothing before it, so every file is its change.
		if _, err := g.Run(wt, "unborn HEAD", nil, "symbolic-ref", "HEAD", "refs/heads/gates-audit-root-"+id); err != nil {
			return nil, err
		}
	}
	if _, err := g.Run(wt, "check the commit out", nil, "read-tree", "-u", "--reset", id); err != nil {
		return nil, err
	}
	if err := r.copyLocal(wt); err != nil {
		return nil, err
	}
	self, err := spawn.Self()
	if err != nil {
		return nil, err
	}
	var hooks []landedHook
	for _, hook := range [][]string{{githook.CommitMsg, msgFile}, {githook.PreCommit}} {
		c, err := spawn.RunMerged(spawn.Cmd{
			Program: self, Args: append([]string{"--git-hook"}, hook...), Dir: wt, ExtraEnv: []string{noReplace},
			UnsetEnv: []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX"},
		})
		if err != nil {
			return nil, err
		}
		hooks = append(hooks, landedHook{hook: hook[0], code: c.ReportedCode(), out: string(c.Output())})
	}
	return hooks, nil
}

// reissueText is the commit-msg gates' remedy for a commit git has not
// made yet; a landed commit's message is repaired otherwise (the member
// names the repair that fits where the commit stands).
var reissueText = regexp.MustCompile("(?s) ?No commit was made: .*?already at HEAD\\.")

// landedMessage rewrites a commit-msg hook's report on a landed commit's
// message: the scratch file it was judged from (gone once judged) is
// named as the commit's message, and the remedy for a commit not yet
// made is left out.
func landedMessage(out, msgFile, short string) string {
	out = reissueText.ReplaceAllString(out, "")
	return strings.ReplaceAll(out, msgFile, "<message of commit "+short+">")
}

// copyLocal puts the clone's own gitignored lists and knobs — the
// `*.local.*` files of the gates directory (the private pattern list, the
// knob overlay) — into the scratch worktree wt where the commit does not
// carry them, so the hooks judge the commit as they would have here.
func (r hookRepo) copyLocal(wt string) error {
	gatesDir, err := r.s.GatesDir()
	if err != nil {
		return nil // the hooks name a gates dir they cannot find themselves
	}
	rel := gatesDir
	if walk.PathRoot(rel) {
		var ok bool
		if rel, ok = walk.RelUnder(walk.NormalizeAbs(r.top), walk.NormalizeAbs(gatesDir)); !ok {
			return nil
		}
	}
	src := walk.AbsAgainst(r.top, rel)
	ents, err := os.ReadDir(src)
	if err != nil {
		return nil
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.Contains(e.Name(), ".local.") {
			continue
		}
		dst := filepath.Join(wt, filepath.FromSlash(rel), e.Name())
		if _, err := os.Lstat(dst); err == nil {
			continue // the commit carries its own
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return fmt.Errorf("cannot read the clone's %s: %v", e.Name(), err)
		}
		if strings.HasSuffix(e.Name(), ".list") {
			data = dropSpares(data) // private bans, never private spares
		} else if strings.HasSuffix(e.Name(), ".knobs") {
			data = dropTrackedSet(data) // the tracked lists stay the commit's
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// hookRed reads a failed hook's report: the member it names as failed, and
// the findings without the hook's bypass line (the agent is never told to
// bypass).
func hookRed(hook string, code int, out string) harness.Red {
	name := hook
	var keep []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if strings.TrimSpace(l) == strings.TrimSpace(githook.BypassLine) || strings.TrimSpace(l) == strings.TrimSpace(githook.AgentLine) {
			continue
		}
		if rest, ok := strings.CutPrefix(l, hook+": "); ok {
			if gate, ok := strings.CutSuffix(rest, " failed (see above)."); ok {
				name = gate
				continue
			}
		}
		keep = append(keep, l)
	}
	if code != 1 {
		code = 2
	}
	return harness.Red{Name: name, Code: code, Output: strings.TrimSpace(strings.Join(keep, "\n"))}
}

// SettingsFiles answers the harness settings files whose registrations the
// session's hooks came from: the project's two and the user's.
func (r hookRepo) SettingsFiles() []string {
	env := r.s.Env
	if env == nil {
		env = os.LookupEnv
	}
	files := []string{
		filepath.Join(r.top, ".claude", "settings.json"),       // consumer-value-exempt: the harness's own file names
		filepath.Join(r.top, ".claude", "settings.local.json"), // consumer-value-exempt: the harness's own file names
	}
	user := ""
	if v, ok := env("CLAUDE_CONFIG_DIR"); ok && v != "" {
		user = v
	} else if v, ok := env("HOME"); ok && v != "" {
		user = filepath.Join(v, ".claude") // consumer-value-exempt: the harness's own directory
	}
	if user != "" {
		files = append(files, filepath.Join(user, "settings.json")) // consumer-value-exempt: the harness's own file name
	}
	return files
}

// SettingsRepair answers the command that merges the registrations back.
func (r hookRepo) SettingsRepair() string {
	return r.binSpelling() + " init --harness claude"
}
