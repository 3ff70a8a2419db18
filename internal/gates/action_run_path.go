package gates

// check-action-run-path: every repo-relative .sh path a shell run: body
// invokes resolves to a tracked regular file. See gate-sdk/SPEC.md
// §check-action-run-path.

import (
	"fmt"
	"os"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
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
	skipAfterCd    = "script after a cd the gate cannot follow"
	skipOtherRepo  = "script in another repository's checkout"
	skipOutside    = "script outside the workspace"
)

var runPathCauses = []string{skipNonShell, skipWindows, skipNoDialect, skipWorkDir, skipSingleForm, skipAbsolute, skipAfterCd, skipOtherRepo, skipOutside}

// skipIgnored is counted when the tree is asked, after the memo's causes:
// a script the repository's own .gitignore files name is made at run time.
const skipIgnored = "script the repository's .gitignore names (made at run time)"

func checkActionRunPath(c *gate.Context) int {
	scan, err := scanActions(c, yamlExts...)
	if err != nil {
		return c.RefuseErr(err)
	}
	if len(scan.files) == 0 {
		return c.NewReport(nil).Nothing("no YAML file under " + scan.root + ": nothing to resolve" + scan.fromIndexNote())
	}
	rootRel := treePath(c, scan.root)
	// assertion E: what a file's run: bodies invoke (each script word
	// with the path it must resolve to) and the tallies of what was
	// skipped are the file's own, and a warm run reads them from the
	// result cache; whether each path is a tracked file is asked of the
	// tree every run.
	var base cache.Config
	base.AddString("base", rootRel)
	memos := openMemos(c, scan, len(runPathCauses)+1, &base)
	var judged []fileMemo
	var n shapes
	for _, p := range scan.files {
		m, err := scan.memo(c, memos, p, func() (fileMemo, error) {
			f, parsed, err := scan.readParsed(c, p)
			if err != nil {
				return fileMemo{}, err
			}
			if !parsed {
				return fileMemo{kind: memoUnparsable, found: unparseable(p, f)}, nil
			}
			// assertion A: run-shell's subject and extractor, refusals
			// included.
			if !f.Shape.Actions() {
				return fileMemo{kind: memoOther}, nil
			}
			runs, err := workflow.Extract(f)
			if err != nil {
				return refusedMemo(p, err)
			}
			return runPathMemo(rootRel, p, runs), nil
		})
		if err != nil {
			return c.RefuseErr(err)
		}
		if m.kind == memoUnparsable {
			n.reject(c, scan, p, m.found)
			continue
		}
		judged = append(judged, m)
	}
	r := c.NewReport(withUnparseable(runPathHelps))
	for _, f := range n.broken {
		r.Add(f)
	}
	skipped := map[string]int{}
	bodies, resolved := 0, 0
	var ignores *treeIgnores
	for _, m := range judged {
		for i, cause := range runPathCauses {
			skipped[cause] += m.n[i]
		}
		bodies += m.n[len(runPathCauses)]
		for _, cand := range m.found {
			// assertion D: the token names a tracked regular file.
			if resolvesTo(c, cand.Text) {
				resolved++
				continue
			}
			// assertion H: a script the tree's own .gitignore files name
			// is one a build step makes (a test framework cloned by make),
			// so no tree holds it: skipped and counted.
			if ignores == nil {
				ignores = newTreeIgnores(c)
			}
			if ignores.ignored(cand.Text) {
				skipped[skipIgnored]++
				continue
			}
			msg := fmt.Sprintf("run: invokes %s, which does not resolve under %s", cand.Msg, scan.root)
			if wd, ok := strings.CutPrefix(cand.Class, "workdir:"); ok {
				msg = fmt.Sprintf("run: invokes %s (working-directory: %s), which does not resolve under %s", cand.Msg, wd, scan.root)
			}
			r.Add(gate.Finding{Class: "unresolved", Path: cand.Path, Line: cand.Line, Msg: msg})
		}
	}
	return r.Done(fmt.Sprintf("%s read, %s resolved; skipped: %s",
		plural(bodies, "run: body", "run: bodies"), plural(resolved, "invocation", "invocations"),
		causes(append(runPathCauses[:len(runPathCauses):len(runPathCauses)], skipIgnored), skipped)) + n.unparsed() + scan.fromIndexNote())
}

