package workflow

import "strings"

// Perm is a permissions: block as GitHub reads it.
type Perm struct {
	Present bool              // a permissions: key is there
	Line    int               // its line
	All     bool              // read-all or write-all
	Scopes  map[string]string // scope -> read, write or none
}

// Contents reports contents: readable (read or write, or a shorthand).
func (p Perm) Contents() bool {
	if p.All {
		return true
	}
	v := p.Scopes["contents"]
	return v == "read" || v == "write"
}

// Grants reports a non-empty grant: a shorthand, or a scope at read or
// write. A block whose every scope is none grants as little as {}.
func (p Perm) Grants() bool {
	if p.All {
		return true
	}
	for _, v := range p.Scopes {
		if v == "read" || v == "write" {
			return true
		}
	}
	return false
}

const permConstruct = "a permissions: value that is not a mapping of scope: read|write|none, read-all, write-all or empty"

// ReadPerm reads a permissions: node (nil: absent). It refuses a value
// that is neither a mapping, a shorthand nor empty: an expression, an
// anchor or alias, or any other scalar.
func ReadPerm(f *File, n *Node) (Perm, error) {
	if n == nil {
		return Perm{}, nil
	}
	p := Perm{Present: true, Line: n.Line, Scopes: map[string]string{}}
	refuse := func(line int) (Perm, error) {
		return Perm{}, &Refusal{f.Path, line, permConstruct}
	}
	v := n.Value
	switch {
	case v == "":
		if len(n.Cont) > 0 {
			return refuse(n.Line)
		}
		for _, k := range n.Kids {
			if k.Dash || k.Key == "" || len(k.Kids) > 0 || len(k.Cont) > 0 {
				return refuse(k.Line)
			}
			lv := scalarValue(k.Value)
			if !level(lv) {
				return refuse(k.Line)
			}
			p.Scopes[k.Key] = lv
		}
		return p, nil
	case strings.HasPrefix(v, "{"):
		items, ok := flowItems(v)
		if !ok || len(n.Cont) > 0 {
			return refuse(n.Line)
		}
		for _, it := range items {
			k, val := flowPair(it)
			lv := scalarValue(val)
			if k == "" || !level(lv) {
				return refuse(n.Line)
			}
			p.Scopes[k] = lv
		}
		return p, nil
	}
	switch scalarValue(v) {
	case "read-all", "write-all":
		p.All = true
		return p, nil
	}
	return refuse(n.Line)
}

func level(v string) bool { return v == "read" || v == "write" || v == "none" }
