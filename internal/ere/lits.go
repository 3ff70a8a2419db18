package ere

// Literal facts about a pattern's language, used only to skip work: a
// search never trusts them for an answer the automaton has not confirmed,
// except that a pattern whose whole language is one anchor-free string is
// searched as that string.

const (
	maxExact    = 16   // largest finite language tracked
	maxExactLen = 1024 // longest string in it
)

type litInfo struct {
	exact  []string // the whole language when small and finite; nil otherwise
	prefix string   // every match starts with it
	req    string   // every match contains it
	anchor bool     // the node holds ^ or $
}

func analyze(n *node) litInfo {
	switch n.kind {
	case nSet:
		if n.set.count() == 1 {
			s := string([]byte{n.set.only()})
			return litInfo{exact: []string{s}, prefix: s, req: s}
		}
		return litInfo{}
	case nBegin, nEnd:
		return litInfo{exact: []string{""}, anchor: true}
	case nEmpty:
		return litInfo{exact: []string{""}}
	case nGroup:
		return analyze(n.subs[0])
	case nAlt:
		var out litInfo
		exactOK := true
		for k, s := range n.subs {
			si := analyze(s)
			out.anchor = out.anchor || si.anchor
			if k == 0 {
				out.prefix = si.prefix
			} else {
				out.prefix = commonPrefix(out.prefix, si.prefix)
			}
			if si.exact == nil {
				exactOK = false
			}
			if exactOK {
				out.exact = union(out.exact, si.exact)
				if len(out.exact) > maxExact {
					exactOK = false
				}
			}
		}
		if !exactOK {
			out.exact = nil
		}
		out.req = out.prefix
		return out
	case nRepeat:
		si := analyze(n.subs[0])
		out := litInfo{anchor: si.anchor}
		switch {
		case n.max == 0:
			out.exact = []string{""}
		case n.min == 0:
			if si.exact != nil && n.max == 1 {
				out.exact = union([]string{""}, si.exact)
			}
		default:
			out.prefix, out.req = si.prefix, si.req
			if si.exact != nil && n.min == n.max {
				acc := []string{""}
				for k := 0; k < n.min && acc != nil; k++ {
					acc = cross(acc, si.exact)
				}
				out.exact = acc
			}
		}
		if out.exact != nil {
			out.prefix = commonPrefixAll(out.exact)
			out.req = longer(out.req, out.prefix)
		}
		return out
	case nCat:
		var out litInfo
		acc := []string{""} // exact language of the children so far
		prefixDone := false
		var run []byte // concatenation of the current run of single-string children
		for _, s := range n.subs {
			si := analyze(s)
			out.anchor = out.anchor || si.anchor
			out.req = longer(out.req, si.req)
			if !prefixDone {
				if next := cross(acc, si.exact); next != nil {
					acc = next
				} else {
					var ext []string
					for _, a := range acc {
						ext = append(ext, a+si.prefix)
					}
					out.prefix = commonPrefixAll(ext)
					prefixDone = true
					acc = nil
				}
			}
			if len(si.exact) == 1 {
				run = append(run, si.exact[0]...)
				continue
			}
			if len(run)+len(si.prefix) > len(out.req) {
				out.req = string(run) + si.prefix
			}
			run = run[:0]
		}
		if len(run) > len(out.req) {
			out.req = string(run)
		}
		if !prefixDone {
			out.exact = acc
			out.prefix = commonPrefixAll(acc)
		}
		out.req = longer(out.req, out.prefix)
		return out
	}
	return litInfo{}
}

// cross is the concatenation of two finite languages, nil when either is
// unknown or the product is too large.
func cross(a, b []string) []string {
	if a == nil || b == nil || len(a)*len(b) > maxExact {
		return nil
	}
	var out []string
	for _, x := range a {
		for _, y := range b {
			if len(x)+len(y) > maxExactLen {
				return nil
			}
			out = union(out, []string{x + y})
		}
	}
	return out
}

func union(a, b []string) []string {
	out := append([]string{}, a...)
	for _, s := range b {
		found := false
		for _, t := range out {
			if s == t {
				found = true
				break
			}
		}
		if !found {
			out = append(out, s)
		}
	}
	return out
}

func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

func commonPrefixAll(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	p := ss[0]
	for _, s := range ss[1:] {
		p = commonPrefix(p, s)
	}
	return p
}

func longer(a, b string) string {
	if len(b) > len(a) {
		return b
	}
	return a
}

// pureLiteral answers the one string a pattern's language consists of when
// it holds no anchor, or "".
func pureLiteral(li litInfo) string {
	if li.anchor || len(li.exact) != 1 {
		return ""
	}
	return li.exact[0]
}
