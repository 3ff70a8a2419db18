package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gate-sdk/gates/internal/battery"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gates"
	"github.com/gate-sdk/gates/internal/harness"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/walk"
)

// declineEnvelope is the fixed notice a declined hook writes on stdout, in
// the one field every harness event accepts.
const declineEnvelope = `{"systemMessage": "gate-sdk: the hook guards of this tree are not running: git found no repository here, refuses it, or skipped a nested one. Run git status here, or git --git-dir=<that .git> status for a skipped nested repository; gates names it on stderr."}`

// runHook is --hook <member>.
func runHook(s *Session, args []string) int {
	cwd, err := s.Cwd()
	var top string
	var found bool
	if err == nil && s.cwdTop != "" {
		// The run already entered the top it located from the process's
		// directory (walk.RunDir): that location is the answer.
		top, found = s.cwdTop, true
	} else if err == nil {
		top, found, err = walk.ToplevelOpt(cwd, nil)
	}
	if err != nil || !found {
		if cwd != "" {
			// assertion L: a tree whose settings register the gates
			// has a repository; one git cannot open is the judge's
			// footing gone, told to the model, never a decline.
			if why := lostRepository(s, cwd); why != "" {
				p, _ := harness.ReadPayload(s.Stdin)
				return harness.LostRepository(p, why, s.Stdout, s.Stderr)
			}
		}
		// assertion A: no repository, a refused one or a skipped nested
		// one: decline before the member is even validated, allowing the
		// call rather than wedging the session.
		if err == nil {
			err = fmt.Errorf("%s is not inside a git repository", cwd)
		}
		fmt.Fprintln(s.Stdout, declineEnvelope)
		fmt.Fprintf(s.Stderr, "gates --hook: %v\n", err)
		return 0
	}
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(s.Stderr, "usage: gates --hook <member>")
		return 2
	}
	m, ok := harness.Lookup(args[0])
	if !ok {
		// assertion B: an unknown member names the roster.
		fmt.Fprintf(s.Stderr, "gates --hook: no harness member named %q; members: %s\n", args[0], strings.Join(harness.Names(), " "))
		return 2
	}
	// assertion C: the member runs at the toplevel, so its knob files are
	// the tree's whatever directory the session's shell stands in.
	hs := newSession(s.IO)
	// The result caches the member's gates filled are kept, so the next
	// call over an unchanged file reads nothing.
	defer hs.close()
	// The top is the member's directory and its own top, located once
	// (Session.Top answers it without a second discovery).
	hs.cwdOnce.Do(func() { hs.cwd, hs.cwdTop = top, top })
	// A sparse checkout that keeps the gates dir off the disk: the members'
	// registry, knobs and declarations are read as the index records them,
	// as the git hooks read them (--git-hook T).
	hs.indexFirst = gatesDirKeptOff(s, top)
	// assertion D: the members judge the working tree as the agent left
	// it, untracked files included.
	// It is listed when a gate first reads it: a member that runs no gate
	// (a command that moved no ref, one with no message to judge) pays for
	// no listing.
	hs.treeBuild = func() (*repo.Snapshot, error) { return repo.NewWorkingSnapshot(top) }
	p, perr := harness.ReadPayload(s.Stdin)
	hr := newHookRepo(hs, top)
	call := &harness.Call{
		Member: m.Name, Payload: p, PayloadErr: perr,
		Stdout: s.Stdout, Stderr: s.Stderr,
		Gates: hookRunner{s: hs, top: top, cwd: cwd, edit: m.Name == "edit-gates", state: hr.StateDir},
		Repo:  hr,
		// commit-audit J: a look goes on past the 50 while
		// well inside the shortest timeout a judging event has (Stop's).
		JudgeBudget: judgeBudget,
	}
	return m.Run(call)
}

