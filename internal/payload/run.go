package payload

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/githook"
	"github.com/gate-sdk/gates/internal/walk"
	"github.com/gate-sdk/gates/kits"
)

// RunInit is `gates init [--dry-run] [--hooks] | --uninstall [--dry-run]`.
// It answers 0 when the tree is as init wants it, 1 when an uninstall kept
// files the adopter changed, and 2 when it refused or could not run.
func RunInit(args []string, w *InitWorld) int {
	var dry, hooks, uninstall, takeOver bool
	for _, a := range args {
		switch a {
		case "-h", "--help":
			fmt.Fprintln(w.Stdout, InitUsage)
			return 0
		case "--dry-run":
			dry = true
		case "--hooks":
			hooks = true
		case "--uninstall":
			uninstall = true
		case "--take-over":
			takeOver = true
		case "--with-fixtures":
			w.WithFixtures = true
		default:
			fmt.Fprintf(w.Stderr, "init: unknown option %q\n%s\n", a, InitUsage)
			return 2
		}
	}
	if uninstall && (hooks || w.WithFixtures) {
		fmt.Fprintf(w.Stderr, "init: --uninstall takes neither --hooks nor --with-fixtures\n%s\n", InitUsage)
		return 2
	}
	if takeOver && !hooks {
		fmt.Fprintf(w.Stderr, "init: --take-over is --hooks' option\n%s\n", InitUsage)
		return 2
	}
	code, err := func() (int, error) {
		gatesDir, err := w.knobPath("GATE_SDK_GATES_DIR")
		if err != nil {
			return 2, err
		}
		lockRel := path.Join(gatesDir, LockName)
		lock, err := ReadLock(joinTop(w.Top, lockRel), lockRel)
		if err != nil {
			return 2, err
		}
		if !dry {
			// A run killed between writing the lock's temporary copy and
			// renaming it left that copy: init's own, whatever comes next.
			if err := os.Remove(joinTop(w.Top, lockRel) + tmpSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return 2, fmt.Errorf("init: cannot remove the leftover %s%s: %v", lockRel, tmpSuffix, err)
			}
			if interrupted, err := settlePending(w.Top, lock); err != nil {
				return 2, err
			} else if interrupted {
				fmt.Fprintf(w.Stdout, "init: %s records an install that was cut short; settling it\n", lockRel)
			}
		}
		if uninstall {
			return runUninstall(w, lock, lockRel, dry)
		}
		return runInstall(w, lock, lockRel, dry, hooks, takeOver)
	}()
	if err != nil {
		fmt.Fprintln(w.Stderr, strings.TrimRight(err.Error(), "\n"))
		return 2
	}
	return code
}

