package workflow

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gate-sdk/gates/internal/lazyre"
)

// Runner is a job's runs-on class.
type Runner int

// The three runs-on classes.
const (
	NonWindows Runner = iota
	Windows
	Unreadable
)

// RunnerOf classifies a job's runs-on by its labels; why says what made it
// unreadable.
func RunnerOf(j *Job) (r Runner, why string) { return runnerOfIn(j, nil) }

// runnerOfIn is RunnerOf where a runs-on naming one workflow_call input is
// read from the values its callers give it (inputs; nil for none known).
func runnerOfIn(j *Job, inputs map[string][]string) (r Runner, why string) {
	if j == nil || j.RunsOn == nil || j.RunsOn.Value == nil {
		return Unreadable, "the job has no runs-on:"
	}
	expr := false
	Scalars(j.RunsOn.Value, func(n *yaml.Node) {
		expr = expr || strings.Contains(n.Value, "${{")
	})
	if expr {
		if r, why, ok := inputRunner(j, inputs); ok {
			return r, why
		}
		if l, ok := varsFallback(j.RunsOn.Value); ok {
			// A repository variable with a literal fallback: the label is
			// the runner the workflow was written for, the variable a
			// same-system override (a larger or self-hosted machine).
			return classOf([]string{l}), ""
		}
		if r, ok := varsNamedSystem(j.RunsOn.Value); ok {
			return r, ""
		}
		// assertion V: an expression whose every possible label is known
		// (literals chosen by && and ||) is read by those labels.
		if n := resolve(j.RunsOn.Value); n != nil && n.Kind == yaml.ScalarNode {
			if r, ok := exprRunner(n.Value, ifEnv{}); ok {
				return r, ""
			}
		}
		return Unreadable, exprRunsOn
	}
	labels := runnerLabels(j.RunsOn.Value, 0)
	if len(labels) == 0 {
		// A runner group alone: its machines' system is named nowhere but
		// in the group's own name, which says Windows when they run it.
		if g := groupName(j.RunsOn.Value); g != "" {
			if strings.Contains(strings.ToLower(g), "windows") {
				return Windows, ""
			}
			return NonWindows, ""
		}
		return Unreadable, "runs-on: names no runner label"
	}
	return classOf(labels), ""
}

// windowsLabel reports a runner label naming a Windows machine
// (windows, windows-2022, windows-latest, any case).
func windowsLabel(l string) bool {
	l = strings.ToLower(strings.TrimSpace(l))
	return l == "windows" || strings.HasPrefix(l, "windows-")
}

// classOf answers the class of a runner whose labels are labels: Windows
// when one of them names it.
func classOf(labels []string) Runner {
	for _, l := range labels {
		if windowsLabel(l) {
			return Windows
		}
	}
	return NonWindows
}

// varsFallback reads a runs-on that is one expression of repository
// variables ending in a quoted literal, ${{ vars.A || 'label' }}, and
// answers the literal; ok is false for any other shape.
func varsFallback(n *yaml.Node) (string, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false
	}
	v := strings.TrimSpace(n.Value)
	if !strings.HasPrefix(v, "${{") || !strings.HasSuffix(v, "}}") {
		return "", false
	}
	parts := strings.Split(v[3:len(v)-2], "||")
	if len(parts) < 2 {
		return "", false
	}
	for _, p := range parts[:len(parts)-1] {
		if !varsName.Get().MatchString(strings.TrimSpace(p)) {
			return "", false
		}
	}
	last := strings.TrimSpace(parts[len(parts)-1])
	if len(last) < 3 || last[0] != '\'' || last[len(last)-1] != '\'' || strings.ContainsAny(last[1:len(last)-1], "'${}") {
		return "", false
	}
	return last[1 : len(last)-1], true
}

// varsNamedSystem reads a runs-on that is one repository variable,
// ${{ vars.UBUNTU_2404_AMD64 }}, whose name names the runner's system, as
// a runner group is read by its name; ok is false for any other shape.
func varsNamedSystem(n *yaml.Node) (Runner, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return Unreadable, false
	}
	return namedSystem(n.Value)
}

