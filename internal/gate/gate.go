// Package gate is the contract every in-process gate is written against:
// the run context a rule reads its inputs from, and the report writer that
// prints the output contract.
//
// A rule is a plain function from a *Context to an exit status: 0 clean,
// 1 findings, 2 could not decide. It never changes the process's working
// directory or environment, never writes to os.Stdout directly and never
// starts a process except through internal/spawn, so the battery can run
// many rules at once over one shared snapshot of the tracked tree and still
// print each member's output exactly as its standalone run would.
package gate

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// Exit statuses of the output contract.
const (
	Clean   = 0
	Failed  = 1
	Refused = 2
)

// Knobs is the read side of the knob engine a rule sees. Errors carry the
// file and line of a refused knob file and are reported as exit 2.
type Knobs interface {
	// Scalar answers a scalar knob's resolved value.
	Scalar(name string) (string, error)
	// Words answers a scalar word-list knob split on blanks.
	Words(name string) ([]string, error)
	// List answers an indexed knob's elements in order.
	List(name string) ([]string, error)
}

// Tree is the shared, read-only snapshot of the tracked tree. Paths are
// spelled relative to Context.Dir with '/' separators, as git lists them.
type Tree interface {
	// Files answers every tracked path under the context directory. The
	// slice may be shared with every other reader: never modify it.
	Files() ([]string, error)
	// Read answers a tracked file's bytes; each file is read from disk at
	// most once per process.
	Read(path string) ([]byte, error)
	// Mode answers the index mode of a tracked path (0o100644, 0o100755,
	// 0o120000, 0o160000) and whether the path is tracked.
	Mode(path string) (uint32, bool)
}

// BlobBacked is what a Tree may also offer: whether Read answers a tracked
// path from the index's blob when the work tree has no file there (every
// entry of the staged snapshot; a sparse, skip-worktree entry of the work
// tree's). A walk of the disk misses such an entry, so a walk-based rule
// asks this to read it anyway.
type BlobBacked interface {
	FromBlob(path string) bool
}

// IsStaged reports a Tree that is a staged one (the index a commit
// records, a landed commit's tree): a file on the disk it does not track
// is no part of what is judged.
func IsStaged(t Tree) bool {
	st, ok := t.(interface{ Staged() bool })
	return ok && st.Staged()
}

// Claimer is what a Tree may also offer: a scan registers the files it is
// about to read before it reads any, so files several scans read are read
// once, kept only until the last claimant has read them, and let go.
type Claimer interface {
	Claim(paths []string) Claim
}

// Claim is one scan's registered reads. Read answers a file's bytes as
// Tree.Read does and ends the claim on it; Drop ends it unread; Done ends
// every claim still open. Safe for concurrent use.
type Claim interface {
	Read(path string) ([]byte, error)
	Drop(path string)
	Done()
}

// ClaimReads registers the rule's coming reads of paths and answers what to
// read them through; call Done when the scan ends. A tree that offers no
// claims is read as it is.
func (c *Context) ClaimReads(paths []string) Claim {
	if cl, ok := c.Tree.(Claimer); ok {
		return cl.Claim(paths)
	}
	return plainReads{c.Tree}
}

type plainReads struct{ t Tree }

// PlainClaim answers a Claim that reads t as it is, registering nothing:
// for a read of a few files outside a claimed scan.
func PlainClaim(t Tree) Claim { return plainReads{t} }

func (p plainReads) Read(path string) ([]byte, error) { return p.t.Read(path) }
func (plainReads) Drop(string)                        {}
func (plainReads) Done()                              {}

