package payload

// Init stays inside the repository and in its history: no write through a
// symbolic link that leaves the tree, and no file it writes left hidden by
// an ignore rule, where a fresh clone would never see it.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
	"github.com/gate-sdk/gates/kits"
)

// lockHoldsFixtures reports whether an earlier init vendored the kit's
// fixture pairs.
func lockHoldsFixtures(l *Lock) bool {
	pre := path.Join(l.KitRoot, kits.FixtureTree) + "/"
	for _, f := range l.Files {
		if strings.HasPrefix(f.Path, pre) {
			return true
		}
	}
	return false
}

// writes answers every repo-relative path init may write: the planned
// files, the appended files and the lock.
func (p *Plan) writes(lockRel string) []string {
	var out []string
	for _, f := range p.files {
		out = append(out, f.path)
	}
	for _, a := range p.appends {
		out = append(out, a.path)
	}
	return append(out, lockRel)
}

// refuseEscapes refuses the plan when a path it writes, or a directory on
// the way to one, is a symbolic link resolving outside the repository (or
// resolving nowhere): each is named, and nothing is written.
func refuseEscapes(top string, p *Plan, lockRel string) error {
	canonTop, err := walk.Canonicalize(top)
	if err != nil {
		return fmt.Errorf("init: %v", err)
	}
	canonTop = walk.NormalizeAbs(canonTop)
	seen := map[string]bool{}
	var bad []string
	for _, rel := range p.writes(lockRel) {
		parts := strings.Split(rel, "/")
		for i := range parts {
			sub := strings.Join(parts[:i+1], "/")
			if seen[sub] {
				continue
			}
			seen[sub] = true
			fi, err := os.Lstat(joinTop(top, sub))
			if errors.Is(err, fs.ErrNotExist) {
				break
			}
			if err != nil {
				return fmt.Errorf("init: cannot read %s: %v", sub, err)
			}
			if fi.Mode()&fs.ModeSymlink == 0 {
				continue
			}
			target, err := os.Readlink(joinTop(top, sub))
			if err != nil {
				return fmt.Errorf("init: cannot read the symbolic link %s: %v", sub, err)
			}
			real, err := walk.Canonicalize(joinTop(top, sub))
			switch {
			case err != nil:
				bad = append(bad, fmt.Sprintf("init: refused: %s is a symbolic link to %s, which resolves nowhere", sub, target))
			case !walk.AtOrUnder(canonTop, walk.NormalizeAbs(real)):
				bad = append(bad, fmt.Sprintf("init: refused: %s is a symbolic link to %s, outside the repository", sub, target))
			}
		}
	}
	if len(bad) > 0 {
		return refuse{msg: strings.Join(bad, "\n") + "\ninit: nothing written; init writes only inside the repository: replace each named link with a directory of the tree (or point GATE_SDK_ROOT / GATE_SDK_GATES_DIR elsewhere) and run init again"}
	}
	return nil
}

// ignoreRounds bounds the negation search: each round can only uncover a
// rule a negated directory was masking, one level deeper.
const ignoreRounds = 8

// planNegations finds every file init writes that an ignore rule would
// hide from the commit. A rule of the root .gitignore gets a negation in
// init's own block of that file; a rule anywhere else (a nested
// .gitignore, .git/info/exclude, core.excludesFile) cannot be outranked
// from the root, so init refuses, naming it. The binary and the scratch
// directory are meant to be ignored and are not asked about.
func planNegations(w *InitWorld, p *Plan, lockRel string) error {
	if w.Ignored == nil {
		return nil
	}
	var files []string
	for _, f := range p.files {
		if f.class != classBinary {
			files = append(files, f.path)
		}
	}
	files = append(files, lockRel)
	dirSet := map[string]bool{}
	for _, f := range files {
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			dirSet[d+"/"] = true
		}
	}
	var dirs []string
	for d := range dirSet {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs) // parents before children
	ask := append(dirs, files...)

	block := -1
	for i, a := range p.appends {
		if a.path == ".gitignore" {
			block = i
		}
	}
	if block < 0 {
		return nil
	}
	cur, err := os.ReadFile(joinTop(w.Top, ".gitignore"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("init: cannot read .gitignore: %v", err)
	}
	hidden := map[string]string{} // written path -> the rule that hid it
	negated := map[string]bool{}
	var body []byte // nil: the repository as it stands
	for round := 0; ; round++ {
		hits, err := w.Ignored(ask, body)
		if err != nil {
			return fmt.Errorf("init: cannot ask git which paths are ignored: %v", err)
		}
		var refused []string
		added := 0
		for _, q := range ask {
			rule := hits[q]
			if rule == "" || negated[q] {
				continue
			}
			if src, _, _ := strings.Cut(rule, ":"); src != ".gitignore" {
				refused = append(refused, fmt.Sprintf("init: refused: %s would be hidden by %s, which a line of the root .gitignore cannot outrank", strings.TrimSuffix(q, "/"), rule))
				continue
			}
			if _, ok := hidden[q]; !ok {
				hidden[q] = rule
			}
			// A path under a directory already being negated is masked
			// by that directory's rule; the next round sees its own.
			if masked(q, negated, hits, rule) {
				continue
			}
			negated[q] = true
			added++
		}
		if len(refused) > 0 {
			return refuse{msg: strings.Join(refused, "\n") + "\ninit: nothing written; a fresh clone would not carry these files: unignore them there (a `!` line after the rule), or move the rule, and run init again"}
		}
		if added == 0 {
			break
		}
		if round == ignoreRounds {
			return refusef("init: refused: the root .gitignore still hides files init writes after %d rounds of negations; nothing written", ignoreRounds)
		}
		body = simulated(cur, p.appends[block].lines, negations(ask, negated))
	}
	lines := negations(ask, negated)
	if len(lines) == 0 {
		return nil
	}
	p.appends[block].lines = append(p.appends[block].lines, lines...)
	var names []string
	for _, q := range ask {
		if r, ok := hidden[q]; ok && !strings.HasSuffix(q, "/") {
			names = append(names, q+" ("+r+")")
		}
	}
	fmt.Fprintf(w.Stdout, "init: .gitignore would hide %d files init writes: %s; init adds %s to .gitignore\n", len(names), strings.Join(names, ", "), strings.Join(lines, " "))
	return nil
}

// masked reports whether q lies under a directory this round negates for
// the same rule.
func masked(q string, negated map[string]bool, hits map[string]string, rule string) bool {
	for d := path.Dir(strings.TrimSuffix(q, "/")); d != "."; d = path.Dir(d) {
		if negated[d+"/"] && hits[d+"/"] == rule {
			return true
		}
	}
	return false
}

// negations spells the negation lines, anchored at the root, in ask order.
func negations(ask []string, negated map[string]bool) []string {
	var out []string
	for _, q := range ask {
		if negated[q] {
			out = append(out, "!/"+q)
		}
	}
	return out
}

// simulated is the root .gitignore as it will read once init appends its
// block and the negations.
func simulated(cur []byte, block, neg []string) []byte {
	s := string(cur)
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return []byte(s + strings.Join(append(append([]string(nil), block...), neg...), "\n") + "\n")
}
