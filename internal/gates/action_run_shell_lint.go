package gates

// The lint half of check-action-run-shell: the run: blocks go to
// ShellCheck in batches, one scratch file per distinct block and one
// ShellCheck run per batch of one dialect, the batches spread over the
// workers; every report line is mapped back to the block, and from there
// to the workflow line and column it was cut from. See gate-sdk/SPEC.md
// §check-action-run-shell, assertions E and G.

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
	"github.com/gate-sdk/gates/internal/workflow"
)

// Batch bounds. scBatchMax caps the files of one ShellCheck run (a
// refusal names its batch, so a batch stays small enough to read);
// scBatchMin keeps a run's start-up cost small beside its files' when the
// work is split over the workers; scArgBudget caps the bytes of file
// operands of one run, far below any system's argument limit.
const (
	scBatchMax  = 400
	scBatchMin  = 16
	scArgBudget = 96 << 10
)

// scBlock is one run: block to lint and the file it is in. plain lints
// it with its directives read as plain comments: the measure of what they
// silence.
type scBlock struct {
	path  string
	run   *workflow.Run
	plain bool
}

// colFinding is a ShellCheck finding with the file column it maps to.
type colFinding struct {
	gate.Finding
	Col int
}

// scReport is one ShellCheck report line, positions in the linted body.
type scReport struct {
	line, col   int
	level, text string
}

// scStdinLine is a gcc-format line for a body read on stdin; scBatchLine
// is one for a scratch file, once its directory prefix is cut.
var (
	scStdinLine = lazyre.New(`^-:(\d+):(\d+): (\w+): (.*)$`)
	scBatchLine = lazyre.New(`^(\d+)\.sh:(\d+):(\d+): (\w+): (.*)$`)
)

