package gates

// check-shellcheck: the shell the family ships and the consumer's own
// gates pass shellcheck at warning severity. The gate wraps ShellCheck
// rather than re-deriving it, and says so when it is not installed.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
	"github.com/gate-sdk/gates/internal/workflow"
)

// kitLintDirs are the dirs of each kit root whose direct *.sh files ship.
// The templates dir is not among them: it is where
// GATE_SDK_KIT_TEMPLATES_DIR puts it (kitTemplateDirs).
var kitLintDirs = []string{"lib", "bin", "checks", "smoke"}

// scFileLine is one line of ShellCheck's gcc format over named files.
var scFileLine = lazyre.New(`^(.+?):(\d+):(\d+): (\w+): (.*)$`)

func checkShellcheck(c *gate.Context) int {
	// The probe comes first: with no shellcheck there is nothing to decide,
	// whatever the corpus holds.
	if !spawn.OnPath("shellcheck", spawn.LookupEnv(c.Env)) {
		return c.Refuse("shellcheck is not on PATH, and this gate is a wrapper around it: install ShellCheck (Debian and Ubuntu: apt-get install shellcheck; macOS: brew install shellcheck) or unregister check-shellcheck")
	}
	targets, outside, err := shellcheckTargets(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	if len(targets) == 0 && outside > 0 {
		// The scripts are there, off the disk of a sparse checkout.
		return c.NewReport(nil).Nothing("0 shell files to lint here" + sparseNote(outside))
	}
	if len(targets) == 0 {
		if code, ok := nothingOwn(c, fmt.Sprintf("0 *.sh of this repository's own directly in %s or in GATE_SDK_LINT_EXTRA_DIRS", c.GatesDir)); ok {
			return code
		}
		return c.Refuse("no *.sh to lint: none directly in %s, in a kit root's %s, or in GATE_SDK_LINT_EXTRA_DIRS (a gate that lints nothing cannot be clean)",
			c.GatesDir, strings.Join(kitLintDirs, "/ "))
	}
	// A script whose #! names a shell ShellCheck does not read, and a file
	// with no #! holding a <% %> tag outside a quote (a template rendered
	// into shell later), are skipped and counted; each target is read once.
	targets, texts, foreign, templates, generated, err := screenTargets(c, targets)
	if err != nil {
		return c.RefuseErr(err)
	}
	notes := foreignNote(foreign) + templateNote(templates)
	if outside > 0 {
		notes += sparseNote(outside)
	}
	if generated > 0 {
		notes += "; " + plural(generated, "generated file", "generated files") + " skipped (marked generated: their generator is where a fix goes)"
	}
	// assertion M: a script a Go test of its own directory names is that
	// test's input, skipped and counted.
	targets, inputs, err := goTestInputs(c, targets)
	if err != nil {
		return c.RefuseErr(err)
	}
	if inputs > 0 {
		notes += "; " + plural(inputs, "test input a Go test of its directory names skipped", "test inputs a Go test of their directory names skipped")
	}
	if len(targets) == 0 {
		return c.NewReport(nil).Nothing("0 shell files to lint" + notes)
	}
	// assertion C: in a shard only the targets of its part are judged;
	// ShellCheck is given them and every target they could source.
	judged := make([]bool, len(targets))
	n := 0
	for i, t := range targets {
		if judged[i] = c.Judges(t); judged[i] {
			n++
		}
	}
	c.JudgedPart(n, len(targets))
	r := c.NewReport(map[string]string{
		"A": "fix each listed ShellCheck warning (its wiki page is https://www.shellcheck.net/wiki/SC<code>); a deliberate exception takes a # shellcheck disable=SC<code> directive on the line above, with the reason beside it",
	})
	if n == 0 {
		return r.Nothing("0 shell files hash to this shard")
	}
	// assertion W: a tracked file a target sources by a literal path,
	// outside the linted dirs, goes to ShellCheck as an input it may
	// follow, never judged.
	libs := sourcedLibraries(c, targets, texts)
	units, err := lintFiles(c, append(append([]string(nil), targets...), libs...), append(judged, make([]bool, len(libs))...))
	if err != nil {
		return c.RefuseErr(err)
	}
	units = units[:len(targets)]
	callers := callerEnv(c, targets, texts, judged, units)
	dropped, idiomatic := 0, 0
	var src *sourcers
	for i, t := range targets {
		if !judged[i] {
			continue
		}
		var idioms *scriptIdioms
		untracked := -1 // sourcesUntracked(t), read on the first SC2154 or SC2034 (-1: not yet)
		reports := units[i]
		// assertion V: a file ShellCheck could not parse is reported by
		// its parse errors; what it says of the part it read is held
		// back, counted, until the file parses.
		if parsed, held := parseErrors(reports); held > 0 {
			reports = parsed
			r.Note(fmt.Sprintf("%s on %s held back until it parses", plural(held, "ShellCheck report", "ShellCheck reports"), gate.QuotePath(t)))
		}
		for _, rp := range reports {
			// assertion K: a file git records as not executable, with no
			// #!, is sourced, not run: it names no shell on purpose.
			if strings.HasSuffix(rp.text, "[SC2148]") {
				if mode, tracked := c.Tree.Mode(t); tracked && mode == 0o100644 {
					idiomatic++
					continue
				}
			}
			// assertion D: a report on a deliberate idiom is left out,
			// and counted.
			if idiomMayApply(rp.text) {
				if idioms == nil {
					idioms = readIdioms(string(texts[t]))
				}
				if idioms.intended(rp.line, rp.col, rp.text) {
					idiomatic++
					continue
				}
			}
			// assertion U: a library's name that a script sourcing it
			// reads (SC2034) or sets before the source (SC2154) is the
			// script's business, left out and counted.
			if strings.HasSuffix(rp.text, "[SC2034]") || strings.HasSuffix(rp.text, "[SC2154]") || strings.HasSuffix(rp.text, "[SC2164]") {
				if src == nil {
					s := readSourcers(shellTexts(c, texts))
					src = &s
				}
				if src.sourcedName(t, rp.text) {
					idiomatic++
					continue
				}
				// A cd with no exit in a library that only scripts under
				// set -e source: a failed cd ends their run.
				if strings.HasSuffix(rp.text, "[SC2164]") && src.sourcedUnderErrexit(t) {
					idiomatic++
					continue
				}
			}
			// assertion X: a name a script reads, or sets, beside a file
			// it sources (itself or through a library of the tree) that
			// the tree does not hold may be that file's to set or to read:
			// ShellCheck cannot see it, so the report is left out.
			nameReport := strings.HasSuffix(rp.text, "[SC2154]") || strings.HasSuffix(rp.text, "[SC2034]")
			if nameReport && untracked < 0 {
				untracked = 0
				if sourcesUntracked(c, t, texts[t]) {
					untracked = 1
				}
			}
			if nameReport && untracked == 1 {
				idiomatic++
				continue
			}
			if name, ok := unassignedName(rp.text); ok && callers[t][name] {
				dropped++
				continue
			}
			// The unread variable of a loop over literal numbers is a
			// repeat count (as in run-shell's M).
			if strings.HasSuffix(rp.text, "[SC2034]") && repeatCounter(lineOf(texts[t], rp.line), rp.text) {
				continue
			}
			// assertion A: every target passes shellcheck -S warning.
			r.Add(gate.Finding{Class: "A", Path: t, Line: rp.line, Msg: fmt.Sprintf("%s: %s", rp.level, rp.text)})
		}
	}
	if idiomatic > 0 {
		notes += "; " + plural(idiomatic, "report on a deliberate idiom", "reports on deliberate idioms") + " left out"
	}
	if dropped > 0 {
		notes += "; " + plural(dropped, "SC2154 report on names the calling step's env: sets", "SC2154 reports on names the calling step's env: sets") + " dropped"
	}
	return r.Done(fmt.Sprintf("%s pass shellcheck -S warning", plural(n, "shell file", "shell files")) + notes)
}

// parseStops are the codes ShellCheck gives a file it could not parse to
// its end: parsing stopped at a token, or a construct it could not close.
var parseStops = []string{"[SC1070]", "[SC1072]", "[SC1073]", "[SC1088]", "[SC1089]"}

// parseErrors answers, for the reports on a file ShellCheck could not
// parse, its parser's errors (SC1xxx at error level) and how many other
// reports it held back; for a file it parsed, (nil, 0).
func parseErrors(reports []scReport) ([]scReport, int) {
	stopped := false
	for _, rp := range reports {
		for _, code := range parseStops {
			stopped = stopped || strings.HasSuffix(rp.text, code)
		}
	}
	if !stopped {
		return nil, 0
	}
	var kept []scReport
	for _, rp := range reports {
		if k := strings.LastIndex(rp.text, "[SC"); rp.level == "error" && k >= 0 && len(rp.text)-k == 8 && rp.text[k+3] == '1' {
			kept = append(kept, rp)
		}
	}
	return kept, len(reports) - len(kept)
}

// unassigned matches ShellCheck's SC2154 report, capturing the name; the
// report may add a hint in parentheses ("(did you mean 'TEST_NS'?)", "(for
// output from commands, use "$(diff ...)" )").
var unassigned = lazyre.New(`^warning: ([A-Za-z_][A-Za-z0-9_]*) is referenced but not assigned(?: \(.*\))?\. \[SC2154\]$`)

// unassignedName answers the name an SC2154 report is about.
func unassignedName(text string) (string, bool) {
	m := unassigned.Get().FindStringSubmatch("warning: " + text)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// callerEnv answers, per target a step of a workflow under
// .github/workflows runs by its path, the names every such step's env:
// (the step's, the job's, the workflow's) and the job's earlier
// $GITHUB_ENV writes set: the runner has put them in the environment
// the script starts with. A target named by another shell target or by
// the root Makefile may be started from there too, with no such
// environment, and gets none; so does every target when a workflow
// cannot be read or parsed (the findings then stand). Only computed when
// a judged report is SC2154.
func callerEnv(c *gate.Context, targets []string, texts map[string][]byte, judged []bool, units [][]scReport) map[string]map[string]bool {
	need := false
	for i := range targets {
		for _, rp := range units[i] {
			if _, ok := unassignedName(rp.text); ok && judged[i] {
				need = true
			}
		}
	}
	if !need {
		return nil
	}
	// consumer-value-exempt: GitHub's own fixed workflow directory, no choice of the consumer's
	const wfDir = ".github/workflows"
	ents, err := os.ReadDir(runPath(c, wfDir))
	if err != nil {
		return nil
	}
	index := map[string]string{} // a target's path as a step spells it -> target
	for _, t := range targets {
		clean := path.Clean(filepath.ToSlash(t))
		index[clean] = t
	}
	sets := map[string]map[string]bool{}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !(strings.HasSuffix(name, ".yml") || strings.HasSuffix(name, ".yaml")) {
			continue
		}
		// consumer-value-exempt: GitHub's own fixed workflow directory, no choice of the consumer's
		data, err := readFile(c, wfDir+"/"+name)
		if err != nil {
			return nil
		}
		// consumer-value-exempt: GitHub's own fixed workflow directory, no choice of the consumer's
		f := workflow.Read(wfDir+"/"+name, data)
		if f.Rejected != nil {
			return nil
		}
		if !f.Shape.Workflow() {
			continue
		}
		runs, err := workflow.Extract(f)
		if err != nil {
			return nil
		}
		for _, r := range runs {
			for _, l := range r.Lines {
				for _, tok := range workflow.ScriptTokens(l) {
					p := tok
					// path-dialect-exempt: a working-directory as the workflow spells it, '/'-separated on every host, not a path of this one
					if r.HasWorkDir && !strings.HasPrefix(p, "/") {
						p = path.Join(r.WorkDir, p)
					}
					t, ok := index[path.Clean(p)]
					if !ok {
						continue
					}
					have := map[string]bool{}
					for _, n := range append(r.EnvNames(), r.GitHubEnvNames()...) {
						have[n] = true
					}
					if prev, seen := sets[t]; seen {
						for n := range prev {
							if !have[n] {
								delete(prev, n)
							}
						}
					} else {
						sets[t] = have
					}
				}
			}
		}
	}
	if len(sets) == 0 {
		return nil
	}
	// A target another target or the Makefile names may run from there.
	// An absent Makefile calls nothing; one that cannot be read could call
	// anything, so every report then stands.
	// consumer-value-exempt: the conventional top-level build file, read only to see whether it calls the script; no choice of the consumer's
	const makefile = "Makefile"
	mk, present, err := readOptional(c, makefile)
	if err != nil {
		return nil
	}
	others := map[string][]byte{}
	if present {
		others[makefile] = mk
	}
	for _, t := range targets {
		others[t] = texts[t]
	}
	for o, data := range others {
		for t := range sets {
			if t != o && bytes.Contains(data, []byte(path.Base(t))) {
				delete(sets, t)
			}
		}
	}
	return sets
}

// screenTargets reads each target once (a regular file, bounded, as a
// configuration file is read) and answers the targets left to lint with
// their text, less the scripts whose #! names one of foreignShells
// (counted per shell) and the templates (see isTemplate, counted). A
// target that is gone stays, for the lint to say so; one that is no
// regular file (a FIFO, a device) is refused, never handed to ShellCheck,
// whose open would wait on it.
func screenTargets(c *gate.Context, targets []string) (kept []string, texts map[string][]byte, foreign map[string]int, templates, generated int, err error) {
	texts = map[string][]byte{}
	foreign = map[string]int{}
	for _, t := range targets {
		data, rerr := walk.ReadConfig(runPath(c, t))
		switch {
		case errors.Is(rerr, fs.ErrNotExist):
		case rerr != nil:
			return nil, nil, nil, 0, 0, fmt.Errorf("cannot read shell target %s: %w", t, unwrapPath(rerr))
		case foreignShell(data) != "":
			foreign[foreignShell(data)]++
			continue
		case isTemplate(data):
			templates++
			continue
		case generatedScript(data):
			// assertion S: a file marked generated is skipped, and
			// counted.
			generated++
			continue
		default:
			texts[t] = data
		}
		kept = append(kept, t)
	}
	return kept, texts, foreign, templates, generated, nil
}

// constantTestHoldsExpr reports whether the test ShellCheck placed at col
// (1-based, anywhere in it; the test runs from the [ before it to the ]
// after it) holds a GitHub expression: the
// comparison is of a value GitHub writes in, not of two constants. A
// constant test beside an expression elsewhere on the line is not.
func constantTestHoldsExpr(l string, col int) bool {
	if col < 1 || col > len(l) {
		return false
	}
	from := strings.LastIndexByte(l[:col-1], '[') + 1
	rest := l[from:]
	if end := strings.IndexByte(l[col-1:], ']'); end >= 0 {
		rest = l[from : col-1+end]
	}
	return strings.Contains(rest, workflow.Expr)
}

// exprAt reports whether the expansion ShellCheck placed at col of line l
// is a GitHub expression's placeholder.
func exprAt(l string, col int) bool {
	name, ok := expansionAt(l, col)
	return ok && "${"+name+"}" == workflow.Expr
}

// exprRange reports a brace range at col of line l whose bounds are
// digits or GitHub expressions, one at least.
func exprRange(l string, col int) bool {
	if col < 1 || col > len(l) || l[col-1] != '{' {
		return false
	}
	end, depth := -1, 1
	for i := col; i < len(l) && end < 0; i++ {
		switch l[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				end = i
			}
		}
	}
	if end < 0 {
		return false
	}
	body := l[col:end]
	lo, hi, ok := strings.Cut(body, "..")
	if !ok || !strings.Contains(body, workflow.Expr) {
		return false
	}
	for _, b := range []string{lo, hi} {
		if b != workflow.Expr && (b == "" || strings.Trim(b, "0123456789") != "") {
			return false
		}
	}
	return true
}

