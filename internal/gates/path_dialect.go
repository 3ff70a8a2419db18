package gates

// check-path-dialect: paths cross between the platform's spelling and the
// family's '/'-spelling at one place. In shell, a root taken from git is
// entered with cd (and read back with pwd -P), never kept as text; an
// absoluteness test asks gate_path_rooted; a script joining two roots
// anchors its cwd first. In Go, only internal/walk reads the cwd, resolves
// absolute paths or tests absoluteness.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/shlex"
)

const (
	dialectValve   = "path-dialect-exempt"
	dialectSection = "§The path-dialect contract"
)

var (
	// The producer flags: each answers a path in git's own spelling. The
	// roster names what this rule hunts and spawns nothing, so it is spelled
	// in pieces: no literal of it reads as a probe, to this rule's own Go
	// half or to the architecture pins.
	toplevelFlag  = "--show-" + "toplevel"
	producerFlags = map[string]bool{toplevelFlag: true, "--git-" + "dir": true, "--git-" + "common-dir": true}
	rootedBody    = lazyre.New(`^\s*gate_path_rooted\s*\(\)\s*\{`)
	anchorLine    = lazyre.New(`^\s*cd "\$\(pwd -P\)"\s*$`)
)

func checkPathDialect(c *gate.Context) int {
	if len(c.Args) > 0 {
		return c.Refuse("usage: check-path-dialect (no operands: the corpus is the tracked shell tree and the Go sources)")
	}
	// assertion E: the rule's vocabulary is a framework's own crosser; a
	// tree that names none (a consumer) is not judged by it.
	crosser, err := c.Knobs.Scalar("GATE_SDK_PATH_CROSSER")
	if err != nil {
		return c.RefuseErr(err)
	}
	if strings.TrimSpace(crosser) != "" {
		crosser = strings.Trim(treePath(c, crosser), "/")
	}
	if crosser == "" || crosser == "." {
		return c.NewReport(nil).Disarmed("GATE_SDK_PATH_CROSSER", "dormant: GATE_SDK_PATH_CROSSER names no crosser package, so no path crossing is judged; name the one package where your paths change spelling to arm it")
	}
	// The tracked listing is the repository probe: outside one the corpus
	// would silently be empty.
	corpus, err := shellCorpus(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	r := c.NewReport(map[string]string{
		"A": `enter a root git answers with cd "$(git rev-parse --show-toplevel)" and read it back with pwd -P, or record at the site why it does not cross (a "# spec: ` + dialectSection + ` — <why>" comment)`,
		"B": `ask gate_path_rooted "$p" instead of matching /*: a Windows path is rooted without a leading slash; a value that is no filesystem path takes # path-dialect-exempt: <reason>`,
		"C": `put cd "$(pwd -P)" before the first root is bound, so both roots share one spelling before any is joined or stripped`,
		"D": "go through internal/walk (walk.Cwd, walk.Toplevel, walk.PathRoot, walk.AbsAgainst …), or say why the value is no filesystem location in // path-dialect-exempt: <reason>",
	})
	shellTests, inRooted, declared := 0, 0, 0
	for _, f := range corpus {
		if f.suite {
			continue // a suite drives gates; it ships to no consumer's path
		}
		toks, err := lexShell(f.path, f.data)
		if err != nil {
			return c.RefuseErr(err)
		}
		lines := strings.Split(string(f.data), "\n")
		comments := lineComments(toks)
		var found []gate.Finding
		// assertion A: a bound producer crosses at its own site.
		for _, p := range shellProducers(toks) {
			if p.cleared || specVerdict(lines, comments, p.line) {
				if p.badPwd > 0 {
					found = append(found, gate.Finding{Class: "A", Path: f.path, Line: p.badPwd,
						Msg: "a cd to a root git answered is read back with a bare pwd, which echoes the logical spelling back; read it with pwd -P"})
				}
				continue
			}
			found = append(found, gate.Finding{Class: "A", Path: f.path, Line: p.line,
				Msg: fmt.Sprintf("git rev-parse %s binds git's spelling of a path as text: enter it with cd, or record why it does not cross", p.flag)})
		}
		// assertion B: absoluteness asks gate_path_rooted.
		body := rootedLines(lines)
		for _, t := range absolutenessTests(toks) {
			shellTests++
			if body[t.line] {
				inRooted++
				continue
			}
			v, why := valveIn(append(precedingComments(lines, t.line), comments[t.line]), dialectValve)
			if v && why != "" {
				declared++
				continue
			}
			msg := fmt.Sprintf("%s tests absoluteness by a leading /, which misses a rooted Windows path; ask gate_path_rooted", t.what)
			if v {
				msg = fmt.Sprintf("%s carries # %s: with no reason, which declares nothing", t.what, dialectValve)
			}
			found = append(found, gate.Finding{Class: "B", Path: f.path, Line: t.line, Msg: msg})
		}
		// assertion C: a file joining two roots anchors its cwd first.
		if line, first, ok := unanchoredRoots(toks, lines); ok {
			found = append(found, gate.Finding{Class: "C", Path: f.path, Line: line,
				Msg: fmt.Sprintf("binds two roots, one from BASH_SOURCE (the first is %s, bound here), and composes a root as text with no cd \"$(pwd -P)\" before it", first)})
		}
		addInLineOrder(r, found)
	}
	goFiles, goSites, err := goHalf(c, r, crosser)
	if err != nil {
		return c.RefuseErr(err)
	}
	return r.Done(fmt.Sprintf("%d shell absoluteness test(s) — %d inside gate_path_rooted, %d declared out of the filesystem namespace; %s read, %s routed through %s or declared",
		shellTests, inRooted, declared, plural(goFiles, "Go source", "Go sources"), plural(goSites, "Go site", "Go sites"), crosser))
}

func lineComments(toks []shlex.Token) map[int]string {
	out := map[int]string{}
	shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
		for _, t := range list {
			if t.Kind == shlex.Comment {
				out[t.Pos.Line] = t.Value
			}
			for _, e := range t.Elems {
				if e.Kind == shlex.Comment {
					out[e.Pos.Line] = e.Value
				}
			}
		}
	})
	return out
}