// lintBlocks answers each block's findings, index-aligned with blocks.
// batch 0 lints every block alone on stdin; batch n at most n per run.
func lintBlocks(c *gate.Context, blocks []scBlock, batch int) ([][]colFinding, error) {
	out := make([][]colFinding, len(blocks))
	if len(blocks) == 0 {
		return out, nil
	}
	if batch <= 0 {
		for i, b := range blocks {
			f, err := lintAloneRef(c, b)
			if err != nil {
				return nil, err
			}
			out[i] = f
		}
		return out, nil
	}
	// One scratch file per distinct (dialect, body); every block carrying
	// it shares its report, each mapped through its own lines and columns.
	// A body the content cache holds is served from it and written
	// nowhere.
	type distinct struct {
		dialect, body string
		owners        []int
		reports       []scReport
		key           string // the content cache's key, "" when uncached
	}
	var all []*distinct
	byKey := map[string]*distinct{}
	for i, b := range blocks {
		body := scScript(b.run, b.plain).text
		key := b.run.Dialect + "\x00" + body
		d := byKey[key]
		if d == nil {
			d = &distinct{dialect: b.run.Dialect, body: body}
			byKey[key] = d
			all = append(all, d)
		}
		d.owners = append(d.owners, i)
	}
	sc := openScCache(c)
	var ds []*distinct // the misses, to lint
	for _, d := range all {
		d.key = sc.unitKey("run-shell", scFlags(d.dialect), d.dialect, []byte(d.body), nil)
		if rs, ok := sc.get(d.key); ok {
			d.reports = rs
			continue
		}
		ds = append(ds, d)
	}
	place := func() {
		for _, d := range all {
			for _, i := range d.owners {
				out[i] = mapReports(blocks[i], d.reports)
			}
		}
	}
	if len(ds) == 0 {
		place()
		return out, nil
	}
	if c.Scratch == "" {
		return nil, fmt.Errorf("no scratch directory to write %s to (the caller gave none)", plural(len(blocks), "run: block", "run: blocks"))
	}
	// The battery hands a compiled member its scratch path unmade.
	if err := os.MkdirAll(walk.AbsAgainst(c.Dir, c.Scratch), 0o755); err != nil {
		return nil, fmt.Errorf("cannot make the scratch directory for the run: blocks: %v", err)
	}
	dir, err := os.MkdirTemp(walk.AbsAgainst(c.Dir, c.Scratch), "shellcheck-")
	if err != nil {
		return nil, fmt.Errorf("cannot make a scratch directory for the run: blocks: %v", err)
	}
	defer os.RemoveAll(dir)
	// The blocks of one batch are checked as one ShellCheck run's inputs,
	// and ShellCheck follows a source command to another input. The
	// inputs' directory carries a fresh random name, so only a body
	// spelling that name could reach a neighbour: such a body is linted
	// alone, as are none in practice (and its report is not kept).
	guard := filepath.Base(dir)
	var alone []int
	kept := ds[:0]
	for _, d := range ds {
		if strings.Contains(d.body, guard) {
			alone = append(alone, d.owners...)
			d.owners = nil
			continue
		}
		kept = append(kept, d)
	}
	ds = kept

	// Batches: one dialect each, dialects in first-seen order, each cut
	// to spread over the workers, under the count and argument bounds.
	workers := c.Jobs
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	var dialects []string
	perDialect := map[string][]int{}
	for i, d := range ds {
		if perDialect[d.dialect] == nil {
			dialects = append(dialects, d.dialect)
		}
		perDialect[d.dialect] = append(perDialect[d.dialect], i)
	}
	type batchOf struct {
		dialect string
		members []int // indexes into ds
	}
	var batches []batchOf
	for _, dia := range dialects {
		idx := perDialect[dia]
		size := min(max((len(idx)+4*workers-1)/(4*workers), scBatchMin), batch)
		var cur []int
		bytes := 0
		for _, k := range idx {
			arg := len(scFile(dir, k)) + 1
			if len(cur) > 0 && (len(cur) >= size || bytes+arg > scArgBudget) {
				batches = append(batches, batchOf{dia, cur})
				cur, bytes = nil, 0
			}
			cur = append(cur, k)
			bytes += arg
		}
		if len(cur) > 0 {
			batches = append(batches, batchOf{dia, cur})
		}
	}

	// A failed batch stops the batches after it from starting; those
	// before it still run, so the refusal is always the first failing
	// batch's, however the workers interleave.
	errs := make([]error, len(batches))
	var firstFail atomic.Int64
	firstFail.Store(int64(len(batches)))
	fail := func(bi int, err error) {
		errs[bi] = err
		for {
			cur := firstFail.Load()
			if int64(bi) >= cur || firstFail.CompareAndSwap(cur, int64(bi)) {
				return
			}
		}
	}
	var g errgroup.Group
	g.SetLimit(workers)
	for bi, bt := range batches {
		g.Go(func() error {
			if firstFail.Load() < int64(bi) {
				return nil
			}
			// at answers a scratch file's block location, for a refusal.
			at := func(k int) string {
				b := blocks[ds[k].owners[0]]
				return fmt.Sprintf("%s:%d", b.path, b.run.Line)
			}
			files := make([]string, len(bt.members))
			owner := map[int]bool{}
			for j, k := range bt.members {
				files[j] = scFile(dir, k)
				owner[k] = true
				if err := os.WriteFile(files[j], []byte(ds[k].body), 0o600); err != nil {
					fail(bi, fmt.Errorf("%s: cannot write the run: block to the scratch directory: %v", at(k), err))
					return nil
				}
			}
			res := spawn.RunStreamed(scCmd(c, bt.dialect, append([]string{"--"}, files...)...), nil)
			reports, err := scGrade(res, func(ln string) (int, []string, bool) {
				rest, ok := strings.CutPrefix(ln, dir+"/")
				if !ok {
					return 0, nil, false
				}
				m := scBatchLine.Get().FindStringSubmatch(rest)
				if m == nil {
					return 0, nil, false
				}
				k, err := strconv.Atoi(m[1])
				if err != nil || !owner[k] {
					return 0, nil, false
				}
				return k, m[2:], true
			})
			if err != nil {
				// Name the blocks, not the scratch files ShellCheck saw.
				var pairs []string
				for _, k := range bt.members {
					pairs = append(pairs, scFile(dir, k), at(k))
				}
				msg := strings.NewReplacer(pairs...).Replace(err.Error())
				fail(bi, fmt.Errorf("%s: %s (in a batch of %s from here)", at(bt.members[0]), msg, plural(len(bt.members), "run: block", "run: blocks")))
				return nil
			}
			for k, rs := range reports {
				ds[k].reports = rs
			}
			return nil
		})
	}
	_ = g.Wait() // each batch reports through errs
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for _, d := range ds {
		sc.put(d.key, d.reports)
	}
	place()
	for _, i := range alone {
		f, err := lintAlone(c, blocks[i])
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// scFile is distinct block k's scratch file.
func scFile(dir string, k int) string { return dir + "/" + strconv.Itoa(k) + ".sh" }

// lintAlone lints one block on ShellCheck's stdin.
func lintAlone(c *gate.Context, b scBlock) ([]colFinding, error) {
	script := scScript(b.run, b.plain).text
	reports, err := stdinReports(c, b.run.Dialect, script)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %v", b.path, b.run.Line, err)
	}
	return mapReports(b, reports), nil
}

// stdinReports runs ShellCheck once over script on its stdin under
// dialect and answers its graded reports, positions in the script.
func stdinReports(c *gate.Context, dialect, script string) ([]scReport, error) {
	res := spawn.RunStreamed(scCmd(c, dialect, "-"), []byte(script))
	reports, err := scGrade(res, func(ln string) (int, []string, bool) {
		m := scStdinLine.Get().FindStringSubmatch(ln)
		if m == nil {
			return 0, nil, false
		}
		return 0, m[1:], true
	})
	if err != nil {
		return nil, err
	}
	return reports[0], nil
}

// refMemo, when set, holds the per-block reference's (batch 0) graded
// ShellCheck reports by PATH, dialect and body. Batch 0 is only the
// differential tests' reference, which lints the same bodies over and
// over (each file alone, then the files together; a generated tree's
// repeated bodies): a body on stdin is the whole of ShellCheck's input,
// (scFlags passes no -x, so a source command reaches no file of the
// tree), so its raw reports are run once and each block still maps them
// through its own lines. The gate never sets it.
var refMemo map[string][]scReport

// lintAloneRef is lintAlone for the batch-0 reference, answering from
// refMemo when it is set.
func lintAloneRef(c *gate.Context, b scBlock) ([]colFinding, error) {
	if refMemo == nil {
		return lintAlone(c, b)
	}
	script := scScript(b.run, b.plain).text
	key := c.Getenv("PATH") + "\x00" + b.run.Dialect + "\x00" + script
	reports, ok := refMemo[key]
	if !ok {
		var err error
		if reports, err = stdinReports(c, b.run.Dialect, script); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", b.path, b.run.Line, err)
		}
		refMemo[key] = reports
	}
	return mapReports(b, reports), nil
}