// lostRepository answers why no repository can be judged where the
// call's directory, or one above it, or the harness's project directory
// holds settings registering the gates' hooks while git cannot open the
// repository there ("" when no such tree is found, or its repository
// opens: the call then stands in another one git skipped). The user's
// own settings directory is not a tree.
func lostRepository(s *Session, cwd string) string {
	var dirs []string
	for d := cwd; ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if pd := s.Getenv("CLAUDE_PROJECT_DIR"); pd != "" {
		dirs = append(dirs, walk.AbsAgainst(cwd, pd))
	}
	home, _ := os.UserHomeDir()
	for _, d := range dirs {
		if d == home {
			continue
		}
		settings := ""
		for _, name := range []string{"settings.json", "settings.local.json"} {
			f := walk.Child(walk.Child(d, ".claude"), name) // consumer-value-exempt: the harness's own settings place
			if data, err := walk.ReadConfig(f); err == nil && harness.RegistersGates(data) {
				settings = f
				break
			}
		}
		if settings == "" {
			continue
		}
		mark := walk.Child(d, ".git") // consumer-value-exempt: git's own entry name
		if _, err := os.Lstat(mark); err != nil {
			return fmt.Sprintf("%s registers the gates' hooks, but %s is gone (%v): the repository they judge was moved or removed", settings, mark, err)
		}
		if _, ok, err := walk.ToplevelOpt(d, nil); err != nil || !ok {
			if err == nil {
				err = fmt.Errorf("git finds no repository there")
			}
			return fmt.Sprintf("%s registers the gates' hooks, but git cannot open the repository at %s: %v", settings, d, err)
		}
		return ""
	}
	return ""
}

// judgeBudget is how long one look may judge past the first 50 new
// commits: a sixth of Stop's 120 s timeout, the shortest of the events
// that judge.
const judgeBudget = 20 * time.Second

// hookRunner runs the registered gates in process for a harness member.
type hookRunner struct {
	s   *Session
	top string
	cwd string // the directory the arm was started in
	// edit marks edit-gates' runner, whose view is the index with the
	// edited file put over it (editView).
	edit bool
	// state answers the harness state directory, where Changed keeps the
	// tree memo of the last clean listing; nil keeps none.
	state func() (string, error)
}

// editFullView, set by a test only, makes edit-gates build the view of the
// whole work tree's index entries (NewEditSnapshot) on every call: the
// path the overlay is held equal to.
var editFullView bool

// editViewTaken, when a test sets it, is told which view each edit-gates
// call built: true for the overlay.
var editViewTaken func(overlay bool)

// ChangedBefore reports whether the entry at rel, under the top, was last
// changed before t (harness.Aged).
func (r hookRunner) ChangedBefore(rel string, t time.Time) bool {
	if !filepath.IsLocal(rel) {
		return false
	}
	return walk.ChangedBefore(walk.Child(r.top, rel), t)
}

// Rel spells a path the harness named relative to the top. A relative
// path is taken against the directory the arm was started in; both it and
// the top are canonicalised first (symbolic links resolved, "." and ".."
// applied), so a path reached through a link or a relative cwd is judged
// as the file it names.
func (r hookRunner) Rel(abs string) (string, bool) {
	if !walk.PathRoot(abs) {
		if r.cwd == "" {
			return "", false
		}
		abs = walk.AbsAgainst(r.cwd, abs)
	}
	// assertion F: the in-tree test compares physical paths.
	rel, ok := walk.RelUnder(canonicalPath(r.top), canonicalPath(abs))
	if !ok || rel == "" {
		return "", false
	}
	return rel, true
}

// canonicalPath answers p's physical spelling in the module's dialect. A
// path that does not exist (a file just deleted, a directory not made yet)
// keeps its missing tail under its deepest existing ancestor's physical
// spelling.
func canonicalPath(p string) string {
	p = walk.NormalizeAbs(p)
	var tail []string
	for {
		if phys, err := walk.Canonicalize(p); err == nil {
			out := walk.NormalizeAbs(walk.StripExtendedPrefix(phys))
			for i := len(tail) - 1; i >= 0; i-- {
				out = walk.Child(out, tail[i])
			}
			return out
		}
		i := strings.LastIndexByte(p, '/')
		if i <= 0 || tail != nil && len(tail) > 64 {
			return p
		}
		tail = append(tail, p[i+1:])
		p = p[:i]
	}
}

