package workflow

import (
	"fmt"
	"strings"
)

// Refusal is a construct the reader will not guess at. The gates report it
// as exit 2.
type Refusal struct {
	Path      string
	Line      int
	Construct string
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("%s:%d: cannot read %s", r.Path, r.Line, r.Construct)
}

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
func RunnerOf(j *Job) (r Runner, why string) {
	if j == nil || j.RunsOn == nil {
		return Unreadable, "the job has no runs-on:"
	}
	n := j.RunsOn
	if strings.Contains(nodeText(j, n), "${{") {
		return Unreadable, "runs-on: is a GitHub expression"
	}
	labels := runnerLabels(j, n)
	if len(labels) == 0 {
		return Unreadable, "runs-on: names no runner label"
	}
	for _, l := range labels {
		l = strings.ToLower(l)
		if l == "windows" || strings.HasPrefix(l, "windows-") {
			return Windows, ""
		}
	}
	return NonWindows, ""
}

// nodeText answers the lines of n's extent as written.
func nodeText(j *Job, n *Node) string {
	if j == nil || j.file == nil {
		return n.Raw
	}
	var b strings.Builder
	for l := n.Line; l <= n.End; l++ {
		b.WriteString(j.file.Text(l))
		b.WriteByte('\n')
	}
	return b.String()
}

// joined answers a one-line value continued over absorbed lines as one
// string.
func joined(j *Job, n *Node) string {
	parts := []string{n.Value}
	for _, l := range n.Cont {
		if j != nil && j.file != nil {
			parts = append(parts, stripComment(j.file.Text(l)))
		}
	}
	return strings.Join(parts, " ")
}

func runnerLabels(j *Job, n *Node) []string {
	if n.Value != "" {
		return valueLabels(joined(j, n))
	}
	var out []string
	for _, k := range n.Kids {
		switch {
		case k.Dash && k.Value != "":
			out = append(out, scalarValue(k.Value))
		case !k.Dash && k.Key == "labels":
			if k.Value != "" {
				out = append(out, valueLabels(joined(j, k))...)
				continue
			}
			for _, it := range k.Items() {
				if it.Value != "" {
					out = append(out, scalarValue(it.Value))
				}
			}
		}
	}
	return out
}

// valueLabels reads a one-line runs-on (or labels:) value.
func valueLabels(v string) []string {
	v = strings.TrimSpace(v)
	switch {
	case strings.HasPrefix(v, "["):
		items, ok := flowItems(v)
		if !ok {
			return nil
		}
		var out []string
		for _, it := range items {
			out = append(out, scalarValue(it))
		}
		return out
	case strings.HasPrefix(v, "{"):
		items, ok := flowItems(v)
		if !ok {
			return nil
		}
		for _, it := range items {
			if k, val := flowPair(it); k == "labels" {
				return valueLabels(val)
			}
		}
		return nil
	case v == "":
		return nil
	}
	return []string{scalarValue(v)}
}

// Res is how a run: body's dialect resolved.
type Res int

// The resolutions of the dialect table.
const (
	Shell      Res = iota // a shell ShellCheck knows: Run.Dialect names it
	OtherShell            // pwsh, python, a custom template: not shell
	WindowsRun            // no shell: on a Windows runner
	NoDialect             // no shell: and the runner unreadable, or no job at all
)

// Run is one run: value as the extractor reads it.
type Run struct {
	Job   *Job
	Step  *Step
	Line  int  // line of the run: key
	Block bool // a literal block scalar
	First int  // file line of Lines[0]
	// Lines is the body: a block dedented by its first line, a single-line
	// value unquoted; GitHub expressions replaced by ${GHEXPR} (in a
	// single-line value only where they balance).
	Lines []string
	Skip  string // a single-line value not read, and why

	Res     Res
	Dialect string // bash, sh, dash or ksh when Res is Shell
	Why     string // what left the dialect unstated

	WorkDir    string // the step's working-directory:, unquoted
	HasWorkDir bool
}

// Body answers a block's lines joined with newlines, as ShellCheck reads it.
func (r *Run) Body() string { return strings.Join(r.Lines, "\n") + "\n" }

