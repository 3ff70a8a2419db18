// Package gosrc reads the module's own Go source as the compiler would:
// through go/parser, never by scanning text. It answers, per file, the
// string values the file spells and where, with constants folded so that
// every spelling of one value reads alike: an interpreted "…" and a raw
// `…` literal, a concatenation of constants, and a named constant declared
// in this file, another file of the package or another first-party
// package. It also answers the first-party imports and the package-level
// names a file leans on in its sibling files, the two hops a member's
// source cut takes.
//
// It is a reader: it reads bytes it is handed and starts nothing, walks
// nothing; the caller owns the listing and the file reads.
package gosrc

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"strconv"
	"strings"
)

// SyntaxError is a file the parser rejects, located at its first error.
type SyntaxError struct {
	Path string
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d: Go source the parser rejects: %s", e.Path, e.Line, e.Msg)
}

// File is one parsed source file.
type File struct {
	Path    string // as the caller spelled it
	Package string // the package clause's name
	fset    *token.FileSet
	ast     *ast.File
	// specValues maps every const spec of the file to the expressions it
	// takes, an implicit repetition in a group resolved to the spec above.
	specValues map[*ast.ValueSpec][]ast.Expr
}

// Parse parses one file. A file the parser rejects is a *SyntaxError.
func Parse(name string, src []byte) (*File, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		line, msg := 0, err.Error()
		if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
			line, msg = list[0].Pos.Line, list[0].Msg
		}
		return nil, &SyntaxError{Path: name, Line: line, Msg: msg}
	}
	gf := &File{Path: name, Package: f.Name.Name, fset: fset, ast: f, specValues: map[*ast.ValueSpec][]ast.Expr{}}
	ast.Inspect(f, func(n ast.Node) bool {
		d, ok := n.(*ast.GenDecl)
		if !ok || d.Tok != token.CONST {
			return true
		}
		var last []ast.Expr
		for _, s := range d.Specs {
			vs := s.(*ast.ValueSpec)
			if len(vs.Values) > 0 {
				last = vs.Values
			}
			gf.specValues[vs] = last
		}
		return true
	})
	return gf, nil
}

// Imports answers the file's import paths in source order.
func (f *File) Imports() []string {
	out := make([]string, 0, len(f.ast.Imports))
	for _, im := range f.ast.Imports {
		if p, err := strconv.Unquote(im.Path.Value); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// Declares answers the package-level names the file declares (functions,
// methods' receivers excluded, types, variables, constants).
func (f *File) Declares() []string {
	var out []string
	for _, d := range f.ast.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				out = append(out, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out = append(out, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						out = append(out, n.Name)
					}
				}
			}
		}
	}
	return out
}

// Leans answers the names the file uses that it does not declare: those a
// sibling file of its package (or the universe) must supply.
func (f *File) Leans() []string {
	seen := map[string]bool{}
	for _, im := range f.ast.Imports {
		if im.Name != nil {
			seen[im.Name.Name] = true
		} else if ip, err := strconv.Unquote(im.Path.Value); err == nil {
			seen[path.Base(ip)] = true
		}
	}
	var out []string
	for _, id := range f.ast.Unresolved {
		if !seen[id.Name] {
			seen[id.Name] = true
			out = append(out, id.Name)
		}
	}
	return out
}

// Package is the files of one package, for resolving its constants.
type Package struct {
	Path   string // import path
	Name   string // package clause name
	consts map[string]constRef
	types  map[string]bool
}

type constRef struct {
	file  *File
	spec  *ast.ValueSpec
	index int
}

// NewPackage groups parsed files of one import path. Files of another
// package clause (an external test package) are left out.
func NewPackage(importPath string, files []*File) *Package {
	p := &Package{Path: importPath, consts: map[string]constRef{}, types: map[string]bool{}}
	for _, f := range files {
		if p.Name == "" {
			p.Name = f.Package
		}
		if f.Package != p.Name {
			continue
		}
		for _, d := range f.ast.Decls {
			g, ok := d.(*ast.GenDecl)
			if ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					p.types[s.(*ast.TypeSpec).Name.Name] = true
				}
			}
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					p.consts[n.Name] = constRef{file: f, spec: vs, index: i}
				}
			}
		}
	}
	return p
}