// passOnLine matches a line that echoes or prints into one of the files
// the runner reads after the step ($GITHUB_OUTPUT, $GITHUB_ENV,
// $GITHUB_STEP_SUMMARY).
var passOnLine = lazyre.New(`^\s*(?:echo|printf)\b.*>>?\s*"?\$\{?GITHUB_(?:OUTPUT|ENV|STEP_SUMMARY)\}?"?\s*$`)

// The quotes a passed-on value holds are read by the step that pastes it
// into its body; SC2089 and SC2090 are about the shell that runs this one.

// passesOn reports whether line l hands its text to a runner file.
func passesOn(l string) bool {
	return passOnLine.Get().MatchString(l)
}

// onlyPassedOn reports whether some name assigned on line l is expanded
// only on lines passing their text on to a runner file, or into its own
// value again (X="$X --flag"), and is passed on once at least: the quotes
// its value holds are for the step that reads it. Lines are read whole,
// backslash continuations joined.
func (s *scriptIdioms) onlyPassedOn(l string) bool {
	for _, m := range arrayAssign.Get().FindAllStringSubmatch(l, -1) {
		name, passed, ok := m[1], 0, true
		for k := 1; k <= len(s.lines) && ok; k++ {
			if k > 1 && continues(s.lines[k-2]) {
				continue // read with the line it continues
			}
			other := s.joined(k)
			uses, spliced := 0, 0
			for _, x := range expansion.Get().FindAllStringSubmatchIndex(other, -1) {
				if other[x[2]:x[3]] == name {
					uses++
					if splicedAt(other, utf8.RuneCountInString(other[:x[0]])+1) {
						spliced++
					}
				}
			}
			switch {
			case uses == 0:
			case spliced == uses, passesOn(other):
				passed++
			case assignsTo(other, name):
			default:
				ok = false
			}
		}
		if ok && passed > 0 {
			return true
		}
	}
	return false
}

