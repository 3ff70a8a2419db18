package gates

import (
	"path"
	"strings"

	"github.com/gate-sdk/gates/internal/lazyre"
)

// sourceLine matches a source or . command and its operand.
var sourceLine = lazyre.New(`(?:^|[;&|({]|\bthen|\bdo|\belse)\s*(?:source|\.)\s+("[^"]+"|'[^']+'|[^\s;&|)]+)`)

// sourcers holds, per base name of a sourced file, what the scripts that
// source it by that name assign before the source command and read
// anywhere: a library's names set or read by the script that includes it
// through a path ShellCheck cannot follow ($here/lib.sh).
type sourcers struct {
	sets  map[string]map[string]bool // base name -> names assigned before a source of it
	reads map[string]map[string]bool // base name -> names the sourcing scripts expand
}

// readSourcers reads every target's source commands.
func readSourcers(texts map[string][]byte) sourcers {
	s := sourcers{sets: map[string]map[string]bool{}, reads: map[string]map[string]bool{}}
	for _, text := range texts {
		var read map[string]bool    // the script's expansions, read once it sources
		before := map[string]bool{} // names assigned on the lines read so far
		for _, l := range strings.Split(string(text), "\n") {
			for _, m := range sourceLine.Get().FindAllStringSubmatch(l, -1) {
				op := strings.Trim(m[1], `"'`)
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
				}
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

// sourcedName reports a report on a library's name that a script sourcing
// the library deals with: SC2034 on a name a sourcer reads, SC2154 on one
// a sourcer sets before sourcing it.
func (s sourcers) sourcedName(target, text string) bool {
	base := path.Base(target)
	if name, ok := unusedNameOf(text); ok {
		return s.reads[base][name]
	}
	if name, ok := unassignedName(text); ok {
		return s.sets[base][name]
	}
	return false
}
