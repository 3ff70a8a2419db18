package gates

// check-workflow-tiering: the workflow directory is partitioned by
// tracking. Every member is tracked (a checked projection) or ignored (local
// capture), never neither; and every tracked file directly in the
// directory opens with a `# contract:` header in one of the two ruled
// payload forms. The pointer's target is not resolved here; that is
// check-spec-pointer's job.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/walk"
)

const contractPrefix = "# contract: "

func checkWorkflowTiering(c *gate.Context) int {
	if len(c.Args) > 0 {
		return c.Refuse("usage: check-workflow-tiering (the directory is GATE_SDK_WORKFLOW_DIR)")
	}
	dir, err := c.Knobs.Scalar("GATE_SDK_WORKFLOW_DIR")
	if err != nil {
		return c.RefuseErr(err)
	}
	// assertion C: every spelling of the directory (".workflow/.",
	// "./.workflow/", its absolute path) is the one the listing uses, so
	// no spelling can drop the header check; one naming the run directory
	// itself or a place outside it is refused.
	raw := dir
	dir, inside := walk.ListingSpelling(c.Dir, raw)
	if !inside || dir == "." {
		return c.Refuse("GATE_SDK_WORKFLOW_DIR names %q, which is not a directory below the tree", raw)
	}
	files, err := c.Tree.Files()
	if err != nil {
		return c.RefuseErr(err)
	}
	if fi, err := os.Stat(runPath(c, dir)); err != nil || !fi.IsDir() {
		return c.Refuse("GATE_SDK_WORKFLOW_DIR names %s, which this tree lacks", dir)
	}
	var drift []string
	// assertion D: git is asked only when the directory holds something
	// the listing lacks; a directory whose every file is listed has
	// nothing git could call untracked.
	if !allListed(c, dir, files) {
		if drift, err = untrackedUnignored(c, dir); err != nil {
			return c.RefuseErr(err)
		}
	}

	r := c.NewReport(map[string]string{
		"partition": fmt.Sprintf("commit the member as a checked projection (with its # contract: header), or add it to .gitignore as local capture; nothing in %s may be neither", dir),
		"header":    "open the file with `# contract: <owner-path> §<section>` (a pointer, optionally followed by ` — <gloss>`), or `# contract: <format> v<N>` where a gate parses the header as a wire-format version",
	})
	// assertion A: every member is tracked or ignored, never neither.
	for _, p := range drift {
		r.Add(gate.Finding{Class: "partition", Path: p, Msg: "neither tracked nor ignored"})
	}
	// assertion B: every tracked file directly in the directory opens with
	// a contract header in pointer or version-marker form. Directory
	// members are partition-checked only.
	headers := 0
	for _, p := range files {
		rel, ok := strings.CutPrefix(p, dir+"/")
		if !ok || strings.Contains(rel, "/") {
			continue
		}
		data, err := c.Tree.Read(p)
		if err != nil {
			return c.Refuse("cannot read tracked member %s: %v", p, unwrapPath(err))
		}
		// A byte-order mark opening the file is its encoding signature.
		line := walk.TrimBOM(string(bytes.TrimSuffix(firstLine(data), []byte("\r"))))
		if !contractHeader(line) {
			r.Add(gate.Finding{Class: "header", Path: p, Line: 1, Msg: fmt.Sprintf("first line %q is not a # contract: header in pointer or version-marker form", line)})
			continue
		}
		headers++
	}
	return r.Done(fmt.Sprintf("every member of %s is tracked or ignored; %d tracked files carry a contract header", dir, headers))
}

// contractHeader reports whether line is "# contract: " followed by a
// pointer-form or version-marker-form payload.
func contractHeader(line string) bool {
	payload, ok := strings.CutPrefix(line, contractPrefix)
	if !ok {
		return false
	}
	return versionMarker(payload) || pointerForm(payload)
}

// versionMarker is ^[a-z0-9-]+ v[0-9]+$.
func versionMarker(s string) bool {
	name, ver, ok := strings.Cut(s, " v")
	if !ok || name == "" || ver == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		b := name[i]
		if !('a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '-') {
			return false
		}
	}
	for i := 0; i < len(ver); i++ {
		if ver[i] < '0' || ver[i] > '9' {
			return false
		}
	}
	return true
}

// pointerForm is "<owner-path> §<section>", the path one blank-free token
// and the section non-empty, optionally followed by " — <tail>".
func pointerForm(s string) bool {
	path, section, ok := strings.Cut(s, " §")
	if !ok || path == "" || strings.ContainsAny(path, " \t") {
		return false
	}
	if i := strings.Index(section, " — "); i >= 0 {
		section = section[:i]
	}
	section = strings.TrimSpace(section)
	if section == "" || !utf8.ValidString(section) {
		return false
	}
	return true
}

// allListed reports whether every entry below dir on disk is a file (or
// link) the tracked listing names, spelled exactly so, with no nested
// repository among them: then no member is untracked, whatever the ignore
// rules say. Anything else (an unlisted name, a special file, a
// directory holding .git, a walk that fails) answers false, and git
// decides.
func allListed(c *gate.Context, dir string, files []string) bool {
	listed := map[string]bool{}
	for _, p := range files {
		if rel, ok := strings.CutPrefix(p, dir+"/"); ok {
			listed[rel] = true
		}
	}
	base := runPath(c, dir)
	all := true
	err := walk.Walk(base, walk.Options{Recorder: c.Recorder}, func(p string, d fs.DirEntry) error {
		if d.IsDir() {
			if _, err := os.Lstat(walk.Child(walk.Child(base, p), ".git")); err == nil || !errors.Is(err, fs.ErrNotExist) {
				all = false
				return fs.SkipAll
			}
			return nil
		}
		if !listed[p] || !(d.Type().IsRegular() || d.Type()&fs.ModeSymlink != 0) {
			all = false
			return fs.SkipAll
		}
		return nil
	})
	return err == nil && all
}

// untrackedUnignored answers the paths under dir git reports as neither
// tracked nor ignored, an untracked directory collapsed to its name with a
// trailing '/'. Empty directories hold nothing and are not reported.
func untrackedUnignored(c *gate.Context, dir string) ([]string, error) {
	out, err := runGit(c, "ls-files", "-z", "--others", "--exclude-standard", "--directory", "--no-empty-directory", "--", dir+"/")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) > 0 {
			paths = append(paths, string(rec))
		}
	}
	return paths, nil
}