// assignmentHead matches the opening of a command that assigns: a name
// (an array element allowed), = or +=, after local, export, readonly or
// declare and their options.
var assignmentHead = lazyre.New(`^\s*(?:(?:local|export|readonly|declare|typeset)(?:\s+-[A-Za-z]+)*\s+)?[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=`)

// joinedInAssignment reports whether the expansion at 1-based column col
// of l stands in the value of the assignment that opens the line, outside
// quotes, right after a closing double quote whose text ends in no blank,
// and with no unquoted blank between the = and it: a quoted literal joined
// to it, where the assignment neither splits nor globs. A blank before the
// quote ("say "$x" now") may mean quotes meant to be printed, and stays.
func joinedInAssignment(l string, col int) bool {
	i := col - 1
	if i < 2 || i >= len(l) || l[i] != '$' || l[i-1] != '"' || l[i-2] == ' ' || l[i-2] == '\t' {
		return false
	}
	head := assignmentHead.Get().FindStringIndex(l)
	if head == nil || head[1] > i {
		return false
	}
	var quote byte
	for k := head[1]; k < i; k++ {
		switch c := l[k]; {
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote != 0 && c == quote:
			quote = 0
		case quote != '\'' && c == '\\':
			k++
		case quote == 0 && (c == ' ' || c == '\t' || c == ';' || c == '&' || c == '|'):
			return false
		}
	}
	return quote == 0
}

