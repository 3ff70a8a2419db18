package workflow

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gate-sdk/gates/internal/lazyre"
)

// WalkOptions are the caller's parameters of the job walk.
type WalkOptions struct {
	// Marker is the exemption marker's spelling without '#' and ':', e.g.
	// "gh-repo-exempt"; empty reads no marker.
	Marker string
	// Words asks for word events: each listed word spelled on a run: body
	// line, and each step's uses: ref. None asks for neither.
	Words []string
}

// Event is a walk event: the line it was read on and the index of the step
// it belongs to (order within a job is step order, which a one-line flow
// workflow keeps and its line numbers do not).
type Event struct {
	Line int
	Step int
	Text string
}

// JobWalk is what the walk read of one job. Evidence from a step its
// marker binds is dropped; a job its marker binds is Exempt and carries
// nothing else.
type JobWalk struct {
	Job        *Job
	Exempt     bool
	ExemptLine int

	Calls     []Call  // gh invocations in command position
	StepRepo  []bool  // per call: GH_REPO in the calling step's env:
	CallOther []bool  // per call: gh runs on another token than the GitHub token
	Checkouts []Event // uses: actions/checkout steps
	TokenRef  bool    // the GitHub token named in the job
	GHRepoJob bool    // GH_REPO in the job's env:

	// CheckoutOther, per checkout: it is handed another token as token:.
	CheckoutOther []bool

	Uses  []Event // with Words: each live step's uses: ref
	Words []Event // with Words: each listed word spelled on a body line
}

// Walked is one workflow's walk.
type Walked struct {
	File           *File
	GHRepoWorkflow bool  // GH_REPO in the workflow's env:
	Bare           []int // lines of markers with no reason
	Dangling       []int // lines of markers that precede no step and no job
	Jobs           []*JobWalk
}

// Walk runs the job walk over a workflow file. It refuses nothing: every
// run: form is read, and every ambiguity leans toward detecting.
func Walk(f *File, opt WalkOptions) *Walked {
	w := &Walked{File: f, GHRepoWorkflow: hasKey(EnvKeys(f.Env), "GH_REPO")}
	exJob := map[*Job]int{}
	exStep := map[*Step]bool{}
	if opt.Marker != "" {
		w.Bare, w.Dangling = bindMarkers(f, opt.Marker, exJob, exStep)
	}
	for _, j := range f.Jobs {
		jw := &JobWalk{Job: j}
		w.Jobs = append(w.Jobs, jw)
		if l, ok := exJob[j]; ok {
			jw.Exempt, jw.ExemptLine = true, l
			continue
		}
		jw.GHRepoJob = hasKey(EnvKeys(j.Env), "GH_REPO")
		login := "" // the token an earlier step's gh auth login stored
		for _, s := range j.Steps {
			if exStep[s] {
				continue
			}
			if s.Uses != nil {
				ref := UsesRef(s.Uses)
				if IsCheckout(ref) {
					jw.Checkouts = append(jw.Checkouts, Event{s.Uses.Line, s.Index, ref})
					jw.CheckoutOther = append(jw.CheckoutOther, checkoutOnOtherToken(s))
				}
				if len(opt.Words) > 0 {
					jw.Uses = append(jw.Uses, Event{s.Uses.Line, s.Index, ref})
				}
			}
			if s.Run == nil {
				continue
			}
			stepRepo := hasKey(EnvKeys(s.Env), "GH_REPO")
			other := ghOnOtherToken(f, j, s)
			_, envSet := ghEnvToken(f, j, s)
			exported := "" // a token the body exported before the call
			if !envSet && login != "" {
				// gh reads the token a login stored when no GH_TOKEN or
				// GITHUB_TOKEN is set.
				other = OtherToken(login)
			}
			body := BodyLines(f, s.Run)
			// A folded block's lines come from BodyLines already joined
			// where YAML folds them (a trailing backslash each), so the
			// logical lines are the commands GitHub runs.
			logicals := joinLogical(body)
			urls := URLVars(f, j, s)
			for _, l := range logicals {
				if v, ok := loginToken(f, j, s, l.text); ok && !envSet {
					// assertion F: gh auth login --with-token stores the
					// token it reads for this call and every later one the
					// environment does not override.
					login, other, exported = v, OtherToken(v), ""
				}
				calls, toks := ghCallsTok(l, urls)
				for k, c := range calls {
					c.Step = s.Index
					jw.Calls = append(jw.Calls, c)
					jw.StepRepo = append(jw.StepRepo, stepRepo)
					switch {
					case toks[k] != "":
						jw.CallOther = append(jw.CallOther, OtherToken(toks[k]))
					case exported != "":
						jw.CallOther = append(jw.CallOther, OtherToken(exported))
					default:
						jw.CallOther = append(jw.CallOther, other)
					}
				}
				if v, ok := exportedToken(l.text); ok {
					exported = v
				}
			}
			if len(opt.Words) > 0 {
				for _, ln := range body {
					if strings.HasPrefix(strings.TrimLeft(ln.Text, " \t"), "#") {
						continue
					}
					for _, word := range wordsOn(ln.Text, opt.Words) {
						jw.Words = append(jw.Words, Event{ln.N, s.Index, word})
					}
				}
			}
		}
		jw.TokenRef = tokenRef(f, j, exStep)
	}
	return w
}

