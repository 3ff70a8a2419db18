package cli

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gate-sdk/gates/internal/battery"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/githook"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// runArgs is the battery's parsed argv.
type runArgs struct {
	gatesDir string   // positional or --gates-dir; "" = the configured one
	forPaths []string // --for
	only     []string // --only
	forward  []string // after -- under --only
	hasFor   bool
	hasOnly  bool
	dashDash bool
	format   string         // --format: text (the default) or json
	shard    *battery.Shard // --shard K/N
}

func parseRunArgs(prog string, args []string) (runArgs, bool, error) {
	var r runArgs
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		return r, true, nil
	}
	format, args, err := takeFormat(prog, args)
	if err != nil {
		return r, false, err
	}
	r.format = format
	unrecognized := func(tok string) error {
		return usageError{msg: fmt.Sprintf("%s: unrecognized option '%s'%s", prog, tok, didYouMean(tok, optionWords()))}
	}
	for i := 0; i < len(args); i++ {
		tok := args[i]
		switch {
		case tok == "--for" || tok == "--only":
			if r.hasFor || r.hasOnly {
				return r, false, usageError{msg: prog + ": --for and --only each take the rest of the line; give one"}
			}
			rest := args[i+1:]
			if tok == "--for" {
				r.hasFor = true
				for _, p := range rest {
					if strings.HasPrefix(p, "-") {
						return r, false, unrecognized(p)
					}
					r.forPaths = append(r.forPaths, p)
				}
				if len(r.forPaths) == 0 {
					return r, false, usageError{msg: prog + ": --for needs at least one path"}
				}
			} else {
				r.hasOnly = true
				for j, n := range rest {
					if n == "--" {
						r.dashDash = true
						r.forward = append([]string(nil), rest[j+1:]...)
						break
					}
					if strings.HasPrefix(n, "-") {
						return r, false, unrecognized(n)
					}
					r.only = append(r.only, n)
				}
				if len(r.only) == 0 {
					return r, false, usageError{msg: prog + ": --only needs at least one gate name"}
				}
			}
			return r, false, nil
		case tok == "--shard":
			if i+1 >= len(args) || r.shard != nil {
				return r, false, usageError{msg: prog + ": --shard takes one K/N (run part K of N: gates --run --shard 2/4)"}
			}
			i++
			sh, err := battery.ParseShard(args[i])
			if err != nil {
				return r, false, usageError{msg: prog + ": " + err.Error()}
			}
			r.shard = &sh
		case tok == "--gates-dir":
			if i+1 >= len(args) || r.gatesDir != "" {
				return r, false, usageError{msg: prog + ": --gates-dir takes one directory"}
			}
			i++
			r.gatesDir = args[i]
		case tok == "--":
			if i+1 < len(args) && r.gatesDir == "" {
				i++
				r.gatesDir = args[i]
			}
			if i+1 < len(args) {
				return r, false, usageError{msg: fmt.Sprintf("%s: unexpected operand '%s'", prog, args[i+1])}
			}
		case strings.HasPrefix(tok, "-"):
			// assertion B: a dash-led token is an unrecognized option wherever it stands.
			return r, false, unrecognized(tok)
		default:
			if r.gatesDir != "" {
				return r, false, usageError{msg: fmt.Sprintf("%s: unexpected operand '%s'", prog, tok)}
			}
			r.gatesDir = tok
		}
	}
	return r, false, nil
}