// splicedAt reports whether the expansion at 1-based column col of l
// stands between a closing and an opening single quote ('…'$v'…' or
// '…'${v}'…'): the value pasted into quoted code, whose quotes the
// shell that later evaluates the code reads.
func splicedAt(l string, col int) bool {
	i := col - 1
	if i >= 0 && i < len(l) && l[i] != '$' {
		// A column counted in characters, past a multi-byte one.
		for b := range l {
			if utf8.RuneCountInString(l[:b]) == col-1 {
				i = b
				break
			}
		}
	}
	if i < 1 || i >= len(l) || l[i] != '$' || l[i-1] != '\'' {
		return false
	}
	rest := l[i+1:]
	var n int
	if strings.HasPrefix(rest, "{") {
		n = strings.IndexByte(rest, '}') + 1
		if n == 0 {
			return false
		}
	} else {
		for n < len(rest) && (rest[n] == '_' || rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] >= '0' && rest[n] <= '9') {
			n++
		}
	}
	return n > 0 && n < len(rest) && rest[n] == '\''
}

// assignsTo reports whether line l assigns to name.
func assignsTo(l, name string) bool {
	for _, m := range arrayAssign.Get().FindAllStringSubmatch(l, -1) {
		if m[1] == name {
			return true
		}
	}
	return false
}

// continues reports a line a trailing backslash continues.
func continues(l string) bool {
	return strings.HasSuffix(strings.TrimRight(l, " \t\r"), "\\")
}

// logicalStart answers the first line (1-based) of the backslash-continued
// line that line belongs to.
func (s *scriptIdioms) logicalStart(line int) int {
	for line > 1 && continues(s.lines[line-2]) {
		line--
	}
	return line
}

// silentAssign matches NAME=word at the start of what it is given.
var silentAssign = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*=([A-Za-z]+)(?:$|[\s;&|)])`)

// silentCommandValue reports an assignment at col (1-based) whose value
// is the name of a command that prints nothing: the word is the value.
func silentCommandValue(l string, col int) bool {
	if col < 1 || col > len(l) {
		return false
	}
	m := silentAssign.Get().FindStringSubmatch(l[col-1:])
	return m != nil && (m[1] == "test" || m[1] == "true" || m[1] == "false")
}

// goTemplateBrace reports a brace at col (1-based, in characters) inside
// a word holding a Go template action ({{ then }}, no blank between), as
// docker and kubectl take for --format.
func goTemplateBrace(line string, col int) bool {
	runes := []rune(line)
	i := col - 1
	if i < 0 || i >= len(runes) || (runes[i] != '{' && runes[i] != '}') {
		return false
	}
	from, to := i, i
	for from > 0 && !strings.ContainsRune(" \t\"'", runes[from-1]) {
		from--
	}
	for to < len(runes)-1 && !strings.ContainsRune(" \t\"'", runes[to+1]) {
		to++
	}
	word := string(runes[from : to+1])
	open := strings.Index(word, "{{")
	shut := strings.LastIndex(word, "}}")
	at := len(string(runes[from:i]))
	return open >= 0 && shut > open && at >= open && at <= shut+1
}

// generatedMark is the line that marks a generated file: Go's convention
// (a comment "Code generated … DO NOT EDIT."), or the first line of the
// bash completion script cobra writes for a command.
var generatedMark = lazyre.New(`(?m)^#\s*Code generated .* DO NOT EDIT\.\s*$|\A# bash completion (?:V2 )?for [^\s]+ +-\*- shell-script -\*-\s*$`)

// generatedScript reports a script marked generated within its first ten
// lines.
func generatedScript(data []byte) bool {
	head := data
	for i, n := 0, 0; i < len(data); i++ {
		if data[i] == '\n' {
			if n++; n == 10 {
				head = data[:i]
				break
			}
		}
	}
	return generatedMark.Get().Match(head)
}

// goTestInputs sets apart the targets a Go test file (*_test.go) of the
// same directory names as a quoted literal ("canonical.sh" or
// `canonical.sh`): a parser's or a formatter's sample the test reads as
// text, which no one runs as a program. The rest are kept in order.
func goTestInputs(c *gate.Context, targets []string) (kept []string, inputs int, err error) {
	files, err := c.Tree.Files()
	if err != nil {
		return nil, 0, fmt.Errorf("cannot list the tracked files: %w", err)
	}
	tests := map[string][]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			d := path.Dir(f)
			tests[d] = append(tests[d], f)
		}
	}
	texts := map[string][]byte{} // each test file read once, however many targets share its directory
	for _, t := range targets {
		named := false
		for _, tf := range tests[path.Dir(t)] {
			data, seen := texts[tf]
			if !seen {
				var rerr error
				if data, rerr = c.Tree.Read(tf); rerr != nil {
					return nil, 0, fmt.Errorf("cannot read %s: %w", tf, unwrapPath(rerr))
				}
				texts[tf] = data
			}
			base := path.Base(t)
			if bytes.Contains(data, []byte(`"`+base+`"`)) || bytes.Contains(data, []byte("`"+base+"`")) {
				named = true
				break
			}
		}
		if named {
			inputs++
			continue
		}
		kept = append(kept, t)
	}
	return kept, inputs, nil
}

