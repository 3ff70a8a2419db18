package payload

// What a release changes for a tree that vendors the kit, read off the
// kit as vendored here before against the kit this binary carries: the
// gates it adds, the templates whose text changed, and the knobs added or
// retired. Init prints it on an upgrade, before it writes anything.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"
)

// releaseChange is one kind of change and the names it concerns.
type releaseChange struct {
	what  string
	names []string
}

// releaseChanges compares, for each kit file init is about to write, the
// copy on disk with the release's.
func releaseChanges(top, kitRoot string, steps []step) ([]releaseChange, error) {
	var gates, templates []string
	var knobsBefore, knobsAfter map[string]bool
	for _, s := range steps {
		if s.class != classKit || (s.verb != "create" && s.verb != "update") {
			continue
		}
		rel, ok := strings.CutPrefix(s.path, kitRoot+"/")
		if !ok {
			continue
		}
		switch {
		case s.verb == "create" && strings.HasPrefix(rel, "checks/") && strings.HasSuffix(rel, ".gate"):
			gates = append(gates, strings.TrimSuffix(path.Base(rel), ".gate"))
		case s.verb == "update" && strings.HasPrefix(rel, "templates/"):
			templates = append(templates, s.path)
		case s.verb == "update" && rel == "knobs.toml":
			old, err := os.ReadFile(joinTop(top, s.path))
			if err != nil {
				return nil, fmt.Errorf("init: cannot read %s: %v", s.path, err)
			}
			knobsBefore, knobsAfter = knobNames(old), knobNames(s.data)
		}
	}
	var out []releaseChange
	add := func(what string, names []string) {
		if len(names) > 0 {
			sort.Strings(names)
			out = append(out, releaseChange{what, names})
		}
	}
	add("gates new in this release", gates)
	add("templates changed", templates)
	var added, retired []string
	for k := range knobsAfter {
		if !knobsBefore[k] {
			added = append(added, k)
		}
	}
	for k := range knobsBefore {
		if !knobsAfter[k] {
			retired = append(retired, k)
		}
	}
	add("knobs added", added)
	add("knobs no longer read (a value you set for one is ignored now)", retired)
	return out, nil
}

// knobNames answers the knob names a kit knob table declares: the name of
// each [[knob]] and [[env_only]] table.
func knobNames(data []byte) map[string]bool {
	out := map[string]bool{}
	inKnob := false
	for _, l := range bytes.Split(data, []byte("\n")) {
		t := strings.TrimSpace(string(l))
		switch {
		case strings.HasPrefix(t, "["):
			inKnob = t == "[[knob]]" || t == "[[env_only]]"
		case inKnob && strings.HasPrefix(t, "name"):
			if _, v, ok := strings.Cut(t, "="); ok {
				out[strings.Trim(strings.TrimSpace(v), `"`)] = true
				inKnob = false
			}
		}
	}
	return out
}

// printReleaseChanges says what the release changes, one line per kind.
func printReleaseChanges(w io.Writer, from, to string, changes []releaseChange) {
	if len(changes) == 0 {
		return
	}
	fmt.Fprintf(w, "init: the kit moves from the build stamped %s to %s; against the kit vendored here:\n", from, to)
	for _, c := range changes {
		fmt.Fprintf(w, "init:   %s: %s\n", c.what, strings.Join(c.names, ", "))
	}
}
