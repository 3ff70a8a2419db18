package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/baseline"
	"github.com/gate-sdk/gates/internal/battery"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// baselineUsage is `gates baseline`'s usage text.
const baselineUsage = `usage: gates baseline [--prune]

Records the findings the registered gates report today in the gates
directory's gates.baseline (one sorted line per finding: gate, path, class,
a digest of the finding's fingerprint, and a note of what it accepts). A
fingerprint is what the finding is about as its gate defines it (an
action and its step, a job, a pattern and the text it matched), so a
moved line, a bumped tag or a renamed file keeps it accepted. A recorded
finding is counted on its gate's clean line instead of turning it red;
a new one reds as before. Review the file's diff like any other change:
the pre-commit hook names each entry a commit adds.

  --prune  remove only the entries no current finding matches (the ones
           ` + "`gates doctor`" + ` names as stale), and change nothing else

A consumer's .sh gate prints text only, so its findings are not recorded.
Exit 0 written, 2 a gate could not run or the file is malformed (nothing
written).`

// runBaseline is `gates baseline [--prune]`.
func runBaseline(s *Session, args []string) int {
	return readableCommand(s, args, baselineUsage, func() int {
		prune := false
		for _, a := range args {
			if a != "--prune" || prune {
				fmt.Fprintf(s.Stderr, "baseline: unexpected argument %q\n%s\n", a, baselineUsage)
				return 2
			}
			prune = true
		}
		st, err := s.baselineStudy()
		if err != nil {
			fmt.Fprintf(s.Stderr, "baseline: %v\n", strings.TrimRight(err.Error(), "\n"))
			return 2
		}
		for _, n := range st.shells {
			fmt.Fprintf(s.Stdout, "baseline: note: %s is a .sh gate; it prints text only, so its findings are not recorded and red as before\n", n)
		}
		if prune {
			return s.pruneBaseline(st)
		}
		return s.recordBaseline(st)
	})
}

// baselineStudy is the registered gates run once with no baseline, beside
// the baseline on disk: what `gates baseline` writes and doctor compares.
type baselineStudy struct {
	source  string
	old     *baseline.File // nil: no file
	current *baseline.Tally
	ran     map[string]bool // the gates whose findings are in current
	perGate map[string]int  // current findings by gate
	order   []string        // the gates that ran, in registry order
	shells  []string        // .sh members, not recorded
	// unregistered holds the baseline's gates the registry does not name.
	unregistered map[string]bool
}