// runBattery is the --run arm: every registered member, or the --for /
// --only selection, on the worker pool, reported quiet-green/loud-red.
func runBattery(s *Session, args []string) int {
	ra, help, err := parseRunArgs(s.prog, args)
	if err != nil {
		return s.fail(err)
	}
	if help {
		if arm, ok := lookupArm("--run"); ok {
			s.writeArmHelp(s.Stdout, arm)
		}
		return 0
	}
	// One repository from start to end, as in the hook: git is asked
	// where it is once (walk.RememberRepository).
	walk.RememberRepository()
	// assertion G: the battery reads a repository's tree or refuses.
	if _, err := s.Top(); err != nil {
		return s.fail(fmt.Errorf("%s: %v", s.prog, err))
	}
	configured, err := s.GatesDir()
	if err != nil {
		return s.fail(err)
	}
	gatesDir := configured
	if ra.gatesDir != "" {
		gatesDir = strings.TrimSuffix(ra.gatesDir, "/")
	}
	reg, err := s.loadRegistry(gatesDir)
	if err != nil {
		if registry.IsKind(err, registry.KindNoRegistry) {
			hint := s.steer(ra.gatesDir, configured)
			if hint == "" && gatesDir == configured {
				hint = fmt.Sprintf("\n%s: no gates are set up here yet; run `gates init` to vendor the kit and write the registry", s.prog)
			}
			return s.fail(refusal{msg: s.prog + ": " + err.Error() + hint})
		}
		return s.fail(fmt.Errorf("%s: %v", s.prog, err))
	}
	// assertion F: an empty registry never reads green.
	if len(reg.Members) == 0 {
		return s.fail(refusal{msg: fmt.Sprintf("%s: %s names no gates", s.prog, reg.Path)})
	}
	// A malformed baseline refuses the run once, naming its line, before
	// any member could be judged against it.
	if _, err := s.diskBaseline(); err != nil {
		return s.fail(fmt.Errorf("%s: %v", s.prog, err))
	}

	var selected []selection
	switch {
	case ra.hasOnly:
		selected, err = s.selectOnly(reg, ra)
	case ra.hasFor:
		var none bool
		var forPaths []string
		if forPaths, err = s.forInTree(ra.forPaths); err != nil {
			return s.fail(err)
		}
		selected, none, err = s.selectFor(reg, forPaths)
		if err == nil && none {
			var lines []string
			for _, p := range ra.forPaths {
				lines = append(lines, fmt.Sprintf("no registered gate couples to %s", p))
			}
			if ra.format == formatJSON {
				doc := battery.Document(nil, nil, gate.ID)
				doc.Summary = strings.Join(lines, "\n")
				return s.writeDocument(doc, 0)
			}
			for _, l := range lines {
				fmt.Fprintln(s.Stdout, l)
			}
			return 0
		}
	default:
		for _, m := range reg.Distinct() {
			selected = append(selected, selection{member: m})
		}
	}
	if err != nil {
		return s.fail(err)
	}

	// assertion O: a shard runs its part of the selection, split by the
	// recorded cost, and says which part it ran.
	var shardLine string
	if ra.shard != nil {
		selected, shardLine = s.shardOf(selected, *ra.shard, gatesDir)
		if len(selected) == 0 {
			if ra.format == formatJSON {
				doc := battery.Document(nil, nil, gate.ID)
				doc.Summary = shardLine
				return s.writeDocument(doc, 0)
			}
			fmt.Fprintln(s.Stdout, shardLine)
			return 0
		}
	}

	jobs, err := s.jobs()
	if err != nil {
		return s.fail(err)
	}
	scratch, err := s.scratchDir("gates-run-")
	if err != nil {
		return s.fail(fmt.Errorf("%s: cannot make the run's scratch directory: %v", s.prog, err))
	}
	defer os.RemoveAll(scratch)

	members := make([]battery.Member, len(selected))
	// A compiled member is handed its scratch path unmade: the few rules
	// that write there make it on first need (os.MkdirAll), and the rest,
	// most of a battery, cost no mkdir and no removal each. A shell member
	// gets its directory made, as TMPDIR for the script.
	unmade := map[string]bool{}
	for i, sel := range selected {
		members[i] = s.batteryMember(sel, reg.Path)
		if sel.member.Kind == registry.Descriptor && members[i].Exec != nil && members[i].Harness == "" {
			unmade[members[i].Name] = true
			exec, dir := members[i].Exec, walk.AbsAgainst(scratch, strconv.Itoa(i)+"-"+members[i].Name)
			members[i].Exec = func(ctx context.Context, _ string) battery.Outcome { return exec(ctx, dir) }
		}
	}
	budget, err := s.gateBudget()
	if err != nil {
		return s.fail(err)
	}
	opts := battery.Options{
		Jobs:   jobs,
		Budget: budget,
		Scratch: func(name string) (string, error) {
			if unmade[name] {
				return "", nil
			}
			return os.MkdirTemp(scratch, name+"-")
		},
	}
	var live *progress
	if s.liveStderr {
		names := make([]string, len(members))
		for i, m := range members {
			names[i] = m.Name
		}
		live = newProgress(s.Stderr, names)
		opts.Started, opts.Finished = live.Start, live.Done
		go live.run()
	}
	verdicts := battery.Run(members, opts)
	if live != nil {
		// Erased before the transcript, which the terminal shows too.
		live.Stop()
	}
	code := 0
	if ra.format == formatText {
		verbose := s.Getenv("GATE_SDK_VERBOSE") != ""
		// assertion E: any red is exit 1, whatever the member returned.
		if failed := battery.Report(s.Stdout, verdicts, verbose, s.specLine, omissions(reg)); failed > 0 {
			code = 1
		}
		if shardLine != "" {
			fmt.Fprintln(s.Stdout, shardLine)
		}
	}
	var doc battery.JSONReport
	if ra.format == formatJSON {
		doc = battery.Document(verdicts, s.specLine, gate.ID)
		code = doc.Exit
		if shardLine != "" {
			doc.Summary = strings.TrimPrefix(doc.Summary+"\n"+shardLine, "\n")
		}
	}
	// assertion G: timings only after an unfiltered run of the configured
	// registry (a shard is a filter: its record would split the next
	// shard differently from this one).
	if !ra.hasFor && !ra.hasOnly && ra.shard == nil && gatesDir == configured {
		if err := s.writeTimings(verdicts); err != nil {
			fmt.Fprintf(s.Stderr, "%s: %v\n", s.prog, err)
			code = 2
		}
		// The status line's record: the whole configured battery only.
		var red []string
		for _, v := range verdicts {
			if !v.Passed() {
				red = append(red, v.Name)
			}
		}
		s.recordLastVerdict(len(verdicts), red)
	}
	// A member that judged only part of the files (a shard's per-file
	// share, or the paths --for handed it) settles nothing.
	whole := map[string]bool{}
	for _, sel := range selected {
		if sel.part == nil && len(sel.args) == 0 {
			whole[sel.member.Name] = true
		}
	}
	s.settleDebt(verdicts, whole, code == 0)
	unjudgedOut := s.Stdout
	if ra.format != formatText {
		unjudgedOut = s.Stderr
	}
	s.reportUnjudged(unjudgedOut, code == 0 && !ra.hasFor && !ra.hasOnly && ra.shard == nil && gatesDir == configured)
	// assertion H: SARIF after the verdicts; an unwritable path is exit 2.
	if path := s.Getenv("GATE_SDK_SARIF_FILE"); path != "" {
		if err := s.writeSARIF(path, reg, verdicts); err != nil {
			fmt.Fprintf(s.Stderr, "%s: cannot write the SARIF log %s: %v\n", s.prog, path, err)
			code = 2
		}
	}
	if ra.format == formatJSON {
		doc.Exit = code
		return s.writeDocument(doc, code)
	}
	return code
}