// Changed lists the uncommitted change; a Stop over a tree the last
// clean listing's memo still vouches for starts no git (repo.ChangedMemo).
func (r hookRunner) Changed() ([]string, error) {
	if r.state == nil {
		return repo.Changed(r.top)
	}
	dir, err := r.state()
	if err != nil {
		return repo.Changed(r.top)
	}
	return repo.Git{RecordVerified: cacheWanted(r.s), TreeWatch: treeWatchWanted(r.s)}.ChangedMemo(r.top, dir)
}

func (r hookRunner) registry() (*loadedRegistry, error) {
	gatesDir, err := r.s.GatesDir()
	if err != nil {
		return nil, err
	}
	return r.s.loadRegistry(gatesDir)
}

// ForPaths runs the pre-commit selection over paths, as the git hook
// would for a commit of them, but over the working tree.
func (r hookRunner) ForPaths(paths []string) (harness.Result, error) {
	// assertion P (edit-gates), R (stop-gates): a foreign work tree (a
	// pages branch checked out) is judged by the members that need no
	// layout, with the default branch's configuration.
	if res, handled, err := r.foreignWork(paths); handled || err != nil {
		return res, err
	}
	// The corpus is the index as the work tree holds it plus these paths:
	// an edit, or a Stop's uncommitted change (whose untracked files are
	// all among paths), is judged without walking the work tree.
	top := r.top
	r.s.treeBuild = func() (*repo.Snapshot, error) { return repo.NewEditSnapshot(top, paths) }
	if r.edit && !editFullView && !r.ruleInput(paths) {
		// The index is verified once and recorded, as the hooks' reads are.
		g := repo.Git{RecordVerified: cacheWanted(r.s)}
		r.s.treeBuild = func() (*repo.Snapshot, error) { return editView(g, top, paths) }
		if cacheWanted(r.s) {
			s := r.s
			r.s.editPrior = sync.OnceValue(func() *gate.Prior {
				snap, err := s.Snapshot()
				if err != nil {
					return nil
				}
				return editPriorOf(snap)
			})
		}
	}
	reg, err := r.registry()
	if err != nil {
		return harness.Result{}, err
	}
	sels, err := SelectForPaths(reg.Registry, reg.env, paths)
	if err != nil {
		return harness.Result{}, err
	}
	var plan []selection
	for _, sel := range sels {
		m := sel.member
		resolved := m.Kind == registry.Shell || m.Kind == registry.Descriptor
		if resolved && (m.Manifest == nil || m.Manifest.Graph == nil || m.Manifest.Graph.Tier != registry.TierPrecommit) {
			continue
		}
		if len(sel.args) > 0 {
			// A staged-mode member takes the selected paths that are
			// regular files now.
			var keep []string
			for _, p := range sel.args {
				if fi, err := os.Lstat(walk.Child(r.top, p)); err == nil && fi.Mode().IsRegular() {
					keep = append(keep, p)
				}
			}
			if len(keep) == 0 {
				continue
			}
			sel.args = keep
		}
		plan = append(plan, sel)
	}
	res, err := r.run(reg, plan)
	if err != nil {
		return res, err
	}
	// The agent's edit and stop hooks hold a gate of the repository's own
	// to its fixture pair as the pre-commit hook does (§--git-hook Y).
	ran, code, out, err := r.s.touchedPairs(paths)
	if err != nil {
		return res, err
	}
	if ran && code != 0 {
		res.Red = append(res.Red, harness.Red{Name: "the fixture pair of an edited gate", Code: code, Output: string(out)})
	}
	return res, nil
}