func runInstall(w *InitWorld, lock *Lock, lockRel string, dry, hooks, takeOver bool) (int, error) {
	// A tree that vendored the fixture pairs once keeps them current.
	if lock != nil && lockHoldsFixtures(lock) {
		w.WithFixtures = true
	}
	w.prior = lock
	p, err := BuildPlan(w)
	if err != nil {
		return 2, err
	}
	// assertion E: --hooks over another manager's hooks refuses as
	// --install-hooks does, before anything is written.
	if hooks && !takeOver {
		taken, err := w.Hooks.Foreign()
		if err != nil {
			return 2, err
		}
		if taken != "" {
			dir, err := w.Hooks.HooksDir()
			if err != nil {
				return 2, err
			}
			fmt.Fprint(w.Stderr, githook.TakeOverRefusal("init", taken, dir, joinTop(w.Top, p.Bin), "gates init --hooks --take-over"))
			return 2, nil
		}
	}
	// assertion F: init writes nothing through a symbolic link that leaves
	// the repository.
	if err := refuseEscapes(w.Top, p, lockRel); err != nil {
		return 2, err
	}
	// assertion G: a file init writes that an ignore rule would hide gets
	// a negation, or init refuses; either way it is named.
	if err := planNegations(w, p, lockRel); err != nil {
		return 2, err
	}
	steps, err := decide(w.Top, p, lock)
	if err != nil {
		return 2, err
	}
	appends, err := missingAppends(w.Top, p)
	if err != nil {
		return 2, err
	}
	// assertion A: a file init did not write, or one edited since, is
	// never overwritten; every conflict is named and nothing is written.
	var conflicts []string
	for _, s := range steps {
		if s.verb == "conflict" {
			conflicts = append(conflicts, fmt.Sprintf("init: refused: %s %s", s.path, s.why))
		}
	}
	if len(conflicts) > 0 {
		for _, c := range conflicts {
			fmt.Fprintln(w.Stderr, c)
		}
		fmt.Fprintln(w.Stderr, "init: nothing written; move each named file aside (or merge it into what init writes by hand, see --dry-run) and run init again")
		return 2, nil
	}
	if dry {
		printPlan(w, p, steps, appends)
		return 0, nil
	}
	upgrade := false
	if lock != nil {
		// assertion T: an upgrade says what the release changes, read off
		// the kit vendored here before anything is written over it.
		changes, err := releaseChanges(w.Top, p.KitRoot, steps)
		if err != nil {
			return 2, err
		}
		upgrade = len(changes) > 0
		printReleaseChanges(w.Stdout, lock.KitVersion, w.Stamp, changes)
	}
	next := &Lock{Version: LockVersion, Kit: kits.Core, KitRoot: p.KitRoot}
	if lock != nil {
		*next = *lock
		next.Files = append([]LockFile(nil), lock.Files...)
		next.Appended = append([]LockAppend(nil), lock.Appended...)
		next.Dirs = append([]string(nil), lock.Dirs...)
	}
	next.KitRoot = p.KitRoot
	// assertion J: the lock names every coming write before the first one.
	if anyWrite(steps) || len(appends) > 0 {
		if err := journal(w.Top, lockRel, next, steps, appends); err != nil {
			return 2, err
		}
	}
	wrote := map[string]int{}
	var registryStep, pageStep, keptRegistry *step
	pageWritten := false
	for i := range steps {
		s := &steps[i]
		switch s.verb {
		case "create", "update":
			if s.page {
				pageStep = s
				continue
			}
			if s.late {
				registryStep = s
				continue
			}
			if err := writeTracked(w.Top, s.path, s.data, s.exec, next); err != nil {
				return 2, err
			}
			wrote[s.class]++
			recordFile(next, s.path, Digest(s.data), s.class)
			announce(w, s)
		case "keep-edited":
			fmt.Fprintf(w.Stdout, "init: kept %s (%s)\n", s.path, s.why)
			if s.late && !s.page {
				keptRegistry = s
			}
		case "keep":
			if s.why != "" {
				fmt.Fprintf(w.Stdout, "init: did not write %s (%s)\n", s.path, s.why)
			} else if s.late && !s.page {
				keptRegistry = s
			}
		}
	}
	if p.ciWhy != "" {
		if _, err := os.Lstat(joinTop(w.Top, WorkflowPath)); errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(w.Stdout, "init: did not seed %s: %s, so a runner would have nothing to install it from. %s\n", WorkflowPath, p.ciWhy, CINeeds)
		}
	}
	for _, a := range p.appends {
		need := appends[a.path]
		if len(need) == 0 {
			continue
		}
		if err := appendTo(w.Top, a.path, need, next); err != nil {
			return 2, err
		}
		fmt.Fprintf(w.Stdout, "init: appended %s to %s\n", gate.Count(len(need), "line", "lines"), a.path)
	}
	if registryStep != nil {
		// The probes run against a provisional registry naming every
		// candidate, since some gates read the registry itself.
		var all strings.Builder
		for _, g := range append(append([]gateDecl(nil), p.zero...), p.onSurface...) {
			all.WriteString(g.name + "\n")
		}
		if err := writeTracked(w.Top, registryStep.path, []byte(all.String()), false, next); err != nil {
			return 2, err
		}
		accepting, err := baselineIsInits(w, p, lock)
		if err != nil {
			return 2, err
		}
		knobFile := path.Join(p.GatesDir, kits.Core+"-config.knobs")
		if p.history != nil && len(p.history.extra) > 0 {
			p.history.admitted = p.history.admits(w.Top, knobFile)
		}
		body, verdicts, red := registryBody(w, p, accepting)
		if err := writeTracked(w.Top, registryStep.path, body, false, next); err != nil {
			return 2, err
		}
		recordFile(next, registryStep.path, Digest(body), classSeed)
		// assertion K: where check-graph is registered, init writes the page
		// it holds fresh, before the baseline, so no finding of a missing
		// page is accepted.
		if pageWritten, err = writeGraphPage(w, pageStep, verdicts, next); err != nil {
			return 2, err
		}
		// assertion H: a registered gate's findings of today are accepted
		// in the baseline, and init says how many per gate.
		accepted, err := acceptToday(w, p, red, next)
		if err != nil {
			return 2, err
		}
		next.Registered = nil
		printHistory(w.Stdout, p, knobFile)
		printVisibility(w.Stdout, p, knobFile)
		for _, v := range verdicts {
			v.Accepted, v.AcceptedIn = accepted[v.Gate], baselinePath(p)
			PrintVerdict(w.Stdout, v)
			if v.Registered {
				next.Registered = append(next.Registered, v.Gate)
			}
		}
		recreated := ""
		if registryStep.why != "" {
			recreated = "; " + registryStep.why
		}
		fmt.Fprintf(w.Stdout, "init: wrote %s (%s registered; each left out is named there with its reason%s)\n", registryStep.path, gate.Count(len(next.Registered), "gate", "gates"), recreated)
	} else if keptRegistry != nil {
		// assertion P: a later run adds what now applies to the registry an
		// earlier one wrote, and rewrites no line the adopter wrote.
		if pageWritten, err = growInstall(w, p, keptRegistry.path, pageStep, lock, next); err != nil {
			return 2, err
		}
	}
	if wrote[classKit] > 0 {
		fmt.Fprintf(w.Stdout, "init: vendored %s of %s into %s/\n", gate.Count(wrote[classKit], "file", "files"), kits.Core, p.KitRoot)
	}
	// A journal written by a killed first run carries no stamps yet.
	if wrote[classKit] > 0 || lock == nil || next.KitVersion == "" {
		next.KitVersion = w.Stamp
	}
	if wrote[classBinary] > 0 || lock == nil || next.BinaryStamp == "" {
		next.BinaryStamp = w.Stamp
	}
	enc := next.Encode()
	// An absent lock is one to write; any other read failure refuses, so a
	// lock init cannot see is never overwritten blind.
	old, err := os.ReadFile(joinTop(w.Top, lockRel))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 2, fmt.Errorf("init: cannot read %s: %v", lockRel, err)
	}
	changed := !bytes.Equal(old, enc)
	if changed {
		if err := writeTracked(w.Top, lockRel, enc, false, nil); err != nil {
			return 2, err
		}
		fmt.Fprintf(w.Stdout, "init: recorded the install in %s\n", lockRel)
	}
	if hooks {
		if code, err := placeHooks(w, p, takeOver); err != nil || code != 0 {
			return code, err
		}
	} else if code, err := refreshHooks(w, p); err != nil || code != 0 {
		return code, err
	}
	if !changed && len(appends) == 0 {
		fmt.Fprintln(w.Stdout, "init: nothing to do; the tree is as init left it")
		return 0, nil
	}
	if upgrade {
		// An upgrade's next steps are the README's: review, doctor, commit;
		// the hooks and the harness were brought along above.
		fmt.Fprintf(w.Stdout, "\nnext:\n"+
			"  git status && git diff          what the release changed in your tree\n"+
			"  %[1]s doctor                 exit 0: nothing wrong\n"+
			"  git add -A && git commit -m 'chore: upgrade gate-sdk'\n", p.Bin)
		return 0, nil
	}
	battery := "  bash %[1]s/bin/run-gates.sh       the first battery (green on the tree as init found it)\n"
	if pageWritten {
		// The page is emitted over the adoption commit: it is fresh once
		// what init wrote is staged, and only then.
		battery = "  git add -A && bash %[1]s/bin/run-gates.sh   the first battery, over the staged adoption (check-graph's page is emitted over it)\n"
	}
	fmt.Fprintf(w.Stdout, "\nnext:\n"+
		battery+
		"  %[2]s doctor                       the gates that assert nothing yet, and the knob arming each\n"+
		"  git add -A && git commit -m 'chore: vendor gate-sdk'\n"+
		"  %[2]s init --hooks                 place the pre-commit and commit-msg hooks in this clone\n"+
		"  %[1]s/templates/adopt.md          the walk that fits the knobs to this repository\n",
		p.KitRoot, p.Bin)
	return 0, nil
}