// isTemplate reports a file with no #! first line holding, on some line,
// a template tag: <% and a later %> with no quote character before the
// <% on that line. The tag's own syntax (ERB, EJS) is no shell: sh reads
// <%= as a redirection from a file named %=, so such a file is only
// shell once rendered, and ShellCheck answers it with parse errors. A
// tag inside a quoted string is text the script prints, and a #! says
// the file runs as committed; either leaves it linted.
func isTemplate(data []byte) bool {
	if bytes.HasPrefix(data, []byte("#!")) {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		at := strings.Index(line, "<%")
		if at < 0 || strings.ContainsAny(line[:at], "'\"`") {
			continue
		}
		if strings.Contains(line[at+2:], "%>") {
			return true
		}
	}
	return false
}

// templateNote is the clean-line clause counting the skipped templates;
// "" when there were none.
func templateNote(n int) string {
	if n == 0 {
		return ""
	}
	// consumer-value-exempt: the English plural on the clean line; it names no directory, though templates/ is one
	return "; " + plural(n, "template", "templates") + " skipped (a <% %> tag and no #!: shell only once rendered)"
}

// foreignShells are the shells a #! line may name that ShellCheck does not
// read (it reads sh, bash, dash, ksh and busybox sh).
var foreignShells = []string{"zsh", "fish", "csh", "tcsh"}

// foreignShell answers the shell a script's #! line (in data) names when
// ShellCheck does not read it, "" otherwise.
func foreignShell(data []byte) string {
	if prog := shebangProgram(data); slices.Contains(foreignShells, prog) {
		return prog
	}
	// A first line zsh's completion system reads (#compdef NAMES,
	// #autoload) makes the file a zsh function file, whatever its name:
	// zsh loads it, and no #! is written in one.
	first, _, _ := strings.Cut(string(data[:min(len(data), 256)]), "\n")
	if f := strings.Fields(first); len(f) > 0 && (f[0] == "#compdef" || f[0] == "#autoload") {
		return "zsh"
	}
	return ""
}

// shebangProgram answers the program a #! line (the first of data) names,
// through env and its options; "" with no #!.
func shebangProgram(data []byte) string {
	first, _, _ := strings.Cut(string(data[:min(len(data), 256)]), "\n")
	rest, ok := strings.CutPrefix(first, "#!")
	if !ok {
		return ""
	}
	words := strings.Fields(rest)
	if len(words) == 0 {
		return ""
	}
	prog := path.Base(words[0])
	if prog == "env" {
		prog = ""
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-") {
				prog = path.Base(w)
				break
			}
		}
	}
	return prog
}

// foreignNote is the clean-line clause counting the skipped scripts by
// shell; "" when there were none.
func foreignNote(skipped map[string]int) string {
	var parts []string
	for _, sh := range foreignShells {
		if n := skipped[sh]; n > 0 {
			parts = append(parts, plural(n, sh+" script", sh+" scripts"))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, ", ") + " skipped (ShellCheck reads sh, bash, dash and ksh only)"
}

// scFileFlags is check-shellcheck's ShellCheck argv less its operands.
// assertion N: a source command's file is looked up from the script's own
// directory as well as from the top (where ShellCheck runs), so a name set
// before sourcing a neighbour that reads it is seen as read.
var scFileFlags = []string{"--norc", "-S", "warning", "--source-path=SCRIPTDIR", "-f", "gcc"}

// scTarget is one target as the content cache sees it.
type scTarget struct {
	data   []byte
	loaded bool   // data holds the file's bytes
	deps   []int  // the targets its text could reach by a source command
	key    string // its content cache key, "" when uncached
	// scanned marks deps as filled (scDeps), tried a read attempted.
	scanned, tried bool
}

// lintFiles answers each judged target's ShellCheck report, index-aligned
// with targets (judged: which of them this run judges, a shard's part). A target the content cache holds is served from it; the rest
// go to one ShellCheck run, with every target a missed one could follow a
// source command to (ShellCheck reads a sourced file that is among its
// inputs, so such a report depends on that neighbour too).
func lintFiles(c *gate.Context, targets []string, judged []bool) ([][]scReport, error) {
	out := make([][]scReport, len(targets))
	sc := openScCache(c)
	ts := make([]scTarget, len(targets))
	var mine []int
	for i := range targets {
		if judged[i] {
			mine = append(mine, i)
		}
	}
	load := func(i int) {
		ts[i].tried = true
		if data, err := walk.ReadConfig(runPath(c, targets[i])); err == nil {
			ts[i].data, ts[i].loaded = data, true
		}
	}
	if _, part := c.Part(); part {
		// A part reads its own targets and, transitively, what they could
		// source, never the rest: the batch and keys need no more.
		for _, i := range mine {
			load(i)
		}
		for grew := true; grew; {
			scDeps(targets, ts)
			grew = false
			for j := range scReach(ts, mine...) {
				if !ts[j].tried {
					load(j)
					grew = true
				}
			}
		}
	} else if sc != nil {
		for i := range targets {
			load(i)
		}
		scDeps(targets, ts)
	}
	var miss []int
	for _, i := range mine {
		if ts[i].loaded {
			ts[i].key = scFileKey(c, sc, targets, ts, i)
		}
		if rs, ok := sc.get(ts[i].key); ok {
			out[i] = rs
			continue
		}
		miss = append(miss, i)
	}
	if len(miss) == 0 {
		return out, nil
	}
	// assertion B: the misses and every target they could follow go to
	// one ShellCheck run.
	in := scReach(ts, miss...)
	if _, part := c.Part(); !part && sc == nil {
		// Uncached and whole: no deps were read, so every target goes,
		// the unjudged libraries W adds among them.
		for i := range targets {
			in[i] = true
		}
	}
	var batch []string
	index := map[string]int{}
	for i, t := range targets {
		if in[i] {
			batch = append(batch, t)
			index[t] = i
		}
	}
	cmd := shellcheckCmd(c, append(append(append([]string(nil), scFileFlags...), "--"), batch...)...)
	res := spawn.RunStreamed(cmd, nil)
	switch res.Code() {
	case 0, 1:
	case 126, 127:
		return nil, fmt.Errorf("could not run shellcheck: %s", strings.TrimSpace(string(res.Stderr())))
	default:
		return nil, fmt.Errorf("shellcheck could not lint the targets (exit %d): %s", res.Code(), strings.TrimSpace(string(res.Stderr())+string(res.Stdout())))
	}
	fresh := map[int][]scReport{}
	n := 0
	for _, ln := range strings.Split(string(res.Stdout()), "\n") {
		m := scFileLine.Get().FindStringSubmatch(ln)
		if m == nil {
			continue
		}
		i, ok := index[m[1]]
		if !ok {
			return nil, fmt.Errorf("shellcheck reported on %s, which is none of the files it was given: %q", m[1], ln)
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		fresh[i] = append(fresh[i], scReport{line: line, col: col, level: m[4], text: m[5]})
		n++
	}
	if res.Code() == 1 && n == 0 {
		return nil, fmt.Errorf("shellcheck exited 1 with no report line: %s", strings.TrimSpace(string(res.Stderr())))
	}
	// A report is kept only when every file of the run still holds the
	// bytes its key was taken over: one edited mid-run keys nothing.
	steady := sc != nil
	for i := range targets {
		if in[i] && steady {
			data, err := walk.ReadConfig(runPath(c, targets[i]))
			steady = err == nil && ts[i].loaded && bytes.Equal(data, ts[i].data)
		}
	}
	for i := range targets {
		if !in[i] {
			continue
		}
		out[i] = fresh[i]
		if steady {
			sc.put(ts[i].key, fresh[i])
		}
	}
	return out, nil
}

// scDeps fills each target's deps: the other targets (or itself) whose
// base name its text spells once quotes and backslashes are dropped. A
// sourced file ShellCheck follows is one of its inputs named by the
// source command's literal operand or a source= directive, whose last
// component is that input's base name, so a text that spells none of
// them follows none. A $'…' word (whose escapes could spell a name) can
// only do so inside a source command's operand, so a text with a line
// (continuations joined) holding both $' and a source or . word reaches
// every target.
func scDeps(targets []string, ts []scTarget) {
	byBase := map[string][]int{}
	var odd []string // base names holding a byte outside scNameByte
	for i, t := range targets {
		base := t[strings.LastIndexByte(t, '/')+1:]
		if byBase[base] == nil && strings.IndexFunc(base, func(r rune) bool { return !scNameRune(r) }) >= 0 {
			odd = append(odd, base)
		}
		byBase[base] = append(byBase[base], i)
	}
	for i := range ts {
		if !ts[i].loaded || ts[i].scanned {
			continue
		}
		ts[i].scanned = true
		if scAnsiSource(ts[i].data) {
			for j := range targets {
				ts[i].deps = append(ts[i].deps, j)
			}
			continue
		}
		text := scUnquote(ts[i].data)
		seen := map[int]bool{}
		noteDeps := func(js []int) {
			for _, j := range js {
				if !seen[j] {
					seen[j] = true
					ts[i].deps = append(ts[i].deps, j)
				}
			}
		}
		for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return !scNameRune(r) }) {
			noteDeps(byBase[tok])
		}
		for _, base := range odd {
			if strings.Contains(text, base) {
				noteDeps(byBase[base])
			}
		}
		sort.Ints(ts[i].deps)
	}
}

