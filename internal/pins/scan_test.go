package pins

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
)

// setenvHelper is the one file that may write this process's environment
// (module-relative). Everything else passes an environment to the spawn or
// a lookup function to the code under test.
const setenvHelper = "internal/testenv/setenv.go"

// lsFiles is the git subcommand the listing pin keys on, spelled in two
// literals so this file carries no such token of its own.
const lsFiles = "ls-" + "files"

// valveSpawn marks a declared exception to the spawn funnel: a site that
// replaces the process image (syscall.Exec) rather than starting a child.
const valveSpawn = "spawn-funnel-exempt:"

// valveProbe marks a literal that names a probe flag without asking git
// where a repository is: a parser of someone else's git command line.
const valveProbe = "probe-literal-exempt:"

// srcFile is one parsed Go file.
type srcFile struct {
	path    string // module-relative, '/'-separated
	test    bool
	fset    *token.FileSet
	file    *ast.File
	lines   []string
	imports map[string]string // local name -> import path
	// testVars are identifiers declared as *testing.T/B/F or testing.TB.
	testVars map[string]bool
}

type finding struct {
	pin  string
	path string
	line int
	msg  string
}

func (f finding) String() string { return fmt.Sprintf("%s:%d: [%s] %s", f.path, f.line, f.pin, f.msg) }

func parseSource(path string, src []byte) (*srcFile, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	sf := &srcFile{
		path:     path,
		test:     strings.HasSuffix(path, "_test.go"),
		fset:     fset,
		file:     f,
		lines:    strings.Split(string(src), "\n"),
		imports:  map[string]string{},
		testVars: map[string]bool{"t": true, "b": true, "tb": true},
	}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		sf.imports[name] = p
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if fl, ok := n.(*ast.Field); ok && isTestingType(sf, fl.Type) {
			for _, id := range fl.Names {
				sf.testVars[id.Name] = true
			}
		}
		return true
	})
	return sf, nil
}

func isTestingType(sf *srcFile, e ast.Expr) bool {
	if st, ok := e.(*ast.StarExpr); ok {
		e = st.X
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && sf.imports[id.Name] == "testing"
}

func (sf *srcFile) line(p token.Pos) int { return sf.fset.Position(p).Line }

// pkgRef answers the import path and name a selector spells when its left
// side is an imported package.
func (sf *srcFile) pkgRef(sel *ast.SelectorExpr) (string, string, bool) {
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", "", false
	}
	p, ok := sf.imports[id.Name]
	return p, sel.Sel.Name, ok
}

// under reports whether the file lies in the module directory dir.
func (sf *srcFile) under(dir string) bool { return strings.HasPrefix(sf.path, dir+"/") }

// valved reports a valve token with a non-empty cause in the four lines
// above line (or on it).
func (sf *srcFile) valved(line int, token string) bool {
	for l := line; l >= line-4 && l >= 1; l-- {
		text := sf.lines[l-1]
		if i := strings.Index(text, token); i >= 0 && strings.TrimSpace(text[i+len(token):]) != "" {
			return true
		}
	}
	return false
}

// selectorPin reports every reference to a banned package member.
func selectorPin(pin string, banned map[string][]string, applies func(*srcFile) bool, valve string) func(*srcFile) []finding {
	return func(sf *srcFile) []finding {
		if !applies(sf) {
			return nil
		}
		var out []finding
		ast.Inspect(sf.file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			p, name, ok := sf.pkgRef(sel)
			if !ok {
				return true
			}
			for _, b := range banned[p] {
				if b != name {
					continue
				}
				l := sf.line(sel.Pos())
				if valve != "" && sf.valved(l, valve) {
					continue
				}
				out = append(out, finding{pin, sf.path, l, fmt.Sprintf("%s.%s", p, name)})
			}
			return true
		})
		return out
	}
}

// The pins. Each answers the findings in one file.

var spawnBanned = map[string][]string{
	"os/exec":               {"Command", "CommandContext", "Cmd"},
	"os":                    {"StartProcess"},
	"syscall":               {"ForkExec", "Exec", "StartProcess"},
	"golang.org/x/sys/unix": {"Exec", "ForkExec"},
}