// namedSystem reads v, one ${{ vars.NAME }} expression: Windows when the
// name says so, not Windows when it names a Linux distribution or macOS;
// ok is false for a name that names neither, or both, and for any other
// value.
func namedSystem(v string) (Runner, bool) {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "${{") || !strings.HasSuffix(v, "}}") {
		return Unreadable, false
	}
	ref := strings.TrimSpace(v[3 : len(v)-2])
	if !varsName.Get().MatchString(ref) {
		return Unreadable, false
	}
	words := strings.FieldsFunc(strings.ToLower(ref[len("vars."):]), func(r rune) bool { return r == '_' })
	win, other := false, false
	for _, w := range words {
		switch {
		case w == "win" || strings.HasPrefix(w, "windows"):
			win = true
		case w == "linux" || w == "debian" || w == "fedora" || w == "centos" || w == "rhel" || w == "alpine" || w == "macos" || w == "darwin" || strings.HasPrefix(w, "ubuntu"):
			other = true
		}
	}
	return oneClass(win, other)
}

// oneClass answers the runner class when the evidence names exactly one:
// Windows alone, or other systems alone; ok is false for both or none.
func oneClass(win, other bool) (Runner, bool) {
	switch {
	case win && !other:
		return Windows, true
	case other && !win:
		return NonWindows, true
	}
	return Unreadable, false
}

// varsName is one repository (or organisation) variable reference.
var varsName = lazyre.New(`^vars\.[A-Za-z_][A-Za-z0-9_]*$`)

// groupName answers the runner group a runs-on mapping names ("" when it
// names none or is not a mapping).
func groupName(n *yaml.Node) string {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return ""
	}
	v, ok := scalar(Child(n, "group"))
	if !ok {
		return ""
	}
	return strings.TrimSpace(v)
}

func runnerLabels(n *yaml.Node, depth int) []string {
	n = resolve(n)
	if n == nil || depth > 4 {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" || strings.TrimSpace(n.Value) == "" {
			return nil
		}
		return []string{strings.TrimSpace(n.Value)}
	case yaml.SequenceNode:
		var out []string
		for _, it := range items(n) {
			if it.Kind == yaml.ScalarNode && it.Tag != "!!null" {
				out = append(out, strings.TrimSpace(it.Value))
			}
		}
		return out
	case yaml.MappingNode:
		if l := Child(n, "labels"); l != nil {
			return runnerLabels(l.Value, depth+1)
		}
	}
	return nil
}

// Res is how a run: body's dialect resolved.
type Res int

// The resolutions of the dialect table.
const (
	Shell      Res = iota // a shell ShellCheck knows: Run.Dialect names it
	OtherShell            // pwsh, python, a custom template: not shell
	WindowsRun            // no shell on a Windows runner
	NoDialect             // no shell and the runner unreadable, or no job at all
)

