package githook

// What git does not hook. `git cherry-pick`, `git rebase`, `git am`,
// `git merge --ff` and `git commit --no-verify` land commits no pre-commit
// hook judged. Git runs other hooks for them (post-commit for a commit the
// sequencer or `--no-verify` makes, post-rewrite after a rebase or an
// amend, post-applypatch after `git am`, post-merge after a merge or a
// pull); those cannot refuse anything, since the commit already exists,
// so they report: each commit whose tree no passing pre-commit judged is
// named on stderr and kept in a record under git's common dir, which
// `gates doctor` and every battery name until a whole green battery at
// that work tree judges it.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/walk"
)

// The hooks that report after the fact.
const (
	PostCommit     = "post-commit"
	PostRewrite    = "post-rewrite"
	PostMerge      = "post-merge"
	PostApplypatch = "post-applypatch"
)

// JudgedName is the record of the trees a passing pre-commit (or
// pre-merge-commit) judged, newest last; UnjudgedName the record of the
// commits that landed with no such judgement.
const (
	JudgedName   = "gates-judged"
	UnjudgedName = "gates-unjudged"
)

const (
	judgedHeader   = "gates judged trees v1"
	unjudgedHeader = "gates unjudged commits v1"
	// judgedKept bounds the judged record: a commit is made soon after its
	// pre-commit passes, so only the latest trees are ever asked for.
	judgedKept = 64
)

// Landing is one commit that reached a branch unjudged.
type Landing struct {
	Commit string
	// Hook is the hook that saw it land (what kind of command made it).
	Hook string
	// Top is the work-tree top it landed at.
	Top string
}

// How names the commands a hook's landing comes from, for a person.
func (l Landing) How() string {
	switch l.Hook {
	case PostCommit:
		return "a commit made past pre-commit: cherry-pick, rebase or --no-verify"
	case PostRewrite:
		return "rewritten by rebase or amend"
	case PostApplypatch:
		return "applied by git am"
	case PostMerge:
		return "brought in by a merge or pull"
	}
	return l.Hook
}

func readLandingRecord(p, header string) ([]string, error) {
	data, err := walk.ReadConfig(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", p, err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if lines[0] != header {
		return nil, fmt.Errorf("%s: not a record this binary writes", p)
	}
	return lines[1:], nil
}

func writeLandingRecord(p, header string, lines []string) error {
	if len(lines) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return walk.ReplaceFile(p, []byte(header+"\n"+strings.Join(lines, "\n")+"\n"))
}

// NoteJudged records tree as judged by a passing pre-commit, keeping the
// latest judgedKept trees.
func NoteJudged(common, tree string) error {
	// assertion X: a passing pre-commit records the tree it judged.
	p := walk.Child(common, JudgedName)
	trees, err := readLandingRecord(p, judgedHeader)
	if err != nil {
		// An unreadable record is replaced: losing it can only name a
		// judged commit unjudged, never the reverse.
		trees = nil
	}
	kept := trees[:0]
	for _, t := range trees {
		if t != tree {
			kept = append(kept, t)
		}
	}
	kept = append(kept, tree)
	if len(kept) > judgedKept {
		kept = kept[len(kept)-judgedKept:]
	}
	return writeLandingRecord(p, judgedHeader, kept)
}

// judgedTrees answers the recorded judged trees.
func judgedTrees(common string) map[string]bool {
	trees, _ := readLandingRecord(walk.Child(common, JudgedName), judgedHeader)
	out := map[string]bool{}
	for _, t := range trees {
		out[t] = true
	}
	return out
}

// ReadUnjudged answers the unjudged record's landings in recorded order;
// none without a record. A record this binary cannot read is an error.
func ReadUnjudged(common string) ([]Landing, error) {
	p := walk.Child(common, UnjudgedName)
	lines, err := readLandingRecord(p, unjudgedHeader)
	if err != nil {
		return nil, err
	}
	var out []Landing
	for i, l := range lines {
		// <commit> <hook> <quoted top>
		f := strings.SplitN(l, " ", 3)
		if len(f) != 3 || !walk.ObjectID(f[0]) || f[1] == "" {
			return nil, fmt.Errorf("%s:%d: malformed line", p, i+2)
		}
		top, err := strconv.Unquote(f[2])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: malformed line", p, i+2)
		}
		out = append(out, Landing{Commit: f[0], Hook: f[1], Top: top})
	}
	return out, nil
}

func writeUnjudged(common string, ls []Landing) error {
	lines := make([]string, len(ls))
	for i, l := range ls {
		lines[i] = l.Commit + " " + l.Hook + " " + strconv.Quote(l.Top)
	}
	return writeLandingRecord(walk.Child(common, UnjudgedName), unjudgedHeader, lines)
}