// scAnsiSource reports whether some line of data, backslash-newline
// continuations joined, holds both a $' and a source or . word (quotes
// dropped; words split at blanks and ;&|(){}`). Only such a line can
// name, by an ANSI-C escape, the file a source command follows.
func scAnsiSource(data []byte) bool {
	if !bytes.Contains(data, []byte("$'")) {
		return false
	}
	joined := bytes.ReplaceAll(data, []byte("\\\n"), nil)
	for _, line := range bytes.Split(joined, []byte("\n")) {
		if !bytes.Contains(line, []byte("$'")) {
			continue
		}
		words := strings.FieldsFunc(scUnquote(line), func(r rune) bool {
			return r == ' ' || r == '\t' || r == '\r' || strings.ContainsRune(";&|(){}`", r)
		})
		for _, w := range words {
			if w == "." || w == "source" {
				return true
			}
		}
	}
	return false
}

// scNameRune is a rune a base name token is made of (any non-ASCII one
// included); every other rune splits the text into tokens.
func scNameRune(r rune) bool {
	return r >= 0x80 || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._+@%,~-", r)
}

// scUnquote drops the bytes a shell word can hide a name's letters
// behind: quotes, backslashes and backslash-newline continuations.
func scUnquote(data []byte) string {
	var b strings.Builder
	b.Grow(len(data))
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"', '\'', '\\':
			if data[i] == '\\' && i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			continue
		}
		b.WriteByte(data[i])
	}
	return b.String()
}

// scFileKey is target i's content cache key: its bytes and the dialect
// its name implies (ShellCheck reads the shell from the shebang, in the
// bytes, or else from the extension); a target that can reach others (or
// itself) by a source command adds the run directory and the path and
// bytes of every target it reaches, directly or through another.
func scFileKey(c *gate.Context, sc *scCache, targets []string, ts []scTarget, i int) string {
	if sc == nil {
		return ""
	}
	t := targets[i]
	ext := ""
	if dot := strings.LastIndexByte(t, '.'); dot > strings.LastIndexByte(t, '/') {
		ext = t[dot:]
	}
	var more func(*cache.Config)
	if len(ts[i].deps) > 0 {
		reach := scReach(ts, i)
		for j := range reach {
			if !ts[j].loaded {
				return "" // a neighbour it reaches is unreadable: uncached
			}
		}
		more = func(k *cache.Config) {
			k.AddString("dir", c.Dir)
			k.AddString("self", t)
			for j := range targets {
				if reach[j] {
					k.AddString("path", targets[j])
					k.Add("bytes", ts[j].data)
				}
			}
		}
	}
	return sc.unitKey("file", scFileFlags, ext, ts[i].data, more)
}

// scReach answers the targets reachable from each of from by source
// commands, directly or through another, from included.
func scReach(ts []scTarget, from ...int) map[int]bool {
	reach := map[int]bool{}
	var visit func(int)
	visit = func(i int) {
		if reach[i] {
			return
		}
		reach[i] = true
		for _, d := range ts[i].deps {
			visit(d)
		}
	}
	for _, i := range from {
		visit(i)
	}
	return reach
}