// Resolver answers the package of a first-party import path, nil when the
// path is not first-party (its constants are then opaque).
type Resolver func(importPath string) (*Package, error)

// Literal is one string value a file spells: a maximal constant string
// expression that is not a bare reference to a named constant.
type Literal struct {
	Line  int    // the expression's opening line
	Value string // the folded value
}

// Literals answers every string value the file spells, in source order.
// pkg is the file's own package; resolve supplies first-party packages a
// selector names. A package resolve fails on is the error.
func Literals(f *File, pkg *Package, resolve Resolver) ([]Literal, error) {
	ev := &evaluator{pkg: pkg, resolve: resolve, busy: map[constRef]bool{}, pkgs: map[string]*Package{}}
	var out []Literal
	var walkErr error
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if walkErr != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.ImportSpec:
			return false // an import path is the toolchain's, not a value
		case *ast.Field:
			// A struct tag is metadata, not a value: visit the rest only.
			for _, nm := range n.Names {
				ast.Inspect(nm, visit)
			}
			if n.Type != nil {
				ast.Inspect(n.Type, visit)
			}
			return false
		case ast.Expr:
			if ev.bareRef(f, n) {
				return true
			}
			v, ok, err := ev.eval(f, n)
			if err != nil {
				walkErr = err
				return false
			}
			if ok {
				out = append(out, Literal{Line: f.fset.Position(n.Pos()).Line, Value: v})
				return false
			}
		}
		return true
	}
	ast.Inspect(f.ast, visit)
	return out, walkErr
}

// bareRef reports an expression that only names a constant (through any
// parentheses or conversions): its value was judged where it was spelled.
func (ev *evaluator) bareRef(f *File, e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.CallExpr:
			if len(x.Args) != 1 || !ev.conversion(f, x.Fun) {
				return false
			}
			e = x.Args[0]
		case *ast.Ident:
			return true
		case *ast.SelectorExpr:
			_, ok := x.X.(*ast.Ident)
			return ok
		default:
			return false
		}
	}
}

// conversion reports a call head naming a type, so the call is a
// conversion that keeps a constant's value: string, a type the file or its
// package declares, or a type of a first-party package. A function, a
// builtin or a name it cannot place is no conversion.
func (ev *evaluator) conversion(f *File, fun ast.Expr) bool {
	switch x := fun.(type) {
	case *ast.ParenExpr:
		return ev.conversion(f, x.X)
	case *ast.Ident:
		if x.Obj != nil {
			return x.Obj.Kind == ast.Typ
		}
		if ev.pkg != nil && ev.pkg.types[x.Name] {
			return true
		}
		return x.Name == "string"
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		if !ok || id.Obj != nil {
			return false
		}
		p, err := ev.importNamed(f, id.Name)
		return err == nil && p != nil && p.types[x.Sel.Name]
	}
	return false
}

type evaluator struct {
	pkg     *Package
	resolve Resolver
	busy    map[constRef]bool
	pkgs    map[string]*Package
}

// eval folds e as a constant string expression. ok is false for anything
// that is not one (a variable, a call, a number).
func (ev *evaluator) eval(f *File, e ast.Expr) (string, bool, error) {
	v, err := ev.value(f, e)
	if err != nil || v == nil || v.Kind() != constant.String {
		return "", false, err
	}
	return constant.StringVal(v), true, nil
}

