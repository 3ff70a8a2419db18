package workflow

import "strings"

// WalkOptions are the caller's parameters of the job walk.
type WalkOptions struct {
	// Marker is the exemption marker's spelling without '#' and ':', e.g.
	// "gh-repo-exempt"; empty reads no marker.
	Marker string
	// Words asks for word events: each listed word spelled on a run: body
	// line, and each step's uses: ref. None asks for neither.
	Words []string
}

// Event is a walk event with the line it was read on.
type Event struct {
	Line int
	Text string
}

// JobWalk is what the walk read of one job. Evidence from a step its
// marker binds is dropped; a job its marker binds is Exempt and carries
// nothing else.
type JobWalk struct {
	Job        *Job
	Exempt     bool
	ExemptLine int

	Calls     []Call // gh invocations in command position
	StepRepo  []bool // per call: GH_REPO in the calling step's env:
	Checkouts []int  // lines of uses: actions/checkout steps
	TokenRef  bool   // secrets.GITHUB_TOKEN or github.token in the job's text
	GHRepoJob bool   // GH_REPO in the job's env:

	Uses  []Event // with Words: each live step's uses: ref
	Words []Event // with Words: each listed word spelled on a body line
}

// Walked is one workflow's walk.
type Walked struct {
	File           *File
	GHRepoWorkflow bool  // GH_REPO in the workflow's env:
	Bare           []int // lines of markers with no reason
	Jobs           []*JobWalk
}

// Walk runs the job walk over a workflow file. It refuses nothing: every
// run: form is read line-wise, and every ambiguity leans toward detecting.
func Walk(f *File, opt WalkOptions) *Walked {
	w := &Walked{File: f, GHRepoWorkflow: hasKey(EnvKeys(f.Env), "GH_REPO")}
	exJob := map[*Job]int{}
	exStep := map[*Step]bool{}
	if opt.Marker != "" {
		w.Bare = bindMarkers(f, opt.Marker, exJob, exStep)
	}
	for _, j := range f.Jobs {
		jw := &JobWalk{Job: j}
		w.Jobs = append(w.Jobs, jw)
		if l, ok := exJob[j]; ok {
			jw.Exempt, jw.ExemptLine = true, l
			continue
		}
		jw.GHRepoJob = hasKey(EnvKeys(j.Env), "GH_REPO")
		for _, s := range j.Steps {
			if exStep[s] {
				continue
			}
			if s.Uses != nil {
				ref := UsesRef(s.Uses)
				if RefName(ref) == "actions/checkout" {
					jw.Checkouts = append(jw.Checkouts, s.Uses.Line)
				}
				if len(opt.Words) > 0 {
					jw.Uses = append(jw.Uses, Event{s.Uses.Line, ref})
				}
			}
			if s.Run == nil {
				continue
			}
			stepRepo := hasKey(EnvKeys(s.Env), "GH_REPO")
			body := BodyLines(f, s.Run)
			for _, l := range joinLogical(body) {
				for _, c := range ghCalls(l) {
					jw.Calls = append(jw.Calls, c)
					jw.StepRepo = append(jw.StepRepo, stepRepo)
				}
			}
			if len(opt.Words) > 0 {
				for _, ln := range body {
					if strings.HasPrefix(strings.TrimLeft(ln.Text, " \t"), "#") {
						continue
					}
					for _, word := range wordsOn(ln.Text, opt.Words) {
						jw.Words = append(jw.Words, Event{ln.N, word})
					}
				}
			}
		}
		jw.TokenRef = tokenRef(f, j, exStep)
	}
	return w
}

// BodyLines answers a run: value's lines as the walk reads them: a block's
// (literal or folded, any header) lines as written, a one-line value with
// its quotes dropped, and the lines continuing either. An alias reads as
// nothing.
func BodyLines(f *File, n *Node) []Line {
	v := n.Value
	for {
		fs := strings.Fields(v)
		if len(fs) == 0 || (fs[0][0] != '&' && fs[0][0] != '!') {
			break
		}
		v = strings.TrimSpace(strings.TrimPrefix(v, fs[0]))
	}
	var out []Line
	if v != "" && v[0] != '|' && v[0] != '>' {
		if v[0] == '*' {
			return nil
		}
		text := n.Raw
		if v[0] == '\'' || v[0] == '"' {
			if end, ok := quoteEnd(v); ok {
				text, _ = unquote(v[:end])
			} else {
				text = v[1:]
			}
		}
		out = append(out, Line{n.Line, text})
	}
	for _, l := range n.Cont {
		out = append(out, Line{l, f.Text(l)})
	}
	return out
}