// Extract answers every run: value of an Actions-shaped file, in file
// order, or the first construct it refuses: a folded block, an indentation
// indicator, an anchor or alias as the value, an unbalanced ${{ on a block
// line, a body line left of the block's own indent, and a defaults: block
// (top level or job level) that sets run:.
func Extract(f *File) ([]*Run, error) {
	if !f.Shape.Actions() {
		return nil, nil
	}
	if n := f.Defaults; setsRun(n) {
		return nil, &Refusal{f.Path, n.Line, "a defaults: block that sets run: (write shell: and working-directory: on each step)"}
	}
	var jobs []*Job
	if f.Shape.Workflow() {
		jobs = f.Jobs
	} else if f.Action != nil {
		jobs = []*Job{f.Action}
	}
	var out []*Run
	for _, j := range jobs {
		if n := j.Defaults; setsRun(n) {
			return nil, &Refusal{f.Path, n.Line, "a defaults: block that sets run: (write shell: and working-directory: on each step)"}
		}
		for _, s := range j.Steps {
			if s.Run == nil {
				continue
			}
			r, err := extractRun(f, j, s)
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

func setsRun(n *Node) bool {
	if n == nil {
		return false
	}
	if n.Value != "" {
		items, ok := flowItems(n.Value)
		if !ok {
			return false
		}
		for _, it := range items {
			if k, _ := flowPair(it); k == "run" {
				return true
			}
		}
		return false
	}
	var has func(*Node) bool
	has = func(m *Node) bool {
		for _, k := range m.Kids {
			if k.Key == "run" || has(k) {
				return true
			}
		}
		return false
	}
	return has(n)
}

func extractRun(f *File, j *Job, s *Step) (*Run, error) {
	n := s.Run
	r := &Run{Job: j, Step: s, Line: n.Line}
	r.Res, r.Dialect, r.Why = resolveDialect(j, s)
	if s.WorkDir != nil {
		r.WorkDir, r.HasWorkDir = scalarValue(s.WorkDir.Raw), true
	}
	v := n.Value
	switch {
	case v == "":
		if len(n.Cont) > 0 || len(n.Kids) > 0 {
			r.Skip = "a plain value continued past its line"
			return r, nil
		}
		return nil, nil
	case v[0] == '&' || v[0] == '*':
		return nil, &Refusal{f.Path, n.Line, "an anchor or alias as the run: value"}
	case v[0] == '>':
		return nil, &Refusal{f.Path, n.Line, "a folded block scalar (run: " + v + "); write run: |"}
	case v[0] == '|':
		if v != "|" && v != "|-" && v != "|+" {
			if strings.ContainsAny(v, "123456789") {
				return nil, &Refusal{f.Path, n.Line, "an explicit indentation indicator (run: " + v + ")"}
			}
			return nil, &Refusal{f.Path, n.Line, "an unknown block header (run: " + v + ")"}
		}
		return r, readBlock(f, r, n)
	case v[0] == '\'' || v[0] == '"':
		if _, closed := quoteEnd(v); !closed || len(n.Cont) > 0 {
			r.Skip = "a quoted value continued past its line"
			return r, nil
		}
		text, escaped := unquote(v)
		if escaped {
			r.Skip = "a double-quoted value with a backslash escape"
			return r, nil
		}
		r.First, r.Lines = n.Line, []string{substBalanced(text)}
		return r, nil
	case v[0] == '!':
		r.Skip = "a tagged value"
		return r, nil
	}
	if len(n.Cont) > 0 {
		r.Skip = "a plain value continued past its line"
		return r, nil
	}
	r.First, r.Lines = n.Line, []string{substBalanced(v)}
	return r, nil
}

// readBlock reads a literal block's body: the lines right of the key
// column, dedented by the first non-blank one.
func readBlock(f *File, r *Run, n *Node) error {
	r.Block = true
	if len(n.Cont) == 0 {
		return nil
	}
	indent := -1
	for _, l := range n.Cont {
		if ln := f.lines[l-1]; !ln.blank {
			indent = ln.indent
			break
		}
	}
	r.First = n.Cont[0]
	for _, l := range n.Cont {
		ln := f.lines[l-1]
		var text string
		switch {
		case ln.blank:
			if len(ln.text) > indent {
				text = ln.text[indent:]
			}
		case ln.indent < indent:
			return &Refusal{f.Path, l, "a block line indented left of the block's first line"}
		default:
			text = ln.text[indent:]
		}
		out, ok := subst(text)
		if !ok {
			return &Refusal{f.Path, l, "an unbalanced ${{ on a run: block line"}
		}
		r.Lines = append(r.Lines, out)
	}
	return nil
}

// Expr is what a GitHub expression becomes in a body: a braced parameter
// expansion, which ShellCheck reads as an opaque runtime value.
const Expr = "${GHEXPR}"

// subst replaces every ${{ ... }} on a line; ok is false when one never
// closes.
func subst(s string) (string, bool) {
	if !strings.Contains(s, "${{") {
		return s, true
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${{")
		if i < 0 {
			b.WriteString(s)
			return b.String(), true
		}
		k := strings.Index(s[i+3:], "}}")
		if k < 0 {
			return "", false
		}
		b.WriteString(s[:i])
		b.WriteString(Expr)
		s = s[i+3+k+2:]
	}
}

func substBalanced(s string) string {
	if out, ok := subst(s); ok {
		return out
	}
	return s
}

// resolveDialect applies the dialect table: the step's shell: first, then
// the job's runner.
func resolveDialect(j *Job, s *Step) (Res, string, string) {
	if s.Shell != nil {
		if v := scalarValue(s.Shell.Raw); v != "" {
			switch w := strings.Fields(v)[0]; w {
			case "bash", "sh", "dash", "ksh":
				return Shell, w, ""
			}
			return OtherShell, "", ""
		}
	}
	if j.Action {
		return NoDialect, "", "the step has no enclosing job (an action's steps must say shell:)"
	}
	switch r, why := RunnerOf(j); r {
	case Windows:
		return WindowsRun, "", "the job runs on Windows, where the default shell is pwsh"
	case Unreadable:
		return NoDialect, "", why
	}
	return Shell, "bash", ""
}
