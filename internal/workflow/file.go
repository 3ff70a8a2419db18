package workflow

import "strings"

// Shape is what a file's column-0 keys make it.
type Shape struct {
	Jobs bool // a column-0 jobs: key
	On   bool // a column-0 on: key ("on" quoted or not)
	Runs bool // a column-0 runs: key
}

// Workflow reports a GitHub workflow: a top-level jobs: beside a top-level
// on:. The on: half is what keeps CircleCI's and Azure's top-level jobs:
// out; GitHub refuses a workflow without it.
func (s Shape) Workflow() bool { return s.Jobs && s.On }

// Composite reports an action metadata file: a top-level runs: in a file
// that is not a workflow.
func (s Shape) Composite() bool { return s.Runs && !s.Workflow() }

// Actions reports the Actions-shape predicate: a workflow or an action.
func (s Shape) Actions() bool { return s.Workflow() || s.Composite() }

// File is one read YAML file.
type File struct {
	Path  string
	Shape Shape
	Top   []*Node // column-0 entries

	Env         *Node // workflow-level env:
	Permissions *Node // workflow-level permissions:
	Defaults    *Node // workflow-level defaults:

	JobsLine int // line of the jobs: key (0 when absent)
	JobsEnd  int // last line of the jobs section
	JobCol   int // the column job ids sit at (-1 when there is no job)
	Jobs     []*Job
	Action   *Job // a runs: action's steps, as a job with no id; nil otherwise

	lines []srcLine
}

// Job is one job under jobs: (or an action's runs:).
type Job struct {
	ID     string
	Line   int // line of the job id
	End    int // last line of the job's extent
	KeyCol int // column of the job's own keys (-1 when it has none)
	Node   *Node

	RunsOn      *Node
	Env         *Node
	Permissions *Node
	Uses        *Node // a reusable-workflow call
	Defaults    *Node
	StepsKey    *Node // the steps: key
	Steps       []*Step
	Action      bool // the steps of an action's runs:, not a job

	file *File
}

// Step is one item of a steps: list.
type Step struct {
	Line    int // line of the step's dash
	End     int // last line of the step's extent
	DashCol int
	KeyCol  int // column of the step's keys
	Node    *Node

	Uses    *Node
	Run     *Node
	Shell   *Node
	Env     *Node
	WorkDir *Node
}

// Lines answers the file's line count.
func (f *File) Lines() int { return len(f.lines) }

// Text answers line n (1-based) as written.
func (f *File) Text(n int) string {
	if n < 1 || n > len(f.lines) {
		return ""
	}
	return f.lines[n-1].text
}

// IsComment reports whether line n is a full-line comment.
func (f *File) IsComment(n int) bool { return n >= 1 && n <= len(f.lines) && f.lines[n-1].comment }

// Indent answers line n's leading-space count.
func (f *File) Indent(n int) int {
	if n < 1 || n > len(f.lines) {
		return 0
	}
	return f.lines[n-1].indent
}

// Read reads a YAML file's structure. It never fails: a shape it cannot
// place is kept as a stray node and read as nothing.
func Read(path string, data []byte) *File {
	f := &File{Path: path, lines: splitLines(data), JobCol: -1}
	f.Top = parseTop(f.lines)
	var jobs, runs *Node
	for _, n := range f.Top {
		if n.Col != 0 || n.Dash {
			continue
		}
		switch n.Key {
		case "jobs":
			if jobs == nil {
				jobs = n
			}
			f.Shape.Jobs = true
		case "on":
			f.Shape.On = true
		case "runs":
			if runs == nil {
				runs = n
			}
			f.Shape.Runs = true
		case "env":
			f.Env = n
		case "permissions":
			f.Permissions = n
		case "defaults":
			f.Defaults = n
		}
	}
	if jobs != nil {
		f.readJobs(jobs)
	}
	if runs != nil && f.Shape.Composite() {
		a := &Job{Line: runs.Line, End: runs.End, KeyCol: -1, Node: runs, Action: true, file: f}
		if len(runs.Kids) > 0 {
			a.KeyCol = runs.Kids[0].Col
		}
		a.StepsKey = runs.Child("steps")
		a.Steps = readSteps(a.StepsKey)
		f.Action = a
	}
	return f
}