// shardOf answers the part of selected that shard runs and the line that
// says so. The costs are <gates-dir>/gate-timings.txt as the index holds
// it: a record the project tracks, the same bytes in every checkout of a
// commit, so every matrix job places alike. Nothing one job may see and
// another may not steers the placement (issue 42, item 1): not a record
// restored into GATE_SDK_TMP_DIR (a cache restore can fail, or restore an
// older one, in some jobs only), not an untracked or edited copy in the
// gates dir. With no tracked record, an even split by count.
func (s *Session) shardOf(selected []selection, shard battery.Shard, gatesDir string) ([]selection, string) {
	names := make([]string, len(selected))
	for i, sel := range selected {
		names[i] = sel.member.Name
	}
	var costs map[string]int64
	how := "split evenly by count: no tracked cost record"
	if cwd, err := s.Cwd(); err == nil && gatesDir != "" {
		rel := registry.Join(strings.TrimSuffix(gatesDir, "/"), "gate-timings.txt")
		if spelled, inside := walk.ListingSpelling(cwd, rel); inside {
			data, found, err := repo.Git{RecordVerified: cacheWanted(s)}.IndexFile(cwd, spelled)
			if err == nil && found {
				if c := battery.ParseCosts(string(data)); len(c) > 0 {
					costs = c
					how = "split by the cost record " + spelled
				}
			}
		}
	}
	// assertion O: a per-file member is in every shard, over the files
	// of that shard's part; the others are placed whole.
	perFile := make([]bool, len(selected))
	nPer := 0
	for i, sel := range selected {
		if sel.member.Kind != registry.Descriptor {
			continue
		}
		if def, ok := findGate(sel.member.Name); ok && def.PerFile {
			perFile[i] = true
			nPer++
		}
	}
	split := battery.Split(names, perFile, costs, shard.N)
	part := split[shard.K-1]
	// assertion P: the per-file members' files are split so the shards'
	// recorded loads come out even: a shard that runs a costly aggregate
	// whole judges fewer of the files (every shard computes the same
	// parts from the same record, so each file is judged exactly once).
	shares := battery.FileShares(names, perFile, costs, split)
	files := gate.WeightedParts(shares)[shard.K-1]
	out := make([]selection, len(part))
	for i, idx := range part {
		out[i] = selected[idx]
		if perFile[idx] {
			out[i].part = &files
		}
	}
	if nPer > 0 {
		var sum float64
		for _, v := range shares {
			sum += v
		}
		how = fmt.Sprintf("%s over the files hashing to this shard (%.0f%% of them), %d whole; %s", gate.Count(nPer, "per-file gate", "per-file gates"), 100*shares[shard.K-1]/sum, len(out)-nPer, how)
	}
	return out, fmt.Sprintf("shard %s: %d of %s (%s)", shard, len(out), gate.Count(len(selected), "gate", "gates"), how)
}