// shellcheckTargets answers the files to lint. Operands replace the whole
// set (a dir operand contributes its direct *.sh); otherwise the set is the
// gates dir's direct *.sh, each kit root's lib/ bin/ checks/ smoke/ and
// template tree's direct *.sh, and each dir GATE_SDK_LINT_EXTRA_DIRS names.
//
// outside counts the *.sh directly in a named dir that a sparse checkout
// leaves off the disk, which are not linted.
func shellcheckTargets(c *gate.Context) (targets []string, outside int, err error) {
	var dirs []string
	var files []string
	if len(c.Args) > 0 {
		for _, a := range c.Args {
			st, err := os.Stat(runPath(c, a))
			if err != nil {
				return nil, 0, fmt.Errorf("cannot lint %s: %v", a, unwrapPath(err))
			}
			if st.IsDir() {
				dirs = append(dirs, a)
			} else {
				files = append(files, a)
			}
		}
	} else {
		dirs = append(dirs, c.GatesDir)
		tdirs, err := kitTemplateDirs(c, c.KitRoots, "")
		if err != nil {
			return nil, 0, err
		}
		for i, k := range c.KitRoots {
			for _, d := range kitLintDirs {
				dirs = append(dirs, registry.Join(strings.TrimRight(k, "/"), d))
			}
			dirs = append(dirs, tdirs[i])
		}
		extra, err := c.Knobs.Words("GATE_SDK_LINT_EXTRA_DIRS")
		if err != nil {
			return nil, 0, err
		}
		for _, d := range extra {
			st, err := os.Stat(runPath(c, d))
			if err == nil && st.IsDir() {
				dirs = append(dirs, d)
				continue
			}
			// A directory a sparse checkout leaves off the disk (every
			// entry under it skip-worktree) holds nothing this checkout
			// could have changed: its scripts are counted, not linted.
			if n, sparse := offSparse(c, d); os.IsNotExist(err) && sparse {
				outside += n
				continue
			}
			return nil, 0, fmt.Errorf("GATE_SDK_LINT_EXTRA_DIRS names %s, which is no directory", d)
		}
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[f] = true
	}
	for _, d := range dirs {
		entries, err := os.ReadDir(runPath(c, d))
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return nil, 0, fmt.Errorf("cannot list %s: %v", d, unwrapPath(err))
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".sh") {
				names = append(names, registry.Join(strings.TrimRight(d, "/"), e.Name()))
			}
		}
		sort.Strings(names)
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				files = append(files, n)
			}
		}
	}
	return files, outside, nil
}

// sparseNote is the clean line's count of the scripts a sparse checkout
// keeps off the disk.
func sparseNote(n int) string {
	// consumer-value-exempt: "scripts" is the plural noun of the count, no path.
	return "; " + plural(n, "script", "scripts") + " outside the sparse checkout not linted here (a full checkout's battery lints them)"
}

// offSparse answers, for a directory d (relative to the run directory)
// that is not on disk, whether the index holds entries under it and every
// one is outside a sparse checkout (skip-worktree), and how many of them
// are *.sh directly in d.
func offSparse(c *gate.Context, d string) (int, bool) {
	entries, err := repo.Git{}.IndexFlags(c.Dir)
	if err != nil {
		return 0, false
	}
	prefix := strings.Trim(path.Clean(filepath.ToSlash(d)), "/") + "/"
	n, under := 0, 0
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Path, prefix)
		if !ok {
			continue
		}
		if !e.SkipWorktree() {
			return 0, false
		}
		under++
		if !strings.Contains(rest, "/") && strings.HasSuffix(rest, ".sh") {
			n++
		}
	}
	return n, under > 0
}

// aliasOfExpansion matches alias whose name is an expansion ($name,
// "$name", ${name}).
var aliasOfExpansion = lazyre.New(`(?:^|[\s;&|(])alias\s+"?\$\{?[A-Za-z_][A-Za-z0-9_]*\}?"?=`)