func announce(w *InitWorld, s *step) {
	switch s.class {
	case classBinary:
		fmt.Fprintf(w.Stdout, "init: placed the gates binary at %s (%s)\n", s.path, w.Stamp)
	case classSeed:
		verb := "wrote"
		if s.verb == "update" {
			verb = "updated"
		}
		if s.why != "" {
			fmt.Fprintf(w.Stdout, "init: %s %s (%s)\n", verb, s.path, s.why)
			return
		}
		fmt.Fprintf(w.Stdout, "init: %s %s\n", verb, s.path)
	}
}

func printPlan(w *InitWorld, p *Plan, steps []step, appends map[string][]string) {
	counts := map[string]int{}
	for _, s := range steps {
		switch {
		case s.class == classKit:
			counts[s.verb]++
		case s.page && s.verb == "create":
			fmt.Fprintf(w.Stdout, "would create %s, check-graph's page, where the registry names check-graph\n", s.path)
		case s.late && s.verb == "create":
			fmt.Fprintf(w.Stdout, "would create %s: %d zero-config gates, then each on-surface gate that runs on the tree (probed once the rest is written), today's findings accepted in %s\n", s.path, len(p.zero), baselinePath(p))
		case s.verb == "create" || s.verb == "update":
			fmt.Fprintf(w.Stdout, "would %s %s\n", s.verb, s.path)
		case s.verb == "keep-edited":
			fmt.Fprintf(w.Stdout, "would keep %s (%s)\n", s.path, s.why)
		}
	}
	if counts["create"]+counts["update"] > 0 {
		fmt.Fprintf(w.Stdout, "would vendor %s into %s/: %d files to create, %d to update, %d already in place\n",
			kits.Core, p.KitRoot, counts["create"], counts["update"], counts["present"]+counts["keep"])
	}
	var names []string
	for n := range appends {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w.Stdout, "would append to %s: %s\n", n, strings.Join(appends[n], " | "))
	}
	if len(names) == 0 && !anyWrite(steps) {
		fmt.Fprintln(w.Stdout, "nothing to do; the tree is as init left it")
	}
}