// Run is one run: value as the extractor reads it.
type Run struct {
	Job   *Job
	Step  *Step
	Line  int  // line of the run: key
	Block bool // a literal block scalar
	First int  // file line of Lines[0]
	// Lines is the body: a block's lines cut from the source and dedented
	// by the block's indentation, a single-line value as the parser decoded
	// it; GitHub expressions replaced by ${GHEXPR} (in a single-line value
	// only where they balance).
	Lines []string
	// Indent is the block's indentation: the byte column (0-based) of each
	// body line's first byte in the file. Subst records, per body line, the
	// expressions replaced, so a column on Lines maps back to the file.
	Indent int
	Subst  [][]Span
	Skip   string // a single-line value not read, and why

	Res     Res
	Dialect string // bash, sh, dash or ksh when Res is Shell
	// Flags are the shell options the runner starts the body under, as a
	// set command's operands ("-e", "-eo pipefail"; "" for none): a step
	// with no shell: runs as bash -e, shell: bash as bash --noprofile
	// --norc -eo pipefail, shell: sh as sh -e, and a template (bash -x
	// {0}) with the options it writes.
	Flags string
	Why   string // what left the dialect unstated
	// NoCol is set on a single-line value whose source bytes are not its
	// decoded text (a quoted value's escapes): a column on it cannot be
	// placed in the file.
	NoCol bool

	// segs places each body line's bytes in the file when a line is not
	// simply the file line First+i cut at Indent (a folded block joins
	// source lines; a multi-line expression joins body lines); home is
	// each body line's file line when segs place none of it. Both nil for
	// a single-line value.
	segs [][]seg
	home []int

	WorkDir    string // the working directory in force (step, job or workflow defaults)
	HasWorkDir bool
	// Sourced lists the names assigned in files of the tree the body
	// sources; the reader never sets it, a caller that can read the tree
	// does, and the linter reads them as set when the body starts.
	Sourced []string
	// Directives lists the body lines (file line numbers) that are a
	// ShellCheck directive comment on a line of their own, kept as
	// written so ShellCheck honours them.
	Directives []int
	// Trailing lists the body lines whose directive trails a command:
	// ShellCheck refuses those (SC1126), so they are neutralised.
	Trailing []int
}

// Span is one replaced expression on a body line: At is its byte offset on
// the replaced line, Len its length in the file; Expr stands in its place.
type Span struct{ At, Len int }

// Body answers a block's lines joined with newlines, as ShellCheck reads it.
func (r *Run) Body() string { return strings.Join(r.Lines, "\n") + "\n" }

// Script answers what ShellCheck lints for the body, and how many lines
// stand before the body's first: a set line with the options the runner
// starts the shell under, when it starts it under any (the way actionlint
// models them), then the body, its first line read as a comment when it
// is a #! line (the runner's command line, not the body's, picks the
// shell, and past line 1 ShellCheck would object to it).
func (r *Run) Script() (string, int) {
	lines := r.Lines
	if len(lines) > 0 && strings.HasPrefix(lines[0], "#!") {
		lines = append([]string{"# " + lines[0][2:]}, lines[1:]...)
	}
	body := strings.Join(lines, "\n") + "\n"
	if r.Flags == "" {
		return body, 0
	}
	return "set " + r.Flags + "\n" + body, 1
}

// FileCol maps a 1-based character column on body line i (0-based) back to
// the 1-based byte column of the file line it was cut from (FileLine
// answers which line that is).
func (r *Run) FileCol(i, col int) int {
	if i < 0 || i >= len(r.Lines) {
		return col
	}
	orig := r.origOff(i, col)
	if i < len(r.segs) && len(r.segs[i]) > 0 {
		_, c := place(r.segs[i], orig)
		return c + 1
	}
	return r.Indent + orig + 1
}

// FileLine answers the file line that the 1-based character column col of
// body line i (0-based) was cut from; col 0 asks for the line's start. A
// literal block's line i is file line First+i; a folded block's line may
// join several file lines, and one joined by a multi-line expression
// holds later lines' bytes.
func (r *Run) FileLine(i, col int) int {
	if i < 0 || i >= len(r.home) {
		return r.First + i
	}
	if i < len(r.segs) && len(r.segs[i]) > 0 {
		if col < 1 {
			col = 1
		}
		l, _ := place(r.segs[i], r.origOff(i, col))
		return l
	}
	return r.home[i]
}

// origOff answers the byte offset on body line i, before its expressions
// were replaced, of the 1-based character column col on the line as
// replaced.
func (r *Run) origOff(i, col int) int {
	off := byteCol(r.Lines[i], col)
	orig := off
	if i < len(r.Subst) {
		for _, s := range r.Subst[i] {
			if off >= s.At+len(Expr) {
				orig += s.Len - len(Expr)
			} else if off >= s.At {
				orig = orig - (off - s.At)
			}
		}
	}
	return orig
}

const defaultsRun = "defaults.run"

