package cli

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/gate-sdk/gates/internal/harness"
	"github.com/gate-sdk/gates/internal/walk"
)

// weakeningHelp is what an agent hook says of a commit that takes a gate
// out of the registry or a ban out of the pattern list, or points the
// pattern lists elsewhere: the same standing as a commit made with
// --no-verify.
const weakeningHelp = "taking a gate out of the registry, a ban out of the pattern list, or pointing the pattern lists elsewhere turns it off for this commit and every later one, as --no-verify would: put it back and fix what it finds, or ask the user, who may commit the change themselves"

// weakenedRed answers commit-audit's verdict on a landed commit that
// drops a member its first parent's registry (`<gates-dir>/gates.list`)
// registers, or a ban line its first parent's tracked pattern list
// (`<gates-dir>/msg-patterns.list`) holds, or adds a spare to it, or sets
// the knobs naming the pattern lists in the tracked knob file otherwise;
// nil when it does none of these. A root commit drops nothing. changed, when not
// nil, is the paths the commit changes: a commit that leaves both files
// alone costs nothing more.
func (r hookRepo) weakenedRed(id, base string, changed map[string]bool) (*harness.Red, error) {
	// assertion D: a commit that turns a gate off for itself is red.
	if base == "" {
		return nil, nil
	}
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
					lines = append(lines, fmt.Sprintf("%s: sets %s otherwise than its parent (%s)", f.path, h, l))
				}
			}
			continue
		}
		for _, l := range was {
			if contains(now, l) || (f.kind == "patterns" && strings.HasPrefix(l, "!")) {
				continue
			}
			if f.kind == "registry" {
				lines = append(lines, fmt.Sprintf("%s: drops %s, which its parent registers", f.path, l))
			} else {
				lines = append(lines, fmt.Sprintf("%s: drops the ban %s, which its parent holds", f.path, l))
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
	if len(lines) == 0 {
		return nil, nil
	}
	lines = append(lines, "help: "+weakeningHelp)
	return &harness.Red{Name: "gates-config", Code: 1, Output: strings.Join(lines, "\n") + "\n"}, nil
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