// scFlags is the ShellCheck argv of a body under dialect, less its
// operands: what a cached report was produced under.
func scFlags(dialect string) []string {
	return []string{"--norc", "-s", dialect, "-S", runShellSeverity, "-f", "gcc"}
}

// scCmd is the ShellCheck run over operands under dialect: rc files
// ignored, SHELLCHECK_OPTS cleared, from the run directory.
func scCmd(c *gate.Context, dialect string, operands ...string) spawn.Cmd {
	return shellcheckCmd(c, append(scFlags(dialect), operands...)...)
}

// shellcheckCmd is ShellCheck with args from the run directory, under the
// gate's PATH and with SHELLCHECK_OPTS cleared: the one spelling every
// ShellCheck run of both wrappers (and the release probe) goes through.
func shellcheckCmd(c *gate.Context, args ...string) spawn.Cmd {
	cmd := spawn.Cmd{
		Program:  spawn.Shellcheck(),
		Args:     args,
		Dir:      c.Dir,
		ExtraEnv: []string{"SHELLCHECK_OPTS="},
		Recorder: c.Spawns,
	}
	if path := c.Getenv("PATH"); path != "" {
		cmd.ExtraEnv = append(cmd.ExtraEnv, "PATH="+path)
	}
	return cmd
}

// scGrade reads a ShellCheck run: exit 0 is nothing to report, exit 1 is
// report lines, anything else could not lint. owner attributes a report
// line to its input (and answers line, column, level and text); a
// non-empty line it cannot attribute refuses the run, as does exit 1 with
// no line at all.
func scGrade(res *spawn.Streamed, owner func(string) (int, []string, bool)) (map[int][]scReport, error) {
	stderr := strings.TrimSpace(string(res.Stderr()))
	switch res.Code() {
	case 0:
		return map[int][]scReport{}, nil
	case 1:
	case 126, 127:
		return nil, fmt.Errorf("could not run shellcheck: %s", stderr)
	default:
		return nil, fmt.Errorf("shellcheck could not lint the run: block (exit %d): %s", res.Code(), stderr)
	}
	out := map[int][]scReport{}
	n := 0
	for _, ln := range strings.Split(string(res.Stdout()), "\n") {
		if ln == "" {
			continue
		}
		k, m, ok := owner(ln)
		if !ok {
			return nil, fmt.Errorf("shellcheck printed a line no run: block owns: %q", ln)
		}
		line, err1 := strconv.Atoi(m[0])
		col, err2 := strconv.Atoi(m[1])
		if err1 != nil || err2 != nil || line < 1 {
			return nil, fmt.Errorf("shellcheck printed a line no run: block owns: %q", ln)
		}
		out[k] = append(out[k], scReport{line, col, m[2], m[3]})
		n++
	}
	if n == 0 {
		return nil, fmt.Errorf("shellcheck exited 1 with no report line: %s", stderr)
	}
	return out, nil
}

