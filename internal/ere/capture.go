package ere

// Capture is a compiled one-group pattern: P(G)S, where the group stands
// directly in the top-level concatenation, is not quantified, and its body
// G holds no alternation. That shape lets the POSIX rule "each subpattern,
// left to right, takes the longest string it can" be answered with span
// searches alone, without a submatch-tracking engine.
type Capture struct {
	whole *Ere
	pre   *dfa // anchored forward over P; nil when P is empty
	grpS  *dfa // anchored reverse over G S
	grp   *dfa // anchored forward over G
	suf   *dfa // anchored reverse over S; nil when S is empty
}

// CompileCapture compiles a one-group pattern. Besides every Compile
// error it refuses, with the matching sentinel (ErrNoGroup,
// ErrSecondGroup, ErrQuantifiedGroup, ErrGroupInAlternation,
// ErrAlternationInGroup), each shape whose group span the rule cannot
// decide. Only an unescaped '(' outside brackets opens a group.
func CompileCapture(pattern string) (*Capture, error) {
	n, groups, err := parse(pattern)
	if err != nil {
		return nil, err
	}
	shapeErr := func(k ErrorKind, off int) error {
		con := ""
		if off < len(pattern) {
			con = pattern[off : off+1]
		}
		return &Error{Kind: k, Construct: con, Offset: off}
	}
	switch {
	case len(groups) == 0:
		return nil, &Error{Kind: KindNoGroup, Construct: truncate(pattern)}
	case len(groups) > 1:
		return nil, shapeErr(KindSecondGroup, groups[1])
	case n.kind == nAlt:
		return nil, shapeErr(KindGroupInAlternation, groups[0])
	}
	items := []*node{n}
	if n.kind == nCat {
		items = n.subs
	}
	k := -1
	for i, it := range items {
		if it.kind == nGroup {
			k = i
		}
	}
	if k < 0 { // the only other place a group can sit is under a quantifier
		return nil, shapeErr(KindQuantifiedGroup, groups[0])
	}
	body := items[k].subs[0]
	if body.kind == nAlt {
		return nil, shapeErr(KindAlternationInGroup, body.pos)
	}
	whole, err := build(pattern, n)
	if err != nil {
		return nil, err
	}
	cat := func(ns []*node) *node {
		switch len(ns) {
		case 0:
			return nil
		case 1:
			return ns[0]
		}
		return &node{kind: nCat, subs: ns}
	}
	c := &Capture{whole: whole}
	progs := []struct {
		n       *node
		reverse bool
		dst     **dfa
	}{
		{cat(items[:k]), false, &c.pre},
		{cat(append([]*node{body}, items[k+1:]...)), true, &c.grpS},
		{body, false, &c.grp},
		{cat(items[k+1:]), true, &c.suf},
	}
	for _, pr := range progs {
		if pr.n == nil {
			continue
		}
		p := compileProg(pr.n, pr.reverse)
		if p == nil {
			return nil, &Error{Kind: KindTooLarge, Construct: truncate(pattern), Detail: "compiled program exceeds the instruction cap"}
		}
		*pr.dst = newDFA(p, false, "")
	}
	return c, nil
}

// Capture answers the group's span within the leftmost-longest match in
// hay; it is CaptureFrom(hay, 0)'s group.
func (c *Capture) Capture(hay string) (Span, bool) {
	_, g, ok := c.CaptureFrom(hay, 0)
	return g, ok
}

// CaptureFrom answers the leftmost-longest match starting at or after from
// (as FindFrom does) and the group's span within it. With the match
// [s, e), the group span [i, j) takes the largest i such that P matches
// exactly [s, i) and G S matches exactly [i, e), then the largest j such
// that G matches exactly [i, j) and S exactly [j, e). Anchors keep their
// absolute meaning throughout.
func (c *Capture) CaptureFrom(hay string, from int) (whole, group Span, ok bool) {
	w, ok := c.whole.FindFrom(hay, from)
	if !ok {
		return Span{}, Span{}, false
	}
	s, e := w.Start, w.End
	buf := make([]bool, 2*(e-s+1))
	left, right := buf[:e-s+1], buf[e-s+1:]
	if c.pre == nil {
		left[0] = true
	} else {
		c.pre.marksForward(hay, s, e, left)
	}
	c.grpS.marksBackward(hay, s, e, right)
	i := -1
	for k := e - s; k >= 0; k-- {
		if left[k] && right[k] {
			i = s + k
			break
		}
	}
	if i < 0 { // unreachable: the whole match splits somewhere
		return Span{}, Span{}, false
	}
	left, right = left[:e-i+1], right[:e-i+1]
	clear(left)
	clear(right)
	c.grp.marksForward(hay, i, e, left)
	if c.suf == nil {
		right[e-i] = true
	} else {
		c.suf.marksBackward(hay, i, e, right)
	}
	for k := e - i; k >= 0; k-- {
		if left[k] && right[k] {
			return w, Span{i, i + k}, true
		}
	}
	return Span{}, Span{}, false
}
