// Package gatetest builds in-memory run contexts for unit tests of rule
// functions: a map-backed tree, map-backed knobs and captured output.
package gatetest

import (
	"bytes"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
)

// Tree is a map-backed gate.Tree. Modes default to 0o100644.
type Tree struct {
	Data  map[string]string
	Modes map[string]uint32
}

// Files answers the tracked paths in sorted order.
func (t *Tree) Files() ([]string, error) {
	out := make([]string, 0, len(t.Data))
	for p := range t.Data {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// Read answers a file's bytes.
func (t *Tree) Read(p string) ([]byte, error) {
	s, ok := t.Data[p]
	if !ok {
		return nil, fmt.Errorf("read %s: %w", p, fs.ErrNotExist)
	}
	return []byte(s), nil
}

// Mode answers a tracked path's index mode.
func (t *Tree) Mode(p string) (uint32, bool) {
	if _, ok := t.Data[p]; !ok {
		return 0, false
	}
	if m, ok := t.Modes[p]; ok {
		return m, true
	}
	return 0o100644, true
}

// Knobs is a map-backed gate.Knobs: scalars as given, indexed knobs as
// tab-separated wire values. A name absent from the map answers "".
type Knobs map[string]string

// Scalar answers the value.
func (k Knobs) Scalar(name string) (string, error) { return k[name], nil }

// Words splits the value on blanks.
func (k Knobs) Words(name string) ([]string, error) { return strings.Fields(k[name]), nil }

// List splits the wire value on tabs.
func (k Knobs) List(name string) ([]string, error) {
	if k[name] == "" {
		return nil, nil
	}
	return strings.Split(k[name], "\t"), nil
}

// Run is a finished rule run.
type Run struct {
	Code   int
	Stdout string
	Stderr string
	Ctx    *gate.Context
}

// Exec runs rule over tree and knobs with args, in directory dir, with no
// scratch directory.
func Exec(rule gate.Rule, name, dir string, tree gate.Tree, knobs gate.Knobs, env map[string]string, args ...string) Run {
	return ExecScratch(rule, name, dir, "", tree, knobs, env, args...)
}

// ExecScratch is Exec with scratch as the rule's scratch directory.
func ExecScratch(rule gate.Rule, name, dir, scratch string, tree gate.Tree, knobs gate.Knobs, env map[string]string, args ...string) Run {
	var out, errb bytes.Buffer
	c := &gate.Context{
		Name:     name,
		Args:     args,
		Dir:      dir,
		GatesDir: "scripts",
		Scratch:  scratch,
		Env:      func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Knobs:    knobs,
		Tree:     tree,
		Out:      &out,
		Err:      &errb,
	}
	code := rule(c)
	return Run{Code: code, Stdout: out.String(), Stderr: errb.String(), Ctx: c}
}
