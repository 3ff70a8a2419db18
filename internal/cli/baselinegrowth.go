package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gate-sdk/gates/internal/baseline"
	"github.com/gate-sdk/gates/internal/harness"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/walk"
)

// A commit that adds entries to the baseline accepts findings instead of
// fixing them, and its diff shows a reviewer only digests. The hook names
// each added entry; the agent hooks treat such a commit as they treat a
// bypass of the hooks (commit-guard before it runs, commit-audit after).

// baselineAt answers the baseline file a revision records, nil when it
// records none (or the revision does not exist: an unborn HEAD).
func baselineAt(top, rev, src string) (*baseline.File, error) {
	g := repo.Git{}
	if _, err := g.Run(top, "look for the baseline", nil, "cat-file", "-e", rev+":"+src); err != nil {
		return nil, nil
	}
	data, err := g.Run(top, "read the baseline", nil, "cat-file", "blob", rev+":"+src)
	if err != nil {
		return nil, err
	}
	f, err := baseline.Parse(rev+":"+src, data)
	if err != nil {
		// An earlier baseline git holds but this binary cannot read names
		// nothing accepted before: every entry now counts as added.
		return nil, nil
	}
	return f, nil
}

// renamesBetween answers the renames git detects from rev to the index
// (to "" with cached) or to another revision, chained.
func renamesBetween(top, from, to string) map[string]string {
	args := []string{"diff", "--no-ext-diff", "--name-status", "-z", "-M", "--diff-filter=R"}
	if to == "" {
		args = append(args, "--cached", from)
	} else {
		args = append(args, from, to)
	}
	out, err := repo.Git{}.Run(top, "git diff", nil, append(args, "--")...)
	if err != nil {
		return nil
	}
	pairs, err := baseline.ParseRenames(out)
	if err != nil {
		return nil
	}
	return baseline.Chain(pairs)
}

// describeAdded renders added entries as the lines the hook prints.
func describeAdded(src string, added []baseline.Entry) []string {
	var out []string
	for _, e := range added {
		out = append(out, fmt.Sprintf("this commit adds to %s, accepting: %s", src, e.Describe()))
	}
	return out
}

// hookBaselineAdded is the pre-commit hook's report of the entries the
// staged baseline adds over HEAD's; nothing when the commit leaves the
// file as HEAD holds it.
func (s *Session) hookBaselineAdded(tree *repo.Snapshot, staged []string) ([]string, error) {
	src, err := s.baselineSource()
	if err != nil {
		return nil, err
	}
	if !slices.Contains(staged, src) {
		return nil, nil
	}
	if _, tracked := tree.Mode(src); !tracked {
		return nil, nil
	}
	data, err := tree.Read(src)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", src, err)
	}
	now, err := baseline.Parse(src, data)
	if err != nil {
		return nil, err
	}
	rev, to := "HEAD", ""
	if s.landed != nil {
		// A landed commit grows the baseline over its first parent's.
		if s.landed.base == "" {
			return describeAdded(src, baseline.Added(nil, now)), nil
		}
		rev, to = s.landed.base, s.landed.id
	}
	added, err := s.baselineAddedOver(rev, to, now)
	if err != nil {
		return nil, err
	}
	return describeAdded(src, added), nil
}

// baselineSite answers the baseline file's path (as baselineSource
// spells it) and the work-tree top it sits under.
func (s *Session) baselineSite() (src, top string, err error) {
	if src, err = s.baselineSource(); err != nil {
		return "", "", err
	}
	if top, err = s.Top(); err != nil {
		return "", "", err
	}
	return src, top, nil
}

// baselineAddedOver answers the entries now (read as written, no rename
// followed) adds over the baseline rev records. Both are read through the
// renames git detects from rev to the tree now came from (to, "" for the
// index), so a moved file's entries are the same entries on either side.
func (s *Session) baselineAddedOver(rev, to string, now *baseline.File) ([]baseline.Entry, error) {
	src, top, err := s.baselineSite()
	if err != nil {
		return nil, err
	}
	before, err := baselineAt(top, rev, src)
	if err != nil {
		return nil, err
	}
	if before != nil {
		renames := renamesBetween(top, rev, to)
		before, now = before.Follow(renames), now.Follow(renames)
	}
	return baseline.Added(before, now), nil
}

// baselineGrowthHelp is what an agent hook says of a commit that grows
// the baseline: the same standing as a commit made with --no-verify.
const baselineGrowthHelp = "accepting a finding in the baseline turns its gate off for it, as --no-verify would for the commit: fix the finding instead, or ask the user, who may record and commit the baseline themselves"

// commitBaselineRed answers commit-audit's verdict on a landed commit that
// adds baseline entries over its first parent (over nothing for a root
// commit); nil when it adds none.
func (s *Session) commitBaselineRed(id string, parents []string) (*harness.Red, error) {
	src, top, err := s.baselineSite()
	if err != nil {
		return nil, err
	}
	if len(parents) > 0 {
		// The common case, a commit that leaves the file alone, costs
		// one git process.
		out, err := repo.Git{}.Run(top, "compare the baselines", nil, "rev-parse", parents[0]+":"+src, id+":"+src)
		if ids := strings.Fields(string(out)); err == nil && len(ids) == 2 && ids[0] == ids[1] {
			return nil, nil
		}
	}
	now, err := baselineAt(top, id, src)
	if err != nil || now == nil {
		return nil, err
	}
	var added []baseline.Entry
	if len(parents) == 0 {
		added = baseline.Added(nil, now)
	} else if added, err = s.baselineAddedOver(parents[0], id, now); err != nil {
		return nil, err
	}
	if len(added) == 0 {
		return nil, nil
	}
	// assertion D: a landed commit that grew the baseline is red, as a
	// commit made with --no-verify over a red gate is.
	lines := describeAdded(src, added)
	lines = append(lines, "help: "+baselineGrowthHelp)
	return &harness.Red{Name: "baseline", Code: 1, Output: strings.Join(lines, "\n") + "\n"}, nil
}

// BaselineAdded answers commit-guard's question: what the staged and the
// work tree's baseline add over HEAD's (the work tree's too, since the
// command may stage it: `git add … && git commit`, `git commit -a`).
func (r hookRepo) BaselineAdded() ([]string, error) {
	src, err := r.s.baselineSource()
	if err != nil {
		return nil, err
	}
	staged, err := baselineAt(r.top, "", src)
	if err != nil {
		return nil, err
	}
	var disk *baseline.File
	// Read as every configuration file is (a regular file of the tree,
	// bounded). One that cannot be read or parsed is the pre-commit hook's
	// refusal once staged, not ours: commit-guard judges what it can see.
	if data, err := walk.ReadConfigIn(r.top, filepath.Join(r.top, filepath.FromSlash(src))); err == nil {
		if f, perr := baseline.Parse(src, data); perr == nil {
			disk = f
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, now := range []*baseline.File{staged, disk} {
		if now == nil {
			continue
		}
		added, err := r.s.baselineAddedOver("HEAD", "", now)
		if err != nil {
			return nil, err
		}
		for _, l := range describeAdded(src, added) {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	return out, nil
}