// mapReports places a body's report lines at the workflow's line and
// column: past the set line standing for the runner's options, which is
// placed at the run: key itself (a column on a value whose source is not
// its text is left out).
func mapReports(b scBlock, reports []scReport) []colFinding {
	run := b.run
	sc := scScript(run, b.plain)
	var out []colFinding
	var lines []string
	var idioms *scriptIdioms
	for _, r := range reports {
		// A report on a deliberate idiom is left out, as check-shellcheck
		// leaves it out of a script file (its D).
		if idiomMayApply(r.text) {
			if idioms == nil {
				idioms = readIdioms(sc.text)
			}
			if idioms.intended(r.line, r.col, r.text) {
				continue
			}
		}
		// SC1083 on the braces of a git revision spelling (@{upstream},
		// HEAD@{1}) is left out among the idioms above (run-shell's K).
		// SC2034 on the unread variable of a loop over literal numbers is
		// a repeat count, not a forgotten name (run-shell's M).
		if strings.HasSuffix(r.text, "[SC2034]") {
			if lines == nil {
				lines = strings.Split(sc.text, "\n")
			}
			if r.line <= len(lines) && repeatCounter(lines[r.line-1], r.text) {
				continue
			}
		}
		id, about := runSite(run)
		code, named := scCode(r.text), "a ShellCheck report"
		if code != r.text {
			named = code
		}
		f := colFinding{Finding: gate.Finding{Class: "shellcheck", Line: run.Line,
			Msg:      fmt.Sprintf("%s (%s): %s: %s", runNoun(run), runLabel(run), r.level, r.text),
			Identity: "code=" + code + "\x00" + id, About: named + " in " + about}}
		if i := sc.bodyLine(r.line); i >= 0 {
			f.Line = run.FileLine(i, r.col)
			if !run.NoCol {
				f.Col = run.FileCol(i, r.col)
			}
		}
		out = append(out, f)
	}
	return out
}

// scCode answers the ShellCheck code a report's text ends with ([SC2086]),
// else the whole text: the code, not the wording, is what the report says.
func scCode(text string) string {
	t := strings.TrimRight(text, " ")
	if strings.HasSuffix(t, "]") {
		if i := strings.LastIndex(t, "[SC"); i >= 0 && strings.Trim(t[i+3:len(t)-1], "0123456789") == "" && len(t) > i+4 {
			return t[i+1 : len(t)-1]
		}
	}
	return text
}

// lintScript is what ShellCheck lints for a body: the body's leading
// comment lines when they carry a directive (head of them), then the
// gate's own prelude line when there is one (pre is 1), then the rest of
// the body.
type lintScript struct {
	text      string
	head, pre int
}

