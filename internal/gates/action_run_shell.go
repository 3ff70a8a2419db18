package gates

// check-action-run-shell: every run: body in an Actions-shaped YAML file
// (a literal block or a single-line value) is ShellCheck-clean at
// -S warning under the dialect and the shell options its step really runs
// with, and every body's dialect can be stated. See
// gate-sdk/SPEC.md §check-action-run-shell.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/workflow"
)

var runShellHelps = map[string]string{
	"shellcheck": "fix each listed ShellCheck warning in the run: body (the line is the body's line in the YAML file); it was linted under the options the runner starts the shell with (bash -e with no shell:, bash -eo pipefail for shell: bash, sh -e for shell: sh), so a step expecting a non-zero status must clear -e",
	"dialect":    "state the step's shell on the step itself: shell: bash (or shell: pwsh where PowerShell is meant); an action's run: steps always need shell:",
}

// runShellSeverity is contract, not calibration: at info SC1091 fires on
// every fragment that sources a library.
const runShellSeverity = "warning"

func checkActionRunShell(c *gate.Context) int { return runShell(c, scBatchMax) }

// runShell is the rule with its batch bound: batch 0 lints each block
// alone on ShellCheck's stdin (the reference the batched path is held
// equal to), batch n puts at most n blocks in one ShellCheck run.
func runShell(c *gate.Context, batch int) int {
	scan, err := scanActions(c, yamlExts...)
	if err != nil {
		return c.RefuseErr(err)
	}
	if len(scan.files) == 0 {
		return c.NewReport(nil).Nothing("no YAML file under " + scan.root + ": nothing to lint" + scan.fromIndexNote())
	}
	type fileRuns struct {
		path string
		runs []*workflow.Run
	}
	var subject []fileRuns
	type readFile struct {
		path string
		f    *workflow.File
	}
	var read []readFile
	outside := 0
	var n shapes
	for _, p := range scan.files {
		f, parsed, err := scan.readParsed(c, p)
		if err != nil {
			return c.RefuseErr(err)
		}
		// assertion A: the subject is the Actions-shaped files; the rest
		// are skipped and counted, neither linted nor refused. A file the
		// parser rejects is a finding when GitHub loads it, and skipped
		// and counted otherwise.
		if !parsed {
			n.reject(c, scan, p, unparseable(p, f))
			continue
		}
		if !f.Shape.Actions() {
			outside++
			continue
		}
		read = append(read, readFile{p, f})
	}
	// assertion U: a reusable workflow whose runs-on is one of its inputs
	// runs where the calls of it in this repository (and the input's
	// default) say.
	var all []*workflow.File
	for _, rf := range read {
		all = append(all, rf.f)
	}
	calls := workflow.CallsOf(all)
	for _, rf := range read {
		p, f := rf.path, rf.f
		// assertion B: the extractor's refusals are a finding when GitHub
		// loads the file, a counted skip otherwise; never the gate's stop.
		runs, err := workflow.ExtractCalled(f, calls.InputValues(p, f))
		if err != nil {
			m, err := refusedMemo(p, err)
			if err != nil {
				return c.RefuseErr(err)
			}
			n.reject(c, scan, p, m.found)
			continue
		}
		subject = append(subject, fileRuns{p, runs})
	}
	lint := 0
	for _, fr := range subject {
		for _, r := range fr.runs {
			if r.Skip == "" && r.Res == workflow.Shell && len(r.Lines) > 0 {
				lint++
			}
		}
	}
	// assertion C: the presence probe fires before any lint.
	if lint > 0 && !spawn.OnPath("shellcheck", spawn.LookupEnv(c.Env)) {
		return c.Refuse("shellcheck is not on PATH; install it (it lints %d run: bodies here) or this gate cannot decide", lint)
	}
	// found holds the findings in block order; a linted block's slot is
	// filled from its lint's answer once every batch is back.
	var found []gate.Finding
	type slot struct {
		at   int // index in found the block's findings go before
		path string
		run  *workflow.Run
	}
	var slots []slot
	nBlocks, lines, unread, other, honoured, trailing, alike, psBodies := 0, 0, 0, 0, 0, 0, 0, 0
	for _, fr := range subject {
		for _, run := range fr.runs {
			// assertion H: a single-line value is linted as a block is; a
			// value not read as one line is counted.
			if run.Skip != "" {
				unread++
				continue
			}
			// assertion V: run.Res was resolved on the runner the reader
			// gives the step, an expression's runs-on read by the labels
			// it can yield (workflow.StepRunner).
			switch run.Res {
			case workflow.OtherShell:
				other++
				continue
			case workflow.WindowsRun, workflow.NoDialect:
				// assertion J: one plain command runs alike under pwsh,
				// bash and sh, so its dialect needs no stating; it is
				// counted, not linted (an action's step is still held to
				// GitHub's own rule that it say shell:).
				if !run.Job.Action && plainCommand(run) {
					alike++
					continue
				}
				// assertion J: on a runner that is Windows alone, a body
				// written in PowerShell is written for the pwsh GitHub
				// starts there, so stating it would change nothing.
				if !run.Job.Action && run.Res == workflow.WindowsRun && (powerShellBody(run) || oneCommand(run)) {
					psBodies++
					continue
				}
				// assertion D: a block whose dialect cannot be stated is a
				// finding, not a skip and not a refusal.
				id, about := runSite(run)
				found = append(found, gate.Finding{Class: "dialect", Path: fr.path, Line: run.Line,
					Msg: runNoun(run) + " has no shell: and " + run.Why, Identity: "dialect\x00" + id, About: about})
				continue
			}
			if len(run.Lines) == 0 {
				continue
			}
			// assertion F: a ShellCheck directive on a line of its own is
			// honoured, and counted with the findings it silenced; one
			// trailing a command is read as a plain comment, and counted.
			honoured += len(run.Directives)
			trailing += len(run.Trailing)
			if run.Block {
				nBlocks++
			} else {
				lines++
			}
			slots = append(slots, slot{len(found), fr.path, run})
		}
	}
	// assertion W: a name a file of the tree assigns, which the body
	// sources by a literal path, is set when the lines after the source
	// run: ShellCheck, linting the body alone, cannot follow it.
	rootRel := treePath(c, scan.root)
	sourced := map[string][]string{}
	for _, s := range slots {
		s.run.Sourced = bodySourcedNames(c, workspaceOf(rootRel, s.path), s.run, sourced)
	}
	blocks := make([]scBlock, len(slots), len(slots)+honoured)
	for i, s := range slots {
		blocks[i] = scBlock{path: s.path, run: s.run}
	}
	// Each body with a directive is linted a second time with its
	// directives read as comments; the difference is what they silenced.
	var shadows []int // slot index of each shadow block, in order
	for i, s := range slots {
		if len(s.run.Directives) > 0 {
			blocks = append(blocks, scBlock{path: s.path, run: s.run, plain: true})
			shadows = append(shadows, i)
		}
	}
	// assertion E: ShellCheck at -S warning under the resolved dialect
	// reports nothing.
	// assertion G: in batches, one dialect and many scratch files to a
	// ShellCheck run, the runs over the workers; the findings are the
	// per-block run's (batch 0), byte for byte.
	// assertion I: a body the content cache holds is served, not linted,
	// and placed through the block's own lines.
	// assertion K: mapReports drops SC1083 on git's @{...} revision
	// braces.
	// assertion M: mapReports drops SC2034 on the unread variable of a
	// for loop over literal numbers (a repeat count).
	// assertion N: mapReports leaves out a report on a deliberate idiom
	// (scriptIdioms.intended, check-shellcheck's E to J).
	// assertion O: the reader resolves a step its own if: confines to
	// Windows as pwsh (workflow.StepPinsWindows), so it is not linted.
	// assertion P: the reader reads a runner group with no labels by its
	// name (workflow.RunnerOf).
	// assertion Q: the reader reads a step whose if: admits none of the
	// matrix's combinations as running nowhere (workflow.StepRunner).
	warned, err := lintBlocks(c, blocks, batch)
	if err != nil {
		return c.RefuseErr(err)
	}
	silenced := 0
	for k, i := range shadows {
		silenced += max(0, len(warned[len(slots)+k])-len(warned[i]))
	}
	var ordered []gate.Finding
	next := 0
	for i, s := range slots {
		ordered = append(ordered, found[next:s.at]...)
		next = s.at
		for _, f := range warned[i] {
			f.Path = s.path
			f.Column = f.Col
			ordered = append(ordered, f.Finding)
		}
	}
	found = append(ordered, found[next:]...)
	r := c.NewReport(withUnparseable(runShellHelps))
	for _, f := range n.broken {
		r.Add(f)
	}
	for _, f := range found {
		r.Add(f)
	}
	return r.Done(fmt.Sprintf("%s and %s linted in %s; %s not linted; %s skipped; %s outside the Actions shape%s",
		plural(nBlocks, "run: block", "run: blocks"), plural(lines, "single-line run: value", "single-line run: values"),
		plural(len(subject), "Actions file", "Actions files"),
		plural(unread, "other run: value", "other run: values"),
		plural(other, "non-shell block", "non-shell blocks"),
		plural(outside, "YAML file", "YAML files"), n.unparsed()) + alikeNote(alike) + psNote(psBodies) + directives(honoured, silenced, trailing) + scan.fromIndexNote())
}

