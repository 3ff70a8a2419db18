package workflow

import (
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A step's if: is read as a GitHub expression and evaluated, for each
// matrix combination and runner OS, in three values: true, false, or
// unknown (it reads a context the reader cannot know: github.*, inputs.*,
// secrets, a status function). A step is taken out of a combination only
// when its if: is false there whatever the unknowns hold.

// tri is a three-valued truth.
type tri int8

const (
	triUnknown tri = iota
	triFalse
	triTrue
)

// valKind is the type of an expression value.
type valKind int8

const (
	vUnknown valKind = iota
	vNull
	vBool
	vNum
	vStr
	vObj // an object or array: truthy, compared by identity
)

// val is an expression value; an unknown one may still know its truth
// (x && false is falsy whatever x is).
type val struct {
	kind  valKind
	b     bool
	n     float64
	s     string
	truth tri // for vUnknown
}

var unknown = val{kind: vUnknown}

func boolVal(b bool) val { return val{kind: vBool, b: b} }

// truthOf answers a value's truth as GitHub casts it to a boolean.
func truthOf(v val) tri {
	t := false
	switch v.kind {
	case vUnknown:
		return v.truth
	case vNull:
	case vBool:
		t = v.b
	case vNum:
		t = v.n != 0 && !math.IsNaN(v.n)
	case vStr:
		t = v.s != ""
	case vObj:
		t = true
	}
	if t {
		return triTrue
	}
	return triFalse
}

// numOf casts a value to a number as GitHub does for a comparison of
// unlike types (null 0, booleans 1 and 0, a string parsed, else NaN).
func numOf(v val) float64 {
	switch v.kind {
	case vNull:
		return 0
	case vBool:
		if v.b {
			return 1
		}
		return 0
	case vNum:
		return v.n
	case vStr:
		s := strings.TrimSpace(v.s)
		if s == "" {
			return 0
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
		if i, err := strconv.ParseInt(s, 0, 64); err == nil {
			return float64(i)
		}
	}
	return math.NaN()
}

// strOf casts a value to a string for the string functions; ok is false
// for an object or an unknown.
func strOf(v val) (string, bool) {
	switch v.kind {
	case vNull:
		return "", true
	case vBool:
		return strconv.FormatBool(v.b), true
	case vNum:
		return strconv.FormatFloat(v.n, 'f', -1, 64), true
	case vStr:
		return v.s, true
	}
	return "", false
}

// ifEnv is what an evaluation knows: one matrix combination (nil when the
// matrix cannot be read: every matrix.* is unknown) and the runner's OS
// name ("" when unknown).
type ifEnv struct {
	matrix combo
	os     string
}

// ifExpr is a parsed expression node.
type ifExpr struct {
	op   string // lit, path, call, !, &&, ||, ==, !=, <, <=, >, >=
	lit  val
	path []string // lower-cased context path; "" marks an index the reader did not follow
	args []*ifExpr
}

// parseIf parses a step's if: value; nil when it cannot (the caller then
// narrows nothing). A value wrapped whole in ${{ }} is read inside;
// one holding ${{ }} among other text is not read.
func parseIf(s string) *ifExpr {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "${{") && strings.HasSuffix(s, "}}") {
		s = strings.TrimSpace(s[3 : len(s)-2])
	}
	if s == "" || strings.Contains(s, "${{") || strings.Contains(s, "}}") {
		return nil
	}
	p := &ifParser{src: s}
	e := p.or()
	p.space()
	if e == nil || p.bad || p.i != len(p.src) {
		return nil
	}
	return e
}

type ifParser struct {
	src string
	i   int
	bad bool
}

func (p *ifParser) space() {
	for p.i < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.i]) >= 0 {
		p.i++
	}
}