// Extract answers every run: value of an Actions-shaped file, in file
// order, or the first construct it refuses: a file the parser rejected
// that looks like a workflow or an action, a ${{ in a block that never
// closes (GitHub refuses the workflow too), and a defaults.run.shell that
// is not a string. Literal and folded blocks with any chomping and
// indentation indicator, anchored and aliased values, and expressions
// spanning body lines are read as GitHub reads them.
func Extract(f *File) ([]*Run, error) { return ExtractCalled(f, nil) }

// ExtractCalled is Extract for a reusable workflow whose callers in this
// repository are known: inputs are the values each workflow_call input
// takes from them (Calls.InputValues), read where runs-on is one input.
func ExtractCalled(f *File, inputs map[string][]string) ([]*Run, error) {
	if f.Rejected != nil {
		if f.Suspect {
			return nil, f.Rejected
		}
		return nil, nil
	}
	if !f.Shape.Actions() {
		return nil, nil
	}
	var jobs []*Job
	if f.Shape.Workflow() {
		jobs = f.Jobs
	} else if f.Action != nil {
		jobs = []*Job{f.Action}
	}
	top, err := readDefaults(f, f.Defaults)
	if err != nil {
		return nil, err
	}
	top.inputs = inputs
	var out []*Run
	for _, j := range jobs {
		own, err := readDefaults(f, j.Defaults)
		if err != nil {
			return nil, err
		}
		d := own.over(top)
		for _, s := range j.Steps {
			if s.Run == nil {
				continue
			}
			r, err := extractRun(f, j, s, d)
			if err != nil {
				return nil, err
			}
			if r != nil {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// runDefaults is a defaults: block's run: half.
type runDefaults struct {
	shell, workDir       string
	hasShell, hasWorkDir bool
	// inputs are the values the file's callers give its workflow_call
	// inputs (ExtractCalled), nil when unknown.
	inputs map[string][]string
}

// over answers d with what it leaves unset taken from outer.
func (d runDefaults) over(outer runDefaults) runDefaults {
	d.inputs = outer.inputs
	if !d.hasShell {
		d.shell, d.hasShell = outer.shell, outer.hasShell
	}
	if !d.hasWorkDir {
		d.workDir, d.hasWorkDir = outer.workDir, outer.hasWorkDir
	}
	return d
}

// readDefaults reads a defaults: entry's run.shell and
// run.working-directory. A shell that is not a literal (an expression, a
// collection) is refused: every step's dialect would hang on it.
func readDefaults(f *File, e *Entry) (runDefaults, error) {
	var d runDefaults
	if e == nil {
		return d, nil
	}
	run := Child(e.Value, "run")
	if run == nil {
		return d, nil
	}
	if sh := Child(run.Value, "shell"); sh != nil {
		v, ok := scalar(sh)
		if !ok {
			return d, &Refusal{f.Path, sh.Line, "a " + defaultsRun + ".shell that is not a string"}
		}
		// An expression is kept as written: the dialect table reads it as
		// a shell it cannot name (resolveDialect).
		d.shell, d.hasShell = v, true
	}
	if wd := Child(run.Value, "working-directory"); wd != nil {
		v, _ := scalar(wd)
		d.workDir, d.hasWorkDir = v, true
	}
	return d, nil
}

func extractRun(f *File, j *Job, s *Step, d runDefaults) (*Run, error) {
	e := s.Run
	r := &Run{Job: j, Step: s, Line: e.Line}
	r.Res, r.Dialect, r.Flags, r.Why = resolveDialect(j, s, d)
	if s.WorkDir != nil {
		r.WorkDir, _ = scalar(s.WorkDir)
		r.HasWorkDir = true
	} else if d.hasWorkDir {
		r.WorkDir, r.HasWorkDir = d.workDir, true
	}
	// An anchored value reads as written; an alias as the value it names,
	// placed where that was written.
	n := e.Value
	if n == nil || n.Kind != yaml.ScalarNode {
		r.Skip = "a run: value that is not a string"
		return r, nil
	}
	floor := f.floorOf(e)
	switch {
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return r, readBlock(f, r, n, floor)
	case n.Tag == "!!null":
		return nil, nil
	case n.Style&yaml.TaggedStyle != 0:
		r.Skip = "a tagged value"
		return r, nil
	}
	if f.scalarEnd(n, floor) > n.Line || strings.Contains(n.Value, "\n") {
		// What GitHub runs is the decoded value; its source (folded or
		// escaped) is not its text, so its lines sit on the value's line.
		if strings.Trim(n.Value, "\n") == "" {
			return nil, nil
		}
		return r, readValueLines(f, r, n, n.Line)
	}
	readLine(f, r, n)
	return r, nil
}

// readLine reads a single-line value: its decoded text, directives
// neutralised and balanced expressions replaced, placed at the value's
// first byte in the file (past an opening quote) when the source between
// the quotes is the text itself.
func readLine(f *File, r *Run, n *yaml.Node) {
	text := f.Text(n.Line)
	at := valueStart(text, n)
	src := text[at:]
	switch {
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		at++
		r.NoCol = !strings.HasPrefix(text[min(at, len(text)):], n.Value)
	default:
		r.NoCol = !strings.HasPrefix(src, n.Value)
	}
	line, directive := directiveLine(n.Value)
	switch {
	case directive && line == n.Value:
		r.Directives = append(r.Directives, n.Line)
	case directive:
		r.Trailing = append(r.Trailing, n.Line)
	}
	out, spans, ok := subst(line)
	if !ok {
		out, spans = line, nil
	}
	r.First, r.Indent, r.Lines, r.Subst = n.Line, at, []string{out}, [][]Span{spans}
}

// header answers a block scalar's header as written: '|' or '>' and its
// indicators, up to white space.
func header(f *File, n *yaml.Node) string {
	text := f.Text(n.Line)
	h := text[valueStart(text, n):]
	if k := strings.IndexAny(h, " \t"); k >= 0 {
		h = h[:k]
	}
	return h
}

// valueStart answers the byte offset on text (the node's line) of the
// node's value, past the anchor the parser places the node's column on.
func valueStart(text string, n *yaml.Node) int {
	at := byteCol(text, n.Column)
	if n.Anchor != "" && strings.HasPrefix(text[at:], "&"+n.Anchor) {
		at += 1 + len(n.Anchor)
		for at < len(text) && (text[at] == ' ' || text[at] == '\t') {
			at++
		}
	}
	return at
}

// readBlock reads a block scalar's body (literal or folded, any chomping
// and indentation indicator) as the value GitHub runs: the parser's value,
// line by line, each line placed in the file through the source lines it
// was rebuilt from. An expression that opens on one body line and closes
// on a later one is joined onto its first line (the lines it spanned stay,
// empty, so the body keeps its line count). A value the rebuild cannot
// place (a construct it does not model) is read with every line placed
// on the run: key.
func readBlock(f *File, r *Run, n *yaml.Node, floor int) error {
	r.Block = true
	if strings.Trim(n.Value, "\n") == "" {
		return nil
	}
	d, ok := f.decodeBlock(n, floor)
	if !ok {
		return readValueLines(f, r, n, r.Line)
	}
	r.home = make([]int, len(d.lines))
	prev := n.Line // the header's line; an empty body line sits one below the line before it
	for i := range d.lines {
		if len(d.segs[i]) > 0 {
			prev = d.segs[i][0].Line
		} else {
			prev++
		}
		r.home[i] = prev
	}
	return r.fill(f, d)
}

// directive records a body line's ShellCheck directive, at file line at:
// one on a line of its own is kept as written (ShellCheck honours it),
// one that trails a command is neutralised (ShellCheck refuses it there,
// SC1126). It answers the line as ShellCheck is to read it.
func (r *Run) directive(line string, at int) string {
	kept, found := directiveLine(line)
	switch {
	case found && kept == line:
		r.Directives = append(r.Directives, at)
	case found:
		r.Trailing = append(r.Trailing, at)
	}
	return kept
}

// readValueLines reads a value as the parser decoded it, line by line,
// every line placed on file line at with no column: a quoted or plain
// value that spans source lines (folded, escaped) or decodes to several
// lines, or a block the rebuild could not place.
func readValueLines(f *File, r *Run, n *yaml.Node, at int) error {
	d := decoded{lines: strings.Split(strings.TrimRight(n.Value, "\n"), "\n")}
	d.segs = make([][]seg, len(d.lines))
	r.NoCol = true
	r.home = make([]int, len(d.lines))
	for i := range r.home {
		r.home[i] = at
	}
	return r.fill(f, d)
}

// fill sets a run's body from decoded lines whose homes are set: each
// line's directives neutralised and its expressions replaced, an
// expression that spans lines joined onto its first (the lines it spanned
// stay, empty).
func (r *Run) fill(f *File, d decoded) error {
	r.Indent = d.indent
	r.First = r.home[0]
	r.segs = make([][]seg, len(d.lines))
	r.Lines = make([]string, len(d.lines))
	r.Subst = make([][]Span, len(d.lines))
	for i := 0; i < len(d.lines); i++ {
		text := r.directive(d.lines[i], r.home[i])
		segs := append([]seg(nil), d.segs[i]...)
		out, spans, balanced := subst(text)
		j := i
		for !balanced && j+1 < len(d.lines) {
			j++
			next := r.directive(d.lines[j], r.home[j])
			for _, sg := range d.segs[j] {
				segs = append(segs, seg{At: sg.At + len(text) + 1, Line: sg.Line, Col: sg.Col})
			}
			text += "\n" + next
			out, spans, balanced = subst(text)
		}
		if !balanced {
			what := "value"
			if r.Block {
				what = "block"
			}
			return &Refusal{f.Path, r.home[i], "an unbalanced ${{ on a run: " + what + " line (it never closes)"}
		}
		r.Lines[i], r.Subst[i], r.segs[i] = out, spans, segs
		i = j
	}
	return nil
}

// directiveLine reads a body line's ShellCheck directives: a comment line
// of its own that opens with one is kept as written (ShellCheck honours
// it); a directive trailing a command is neutralised, since ShellCheck
// refuses a directive there (SC1126) and would stop parsing. ok reports
// whether the line carried one.
func directiveLine(line string) (string, bool) {
	out, ok := neutralise(line)
	if ok && strings.HasPrefix(strings.TrimLeft(line, " \t"), "#") {
		return line, true
	}
	return out, ok
}

// Neutralise rewrites a body line's ShellCheck directives into plain
// comments, as neutralise does: what the line says with them read as
// prose, to count what they silence.
func Neutralise(line string) string {
	out, _ := neutralise(line)
	return out
}

// neutralise rewrites every ShellCheck directive comment on a body line
// ("# shellcheck disable=...", any letter case, trailing or whole-line) so
// ShellCheck reads it as a plain comment. The word keeps its length, so
// columns hold.
// ok reports whether the line carried one.
func neutralise(line string) (string, bool) {
	found := false
	from := 0
	for {
		i := strings.IndexByte(line[from:], '#')
		if i < 0 {
			return line, found
		}
		i += from
		from = i + 1
		if i > 0 && line[i-1] != ' ' && line[i-1] != '\t' {
			continue
		}
		k := i + 1
		for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
			k++
		}
		const word = "shellcheck"
		if len(line)-k >= len(word) && strings.EqualFold(line[k:k+len(word)], word) &&
			(len(line) == k+len(word) || line[k+len(word)] == ' ' || line[k+len(word)] == '\t') {
			line = line[:k] + "shellchecq" + line[k+len(word):]
			found = true
		}
	}
}

// Expr is what a GitHub expression becomes in a body: a braced parameter
// expansion, which ShellCheck reads as an opaque runtime value.
const Expr = "${GHEXPR}"

// subst replaces every ${{ ... }} on a line; ok is false when one never
// closes. spans records each replacement for column mapping.
func subst(s string) (string, []Span, bool) {
	if !strings.Contains(s, "${{") {
		return s, nil, true
	}
	var b strings.Builder
	var spans []Span
	for {
		i := strings.Index(s, "${{")
		if i < 0 {
			b.WriteString(s)
			return b.String(), spans, true
		}
		k := strings.Index(s[i+3:], "}}")
		if k < 0 {
			return "", nil, false
		}
		b.WriteString(s[:i])
		spans = append(spans, Span{At: b.Len(), Len: 3 + k + 2})
		b.WriteString(Expr)
		s = s[i+3+k+2:]
	}
}

// resolveDialect applies the dialect table: the step's shell: first, then
// the job's and the workflow's defaults.run.shell, then the job's runner.
// It answers the resolution, the dialect, the runner's shell options and
// what left the dialect unstated.
func resolveDialect(j *Job, s *Step, d runDefaults) (Res, string, string, string) {
	v, has := "", false
	if s.Shell != nil {
		v, has = scalar(s.Shell)
		v = strings.TrimSpace(v)
		has = has && v != ""
	}
	if !has && d.hasShell {
		v, has = strings.TrimSpace(d.shell), strings.TrimSpace(d.shell) != ""
	}
	if has && strings.Contains(v, "${{") {
		// An expression names its shell only when the workflow runs: the
		// body is not linted under a guess, and why says so.
		return OtherShell, "", "", "shell: is a GitHub expression"
	}
	if has {
		words := strings.Fields(v)
		switch w := words[0]; w {
		case "bash", "sh", "dash", "ksh":
			return Shell, w, shellFlags(words), ""
		}
		return OtherShell, "", "", ""
	}
	if j.Action {
		return NoDialect, "", "", "the step has no enclosing job (an action's steps must say shell:)"
	}
	switch r, why := stepRunnerIn(j, s, d.inputs); r {
	case Windows:
		if stepPinsWindowsIn(j, s, d.inputs) {
			// The step's own if: sends it to Windows alone: written for
			// the runner's default shell, pwsh, as if it said so.
			return OtherShell, "", "", ""
		}
		return WindowsRun, "", "", "the job runs on Windows, where the default shell is pwsh"
	case Unreadable:
		return NoDialect, "", "", why
	}
	// A step with no shell: on a Linux or macOS runner runs as bash -e {0}.
	return Shell, "bash", "-e", ""
}

// shellFlags answers the set operands a shell: value starts its body
// under. The two built-in names carry the runner's own options (bash:
// -eo pipefail; sh: -e); a template carries what it writes: its
// single-dash option letters that set(1) takes (e, u, x) and each -o
// name, up to the {0} the script path stands in for. Any other bare name
// runs with none.
func shellFlags(words []string) string {
	if len(words) == 1 {
		switch words[0] {
		case "bash":
			return "-eo pipefail"
		case "sh":
			return "-e"
		}
		return ""
	}
	letters := ""
	var opts []string
	for i := 1; i < len(words); i++ {
		w := words[i]
		if w == "{0}" || strings.HasPrefix(w, "--") || !strings.HasPrefix(w, "-") {
			if w == "{0}" {
				break
			}
			continue
		}
		for _, c := range w[1:] {
			switch {
			case c == 'o' && i+1 < len(words) && words[i+1] != "{0}":
				i++
				opts = append(opts, words[i])
			case strings.ContainsRune("eux", c) && !strings.ContainsRune(letters, c):
				letters += string(c)
			}
		}
	}
	var b strings.Builder
	for i, o := range opts {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if i == 0 && letters != "" {
			b.WriteString("-" + letters + "o " + o)
			letters = ""
			continue
		}
		b.WriteString("-o " + o)
	}
	if letters != "" {
		return "-" + letters
	}
	return b.String()
}
