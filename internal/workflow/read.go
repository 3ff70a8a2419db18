package workflow

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/gate-sdk/gates/internal/lazyre"
)

// Shape is what a file's top-level keys make it.
type Shape struct {
	Jobs bool // a top-level jobs: key
	On   bool // a top-level on: key ("on" quoted or not)
	Runs bool // a top-level runs: key
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

// Refusal is a construct the reader will not guess at, or a file the YAML
// parser rejected. The gates report it as exit 2.
type Refusal struct {
	Path      string
	Line      int // 0 when the parser named no line
	Construct string
}

func (r *Refusal) Error() string {
	if r.Line <= 0 {
		return fmt.Sprintf("%s: cannot read %s", r.Path, r.Construct)
	}
	return fmt.Sprintf("%s:%d: cannot read %s", r.Path, r.Line, r.Construct)
}

// Entry is one mapping entry: the key's position and its value, as
// written (Raw, which may be an alias) and with aliases followed (Value).
type Entry struct {
	Key   string
	Line  int // the key's line
	Col   int // the key's 1-based character column
	Raw   *yaml.Node
	Value *yaml.Node
}

// File is one read YAML file.
type File struct {
	Path  string
	Shape Shape
	// Rejected is the parser's refusal of the file; the file then has no
	// structure at all. Suspect says whether such a file looks like a
	// workflow or an action (by its path or its top-level key lines), which
	// makes the rejection a gate's exit 2 rather than a counted skip.
	Rejected *Refusal
	Suspect  bool

	Env         *Entry // workflow-level env:
	Permissions *Entry // workflow-level permissions:
	Defaults    *Entry // workflow-level defaults:

	JobsLine int // line of the jobs: key (0 when absent)
	Jobs     []*Job
	Action   *Job // a runs: action's steps, as a job with no id; nil otherwise

	root  *yaml.Node // the document's top-level node
	lines []srcLine
	body  map[int]bool // lines inside a multi-line scalar, past its first
	// floors holds each block scalar's floor (the 0-based column of the
	// key it is the value of), so a block reached through an alias is
	// read as where it was written.
	floors map[*yaml.Node]int
	// visits counts the source lines the reader's line loops have stepped
	// over, so a test can hold the reader linear in a block's length
	// without timing it. Gates may walk one File at once: it is atomic.
	visits atomic.Int64
}

// visit adds n line steps to the file's count.
func (f *File) visit(n int) {
	if n > 0 {
		f.visits.Add(int64(n))
	}
}

// Job is one job under jobs: (or an action's runs:).
type Job struct {
	ID   string
	Line int // line of the job id
	Col  int // column of the job id
	End  int // last line of the job's extent
	Node *yaml.Node

	RunsOn      *Entry
	Env         *Entry
	Permissions *Entry
	Uses        *Entry // a reusable-workflow call
	Defaults    *Entry
	StepsKey    *Entry // the steps: key
	Steps       []*Step
	Action      bool // the steps of an action's runs:, not a job

	file *File
	// tokenRef is tokenRef's answer with no step exempt, computed once
	// and shared by every walk that exempts none of this job's steps.
	tokenOnce sync.Once
	tokenAll  bool
}

// Step is one item of a steps: list.
type Step struct {
	Index int // position in the job's steps
	Line  int // first line of the item
	Col   int
	End   int // last line holding the item's content
	Node  *yaml.Node

	Uses    *Entry
	Run     *Entry
	Shell   *Entry
	Env     *Entry
	WorkDir *Entry
}

// Lines answers the file's line count.
func (f *File) Lines() int { return len(f.lines) }

// Text answers line n (1-based) as written, without its line break.
func (f *File) Text(n int) string {
	if n < 1 || n > len(f.lines) {
		return ""
	}
	return f.lines[n-1].text
}

// IsComment reports whether line n is a full-line comment: its first
// non-blank byte is '#' and it is not inside a scalar's body.
func (f *File) IsComment(n int) bool {
	return n >= 1 && n <= len(f.lines) && f.lines[n-1].comment && !f.body[n]
}

// Indent answers line n's leading-space count.
func (f *File) Indent(n int) int {
	if n < 1 || n > len(f.lines) {
		return 0
	}
	return f.lines[n-1].indent
}

// aliasBudget bounds how many nodes a walk that follows aliases visits, so
// an alias bomb costs a refusal and not the machine.
const aliasBudget = 200000

var errLine = lazyre.New(`line (\d+)`)

// Read reads a YAML file's structure with the YAML parser. It never fails:
// a file the parser rejects comes back with Rejected set and no structure.
func Read(p string, data []byte) *File {
	f := &File{Path: p, lines: splitLines(data), body: map[int]bool{}, floors: map[*yaml.Node]int{}}
	root, err := parse(data)
	if err != nil {
		f.Rejected = rejection(p, err, f.lines)
		f.Suspect = suspect(p, f.lines)
		return f
	}
	f.root = root
	if root == nil {
		return f
	}
	if err := f.markBodies(root); err != nil {
		f.Rejected = &Refusal{p, 0, err.Error()}
		f.Suspect = suspect(p, f.lines)
		f.root = nil
		return f
	}
	if expanded(root) > aliasBudget {
		f.Rejected = &Refusal{p, 0, "the file: its aliases expand past what the reader walks (or refer to themselves)"}
		f.Suspect = suspect(p, f.lines)
		f.root = nil
		return f
	}
	top := entries(root)
	var jobs, runs *Entry
	for _, e := range top {
		switch e.Key {
		case "jobs":
			if jobs == nil {
				jobs = e
			}
			f.Shape.Jobs = true
		case "on":
			f.Shape.On = true
		case "runs":
			if runs == nil {
				runs = e
			}
			f.Shape.Runs = true
		case "env":
			f.Env = e
		case "permissions":
			f.Permissions = e
		case "defaults":
			f.Defaults = e
		}
	}
	if jobs != nil {
		f.readJobs(jobs, top)
	}
	if runs != nil && f.Shape.Composite() {
		a := &Job{Line: runs.Line, Col: runs.Col, End: len(f.lines), Node: runs.Value, Action: true, file: f}
		for _, e := range entries(runs.Value) {
			if e.Key == "steps" && a.StepsKey == nil {
				a.StepsKey = e
			}
		}
		a.Steps = f.readSteps(a.StepsKey)
		f.Action = a
	}
	return f
}

// parse answers the document's top-level node (nil for an empty file).
// A second document, UTF-16 or any byte sequence that is not UTF-8 is a
// rejection: the line split would not be the parser's.
func parse(data []byte) (*yaml.Node, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("the file is not UTF-8")
	}
	dec := yaml.NewDecoder(bytes.NewReader(directive12(data)))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	var more yaml.Node
	switch err := dec.Decode(&more); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, err
	default:
		return nil, fmt.Errorf("line %d: a second YAML document (a workflow is one document)", more.Line)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

var yamlDirective = lazyre.New(`(?m)\A\x{FEFF}?(?:(?:[ \t]*(?:#[^\n]*)?|%[^\n]*)\r?\n)*?%YAML[ \t]+1\.(\d+)`)

// directive12 answers data with a %YAML 1.x directive (x not 1) before the
// document spelled %YAML 1.1, in place and at the same length: the parser
// reads YAML 1.2 but refuses a document that declares it, and GitHub loads
// such a workflow. Every other byte, and so every line and column, stays.
func directive12(data []byte) []byte {
	m := yamlDirective.Get().FindSubmatchIndex(data)
	if m == nil || string(data[m[2]:m[3]]) == "1" {
		return data
	}
	out := append([]byte(nil), data...)
	out[m[2]] = '1'
	for i := m[2] + 1; i < m[3]; i++ {
		out[i] = ' '
	}
	return out
}

// parserProblem reports the messages the parser (not its scanner) raises
// with a construct's context.
func parserProblem(msg string) bool {
	for _, p := range []string{"did not find expected ',' or ']'", "did not find expected ',' or '}'",
		"did not find expected '-' indicator", "did not find expected key", "did not find expected node content",
		"found undefined tag handle"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

var unknownAnchor = lazyre.New(`unknown anchor '(.*)' referenced`)

// rejection renders the parser's error as a refusal at the line it names;
// an unknown alias, which the parser names no line for, is placed on the
// first line spelling it.
func rejection(p string, err error, lines []srcLine) *Refusal {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := errLine.Get().FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = strings.TrimSpace(strings.Replace(msg, m[0]+":", "", 1))
		// The parser's structural errors name the construct's start as a
		// 0-based line (its scanner errors are 1-based already).
		if parserProblem(msg) {
			line++
		}
	} else if m := unknownAnchor.Get().FindStringSubmatch(msg); m != nil {
		for i, l := range lines {
			if strings.Contains(l.text, "*"+m[1]) {
				line = i + 1
				break
			}
		}
	} else if strings.HasPrefix(err.Error(), "yaml: ") {
		// The parser omits the line only when it is the first.
		line = 1
	}
	// The parser counts the end of the input as a line of its own; a
	// refusal names a line the file has.
	if line > len(lines) {
		line = len(lines)
	}
	return &Refusal{p, line, "the file as YAML: the parser says " + msg}
}

var suspectKey = lazyre.New(`^["']?(jobs|runs|on)["']?[ \t]*:|["'](jobs|runs)["'][ \t]*:`)

// suspect reports whether a rejected file looks like a workflow or an
// action: it sits in a .github/workflows directory, is named action.yml or
// action.yaml, or has a line opening with a jobs:, runs: or on: key (or a
// quoted "jobs": or "runs": anywhere, as a JSON workflow spells it).
func suspect(p string, lines []srcLine) bool {
	base := path.Base(p)
	if base == "action.yml" || base == "action.yaml" || strings.Contains("/"+p, "/.github/workflows/") {
		return true
	}
	for _, l := range lines {
		if suspectKey.Get().MatchString(l.text) || suspectKey.Get().MatchString(strings.TrimLeft(l.text, " \t{")) {
			return true
		}
	}
	return false
}

// expanded counts the nodes under n with every alias followed, stopping
// once past aliasBudget: a file whose aliases expand further (or loop) is
// refused, so every later walk over it is bounded by its expanded size.
func expanded(n *yaml.Node) int {
	count := 0
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		for count <= aliasBudget {
			count++
			if n == nil {
				return
			}
			if n.Kind == yaml.AliasNode {
				n = n.Alias
				continue
			}
			for _, c := range n.Content {
				walk(c)
				if count > aliasBudget {
					return
				}
			}
			return
		}
	}
	walk(n)
	return count
}

// resolve follows aliases to the node they name.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 64; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// entries answers a mapping's entries in order, with merge keys (<<)
// folded in after the mapping's own keys, as a reader leaning toward
// seeing more would. Anything but a mapping has none.
func entries(n *yaml.Node) []*Entry {
	budget := 1024
	return entriesDepth(n, 0, &budget)
}

func entriesDepth(n *yaml.Node, depth int, budget *int) []*Entry {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode || depth > 8 || *budget <= 0 {
		return nil
	}
	*budget--
	var out, merged []*Entry
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		rk := resolve(k)
		if rk == nil || rk.Kind != yaml.ScalarNode {
			continue
		}
		if rk.Value == "<<" && rk.Tag == "!!merge" {
			src := resolve(v)
			if src != nil && src.Kind == yaml.SequenceNode {
				for _, m := range src.Content {
					merged = append(merged, entriesDepth(m, depth+1, budget)...)
				}
			} else {
				merged = append(merged, entriesDepth(v, depth+1, budget)...)
			}
			continue
		}
		out = append(out, &Entry{Key: rk.Value, Line: k.Line, Col: k.Column, Raw: v, Value: resolve(v)})
	}
	for _, m := range merged {
		if child(out, m.Key) == nil {
			out = append(out, m)
		}
	}
	return out
}

