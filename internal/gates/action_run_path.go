package gates

// check-action-run-path: every repo-relative .sh path a shell run: body
// invokes resolves to a tracked regular file. See gate-sdk/SPEC.md
// §check-action-run-path.

import (
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/walk"
	"github.com/gate-sdk/gates/internal/workflow"
)

var runPathHelps = map[string]string{
	"unresolved": "repoint the step at the script that replaced the listed one, or delete the step if its script is gone for good",
}

// The skip causes, in the order the clean line counts them.
const (
	skipNonShell   = "non-shell step"
	skipWindows    = "unshelled Windows step"
	skipNoDialect  = "step with an unstated dialect"
	skipWorkDir    = "step with an unresolvable working-directory"
	skipAbsolute   = "absolute path"
	skipSingleForm = "single-line value not read"
)

var runPathCauses = []string{skipNonShell, skipWindows, skipNoDialect, skipWorkDir, skipSingleForm, skipAbsolute}

func checkActionRunPath(c *gate.Context) int {
	scan, err := scanActions(c, yamlExts...)
	if err != nil {
		return c.RefuseErr(err)
	}
	if len(scan.files) == 0 {
		return c.NewReport(nil).Nothing("no YAML file under " + scan.root + ": nothing to resolve")
	}
	type fileRuns struct {
		path string
		runs []*workflow.Run
	}
	var subject []fileRuns
	for _, p := range scan.files {
		f, _, err := scan.readParsed(c, p)
		if err != nil {
			return c.RefuseErr(err)
		}
		// assertion A: run-shell's subject and extractor, refusals included.
		if !f.Shape.Actions() {
			continue
		}
		runs, err := workflow.Extract(f)
		if err != nil {
			return c.RefuseErr(err)
		}
		subject = append(subject, fileRuns{p, runs})
	}
	rootRel := treePath(c, scan.root)
	r := c.NewReport(runPathHelps)
	skipped := map[string]int{}
	bodies, resolved := 0, 0
	for _, fr := range subject {
		for _, run := range fr.runs {
			// assertion B: only a body whose step runs a shell is read.
			switch {
			case run.Skip != "":
				skipped[skipSingleForm]++
				continue
			case run.Res == workflow.OtherShell:
				skipped[skipNonShell]++
				continue
			case run.Res == workflow.WindowsRun:
				skipped[skipWindows]++
				continue
			case run.Res == workflow.NoDialect:
				skipped[skipNoDialect]++
				continue
			}
			base := rootRel
			if run.HasWorkDir {
				wd := run.WorkDir
				if wd == "" || strings.Contains(wd, "${{") || walk.PathRoot(wd) || strings.HasPrefix(wd, "~") {
					skipped[skipWorkDir]++
					continue
				}
				base = path.Join(rootRel, wd)
			}
			bodies++
			for i, line := range run.Lines {
				// assertion C: the script word of each segment, by the
				// shared token predicate.
				for _, tok := range workflow.ScriptTokens(line) {
					if walk.PathRoot(tok) || strings.HasPrefix(tok, "~") {
						skipped[skipAbsolute]++
						continue
					}
					// assertion D: the token names a tracked regular file.
					if resolvesTo(c, path.Join(base, tok)) {
						resolved++
						continue
					}
					msg := fmt.Sprintf("run: invokes %s, which does not resolve under %s", tok, scan.root)
					if run.HasWorkDir {
						msg = fmt.Sprintf("run: invokes %s (working-directory: %s), which does not resolve under %s", tok, run.WorkDir, scan.root)
					}
					r.Add(gate.Finding{Class: "unresolved", Path: fr.path, Line: run.First + i, Msg: msg})
				}
			}
		}
	}
	return r.Done(fmt.Sprintf("%s read, %s resolved; skipped: %s",
		plural(bodies, "run: body", "run: bodies"), plural(resolved, "invocation", "invocations"),
		causes(runPathCauses, skipped)) + scan.fromIndexNote())
}

// resolvesTo reports a tracked regular file at p (relative to the run
// directory), or a tracked symlink whose target is one.
func resolvesTo(c *gate.Context, p string) bool {
	if p == ".." || strings.HasPrefix(p, "../") {
		return false
	}
	mode, ok := c.Tree.Mode(p)
	if !ok {
		return false
	}
	switch mode {
	case 0o100644, 0o100755:
		return true
	case 0o120000:
		fi, err := os.Stat(c.Dir + "/" + p)
		return err == nil && fi.Mode().IsRegular()
	}
	return false
}