// selection is one member chosen to run, with its operands.
type selection struct {
	member registry.Member
	args   []string
	// part, in a shard run, is the share of the files a per-file member
	// judges (nil: every file it would judge).
	part *gate.FilePart
}

func (s *Session) selectOnly(reg *loadedRegistry, ra runArgs) ([]selection, error) {
	// assertion J: a set of names, run in registry order.
	want := map[string]bool{}
	for _, n := range ra.only {
		want[n] = true
	}
	var out []selection
	found := map[string]bool{}
	for _, m := range reg.Distinct() {
		if want[m.Name] {
			out = append(out, selection{member: m})
			found[m.Name] = true
		}
	}
	var missing []string
	for n := range want {
		if !found[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		if len(want) == 1 {
			// A sole name the registry omits runs when a check dir declares it.
			res, err := registry.Resolve(s.regFS(), missing[0], reg.GatesDir, reg.KitRoots)
			if err == nil && res.Kind != registry.Unresolved {
				m := registry.Member{Name: missing[0], Resolution: res}
				m.Manifest, m.ManifestErr = s.readDeclaration(res.Path)
				out = append(out, selection{member: m})
				missing = nil
			}
		}
		if len(missing) > 0 {
			return nil, refusal{msg: fmt.Sprintf("%s: --only: %s is not registered in %s and no check dir declares it", s.prog, strings.Join(sortedCopy(missing), ", "), reg.Path)}
		}
	}
	if ra.dashDash {
		if len(out) != 1 {
			var names []string
			for _, sel := range out {
				names = append(names, sel.member.Name)
			}
			return nil, refusal{msg: fmt.Sprintf("%s: arguments after -- go to exactly one gate, and the selection holds %d: %s", s.prog, len(out), strings.Join(names, " "))}
		}
		out[0].args = ra.forward
	}
	return out, nil
}

// selectFor picks the members whose effective trigger matches a path; it
// is the selection the pre-commit hook makes over the staged set.
// forInTree answers each --for path as the tracked listing spells it:
// resolved against the working directory, then made relative to the
// repository's top. A path outside the repository (a rooted one elsewhere,
// one that climbs out through "..") is refused: no registered gate judges
// it, and answering "passed" for it would be a green nobody earned.
func (s *Session) forInTree(paths []string) ([]string, error) {
	// assertion N: a --for path outside the repository is refused, named.
	return s.treeOperands("--for", paths)
}

// callerDir answers the directory the caller spelled its relative operands
// from: the case pin when one is set, else the process's working
// directory, spelled physically (the top git answers joined with git's
// prefix), so a symlinked spelling of the same directory agrees with it.
func (s *Session) callerDir() (string, error) {
	if pin, _ := s.Env(caseDirKnob); pin != "" {
		return s.Cwd()
	}
	cwd, err := walk.Cwd()
	if err != nil {
		return "", err
	}
	loc, ok, err := walk.Locate(cwd, nil)
	if err != nil || !ok {
		return cwd, nil
	}
	return walk.AbsAgainst(loc.Top, loc.Prefix), nil
}

// treeOperands is the one resolution of path operands: each is taken from
// the caller's directory and spelled as the tracked listing spells it; one
// that leaves the tree, or names the top itself, is refused, named.
func (s *Session) treeOperands(what string, paths []string) ([]string, error) {
	caller, err := s.callerDir()
	if err != nil {
		return nil, err
	}
	top, err := s.Top()
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		spelled, inside := walk.ListingSpelling(walk.NormalizeAbs(top), walk.AbsAgainstPhysical(caller, p))
		if !inside || spelled == "." {
			return nil, refusal{msg: fmt.Sprintf("%s: %s %s does not name a path inside the repository %s (it lies outside, climbs out through '..', or is the top itself); name files inside the tree", s.prog, what, p, top)}
		}
		out = append(out, spelled)
	}
	return out, nil
}