// pinSpawn: only internal/spawn starts a process (shipped code).
func pinSpawn(sf *srcFile) []finding {
	return selectorPin("spawn", spawnBanned, func(sf *srcFile) bool {
		return !sf.test && !sf.under("internal/spawn")
	}, valveSpawn)(sf)
}

var walkBanned = map[string][]string{
	"path/filepath": {"Walk", "WalkDir", "Abs", "EvalSymlinks", "IsAbs"},
	"io/fs":         {"WalkDir"},
	"os":            {"Getwd"},
	"syscall":       {"Getwd"},
	"path":          {"IsAbs"},
}

// pinWalk: only internal/walk walks a tree, reads the working directory or
// tests absoluteness (shipped code).
func pinWalk(sf *srcFile) []finding {
	return selectorPin("walk", walkBanned, func(sf *srcFile) bool {
		return !sf.test && !sf.under("internal/walk")
	}, "")(sf)
}

// pinStateRead: the git-dir state readers (the hooks' records, the agent
// hooks' state, FETCH_HEAD and worktree HEADs, the status line's reads)
// open files through walk.ReadConfig, which opens no FIFO and bounds the
// size: a state file a hostile tree or tool replaced never hangs a hook.
func pinStateRead(sf *srcFile) []finding {
	return selectorPin("state-read", map[string][]string{"os": {"ReadFile"}}, func(sf *srcFile) bool {
		return !sf.test && (sf.under("internal/harness") || sf.under("internal/githook") ||
			sf.path == "internal/cli/statusline.go")
	}, "")(sf)
}

// pinExecutable: only internal/spawn reads the binary's own path (tests
// included).
func pinExecutable(sf *srcFile) []finding {
	return selectorPin("executable", map[string][]string{"os": {"Executable"}}, func(sf *srcFile) bool {
		return !sf.under("internal/spawn")
	}, "")(sf)
}

// pinChdir: nothing changes the working directory, tests included: set
// the directory on the spawn instead.
func pinChdir(sf *srcFile) []finding {
	var out []finding
	ast.Inspect(sf.file, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || (sel.Sel.Name != "Chdir" && sel.Sel.Name != "Fchdir") {
			return true
		}
		out = append(out, finding{"chdir", sf.path, sf.line(sel.Pos()), "changes the working directory; set Dir on the spawn instead"})
		return true
	})
	return out
}

var envWriters = map[string]bool{"Setenv": true, "Unsetenv": true, "Clearenv": true}

// pinSetenv: only the helper file writes the environment (tests included).
func pinSetenv(sf *srcFile) []finding {
	if sf.path == setenvHelper {
		return nil
	}
	var out []finding
	ast.Inspect(sf.file, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || !envWriters[sel.Sel.Name] {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		p, isPkg := sf.imports[id.Name]
		if (isPkg && (p == "os" || p == "syscall" || p == "golang.org/x/sys/unix")) || (!isPkg && sf.testVars[id.Name]) {
			out = append(out, finding{"setenv", sf.path, sf.line(sel.Pos()), id.Name + "." + sel.Sel.Name + " writes the environment; pass an environment instead"})
		}
		return true
	})
	return out
}

// lsFilesRoster names files allowed a line-form listing token, one token
// each, with the reason. A row whose token has gone reds too.
var lsFilesRoster = map[string]string{
	"internal/gates/exec_bit_test.go": "feeds git's own line-form stage dump to check-exec-bit's dump reader, whose C-unquoting is the subject",
}

// lsFilesTokens answers the line of every line-form listing token in a
// file outside internal/repo: a quoted ls-files whose argv (the enclosing
// call's arguments or composite literal's elements) carries neither -z nor
// --error-unmatch.
func lsFilesTokens(sf *srcFile) []int {
	if sf.under("internal/repo") {
		return nil
	}
	var lines []int
	var stack []ast.Node
	ast.Inspect(sf.file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		if v, err := strconv.Unquote(lit.Value); err != nil || v != lsFiles {
			return true
		}
		if !argvHasNulForm(stack) {
			lines = append(lines, sf.line(lit.Pos()))
		}
		return true
	})
	return lines
}

