package workflow

import "strings"

// Node is one entry of the indentation tree: a mapping key, or a sequence
// item. Lines are 1-based file line numbers.
type Node struct {
	Line    int    // the line the key (or the item's dash) sits on
	Col     int    // column of the key token; for a scalar item, of the scalar
	Dash    bool   // the node is a sequence item
	DashCol int    // column of the item's dash
	Key     string // mapping key, unquoted; "" for an item or a stray scalar
	Raw     string // text after "key:" (or the item's scalar), comment kept
	Value   string // Raw with its trailing comment stripped, trimmed
	Cont    []int  // lines absorbed by the value: a block scalar's body, a plain or quoted scalar's continuation
	Kids    []*Node
	End     int // last line of the node's extent
}

// Child answers the first child mapping entry called key.
func (n *Node) Child(key string) *Node {
	if n == nil {
		return nil
	}
	for _, k := range n.Kids {
		if !k.Dash && k.Key == key {
			return k
		}
	}
	return nil
}

// Items answers the node's sequence items.
func (n *Node) Items() []*Node {
	if n == nil {
		return nil
	}
	var out []*Node
	for _, k := range n.Kids {
		if k.Dash {
			out = append(out, k)
		}
	}
	return out
}

// treeParser builds the indentation tree over a file's lines.
type treeParser struct {
	lines []srcLine
	i     int // index of the next unread line
}

// nextContent answers the index of the next line that is neither blank
// nor a comment, from p.i on, or len(lines).
func (p *treeParser) nextContent() int {
	j := p.i
	for j < len(p.lines) && (p.lines[j].blank || p.lines[j].comment) {
		j++
	}
	return j
}

// parseTop reads the column-0 collection(s) of the whole file.
func parseTop(lines []srcLine) []*Node {
	p := &treeParser{lines: lines}
	var out []*Node
	for {
		j := p.nextContent()
		if j >= len(p.lines) {
			return out
		}
		p.i = j
		out = append(out, p.collection(p.lines[j].indent, false)...)
	}
}

// collection reads entries at column col until a content line sits left
// of it. With dashOnly it stops at the first line that is not an item at
// col (an indentless sequence under a key at the same column).
func (p *treeParser) collection(col int, dashOnly bool) []*Node {
	var out []*Node
	for {
		j := p.nextContent()
		if j >= len(p.lines) {
			return out
		}
		ln := p.lines[j]
		if ln.indent != col {
			if ln.indent < col || len(out) > 0 {
				return out
			}
		}
		body := ln.text[ln.indent:]
		if dashOnly && !isDash(body) {
			return out
		}
		p.i = j
		out = append(out, p.entry(j, ln.indent, body))
	}
}

func isDash(s string) bool {
	return s == "-" || strings.HasPrefix(s, "- ") || strings.HasPrefix(s, "-\t")
}

// entry reads the entry whose text body starts at column col of line j,
// and every following line that belongs to it.
func (p *treeParser) entry(j, col int, body string) *Node {
	p.i = j + 1
	if isDash(body) {
		n := &Node{Line: j + 1, Col: col, Dash: true, DashCol: col, End: j + 1}
		rest := strings.TrimLeft(body[1:], " \t")
		if rest == "" || rest[0] == '#' {
			p.children(n, col, false)
			return n
		}
		inner := col + (len(body) - len(rest))
		if _, _, ok := splitKey(rest); ok || isDash(rest) {
			// A mapping (or a nested sequence) opened on the dash line: its
			// first entry sits at inner, its siblings on later lines at the
			// same column.
			first := p.entry(j, inner, rest)
			n.Kids = append(n.Kids, first)
			if !isDash(rest) {
				n.Kids = append(n.Kids, p.collection(inner, false)...)
			}
			n.Col = inner
			p.children(n, col, false)
			n.End = maxEnd(n)
			return n
		}
		n.Col = inner
		n.Raw = rest
		n.Value = stripComment(rest)
		p.absorb(n, col)
		return n
	}
	key, rest, ok := splitKey(body)
	if !ok {
		n := &Node{Line: j + 1, Col: col, Raw: body, Value: stripComment(body), End: j + 1}
		p.absorb(n, col)
		return n
	}
	n := &Node{Line: j + 1, Col: col, Key: key, Raw: rest, Value: stripComment(rest), End: j + 1}
	if v := n.Value; v != "" && !propertyOnly(v) {
		p.absorb(n, col)
		return n
	}
	p.children(n, col, true)
	return n
}

// propertyOnly reports a value that is only an anchor and/or a tag, whose
// node continues on the following lines.
func propertyOnly(v string) bool {
	for _, f := range strings.Fields(v) {
		if f[0] != '&' && f[0] != '!' {
			return false
		}
	}
	return true
}

// absorb takes every following line that is blank or sits right of col as
// the continuation of n's scalar.
func (p *treeParser) absorb(n *Node, col int) {
	for p.i < len(p.lines) {
		ln := p.lines[p.i]
		if !ln.blank && ln.indent <= col {
			break
		}
		n.Cont = append(n.Cont, p.i+1)
		p.i++
	}
	if len(n.Cont) > 0 {
		// Trailing blank lines belong to whatever follows.
		k := len(n.Cont)
		for k > 0 && p.lines[n.Cont[k-1]-1].blank {
			k--
		}
		n.Cont = n.Cont[:k]
		if k > 0 {
			n.End = n.Cont[k-1]
		}
		if k == 0 {
			p.i = n.Line
		} else {
			p.i = n.Cont[k-1]
		}
	}
}

// children reads the nodes nested under n (whose key sits at col): every
// collection right of col, and with indentless an item sequence at col
// itself. A first nested line that is neither a key nor an item makes the
// value a multi-line scalar, absorbed whole.
func (p *treeParser) children(n *Node, col int, indentless bool) {
	j := p.nextContent()
	if j < len(p.lines) {
		ln := p.lines[j]
		body := ln.text[ln.indent:]
		if ln.indent > col {
			if _, _, ok := splitKey(body); !ok && !isDash(body) {
				p.absorb(n, col)
				return
			}
		}
	}
	for {
		j := p.nextContent()
		if j >= len(p.lines) {
			break
		}
		ln := p.lines[j]
		if ln.indent > col {
			p.i = j
			n.Kids = append(n.Kids, p.collection(ln.indent, false)...)
			continue
		}
		if indentless && ln.indent == col && isDash(ln.text[ln.indent:]) {
			p.i = j
			n.Kids = append(n.Kids, p.collection(col, true)...)
			indentless = false
			continue
		}
		break
	}
	n.End = maxEnd(n)
}

func maxEnd(n *Node) int {
	e := n.Line
	if len(n.Cont) > 0 && n.Cont[len(n.Cont)-1] > e {
		e = n.Cont[len(n.Cont)-1]
	}
	for _, k := range n.Kids {
		if k.End > e {
			e = k.End
		}
	}
	return e
}