func anyWrite(steps []step) bool {
	for _, s := range steps {
		if s.verb == "create" || s.verb == "update" {
			return true
		}
	}
	return false
}

// registryBody decides each kit gate, probing those the repository's
// shape admits, and answers gates.list's body, the verdicts in order and
// the registered gates that red today (their findings go to the baseline
// when accepting, else they are left out).
func registryBody(w *InitWorld, p *Plan, accepting bool) ([]byte, []Verdict, []string) {
	var b strings.Builder
	b.WriteString("# gates.list — this repository's battery, one gate per line, run in order.\n" +
		"# Seeded by `gates init`; the file is yours. `gates doctor` names the gates\n" +
		"# that assert nothing yet and the knob that arms each.\n" +
		"# Zero-config: nothing they can red on is a rule you have not chosen.\n")
	var verdicts []Verdict
	var left, red []string
	decideAll := func(gs []gateDecl, class string) {
		for _, g := range gs {
			v, isRed := adoptVerdict(w, p, g.name, accepting)
			verdicts = append(verdicts, v)
			if isRed {
				red = append(red, g.name)
			}
			if v.Registered {
				b.WriteString(g.name + "\n")
			} else {
				left = append(left, "# unregistered: "+g.name+" \u2014 "+class+": "+v.Why+"\n")
			}
		}
	}
	decideAll(p.zero, "zero-config")
	b.WriteString("# On-surface: registered where they run on this tree; the findings it had when\n# init ran are accepted in " + baselinePath(p) + ".\n")
	decideAll(p.onSurface, "on-surface")
	for _, l := range left {
		b.WriteString(l)
	}
	return []byte(b.String()), verdicts, red
}