// Context is everything a rule may read.
type Context struct {
	Name     string   // registered gate name, e.g. "check-tree-terms"
	Args     []string // operands after the gate name
	Dir      string   // absolute directory the gate runs in (toplevel or fixture case)
	GatesDir string   // the consumer's gates directory, relative to Dir
	KitRoots []string // kit roots spelled relative to Dir
	// VendoredRoots are the kit roots, spelled relative to Dir, that an
	// OwnOnly rule does not judge: the copy `gates init` vendored (see
	// own.go). They are absent from KitRoots and from Tree's listing.
	VendoredRoots []string
	// Shipped, when set, reports whether a Dir-relative file under a
	// vendored root is one the release shipped, unchanged: the lock
	// records it with the digest it has now. A file it does not vouch
	// for is the repository's own and is judged (see own.go).
	Shipped func(p string) bool
	// Scratch is where the rule may write, handed unmade: a rule creates
	// it (os.MkdirAll), makes a fresh directory of its own under it
	// (os.MkdirTemp) and removes that. The battery hands each member a
	// private path it removes after the run; the hook hands every member
	// the system's temporary directory.
	Scratch string
	Jobs    int // worker bound for a rule's own fan-out (GATE_SDK_JOBS); <1: the CPU count
	Env     func(string) (string, bool)
	// SpawnEnv is added to the environment of every process the rule
	// starts (the pre-commit hook's linked-worktree pin); it never reaches
	// this process's own environment. See ChildEnviron.
	SpawnEnv []string
	Knobs    Knobs
	Tree     Tree
	Out      io.Writer // the gate's stdout
	Err      io.Writer // the gate's stderr
	// Progress, when set, reports one finished stage of a long-running
	// rule (check-crate-arms' go vet, go test, fixture suites) as it
	// happens, on the process's stderr: what a person waiting watches.
	// It is never part of the gate's output or verdict; nil reports none.
	Progress func(stage string, took time.Duration)
	// Coupling loads the registry and the environment its members'
	// triggers are derived from: the one expansion the hook and --for
	// select through. Nil where the caller offers none (a rule then
	// refuses).
	Coupling func() (*registry.Registry, *registry.Env, error)
	// CouplesKnobs answers knob values and shapes as couples= expansion
	// reads them, with no registry needed. Nil where the caller offers
	// none.
	CouplesKnobs registry.Knobs
	// Recorder, when set, notes every walk root the rule enters (the
	// observer check-reads-couples' declarations are held to).
	Recorder *walk.Recorder
	// Spawns, when set, notes every program the rule starts itself (the
	// observer its --needs row is held to).
	Spawns *spawn.Recorder
	// Cache is the result cache per-file rules consult through Verdicts;
	// nil disables it.
	Cache *cache.Store
	// Unchanged, when set (the pre-commit hook over a live cache), reports
	// a tracked path the commit leaves as HEAD holds it. A per-file rule
	// whose latest complete table is under other inputs may leave such a
	// path unjudged on a miss (Verdicts.Leave), reporting the count to
	// LeftToBattery; the hook says so and records the debt.
	Unchanged func(path string) bool
	// LeftToBattery receives, once per rule run, how many files the rule
	// left unjudged (never called with 0).
	LeftToBattery func(n int)
	// Prior, when set, names the tree this run's tree was made from (a
	// landed commit's first parent) and the listed paths whose bytes
	// differ between the two; every other path, and every mode, is the
	// same. A whole-listing rule may start from the result it kept for
	// that tree and judge the changed paths alone (see Prior).
	Prior *Prior
	// PriorFn, when set and Prior is not, answers Prior once the tree is
	// known (an edit's view is built on first use).
	PriorFn func() *Prior
	// LFSPointers, when set, receives once per rule run how many tracked
	// git-lfs pointers the rule read as text but did not count as judged
	// files, their content being elsewhere (never called with 0).
	LFSPointers func(n int)
	// Accepts, when set, is the baseline's ledger for this run: a finding
	// it accepts is kept as data but neither printed nor red (see Report).
	Accepts Accepter
	// ProposedMessage marks a commit-msg tier run over a message no
	// commit has been attempted with yet (the agent hook's check before a
	// `git commit` command runs): the message file is a scratch copy gone
	// after the run, so a rule names it by its role and words its remedy
	// for the command, not for a refused commit.
	ProposedMessage bool
	// ConfigCopy, when set, decides which copy of a file the rule opens by
	// path (a pattern list, an allowlist, a queue) it reads: found answers
	// the copy the commit records, and found false leaves the file on
	// disk. The git hook sets it, so these rule inputs come from the
	// index as the registry and knob files do; nil reads the disk.
	ConfigCopy func(abs string) (data []byte, found bool, err error)

	findings []Finding
	// nothing marks a clean run that checked nothing (Report.Nothing);
	// disarmedBy names the empty knob that disarmed it (Report.Disarmed).
	nothing    bool
	disarmedBy string
	// part, when set, is the share of the files a per-file rule judges in
	// a shard run (SetPart).
	part *partState
}