// bodyLine maps a 1-based script line to its body line index, or -1 for
// the prelude line (placed at the run: key).
func (s lintScript) bodyLine(l int) int {
	switch {
	case l <= s.head:
		return l - 1
	case l <= s.head+s.pre:
		return -1
	}
	return l - 1 - s.pre
}

// scScript builds a body's lint script. The prelude states what the
// runner has done before the body's first line: the shell options it
// starts the shell with (set -e, set -eo pipefail) and the names the
// step's, job's and workflow's env: put in the environment, each
// referenced with a default (: "${name-}"), which ShellCheck reads as
// assigned and which assigns nothing. A #! first body line is read as a
// comment (the runner's command line picks the shell).
func scScript(r *workflow.Run, plain bool) lintScript {
	lines := r.Lines
	if plain {
		lines = make([]string, len(r.Lines))
		for i, l := range r.Lines {
			lines[i] = workflow.Neutralise(l)
		}
	}
	if len(lines) > 0 && strings.HasPrefix(lines[0], "#!") {
		lines = append([]string{"# " + lines[0][2:]}, lines[1:]...)
	}
	// A directive among the comment lines before the body's first
	// command covers the whole body, as its author wrote it to: those
	// lines go before the prelude, which is itself a command.
	head := 0
	if !plain && len(r.Directives) > 0 {
		lead, covers := 0, false
		for lead < len(lines) {
			t := strings.TrimLeft(lines[lead], " \t")
			if t != "" && !strings.HasPrefix(t, "#") {
				break
			}
			covers = covers || slices.Contains(r.Directives, r.First+lead)
			lead++
		}
		if covers {
			head = lead
		}
	}
	var pre []string
	if r.Flags != "" {
		pre = append(pre, "set "+r.Flags)
	}
	var names []string
	// The env: blocks in scope, what earlier steps of the job wrote to
	// $GITHUB_ENV, the names the tree's files it sources assign (W), and
	// the mixed-case names the hosted runner image sets
	// (ShellCheck takes an all-capitals name for the environment's
	// already) are assigned when the body starts.
	set := append(append(r.EnvNames(), r.GitHubEnvNames()...), r.Sourced...)
	if r.Job != nil && !r.Job.Action {
		set = append(set, runnerImageNames...)
	}
	seen := map[string]bool{}
	for _, n := range set {
		if seen[n] {
			continue
		}
		seen[n] = true
		if shellName(n) {
			names = append(names, `"${`+n+`-}"`)
		}
	}
	if len(names) > 0 {
		pre = append(pre, ": "+strings.Join(names, " "))
	}
	s := lintScript{head: head}
	var b strings.Builder
	for _, l := range lines[:head] {
		b.WriteString(l + "\n")
	}
	if len(pre) > 0 {
		s.pre = 1
		b.WriteString(strings.Join(pre, "; ") + "\n")
	}
	if head < len(lines) || head == 0 {
		b.WriteString(strings.Join(lines[head:], "\n") + "\n")
	}
	s.text = b.String()
	return s
}

// runnerImageNames are the mixed-case variables every GitHub-hosted runner
// image sets in a job's environment (ImageOS names the image, as ubuntu24,
// ImageVersion its build).
var runnerImageNames = []string{"ImageOS", "ImageVersion"}