// alikeNote renders the count of one-command bodies left unlinted for the
// clean line ("" when there are none).
func alikeNote(n int) string {
	if n == 0 {
		return ""
	}
	return "; " + plural(n, "one-command body every shell runs alike", "one-command bodies every shell runs alike") + " not linted"
}

// psNote counts the PowerShell bodies on a Windows runner left unlinted.
func psNote(n int) string {
	if n == 0 {
		return ""
	}
	return "; " + plural(n, "PowerShell body on a Windows runner", "PowerShell bodies on a Windows runner") + " not linted"
}

// psLine matches a line only PowerShell reads: a line opening with the
// call operator (& .\\script.ps1), a $name = assignment, an
// $env: read, a foreach ( loop, or a Verb-Noun cmdlet of the common verbs.
var psLine = lazyre.New(`^\s*&\s|^\s*\$[A-Za-z_][A-Za-z0-9_]*\s*=|\$env:[A-Za-z_]|^\s*foreach\s*\(|(?:^|[\s(|;])(?:Get|Set|New|Remove|Write|Copy|Move|Test|Invoke|Out|Select|Where|ForEach|Import|Export|Add|Join|Split|Start|Stop|Expand|Compress|Rename|Resolve)-[A-Z][A-Za-z]+\b`)

// oneCommand reports a body of one command on one line (comments aside;
// no ; or & outside quotes, no continued line, no $ but $env: and GitHub
// expressions): on a runner that is Windows
// alone, the pwsh GitHub starts runs it as its author wrote it for that
// runner, and the step's status is that command's, as bash would give it.
func oneCommand(r *workflow.Run) bool {
	n := 0
	for _, l := range r.Lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		n++
		if n > 1 || len(unquoted(t, ";&`")) > 0 || strings.HasSuffix(t, "\\") {
			return false
		}
		// A $ other than $env:NAME reads a variable (or a substitution)
		// the one line never set: bash's $GITHUB_OUTPUT is an unset pwsh
		// variable, so such a line is not taken as written for pwsh.
		for k := strings.IndexByte(t, '$'); k >= 0; k = strings.IndexByte(t, '$') {
			rest := t[k+1:]
			reads := rest != "" && (rest[0] == '{' || rest[0] == '(' || rest[0] == '_' || rest[0] >= 'A' && rest[0] <= 'Z' || rest[0] >= 'a' && rest[0] <= 'z')
			if reads && !strings.HasPrefix(rest, "env:") && !strings.HasPrefix(rest, "{{") {
				return false
			}
			t = rest
		}
	}
	return n == 1
}