// adoptVerdict decides one gate: not considered for a repository of this
// shape, not adopted by its history, or probed over the tree init leaves.
func adoptVerdict(w *InitWorld, p *Plan, gate string, accepting bool) (Verdict, bool) {
	v := Verdict{Gate: gate, Why: p.shape.considered(gate, p.GatesDir)}
	if v.Why == "" && adoptionRule[gate] == needsHistory {
		why, err := historyVerdict(w, p, gate)
		if err != nil {
			why = "the commit history could not be read: " + err.Error()
		}
		v.Why = why
	}
	red := false
	if v.Why == "" {
		v, red = probeVerdict(w, p, gate, accepting)
	}
	v.Registered = v.Why == ""
	return v, red
}

// probeVerdict runs one gate over the tree init leaves; it answers
// whether the gate reds today (registered all the same when accepting).
func probeVerdict(w *InitWorld, p *Plan, gate string, accepting bool) (Verdict, bool) {
	v := Verdict{Gate: gate}
	// assertion B: a gate registers where it runs on the tree init
	// leaves, its findings of today accepted in the baseline; one that
	// cannot run is named with the reason.
	code, out, err := w.Probe(gate)
	if err == nil && (code == 0 || code == 1 && accepting) {
		v.Files = unreadFiles(out, baselinePath(p))
	}
	switch {
	case err != nil:
		v.Why = "could not be probed: " + err.Error()
	case code == 1 && accepting:
		return v, true
	case code == 1:
		v.Why = fmt.Sprintf("reds on the tree as init found it (%d finding lines), and %s is yours, not init's; run `gates baseline` to accept them, then register it", findingLines(out), baselinePath(p))
	case code != 0:
		v.Why = "cannot run on this tree yet: " + firstLine(out)
	}
	return v, false
}

// The Actions gates' words for a YAML file they could not read: on the
// clean line, the files GitHub never loads that they skipped; as a
// finding, a file GitHub loads.
var (
	skippedYAML  = regexp.MustCompile(`(\d+) unparseable YAML files? skipped`)
	testInputs   = regexp.MustCompile(`(\d+) test inputs? under testdata/ skipped`)
	unreadableAt = regexp.MustCompile(`(?m)^([^:\n]+):\d+: cannot read .* \(GitHub loads this file\)$`)
)

// unreadFiles answers what init did about the files a probed gate could not
// read, as one clause of its verdict line: a gate is never left out for a
// file. A file GitHub loads is accepted in the baseline with the gate's
// other findings of today; the rest the gate skips and counts each run.
func unreadFiles(out []byte, baselineFile string) string {
	var parts []string
	seen := map[string]bool{}
	var names []string
	for _, m := range unreadableAt.FindAllSubmatch(out, -1) {
		if p := string(m[1]); !seen[p] {
			seen[p] = true
			names = append(names, p)
		}
	}
	if len(names) > 0 {
		parts = append(parts, fmt.Sprintf("%s GitHub loads cannot be read (%s): accepted in %s until fixed", gate.Count(len(names), "file", "files"), strings.Join(names, ", "), baselineFile))
	}
	if m := skippedYAML.FindSubmatch(out); m != nil {
		parts = append(parts, string(m[0])+" (GitHub never loads them; the gate skips them each run)")
	}
	if m := testInputs.FindSubmatch(out); m != nil {
		parts = append(parts, string(m[0])+" (GitHub never loads them; the gate skips them each run)")
	}
	return strings.Join(parts, "; ")
}