func child(es []*Entry, key string) *Entry {
	for _, e := range es {
		if e.Key == key {
			return e
		}
	}
	return nil
}

// Child answers the entry of mapping n called key, or nil.
func Child(n *yaml.Node, key string) *Entry { return child(entries(n), key) }

// items answers a sequence's items with aliases followed.
func items(n *yaml.Node) []*yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	out := make([]*yaml.Node, 0, len(n.Content))
	for _, it := range n.Content {
		if r := resolve(it); r != nil {
			out = append(out, r)
		}
	}
	return out
}

func (f *File) readJobs(jobs *Entry, top []*Entry) {
	f.JobsLine = jobs.Line
	end := len(f.lines)
	for _, e := range top {
		if e.Line > jobs.Line && e.Line-1 < end {
			end = e.Line - 1
		}
	}
	ids := entries(jobs.Value)
	for i, e := range ids {
		j := &Job{ID: e.Key, Line: e.Line, Col: e.Col, Node: e.Value, End: end, file: f}
		if i+1 < len(ids) && ids[i+1].Line > e.Line {
			j.End = ids[i+1].Line - 1
		}
		if j.End < j.Line {
			j.End = j.Line
		}
		for _, k := range entries(e.Value) {
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
		j.Steps = f.readSteps(j.StepsKey)
		f.Jobs = append(f.Jobs, j)
	}
}

func (f *File) readSteps(steps *Entry) []*Step {
	if steps == nil {
		return nil
	}
	its := items(steps.Value)
	out := make([]*Step, 0, len(its))
	for i, it := range its {
		s := &Step{Index: i, Line: it.Line, Col: it.Column, End: f.end(it, it.Column-2), Node: it}
		for _, k := range entries(it) {
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

// end answers the last line holding n's content; floor is the 0-based
// column a block scalar's body lines must sit right of.
func (f *File) end(n *yaml.Node, floor int) int {
	e := n.Line
	budget := aliasBudget
	var walk func(n *yaml.Node, floor int)
	walk = func(n *yaml.Node, floor int) {
		if n == nil || budget <= 0 {
			return
		}
		budget--
		switch n.Kind {
		case yaml.ScalarNode:
			if l := f.scalarEnd(n, floor); l > e {
				e = l
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(n.Content[i], floor)
				walk(n.Content[i+1], n.Content[i].Column-1)
			}
		case yaml.SequenceNode:
			for _, it := range n.Content {
				walk(it, it.Column-2)
			}
		default:
			if n.Line > e {
				e = n.Line
			}
		}
	}
	walk(n, floor)
	return e
}

// markBodies records every line inside a multi-line scalar past its first,
// so a '#' there is no comment, and checks that every position the parser
// reports is a line the split has.
func (f *File) markBodies(root *yaml.Node) error {
	budget := aliasBudget
	var walk func(n *yaml.Node, floor int) error
	walk = func(n *yaml.Node, floor int) error {
		if n == nil {
			return nil
		}
		if budget--; budget <= 0 {
			return errors.New("the file: more nodes than the reader will walk")
		}
		if n.Line < 1 || n.Line > len(f.lines) {
			return fmt.Errorf("the file: the parser placed a node on line %d of %d", n.Line, len(f.lines))
		}
		switch n.Kind {
		case yaml.ScalarNode:
			if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
				f.floors[n] = floor
			}
			end := f.scalarEnd(n, floor)
			for l := n.Line + 1; l <= end; l++ {
				f.body[l] = true
			}
			f.visit(end - n.Line)
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if err := walk(n.Content[i], floor); err != nil {
					return err
				}
				if err := walk(n.Content[i+1], n.Content[i].Column-1); err != nil {
					return err
				}
			}
		case yaml.SequenceNode:
			for _, it := range n.Content {
				if err := walk(it, it.Column-2); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(root, -1)
}

// floorOf answers the floor of the node an entry's value names: the key's
// column when the value is written there, the recorded floor of the
// anchored node an alias names (-1 when none was recorded).
func (f *File) floorOf(e *Entry) int {
	if e.Value == e.Raw {
		return e.Col - 1
	}
	if fl, ok := f.floors[e.Value]; ok {
		return fl
	}
	return -1
}

// scalarEnd answers the last line a scalar's source occupies. A block
// scalar's body is the following lines that are blank or sit right of
// floor, trailing blank lines excluded; a quoted scalar ends at its
// closing quote; a plain one at its last continuation line.
func (f *File) scalarEnd(n *yaml.Node, floor int) int {
	switch {
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		if strings.Trim(n.Value, "\n") == "" {
			return n.Line
		}
		// The body runs from the first non-blank line on, through every
		// line that is blank or indented at least as far as it (or right
		// of floor, where the floor is known: an indentation indicator
		// lets later lines sit left of the first).
		last, ind := n.Line, -1
		l := n.Line + 1
		defer func() { f.visit(l - n.Line) }()
		for ; l <= len(f.lines); l++ {
			ln := f.lines[l-1]
			if ln.blank {
				continue
			}
			if ind < 0 {
				ind = ln.indent
				if floor >= 0 && floor+1 < ind {
					ind = floor + 1
				}
			}
			if ln.indent < ind || floor >= 0 && ln.indent <= floor {
				break
			}
			last = l
		}
		return last
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		return f.quoteEnd(n)
	}
	if !strings.ContainsAny(n.Value, " \t") {
		return n.Line
	}
	// A plain scalar folds its continuation lines into single spaces; its
	// source ends at the last more-indented line that is neither blank
	// nor a comment.
	last := n.Line
	rest := n.Value
	l := n.Line + 1
	for ; l <= len(f.lines); l++ {
		ln := f.lines[l-1]
		if ln.blank {
			continue
		}
		var ok bool
		if ln.indent <= floor || ln.comment {
			break
		}
		if rest, ok = plainContinues(rest, ln.text); !ok {
			break
		}
		last = l
	}
	f.visit(l - n.Line)
	return last
}

// plainContinues reports whether a line's words are part of a plain
// scalar's folded value, looked for in what the earlier lines left of it
// (the value holds the lines in order), and answers what follows them: a
// search that moves forward only, so a long scalar costs its length once.
func plainContinues(rest, line string) (string, bool) {
	t := strings.TrimSpace(line)
	if t == "" {
		return rest, false
	}
	i := strings.Index(rest, t)
	if i < 0 {
		return rest, false
	}
	return rest[i+len(t):], true
}

// quoteEnd scans a quoted scalar from its opening quote to its closing one
// and answers the closing quote's line.
func (f *File) quoteEnd(n *yaml.Node) int {
	q := byte('"')
	if n.Style&yaml.SingleQuotedStyle != 0 {
		q = '\''
	}
	l := n.Line
	text := f.Text(l)
	i := byteCol(text, n.Column)
	if i < len(text) && text[i] == q {
		i++
	}
	for l <= len(f.lines) {
		for ; i < len(text); i++ {
			switch {
			case q == '"' && text[i] == '\\':
				i++
			case text[i] == q:
				if q == '\'' && i+1 < len(text) && text[i+1] == '\'' {
					i++
					continue
				}
				return l
			}
		}
		l++
		text, i = f.Text(l), 0
	}
	return len(f.lines)
}

// Scalars calls fn on every scalar (keys included) under n, following
// aliases within a budget.
func Scalars(n *yaml.Node, fn func(*yaml.Node)) {
	budget := aliasBudget
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n = resolve(n); n == nil || budget <= 0 {
			return
		}
		budget--
		if n.Kind == yaml.ScalarNode {
			fn(n)
			return
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
}

// EnvKeys answers the variable names an env: entry sets: its mapping's
// keys. An expression or any other scalar sets no name the reader can
// see.
func EnvKeys(e *Entry) []string {
	if e == nil {
		return nil
	}
	var out []string
	for _, k := range entries(e.Value) {
		out = append(out, k.Key)
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

// scalar answers an entry's value as text when it is a scalar.
func scalar(e *Entry) (string, bool) {
	if e == nil || e.Value == nil || e.Value.Kind != yaml.ScalarNode {
		return "", false
	}
	return e.Value.Value, true
}

// UsesRef answers a uses: entry's ref: a quoted value whole, a plain one
// up to its first white space.
func UsesRef(e *Entry) string {
	v, ok := scalar(e)
	if !ok {
		return ""
	}
	return refOf(e.Value, v)
}

func refOf(n *yaml.Node, v string) string {
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 {
		v = strings.TrimSpace(v)
		if i := strings.IndexAny(v, " \t\n"); i >= 0 {
			v = v[:i]
		}
	}
	return v
}

// IsCheckout reports whether a uses: ref calls actions/checkout. GitHub
// resolves an action's owner and repository in any letter case, so
// Actions/Checkout is the same action.
func IsCheckout(ref string) bool {
	return strings.EqualFold(RefName(ref), "actions/checkout")
}

// RefName answers a ref up to its '@'.
func RefName(ref string) string {
	if i := strings.IndexByte(ref, '@'); i >= 0 {
		return ref[:i]
	}
	return ref
}
