package gates

// check-gate-exemption-tasks: every temporary disposition in scope names a
// task that is still live in the queue, so a stopgap cannot outlive the
// work that was meant to retire it.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/shlex"
)

var (
	untilTag     = lazyre.New(`#\s*until:\s*(\S*)`)
	permanentTag = lazyre.New(`#\s*permanent:\s*(.*)$`)
	portUntil    = lazyre.New(`^\s*#\s*port-until:(.*)$`)
	slugLead     = lazyre.New(`^[a-z0-9-]+`)
	slugHeading  = lazyre.New(`^#{3,4} ([a-z0-9][a-z0-9-]*)\s*$`)
	slugBullet   = lazyre.New(`^-[ \t]+\*\*([a-z0-9][a-z0-9-]*)\*\*`)
	queueHeading = lazyre.New(`^## (.*?)\s*$`)
)

// liveOpeners and liveClosers bound the queue's live span.
var (
	liveOpeners = map[string]bool{"New Features": true, "Technical Debt": true, "Deferred": true}
	liveClosers = map[string]bool{"Done": true, "Lessons Learned": true}
)

type exemptionFile struct {
	path     string
	decl     bool // a declaration in a check dir (whole-file scan) or a tree file (header only)
	inScope  bool
	data     string
	isScript bool
}

func checkGateExemptionTasks(c *gate.Context) int {
	queue, err := c.Knobs.Scalar("GATE_SDK_QUEUE_FILE")
	if err != nil {
		return c.RefuseErr(err)
	}
	dirs := searchDirs(c)
	if len(c.Args) > 0 {
		queue = c.Args[0]
		if len(c.Args) > 1 {
			dirs = c.Args[1:]
		}
	}
	authoring, err := authoringTree(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	gatesDir := strings.TrimRight(treePath(c, c.GatesDir), "/")
	underGates := func(p string) bool { d, _ := splitDir(treePath(c, p)); return d == gatesDir }

	// The declaration half: one level of each check dir.
	var files []exemptionFile
	seen := map[string]bool{}
	for _, d := range dirs {
		decls, err := registry.Declarations(dirFS{c}, []string{d})
		if err != nil {
			return c.RefuseErr(err)
		}
		for _, dc := range decls {
			data, err := readFile(c, dc.Path)
			if err != nil {
				return c.Refuse("cannot read %s: %v", dc.Path, unwrapPath(err))
			}
			seen[treePath(c, dc.Path)] = true
			files = append(files, exemptionFile{path: dc.Path, decl: true, inScope: authoring || underGates(dc.Path), data: string(data), isScript: dc.Kind == registry.Shell})
		}
	}
	// The tree half: tracked shell outside the prune set, header only. Not
	// a repository leaves it empty; the declaration half still asserts.
	if tracked, err := c.Tree.Files(); err == nil {
		prune, err := pruneSet(c)
		if err != nil {
			return c.RefuseErr(err)
		}
		for _, p := range tracked {
			if !strings.HasSuffix(p, ".sh") || strings.HasSuffix(p, ".test.sh") || prune.PathPruned(p) || seen[p] {
				continue
			}
			data, err := readTracked(c, p)
			if err != nil {
				return c.Refuse("cannot read %s: %v", p, unwrapPath(err))
			}
			files = append(files, exemptionFile{path: p, inScope: authoring || underGates(p), data: string(data)})
		}
	}

	var live map[string]bool
	liveOf := func() (map[string]bool, error) {
		if live == nil {
			l, err := liveSlugs(c, queue)
			if err != nil {
				return nil, err
			}
			live = l
		}
		return live, nil
	}
	r := c.NewReport(map[string]string{
		"A": "annotate each element of an # exception-list: array on its own line with # until: <slug> of a live queue task, or # permanent: <reason>",
		"B": "point # port-until: at a live queue task's slug (a column-0 - **slug** bullet, or a ### or #### heading, between the live sections and ## Done), or port the gate and drop the line",
	})
	arrays, headers, skipped := 0, 0, 0
	// Findings wait until every slug is read, so a queue that will not
	// read refuses with nothing half-reported.
	var found []gate.Finding
	for _, f := range files {
		lines := strings.Split(f.data, "\n")
		var fieldLines []int
		scan := lines
		if !f.decl {
			scan = headerBlock(f.data)
		}
		for i, l := range scan {
			if portUntil.Get().MatchString(l) {
				fieldLines = append(fieldLines, i+1)
			}
		}
		var lists []arrayDecl
		if f.isScript && strings.HasPrefix(baseName(f.path), "check-") && strings.Contains(f.data, "exception-list:") {
			toks, err := lexShell(f.path, []byte(f.data))
			if err != nil {
				return c.RefuseErr(err)
			}
			lists = exceptionLists(toks, lines)
		}
		if !f.inScope {
			if len(fieldLines) > 0 || len(lists) > 0 {
				skipped++
			}
			continue
		}
		for _, n := range fieldLines {
			payload := strings.TrimSpace(portUntil.Get().FindStringSubmatch(lines[n-1])[1])
			slug := slugLead.Get().FindString(payload)
			if slug == "" {
				continue // a bare field is check-gate-substrate-parity's finding
			}
			headers++
			l, err := liveOf()
			if err != nil {
				return c.RefuseErr(err)
			}
			// assertion B: a # port-until: slug names a live task.
			if !l[slug] {
				found = append(found, gate.Finding{Class: "B", Path: f.path, Line: n, Msg: fmt.Sprintf("# port-until: %s names no live task in %s (missing, or only under ## Done)", slug, queue)})
			}
		}
		for _, a := range lists {
			arrays++
			for _, e := range a.elems {
				// assertion A: each element carries one annotation; an until slug is live.
				switch {
				case e.line == a.line:
					found = append(found, gate.Finding{Class: "A", Path: f.path, Line: e.line, Msg: fmt.Sprintf("%s shares the array's opening line, where no annotation can be its own", clip(e.raw))})
				case e.until != "" && e.permanent:
					found = append(found, gate.Finding{Class: "A", Path: f.path, Line: e.line, Msg: fmt.Sprintf("%s carries both # until: and # permanent:", clip(e.raw))})
				case e.until == "" && !e.permanent:
					found = append(found, gate.Finding{Class: "A", Path: f.path, Line: e.line, Msg: fmt.Sprintf("%s carries neither # until: <slug> nor # permanent: <reason>", clip(e.raw))})
				case e.until != "":
					l, err := liveOf()
					if err != nil {
						return c.RefuseErr(err)
					}
					if !l[e.until] {
						found = append(found, gate.Finding{Class: "A", Path: f.path, Line: e.line, Msg: fmt.Sprintf("# until: %s names no live task in %s (missing, or only under ## Done)", e.until, queue)})
					}
				}
			}
		}
	}
	for _, f := range found {
		r.Add(f)
	}
	slugs := "queue not read"
	if live != nil {
		slugs = plural(len(live), "live slug", "live slugs")
	}
	done := r.Done
	if arrays == 0 && headers == 0 {
		done = r.Nothing
	}
	return done(fmt.Sprintf("%s, %s checked; %s out of scope (neither under the gates dir nor in an authoring tree) skipped; %s",
		plural(arrays, "exemption array", "exemption arrays"), plural(headers, "# port-until: field", "# port-until: fields"),
		plural(skipped, "annotated file", "annotated files"), slugs))
}

func baseName(p string) string { _, b := splitDir(p); return b }

// authoringTree reports whether this tree authors the Go module: its
// go.mod at GATE_SDK_NATIVE_CRATE is tracked.
func authoringTree(c *gate.Context) (bool, error) {
	crate, err := c.Knobs.Scalar("GATE_SDK_NATIVE_CRATE")
	if err != nil {
		return false, err
	}
	if crate == "" {
		crate = "."
	}
	_, tracked := c.Tree.Mode(treePath(c, registry.Join(crate, goModFile)))
	return tracked, nil
}

// liveSlugs reads the queue's live spans: each runs from a New Features,
// Technical Debt or Deferred heading to the next Done or Lessons Learned
// one, positionally (an unknown ## heading inside a span stays live, one
// after a closer stays closed), and a live heading after a closer opens a
// span again (a ## Deferred placed after ## Done is read). An entry is a
// column-0 "- **slug**" bullet, any run of spaces or tabs after the dash
// (the original's queue grammar; text may follow the closing bold) or, as
// this port's addition, a ### or #### heading whose whole text is the slug.
func liveSlugs(c *gate.Context, queue string) (map[string]bool, error) {
	data, err := readFile(c, queue)
	if err != nil {
		return nil, fmt.Errorf("cannot read the queue %s, which the in-scope annotations name tasks of: %v", queue, unwrapPath(err))
	}
	live := map[string]bool{}
	in, fence := false, false
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSuffix(l, "\r")
		if strings.HasPrefix(l, "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		if m := queueHeading.Get().FindStringSubmatch(l); m != nil {
			switch {
			case liveClosers[m[1]]:
				// assertion C: a closer ends this span, not the read.
				in = false
			case liveOpeners[m[1]]:
				in = true
			}
			continue
		}
		if !in {
			continue
		}
		// assertion C: a column-0 bold bullet is an entry, as is a slug heading.
		if m := slugBullet.Get().FindStringSubmatch(l); m != nil {
			live[m[1]] = true
		} else if m := slugHeading.Get().FindStringSubmatch(l); m != nil {
			live[m[1]] = true
		}
	}
	return live, nil
}