func findingLines(out []byte) int {
	n := 0
	for _, l := range strings.Split(string(out), "\n") {
		if l != "" && !strings.HasPrefix(l, "help:") && !strings.Contains(l, ": FAIL") && !strings.Contains(l, ": clean") {
			n++
		}
	}
	return n
}

func firstLine(out []byte) string {
	l, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return strings.ReplaceAll(l, "\u2014", "-")
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func recordFile(l *Lock, rel, digest, class string) {
	for i := range l.Files {
		if l.Files[i].Path == rel {
			l.Files[i].SHA256, l.Files[i].Class = digest, class
			return
		}
	}
	l.Files = append(l.Files, LockFile{Path: rel, SHA256: digest, Class: class})
}

// mkParents makes rel's missing parent directories, recording each one it
// created in the lock (when given) so the reversal can remove it.
func mkParents(top, rel string, l *Lock) error {
	var missing []string
	for d := path.Dir(rel); d != "." && d != "/"; d = path.Dir(d) {
		if isDir(joinTop(top, d)) {
			break
		}
		missing = append(missing, d)
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(joinTop(top, missing[i]), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("init: cannot create %s: %v", missing[i], err)
		}
		if l != nil && !slices.Contains(l.Dirs, missing[i]) {
			l.Dirs = append(l.Dirs, missing[i])
		}
	}
	return nil
}

// tmpSuffix names the sibling a file is written under before its rename.
const tmpSuffix = ".gates-init.tmp"

// writeTracked writes data at rel through a sibling temporary file and a
// rename, so a running binary being replaced is never written in place.
func writeTracked(top, rel string, data []byte, exec bool, l *Lock) error {
	if err := mkParents(top, rel, l); err != nil {
		return err
	}
	perm := fs.FileMode(0o644)
	if exec {
		perm = 0o755
	}
	dst := joinTop(top, rel)
	tmp := dst + tmpSuffix
	if err := os.WriteFile(tmp, data, perm); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("init: cannot write %s: %v", rel, err)
	}
	if err := os.Chmod(tmp, perm); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("init: cannot set the mode of %s: %v", rel, err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("init: cannot place %s: %v", rel, err)
	}
	return nil
}

// appendTo adds lines to rel, after a newline when the file does not end
// in one, and records the exact bytes added.
func appendTo(top, rel string, lines []string, l *Lock) error {
	dst := joinTop(top, rel)
	cur, err := os.ReadFile(dst)
	created := errors.Is(err, fs.ErrNotExist)
	if err != nil && !created {
		return fmt.Errorf("init: cannot read %s: %v", rel, err)
	}
	suffix := appendSuffix(cur, lines)
	if created {
		if err := mkParents(top, rel, l); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("init: cannot open %s: %v", rel, err)
	}
	_, werr := f.WriteString(suffix)
	// A close that fails loses the lines as surely as a write that
	// fails; either is named.
	werr = errors.Join(werr, f.Close())
	if werr != nil {
		return fmt.Errorf("init: cannot append to %s: %v", rel, werr)
	}
	l.Appended = append(l.Appended, LockAppend{Path: rel, Suffix: suffix, Created: created})
	return nil
}

