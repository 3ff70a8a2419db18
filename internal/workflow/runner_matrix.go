package workflow

import (
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gate-sdk/gates/internal/lazyre"
)

// exprRunsOn is RunnerOf's why for a runs-on holding an expression.
const exprRunsOn = "runs-on: is a GitHub expression"

// maxCombos bounds the matrix a job may expand to before it is read as
// unreadable (GitHub itself stops at 256 jobs a matrix).
const maxCombos = 4096

// combo is one matrix combination: each key's value, as a node.
type combo map[string]*yaml.Node

// StepRunner classifies the runner step s of job j runs on. It is
// RunnerOf's answer, except where runs-on is an expression: then the
// job's strategy.matrix is expanded (its keys' product, exclude: entries
// removed, include: entries added as GitHub adds them) and runs-on read
// for each combination, and the step's if: narrows the combinations (a
// conjunct on runner.os or on a matrix key). A runner.os conjunct pins
// the OS even where runs-on cannot be read at all.
func StepRunner(j *Job, s *Step) (Runner, string) { return stepRunnerIn(j, s, nil) }

// stepRunnerIn is StepRunner with the job's workflow_call inputs' values
// from its callers (nil when unknown).
func stepRunnerIn(j *Job, s *Step, inputs map[string][]string) (Runner, string) {
	r, why := runnerOfIn(j, inputs)
	switch {
	case r == Unreadable && why == exprRunsOn:
		return stepClass(j, stepIf(s), why)
	case r == Unreadable && why == callersMixed:
		// The callers pass Windows and other systems alike; a step whose
		// if: tests runner.os still runs on one side only.
		if pin := pinnedOS(stepIf(s)); pin != Unreadable {
			return pin, ""
		}
	}
	return r, why
}

// callersMixed is why a job's runs-on, an input its callers fill, is
// unreadable: they pass both Windows and other runners.
const callersMixed = "runs-on: takes Windows and non-Windows runners from the workflow's callers"

// stepClass answers the runner class of a job whose runs-on is an
// expression, for a step under its if: (nil: none, or not read).
func stepClass(j *Job, e *ifExpr, why string) (Runner, string) {
	combos, ok := matrixCombos(j)
	var classes []Runner
	admitted := 0
	if ok {
		for _, c := range combos {
			if !e.mayRunOn(c, Unreadable) {
				continue
			}
			admitted++
			cls, ok := comboRunner(j.RunsOn.Value, c)
			if !ok {
				classes = nil
				break
			}
			if e.mayRunOn(c, cls) {
				classes = append(classes, cls)
			}
		}
	}
	if ok && len(combos) > 0 && admitted == 0 {
		// The step's if: admits no combination the matrix makes (a
		// macos-latest step in a Linux and Windows matrix): it runs on no
		// runner, so no shell is in question.
		return NonWindows, ""
	}
	if len(classes) == 0 {
		// No matrix reading: only the if:'s test of runner.os can say.
		switch pinnedOS(e) {
		case NonWindows:
			return NonWindows, ""
		case Windows:
			return Windows, ""
		}
		return Unreadable, why
	}
	win, other := false, false
	for _, c := range classes {
		win = win || c == Windows
		other = other || c == NonWindows
	}
	switch {
	case win && other:
		return Unreadable, "runs-on: takes Windows and non-Windows runners from the matrix"
	case win:
		return Windows, ""
	}
	return NonWindows, ""
}

// StepPinsWindows reports whether a step's own if: is what confines it to
// Windows: a test of runner.os admitting Windows alone, or matrix tests
// that leave only Windows combinations of a job whose matrix also runs
// elsewhere. Such a step was written for the Windows runner and its
// default shell.
func StepPinsWindows(j *Job, s *Step) bool { return stepPinsWindowsIn(j, s, nil) }

