package gates

// check-exec-bit: index modes. Every tracked *.sh under an exec glob (and
// in no pruned subtree) is 100755, and every tracked *.gate descriptor is
// 100644. The index is read, not the worktree, because a clone receives
// the index. The two classes report one at a time: script findings mask
// descriptor findings until they are fixed.

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/glob"
	"github.com/gate-sdk/gates/internal/walk"
)

// indexEntry is one tracked path and its index mode.
type indexEntry struct {
	path string
	mode uint32
}

func checkExecBit(c *gate.Context) int {
	if len(c.Args) > 1 {
		return c.Refuse("usage: check-exec-bit [ls-files-dump]")
	}
	var entries []indexEntry
	if len(c.Args) == 1 {
		// A canned `git ls-files -s` dump stands in for the index, so a
		// fixture is hermetic.
		data, err := readOperand(c, c.Args[0], "ls-files dump")
		if err != nil {
			return c.RefuseErr(err)
		}
		entries, err = parseStageDump(c.Args[0], data)
		if err != nil {
			return c.RefuseErr(err)
		}
	} else {
		files, err := c.Tree.Files()
		if err != nil {
			return c.RefuseErr(err)
		}
		for _, p := range files {
			mode, _ := c.Tree.Mode(p)
			entries = append(entries, indexEntry{path: p, mode: mode})
		}
	}
	globs, err := c.Knobs.Words("GATE_SDK_EXEC_GLOBS")
	if err != nil {
		return c.RefuseErr(err)
	}
	prune, err := c.Knobs.Words("GATE_SDK_EXEC_PRUNE")
	if err != nil {
		return c.RefuseErr(err)
	}

	r := c.NewReport(map[string]string{
		"script":     "make each listed script executable in the index: git update-index --chmod=+x -- <path> (or chmod +x it and git add it again)",
		"descriptor": "a .gate descriptor is data and is never run: git update-index --chmod=-x -- <path> (or chmod -x it and git add it again)",
	})
	var scripts, descriptors []indexEntry
	for _, e := range entries {
		if e.mode != 0o100644 && e.mode != 0o100755 {
			continue // a link or gitlink is no file of its own: its target is checked where tracked
		}
		switch {
		case strings.HasSuffix(e.path, ".sh") && execGlobbed(e.path, globs) && !segmentPruned(e.path, prune):
			scripts = append(scripts, e)
		case strings.HasSuffix(e.path, ".gate") && !segmentPruned(e.path, prune):
			// assertion B: a descriptor under a pruned segment is fixture
			// content (a case's own checks/), exempt like a script there.
			descriptors = append(descriptors, e)
		}
	}
	// assertion A: every script under an exec glob is 100755 in the index.
	for _, e := range scripts {
		if e.mode == 0o100644 {
			r.Add(gate.Finding{Class: "script", Path: e.path, Msg: fmt.Sprintf("index mode %06o, a script under an exec glob must be 100755", e.mode)})
		}
	}
	if r.Failed() {
		return r.Done("")
	}
	// assertion B: every .gate descriptor is 100644, shown only once the
	// scripts are clean.
	for _, e := range descriptors {
		if e.mode == 0o100755 {
			r.Add(gate.Finding{Class: "descriptor", Path: e.path, Msg: fmt.Sprintf("index mode %06o, a .gate descriptor must be 100644", e.mode)})
		}
	}
	return r.Done(fmt.Sprintf("%d scripts under the exec globs are 100755, %d .gate descriptors are 100644", len(scripts), len(descriptors)))
}

// execGlobbed reports whether any exec glob matches p; '*' spans '/'.
func execGlobbed(p string, globs []string) bool {
	for _, g := range globs {
		if glob.Match(g, p) {
			return true
		}
	}
	return false
}

// segmentPruned reports whether any directory segment of p equals a word.
func segmentPruned(p string, words []string) bool {
	segs := strings.Split(p, "/")
	for _, s := range segs[:len(segs)-1] {
		for _, w := range words {
			if s == w {
				return true
			}
		}
	}
	return false
}

// parseStageDump reads `git ls-files -s` records: "<mode> <object> <stage>
// TAB <path>". A dump holding a NUL byte is split on NUL (the -z form),
// any other on line ends. A malformed record is an error naming it.
func parseStageDump(name string, data []byte) ([]indexEntry, error) {
	var recs [][]byte
	zForm := bytes.IndexByte(data, 0) >= 0
	if zForm {
		recs = bytes.Split(data, []byte{0})
	} else {
		recs = bytes.Split(data, []byte{'\n'})
	}
	var out []indexEntry
	for i, rec := range recs {
		rec = bytes.TrimSuffix(rec, []byte("\r"))
		if len(rec) == 0 {
			continue
		}
		tab := bytes.IndexByte(rec, '\t')
		if tab < 0 {
			return nil, fmt.Errorf("%s: record %d has no tab before its path: %q", name, i+1, rec)
		}
		fields := strings.Fields(string(rec[:tab]))
		if len(fields) != 3 || len(fields[0]) != 6 {
			return nil, fmt.Errorf("%s: record %d is not <mode> <object> <stage>: %q", name, i+1, rec)
		}
		mode, err := strconv.ParseUint(fields[0], 8, 32)
		if err != nil {
			return nil, fmt.Errorf("%s: record %d has a mode that is not octal: %q", name, i+1, fields[0])
		}
		path := string(rec[tab+1:])
		if !zForm {
			// assertion C: the line form C-quotes a name holding a control
			// byte, a quote, a backslash (or, by default, a non-ASCII
			// byte); the record names the decoded path.
			unq, err := gate.UnquotePath(path)
			if err != nil {
				return nil, fmt.Errorf("%s: record %d: %v", name, i+1, err)
			}
			path = unq
		}
		if path == "" {
			return nil, fmt.Errorf("%s: record %d has an empty path", name, i+1)
		}
		if err := walk.CheckName(path); err != nil {
			return nil, fmt.Errorf("%s: record %d: %v", name, i+1, err)
		}
		out = append(out, indexEntry{path: path, mode: uint32(mode)})
	}
	return out, nil
}