// eat consumes tok after blanks when it comes next.
func (p *ifParser) eat(tok string) bool {
	p.space()
	if strings.HasPrefix(p.src[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

// binary parses one level of precedence: operands of next joined, left
// to right, by any of ops (a longer operator listed before its prefix).
func (p *ifParser) binary(next func() *ifExpr, ops ...string) *ifExpr {
	l := next()
	for !p.bad {
		op := ""
		for _, o := range ops {
			if p.eat(o) {
				op = o
				break
			}
		}
		if op == "" {
			return l
		}
		l = &ifExpr{op: op, args: []*ifExpr{l, next()}}
	}
	return l
}

func (p *ifParser) or() *ifExpr  { return p.binary(p.and, "||") }
func (p *ifParser) and() *ifExpr { return p.binary(p.eq, "&&") }
func (p *ifParser) eq() *ifExpr  { return p.binary(p.rel, "==", "!=") }
func (p *ifParser) rel() *ifExpr { return p.binary(p.unary, "<=", ">=", "<", ">") }

func (p *ifParser) unary() *ifExpr {
	p.space()
	if p.i < len(p.src) && p.src[p.i] == '!' && !strings.HasPrefix(p.src[p.i:], "!=") {
		p.i++
		return &ifExpr{op: "!", args: []*ifExpr{p.unary()}}
	}
	return p.primary()
}

func isIdentByte(c byte, first bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && (c == '-' || c >= '0' && c <= '9')
}

func (p *ifParser) ident() string {
	p.space()
	from := p.i
	for p.i < len(p.src) && isIdentByte(p.src[p.i], p.i == from) {
		p.i++
	}
	return p.src[from:p.i]
}

func (p *ifParser) primary() *ifExpr {
	p.space()
	if p.i >= len(p.src) {
		p.bad = true
		return nil
	}
	c := p.src[p.i]
	switch {
	case c == '(':
		p.i++
		e := p.or()
		if !p.eat(")") {
			p.bad = true
		}
		return e
	case c == '\'':
		var b strings.Builder
		for p.i++; ; p.i++ {
			if p.i >= len(p.src) {
				p.bad = true
				return nil
			}
			if p.src[p.i] == '\'' {
				if p.i+1 < len(p.src) && p.src[p.i+1] == '\'' {
					b.WriteByte('\'')
					p.i++
					continue
				}
				p.i++
				return &ifExpr{op: "lit", lit: val{kind: vStr, s: b.String()}}
			}
			b.WriteByte(p.src[p.i])
		}
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		from := p.i
		p.i++
		for p.i < len(p.src) && (isIdentByte(p.src[p.i], false) || p.src[p.i] == '.' ||
			(p.src[p.i] == '+' || p.src[p.i] == '-') && (p.src[p.i-1] == 'e' || p.src[p.i-1] == 'E')) {
			p.i++
		}
		n := numOf(val{kind: vStr, s: p.src[from:p.i]})
		if math.IsNaN(n) {
			p.bad = true
			return nil
		}
		return &ifExpr{op: "lit", lit: val{kind: vNum, n: n}}
	}
	name := p.ident()
	if name == "" {
		p.bad = true
		return nil
	}
	switch name {
	case "true", "false":
		return &ifExpr{op: "lit", lit: boolVal(name == "true")}
	case "null":
		return &ifExpr{op: "lit", lit: val{kind: vNull}}
	}
	if p.eat("(") {
		call := &ifExpr{op: "call", path: []string{strings.ToLower(name)}}
		if p.eat(")") {
			return call
		}
		for {
			call.args = append(call.args, p.or())
			if p.bad {
				return nil
			}
			if p.eat(")") {
				return call
			}
			if !p.eat(",") {
				p.bad = true
				return nil
			}
		}
	}
	e := &ifExpr{op: "path", path: []string{strings.ToLower(name)}}
	for !p.bad {
		switch {
		case p.eat("."):
			if p.eat("*") {
				e.path = append(e.path, "")
				continue
			}
			seg := p.ident()
			if seg == "" {
				p.bad = true
				return nil
			}
			e.path = append(e.path, seg)
		case p.eat("["):
			idx := p.or()
			if !p.eat("]") || idx == nil {
				p.bad = true
				return nil
			}
			if idx.op == "lit" && idx.lit.kind == vStr {
				e.path = append(e.path, idx.lit.s)
			} else {
				e.path = append(e.path, "")
			}
		default:
			return e
		}
	}
	return nil
}

// eval evaluates the expression under env.
func (e *ifExpr) eval(env ifEnv) val {
	switch e.op {
	case "lit":
		return e.lit
	case "path":
		return env.pathValue(e.path)
	case "call":
		return env.call(e.path[0], e.args)
	case "!":
		switch truthOf(e.args[0].eval(env)) {
		case triTrue:
			return boolVal(false)
		case triFalse:
			return boolVal(true)
		}
		return unknown
	case "&&", "||":
		l := e.args[0].eval(env)
		lt := truthOf(l)
		if (e.op == "&&" && lt == triFalse) || (e.op == "||" && lt == triTrue) {
			return l // false && x, true || x
		}
		r := e.args[1].eval(env)
		if lt != triUnknown {
			return r
		}
		// The left side is unknown: the result is one side or the other.
		rt := truthOf(r)
		if (e.op == "&&" && rt == triFalse) || (e.op == "||" && rt == triTrue) {
			return val{kind: vUnknown, truth: rt}
		}
		return unknown
	}
	l, r := e.args[0].eval(env), e.args[1].eval(env)
	return compare(e.op, l, r)
}

// compare applies a comparison as GitHub does: like types compared as
// they are (strings without regard to case), unlike ones as numbers.
func compare(op string, l, r val) val {
	if l.kind == vUnknown || r.kind == vUnknown || l.kind == vObj || r.kind == vObj {
		return unknown
	}
	c := 0
	nan := false
	switch {
	case l.kind == vStr && r.kind == vStr:
		c = strings.Compare(strings.ToLower(l.s), strings.ToLower(r.s))
	case l.kind == vNull && r.kind == vNull:
	case l.kind == vBool && r.kind == vBool:
		c = numCmp(numOf(l), numOf(r))
	default:
		a, b := numOf(l), numOf(r)
		nan = math.IsNaN(a) || math.IsNaN(b)
		c = numCmp(a, b)
	}
	if nan {
		return boolVal(op == "!=")
	}
	switch op {
	case "==":
		return boolVal(c == 0)
	case "!=":
		return boolVal(c != 0)
	case "<":
		return boolVal(c < 0)
	case "<=":
		return boolVal(c <= 0)
	case ">":
		return boolVal(c > 0)
	}
	return boolVal(c >= 0)
}

func numCmp(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// pathValue reads a context path: matrix.* from the combination (a key
// it does not hold is null, as at run time) and runner.os; anything else
// is unknown.
func (env ifEnv) pathValue(path []string) val {
	switch {
	case len(path) == 2 && path[0] == "runner" && strings.EqualFold(path[1], "os"):
		if env.os == "" {
			return unknown
		}
		return val{kind: vStr, s: env.os}
	case path[0] != "matrix" || env.matrix == nil:
		return unknown
	case len(path) == 1:
		return val{kind: vObj}
	}
	for _, seg := range path[1:] {
		if seg == "" {
			return unknown
		}
	}
	// GitHub reads a property name without regard to case: matrix.OS is
	// the key os.
	var n *yaml.Node
	for k, v := range env.matrix {
		if strings.EqualFold(k, path[1]) {
			if n != nil {
				return unknown // two keys one name: not read
			}
			n = v
		}
	}
	for _, seg := range path[2:] {
		if n = resolve(n); n == nil || n.Kind != yaml.MappingNode {
			n = nil
			break
		}
		var next *yaml.Node
		for _, e := range entries(n) {
			if strings.EqualFold(e.Key, seg) {
				if next != nil {
					return unknown
				}
				next = e.Value
			}
		}
		n = next
	}
	if n = resolve(n); n == nil {
		return val{kind: vNull}
	}
	return nodeVal(n)
}

// nodeVal reads a YAML node as an expression value.
func nodeVal(n *yaml.Node) val {
	if n.Kind != yaml.ScalarNode {
		return val{kind: vObj}
	}
	switch n.ShortTag() {
	case "!!null":
		return val{kind: vNull}
	case "!!bool":
		b, err := strconv.ParseBool(strings.ToLower(n.Value))
		if err != nil {
			return unknown
		}
		return boolVal(b)
	case "!!int", "!!float":
		f := numOf(val{kind: vStr, s: n.Value})
		if math.IsNaN(f) {
			return unknown
		}
		return val{kind: vNum, n: f}
	}
	return val{kind: vStr, s: n.Value}
}

// call evaluates the string tests; every other function is unknown.
func (env ifEnv) call(name string, args []*ifExpr) val {
	var test func(a, b string) bool
	switch name {
	case "startswith":
		test = strings.HasPrefix
	case "endswith":
		test = strings.HasSuffix
	case "contains":
		test = strings.Contains
	case "format":
		return env.format(args)
	default:
		return unknown
	}
	if len(args) != 2 {
		return unknown
	}
	a, aok := strOf(args[0].eval(env))
	b, bok := strOf(args[1].eval(env))
	if !aok || !bok {
		return unknown
	}
	return boolVal(test(strings.ToLower(a), strings.ToLower(b)))
}

// mayRun reports whether a step under this if: may run in env: its value
// is not known false. A nil expression (no if:, or one not read) may run.
func (e *ifExpr) mayRun(env ifEnv) bool {
	return e == nil || truthOf(e.eval(env)) != triFalse
}

// mayRunOn reports whether the step may run in combination c on a runner
// of class r (a non-Windows runner is Linux or macOS).
func (e *ifExpr) mayRunOn(c combo, r Runner) bool {
	switch r {
	case Windows:
		return e.mayRun(ifEnv{c, "Windows"})
	case NonWindows:
		return e.mayRun(ifEnv{c, "Linux"}) || e.mayRun(ifEnv{c, "macOS"})
	}
	return e.mayRun(ifEnv{matrix: c})
}

// format evaluates format('{0}-{1}', a, b) as GitHub does when every
// argument is known: {N} is the Nth argument after the pattern, {{ and }}
// are literal braces; any other brace makes the value unknown, as GitHub
// fails the expression.
func (env ifEnv) format(args []*ifExpr) val {
	if len(args) == 0 {
		return unknown
	}
	strs := make([]string, len(args))
	for i, a := range args {
		s, ok := strOf(a.eval(env))
		if !ok {
			return unknown
		}
		strs[i] = s
	}
	pat, rest := strs[0], strs[1:]
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch {
		case c == '{' && i+1 < len(pat) && pat[i+1] == '{':
			b.WriteByte('{')
			i++
		case c == '}' && i+1 < len(pat) && pat[i+1] == '}':
			b.WriteByte('}')
			i++
		case c == '{':
			j := strings.IndexByte(pat[i:], '}')
			if j < 2 {
				return unknown
			}
			n, err := strconv.Atoi(pat[i+1 : i+j])
			if err != nil || n < 0 || n >= len(rest) {
				return unknown
			}
			b.WriteString(rest[n])
			i += j
		case c == '}':
			return unknown
		default:
			b.WriteByte(c)
		}
	}
	return val{kind: vStr, s: b.String()}
}