// powerShellBody reports a body with a line only PowerShell reads.
func powerShellBody(r *workflow.Run) bool {
	for _, l := range r.Lines {
		if psLine.Get().MatchString(l) {
			return true
		}
	}
	return false
}

// plainWord is a word every shell passes through as it stands: no quote,
// no expansion, no glob, no redirection or operator, nothing PowerShell
// reads as syntax (@ , % ~ { } ; $ and friends). A GitHub expression is
// spliced in before any shell starts, so it stands as a plain value.
// An @ inside a word (a module's version, tool@v1.2.3) is plain too: pwsh
// reads @ as splatting or an array only where a word opens with it.
var plainWord = lazyre.New(`^(?:[A-Za-z0-9_./:=+-]|\$\{GHEXPR\})(?:[A-Za-z0-9_./:=+@-]|\$\{GHEXPR\})*$`)

// psAliases are the command names PowerShell maps to its own cmdlets, so
// the same line does something else under pwsh than under bash.
var psAliases = map[string]bool{}

func init() {
	for _, a := range strings.Fields(`ac cat cd chdir clc clear clhy cli clp cls clv cnsn compare copy cp cpi cpp curl cvpa dbp del diff dir dnsn ebp echo epal epcsv erase etsn exsn fc fhx fl foreach ft fw gal gbp gc gcb gci gcm gcs gdr ghy gi gjb gl gm gmo gp gps gpv group gsn gsv gu gv h history icm iex ihy ii ipal ipcsv ipmo irm ise iwmi iwr kill lp ls man md measure mi mount move mp mv nal ndr ni nmo npssc nsn nv ogv oh popd ps pushd pwd r rbp rcjb rcsn rd rdr ren ri rjb rm rmdir rmo rni rnp rp rsn rv rvpa rwmi sajb sal saps sasv sbp sc scb select set shcm si sl sleep sls sort sp spjb spps spsv start stz sujb sv swmi tee trcm type wget where wjb write`) {
		psAliases[a] = true
	}
}