func (ev *evaluator) value(f *File, e ast.Expr) (constant.Value, error) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return nil, nil
		}
		v := constant.MakeFromLiteral(x.Value, token.STRING, 0)
		if v.Kind() == constant.Unknown {
			return nil, nil
		}
		return v, nil
	case *ast.ParenExpr:
		return ev.value(f, x.X)
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return nil, nil
		}
		a, err := ev.value(f, x.X)
		if err != nil || a == nil || a.Kind() != constant.String {
			return nil, err
		}
		b, err := ev.value(f, x.Y)
		if err != nil || b == nil || b.Kind() != constant.String {
			return nil, err
		}
		return constant.BinaryOp(a, token.ADD, b), nil
	case *ast.CallExpr:
		if len(x.Args) != 1 || x.Ellipsis.IsValid() || !ev.conversion(f, x.Fun) {
			return nil, nil
		}
		v, err := ev.value(f, x.Args[0])
		if err != nil || v == nil || v.Kind() != constant.String {
			return nil, err
		}
		return v, nil
	case *ast.Ident:
		if x.Obj != nil {
			if x.Obj.Kind != ast.Con {
				return nil, nil
			}
			vs, ok := x.Obj.Decl.(*ast.ValueSpec)
			if !ok {
				return nil, nil
			}
			for i, n := range vs.Names {
				if n.Name == x.Name {
					return ev.ref(constRef{file: f, spec: vs, index: i})
				}
			}
			return nil, nil
		}
		if ev.pkg == nil {
			return nil, nil
		}
		ref, ok := ev.pkg.consts[x.Name]
		if !ok {
			return nil, nil
		}
		return ev.ref(ref)
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		if !ok || id.Obj != nil {
			return nil, nil
		}
		p, err := ev.importNamed(f, id.Name)
		if err != nil || p == nil {
			return nil, err
		}
		ref, ok := p.consts[x.Sel.Name]
		if !ok {
			return nil, nil
		}
		return ev.ref(ref)
	}
	return nil, nil
}

// ref folds a named constant, in the file that declares it. A cycle (which
// the compiler refuses) folds to nothing rather than looping.
func (ev *evaluator) ref(r constRef) (constant.Value, error) {
	if ev.busy[r] {
		return nil, nil
	}
	vals := r.file.specValues[r.spec]
	if r.index >= len(vals) {
		return nil, nil
	}
	ev.busy[r] = true
	defer delete(ev.busy, r)
	return ev.value(r.file, vals[r.index])
}

// importNamed answers the first-party package a file imports under name.
func (ev *evaluator) importNamed(f *File, name string) (*Package, error) {
	if ev.resolve == nil {
		return nil, nil
	}
	for _, im := range f.ast.Imports {
		ip, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		if im.Name != nil {
			if im.Name.Name != name {
				continue
			}
		} else if path.Base(ip) != name && !ev.named(ip, name) {
			continue
		}
		p, ok := ev.pkgs[ip]
		if !ok {
			if p, err = ev.resolve(ip); err != nil {
				return nil, err
			}
			ev.pkgs[ip] = p
		}
		if p != nil && (im.Name != nil || p.Name == name) {
			return p, nil
		}
	}
	return nil, nil
}

// named reports a first-party import whose package clause is name though
// its last path element differs.
func (ev *evaluator) named(ip, name string) bool {
	p, ok := ev.pkgs[ip]
	if !ok {
		var err error
		if p, err = ev.resolve(ip); err != nil {
			return false
		}
		ev.pkgs[ip] = p
	}
	return p != nil && p.Name == name
}

// Comment is one line of comment text and the line it sits on.
type Comment struct {
	Line int
	Text string
}

// Comments answers every comment line of the file, a block comment split
// into its lines, each with its own line number.
func (f *File) Comments() []Comment {
	var out []Comment
	for _, g := range f.ast.Comments {
		for _, c := range g.List {
			line := f.fset.Position(c.Slash).Line
			for i, l := range strings.Split(c.Text, "\n") {
				out = append(out, Comment{Line: line + i, Text: l})
			}
		}
	}
	return out
}

// ModulePath answers the module directive of a go.mod file. A file with
// none, or with a malformed one, is an error naming the line.
func ModulePath(name string, gomod []byte) (string, error) {
	for i, raw := range bytes.Split(gomod, []byte("\n")) {
		line := string(raw)
		if j := strings.Index(line, "//"); j >= 0 {
			line = line[:j]
		}
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, "module")
		if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '"' && rest[0] != '(') {
			continue
		}
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, "\"") || strings.HasPrefix(rest, "`") {
			u, err := strconv.Unquote(rest)
			if err != nil {
				return "", fmt.Errorf("%s:%d: malformed module directive", name, i+1)
			}
			rest = u
		}
		if rest == "" || strings.ContainsAny(rest, " \t\"`()") {
			return "", fmt.Errorf("%s:%d: malformed module directive", name, i+1)
		}
		return rest, nil
	}
	return "", fmt.Errorf("%s: no module directive", name)
}
