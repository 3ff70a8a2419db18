package workflow

import "strings"

// exprLabels answers the runner labels an expression can yield, read the
// way GitHub evaluates && and || (each hands back one of its operands):
// x && y yields y or a falsy x (empty, false, 0, null: never a label);
// x || y yields a truthy x or y. A comparison, a negation or a string test
// yields a boolean, no label. ok is false when some operand that can be
// handed back is a value the reader does not know (a context, an input, a
// function it does not evaluate), so that any label may come out.
func exprLabels(e *ifExpr, env ifEnv) (labels []string, ok bool) {
	if e == nil {
		return nil, false
	}
	switch v := e.eval(env); v.kind {
	case vStr:
		if v.s == "" {
			return nil, true
		}
		return []string{v.s}, true
	case vNull, vBool, vNum:
		return nil, true
	case vObj:
		return nil, false
	}
	switch e.op {
	case "!", "==", "!=", "<", "<=", ">", ">=":
		return nil, true
	case "call":
		switch e.path[0] {
		case "startswith", "endswith", "contains", "success", "failure", "always", "cancelled":
			return nil, true
		}
		return nil, false
	case "&&":
		if truthOf(e.args[0].eval(env)) == triFalse {
			return nil, true
		}
		return exprLabels(e.args[1], env)
	case "||":
		left := e.args[0].eval(env)
		switch truthOf(left) {
		case triTrue:
			return exprLabels(e.args[0], env)
		case triFalse:
			return exprLabels(e.args[1], env)
		}
		l, lok := exprLabels(e.args[0], env)
		r, rok := exprLabels(e.args[1], env)
		return append(l, r...), lok && rok
	}
	return nil, false
}

// exprRunner classifies a runs-on that is one whole expression by the
// labels it can yield under env: Windows or not when every label it can
// yield agrees, ok false when it can yield a label not known or labels of
// both kinds.
func exprRunner(v string, env ifEnv) (Runner, bool) {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "${{") || !strings.HasSuffix(v, "}}") {
		return Unreadable, false
	}
	labels, ok := exprLabels(parseIf(v), env)
	if !ok || len(labels) == 0 {
		return Unreadable, false
	}
	win, other := false, false
	for _, l := range labels {
		w := windowsLabel(l)
		win, other = win || w, other || !w
	}
	return oneClass(win, other)
}