// specVerdict reports a "spec:" comment citing the path-dialect contract
// on the line or in the comment run directly above it.
func specVerdict(lines []string, comments map[int]string, line int) bool {
	for _, cm := range append(precedingComments(lines, line), comments[line]) {
		if strings.Contains(cm, "spec:") && strings.Contains(cm, dialectSection) {
			return true
		}
	}
	return false
}

type producer struct {
	line    int
	flag    string
	cleared bool // the substitution is cd's direct argument
	badPwd  int  // line of a bare pwd reading the cd back, 0 if none
}

// shellProducers finds every git rev-parse producer whose stdout a
// command substitution binds. One whose stdout goes to /dev/null (> 1>
// &>) binds nothing; 2> clears nothing.
func shellProducers(toks []shlex.Token) []producer {
	var out []producer
	shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
		pipes := shlex.Split(list)
		for _, p := range pipes {
			for _, cmd := range p.Commands {
				name, args := cmdName(cmd)
				for wi, w := range cmd.Words() {
					for _, sub := range w.Subs {
						if sub.Kind != shlex.Dollar && sub.Kind != shlex.Backtick {
							continue
						}
						flag, line := producerIn(sub.Tokens)
						if flag == "" {
							continue
						}
						pr := producer{line: line, flag: flag}
						if name == "cd" && wi > 0 && len(args) > 0 && w.Raw == args[len(args)-1].Raw && len(w.Subs) == 1 && wholeSub(w.Raw) {
							pr.cleared = true
							pr.badPwd = barePwd(pipes)
						}
						out = append(out, pr)
					}
				}
			}
		}
	})
	return out
}

// producerIn answers the producer flag of a git rev-parse among a list's
// own commands whose stdout is captured.
func producerIn(list []shlex.Token) (string, int) {
	for _, p := range shlex.Split(list) {
		for _, cmd := range p.Commands {
			name, args := cmdName(cmd)
			if name != "git" {
				continue
			}
			rev, flag := false, ""
			for _, a := range args {
				if a.Value == "rev-parse" {
					rev = true
				}
				if producerFlags[a.Value] {
					flag = a.Value
				}
			}
			if !rev || flag == "" || stdoutDiscarded(cmd) {
				continue
			}
			return flag, cmd.Tokens[0].Pos.Line
		}
	}
	return "", 0
}

func stdoutDiscarded(cmd shlex.Command) bool {
	for _, rd := range cmd.Redirects() {
		switch rd.Op.Value {
		case ">", "1>", "&>", ">|", "1>|":
			if rd.Target.Value == "/dev/null" {
				return true
			}
		}
	}
	return false
}