// stepPinsWindowsIn is StepPinsWindows with the job's workflow_call
// inputs' values from its callers (nil when unknown).
func stepPinsWindowsIn(j *Job, s *Step, inputs map[string][]string) bool {
	e := stepIf(s)
	if e == nil {
		return false
	}
	if pinnedOS(e) == Windows {
		return true
	}
	r, why := runnerOfIn(j, inputs)
	if r != Unreadable || why != exprRunsOn {
		return false
	}
	if c, _ := stepClass(j, e, why); c != Windows {
		return false
	}
	c, _ := stepClass(j, nil, why)
	return c != Windows
}

// matrixCombos expands the job's strategy.matrix; ok is false when it
// cannot be read (an expression anywhere in it, a key whose value is not a
// list, or more than maxCombos combinations).
func matrixCombos(j *Job) ([]combo, bool) {
	st := Child(j.Node, "strategy")
	if st == nil {
		return nil, false
	}
	me := Child(st.Value, "matrix")
	if me == nil {
		return nil, false
	}
	m := resolve(me.Value)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, false
	}
	hasExpr := func(n *yaml.Node) bool {
		expr := false
		Scalars(n, func(n *yaml.Node) {
			if _, named := namedSystem(n.Value); !named {
				expr = expr || strings.Contains(n.Value, "${{")
			}
		})
		return expr
	}
	var keys []string
	values := map[string][]*yaml.Node{}
	var include, exclude []*yaml.Node
	for _, e := range entries(m) {
		if e.Key != "exclude" && hasExpr(e.Value) {
			return nil, false
		}
		switch e.Key {
		case "include":
			include = items(e.Value)
		case "exclude":
			// An exclude: entry holding an expression may drop some
			// combinations or none: it is passed over, so the reading
			// keeps every combination it might have dropped (a superset
			// of what runs, the side that still reports a Windows one).
			for _, ex := range items(e.Value) {
				if !hasExpr(ex) {
					exclude = append(exclude, ex)
				}
			}
		default:
			v := resolve(e.Value)
			if v == nil || v.Kind != yaml.SequenceNode {
				return nil, false
			}
			keys = append(keys, e.Key)
			values[e.Key] = items(v)
		}
	}
	combos := []combo{}
	if len(keys) > 0 {
		combos = []combo{{}}
		for _, k := range keys {
			var next []combo
			for _, c := range combos {
				for _, v := range values[k] {
					d := combo{}
					for kk, vv := range c {
						d[kk] = vv
					}
					d[k] = v
					next = append(next, d)
				}
			}
			if len(next) > maxCombos {
				return nil, false
			}
			combos = next
		}
	}
	// exclude: drop every combination matching all of an entry's keys.
	for _, ex := range exclude {
		want := mapOf(ex)
		kept := combos[:0]
		for _, c := range combos {
			if !c.matches(want) {
				kept = append(kept, c)
			}
		}
		combos = kept
	}
	// include: an entry extends each original combination whose original
	// keys it does not contradict; one that extends none is a
	// combination of its own.
	original := map[string]bool{}
	for _, k := range keys {
		original[k] = true
	}
	n := len(combos)
	for _, in := range include {
		add := mapOf(in)
		hit := false
		for i := 0; i < n; i++ {
			c := combos[i]
			fits := true
			for k, v := range add {
				if original[k] && canon(c[k]) != canon(v) {
					fits = false
					break
				}
			}
			if fits {
				for k, v := range add {
					c[k] = v
				}
				hit = true
			}
		}
		if !hit {
			combos = append(combos, add)
		}
	}
	return combos, len(combos) > 0
}

// mapOf answers a mapping node's entries as a combination.
func mapOf(n *yaml.Node) combo {
	out := combo{}
	for _, e := range entries(n) {
		out[e.Key] = e.Value
	}
	return out
}

// matches reports every key of want equal in c.
func (c combo) matches(want combo) bool {
	for k, v := range want {
		if canon(c[k]) != canon(v) {
			return false
		}
	}
	return true
}

// canon renders a node as comparable text: a scalar its value, a
// collection its members in order (a mapping's keys sorted).
func canon(n *yaml.Node) string {
	n = resolve(n)
	if n == nil {
		return "\x00"
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return n.Value
	case yaml.SequenceNode:
		var b strings.Builder
		b.WriteString("[")
		for _, it := range items(n) {
			b.WriteString(canon(it) + ",")
		}
		return b.String() + "]"
	case yaml.MappingNode:
		es := entries(n)
		parts := make([]string, 0, len(es))
		for _, e := range es {
			parts = append(parts, e.Key+":"+canon(e.Value))
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ",") + "}"
	}
	return "\x00"
}