// editView is edit-gates' view at the cost of the edit (NewEditOverlay):
// the index with the edited paths put over it as the work tree holds
// them. Where the overlay cannot stand for the listing of the index's
// entries on disk, that listing (NewEditSnapshot) is built instead.
func editView(g repo.Git, top string, paths []string) (*repo.Snapshot, error) {
	// assertion D (edit-gates): no listing, stat or read of a file the
	// edit did not touch.
	snap, ok, err := g.NewEditOverlay(top, paths)
	if editViewTaken != nil {
		editViewTaken(ok)
	}
	if err != nil || ok {
		return snap, err
	}
	return repo.NewEditSnapshot(top, paths)
}

// ruleInput reports whether an edited path may change what the gates are
// or how they read (the registry, a knob or pattern list, a gate's own
// script or descriptor, a kit, the ignore and attribute files): such an
// edit is judged over the full view, never the overlay. A locator that
// does not resolve counts as one (the full view then says why).
func (r hookRunner) ruleInput(paths []string) bool {
	// assertion E (edit-gates): an edit of a rule input falls back to
	// the full view.
	gatesDir, err := r.s.GatesDir()
	if err != nil {
		return true
	}
	roots, err := r.s.KitRoots()
	if err != nil {
		return true
	}
	var under []string
	for _, d := range append([]string{gatesDir}, roots.Paths()...) {
		d = strings.TrimSuffix(walk.AbsAgainst(r.top, d), "/")
		rel, ok := walk.RelUnder(canonicalPath(r.top), canonicalPath(d))
		if !ok || rel == "" {
			// A locator outside the work tree, or the top itself.
			return true
		}
		under = append(under, rel+"/")
	}
	for _, p := range paths {
		base := p[strings.LastIndexByte(p, '/')+1:]
		switch base {
		case ".gitignore", ".gitattributes", ".gitmodules":
			return true
		}
		for _, ext := range []string{".knobs", ".list", ".gate", ".toml", ".sh", ".ps1"} {
			if strings.HasSuffix(base, ext) {
				return true
			}
		}
		for _, u := range under {
			if strings.HasPrefix(p, u) {
				return true
			}
		}
	}
	return false
}