// placeHooks records the hook configuration it finds, once, and places
// the hooks with the placed binary.
func placeHooks(w *InitWorld, p *Plan, takeOver bool) (int, error) {
	dir, val, set, err := hookConfig(w.Hooks)
	if err != nil {
		return 2, err
	}
	if set && val != "" && walk.AbsAgainst(w.Top, walk.CrossArg(val)) == dir {
		if code, err := refreshHooks(w, p); err != nil || code != 0 {
			return code, err
		}
		fmt.Fprintf(w.Stdout, "init: the hooks are already placed (core.hooksPath=%s)\n", dir)
		return 0, nil
	}
	rec, err := w.Hooks.Record()
	if err != nil {
		return 2, err
	}
	if rec == nil {
		rec = &HookRecord{HadHooksPath: set, HooksPath: val, DirExisted: isDir(dir)}
		if err := w.Hooks.SaveRecord(rec); err != nil {
			return 2, err
		}
	}
	// assertion D: init records the hook state it found before it places
	// anything, and --uninstall restores it, so a clone's own hooks setup
	// (core.hooksPath, or active hooks in the hooks dir) is taken over in
	// the open, never in silence.
	if takeOver && set && val != "" {
		fmt.Fprintf(w.Stdout, "init: core.hooksPath was %s; the gates hooks take its place (recorded; `gates init --uninstall` puts it back)\n", val)
	}
	code, err := w.InstallHooks(joinTop(w.Top, p.Bin), takeOver)
	if err != nil {
		return 2, err
	}
	if code != 0 {
		return code, fmt.Errorf("init: --install-hooks exited %d", code)
	}
	return 0, nil
}

// refreshHooks re-places the git hooks of a clone that placed them when a
// placed hook is not the placed binary's bytes (an upgrade, a rebuild), so
// the hooks never keep running an older binary. A clone that never placed
// them is left alone.
func refreshHooks(w *InitWorld, p *Plan) (int, error) {
	if w.RefreshHooks == nil || w.Hooks == nil {
		return 0, nil
	}
	dir, val, set, err := hookConfig(w.Hooks)
	if err != nil {
		return 2, err
	}
	if !set || val == "" || walk.AbsAgainst(w.Top, walk.CrossArg(val)) != dir {
		return 0, nil
	}
	bin := joinTop(w.Top, p.Bin)
	want, err := FileDigest(bin)
	if err != nil {
		return 0, nil // no binary to place from: doctor names it
	}
	stale := false
	for _, h := range []string{"pre-commit", "commit-msg"} {
		got, err := FileDigest(dir + "/" + h + exeSuffixOfName(bin))
		stale = stale || err != nil || got != want
	}
	if !stale {
		return 0, nil
	}
	// assertion S: placed hooks follow the placed binary.
	code, err := w.RefreshHooks(bin)
	if err != nil {
		return 2, err
	}
	if code != 0 {
		return code, fmt.Errorf("init: --install-hooks --refresh exited %d", code)
	}
	fmt.Fprintf(w.Stdout, "init: refreshed the git hooks in %s: they were not %s's bytes (an older or other binary)\n", dir, p.Bin)
	return 0, nil
}