// CheckedNothing reports whether the run ended clean having checked
// nothing: disarmed, dormant, or over an input that is not there.
func (c *Context) CheckedNothing() bool { return c.nothing }

// DisarmedBy answers the knob whose empty value left the run with nothing
// to check, or "" when the run was not disarmed.
func (c *Context) DisarmedBy() string { return c.disarmedBy }

// Getenv answers an environment variable, empty when unset.
func (c *Context) Getenv(name string) string {
	if c.Env == nil {
		return ""
	}
	v, _ := c.Env(name)
	return v
}

// ChildEnviron is the whole environment of a process the rule starts: nil
// (inherit this process's) when SpawnEnv is empty, else this process's
// environment with SpawnEnv appended (later entries win).
func (c *Context) ChildEnviron() []string {
	if len(c.SpawnEnv) == 0 {
		return nil
	}
	return append(os.Environ(), c.SpawnEnv...)
}

// ID is the gate's stable upper-token identifier used on its clean line:
// the registered name upper-cased ("check-tree-terms" -> "CHECK-TREE-TERMS").
func ID(name string) string {
	return strings.ToUpper(strings.TrimPrefix(name, "check-"))
}

// Refuse prints a refusal naming the gate on stderr and answers exit 2.
// Use it whenever the gate could not decide: an unreadable input, a bad
// knob, a missing program.
func (c *Context) Refuse(format string, args ...any) int {
	// assertion C: could-not-decide is stderr and exit 2, never clean.
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintf(c.Err, "%s: %s\n", c.Name, strings.TrimRight(msg, "\n"))
	return Refused
}

// RefuseErr refuses with an error's text.
func (c *Context) RefuseErr(err error) int { return c.Refuse("%v", err) }

// Findings answers the structured findings reported so far, each with its
// class's help line: what SARIF and --format json render.
func (c *Context) Findings() []Finding { return c.findings }

// Finding is one violation. Path and Line locate it (Line 0: whole file;
// Path "": no file), Column narrows the line when the gate knows it; Class
// keys the help line; Msg says what is wrong. Text, when set, is printed
// verbatim instead of the composed line, for gates whose finding shape is
// pinned (e.g. "path:lineno:line"); such a gate still fills Path and Line.
// Help is filled by Report.Add from the class's remedy.
type Finding struct {
	Class  string
	Path   string
	Line   int
	Column int
	Msg    string
	Text   string
	Help   string
	// Identity is what the finding is about, as its gate defines it: the
	// part of the finding a routine edit (a moved line, a renamed file, a
	// bumped tag, a reworded message) leaves alone. The baseline keys an
	// accepted finding on its digest. It may hold the finding's own text
	// (a tree-terms match), so it is digested and never printed. Empty
	// means the gate defines none: the location-free text stands for it.
	Identity string
	// About is a short readable note of what the finding concerns (an
	// action and its step, a job, a pattern's place), written beside the
	// baseline entry for a reviewer. It never holds the matched text.
	About string
	// Accepted is set by Report.Add on a finding the baseline accepts.
	Accepted bool
}

// Accepter is a baseline's view for one gate run: Accept spends one
// accepted entry matching f, if any is left; Source names the file.
type Accepter interface {
	Accept(f Finding) bool
	Source() string
}

// String renders the finding in the contract's text form.
func (f Finding) String() string {
	if f.Text != "" {
		return f.Text
	}
	// assertion E: a path is spelled as git quotes it, so a name holding
	// a newline cannot split one finding into two lines.
	switch {
	case f.Path == "":
		return f.Msg
	case f.Line > 0 && f.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s", QuotePath(f.Path), f.Line, f.Column, f.Msg)
	case f.Line > 0:
		return fmt.Sprintf("%s:%d: %s", QuotePath(f.Path), f.Line, f.Msg)
	default:
		return fmt.Sprintf("%s: %s", QuotePath(f.Path), f.Msg)
	}
}

// Report collects a gate's findings and prints the output contract.
type Report struct {
	c       *Context
	helps   map[string]string
	classes []string // classes with findings, in first-appearance order
	seen    map[string]bool
	// accepted counts the findings the baseline accepted.
	accepted int
	// notes are what the gate says it held back, printed with the
	// report whatever its verdict.
	notes []string
}

