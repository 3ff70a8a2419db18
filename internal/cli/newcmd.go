package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
	"github.com/gate-sdk/gates/kits"
)

const newUsage = `usage: gates new <name>

Scaffolds a gate of this repository's own, named check-<name> (the prefix
is added when the name lacks it), from the kit's skeleton:

  <gates-dir>/check-<name>.sh                  the gate: the skeleton's
                                               fail-closed walk and a
                                               placeholder rule, with its
                                               # graph: manifest explained
  <tests-dir>/check-<name>/good/               a case the rule passes
  <tests-dir>/check-<name>/bad/ + expect.txt   a case it reds, and the
                                               whole lines it must print
  <gates-dir>/gates.list                       the registration line

The gates dir is GATE_SDK_GATES_DIR, the tests dir GATE_SDK_TESTS_DIR
(where gates --run-gate-tests looks without an operand). The scaffold
passes its own pair as written; then write your rule and your cases.
It refuses a name any gate already answers to, and writes nothing when
any of its files exists.`

// gateNameRe is a gate name gates new writes: check- and lowercase words.
var gateNameRe = regexp.MustCompile(`^check-[a-z0-9]+(-[a-z0-9]+)*$`)

// skeletonPath is the skeleton inside the core kit's tree.
const skeletonPath = "templates/check-skeleton.sh"

// runNew is `gates new <name>`.
func runNew(s *Session, args []string) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		return s.fail(usageError{msg: newUsage})
	}
	name := args[0]
	if !strings.HasPrefix(name, "check-") {
		name = "check-" + name
	}
	if !gateNameRe.MatchString(name) {
		return s.fail(refusal{msg: fmt.Sprintf("%s: new: %q is not a gate name: check- followed by lowercase letters, digits and single dashes", s.prog, args[0])})
	}
	if _, err := s.Top(); err != nil {
		return s.fail(err)
	}
	cwd, err := s.Cwd()
	if err != nil {
		return s.fail(err)
	}
	gatesDir, err := s.GatesDir()
	if err != nil {
		return s.fail(err)
	}
	set, err := s.Knobs()
	if err != nil {
		return s.fail(err)
	}
	testsDir, err := set.Scalar("GATE_SDK_TESTS_DIR")
	if err != nil {
		return s.fail(err)
	}
	list := registry.ListPath(gatesDir)
	listData, err := walk.ReadConfig(walk.AbsAgainst(cwd, list))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return s.fail(refusal{msg: fmt.Sprintf("%s: new: no registry at %s; run gates init first (it writes the registry and vendors the kit)", s.prog, list)})
		}
		return s.fail(err)
	}
	// assertion A: a name another gate answers to is refused.
	if _, ok := findGate(name); ok {
		return s.fail(refusal{msg: fmt.Sprintf("%s: new: %s is a gate this binary carries; pick another name", s.prog, name)})
	}
	roots, err := s.KitRoots()
	if err != nil {
		return s.fail(err)
	}
	for _, d := range registry.SearchDirs(gatesDir, roots.Paths()) {
		for _, ext := range []string{".sh", ".gate"} {
			p := registry.Join(d, name+ext)
			if _, err := os.Stat(walk.AbsAgainst(cwd, p)); err == nil {
				return s.fail(refusal{msg: fmt.Sprintf("%s: new: %s already declares %s; pick another name", s.prog, p, name)})
			}
		}
	}
	for _, line := range strings.Split(string(listData), "\n") {
		if strings.TrimSpace(line) == name {
			return s.fail(refusal{msg: fmt.Sprintf("%s: new: %s already registers %s, though no file declares it; pick another name or drop that line", s.prog, list, name)})
		}
	}
	skeleton, err := kitFile(skeletonPath)
	if err != nil {
		return s.fail(err)
	}
	gatePath := registry.Join(gatesDir, name+".sh")
	body, err := scaffoldGate(string(skeleton), name, gatePath, registry.Join(testsDir, name))
	if err != nil {
		return s.fail(err)
	}
	pair := registry.Join(testsDir, name)
	files := []struct {
		path, body string
		mode       os.FileMode
	}{
		{gatePath, body, 0o755},
		{pair + "/good/notes.md", "# Notes\n\nEverything here is written out.\n", 0o644},
		{pair + "/bad/notes.md", "# Notes\n\n" + placeholderMarker + ": fill this in\n", 0o644},
		// assertion B: expect.txt holds the whole lines the placeholder rule prints.
		{pair + "/bad/expect.txt", "./notes.md:3: placeholder marker left in the text\nhelp: replace each placeholder marker with the text it stands for\n", 0o644},
	}
	// assertion C: nothing is written when any target exists.
	for _, f := range files {
		if _, err := os.Lstat(walk.AbsAgainst(cwd, f.path)); err == nil {
			return s.fail(refusal{msg: fmt.Sprintf("%s: new: %s exists; gates new writes only new files (move it aside or pick another name)", s.prog, f.path)})
		}
	}
	if _, err := os.Lstat(walk.AbsAgainst(cwd, pair)); err == nil {
		return s.fail(refusal{msg: fmt.Sprintf("%s: new: %s exists; gates new writes only new files (move it aside or pick another name)", s.prog, pair)})
	}
	for _, f := range files {
		abs := walk.AbsAgainst(cwd, f.path)
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return s.fail(err)
		}
		if err := os.WriteFile(abs, []byte(f.body), f.mode); err != nil {
			return s.fail(err)
		}
		fmt.Fprintf(s.Stdout, "new: wrote %s\n", f.path)
	}
	reg := string(listData)
	if reg != "" && !strings.HasSuffix(reg, "\n") {
		reg += "\n"
	}
	if err := os.WriteFile(walk.AbsAgainst(cwd, list), []byte(reg+name+"\n"), 0o644); err != nil {
		return s.fail(err)
	}
	fmt.Fprintf(s.Stdout, "new: registered %s in %s\n", name, list)
	fmt.Fprintf(s.Stdout, `
next:
  1. write the rule: the corpus (gate_find ... -name) and scan() in %s, and the
     # graph: couples= globs naming the files it reads; then your own cases in
     %s/good/ and bad/ (bad/expect.txt: whole output lines)
  2. bin/gates --run-gate-tests && bin/gates %s
  3. git add %s %s %s && git commit (the pre-commit hook runs the gate)
`, gatePath, pair, name, gatePath, pair, list)
	return 0
}

