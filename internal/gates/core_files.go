package gates

// check-core-files: every path the core-files manifest lists exists in the
// worktree and is tracked. Asking both questions covers a file deleted from
// disk, one removed from the index and one never added. A kit:<path> line expands
// to <kit-root>/<path> for every kit root.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/glob"
	"github.com/gate-sdk/gates/internal/patterns"
	"github.com/gate-sdk/gates/internal/walk"
)

func checkCoreFiles(c *gate.Context) int {
	if len(c.Args) > 1 {
		return c.Refuse("usage: check-core-files [manifest]")
	}
	manifest, err := c.Knobs.Scalar("GATE_SDK_CORE_FILES_FILE")
	if err != nil {
		return c.RefuseErr(err)
	}
	if len(c.Args) == 1 {
		manifest = c.Args[0]
	}
	// The tracked listing doubles as the repository probe: outside a
	// repository nothing could be judged tracked.
	files, err := c.Tree.Files()
	if err != nil {
		return c.RefuseErr(err)
	}
	// assertion A: an absent manifest is clean and says so; a present but
	// unreadable one refuses.
	if manifest == "" {
		return c.NewReport(nil).Nothing("GATE_SDK_CORE_FILES_FILE is empty: no core file pinned")
	}
	data, present, err := readOptional(c, manifest)
	if err != nil {
		return c.RefuseErr(err)
	}
	if !present {
		return c.NewReport(nil).Nothing("no manifest at " + manifest + ": no core file pinned")
	}

	type pin struct {
		path, token string
		line        int
	}
	var pins []pin
	// assertion D: a path the tracked listing cannot spell (through "..",
	// outside the repository, the top itself) cannot be judged tracked.
	add := func(p, tok string, line int) error {
		spelled, inside := walk.ListingSpelling(c.Dir, p)
		if !inside || spelled == "." {
			return fmt.Errorf("%s:%d: %s names %s, which no tracked listing spells (the top itself, a path outside the repository, or one through ..), so it cannot be judged tracked; list the path as git ls-files spells it", manifest, line, tok, spelled)
		}
		pins = append(pins, pin{path: spelled, token: tok, line: line})
		return nil
	}
	for _, l := range patterns.LiveLines(data) {
		tok := strings.TrimSpace(l.Text)
		rest, isKit := strings.CutPrefix(tok, "kit:")
		if !isKit {
			if err := add(tok, tok, l.N); err != nil {
				return c.RefuseErr(err)
			}
			continue
		}
		// assertion B: a kit: line expands once per kit root, and a
		// wildcard in it refuses: each expanded path must itself exist,
		// which a glob cannot promise.
		if glob.HasMeta(rest) {
			return c.Refuse("%s:%d: %s carries a wildcard; a kit: line names one path per kit root and must exist in each, so it cannot be a glob", manifest, l.N, tok)
		}
		if len(c.KitRoots) == 0 {
			return c.Refuse("%s:%d: %s needs the kit roots, and none resolved", manifest, l.N, tok)
		}
		for _, kr := range c.KitRoots {
			if err := add(kr+"/"+rest, tok, l.N); err != nil {
				return c.RefuseErr(err)
			}
		}
	}
	if len(pins) == 0 {
		return c.NewReport(nil).Done(manifest + " lists no path")
	}

	tracked := map[string]bool{}
	for _, f := range files {
		tracked[f] = true
		for d := f; ; {
			i := strings.LastIndexByte(d, '/')
			if i < 0 {
				break
			}
			d = d[:i]
			if tracked[d] {
				break
			}
			tracked[d] = true
		}
	}
	r := c.NewReport(map[string]string{
		"missing":   fmt.Sprintf("restore the file (git checkout -- <path>), or, if the surface is retired, delete its line from %s in the same commit", manifest),
		"untracked": fmt.Sprintf("git add the file, or delete its line from %s if it is not meant to be tracked", manifest),
	})
	// assertion C: every listed path exists in the worktree and is tracked.
	for _, p := range pins {
		where := fmt.Sprintf("%s:%d", manifest, p.line)
		if p.token != p.path {
			where += " as " + p.token
		}
		if _, err := os.Lstat(runPath(c, p.path)); err != nil {
			if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				return c.Refuse("%s: cannot stat %s: %v", where, p.path, unwrapPath(err))
			}
			r.Add(gate.Finding{Class: "missing", Path: p.path, Msg: "core file listed in " + where + " is missing from the worktree"})
			continue
		}
		if !tracked[p.path] {
			r.Add(gate.Finding{Class: "untracked", Path: p.path, Msg: "core file listed in " + where + " exists but is not tracked"})
		}
	}
	return r.Done(fmt.Sprintf("%d core files present and tracked", len(pins)))
}