// addUnjudged appends the landings the record does not hold yet (by
// commit), answering the ones added.
func addUnjudged(common string, ls []Landing) ([]Landing, error) {
	have, err := ReadUnjudged(common)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, l := range have {
		seen[l.Commit] = true
	}
	var added []Landing
	for _, l := range ls {
		if !seen[l.Commit] {
			seen[l.Commit] = true
			added = append(added, l)
		}
	}
	if len(added) == 0 {
		return nil, nil
	}
	return added, writeUnjudged(common, append(have, added...))
}

// SettleUnjudged drops the landings at top, answering them: a whole green
// battery there has judged the tree they reached.
func SettleUnjudged(common, top string) ([]Landing, error) {
	// assertion Z: only a whole green battery at the work tree settles.
	have, err := ReadUnjudged(common)
	if err != nil || len(have) == 0 {
		return nil, err
	}
	var kept, settled []Landing
	for _, l := range have {
		if l.Top == top {
			settled = append(settled, l)
		} else {
			kept = append(kept, l)
		}
	}
	if len(settled) == 0 {
		return nil, nil
	}
	return settled, writeUnjudged(common, kept)
}

// commonDir answers git's common dir for the work tree at top, through
// the crosser's one reader of git's directories.
func commonDir(g repo.Git, top string) (string, error) {
	_, common, err := walk.GitDirs(top, g.Env)
	return common, err
}

// recordJudged notes, after a passing pre-commit, the tree the commit
// will record (the index's, as git writes it). A failure is a note: it
// can only make the post-commit hook name a judged commit.
func (w World) recordJudged(hook, top, common string) {
	g := w.git()
	var err error
	if common == "" {
		common, err = commonDir(g, top)
	}
	if err == nil {
		var out []byte
		if out, err = g.Run(top, "the index's tree", nil, "write-tree"); err == nil {
			err = NoteJudged(common, strings.TrimSpace(string(out)))
		}
	}
	if err != nil {
		fmt.Fprintf(w.Stderr, "%s: note: could not record the tree this hook judged (%v); the post-commit hook may name this commit as unjudged\n", hook, strings.TrimRight(err.Error(), "\n"))
	}
}

// postHook is a hook git runs after a commit exists: it names every
// landed commit whose tree no passing pre-commit judged and records it.
// It always exits 0 (git ignores the status of these hooks); what it
// could not check it says on stderr.
func postHook(w World, hook string, args []string, stdin io.Reader) int {
	// assertion Y: the after-the-fact hooks report and never refuse.
	top, ok := w.top(hook)
	if !ok {
		return 0
	}
	g := w.git()
	warn := func(err error) int {
		fmt.Fprintf(w.Stderr, "%s: could not check whether the new commits were judged: %v\n  run gates --run before you push\n", hook, strings.TrimRight(err.Error(), "\n"))
		return 0
	}
	var commits []string
	switch hook {
	case PostRewrite:
		if stdin == nil {
			return warn(fmt.Errorf("git handed no list of rewritten commits"))
		}
		data, err := io.ReadAll(stdin)
		if err != nil {
			return warn(err)
		}
		for _, l := range strings.Split(string(data), "\n") {
			// <old> <new> [<extra>]
			if f := strings.Fields(l); len(f) >= 2 && walk.ObjectID(f[1]) {
				commits = append(commits, f[1])
			}
		}
	default:
		out, err := g.Run(top, "HEAD", nil, "rev-parse", "--verify", "-q", "HEAD^{commit}")
		if err != nil {
			return warn(err)
		}
		commits = []string{strings.TrimSpace(string(out))}
	}
	common, err := commonDir(g, top)
	if err != nil {
		return warn(err)
	}
	judged := judgedTrees(common)
	var landed []Landing
	for _, c := range commits {
		// A commit whose tree a passing pre-commit judged, or one that
		// changes no content (its tree is its first parent's), is judged.
		out, err := g.Run(top, "the trees of "+c, nil, "rev-parse", c+"^{tree}")
		if err != nil {
			return warn(err)
		}
		tree := strings.TrimSpace(string(out))
		if judged[tree] {
			continue
		}
		if out, err := g.Run(top, "the parent tree of "+c, nil, "rev-parse", "--verify", "-q", c+"^1^{tree}"); err == nil && strings.TrimSpace(string(out)) == tree {
			continue
		}
		landed = append(landed, Landing{Commit: c, Hook: hook, Top: top})
	}
	if len(landed) == 0 {
		return 0
	}
	added, err := addUnjudged(common, landed)
	if err != nil {
		fmt.Fprintf(w.Stderr, "%s: could not record the unjudged commits: %v\n", hook, err)
		added = landed
	}
	for _, l := range added {
		fmt.Fprintf(w.Stderr, "%s: %s reached the branch with no pre-commit judgement (%s)\n", hook, shortID(l.Commit), l.How())
	}
	if len(added) > 0 {
		fmt.Fprintf(w.Stderr, "  git runs no pre-commit hook for it; run gates --run now: gates doctor and every battery name it until a whole green battery here judges it\n")
	}
	return 0
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
