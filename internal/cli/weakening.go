package cli

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/harness"
	"github.com/gate-sdk/gates/internal/walk"
)

// weakeningHelp is what an agent hook says of a commit that takes a gate
// out of the registry or a ban out of the pattern list, or points the
// pattern lists elsewhere: the same standing as a commit made with
// --no-verify.
const weakeningHelp = "taking a gate out of the registry, a ban out of the pattern list, pointing the pattern lists elsewhere, or pruning a directory the tree holds turns it off for this commit and every later one, as --no-verify would: put it back and fix what it finds, or ask the user, who may commit the change themselves"

// weakenedRed answers commit-audit's verdict on a landed commit that
// drops a member its first parent's registry (`<gates-dir>/gates.list`)
// registers, or a ban line its first parent's tracked pattern list
// (`<gates-dir>/msg-patterns.list`) holds, or adds a spare to it, or sets
// the knobs naming the pattern lists in the tracked knob file otherwise;
// nil when it does none of these. A commit that brings a registry over
// no parent, or over one recording none (an orphan root that writes its
// own), has no parent to drop a member from: it is compared with each
// line it starts apart from (startsApart). changed, when not nil, is the
// paths the commit changes: a commit that leaves both files alone costs
// nothing more.
func (r hookRepo) weakenedRed(id, base string, changed map[string]bool) (*harness.Red, error) {
	// assertion D: a commit that turns a gate off for itself is red.
	gatesDir, err := r.s.GatesDir()
	if err != nil {
		return nil, nil // the hooks name a gates dir they cannot find themselves
	}
	rel := gatesDir
	if walk.PathRoot(rel) {
		var ok bool
		if rel, ok = walk.RelUnder(walk.NormalizeAbs(r.top), walk.NormalizeAbs(gatesDir)); !ok {
			return nil, nil
		}
	}
	rel = filepath.ToSlash(rel)
	reg := path.Join(rel, "gates.list")
	// A commit that changes none of the three files weakens nothing, and
	// over a parent recording no registry records none itself.
	if changed != nil && !changed[reg] && !changed[path.Join(rel, "msg-patterns.list")] && !changed[path.Join(rel, "gate-sdk-config.knobs")] {
		return nil, nil
	}
	if base == "" {
		return r.startsApart(id, reg, rel)
	}
	if held, err := r.holdsAt(base, reg); err != nil {
		return nil, err
	} else if !held {
		return r.startsApart(id, reg, rel)
	}
	lines, err := r.weakenedOver(id, base, "its parent", rel, changed)
	if err != nil || len(lines) == 0 {
		return nil, err
	}
	return weakRed(lines), nil
}

// weakRed is the gates-config verdict of lines, with its help.
func weakRed(lines []string) *harness.Red {
	lines = append(lines, "help: "+weakeningHelp)
	return &harness.Red{Name: "gates-config", Code: 1, Output: strings.Join(lines, "\n") + "\n"}
}

// startsApart is weakenedRed for a commit id that records a registry at
// reg over no parent recording one: a line of its own, whose registry no
// parent's bounds. It is compared with each branch and remote-tracking
// branch that records a registry and does not hold it, as if that were
// its parent, unless that line holds a commit of the same author and
// author date (id rewrites one of its commits: a rebase --root). Nil when
// it records no registry (a foreign tree, judged with the default
// branch's configuration), or drops nothing from any of them.
func (r hookRepo) startsApart(id, reg, rel string) (*harness.Red, error) {
	if held, err := r.holdsAt(id, reg); err != nil || !held {
		return nil, err
	}
	g := asWritten()
	out, err := g.Run(r.top, "list the lines "+id+" starts apart from", nil, "for-each-ref", "--no-contains", id, "--format=%(objectname) %(refname:short)", "refs/heads", "refs/remotes")
	if err != nil {
		return nil, err
	}
	stamp := ""
	var lines []string
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		tip, name, ok := strings.Cut(l, " ")
		if !ok || seen[tip] {
			continue
		}
		seen[tip] = true
		if held, err := r.holdsAt(tip, reg); err != nil || !held {
			if err != nil {
				return nil, err
			}
			continue
		}
		over, err := r.weakenedOver(id, tip, name, rel, nil)
		if err != nil {
			return nil, err
		}
		if len(over) == 0 {
			continue
		}
		if stamp == "" {
			o, err := g.Run(r.top, "read the author of "+id, nil, "log", "-1", "--format=%ae %at", id)
			if err != nil {
				return nil, err
			}
			stamp = strings.TrimSpace(string(o))
		}
		rewrites, err := r.rewritesOneOf(id, stamp, tip)
		if err != nil {
			return nil, err
		}
		if rewrites {
			continue
		}
		for _, l := range over {
			if !contains(lines, l) {
				lines = append(lines, l)
			}
		}
	}
	if len(lines) == 0 {
		return nil, nil
	}
	return weakRed(lines), nil
}

// rewritesOneOf reports whether commit id, of author and author date
// stamp, rewrites a commit of the line at tip: one of the same author and
// date whose change over its own parent is id's (the same patch id).
func (r hookRepo) rewritesOneOf(id, stamp, tip string) (bool, error) {
	g := asWritten()
	o, err := g.Run(r.top, "look for a commit "+id+" rewrites", nil, "log", "--format=%H %ae %at", tip)
	if err != nil {
		return false, err
	}
	mine := ""
	for _, l := range strings.Split(string(o), "\n") {
		c, st, ok := strings.Cut(strings.TrimSpace(l), " ")
		if !ok || st != stamp {
			continue
		}
		if mine == "" {
			if mine, err = patchID(r.top, id); err != nil {
				return false, err
			}
		}
		theirs, err := patchID(r.top, c)
		if err != nil {
			return false, err
		}
		if theirs == mine {
			return true, nil
		}
	}
	return false, nil
}