// CommitMsg runs every commit-msg tier member over msg, written to a
// scratch file as git would hand it to the hook.
func (r hookRunner) CommitMsg(msg string) (harness.Result, error) {
	reg, err := r.registry()
	if registry.IsKind(err, registry.KindNoRegistry) {
		// assertion C (commit-guard): no registry on the disk (a pages
		// branch, a sparse checkout without the gates dir) leaves the
		// message to the commit-msg hook, which reads the index or the
		// default branch's configuration, and to the judge after the call.
		return harness.Result{}, nil
	}
	if err != nil {
		return harness.Result{}, err
	}
	dir, err := r.s.scratchDir("gates-hook-")
	if err != nil {
		return harness.Result{}, fmt.Errorf("cannot make a scratch directory: %v", err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "COMMIT_EDITMSG")
	if err := os.WriteFile(file, []byte(msg), 0o644); err != nil {
		return harness.Result{}, fmt.Errorf("cannot write the message to a scratch file: %v", err)
	}
	var plan []selection
	for _, m := range reg.Distinct() {
		if m.Resolution.Err() != nil || m.ManifestErr != nil || m.Manifest == nil || m.Manifest.Graph == nil {
			continue
		}
		if m.Manifest.Graph.Tier == registry.TierCommitMsg {
			plan = append(plan, selection{member: m, args: []string{file}})
		}
	}
	// The message is a proposal: the compiled members word their findings
	// for a command not yet run, and the scratch path, gone after this
	// call, is named by its role in a shell member's report too.
	r.s.proposedMessage = true
	defer func() { r.s.proposedMessage = false }()
	res, err := r.runIn(reg, plan, dir)
	for i := range res.Red {
		res.Red[i].Output = strings.ReplaceAll(res.Red[i].Output, file, gates.ProposedMessageName)
	}
	return res, err
}

func (r hookRunner) run(reg *loadedRegistry, plan []selection) (harness.Result, error) {
	// assertion K (edit-gates): no scratch directory is made for a call
	// whose members never ask one. A compiled member is handed the
	// temporary directory itself, unmade paths being what it expects
	// (gate.Context.Scratch: it makes a fresh directory of its own under
	// it and removes that); a shell member's directory is made when the
	// battery asks it, and removed after the run.
	tmp, err := r.s.tmpDir()
	if err != nil {
		return harness.Result{}, fmt.Errorf("cannot make a scratch directory: %v", err)
	}
	var mu sync.Mutex
	var made []string
	defer func() {
		for _, d := range made {
			os.RemoveAll(d)
		}
	}()
	return r.runWith(reg, plan, func(int, string) string { return tmp }, func(name string) (string, error) {
		d, err := os.MkdirTemp(tmp, "gates-hook-"+name+"-")
		if err == nil {
			mu.Lock()
			made = append(made, d)
			mu.Unlock()
		}
		return d, err
	})
}

// runIn runs plan with scratch, a directory made for this call, as the
// parent of every member's scratch path.
func (r hookRunner) runIn(reg *loadedRegistry, plan []selection, scratch string) (harness.Result, error) {
	return r.runWith(reg, plan, func(i int, name string) string {
		return walk.AbsAgainst(scratch, strconv.Itoa(i)+"-"+name)
	}, func(name string) (string, error) {
		return os.MkdirTemp(scratch, name+"-")
	})
}

// runWith runs plan, handing the i-th compiled member the unmade path
// compiled answers and a shell member the directory shell makes.
func (r hookRunner) runWith(reg *loadedRegistry, plan []selection, compiled func(i int, name string) string, shell func(name string) (string, error)) (harness.Result, error) {
	if len(plan) == 0 {
		return harness.Result{}, nil
	}
	jobs, err := r.s.jobs()
	if err != nil {
		return harness.Result{}, err
	}
	members := make([]battery.Member, len(plan))
	// A compiled member is handed its scratch path unmade, as the battery
	// hands it (gate.Context.Scratch): the rules that write there make it
	// on first need, and the rest cost no mkdir and no removal each. A
	// shell member gets its directory made, as TMPDIR for the script.
	unmade := map[string]bool{}
	for i, sel := range plan {
		members[i] = r.s.batteryMember(sel, reg.Path)
		if sel.member.Kind == registry.Descriptor && members[i].Exec != nil && members[i].Harness == "" {
			unmade[members[i].Name] = true
			exec, dir := members[i].Exec, compiled(i, members[i].Name)
			members[i].Exec = func(ctx context.Context, _ string) battery.Outcome { return exec(ctx, dir) }
		}
	}
	budget, err := r.s.gateBudget()
	if err != nil {
		return harness.Result{}, err
	}
	verdicts := battery.Run(members, battery.Options{
		Jobs:   jobs,
		Budget: budget,
		Scratch: func(name string) (string, error) {
			if unmade[name] {
				return "", nil
			}
			return shell(name)
		},
	})
	res := harness.Result{Ran: len(verdicts)}
	for _, v := range verdicts {
		if v.Passed() {
			continue
		}
		code, out := v.Code, string(v.Output)
		if v.Harness != "" {
			code, out = 2, v.Harness
		} else if v.Unresolved {
			code = 2
		}
		res.Red = append(res.Red, harness.Red{Name: v.Name, Code: code, Output: out})
	}
	return res, nil
}

// editOverlayRecord names the file, under the result cache's directory,
// that records the last edit overlay judged over an index.
const editOverlayRecord = "edit-overlay.last"

// overlayRecordHead opens the record; its version changes with the layout
// (version 1 had no checksum line and is read as no record).
const overlayRecordHead = "overlay 2"

// overlayRecordSeal appends to rec (whole lines) the line that checks it:
// "crc " and the CRC-32C of rec in hex.
func overlayRecordSeal(rec string) []byte {
	sum := crc32.Checksum([]byte(rec), castagnoliTable)
	return fmt.Appendf([]byte(rec), "crc %08x\n", sum)
}

// overlayRecordLines answers a sealed record's lines, its checksum line
// left off, and whether it checks.
func overlayRecordLines(data []byte) ([]string, bool) {
	// The seal is the record's last line (a path may start "crc " too).
	i := bytes.LastIndex(data, []byte("\ncrc "))
	if i < 0 {
		return nil, false
	}
	body, tail := data[:i], data[i+len("\ncrc "):]
	if len(tail) != 9 || tail[8] != '\n' {
		return nil, false
	}
	body = append(body[:len(body):len(body)], '\n')
	want, err := strconv.ParseUint(string(tail[:8]), 16, 32)
	if err != nil || uint32(want) != crc32.Checksum(body, castagnoliTable) {
		return nil, false
	}
	return strings.Split(strings.TrimSuffix(string(body), "\n"), "\n"), true
}

var castagnoliTable = crc32.MakeTable(crc32.Castagnoli)

// writeInPlace writes data over the file name in place (made when absent)
// and cuts it to data's length: no new file each call, where a temporary
// file and a rename cost an inode's allocation on every Edit. A reader
// may see a mix of the old and new bytes, which its checksum refuses.
// Best effort: a record not written costs the next Edit its prior.
func writeInPlace(name string, data []byte) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	if _, err := f.WriteAt(data, 0); err == nil {
		_ = f.Truncate(int64(len(data)))
	}
	_ = f.Close()
}