// NewReport starts a report. helps maps each failure class the gate can
// produce to its remedy; a finding of an unknown class is a programming
// error and panics (the battery turns a panic into exit 2).
func (c *Context) NewReport(helps map[string]string) *Report {
	return &Report{c: c, helps: helps, seen: map[string]bool{}}
}

// Add prints one finding line at once and remembers its class. A finding
// the baseline accepts is kept for the structured renderers, marked, and
// neither printed nor counted against the gate.
func (r *Report) Add(f Finding) {
	if _, ok := r.helps[f.Class]; !ok {
		panic(fmt.Sprintf("gate %s: finding class %q has no help line", r.c.Name, f.Class))
	}
	f.Help = r.helps[f.Class]
	// assertion F: the one place a baseline decides: every caller's text,
	// SARIF and JSON read what Add kept.
	if r.c.Accepts != nil && r.c.Accepts.Accept(f) {
		f.Accepted = true
		r.accepted++
		r.c.findings = append(r.c.findings, f)
		return
	}
	fmt.Fprintln(r.c.Out, f.String())
	r.c.findings = append(r.c.findings, f)
	if !r.seen[f.Class] {
		r.seen[f.Class] = true
		r.classes = append(r.classes, f.Class)
	}
}

// Note records what the gate left unjudged or held back: a clause of the
// clean line's parenthetical on a clean report, a note: line after the
// help lines on a red one, so neither verdict hides it.
func (r *Report) Note(s string) {
	r.notes = append(r.notes, s)
}

// Failed reports whether any finding was added.
func (r *Report) Failed() bool { return len(r.classes) > 0 }

// Done ends the report: with no finding it prints the clean line with the
// given parenthetical and answers 0; otherwise one help line per failure
// class, in the order the classes first appeared, and answers 1.
//
// Findings the baseline accepted are counted: on the clean line after the
// parenthetical, or, under a red report, on a note after the help lines.
func (r *Report) Done(parenthetical string) int {
	if !r.Failed() {
		// assertion A: one clean line naming what was checked.
		if r.accepted > 0 {
			if parenthetical != "" {
				parenthetical += "; "
			}
			parenthetical += r.acceptedPhrase()
		}
		for _, note := range append(append([]string(nil), r.notes...), r.c.vendoredNote(), r.c.partNote()) {
			if note == "" {
				continue
			}
			if parenthetical != "" {
				parenthetical += "; "
			}
			parenthetical += note
		}
		fmt.Fprintf(r.c.Out, "%s: clean (%s)\n", ID(r.c.Name), parenthetical)
		return Clean
	}
	// assertion B: one help line per failure class, in first-appearance order.
	for _, class := range r.classes {
		fmt.Fprintf(r.c.Out, "help: %s\n", r.helps[class])
	}
	if r.accepted > 0 {
		fmt.Fprintf(r.c.Out, "note: %s, not shown\n", r.acceptedPhrase())
	}
	for _, note := range r.notes {
		fmt.Fprintf(r.c.Out, "note: %s\n", note)
	}
	if note := r.c.vendoredNote(); note != "" {
		fmt.Fprintf(r.c.Out, "note: %s\n", note)
	}
	// assertion H: a shard's per-file report, clean or red, says it judged
	// part of the tree, never the whole.
	if note := r.c.partNote(); note != "" {
		fmt.Fprintf(r.c.Out, "note: %s\n", note)
	}
	return Failed
}

// Nothing ends a report over which the gate checked nothing (dormant, an
// absent input, zero items to judge): it prints the clean line as Done
// does, and marks the run so the battery counts it on its summary line.
func (r *Report) Nothing(parenthetical string) int {
	// assertion G: a clean line that checked nothing says so as data.
	if !r.Failed() {
		r.c.nothing = true
	}
	return r.Done(parenthetical)
}

// Disarmed is Nothing for a gate that checked nothing because knob
// resolves empty: the knob its descriptor's `# armed-by:` line names, so
// doctor names the same state.
func (r *Report) Disarmed(knob, parenthetical string) int {
	if !r.Failed() {
		r.c.disarmedBy = knob
	}
	return r.Nothing(parenthetical)
}

// acceptedPhrase counts the accepted findings: "1 finding accepted by
// scripts/gates.baseline".
func (r *Report) acceptedPhrase() string {
	noun := "findings"
	if r.accepted == 1 {
		noun = "finding"
	}
	return fmt.Sprintf("%d %s accepted by %s", r.accepted, noun, r.c.Accepts.Source())
}