func (s *Session) selectFor(reg *loadedRegistry, paths []string) ([]selection, bool, error) {
	sels, err := SelectForPaths(reg.Registry, reg.env, paths)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %v", s.prog, err)
	}
	return sels, len(sels) == 0, nil
}

// SelectForPaths answers, in registry order and each member once, the
// members an edit to any of paths fires, with a mode=staged member's
// matching paths as its operands. An unresolved member, or one whose
// declaration cannot be read, is an error: the selection cannot know
// whether it would fire.
func SelectForPaths(reg *registry.Registry, env *registry.Env, paths []string) ([]selection, error) {
	// assertion I: the one selection --for and the pre-commit hook share
	// is the registry's own.
	sels, err := reg.Select(env, paths)
	if err != nil {
		return nil, err
	}
	out := make([]selection, 0, len(sels))
	for _, sel := range sels {
		out = append(out, selection{member: sel.Member, args: sel.Operands})
	}
	return out, nil
}

// batteryMember turns a selected registry member into what the pool runs.
func (s *Session) batteryMember(sel selection, list string) battery.Member {
	m := sel.member
	bm := battery.Member{Name: m.Name, Line: m.Line}
	if m.Manifest != nil && m.Manifest.Spec != nil {
		bm.Spec = m.Manifest.Spec.Text
	}
	switch m.Kind {
	case registry.Unresolved:
		bm.Unresolved = true
		msg := fmt.Sprintf("%s:%d: %v\n", list, m.Line, m.Resolution.Err())
		bm.Exec = func(context.Context, string) battery.Outcome { return battery.Outcome{Code: 2, Output: []byte(msg)} }
		return bm
	case registry.Ambiguous:
		bm.Harness = m.Resolution.Err().Error()
		return bm
	}
	if m.ManifestErr != nil {
		bm.Harness = m.ManifestErr.Error()
		return bm
	}
	switch m.Kind {
	case registry.Descriptor:
		// assertion A: a .gate member is its compiled rule, in process.
		def, ok := findGate(m.Name)
		if !ok {
			bm.Harness = fmt.Sprintf("%s: %s declares a compiled gate this binary does not carry (see gates --list)", m.Name, m.Path)
			return bm
		}
		exec := inProcess(s, def, sel.args, sel.part)
		bm.Exec = func(_ context.Context, scratch string) battery.Outcome { return exec(scratch) }
		bm.InProcess = true
		bm.First = def.ReadsTree
	case registry.Shell:
		path := m.Path
		args := sel.args
		dir, _ := s.Cwd()
		bm.Exec = func(ctx context.Context, scratch string) battery.Outcome {
			res, err := spawn.RunMerged(spawn.Cmd{Program: spawn.At(walk.AbsAgainst(dir, path)), Args: args, Dir: dir, ExtraEnv: []string{"TMPDIR=" + scratch}, Ctx: ctx})
			if err != nil {
				return battery.Outcome{Code: 2, Output: []byte(fmt.Sprintf("%s: %v\n", m.Name, err))}
			}
			return battery.Outcome{Code: res.ReportedCode(), Output: res.Output()}
		}
	}
	return bm
}