// plainQuoted is a word that is, or ends in, one quoted stretch every
// shell and every pwsh release hands a program as the same argument: a
// non-empty run of letters, digits, blanks and _ . / : = + @ , { } # -
// inside single or double quotes. Nothing there expands in bash or pwsh;
// no quote, backslash or backtick inside means no escaping rule of either
// shell (or of pwsh's older native-argument passing, which drops an empty
// argument) can differ; and none of cmd's % ^ & | < > reaches a batch
// file's command line. A prefix before the quote is plain characters as
// in plainWord (-ldflags="-s -w"); a word opening with a quote is that
// one stretch alone, since pwsh ends a string token at its closing quote.
var plainQuoted = lazyre.New(`^(?:(?:[A-Za-z0-9_./:=+-]|\$\{GHEXPR\})(?:[A-Za-z0-9_./:=+@-]|\$\{GHEXPR\})*)?(?:'[A-Za-z0-9 _./:=+@,{}#-]+'|"[A-Za-z0-9 _./:=+@,{}#-]+")$`)

// plainWords splits a line into words at blanks outside quotes; ok is
// false when a quote does not close on the line.
func plainWords(line string) (words []string, ok bool) {
	var cur strings.Builder
	in := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case in != 0:
			if c == in {
				in = 0
			}
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			in = c
			cur.WriteByte(c)
		case c == ' ' || c == '\t':
			if cur.Len() > 0 {
				words = append(words, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteByte(c)
		}
	}
	if in != 0 {
		return nil, false
	}
	if cur.Len() > 0 {
		words = append(words, cur.String())
	}
	return words, true
}

// plainCommand reports a body that is one plain command: a single
// non-blank line that is no full-line comment (every shell skips those
// alike, so they may stand around it), its words all plain, its command word no
// PowerShell alias, no shell keyword and no expression (whose value could
// be any command). pwsh, bash and sh all run such a
// line as the same program with the same arguments. Two commands are not
// plain: bash -e stops at the first failure, pwsh runs on; two chained by
// && on one line are (see plainSegment).
//
// assertion S: the reader passes over an exclude: entry of the matrix
// that holds an expression (workflow.StepRunner keeps every combination
// it might drop), so the rest of the matrix is still read.
// assertion T: the reader reads runs-on: ${{ vars.NAME || 'label' }} by
// its literal label (workflow.RunnerOf).
func plainCommand(r *workflow.Run) bool {
	var line string
	echoes := 0
	for _, l := range r.Lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		// assertion R: an echo of literal words succeeds in every shell,
		// so it neither counts as a command nor stops the body.
		if echoLiteral(t) {
			echoes++
			continue
		}
		if line != "" {
			return false
		}
		line = l
	}
	if line == "" {
		return echoes > 0
	}
	words, ok := plainWords(line)
	if !ok || len(words) == 0 {
		return false
	}
	// assertion J: plain commands chained by && form one plain line; pwsh 7
	// (the Windows runner's default shell) runs the right side only when the
	// left succeeded, as bash does, and the step's status is the last run's.
	start := 0
	for i := 0; i <= len(words); i++ {
		if i < len(words) && words[i] != "&&" {
			continue
		}
		if !plainSegment(words[start:i]) {
			return false
		}
		start = i + 1
	}
	return true
}

// echoLiteral reports a line that is echo and plain or plainly quoted
// words, none an option: bash's builtin and pwsh's Write-Output both print
// it and succeed (pwsh puts each word on its own line; the outcome is the
// same), so it cannot fail the step in either shell.
func echoLiteral(line string) bool {
	words, ok := plainWords(line)
	if !ok || len(words) == 0 || words[0] != "echo" {
		return false
	}
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "-") || strings.Contains(w, workflow.Expr) ||
			(!plainWord.Get().MatchString(w) && !plainQuoted.Get().MatchString(w) && !echoQuoted.Get().MatchString(w) && !echoSubstituted(w)) {
			return false
		}
	}
	return true
}