// editPriorOf answers the prior tree an edit's overlay snap may start
// from: the overlay the last edit of the same index was judged in, whose
// whole results the members kept, differing from snap only in the bytes
// of both overlays' edited paths (every one tracked and present, under
// the index's modes). It records snap as the last overlay. nil when snap
// is no such overlay, no record names the same index, or the record
// cannot be read.
func editPriorOf(snap *repo.Snapshot) *gate.Prior {
	index, puts, ok := snap.EditOverlay()
	if !ok || snap.CommonDir() == "" {
		return nil
	}
	digest, ok := snap.TreeDigest()
	if !ok {
		return nil
	}
	dir := walk.Child(snap.CommonDir(), "gates-cache")
	file := walk.Child(dir, editOverlayRecord)
	var prior *gate.Prior
	if data, err := os.ReadFile(file); err == nil {
		// assertion F (edit-gates): the record is the index's checksum,
		// the overlay's digest and its edited paths, one a line.
		// assertion L (edit-gates): then the CRC-32C of those lines; a
		// record that does not check (cut short, or two writers'
		// bytes interleaved) names no prior.
		lines, ok := overlayRecordLines(data)
		if ok && len(lines) >= 3 && lines[0] == overlayRecordHead && lines[1] == index {
			if last := lines[2]; last != digest {
				changed := append(append([]string(nil), puts...), lines[3:]...)
				slices.Sort(changed)
				prior = &gate.Prior{Digest: last, Changed: slices.Compact(changed)}
			}
		}
	}
	rec := overlayRecordHead + "\n" + index + "\n" + digest + "\n"
	for _, p := range puts {
		rec += p + "\n"
	}
	if err := os.MkdirAll(dir, 0o755); err == nil {
		writeInPlace(file, overlayRecordSeal(rec))
	}
	return prior
}

// gatesDirKeptOff reports whether the registry list is absent from the
// disk while the index holds it (a sparse checkout keeping the gates dir
// off the disk). The gates dir's locator is the environment's alone, so a
// session of its own answers it, leaving the member's knobs unread.
func gatesDirKeptOff(s *Session, top string) bool {
	probe := newSession(s.IO)
	defer probe.close()
	probe.cwdOnce.Do(func() { probe.cwd, probe.cwdTop = top, top })
	list := registryListIn(probe, top)
	if list == "" {
		return false
	}
	if _, err := os.Lstat(walk.Child(top, filepath.FromSlash(list))); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	_, found, err := probe.indexCopy(top, filepath.FromSlash(list))
	return err == nil && found
}