// wholeSub reports a word that is exactly one substitution, quoted or not.
func wholeSub(raw string) bool {
	raw = strings.TrimSuffix(strings.TrimPrefix(raw, `"`), `"`)
	return (strings.HasPrefix(raw, "$(") && strings.HasSuffix(raw, ")")) || (strings.HasPrefix(raw, "`") && strings.HasSuffix(raw, "`"))
}

// barePwd answers the line of a pwd without -P in the same list as the cd.
func barePwd(pipes []shlex.Pipeline) int {
	for _, p := range pipes {
		for _, cmd := range p.Commands {
			name, args := cmdName(cmd)
			if name != "pwd" {
				continue
			}
			physical := false
			for _, a := range args {
				if a.Value == "-P" {
					physical = true
				}
			}
			if !physical {
				return cmd.Tokens[0].Pos.Line
			}
		}
	}
	return 0
}

type absTest struct {
	line int
	what string
}

// absolutenessTests finds [[ x == /* ]] glob tests and case arms that are
// exactly /* (the star unquoted). Prefix globs (*/*, /dev/*, "$d"/*,
// /*/sub) are containment, not absoluteness.
func absolutenessTests(toks []shlex.Token) []absTest {
	var out []absTest
	isRootGlob := func(t shlex.Token) bool {
		return t.Value == "/*" && strings.HasSuffix(t.Raw, "*") && !strings.HasSuffix(t.Raw, `*"`) && !strings.HasSuffix(t.Raw, `*'`)
	}
	shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
		inTest := false
		for i, t := range list {
			switch {
			case t.Kind == shlex.Word && t.Raw == "[[":
				inTest = true
			case t.Kind == shlex.Word && t.Raw == "]]":
				inTest = false
			case inTest && t.Kind == shlex.Word && isRootGlob(t) && i > 0:
				if op := list[i-1].Raw; op == "==" || op == "!=" || op == "=" {
					out = append(out, absTest{line: t.Pos.Line, what: "[[ … " + op + " " + t.Raw + " ]]"})
				}
			case t.Kind == shlex.Pattern && isRootGlob(t):
				out = append(out, absTest{line: t.Pos.Line, what: "the case arm " + t.Raw + ")"})
			}
		}
	})
	return out
}

// rootedLines answers the lines of every gate_path_rooted() body: from
// the line opening it to the first line that is a lone closing brace.
func rootedLines(lines []string) map[int]bool {
	out := map[int]bool{}
	in := false
	for i, l := range lines {
		if !in && rootedBody.Get().MatchString(l) {
			in = true
		}
		if in {
			out[i+1] = true
			if strings.TrimSpace(l) == "}" || (strings.HasSuffix(strings.TrimSpace(l), "}") && i > 0 && rootedBody.Get().MatchString(l)) {
				in = false
			}
		}
	}
	return out
}

// unanchoredRoots reports a file that binds two or more roots, at least
// one from BASH_SOURCE, composes a root as text, and has no cd "$(pwd -P)"
// before its first root binding. A root is a name bound from a command
// substitution that cds (to a BASH_SOURCE path or to git's toplevel) and
// captures pwd.
func unanchoredRoots(toks []shlex.Token, lines []string) (int, string, bool) {
	type root struct {
		name   string
		line   int
		source bool
	}
	var roots []root
	shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
		for _, t := range list {
			if t.Kind != shlex.Word || !isAssignWord(t.Raw) || len(t.Subs) == 0 {
				continue
			}
			name := t.Raw[:strings.IndexByte(t.Raw, '=')]
			name = strings.TrimSuffix(name, "+")
			for _, sub := range t.Subs {
				cdTo, pwd := "", false
				for _, p := range shlex.Split(sub.Tokens) {
					for _, cmd := range p.Commands {
						n, args := cmdName(cmd)
						if n == "cd" && len(args) > 0 {
							cdTo = args[len(args)-1].Raw
						}
						if n == "pwd" {
							pwd = true
						}
					}
				}
				if cdTo == "" || !pwd {
					continue
				}
				switch {
				case strings.Contains(cdTo, "BASH_SOURCE"):
					roots = append(roots, root{name, t.Pos.Line, true})
				case strings.Contains(cdTo, "rev-parse") && strings.Contains(cdTo, toplevelFlag):
					roots = append(roots, root{name, t.Pos.Line, false})
				}
			}
		}
	})
	if len(roots) < 2 {
		return 0, "", false
	}
	first, source := roots[0], false
	for _, rt := range roots {
		if rt.line < first.line {
			first = rt
		}
		source = source || rt.source
	}
	if !source {
		return 0, "", false
	}
	for i := 0; i < first.line-1 && i < len(lines); i++ {
		if anchorLine.Get().MatchString(lines[i]) {
			return 0, "", false
		}
	}
	composed := false
	for _, rt := range roots {
		n := regexp.QuoteMeta(rt.name)
		arith := regexp.MustCompile(`\$` + n + `"?/|\$\{` + n + `\}"?/|\$\{` + n + `[%#]`)
		shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
			for _, t := range list {
				if t.Kind == shlex.Word && arith.MatchString(t.Raw) {
					composed = true
				}
			}
		})
	}
	if !composed {
		return 0, "", false
	}
	return first.line, first.name, true
}