// BodyLines answers a run: value's lines as the walk reads them: a literal
// block's lines as written, cut from the source; a folded block's source
// lines too, each one the fold joins to the next ending in a backslash, so
// the walk's line joining reads the one command GitHub runs while every
// word keeps its own line; any other scalar as the parser decoded it, each
// of its lines placed on the value's line. An alias reads as the value it
// names, where that was written.
func BodyLines(f *File, e *Entry) []Line {
	n := e.Value
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return nil
	}
	var out []Line
	if n.Style&yaml.FoldedStyle != 0 {
		if d, ok := f.decodeBlock(n, f.floorOf(e)); ok {
			for i := range d.lines {
				sg := d.segs[i]
				for k, s := range sg {
					text := f.Text(s.Line)
					if k+1 < len(sg) {
						text += `\`
					}
					out = append(out, Line{s.Line, text})
				}
			}
			return out
		}
	}
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		floor := f.floorOf(e)
		end := f.scalarEnd(n, floor)
		for l := n.Line + 1; l <= end; l++ {
			out = append(out, Line{l, f.Text(l)})
		}
		f.visit(end - n.Line)
		return out
	}
	for _, t := range strings.Split(n.Value, "\n") {
		out = append(out, Line{n.Line, t})
	}
	return out
}

// tokenRef reports the GitHub token named in the job: in any key or value
// of its tree (aliases followed), or on a full-line comment of its extent,
// outside the steps a marker binds.
func tokenRef(f *File, j *Job, exStep map[*Step]bool) bool {
	for _, s := range j.Steps {
		if exStep[s] {
			return scanTokenRef(f, j, exStep)
		}
	}
	// No step exempt: the answer is the job's alone, whichever marker the
	// walk reads, so the Actions gates that walk one file share it.
	j.tokenOnce.Do(func() { j.tokenAll = scanTokenRef(f, j, nil) })
	return j.tokenAll
}

// scanTokenRef is tokenRef read off the job's tree and comments.
func scanTokenRef(f *File, j *Job, exStep map[*Step]bool) bool {
	found := false
	check := func(n *yaml.Node) { found = found || HasTokenRef(n.Value) }
	if j.Node != nil {
		if m := resolve(j.Node); m != nil && m.Kind == yaml.MappingNode {
			for _, e := range entries(m) {
				found = found || HasTokenRef(e.Key)
				if e.Key == "steps" {
					for _, s := range j.Steps {
						if !exStep[s] {
							Scalars(s.Node, check)
						}
					}
					continue
				}
				Scalars(e.Value, check)
			}
		} else {
			Scalars(j.Node, check)
		}
	}
	for l := j.Line; l <= j.End && !found; l++ {
		if f.IsComment(l) && !inExemptStep(j, l, exStep) && HasTokenRef(f.Text(l)) {
			found = true
		}
	}
	return found
}

func inExemptStep(j *Job, l int, exStep map[*Step]bool) bool {
	for _, s := range j.Steps {
		if exStep[s] && l >= s.Line && l <= s.End {
			return true
		}
	}
	return false
}

// tokenPat matches the GitHub token's spellings: the dotted
// secrets.GITHUB_TOKEN and github.token, and the index forms
// secrets['GITHUB_TOKEN'] and github['token'] (either quote, blanks
// inside the brackets), in any letter case, as whole names.
var tokenPat = lazyre.New(`(?i)(?:^|[^A-Za-z0-9_.])(?:secrets(?:\.github_token|\s*\[\s*['"]github_token['"]\s*\])|github(?:\.token|\s*\[\s*['"]token['"]\s*\]))(?:$|[^A-Za-z0-9_])`)

// HasTokenRef reports the GitHub token spelled on a line: tokenPat's
// language, matched by hand on ASCII lines (most keys and values of a
// workflow, where the expression was a fifth of the Actions gates' time);
// a line with a byte outside ASCII goes to the expression, whose case
// folding also takes the long s for s and the Kelvin sign for k.
func HasTokenRef(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return tokenPat.Get().MatchString(s)
		}
	}
	for i := 0; i < len(s); i++ {
		if i > 0 && (nameByte(s[i-1]) || s[i-1] == '.') {
			continue
		}
		var rest string
		var ok bool
		switch {
		case foldPrefix(s[i:], "secrets"):
			rest, ok = tokenTail(s[i+len("secrets"):], "github_token")
		case foldPrefix(s[i:], "github"):
			rest, ok = tokenTail(s[i+len("github"):], "token")
		}
		if ok && (rest == "" || !nameByte(rest[0])) {
			return true
		}
	}
	return false
}

// tokenTail matches, at the start of s, `.name` or `[ 'name' ]` (either
// quote, blanks inside the brackets), name in any ASCII letter case, and
// answers what follows; ok false when neither is there.
func tokenTail(s, name string) (rest string, ok bool) {
	if len(s) > 0 && s[0] == '.' && foldPrefix(s[1:], name) {
		return s[1+len(name):], true
	}
	s = trimRESpace(s)
	if len(s) == 0 || s[0] != '[' {
		return "", false
	}
	s = trimRESpace(s[1:])
	if len(s) == 0 || (s[0] != '\'' && s[0] != '"') || !foldPrefix(s[1:], name) {
		return "", false
	}
	s = s[1+len(name):]
	if len(s) == 0 || (s[0] != '\'' && s[0] != '"') {
		return "", false
	}
	s = trimRESpace(s[1:])
	if len(s) == 0 || s[0] != ']' {
		return "", false
	}
	return s[1:], true
}

// trimRESpace drops leading \s as RE2 reads it: tab, newline, form feed,
// carriage return, space (not vertical tab).
func trimRESpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t' || s[0] == '\n' || s[0] == '\f' || s[0] == '\r') {
		s = s[1:]
	}
	return s
}

// foldPrefix reports s starting with the lower-case ASCII word w in any
// ASCII letter case.
func foldPrefix(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

// nameByte is [A-Za-z0-9_], the pattern's name bytes.
func nameByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
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

// bindMarkers binds each marker in the file to what it precedes, read on
// the next line holding content: a step's first line binds that step; a
// line inside a step (the marker sits among its keys) binds that step; a
// job id at or right of the marker's column, or one of a job's own keys,
// binds that job. Anything else (a marker after a job's last step, before
// a top-level key, at the end of the file) binds nothing and is answered
// as dangling, as is a marker with no reason as bare.
func bindMarkers(f *File, marker string, exJob map[*Job]int, exStep map[*Step]bool) (bare, dangling []int) {
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
		next := l + 1
		for next <= f.Lines() && (f.lines[next-1].blank || f.IsComment(next)) {
			next++
		}
		if !bindAt(f, l, next, exJob, exStep) {
			dangling = append(dangling, l)
		}
	}
	return bare, dangling
}

// bindAt binds the marker on line l to what line next holds, and reports
// whether anything was bound.
func bindAt(f *File, l, next int, exJob map[*Job]int, exStep map[*Step]bool) bool {
	col := f.Indent(l)
	for _, j := range f.Jobs {
		if next == j.Line && col <= j.Col-1 {
			if _, done := exJob[j]; !done {
				exJob[j] = l
			}
			return true
		}
	}
	for _, j := range f.Jobs {
		if l <= j.Line || l > j.End {
			continue
		}
		for _, s := range j.Steps {
			if next == s.Line || next > s.Line && next <= s.End && l > s.Line {
				exStep[s] = true
				return true
			}
		}
		if jobKeyLine(j, next) {
			if _, done := exJob[j]; !done {
				exJob[j] = l
			}
			return true
		}
		return false
	}
	return false
}

// jobKeyLine reports whether line n holds one of job j's own keys.
func jobKeyLine(j *Job, n int) bool {
	for _, e := range entries(j.Node) {
		if e.Line == n {
			return true
		}
	}
	return false
}