// runUninstall removes what the lock records and nobody has changed.
func runUninstall(w *InitWorld, lock *Lock, lockRel string, dry bool) (int, error) {
	if lock == nil {
		return 2, refusef("init: no lock at %s, so nothing here was installed by init; nothing removed", lockRel)
	}
	say := func(format string, a ...any) {
		if dry {
			format = "would " + format
		}
		fmt.Fprintf(w.Stdout, format+"\n", a...)
	}
	// assertion C: the hooks first, so no hook runs a binary being removed.
	rec, err := w.Hooks.Record()
	if err != nil {
		return 2, err
	}
	if rec != nil {
		dir, err := w.Hooks.HooksDir()
		if err != nil {
			return 2, err
		}
		if !dry {
			if err := w.Hooks.SetHooksPath(rec.HooksPath, rec.HadHooksPath); err != nil {
				return 2, err
			}
			if !rec.DirExisted {
				if err := os.RemoveAll(dir); err != nil {
					return 2, fmt.Errorf("init: cannot remove %s: %v", dir, err)
				}
			}
			if err := w.Hooks.DropRecord(); err != nil {
				return 2, err
			}
		}
		if rec.HadHooksPath {
			say("restore core.hooksPath=%s", rec.HooksPath)
		} else {
			say("unset core.hooksPath")
		}
	}
	kept := &Lock{}
	*kept = *lock
	kept.Files, kept.Appended, kept.Dirs = nil, nil, nil
	removed := 0
	for _, f := range lock.Files {
		abs := joinTop(w.Top, f.Path)
		d, err := FileDigest(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return 2, fmt.Errorf("init: cannot read %s: %v", f.Path, err)
		case d != f.SHA256:
			fmt.Fprintf(w.Stdout, "init: kept %s (changed since init)\n", f.Path)
			kept.Files = append(kept.Files, f)
			continue
		}
		if !dry {
			if err := os.Remove(abs); err != nil {
				return 2, fmt.Errorf("init: cannot remove %s: %v", f.Path, err)
			}
		}
		removed++
	}
	for i := len(lock.Appended) - 1; i >= 0; i-- {
		a := lock.Appended[i]
		abs := joinTop(w.Top, a.Path)
		cur, err := os.ReadFile(abs)
		if err != nil || !strings.HasSuffix(string(cur), a.Suffix) {
			fmt.Fprintf(w.Stdout, "init: kept %s (the lines init appended are no longer its last lines)\n", a.Path)
			kept.Appended = append(kept.Appended, a)
			continue
		}
		rest := cur[:len(cur)-len(a.Suffix)]
		if !dry {
			if a.Created && len(rest) == 0 {
				err = os.Remove(abs)
			} else {
				err = os.WriteFile(abs, rest, 0o644)
			}
			if err != nil {
				return 2, fmt.Errorf("init: cannot restore %s: %v", a.Path, err)
			}
		}
		say("restore %s", a.Path)
	}
	dirs := append([]string(nil), lock.Dirs...)
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	for _, d := range dirs {
		if dry {
			continue
		}
		if err := os.Remove(joinTop(w.Top, d)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			kept.Dirs = append(kept.Dirs, d)
		}
	}
	say("remove %d files init wrote", removed)
	if len(kept.Files)+len(kept.Appended) > 0 {
		if !dry {
			if err := writeTracked(w.Top, lockRel, kept.Encode(), false, nil); err != nil {
				return 2, err
			}
		}
		fmt.Fprintf(w.Stdout, "init: %s now records only what was kept; the tree is not fully reversed\n", lockRel)
		return 1, nil
	}
	if !dry {
		if err := os.Remove(joinTop(w.Top, lockRel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 2, fmt.Errorf("init: cannot remove %s: %v", lockRel, err)
		}
		// The lock's own directory, when init made it, is in Dirs and
		// was tried above while the lock still sat in it; try once more.
		for _, d := range dirs {
			os.Remove(joinTop(w.Top, d))
		}
	}
	say("remove %s", lockRel)
	return 0, nil
}

// graphStaleClass is check-graph's failure class for a page that differs
// from what the registry's manifests emit.
const graphStaleClass = "E"

// writeGraphPage writes the coupling-graph page (GATE_SDK_GRAPH_ARTIFACT,
// planned as a late seed where init may register check-graph and the
// adopter has no file there) when the registry names check-graph: the
// first battery is then green on it and the page is part of the adoption
// commit. The page is a seed, recorded in the lock: the adopter
// regenerates it with `gates --emit graph` as its gates change.
func writeGraphPage(w *InitWorld, s *step, verdicts []Verdict, next *Lock) (bool, error) {
	registered := false
	for _, v := range verdicts {
		if v.Gate == "check-graph" && v.Registered {
			registered = true
		}
	}
	if s == nil || !registered || w.EmitGraph == nil {
		return false, nil
	}
	rel := s.path
	// The page is emitted over the adoption commit (the vendored kit
	// tracked, the page itself among its surfaces), so a placeholder holds
	// its place while it is emitted.
	if err := writeTracked(w.Top, rel, nil, false, next); err != nil {
		return false, err
	}
	page, err := w.EmitGraph()
	if err != nil {
		return false, fmt.Errorf("init: the coupling-graph page: %v", err)
	}
	if err := writeTracked(w.Top, rel, page, false, next); err != nil {
		return false, err
	}
	recordFile(next, rel, Digest(page), classSeed)
	fmt.Fprintf(w.Stdout, "init: wrote %s (check-graph's page; regenerate it with gates --emit graph)\n", rel)
	return true, nil
}