// goHalf holds the Go sources under GATE_SDK_NATIVE_SRC, internal/walk and
// test files aside: no call reads the cwd (os.Getwd), resolves an absolute
// path (filepath.Abs, filepath.EvalSymlinks), derives a dir from the
// binary's source (runtime.Caller), tests absoluteness (filepath.IsAbs,
// strings.HasPrefix(p, "/")), and no argv spells git rev-parse
// --show-toplevel.
func goHalf(c *gate.Context, r *gate.Report, crosser string) (files, sites int, err error) {
	src, err := c.Knobs.Scalar("GATE_SDK_NATIVE_SRC")
	if err != nil {
		return 0, 0, err
	}
	src = strings.TrimSuffix(treePath(c, src), "/")
	tracked, err := c.Tree.Files()
	if err != nil {
		return 0, 0, err
	}
	walkDir := crosser + "/"
	for _, p := range tracked {
		if !strings.HasPrefix(p, src+"/") || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || strings.HasPrefix(p, walkDir) {
			continue
		}
		data, err := readTracked(c, p)
		if err != nil {
			return 0, 0, fmt.Errorf("cannot read %s: %w", p, unwrapPath(err))
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, data, parser.ParseComments)
		if err != nil {
			return 0, 0, fmt.Errorf("cannot parse %s: %v", p, err)
		}
		files++
		lines := strings.Split(string(data), "\n")
		report := func(pos token.Pos, what string) {
			line := fset.Position(pos).Line
			sites++
			cm := goComments(lines, line)
			if v, why := valveIn(cm, dialectValve); v && why != "" {
				return
			} else if v {
				r.Add(gate.Finding{Class: "D", Path: p, Line: line, Msg: fmt.Sprintf("%s carries // %s: with no reason, which declares nothing", what, dialectValve)})
				return
			}
			// assertion D: only internal/walk crosses.
			r.Add(gate.Finding{Class: "D", Path: p, Line: line, Msg: fmt.Sprintf("%s outside %s: the crosser is the one place a path changes spelling", what, crosser)})
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				sel, ok := x.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				pkg, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				call := pkg.Name + "." + sel.Sel.Name
				switch call {
				case "os.Getwd", "filepath.Abs", "filepath.EvalSymlinks", "runtime.Caller", "filepath.IsAbs":
					report(x.Pos(), call)
				case "strings.HasPrefix":
					if len(x.Args) == 2 {
						if lit, ok := x.Args[1].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							if v, err := strconv.Unquote(lit.Value); err == nil && (v == "/" || v == `\`) {
								report(x.Pos(), call+"(…, "+lit.Value+")")
							}
						}
					}
				}
			case *ast.BasicLit:
				if x.Kind == token.STRING {
					if v, err := strconv.Unquote(x.Value); err == nil && v == toplevelFlag {
						report(x.Pos(), `an argv spelling "--show-toplevel"`)
					}
				}
			}
			return true
		})
	}
	return files, sites, nil
}

// goComments answers the // comments on line n and in the contiguous
// comment run above it, with the leader spelled as '#' for valveIn.
func goComments(lines []string, n int) []string {
	var out []string
	if n-1 < len(lines) {
		if i := strings.Index(lines[n-1], "//"); i >= 0 {
			out = append(out, "#"+strings.TrimPrefix(lines[n-1][i:], "//"))
		}
	}
	for i := n - 2; i >= 0; i-- {
		t := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(t, "//") {
			break
		}
		out = append(out, "#"+strings.TrimPrefix(t, "//"))
	}
	return out
}