func (f *File) readJobs(jobs *Node) {
	f.JobsLine = jobs.Line
	f.JobsEnd = jobs.End
	// The section runs to the line before the next column-0 key, so the
	// comments between the last job and that key are the last job's.
	for _, n := range f.Top {
		if n.Line > jobs.Line {
			f.JobsEnd = n.Line - 1
			break
		}
		f.JobsEnd = len(f.lines)
	}
	var ids []*Node
	for _, k := range jobs.Kids {
		if !k.Dash && k.Key != "" {
			ids = append(ids, k)
		}
	}
	if len(ids) > 0 {
		f.JobCol = ids[0].Col
	}
	for i, n := range ids {
		j := &Job{ID: n.Key, Line: n.Line, Node: n, KeyCol: -1, End: f.JobsEnd, file: f}
		if i+1 < len(ids) {
			j.End = ids[i+1].Line - 1
		}
		for _, k := range n.Kids {
			if k.Dash {
				continue
			}
			if j.KeyCol < 0 {
				j.KeyCol = k.Col
			}
			switch k.Key {
			case "runs-on":
				j.RunsOn = k
			case "env":
				j.Env = k
			case "permissions":
				j.Permissions = k
			case "uses":
				j.Uses = k
			case "defaults":
				j.Defaults = k
			case "steps":
				j.StepsKey = k
			}
		}
		j.Steps = readSteps(j.StepsKey)
		f.Jobs = append(f.Jobs, j)
	}
}

func readSteps(steps *Node) []*Step {
	items := steps.Items()
	out := make([]*Step, 0, len(items))
	for i, it := range items {
		s := &Step{Line: it.Line, End: it.End, DashCol: it.DashCol, KeyCol: it.Col, Node: it}
		if i+1 < len(items) {
			s.End = items[i+1].Line - 1
		}
		keyed := false
		for _, k := range it.Kids {
			if k.Dash {
				continue
			}
			if !keyed {
				s.KeyCol, keyed = k.Col, true
			}
			switch k.Key {
			case "uses":
				s.Uses = k
			case "run":
				s.Run = k
			case "shell":
				s.Shell = k
			case "env":
				s.Env = k
			case "working-directory":
				s.WorkDir = k
			}
		}
		out = append(out, s)
	}
	return out
}

// EnvKeys answers the variable names an env: node sets: its child keys,
// or the keys of a one-line flow mapping. An expression or anything else
// sets no name the reader can see.
func EnvKeys(n *Node) []string {
	if n == nil {
		return nil
	}
	var out []string
	if n.Value != "" {
		items, ok := flowItems(n.Value)
		if !ok || !strings.HasPrefix(n.Value, "{") {
			return nil
		}
		for _, it := range items {
			k, _ := flowPair(it)
			out = append(out, k)
		}
		return out
	}
	for _, k := range n.Kids {
		if !k.Dash && k.Key != "" {
			out = append(out, k.Key)
		}
	}
	return out
}

func hasKey(keys []string, want string) bool {
	for _, k := range keys {
		if k == want {
			return true
		}
	}
	return false
}

// UsesRef answers a uses: node's ref: the text inside its quotes when
// quoted, else up to the first white space.
func UsesRef(n *Node) string {
	if n == nil {
		return ""
	}
	return refToken(n.Raw)
}

func refToken(raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return ""
	}
	if raw[0] == '\'' || raw[0] == '"' {
		if end, ok := quoteEnd(raw); ok {
			t, _ := unquote(raw[:end])
			return t
		}
		return raw[1:]
	}
	if i := strings.IndexAny(raw, " \t"); i >= 0 {
		return raw[:i]
	}
	return raw
}

// RefName answers a ref up to its '@'.
func RefName(ref string) string {
	if i := strings.IndexByte(ref, '@'); i >= 0 {
		return ref[:i]
	}
	return ref
}