// runPathMemo answers one file's memo: the skip tallies (runPathCauses'
// order, then the count of bodies read) and, as findings, each script
// word to resolve: Path and Line where it stands, Msg the word, Text the
// path it must resolve to, Class "workdir:" and the step's
// working-directory when it states one ("" when not).
func runPathMemo(rootRel, p string, runs []*workflow.Run) fileMemo {
	skipped := map[string]int{}
	bodies := 0
	var cands []gate.Finding
	for _, run := range runs {
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
		base, class := ".", ""
		if run.HasWorkDir {
			wd := run.WorkDir
			if wd == "" || strings.Contains(wd, "${{") || walk.PathRoot(wd) || strings.HasPrefix(wd, "~") {
				skipped[skipWorkDir]++
				continue
			}
			base, class = path.Clean(wd), "workdir:"+wd
		}
		bodies++
		// dir is where the body stands, relative to the workspace; a
		// script word is placed in the tree only at resolution.
		dir, lost := base, false
		for i, line := range run.Lines {
			// A line a backslash continues goes on with the arguments of
			// the command before it: its words up to the first separator
			// are no command.
			if i > 0 && continuesLine(run.Lines[i-1]) {
				line = afterArguments(line)
			}
			// assertion G: a cd to a literal relative directory moves
			// where later words resolve (inside parentheses, for that
			// line only); a cd the gate cannot follow ends the reading of
			// the body, counted. A cd after ; or && on the line (source
			// env ; cd dir) moves the words after it.
			lineDir, lineLost := dir, lost
			for _, part := range cdParts(line) {
				if to, ok, sub := cdOf(part); ok && !lost {
					next := path.Join(dir, to)
					switch {
					case to == "" || next == ".." || strings.HasPrefix(next, "../"):
						lineLost, lost = true, !sub
					case sub:
						lineDir = next
					default:
						dir, lineDir = next, next
					}
				}
				// assertion C: the script word of each segment, by the
				// shared token predicate.
				for _, tok := range workflow.ScriptTokens(part) {
					if walk.PathRoot(tok) || strings.HasPrefix(tok, "~") {
						skipped[skipAbsolute]++
						continue
					}
					if lineLost {
						skipped[skipAfterCd]++
						continue
					}
					// A path that climbs out of the workspace names what an
					// earlier step put there, which no tree holds.
					if w := path.Join(lineDir, tok); w == ".." || strings.HasPrefix(w, "../") {
						skipped[skipOutside]++
						continue
					}
					// assertion F: a path at or under where a checkout of
					// this repository was placed is that far into the tree;
					// one under another repository's checkout is not ours
					// to resolve.
					at, ours := inCheckout(run.Job, run.Step, path.Join(lineDir, tok))
					if !ours {
						skipped[skipOtherRepo]++
						continue
					}
					cands = append(cands, gate.Finding{Class: class, Path: p, Line: run.FileLine(i, tokenCol(run.Lines[i], tok)), Msg: tok, Text: path.Join(rootRel, at)})
				}
			}
		}
	}
	m := fileMemo{kind: memoWorkflow, found: cands}
	for _, cause := range runPathCauses {
		m.n = append(m.n, skipped[cause])
	}
	m.n = append(m.n, bodies)
	return m
}

// continuesLine reports a body line ending in a backslash that escapes
// the newline (an odd run of them), outside a comment line.
func continuesLine(line string) bool {
	t := strings.TrimRight(line, " \t\r")
	if strings.HasPrefix(strings.TrimSpace(t), "#") {
		return false
	}
	n := len(t) - len(strings.TrimRight(t, "\\"))
	return n%2 == 1
}

