package workflow

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

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

// ReadPerm reads a permissions: entry (nil: absent). It refuses a value
// that is neither a mapping, a shorthand nor empty: an expression, an
// anchor or alias, or any other scalar.
func ReadPerm(f *File, e *Entry) (Perm, error) {
	if e == nil {
		return Perm{}, nil
	}
	p := Perm{Present: true, Line: e.Line, Scopes: map[string]string{}}
	refuse := func(line int) (Perm, error) {
		return Perm{}, &Refusal{f.Path, line, permConstruct}
	}
	if e.Raw.Kind == yaml.AliasNode {
		return refuse(e.Line)
	}
	n := e.Value
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
			if k == nil || v == nil || k.Kind != yaml.ScalarNode || v.Kind != yaml.ScalarNode || !level(v.Value) {
				return refuse(n.Content[i].Line)
			}
			p.Scopes[k.Value] = v.Value
		}
		return p, nil
	case yaml.ScalarNode:
		switch {
		case n.Tag == "!!null":
			return p, nil
		case n.Value == "read-all" || n.Value == "write-all":
			p.All = true
			return p, nil
		}
		if strings.TrimSpace(n.Value) == "" && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 {
			return p, nil
		}
	}
	return refuse(e.Line)
}

func level(v string) bool { return v == "read" || v == "write" || v == "none" }