// specLine renders a red member's declared invariant: its `# spec:` text,
// with the location published under GATE_SDK_SPEC_BASE_URL when set.
func (s *Session) specLine(m battery.Member) string {
	if m.Spec == "" {
		return ""
	}
	base := s.Getenv("GATE_SDK_SPEC_BASE_URL")
	if base == "" {
		return m.Spec
	}
	loc, stmt, ok := strings.Cut(m.Spec, " — ")
	if !ok {
		return m.Spec
	}
	return publishedURL(base, loc) + " — " + stmt
}

// publishedURL maps `kit/SPEC.md §Section` onto base: `<base>/<kit>/SPEC.md#<section>`.
func publishedURL(base, loc string) string {
	path, section, _ := strings.Cut(loc, " §")
	anchor := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(section), " ", "-"))
	u := strings.TrimSuffix(base, "/") + "/" + strings.TrimPrefix(path, "/")
	if anchor != "" {
		u += "#" + anchor
	}
	return u
}

func omissions(reg *loadedRegistry) []battery.Omission {
	var out []battery.Omission
	idx := map[string]int{}
	for _, o := range reg.Omitted {
		reason := o.Reason
		if f := strings.Fields(reason); len(f) > 0 {
			reason = f[0]
		}
		if i, ok := idx[reason]; ok {
			out[i].Count++
			continue
		}
		idx[reason] = len(out)
		out = append(out, battery.Omission{Reason: reason, Count: 1})
	}
	return out
}

// gateBudget reads GATE_SDK_GATE_TIMEOUT: each member's time budget, in
// whole seconds; 0 is no budget.
func (s *Session) gateBudget() (time.Duration, error) {
	set, err := s.Knobs()
	if err != nil {
		return 0, err
	}
	v, err := set.Scalar("GATE_SDK_GATE_TIMEOUT")
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil {
		return 0, refusal{msg: fmt.Sprintf("%s: GATE_SDK_GATE_TIMEOUT=%q is not a whole number of seconds", s.prog, v)}
	}
	return time.Duration(n) * time.Second, nil
}

// jobs reads GATE_SDK_JOBS once: unset is the CPU count, 1 is serial.
func (s *Session) jobs() (int, error) {
	v, ok := s.Env("GATE_SDK_JOBS")
	if !ok || v == "" {
		return runtime.NumCPU(), nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, refusal{msg: fmt.Sprintf("%s: GATE_SDK_JOBS=%q is not a positive worker count", s.prog, v)}
	}
	return n, nil
}

// scratchDir makes a fresh scratch directory under GATE_SDK_TMP_DIR
// (created, with its .gitignore, when absent), never in the system temp
// directory: a run that is killed leaves its scratch where the consumer
// already ignores and clears it.
func (s *Session) scratchDir(prefix string) (string, error) {
	dir, err := s.tmpDir()
	if err != nil {
		return "", err
	}
	return os.MkdirTemp(dir, prefix)
}

// tmpKnob answers GATE_SDK_TMP_DIR as configured.
func (s *Session) tmpKnob() (string, error) {
	set, err := s.Knobs()
	if err != nil {
		return "", err
	}
	return set.Scalar("GATE_SDK_TMP_DIR")
}