func argvHasNulForm(stack []ast.Node) bool {
	for i := len(stack) - 2; i >= 0; i-- {
		var elems []ast.Expr
		switch n := stack[i].(type) {
		case *ast.CallExpr:
			elems = n.Args
		case *ast.CompositeLit:
			elems = n.Elts
		default:
			continue
		}
		for _, e := range elems {
			if l, ok := e.(*ast.BasicLit); ok && l.Kind == token.STRING {
				if v, err := strconv.Unquote(l.Value); err == nil && (v == "-z" || v == "--error-unmatch") {
					return true
				}
			}
		}
		return false
	}
	return false
}

func pinLsFiles(sf *srcFile) []finding {
	lines := lsFilesTokens(sf)
	if _, rostered := lsFilesRoster[sf.path]; rostered && len(lines) == 1 {
		return nil
	}
	var out []finding
	for _, l := range lines {
		out = append(out, finding{"listing", sf.path, l, "a tracked listing read in line form; use -z (repo.Tracked)"})
	}
	return out
}

// probeFlags are the repository probes and locators only the crosser asks.
var probeFlags = map[string]bool{
	"--show-toplevel": true, "--show-prefix": true, "--is-inside-work-tree": true,
	"--git-dir": true, "--git-common-dir": true, "--absolute-git-dir": true,
}

// pinProbes: a module asking where a repository is asks walk, never git
// (shipped code).
func pinProbes(sf *srcFile) []finding {
	if sf.test || sf.under("internal/walk") {
		return nil
	}
	var out []finding
	ast.Inspect(sf.file, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		if v, err := strconv.Unquote(lit.Value); err == nil && probeFlags[v] && !sf.valved(sf.line(lit.Pos()), valveProbe) {
			out = append(out, finding{"probe", sf.path, sf.line(lit.Pos()), "git rev-parse " + v + " outside the crosser; ask walk.ToplevelOpt / walk.Locate, or walk.GitDirs for git's directories"})
		}
		return true
	})
	return out
}

// moduleRoot is the module's root relative to this package's directory,
// where go test runs it.
const moduleRoot = "../.."

// moduleFiles parses every Go file of the module, skipping what the go
// tool skips (testdata, directories starting with '.' or '_', and nested
// modules).
func moduleFiles() ([]*srcFile, error) {
	mod, err := os.ReadFile(walk.Child(moduleRoot, "go.mod"))
	if err != nil || !bytes.Contains(mod, []byte("module github.com/gate-sdk/gates")) {
		return nil, fmt.Errorf("module root not found at %s: %v", moduleRoot, err)
	}
	var files []*srcFile
	err = walk.Walk(moduleRoot, walk.Options{Prune: walk.NewPruneSet("testdata vendor node_modules", "")}, func(rel string, d fs.DirEntry) error {
		name := d.Name()
		if d.IsDir() {
			if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return fs.SkipDir
			}
			// A directory with its own go.mod is another module (a fixture
			// case's stand-in sources), outside this one as the go tool sees it.
			if rel != "." && rel != "" {
				if _, err := os.Stat(walk.Child(walk.Child(moduleRoot, rel), "go.mod")); err == nil {
					return fs.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		src, err := os.ReadFile(walk.Child(moduleRoot, rel))
		if err != nil {
			return err
		}
		sf, err := parseSource(rel, src)
		if err != nil {
			return fmt.Errorf("parse %s: %w", rel, err)
		}
		files = append(files, sf)
		return nil
	})
	return files, err
}

func run(files []*srcFile, pin func(*srcFile) []finding) []finding {
	var out []finding
	for _, f := range files {
		out = append(out, pin(f)...)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].path != out[j].path {
			return out[i].path < out[j].path
		}
		return out[i].line < out[j].line
	})
	return out
}