// Rule is an in-process gate.
type Rule func(c *Context) int

// Def binds a descriptor name to its rule.
type Def struct {
	Name  string
	Owner string // declaring kit's directory name; "" for a consumer-declared member
	// Operands is the operand grammar its help prints, e.g. "[<root>]";
	// "-" declares that the gate takes none, "" that it is undocumented.
	Operands string
	// Word, when set, reports the operands, by position, that are words
	// and not paths (check-release-assets' version): a standalone run
	// hands them to the rule as written, where every other operand is
	// resolved from the caller's directory.
	Word  func(args []string, i int) bool
	Knobs []string // knobs the rule reads; their kits' tracked knob files become derived couples
	// Reads declares every recursive walk the rule makes, one root each
	// (see Root). Empty claims no walk. check-reads-couples holds each
	// root's tracked read set to the member's expanded couples.
	Reads []Root
	// ReadsTree marks a rule that reads the bytes of (nearly) every
	// tracked file. The battery starts such members before the others, so
	// their scans run side by side and the files they all read are read
	// once (see Claimer). Scheduling only: no verdict depends on it.
	ReadsTree bool
	// Listing declares that the rule's verdict can move with the tracked
	// listing or a path's mode beyond its trigger (it calls Tree.Files or
	// Tree.Mode): the pre-commit hook runs it on any staged change that
	// adds, removes, retypes or chmods a path. A rule declaring a walk
	// (Reads) counts as one without it. A recorder test holds the
	// declaration to the calls each rule makes.
	Listing bool
	// Needs declares the external programs the rule may start, each as
	// PATH names it; "?\t<KNOB>" for a program a knob's value names.
	Needs []string
	// OwnOnly marks a rule that judges gates (their descriptors, scripts,
	// fixtures, SPECs, templates, shell): in a consumer it judges the
	// repository's own and never the kit root init vendored (own.go).
	OwnOnly bool
	// PerFile declares that the rule's verdict on each file it judges
	// depends on that file alone (its path, mode and bytes, under the
	// rule's configuration), never on which other files are judged with
	// it. Under `--shard K/N` such a rule runs in every shard and judges
	// only the files Context.Judges answers for; the shards together
	// judge each file once. A rule that decides over the whole tree leaves
	// it false and runs whole in one shard.
	PerFile bool
	// AnyLayout marks a rule whose verdict needs nothing of the project's
	// layout: it judges each file's bytes, the commit's message or the
	// committing clone, under configuration alone. A commit whose tree
	// records no registry (a pages branch, a tree from before the
	// adoption) is judged by these members only, with the configuration
	// the default branch records (see the cli's foreign judge).
	AnyLayout bool
	Rule      Rule
}

// Root is one declared walk: where it starts, which files it selects and
// which subtrees it never enters. A root the registry cannot bound
// statically is Dynamic, with its Ground saying where the walk is.
type Root struct {
	// Path is the root, repository-relative ("." for the top). It may be
	// a knob-path token, knob:<NAME>, resolved at check time.
	Path string
	// Filter is "<kind>:<source>": kind glob:, name: or ext:, source
	// knob:<NAME> or lit:<comma-list>. Empty means unfiltered.
	Filter string
	// Prune lists root-relative directory globs the walk never enters.
	Prune []string
	// Dynamic marks a root computed at run time; Ground is then
	// "dynamic@<path>:<line>[ via <symbol>]".
	Dynamic bool
	Ground  string
}

// Prior is a tree a run's tree differs from only in the bytes of some
// listed paths: no path added, dropped or re-moded.
type Prior struct {
	// Digest is the prior tree's whole-listing digest, spelled as a
	// snapshot of it spells TreeDigest.
	Digest string
	// Changed are the paths whose bytes differ, in byte order.
	Changed []string
}

// IsChanged reports whether path is one of p's changed paths.
func (p *Prior) IsChanged(path string) bool {
	if p == nil {
		return false
	}
	i := sort.SearchStrings(p.Changed, path)
	return i < len(p.Changed) && p.Changed[i] == path
}

// TreePrior answers the run's prior tree: Prior, else PriorFn's answer,
// else nil.
func (c *Context) TreePrior() *Prior {
	if c.Prior != nil {
		return c.Prior
	}
	if c.PriorFn != nil {
		return c.PriorFn()
	}
	return nil
}