// placeholderMarker is the skeleton's placeholder rule's marker.
const placeholderMarker = "TODO-EXAMPLE"

// kitFile answers one file of the core kit as this binary carries it.
func kitFile(rel string) ([]byte, error) {
	files, err := kits.Tree(kits.Core)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if f.Path == rel {
			return f.Data, nil
		}
	}
	return nil, fmt.Errorf("this binary carries no %s/%s", kits.Core, rel)
}

// scaffoldGate turns the skeleton into gate name at gatePath: its header
// replaced by one that explains the manifest, the rest kept with the
// example name swapped for name.
func scaffoldGate(skeleton, name, gatePath, pair string) (string, error) {
	const bodyStart = "set -uo pipefail\n"
	i := strings.Index(skeleton, bodyStart)
	if i < 0 || !strings.Contains(skeleton, "GATE=check-example\n") || !strings.Contains(skeleton, placeholderMarker) {
		return "", fmt.Errorf("the skeleton %s/%s has not the shape gates new expects (set -uo pipefail, GATE=check-example, the placeholder rule)", kits.Core, skeletonPath)
	}
	body := strings.Replace(skeleton[i:], "GATE=check-example\n", "GATE="+name+"\n", 1)
	header := fmt.Sprintf(`#!/usr/bin/env bash
# %[1]s — no Markdown file keeps the skeleton's placeholder marker (replace this line with your invariant).
# graph: couples=*.md dir=one valve=none tier=precommit
# spec: %[2]s §scan — no Markdown file keeps the skeleton's placeholder marker
#
# Written by gates new. The # graph: line is this gate's manifest: the
# pre-commit hook, the battery and check-graph read it. Its fields:
#   couples=  comma-separated globs naming every file the rule reads; an
#             edit to a path one matches fires the gate at commit. '*' and
#             '?' match '/' too; a whole "**/" segment also matches no
#             directory, so docs/**/*.md matches docs/index.md. Also
#             kit:<glob> (under each vendored kit) and knob:<NAME> (the
#             paths a knob names).
#   dir=      one: the gate judges the coupled files; bi: they judge each
#             other both ways (a spec and the code it describes).
#   valve=    none; PROPOSED for a dir=bi gate that couples a leading and a
#             lagging surface (check-graph says when it is owed).
#   tier=     precommit: the hook and the battery run it; align-only: the
#             battery only; commit-msg: it judges the commit message.
#   trigger=  optional: globs that fire the gate instead of couples=.
#   mode=     optional: staged hands the gate the staged paths it selects.
# The # spec: line names where the rule is written and states it after the
# em dash; a red verdict prints it.
#
# Its fixture pair is %[3]s/{good,bad}/: good/ must print the clean line,
# bad/ must exit 1 and print every line of bad/expect.txt, each a whole
# output line. Run it with gates --run-gate-tests.
#
# The contract the runner and the fixture harness hold every gate to:
#   clean:     exactly one line `+"`"+`CHECK-<NAME>: clean (<what was checked>)`+"`"+`, exit 0
#   findings:  one `+"`"+`path:line: message`+"`"+` line each, then one `+"`"+`help:`+"`"+` line per
#              failure class naming the fix, exit 1
#   harness:   anything that kept the check from running, exit 2, never clean

`, name, gatePath, pair)
	return header + body, nil
}

// unregisteredHint answers, for a name a file in the gates directory
// declares but the registry does not list, how to register it; "" when
// that is not the case (or cannot be told).
func (s *Session) unregisteredHint(name string) string {
	if !gateNameRe.MatchString(name) {
		return ""
	}
	cwd, err := s.Cwd()
	if err != nil {
		return ""
	}
	gatesDir, err := s.GatesDir()
	if err != nil {
		return ""
	}
	for _, ext := range []string{".sh", ".gate"} {
		p := registry.Join(gatesDir, name+ext)
		if _, err := os.Stat(walk.AbsAgainst(cwd, p)); err != nil {
			continue
		}
		list := registry.ListPath(gatesDir)
		// assertion D: a declared but unregistered gate is told how to register.
		return fmt.Sprintf("%s: %s declares %s, but %s does not register it, so no hook or battery runs it; register it with\n  echo %s >> %s\n(gates new <name> scaffolds a gate registered from the start)", s.prog, p, name, list, name, list)
	}
	return ""
}