// afterArguments answers what follows the first command separator (;, &,
// |, outside quotes) of a continued line, "" when it has none: the words
// before it are the previous line's command's arguments.
func afterArguments(line string) string {
	if at := unquoted(line, ";&|"); len(at) > 0 {
		return strings.TrimLeft(line[at[0]:], ";&|")
	}
	return ""
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

// tokenCol answers the 1-based character column of tok's first spelling on
// line (0 when it is not spelled as is), so a folded block's token is
// placed on the file line it sits on.
func tokenCol(line, tok string) int {
	i := strings.Index(line, tok)
	if i < 0 {
		return 0
	}
	return utf8.RuneCountInString(line[:i]) + 1
}

// cdParts cuts a line before each cd (or pushd) that follows an unquoted
// ; or && on it, so the words after such a cd are read from where it
// went; a line with no such cd is one part. A cd after || or a pipe
// (which runs it in a subshell, or not at all) is no cut.
func cdParts(line string) []string {
	var parts []string
	from := 0
	for _, at := range unquoted(line, ";&") {
		if line[at] == '&' && (at+1 >= len(line) || line[at+1] != '&') {
			continue
		}
		rest := strings.TrimLeft(line[at:], ";&")
		if _, ok, _ := cdOf(rest); ok {
			parts = append(parts, line[from:at])
			from = len(line) - len(rest)
		}
	}
	return append(parts, line[from:])
}

// cdLine matches a line whose first command is cd (or pushd) with one
// operand, optionally inside an opening parenthesis, and what follows it.
var cdLine = lazyre.New(`^\s*(\(\s*)?(?:cd|pushd)(?:\s+([^\s;&|)]+))?\s*(?:$|[;&|)])`)

// cdOf reads a body line opening with cd: to is the directory (relative,
// cleaned; "" when the gate cannot follow it: an expansion, an absolute
// path, ~, - or no operand), ok whether the line opens with cd at all,
// and sub whether it sits in a subshell, so its effect ends with the line.
func cdOf(line string) (to string, ok, sub bool) {
	m := cdLine.Get().FindStringSubmatch(line)
	if m == nil {
		return "", false, false
	}
	sub = m[1] != ""
	d := strings.Trim(m[2], `"'`)
	if d == "" || d == "-" || strings.ContainsAny(d, "$`~*?[") || walk.PathRoot(d) {
		return "", true, sub
	}
	return path.Clean(d), true, sub
}

// inCheckout places p, a path relative to the workspace, for step s of
// job j. The checkout steps before s that hold p (their path: equal to it
// or a directory above it) decide, the deepest first: this repository's
// checkout places p at the rest of it (ours); another repository's is not
// ours to resolve. Held by none, p is in the tree when this repository
// was checked out to the workspace itself (or not checked out where the
// reader can see), and outside it (a "../" path, which never resolves)
// when it went to a path of its own.
func inCheckout(j *workflow.Job, s *workflow.Step, p string) (string, bool) {
	if j == nil {
		return p, true
	}
	mine, best, bestOwn := "", -1, false
	for _, st := range j.Steps {
		if s != nil && st.Index >= s.Index {
			break
		}
		at, own, ok := workflow.CheckoutPath(st)
		if !ok {
			continue
		}
		if own {
			mine = at
		}
		if at != "." && (p == at || strings.HasPrefix(p, at+"/")) && len(at) > best {
			best, bestOwn = len(at), own
		}
	}
	switch {
	case best >= 0 && !bestOwn:
		return "", false
	case best >= 0:
		if rest := strings.TrimPrefix(p[best:], "/"); rest != "" {
			return rest, true
		}
		return ".", true
	case mine == "" || mine == ".":
		return p, true
	}
	return "../" + p, true
}