// shellName reports a name the shell can hold as a variable.
func shellName(n string) bool {
	if n == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// passedBrace reports whether the character at a 1-based column of a
// script line is a brace bash passes through as written and a command
// reads as its own syntax: a { right after @ (git's revisions: @{u},
// HEAD@{1}, main@{2.days.ago}), after % (curl's --write-out variables:
// %{http_code}) or after = (the AWS CLI's shorthand: Ebs={VolumeSize=200}),
// or the } closing one, with no blank, quote or comma between (a comma
// would make bash expand it).
func passedBrace(line string, col int) bool {
	runes := []rune(line)
	i := col - 1
	if i < 0 || i >= len(runes) {
		return false
	}
	opener := func(r rune) bool { return r == '@' || r == '%' || r == '=' }
	switch runes[i] {
	case '{':
		if i == 0 || !opener(runes[i-1]) {
			return false
		}
		for k := i + 1; k < len(runes); k++ {
			switch runes[k] {
			case '}':
				return k > i+1
			case ' ', '\t', '"', '\'', '{', ',':
				return false
			}
		}
	case '}':
		for k := i - 1; k > 0; k-- {
			switch runes[k] {
			case '{':
				return opener(runes[k-1]) && k < i-1
			case ' ', '\t', '"', '\'', '}', ',':
				return false
			}
		}
	}
	return false
}

// unusedName matches ShellCheck's SC2034 report, capturing the name.
var unusedName = lazyre.New(`^([A-Za-z_][A-Za-z0-9_]*) appears unused\. .*\[SC2034\]$`)

// countedLoop matches a for loop's header over numbers: a list of
// integers, one brace range ({1..5}) or seq's output (its operands numbers
// or variables: seq prints numbers whatever they hold), ended by ; or do
// or the line's end.
var countedLoop = lazyre.New(`(?:^|[\s;&|({])for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in(?:(?:\s+[0-9]+)+|\s+\{[0-9]+\.\.[0-9]+\}|\s+\$\(\s*seq(?:\s+(?:[0-9]+|"?\$\{?[A-Za-z_][A-Za-z0-9_]*\}?"?)){1,3}\s*\)|\s+` + "`" + `\s*seq(?:\s+(?:[0-9]+|"?\$\{?[A-Za-z_][A-Za-z0-9_]*\}?"?)){1,3}\s*` + "`" + `)\s*(?:;|$|do(?:\s|$))`)

// repeatCounter reports an SC2034 report (text) about the variable of a
// for loop over literal numbers whose header is on line: the loop runs
// its body a set number of times (a retry), and the name is only a
// placeholder; the values 1 2 3 carry nothing a body would forget to
// read. A loop over words, files or a command's output is not one.
func repeatCounter(line, text string) bool {
	m := unusedName.Get().FindStringSubmatch(text)
	if m == nil {
		return false
	}
	for _, h := range countedLoop.Get().FindAllStringSubmatch(line, -1) {
		if h[1] == m[1] {
			return true
		}
	}
	return false
}

// workspaceOf answers the directory a job's checkout fills for the
// workflow or action file at p (relative to the run directory, as the scan
// spells it): the one holding its .github/, or the scan root rootRel for a
// file outside one.
func workspaceOf(rootRel, p string) string {
	if i := strings.LastIndex("/"+p, "/.github/"); i >= 0 {
		return strings.TrimSuffix(p[:i], "/")
	}
	return rootRel
}

// bodySourcedNames answers the names assigned in the tracked regular files
// run's body sources by a literal relative path (`. ./hack/helpers.sh`),
// found from the step's working directory, or the workspace's top when it
// states none; rootRel is the workspace as the tree spells it. A computed
// path, an absolute one, or a working directory holding an expression
// names nothing. read keeps each file's names for the run's other bodies.
func bodySourcedNames(c *gate.Context, rootRel string, run *workflow.Run, read map[string][]string) []string {
	var names []string
	for _, l := range run.Lines {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		for _, op := range sourceOperands(l) {
			if op == "" || walk.PathRoot(op) || strings.ContainsAny(op, "$`*?[~") {
				continue
			}
			dir := rootRel
			if run.HasWorkDir {
				if run.WorkDir == "" || strings.Contains(run.WorkDir, "${{") || walk.PathRoot(run.WorkDir) {
					continue
				}
				dir = path.Join(rootRel, run.WorkDir)
			}
			p := path.Join(dir, op)
			if p == ".." || strings.HasPrefix(p, "../") {
				continue
			}
			if mode, tracked := c.Tree.Mode(p); !tracked || (mode != 0o100644 && mode != 0o100755) {
				continue
			}
			set, ok := read[p]
			if !ok {
				b, err := c.Tree.Read(p)
				if err != nil {
					continue // unread: the reports it could excuse stand
				}
				set = []string{} // read, if it assigns nothing
				for _, fl := range strings.Split(string(b), "\n") {
					if strings.HasPrefix(strings.TrimSpace(fl), "#") {
						continue
					}
					for _, m := range arrayAssign.Get().FindAllStringSubmatch(fl, -1) {
						set = append(set, m[1])
					}
				}
				read[p] = set
			}
			names = append(names, set...)
		}
	}
	return names
}