// lineOf answers line n (1-based) of data, "" past its end.
func lineOf(data []byte, n int) string {
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// intended reports whether a report at (line, col) of the script is about
// a deliberate idiom (rules E to K of SPEC.md §check-shellcheck).
func (s *scriptIdioms) intended(line, col int, text string) bool {
	if line < 1 || line > len(s.lines) {
		return false
	}
	l := s.lines[line-1]
	switch {
	case strings.HasSuffix(text, "[SC3043]"):
		// assertion E: local in a POSIX sh script: every /bin/sh in use
		// has it.
		return true
	case strings.HasSuffix(text, "[SC1090]"):
		// assertion F: ShellCheck cannot follow a computed source path; a
		// remark on its own reach, not on the script.
		return true
	case strings.HasSuffix(text, "[SC2046]"):
		// assertion G: a substitution split on purpose or that cannot
		// split.
		sub, before, ok := substitutionAt(l, col)
		if !ok {
			// A substitution that does not close on its line is read over
			// the lines a trailing backslash continues it on; failing
			// that (eval $(… spanning lines), by what stands before it.
			if sub, before, ok = substitutionAt(s.joined(line), col); !ok {
				return col >= 1 && col-1 <= len(l) && commandWord(l[:col-1]) == "eval"
			}
		}
		before = s.continued(line, before)
		// kill's operands are process ids (kill $(cat "$PID_FILE")), and
		// a function named for flags prints them to be split.
		cw := commandWord(before)
		// exit and return take a status: exit $(cat "$dir/rc").
		return cw == "eval" || cw == "kill" || cw == "exit" || cw == "return" || goPackageOperand(before) ||
			s.oneWord(sub) || hereStringOperand(l, col) || s.flagsFunction(sub)
	case strings.HasSuffix(text, "[SC2207]"):
		// assertion G: an array filled from a command whose output is
		// words holding no blank, one per line (NAMES=($(go list ./...))).
		sub, _, ok := substitutionAt(l, col)
		return ok && s.oneWord(sub)
	case strings.HasSuffix(text, "[SC2145]"):
		// assertion Q: an array joined inside a quoted operand of echo
		// (or of a function that only echoes) prints the same words as $*
		// would.
		return s.echoOperand(l, col)
	case strings.HasSuffix(text, "[SC2076]"):
		// assertion R: a quoted =~ right side with no operator but the
		// dot is a literal text, matched literally as meant.
		return literalMatch(l)
	case strings.HasSuffix(text, "[SC2091]"):
		// assertion R: $(exit N) runs the status N on purpose (with -e,
		// a non-zero count fails the script there).
		sub, _, ok := substitutionAt(l, col)
		w := strings.Fields(sub)
		return ok && len(w) > 0 && w[0] == "exit"
	case strings.HasSuffix(text, "[SC2120]"):
		// assertion R: a function reading its arguments only with
		// defaults is meant to be called without them.
		return s.defaultsOnly(line)
	case strings.HasSuffix(text, "[SC2139]"):
		// assertion R: alias $name="$name --flag" names the alias by the
		// value it expands: aliases made in a loop over names mean to
		// expand each name as they are defined.
		return aliasOfExpansion.Get().MatchString(l)
	case strings.HasSuffix(text, "[SC2043]"):
		// assertion R: a loop over one literal word is a list of one.
		return singleWordLoop.Get().MatchString(l)
	case strings.HasSuffix(text, "[SC2206]"):
		// assertion H: an array filled by a split the script set up: an
		// IFS it set, or a separator made a blank; and bash's own arrays
		// whose first element the bare name means. (P: the words a GitHub
		// expression writes are literal text.)
		if exprAt(l, col) {
			return true
		}
		for _, re := range []*lazyre.RE{splitArray, spaceSplit} {
			for _, m := range re.Get().FindAllStringSubmatch(l, -1) {
				if s.split[m[1]] {
					return true
				}
			}
		}
		// assertion H: pids+=($pid), an array of background process ids
		// filled from a variable only ever set to $!.
		for _, m := range arrayAssign.Get().FindAllStringSubmatch(l, -1) {
			if s.pidArray(m[1]) {
				return true
			}
		}
		return false
	case strings.HasSuffix(text, "[SC2053]"):
		// assertion P: the right side of == or the words of an array
		// that a GitHub expression writes into the body are literal text
		// before the shell runs, not a variable's value.
		return exprAt(l, col)
	case strings.HasSuffix(text, "[SC2051]"):
		// assertion P: a brace range whose bound is a GitHub expression
		// ({1..${{ inputs.n }}}) holds a number when bash reads it.
		return exprRange(l, col)
	case strings.HasSuffix(text, "[SC2027]"):
		// assertion Z: quoted literals joined to an expansion in an
		// assignment's value (name="r_"${n}"_c_"${c}): the value is one
		// word whatever it holds, and quotes abutting text are joins.
		return joinedInAssignment(l, col)
	case strings.HasSuffix(text, "[SC2090]"):
		// assertion P: a value whose quotes are passed on as text to
		// $GITHUB_OUTPUT (or the env or summary file) for a later step to
		// read as shell: its quotes are meant for that reader.
		if passesOn(s.joined(s.logicalStart(line))) {
			return true
		}
		// assertion Y: a value spliced between two single-quoted parts of
		// a word ('…'$v'…') is pasted into code a later eval reads, which
		// honours its quotes.
		return splicedAt(l, col)
	case strings.HasSuffix(text, "[SC2089]"):
		return s.onlyPassedOn(s.joined(s.logicalStart(line)))
	case strings.HasSuffix(text, "[SC2048]"), strings.HasSuffix(text, "[SC2068]"):
		// assertion H: an array holding only background process ids ($!)
		// expanded unquoted: digits neither split nor glob.
		name, ok := expansionAt(l, col)
		return ok && s.pidArray(name)
	case strings.HasSuffix(text, "[SC1014]"):
		// assertion H: [[ name -lt 0 ]] compares the variable name
		// arithmetically; ShellCheck took the word for a command.
		return s.arithmeticName(l, col)
	case strings.HasSuffix(text, "[SC2128]"):
		name, ok := expansionAt(l, col)
		return ok && (s.split[name] || firstElementArrays[name])
	case strings.HasSuffix(text, "[SC1007]"):
		// assertion L: an emptied variable prefixed to a command.
		return emptyPrefix(l, col)
	case strings.HasSuffix(text, "[SC2178]"):
		for _, m := range assignment.Get().FindAllStringSubmatch(l, -1) {
			if s.split[m[1]] {
				return true
			}
		}
		return false
	case strings.HasSuffix(text, "[SC2064]"):
		// assertion I: trap "…$V…" where every V is set before and never
		// after: expanding now is expanding what the trap means.
		return s.trapSetBefore(line, l)
	case strings.HasSuffix(text, "[SC2209]"):
		// assertion T: NAME=test assigns the word; test prints nothing,
		// so no one means its output.
		return silentCommandValue(l, col)
	case strings.HasSuffix(text, "[SC1083]"):
		// assertion T: the braces of a Go template operand ({{.ID}}) and
		// of a git revision (@{upstream}) are literal on purpose.
		return goTemplateBrace(l, col) || passedBrace(l, col)
	case strings.HasSuffix(text, "[SC2034]"):
		// assertion J: the last name of a read holds the rest of the line,
		// so the name before it gets one field; a name before the field
		// the script wants only skips a field.
		name, ok := unusedNameOf(text)
		return ok && (lastReadName(l, name) || s.placeholderReadName(l, name))
	case strings.HasSuffix(text, "[SC2024]"):
		// assertion O: sudo's output redirected where the user may write:
		// root runs the command, the file is the user's, as meant.
		return userRedirect(l, col)
	case strings.HasSuffix(text, "[SC2050]"):
		// assertion P: a test ShellCheck calls constant compares a value
		// GitHub writes into the body (a run: body's expression).
		return constantTestHoldsExpr(l, col)
	case strings.HasSuffix(text, "[SC2087]"):
		// assertion P: a here-document whose only expansions are GitHub
		// expressions and names the script set before it expands as meant
		// on this side of ssh.
		return s.exprOnlyHeredoc(line - 1)
	}
	return false
}
