// Package witness is --projection-witness's machinery: it holds each
// projection freshness gate's declared trigger against what the gate
// really reads, by perturbing a scratch copy of the tree outside the
// trigger and re-running the gate. A gate that turns red after such a
// perturbation read a file its manifest does not couple, so the hook
// would never re-run it when that file changes.
//
// The tree and the gate runs come in through the Tree and Runner
// interfaces, so a test drives the verdict logic over an in-memory tree
// with an injected gate; the arm supplies a scratch clone and spawns.
package witness

import (
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
)

// Tree is the scratch tree a witness perturbs.
type Tree interface {
	// Files answers the tracked paths, byte-sorted.
	Files() []string
	// Append adds one line to a tracked file; the returned func restores
	// its bytes.
	Append(p string) (restore func() error, err error)
	// Create writes and stages a new file; the returned func unstages and
	// removes it.
	Create(p string) (remove func() error, err error)
}

// Runner runs one gate over the scratch tree and answers its status and
// its output.
type Runner interface {
	Run(gate string) (code int, out []byte, err error)
}

// Member is one declaring freshness gate with the trigger the hook
// selects it by.
type Member struct {
	Name    string
	Selects func(path string) bool
}

// Class is the tracked files sharing a first path segment and an
// extension (a root file's segment is empty).
type Class struct {
	Segment, Ext string
	Files        []string
}

// Classes groups the files, in byte order of segment then extension.
func Classes(files []string) []Class {
	by := map[[2]string]*Class{}
	var keys [][2]string
	for _, f := range files {
		seg := ""
		if i := strings.IndexByte(f, '/'); i >= 0 {
			seg = f[:i]
		}
		k := [2]string{seg, path.Ext(f)}
		c := by[k]
		if c == nil {
			c = &Class{Segment: k[0], Ext: k[1]}
			by[k] = c
			keys = append(keys, k)
		}
		c.Files = append(c.Files, f)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	out := make([]Class, 0, len(keys))
	for _, k := range keys {
		c := by[k]
		sort.Strings(c.Files)
		out = append(out, *c)
	}
	return out
}

// Report is a witness run's outcome.
type Report struct {
	Members, Classes, Perturbations, Inert int
	Failures                               []string // WITNESS: FAIL lines
	EnvFailures                            []string // WITNESS: FAIL(env) lines
	InertLines                             []string // coupled but inert lines
}

// Code answers the arm's exit status: 2 for an environment failure, 1
// for a witnessed undeclared read, else 0.
func (r *Report) Code() int {
	switch {
	case len(r.EnvFailures) > 0:
		return 2
	case len(r.Failures) > 0:
		return 1
	}
	return 0
}

// Write prints the report: failures, inert couples, then the count line.
func (r *Report) Write(w io.Writer) {
	for _, l := range r.EnvFailures {
		fmt.Fprintln(w, l)
	}
	for _, l := range r.Failures {
		fmt.Fprintln(w, l)
	}
	for _, l := range r.InertLines {
		fmt.Fprintln(w, l)
	}
	if len(r.EnvFailures) == 0 {
		fmt.Fprintf(w, "WITNESS: %d projection %s, %d %s, %d %s, %d inert %s\n",
			r.Members, pl(r.Members, "gate", "gates"), r.Classes, pl(r.Classes, "class", "classes"),
			r.Perturbations, pl(r.Perturbations, "perturbation", "perturbations"), r.Inert, pl(r.Inert, "couple", "couples"))
	}
}

func pl(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// CreatedName is the file the create perturbation stages in a class.
func CreatedName(c Class) string {
	name := ".projection-witness" + c.Ext
	if c.Segment == "" {
		return name
	}
	return c.Segment + "/" + name
}

// Witness runs every member at baseline, then perturbs each class outside
// its trigger twice (an appended line, a created file) and once inside it.
func Witness(members []Member, tree Tree, run Runner) *Report {
	rep := &Report{Members: len(members)}
	classes := Classes(tree.Files())
	rep.Classes = len(classes)
	for _, m := range members {
		code, out, err := run.Run(m.Name)
		if err != nil {
			rep.EnvFailures = append(rep.EnvFailures, fmt.Sprintf("WITNESS: FAIL(env) %s: could not run: %v", m.Name, err))
			continue
		}
		if code != 0 {
			// assertion B: a projection stale at baseline cannot be witnessed.
			rep.EnvFailures = append(rep.EnvFailures, fmt.Sprintf("WITNESS: FAIL(env) %s is red before any perturbation: %s", m.Name, firstLine(out)))
			continue
		}
		for _, c := range classes {
			outside, inside := "", ""
			for _, f := range c.Files {
				if m.Selects(f) {
					if inside == "" {
						inside = f
					}
				} else if outside == "" {
					outside = f
				}
			}
			if outside != "" {
				rep.Perturbations++
				if msg, envErr := perturb(m.Name, run, func() (func() error, error) { return tree.Append(outside) }); envErr != "" {
					rep.EnvFailures = append(rep.EnvFailures, envErr)
				} else if msg != "" {
					// assertion A: red after an out-of-trigger edit is an undeclared read.
					rep.Failures = append(rep.Failures, fmt.Sprintf("WITNESS: FAIL %s edit %s: %s", m.Name, outside, msg))
				}
				if created := CreatedName(c); !m.Selects(created) {
					rep.Perturbations++
					if msg, envErr := perturb(m.Name, run, func() (func() error, error) { return tree.Create(created) }); envErr != "" {
						rep.EnvFailures = append(rep.EnvFailures, envErr)
					} else if msg != "" {
						rep.Failures = append(rep.Failures, fmt.Sprintf("WITNESS: FAIL %s create %s: %s", m.Name, created, msg))
					}
				}
			}
			if inside != "" {
				rep.Perturbations++
				msg, envErr := perturb(m.Name, run, func() (func() error, error) { return tree.Append(inside) })
				switch {
				case envErr != "":
					rep.EnvFailures = append(rep.EnvFailures, envErr)
				case msg == "":
					// assertion C: a coupled file whose edit leaves the gate green is reported, never red.
					rep.Inert++
					rep.InertLines = append(rep.InertLines, fmt.Sprintf("coupled but inert: %s %s", m.Name, inside))
				}
			}
		}
	}
	return rep
}

// perturb applies one change, runs the gate and undoes the change. msg is
// the gate's first red line when it turned red; envErr reports a
// perturbation or a run that could not happen.
func perturb(gate string, run Runner, apply func() (func() error, error)) (msg, envErr string) {
	undo, err := apply()
	if err != nil {
		return "", fmt.Sprintf("WITNESS: FAIL(env) %s: cannot perturb the scratch tree: %v", gate, err)
	}
	code, out, rerr := run.Run(gate)
	if err := undo(); err != nil {
		return "", fmt.Sprintf("WITNESS: FAIL(env) %s: cannot restore the scratch tree: %v", gate, err)
	}
	if rerr != nil {
		return "", fmt.Sprintf("WITNESS: FAIL(env) %s: could not run: %v", gate, rerr)
	}
	if code == 0 {
		return "", ""
	}
	return firstLine(out), ""
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return "(no output)"
	}
	return s
}