type arrayElem struct {
	raw       string
	line      int
	until     string
	permanent bool
}

type arrayDecl struct {
	line  int
	elems []arrayElem
}

// exceptionLists answers the array assignments whose comment block
// directly above carries # exception-list:, each element with the
// annotation that trails it on its own line.
func exceptionLists(toks []shlex.Token, lines []string) []arrayDecl {
	var out []arrayDecl
	shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
		for _, t := range list {
			if t.Kind != shlex.Word || t.Elems == nil {
				continue
			}
			if ok, _ := valveIn(precedingComments(lines, t.Pos.Line), "exception-list"); !ok {
				continue
			}
			a := arrayDecl{line: t.Pos.Line}
			comments := map[int]string{}
			for _, e := range t.Elems {
				if e.Kind == shlex.Comment {
					comments[e.Pos.Line] = e.Value
				}
			}
			for _, e := range t.Elems {
				if e.Kind != shlex.Word {
					continue
				}
				el := arrayElem{raw: e.Raw, line: e.Pos.Line}
				cm := comments[e.Pos.Line]
				if m := untilTag.Get().FindStringSubmatch(cm); m != nil {
					el.until = slugLead.Get().FindString(m[1])
					if el.until == "" {
						el.until = "(empty)"
					}
				}
				if m := permanentTag.Get().FindStringSubmatch(cm); m != nil && strings.TrimSpace(m[1]) != "" {
					el.permanent = true
				}
				a.elems = append(a.elems, el)
			}
			out = append(out, a)
		}
	})
	return out
}
