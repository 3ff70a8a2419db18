// Package marker is the marker-bounded span every injector shares: a
// block of generated lines between a begin and an end marker line inside
// a file a person otherwise writes. One notion of a well-formed block
// serves the four operations, so a caller reading a block before
// rewriting it, or removing one it may never have written, meets one
// answer to "is this target malformed".
//
// Markers match whole lines (a trailing carriage return ignored), never a
// marker inside prose. The functions work on bytes; reading and writing
// the file is the caller's, as is what the block holds.
package marker

import (
	"bytes"
	"fmt"
)

// Action says what InstallBlock did.
type Action string

// The installer's two outcomes.
const (
	Appended Action = "appended"
	Replaced Action = "replaced"
)

// span locates the block: the byte offsets of the begin line's start and
// of the end line's end (after its newline). found is false when neither
// marker occurs.
type span struct {
	start, innerStart, innerEnd, end int
	found                            bool
}

// locate finds the one marker pair. A begin with no end, an end with no
// begin, an end before its begin and a second pair are all malformed.
func locate(text []byte, begin, end string) (span, error) {
	var s span
	var begins, ends []int // line start offsets
	var lineEnds []int
	off := 0
	for off < len(text) || (off == 0 && len(text) == 0) {
		if len(text) == 0 {
			break
		}
		i := bytes.IndexByte(text[off:], '\n')
		next := len(text)
		lineEnd := len(text)
		if i >= 0 {
			lineEnd = off + i
			next = lineEnd + 1
		}
		line := bytes.TrimSuffix(text[off:lineEnd], []byte("\r"))
		switch string(line) {
		case begin:
			begins = append(begins, off)
			lineEnds = append(lineEnds, next)
		case end:
			ends = append(ends, off)
			lineEnds = append(lineEnds, next)
		}
		off = next
	}
	switch {
	case len(begins) == 0 && len(ends) == 0:
		return s, nil
	case len(begins) == 0:
		return s, fmt.Errorf("malformed target: end marker %q with no begin marker", end)
	case len(ends) == 0:
		return s, fmt.Errorf("malformed target: begin marker %q with no end marker", begin)
	case len(begins) > 1 || len(ends) > 1:
		return s, fmt.Errorf("malformed target: %d begin and %d end markers; one pair is one block", len(begins), len(ends))
	case ends[0] < begins[0]:
		return s, fmt.Errorf("malformed target: end marker %q comes before its begin marker", end)
	}
	s.found = true
	s.start = begins[0]
	s.innerStart = lineAfter(text, begins[0])
	s.innerEnd = ends[0]
	s.end = lineAfter(text, ends[0])
	return s, nil
}

func lineAfter(text []byte, off int) int {
	i := bytes.IndexByte(text[off:], '\n')
	if i < 0 {
		return len(text)
	}
	return off + i + 1
}

// block renders begin, body and end as lines.
func block(begin, end, body string) []byte {
	var b bytes.Buffer
	b.WriteString(begin + "\n")
	b.WriteString(body)
	if body != "" && body[len(body)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString(end + "\n")
	return b.Bytes()
}

func splice(text []byte, s span, with []byte) []byte {
	out := append([]byte(nil), text[:s.start]...)
	out = append(out, with...)
	return append(out, text[s.end:]...)
}

// WriteBlock is the generator's writer: it replaces the lines between an
// existing marker pair and leaves every other byte alone. An absent pair
// is refused, since appending where the markers were lost would corrupt
// a hand-written page.
func WriteBlock(text []byte, begin, end, body string) ([]byte, error) {
	s, err := locate(text, begin, end)
	if err != nil {
		return nil, err
	}
	if !s.found {
		return nil, fmt.Errorf("no marker pair %q ... %q to write into", begin, end)
	}
	return splice(text, s, block(begin, end, body)), nil
}

// InstallBlock is the installer's writer: it replaces an existing block in
// place, or appends a fresh one when the markers are absent, so a re-run
// never duplicates.
func InstallBlock(text []byte, begin, end, body string) ([]byte, Action, error) {
	s, err := locate(text, begin, end)
	if err != nil {
		return nil, "", err
	}
	if s.found {
		return splice(text, s, block(begin, end, body)), Replaced, nil
	}
	out := append([]byte(nil), text...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return append(out, block(begin, end, body)...), Appended, nil
}

// ReadBlock answers the block's inner lines, markers excluded; "" when
// the pair is absent.
func ReadBlock(text []byte, begin, end string) (string, error) {
	s, err := locate(text, begin, end)
	if err != nil || !s.found {
		return "", err
	}
	return string(text[s.innerStart:s.innerEnd]), nil
}

// RemoveBlock deletes the pair and what lies between, the rest of the
// text byte-identical. An absent pair is a quiet no-op reporting false.
func RemoveBlock(text []byte, begin, end string) ([]byte, bool, error) {
	s, err := locate(text, begin, end)
	if err != nil {
		return nil, false, err
	}
	if !s.found {
		return text, false, nil
	}
	return splice(text, s, nil), true, nil
}
