package gates

import (
	"io"
	"os"
	"path"
	"sort"
	"strings"
	"syscall"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/walk"
	"github.com/gate-sdk/gates/internal/workflow"
)

// sourceLine matches a source or . command up to its operand.
var sourceLine = lazyre.New(`(?:^|[;&|({]|\bthen|\bdo|\belse)\s*(?:source|\.)\s+`)

// sourceOperands answers the operand of each source or . command on line
// l with its quotes dropped: one shell word, read through quotes and
// $(…) (source "$(dirname "$0")/lib.sh" is one word).
func sourceOperands(l string) []string {
	var ops []string
	for _, loc := range sourceLine.Get().FindAllStringIndex(l, -1) {
		if w := workflow.ShellWords(l[loc[1]:]); len(w) > 0 && w[0] != "" {
			ops = append(ops, w[0])
		}
	}
	return ops
}

// sourcers holds, per base name of a sourced file, what the scripts that
// source it by that name assign before the source command and read
// anywhere: a library's names set or read by the script that includes it
// through a path ShellCheck cannot follow ($here/lib.sh).
type sourcers struct {
	sets  map[string]map[string]bool // base name -> names assigned before a source of it
	reads map[string]map[string]bool // base name -> names the sourcing scripts expand
	// errexit: base name -> every source of it comes after a set -e of
	// its sourcing script.
	errexit map[string]bool
	// by: base name -> base names of the scripts that source it, so a
	// library a library pulls in answers to their sourcers too.
	by map[string]map[string]bool
}

// errexitLine matches a line turning on errexit: set -e (in any cluster
// of short options, as set -eu or set -euo pipefail) or set -o errexit.
var errexitLine = lazyre.New(`(?:^|[;&|]\s*)\s*set\s+(?:-[a-zA-Z]*e[a-zA-Z]*\b|-o\s+errexit\b)`)

// readSourcers reads every target's source commands.
func readSourcers(texts map[string][]byte) sourcers {
	s := sourcers{sets: map[string]map[string]bool{}, reads: map[string]map[string]bool{}, errexit: map[string]bool{}, by: map[string]map[string]bool{}}
	for p, text := range texts {
		var read map[string]bool    // the script's expansions, read once it sources
		before := map[string]bool{} // names assigned on the lines read so far
		errexit := false            // a set -e was read (at the top level or not)
		for _, l := range strings.Split(string(text), "\n") {
			if errexitLine.Get().MatchString(l) {
				errexit = true
			}
			for _, op := range sourceOperands(l) {
				base := path.Base(op)
				if base == "." || base == "/" || strings.ContainsAny(base, "$`*?[") {
					continue
				}
				if read == nil {
					read = map[string]bool{}
					for _, x := range expansion.Get().FindAllStringSubmatch(string(text), -1) {
						read[x[1]] = true
					}
				}
				if s.sets[base] == nil {
					s.sets[base], s.reads[base] = map[string]bool{}, map[string]bool{}
					s.errexit[base] = errexit
				}
				s.errexit[base] = s.errexit[base] && errexit
				if s.by[base] == nil {
					s.by[base] = map[string]bool{}
				}
				s.by[base][path.Base(p)] = true
				for n := range before {
					s.sets[base][n] = true
				}
				for n := range read {
					s.reads[base][n] = true
				}
			}
			for _, a := range assignment.Get().FindAllStringSubmatch(l, -1) {
				before[a[1]] = true
			}
		}
	}
	return s
}

// sourcedUnderErrexit reports whether target is sourced, by its name, only
// by scripts that turned errexit on first: a failing cd in it ends the
// run, as set -e in the library itself would make ShellCheck see.
func (s sourcers) sourcedUnderErrexit(target string) bool {
	return s.errexit[path.Base(target)]
}

// sourcedName reports a report on a library's name that a script sourcing
// the library deals with: SC2034 on a name a sourcer reads, SC2154 on one
// a sourcer sets before sourcing it.
func (s sourcers) sourcedName(target, text string) bool {
	name, unused := unusedNameOf(text)
	if !unused {
		var ok bool
		if name, ok = unassignedName(text); !ok {
			return false
		}
	}
	// The library's sourcers, and theirs in turn (a test sourcing a
	// common library that sources the hashes the test reads), four deep.
	level := map[string]bool{path.Base(target): true}
	seen := map[string]bool{}
	for depth := 0; depth < 4 && len(level) > 0; depth++ {
		next := map[string]bool{}
		for base := range level {
			if seen[base] {
				continue
			}
			seen[base] = true
			if unused && s.reads[base][name] || !unused && s.sets[base][name] {
				return true
			}
			for up := range s.by[base] {
				next[up] = true
			}
		}
		level = next
	}
	return false
}