// tokenRef reports the GitHub token named anywhere in the job's extent,
// comments included, outside the steps a marker binds.
func tokenRef(f *File, j *Job, exStep map[*Step]bool) bool {
	for l := j.Line; l <= j.End; l++ {
		if inExemptStep(j, l, exStep) {
			continue
		}
		if HasTokenRef(f.Text(l)) {
			return true
		}
	}
	return false
}

func inExemptStep(j *Job, l int, exStep map[*Step]bool) bool {
	for _, s := range j.Steps {
		if exStep[s] && l >= s.Line && l <= s.End {
			return true
		}
	}
	return false
}

// HasTokenRef reports secrets.GITHUB_TOKEN or github.token spelled on a
// line, in any letter case, as a whole name.
func HasTokenRef(s string) bool {
	low := strings.ToLower(s)
	for _, name := range []string{"secrets.github_token", "github.token"} {
		from := 0
		for {
			k := strings.Index(low[from:], name)
			if k < 0 {
				break
			}
			a, b := from+k, from+k+len(name)
			before := a == 0 || !(nameByte(low[a-1]) || low[a-1] == '.')
			after := b == len(low) || !nameByte(low[b])
			if before && after {
				return true
			}
			from = a + 1
		}
	}
	return false
}

func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// MarkerText reads a full-line comment as an exemption marker: ok when the
// comment opens with "<marker>:", reason the text after it.
func MarkerText(line, marker string) (reason string, ok bool) {
	t := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(t, "#") {
		return "", false
	}
	t = strings.TrimLeft(t[1:], " \t")
	if !strings.HasPrefix(t, marker+":") {
		return "", false
	}
	return strings.TrimSpace(t[len(marker)+1:]), true
}

// bindMarkers binds each marker in the file by its column: at or left of
// the job-id column it binds the next job; at a step list's dash column
// the next step; right of the dash column, the step it sits in; anywhere
// else inside a job, that job. A marker with no reason binds nothing and
// is answered.
func bindMarkers(f *File, marker string, exJob map[*Job]int, exStep map[*Step]bool) []int {
	var bare []int
	for l := 1; l <= f.Lines(); l++ {
		if !f.IsComment(l) {
			continue
		}
		reason, ok := MarkerText(f.Text(l), marker)
		if !ok {
			continue
		}
		if reason == "" {
			bare = append(bare, l)
			continue
		}
		col := f.Indent(l)
		if f.JobCol < 0 {
			continue
		}
		if col <= f.JobCol {
			for _, j := range f.Jobs {
				if j.Line > l {
					if _, done := exJob[j]; !done {
						exJob[j] = l
					}
					break
				}
			}
			continue
		}
		j := jobAt(f, l)
		if j == nil {
			continue
		}
		if s := stepFor(j, l, col); s != nil {
			exStep[s] = true
			continue
		}
		if _, done := exJob[j]; !done {
			exJob[j] = l
		}
	}
	return bare
}

func jobAt(f *File, l int) *Job {
	for _, j := range f.Jobs {
		if l > j.Line && l <= j.End {
			return j
		}
	}
	return nil
}

// stepFor answers the step a marker at line l, column col binds, or nil
// when it binds the job.
func stepFor(j *Job, l, col int) *Step {
	if len(j.Steps) == 0 || j.StepsKey == nil || l <= j.StepsKey.Line {
		return nil
	}
	dash := j.Steps[0].DashCol
	if col < dash {
		return nil
	}
	if col == dash {
		for _, s := range j.Steps {
			if s.Line > l {
				return s
			}
		}
		return nil
	}
	var in *Step
	for _, s := range j.Steps {
		if s.Line < l {
			in = s
		}
	}
	if in == nil {
		return j.Steps[0]
	}
	return in
}