// baselineStudy runs every registered member over the work tree with the
// baseline off. A member that could not run refuses the study: its
// findings are unknown, so nothing about them can be recorded or pruned.
func (s *Session) baselineStudy() (*baselineStudy, error) {
	if _, err := s.Top(); err != nil {
		return nil, err
	}
	src, err := s.baselineSource()
	if err != nil {
		return nil, err
	}
	old, err := s.diskBaseline()
	if err != nil {
		return nil, err
	}
	gatesDir, err := s.GatesDir()
	if err != nil {
		return nil, err
	}
	reg, err := s.loadRegistry(gatesDir)
	if err != nil {
		return nil, err
	}
	st := &baselineStudy{source: src, old: old, current: &baseline.Tally{}, ran: map[string]bool{},
		perGate: map[string]int{}, unregistered: map[string]bool{}}
	s.baselines.off = true
	defer func() { s.baselines.off = false }()
	var members []battery.Member
	for _, m := range reg.Distinct() {
		if m.Kind == registry.Shell {
			st.shells = append(st.shells, m.Name)
			continue
		}
		members = append(members, s.batteryMember(selection{member: m}, reg.Path))
	}
	jobs, err := s.jobs()
	if err != nil {
		return nil, err
	}
	scratch, err := s.scratchDir("gates-baseline-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	budget, err := s.gateBudget()
	if err != nil {
		return nil, err
	}
	verdicts := battery.Run(members, battery.Options{Jobs: jobs, Budget: budget, Scratch: func(name string) (string, error) {
		return os.MkdirTemp(scratch, name+"-")
	}})
	for _, v := range verdicts {
		if v.Verdict() == battery.CouldNotRun {
			out := strings.TrimRight(string(v.Output), "\n")
			return nil, fmt.Errorf("%s could not run, so its findings are unknown and nothing was written:\n%s", v.Name, out)
		}
		st.ran[v.Name] = true
		st.order = append(st.order, v.Name)
		fs := gateFindings(v.Findings)
		st.current.Add(v.Name, fs)
		st.perGate[v.Name] = len(fs)
	}
	if old != nil {
		for _, g := range old.Gates() {
			if _, ok := reg.Member(g); !ok {
				st.unregistered[g] = true
			}
		}
	}
	return st, nil
}

// gateFindings turns a member's structured findings back into the rule's
// shape as far as a key reads it: a finding whose message is its printed
// text had no message of its own (see structured).
func gateFindings(fs []battery.Finding) []gate.Finding {
	out := make([]gate.Finding, 0, len(fs))
	for _, f := range fs {
		g := gate.Finding{Class: f.Class, Path: f.Path, Line: f.Line, Column: f.Column, Msg: f.Message, Text: f.Text,
			Identity: f.Identity, About: f.About}
		if f.Message == f.Text {
			g.Msg = ""
		}
		out = append(out, g)
	}
	return out
}

// stale answers the entries no current finding matches: a registered
// gate's by its findings, and every entry of a gate no longer registered.
func (st *baselineStudy) stale() (accepted map[string]int, stale []baseline.Stale) {
	if st.old == nil {
		return map[string]int{}, nil
	}
	accepted, stale = st.old.Match(st.current, st.ran)
	for _, e := range st.old.Entries {
		if st.unregistered[e.Gate] {
			stale = append(stale, baseline.Stale{Entry: e, Unmatched: e.Count})
		}
	}
	sort.SliceStable(stale, func(i, j int) bool { return stale[i].Line < stale[j].Line })
	return accepted, stale
}

func (s *Session) writeBaseline(src string, entries []baseline.Entry) error {
	cwd, err := s.Cwd()
	if err != nil {
		return err
	}
	if err := os.WriteFile(walk.AbsAgainst(cwd, src), baseline.Format(entries), 0o644); err != nil {
		return fmt.Errorf("cannot write %s: %v", src, err)
	}
	return nil
}

func (s *Session) recordBaseline(st *baselineStudy) int {
	entries := st.current.Entries()
	total := 0
	for _, g := range st.order {
		if n := st.perGate[g]; n > 0 {
			fmt.Fprintf(s.Stdout, "baseline: %s: %s accepted\n", g, findingsPhrase(n))
			total += n
		}
	}
	if total == 0 && st.old == nil {
		fmt.Fprintf(s.Stdout, "baseline: no registered gate has a finding; %s not written\n", st.source)
		return 0
	}
	if err := s.writeBaseline(st.source, entries); err != nil {
		fmt.Fprintf(s.Stderr, "baseline: %v\n", err)
		return 2
	}
	fmt.Fprintf(s.Stdout, "baseline: wrote %s (%s in %d lines); commit it, and review its diff like any other change\n", st.source, findingsPhrase(total), len(entries))
	return 0
}

func (s *Session) pruneBaseline(st *baselineStudy) int {
	if st.old == nil {
		fmt.Fprintf(s.Stdout, "baseline: no %s; nothing to prune\n", st.source)
		return 0
	}
	_, stale := st.stale()
	if len(stale) == 0 {
		fmt.Fprintf(s.Stdout, "baseline: every entry of %s matches a current finding; nothing pruned\n", st.source)
		return 0
	}
	// assertion F: prune removes the stale entries (or the stale part of
	// a count) and leaves every other line as it was.
	if err := s.writeBaseline(st.source, st.old.Pruned(stale)); err != nil {
		fmt.Fprintf(s.Stderr, "baseline: %v\n", err)
		return 2
	}
	for _, x := range stale {
		fmt.Fprintf(s.Stdout, "baseline: pruned %s:%d: %s\n", st.source, x.Line, staleWhy(st, x))
	}
	fmt.Fprintf(s.Stdout, "baseline: removed %d stale %s from %s\n", len(stale), plural(len(stale), "entry", "entries"), st.source)
	return 0
}

// staleWhy names a stale entry: its line and why it matches nothing.
func staleWhy(st *baselineStudy, x baseline.Stale) string {
	line := x.Entry.String()
	switch {
	case st.unregistered[x.Gate]:
		return line + " (" + x.Gate + " is not registered)"
	case x.Unmatched < x.Count:
		return fmt.Sprintf("%s (%d of its %d findings no longer occur)", line, x.Unmatched, x.Count)
	}
	return line + " (no current finding matches it)"
}

func findingsPhrase(n int) string { return fmt.Sprintf("%d %s", n, plural(n, "finding", "findings")) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// baselineDoctor is doctor's view of the baseline: a note per gate with
// accepted findings, a finding per stale entry and per gate not registered.
func (s *Session) baselineDoctor() (notes, findings []string, err error) {
	src, err := s.baselineSource()
	if err != nil {
		return nil, nil, err
	}
	old, err := s.diskBaseline()
	if err != nil || old == nil {
		return nil, nil, err
	}
	st, err := s.baselineStudy()
	if err != nil {
		return nil, nil, err
	}
	accepted, stale := st.stale()
	// assertion G: doctor lists the accepted findings per gate and names
	// every stale entry by its line.
	for _, g := range st.order {
		if n := accepted[g]; n > 0 {
			notes = append(notes, fmt.Sprintf("baseline: %s has %s accepted by %s", g, findingsPhrase(n), src))
		}
	}
	for _, g := range old.Gates() {
		if st.unregistered[g] {
			findings = append(findings, fmt.Sprintf("baseline: %s names %s, which is not registered; `gates baseline --prune` drops its entries", src, g))
		}
	}
	for _, x := range stale {
		if st.unregistered[x.Gate] {
			continue
		}
		findings = append(findings, fmt.Sprintf("baseline: stale entry %s:%d: %s; `gates baseline --prune` removes it", src, x.Line, staleWhy(st, x)))
	}
	return notes, findings, nil
}

// initBaseline runs `gates baseline` (this build, as a child) over top
// and answers the file it wrote. asCommitted runs it over a scratch copy
// of the index into which `git add -A` staged what the adoption commit
// will hold; the repository's own index is never touched.
func (s *Session) initBaseline(self, top string, asCommitted bool) ([]byte, error) {
	var env []string
	if asCommitted {
		e, done, err := asCommittedIndex(top)
		if err != nil {
			return nil, err
		}
		defer done()
		env = e
	}
	m, err := spawn.RunMerged(spawn.Cmd{Program: spawn.At(self), Args: []string{"baseline"}, Dir: top, ExtraEnv: env})
	if err != nil {
		return nil, err
	}
	if code := m.ReportedCode(); code != 0 {
		return nil, fmt.Errorf("exit %d: %s", code, strings.TrimSpace(string(m.Output())))
	}
	src, err := s.baselineSource()
	if err != nil {
		return nil, err
	}
	data, err := walk.ReadConfigIn(top, walk.AbsAgainst(top, src))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // no registered gate had a finding there
	}
	return data, err
}

// asCommittedIndex answers the environment naming a scratch copy of top's
// index into which `git add -A` staged what the adoption commit will hold,
// and the function removing it; the repository's own index is never
// touched.
func asCommittedIndex(top string) ([]string, func(), error) {
	place, err := walk.LocateIndex(top, nil)
	if err != nil {
		return nil, nil, err
	}
	tmp, err := os.CreateTemp(place.CommonDir, "gates-init-index-")
	if err != nil {
		return nil, nil, err
	}
	name := tmp.Name()
	done := func() { os.Remove(name) }
	cur, err := walk.ReadConfig(place.File)
	if err == nil {
		_, err = tmp.Write(cur)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, fs.ErrNotExist) {
		// No index yet: git starts one at the scratch name.
		err = os.Remove(name)
	}
	if err != nil {
		done()
		return nil, nil, err
	}
	env := []string{"GIT_INDEX_FILE=" + name}
	add, err := spawn.RunMerged(spawn.Cmd{Program: spawn.Git(), Args: []string{"add", "-A"}, Dir: top, ExtraEnv: env})
	if err != nil {
		done()
		return nil, nil, err
	}
	if code := add.ReportedCode(); code != 0 {
		done()
		return nil, nil, fmt.Errorf("git add -A into a scratch index: exit %d: %s", code, strings.TrimSpace(string(add.Output())))
	}
	return env, done, nil
}