// sourcedLibraries answers the tracked regular files the targets source
// by a literal operand (looked up from the script's directory, as
// --source-path=SCRIPTDIR does, and from the top) that are no target
// themselves: a library kept outside the linted dirs (third_party/,
// say). ShellCheck follows a sourced file only when it is one of its
// inputs; given them, it sees what the library reads and sets.
func sourcedLibraries(c *gate.Context, targets []string, texts map[string][]byte) []string {
	isTarget := map[string]bool{}
	for _, t := range targets {
		isTarget[t] = true
	}
	found := map[string]bool{}
	for _, t := range targets {
		for _, l := range strings.Split(string(texts[t]), "\n") {
			for _, op := range sourceOperands(l) {
				if op == "" || walk.PathRoot(op) || strings.ContainsAny(op, "$`*?[~") {
					continue
				}
				for _, cand := range []string{path.Join(path.Dir(t), op), path.Clean(op)} {
					if cand == "." || cand == ".." || strings.HasPrefix(cand, "../") || isTarget[cand] {
						continue
					}
					// A regular file on disk too: ShellCheck opens what it is
					// given, and a FIFO at a tracked path would hold it.
					if mode, tracked := c.Tree.Mode(cand); tracked && (mode == 0o100644 || mode == 0o100755) {
						if fi, err := os.Lstat(runPath(c, cand)); err == nil && fi.Mode().IsRegular() {
							found[cand] = true
						}
					}
				}
			}
		}
	}
	libs := make([]string, 0, len(found))
	for f := range found {
		libs = append(libs, f)
	}
	sort.Strings(libs)
	return libs
}

// shellTexts answers the targets' texts and every other tracked shell
// script's (a *.sh file, or a file with no extension whose #! names a
// shell): a script outside the linted dirs (a test's generator, a
// backporting tool) may source a target library and read its names. A
// file that cannot be read adds nothing (its sourcing is then unseen, and
// the report stands).
func shellTexts(c *gate.Context, texts map[string][]byte) map[string][]byte {
	files, err := c.Tree.Files()
	if err != nil {
		return texts
	}
	all := make(map[string][]byte, len(texts))
	for t, b := range texts {
		all[t] = b
	}
	for _, f := range files {
		if _, ok := all[f]; ok {
			continue
		}
		base := path.Base(f)
		switch {
		case strings.HasSuffix(base, ".sh"):
		case !strings.Contains(base, ".") && shellShebang(runPath(c, f)):
		default:
			continue
		}
		if b, err := c.Tree.Read(f); err == nil {
			all[f] = b
		}
	}
	return all
}

// shellShebang reports whether the file at p opens with a #! naming sh,
// bash, dash or ksh (directly or through env); only its head is read.
func shellShebang(p string) bool {
	// Only a regular file is opened: a FIFO's open would wait for a
	// writer.
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	fh, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer fh.Close()
	buf := make([]byte, 256)
	n, err := io.ReadFull(fh, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		// Unread (or empty): not counted as a sourcer, so a report it
		// could have excused stands.
		return false
	}
	switch shebangProgram(buf[:n]) {
	case "sh", "bash", "dash", "ksh":
		return true
	}
	return false
}

// sourcesUntracked reports whether the script t sources, by a literal
// relative path, a file neither the tree nor the disk holds (beside the
// sourcing file, beside the script, or from the top): one a build step
// copies in or a tool writes at run time, whose names ShellCheck cannot
// see. A tracked file t sources is read the same way, to a depth of four,
// so a test library that pulls in a framework fetched at run time counts
// for every test sourcing it.
func sourcesUntracked(c *gate.Context, t string, text []byte) bool {
	seen := map[string]bool{t: true}
	var reads func(file string, text []byte, depth int) bool
	reads = func(file string, text []byte, depth int) bool {
		for _, l := range strings.Split(string(text), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "#") {
				continue
			}
			for _, op := range sourceOperands(l) {
				if op == "" || walk.PathRoot(op) || strings.ContainsAny(op, "$`*?[~") {
					continue
				}
				held, next := false, ""
				// Beside the sourcing file, beside the script run (a library
				// sources relative to where its caller runs), from the top.
				for _, cand := range []string{path.Join(path.Dir(file), op), path.Join(path.Dir(t), op), path.Clean(op)} {
					if mode, tracked := c.Tree.Mode(cand); tracked {
						held = true
						if next == "" && mode != 0o160000 && mode != 0o120000 {
							next = cand
						}
					} else if _, err := os.Lstat(runPath(c, cand)); err == nil {
						held = true // on disk: the lint's own scope decides
					}
				}
				if !held {
					return true
				}
				if next == "" || seen[next] || depth == 4 {
					continue
				}
				seen[next] = true
				// An unreadable library answers nothing here: the
				// reports it could excuse stand.
				if b, err := c.Tree.Read(next); err == nil && reads(next, b, depth+1) {
					return true
				}
			}
		}
		return false
	}
	return reads(t, text, 1)
}