// echoSubstituted reports a double-quoted word whose text is literal but
// for substitutions of one plain command each ("Node: $(node -v)"): bash
// runs the command and splices its output, and so does pwsh's $(...)
// inside a double-quoted string. A command that fails still lets the echo
// succeed in both; one that is not found at all fails pwsh's step and not
// bash's, the one difference left (SPEC check-action-run-shell R).
func echoSubstituted(w string) bool {
	if len(w) < 2 || w[0] != '"' || w[len(w)-1] != '"' {
		return false
	}
	text := w[1 : len(w)-1]
	subs := 0
	for {
		i := strings.Index(text, "$(")
		if i < 0 {
			break
		}
		j := strings.IndexByte(text[i:], ')')
		if j < 0 {
			return false
		}
		inner := text[i+2 : i+j]
		words, ok := plainWords(inner)
		if !ok || strings.ContainsAny(inner, "\"'($`\\|;&<>") || !plainSegment(words) {
			return false
		}
		text = text[:i] + text[i+j+1:]
		subs++
	}
	return subs > 0 && !strings.ContainsAny(text, "$`\\\"")
}

// echoQuoted is one quoted stretch both shells print as written: double
// quotes around text with no $, backtick, backslash or " (nothing either
// shell expands or escapes there), or single quotes around text with no
// '. Wider than plainQuoted because echo is no native program in pwsh
// (Write-Output), so no argument passing rewrites the quotes inside.
var echoQuoted = lazyre.New("^(?:\"[^\"$`\\\\]*\"|'[^']*')$")

// plainSegment reports one simple command of plain words: its command
// word unquoted, no alias, keyword or expression; or cd into one plain
// relative path, which pwsh's Set-Location does alike (and fails alike).
func plainSegment(words []string) bool {
	if len(words) == 0 {
		return false
	}
	cmd := words[0]
	if cmd == "cd" {
		return len(words) == 2 && plainWord.Get().MatchString(words[1]) &&
			!strings.HasPrefix(words[1], "-") && !strings.Contains(words[1], workflow.Expr)
	}
	if !plainWord.Get().MatchString(cmd) || psAliases[strings.ToLower(cmd)] || cmdKeyword[cmd] ||
		strings.Contains(cmd, "=") || strings.Contains(cmd, workflow.Expr) {
		return false
	}
	for _, w := range words[1:] {
		if !plainWord.Get().MatchString(w) && !plainQuoted.Get().MatchString(w) {
			return false
		}
	}
	return true
}

// cmdKeyword are shell words that open a construct, never a program.
var cmdKeyword = map[string]bool{"if": true, "for": true, "while": true, "until": true, "case": true, "function": true, "exec": true, "export": true, "source": true, ".": true}

// directives renders, for the clean line, the ShellCheck directives
// honoured and the findings they silenced, and the trailing ones read as
// comments ("" when there are none).
func directives(honoured, silenced, trailing int) string {
	out := ""
	if honoured > 0 {
		out += "; " + plural(honoured, "ShellCheck directive", "ShellCheck directives") + " honoured, silencing " + plural(silenced, "finding", "findings")
	}
	if trailing > 0 {
		out += "; " + plural(trailing, "trailing ShellCheck directive read as a plain comment", "trailing ShellCheck directives read as plain comments") + " (ShellCheck takes one only on a line of its own)"
	}
	return out
}

// runNoun names a run: body in a finding: a literal block, or a
// single-line value.
func runNoun(r *workflow.Run) string {
	if r.Block {
		return "run: block"
	}
	return "run: value"
}

// runLabel names the shell a body was linted under: the dialect and the
// options the runner starts it with.
func runLabel(r *workflow.Run) string {
	if r.Flags == "" {
		return r.Dialect
	}
	return r.Dialect + " " + r.Flags
}

// runSite answers what a run: body's findings are about: its job's id and
// the step's workflow.StepKey (so neither a moved line nor another step
// changes it), and a note naming the job and the step's place.
//
// assertion L: a body's finding is fingerprinted by its step (and a
// ShellCheck report by its code), never by its line or wording.
func runSite(r *workflow.Run) (identity, about string) {
	if r.Job == nil || r.Step == nil {
		return fmt.Sprintf("line-free run#%d", r.Line), "a run: body"
	}
	where := "job " + r.Job.ID
	if r.Job.Action {
		where = "the action's runs:"
	}
	return "job=" + r.Job.ID + "\x00step=" + workflow.StepKey(r.Job, r.Step),
		fmt.Sprintf("%s, step %d", where, workflow.StepNumber(r.Step))
}