// patchID answers the stable patch id of commit rev's change over its
// first parent (over nothing for a root commit).
func patchID(top, rev string) (string, error) {
	g := asWritten()
	diff, err := g.Run(top, "read the change of "+rev, nil, "diff-tree", "-p", "--root", "--no-renames", rev)
	if err != nil {
		return "", err
	}
	out, err := g.Run(top, "take the patch id of "+rev, diff, "patch-id", "--stable")
	if err != nil {
		return "", err
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	return id, nil
}

// weakenedOver answers the lines naming what commit id drops or sets
// otherwise in the gates dir rel's registry, pattern list and knob file
// against commit base, called what in the lines.
func (r hookRepo) weakenedOver(id, base, what, rel string, changed map[string]bool) ([]string, error) {
	var lines []string
	for _, f := range []struct{ path, kind string }{
		{path.Join(rel, "gates.list"), "registry"},
		{path.Join(rel, "msg-patterns.list"), "patterns"},
		{path.Join(rel, "gate-sdk-config.knobs"), "knobs"},
	} {
		if changed != nil && !changed[f.path] {
			continue
		}
		before, ok, err := blobAt(r.top, base, f.path)
		if err != nil || !ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		after, _, err := blobAt(r.top, id, f.path)
		if err != nil {
			return nil, err
		}
		was, now := listLines(before), listLines(after)
		if f.kind == "knobs" {
			// The knobs that name the pattern lists: set otherwise than
			// the parent sets them, the lists are others.
			for _, l := range append(append([]string(nil), was...), now...) {
				if h := knobHead(l); (h == trackedSetKnob || h == trackedSetKnob+"_LOCAL") && contains(was, l) != contains(now, l) {
					lines = append(lines, fmt.Sprintf("%s: sets %s otherwise than %s (%s)", f.path, h, what, l))
				}
			}
			pruned, err := r.newlyPruned(id, pruneSet(was), pruneSet(now))
			if err != nil {
				return nil, err
			}
			for _, d := range pruned {
				lines = append(lines, fmt.Sprintf("%s: prunes %s, a directory the commit holds and %s judges", f.path, d, what))
			}
			continue
		}
		for _, l := range was {
			if contains(now, l) || (f.kind == "patterns" && strings.HasPrefix(l, "!")) {
				continue
			}
			if f.kind == "registry" {
				lines = append(lines, fmt.Sprintf("%s: drops %s, which %s registers", f.path, l, what))
			} else {
				lines = append(lines, fmt.Sprintf("%s: drops the ban %s, which %s holds", f.path, l, what))
			}
		}
		if f.kind == "patterns" {
			for _, l := range now {
				if strings.HasPrefix(l, "!") && !contains(was, l) {
					lines = append(lines, fmt.Sprintf("%s: adds the spare %s", f.path, l))
				}
			}
		}
	}
	return lines, nil
}

// blobAt answers the bytes of path in commit rev; false when it holds none.
func blobAt(top, rev, p string) ([]byte, bool, error) {
	g := asWritten()
	if _, err := g.Run(top, "look for "+p, nil, "cat-file", "-e", rev+":"+p); err != nil {
		return nil, false, nil
	}
	data, err := g.Run(top, "read "+p, nil, "cat-file", "blob", rev+":"+p)
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

// listLines answers a list file's live lines, trimmed: blank lines and
// comments left out.
func listLines(data []byte) []string {
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(strings.TrimSuffix(l, "\r"))
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// pruneSet answers the directory names a knob file's lines prune: the
// words of GATE_SDK_PRUNE_DIRS (walk.DefaultPruneDirs when unset) and of
// GATE_SDK_PRUNE_EXTRA_DIRS, the last line of each winning.
func pruneSet(lines []string) map[string]bool {
	dirs, extra := walk.DefaultPruneDirs, ""
	for _, l := range lines {
		h := knobHead(l)
		if h != "GATE_SDK_PRUNE_DIRS" && h != "GATE_SDK_PRUNE_EXTRA_DIRS" {
			continue
		}
		_, v, ok := strings.Cut(l, "=")
		if !ok {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		if h == "GATE_SDK_PRUNE_DIRS" {
			dirs = v
		} else {
			extra = v
		}
	}
	set := map[string]bool{}
	for _, w := range strings.Fields(dirs + " " + extra) {
		set[w] = true
	}
	return set
}

// newlyPruned answers the names now prunes and was did not that name a
// directory of commit id's tree: what the gates judged and no longer see
// (a name no directory of the tree holds prunes nothing judged: a build
// output kept untracked).
func (r hookRepo) newlyPruned(id string, was, now map[string]bool) ([]string, error) {
	var added []string
	for w := range now {
		if !was[w] {
			added = append(added, w)
		}
	}
	if len(added) == 0 {
		return nil, nil
	}
	out, err := asWritten().Run(r.top, "list the directories of "+id, nil, "ls-tree", "-r", "-d", "-z", "--name-only", id)
	if err != nil {
		return nil, err
	}
	held := map[string]bool{}
	for _, p := range strings.Split(string(out), "\x00") {
		held[path.Base(p)] = true
	}
	var pruned []string
	for _, w := range added {
		if held[w] {
			pruned = append(pruned, w)
		}
	}
	sort.Strings(pruned)
	return pruned, nil
}