// lookup answers the value at a dotted matrix path (os, platform.runner).
func (c combo) lookup(path string) (*yaml.Node, bool) {
	parts := strings.Split(path, ".")
	n, ok := c[parts[0]]
	if !ok {
		return nil, false
	}
	for _, p := range parts[1:] {
		e := Child(n, p)
		if e == nil {
			return nil, false
		}
		n = e.Value
	}
	n = resolve(n)
	return n, n != nil
}

// matrixRef is one ${{ matrix.<path> }} expression.
var matrixRef = lazyre.New(`\$\{\{\s*matrix\.([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\s*\}\}`)

// comboRunner reads runs-on under one combination: each matrix reference
// replaced by its value; ok is false when another expression remains or a
// reference has no scalar value.
func comboRunner(runsOn *yaml.Node, c combo) (Runner, bool) {
	var labels []string
	ok := true
	sub := func(s string) string {
		out := matrixRef.Get().ReplaceAllStringFunc(s, func(m string) string {
			path := matrixRef.Get().FindStringSubmatch(m)[1]
			v, found := c.lookup(path)
			if !found || v.Kind != yaml.ScalarNode {
				ok = false
				return ""
			}
			return v.Value
		})
		if r, named := namedSystem(out); named {
			// A matrix value naming its system by a variable's name.
			if r == Windows {
				return "windows-latest"
			}
			return "ubuntu-latest"
		}
		if strings.Contains(out, "${{") {
			ok = false
		}
		return strings.TrimSpace(out)
	}
	n := resolve(runsOn)
	if n != nil && n.Kind == yaml.MappingNode {
		if l := Child(n, "labels"); l != nil {
			n = resolve(l.Value)
		} else {
			n = nil
		}
	}
	switch {
	case n == nil:
	case n.Kind == yaml.ScalarNode:
		// A whole-value reference to a list names its labels.
		if m := matrixRef.Get().FindStringSubmatch(n.Value); m != nil && strings.TrimSpace(n.Value) == m[0] {
			if v, found := c.lookup(m[1]); found && v.Kind == yaml.SequenceNode {
				for _, it := range items(v) {
					labels = append(labels, sub(it.Value))
				}
				break
			}
		}
		labels = append(labels, sub(n.Value))
	case n.Kind == yaml.SequenceNode:
		for _, it := range items(n) {
			if it.Kind == yaml.ScalarNode && it.Tag != "!!null" {
				labels = append(labels, sub(it.Value))
			}
		}
	}
	if !ok {
		// assertion V: a whole expression over the combination's values
		// (matrix.os || 'ubuntu-latest', format('{0}-{1}', matrix.os,
		// matrix.arch)) is evaluated, and read when its labels agree.
		if n != nil && n.Kind == yaml.ScalarNode {
			if r, ok := exprRunner(n.Value, ifEnv{matrix: c}); ok {
				return r, true
			}
		}
		return Unreadable, false
	}
	any := false
	for _, l := range labels {
		if l == "" {
			continue
		}
		any = true
		if windowsLabel(l) {
			return Windows, true
		}
	}
	return NonWindows, any
}

// stepIf parses the step's if: (nil when it has none or it is not read).
func stepIf(s *Step) *ifExpr {
	v, ok := scalar(Child(s.Node, "if"))
	if !ok {
		return nil
	}
	return parseIf(v)
}

// pinnedOS answers the runner class the if: leaves whatever the matrix
// holds, or Unreadable when it leaves both (or says nothing of the OS).
func pinnedOS(e *ifExpr) Runner {
	win := e.mayRunOn(nil, Windows)
	other := e.mayRunOn(nil, NonWindows)
	switch {
	case win && !other:
		return Windows
	case other && !win:
		return NonWindows
	}
	return Unreadable
}
