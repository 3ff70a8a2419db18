package workflow

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// seg places a stretch of a decoded block line in the file: the bytes of
// the line from At on were cut from file line Line, starting at 0-based
// byte column Col (until the next seg's At).
type seg struct{ At, Line, Col int }

// decoded is a block scalar's value as the parser builds it, one entry per
// line of the value, with where each line's bytes sit in the file.
type decoded struct {
	lines  []string
	segs   [][]seg
	indent int // the content indentation
}

// blockIndent answers the content indentation of a block scalar: its
// header's indentation indicator added to the parent's indentation (floor,
// the 0-based column of the key the scalar is the value of), or, with no
// indicator, the indentation of the body's first non-blank line.
func (f *File) blockIndent(n *yaml.Node, floor int) int {
	h := header(f, n)
	for i := 1; i < len(h); i++ {
		if c := h[i]; c >= '1' && c <= '9' {
			base := floor
			if base < 0 {
				base = 0
			}
			return base + int(c-'0')
		}
	}
	for l := n.Line + 1; l <= len(f.lines); l++ {
		if ln := f.lines[l-1]; !ln.blank {
			return ln.indent
		}
	}
	return 0
}

// decodeBlock rebuilds a literal or folded block scalar's value from its
// source lines the way the YAML scanner does (a folded block joins two
// adjacent lines that neither start with a blank by one space, and an
// empty line between them stands for a line break), keeping where every
// byte came from. ok is false when the rebuilt value is not the parser's
// (a construct this rebuild does not model): the caller then reads the
// parser's value without positions.
func (f *File) decodeBlock(n *yaml.Node, floor int) (d decoded, ok bool) {
	folded := n.Style&yaml.FoldedStyle != 0
	end := f.scalarEnd(n, floor)
	d.indent = f.blockIndent(n, floor)
	var s strings.Builder
	var segs []seg // of the whole value: At is an offset in s
	leadingBreak, leadingBlank := false, false
	trailing := 0
	started := false
	for l := n.Line + 1; l <= end; l++ {
		ln := f.lines[l-1]
		if ln.blank && len(ln.text) <= d.indent {
			trailing++
			continue
		}
		if ln.indent < d.indent {
			return d, false
		}
		content := ln.text[d.indent:]
		blank := content != "" && (content[0] == ' ' || content[0] == '\t')
		if started {
			if folded && leadingBreak && !leadingBlank && !blank {
				if trailing == 0 {
					s.WriteByte(' ')
				}
			} else {
				s.WriteByte('\n')
			}
		}
		// Empty lines stand for line breaks (before the first line too).
		s.WriteString(strings.Repeat("\n", trailing))
		trailing = 0
		segs = append(segs, seg{At: s.Len(), Line: l, Col: d.indent})
		s.WriteString(content)
		leadingBreak, leadingBlank, started = true, blank, true
	}
	f.visit(end - n.Line)
	value := s.String()
	if strings.TrimRight(value, "\n") != strings.TrimRight(n.Value, "\n") {
		return d, false
	}
	// Cut the value into lines, each with the segs that fall on it.
	at, k := 0, 0
	for _, line := range strings.Split(strings.TrimRight(value, "\n"), "\n") {
		var ls []seg
		for k < len(segs) && segs[k].At <= at+len(line) {
			if segs[k].At >= at {
				ls = append(ls, seg{At: segs[k].At - at, Line: segs[k].Line, Col: segs[k].Col})
			}
			k++
		}
		d.lines = append(d.lines, line)
		d.segs = append(d.segs, ls)
		at += len(line) + 1
	}
	return d, true
}

// place answers the file line and 0-based byte column of byte off on a
// decoded line placed by segs; line 0 when segs place nothing.
func place(segs []seg, off int) (line, col int) {
	for i := len(segs) - 1; i >= 0; i-- {
		if segs[i].At <= off || i == 0 {
			return segs[i].Line, segs[i].Col + off - segs[i].At
		}
	}
	return 0, 0
}