// tmpDir answers GATE_SDK_TMP_DIR, absolute against the session's
// directory, made (with its .gitignore) when absent.
func (s *Session) tmpDir() (string, error) {
	tmp, err := s.tmpKnob()
	if err != nil {
		return "", err
	}
	cwd, err := s.Cwd()
	if err != nil {
		return "", err
	}
	if err := walk.EnsureTmpDir(tmp, cwd); err != nil {
		return "", err
	}
	return walk.AbsAgainst(cwd, tmp), nil
}

// writeTimings writes <GATE_SDK_TMP_DIR>/gate-timings.txt after an
// unfiltered run of the configured registry.
func (s *Session) writeTimings(verdicts []battery.Verdict) error {
	dir, err := s.tmpDir()
	if err != nil {
		return err
	}
	return os.WriteFile(walk.Child(dir, "gate-timings.txt"), []byte(battery.Timings(verdicts)), 0o644)
}

func (s *Session) writeSARIF(path string, reg *loadedRegistry, verdicts []battery.Verdict) error {
	cwd, err := s.Cwd()
	if err != nil {
		return err
	}
	data, err := battery.SARIF(verdicts, battery.SARIFInput{
		Registry: reg.Path,
		Spec:     s.specLine,
		HelpURI: func(m battery.Member) string {
			base := s.Getenv("GATE_SDK_SPEC_BASE_URL")
			if base == "" || m.Spec == "" {
				return ""
			}
			loc, _, _ := strings.Cut(m.Spec, " — ")
			return publishedURL(base, loc)
		},
		IsFile: func(p string) bool {
			st, err := os.Stat(walk.AbsAgainst(cwd, p))
			return err == nil && st.Mode().IsRegular()
		},
		IsDir: func(p string) bool {
			st, err := os.Stat(walk.AbsAgainst(cwd, p))
			return err == nil && st.IsDir()
		},
		Version: toolVersion(),
	})
	if err != nil {
		return err
	}
	return os.WriteFile(walk.AbsAgainst(cwd, path), data, 0o644)
}

// steer adds the --only remedy to a missing-registry refusal when the
// positional names a gate of the configured registry.
func (s *Session) steer(positional, configured string) string {
	if positional == "" || positional == configured {
		return ""
	}
	reg, err := s.loadRegistry(configured)
	if err != nil {
		return ""
	}
	if _, ok := reg.Member(positional); !ok {
		return ""
	}
	return fmt.Sprintf("\n%s: %s is a registered gate, not a gates dir; run it with: gates --only %s", s.prog, positional, positional)
}

func (s *Session) readDeclaration(path string) (*registry.Manifest, error) {
	data, err := s.regFS().ReadFile(path)
	if err != nil {
		return nil, err
	}
	return registry.ParseManifest(path, data)
}

func sortedCopy(in []string) []string {
	out := append([]string(nil), in...)
	sort.Strings(out)
	return out
}

// settleDebt drops, after a green battery, the pre-commit hook's record of
// files its members left to the battery at this work tree (§--git-hook,
// W), saying so on stderr. A record that cannot be read or written is a
// note: the battery's verdict does not depend on it.
//
// assertion Q: only a member in whole (one that judged every file it
// owns, not a shard's share of them nor the paths --for gave it) settles
// its line; a green shard is no settlement of what other shards judged.
func (s *Session) settleDebt(verdicts []battery.Verdict, whole map[string]bool, green bool) {
	if !green {
		return
	}
	common, top, ok := s.recordSite()
	if !ok {
		return
	}
	var ran []string
	for _, v := range verdicts {
		if !v.Passed() {
			return
		}
		if whole[v.Name] {
			ran = append(ran, v.Name)
		}
	}
	if len(ran) == 0 {
		return
	}
	settled, err := githook.SettleDebt(common, top, ran, true)
	if err != nil {
		fmt.Fprintf(s.Stderr, "%s: the pre-commit hook's record of files left to the battery was not settled: %v\n", s.prog, err)
		return
	}
	for _, d := range settled {
		fmt.Fprintf(s.Stderr, "%s: settled: %s judged the %d unchanged file(s) the pre-commit hook left to the battery\n", s.prog, d.Member, d.Files)
	}
}
