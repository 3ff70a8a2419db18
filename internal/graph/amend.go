package graph

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/registry"
)

// ManifestHeader opens a # graph: manifest.
const ManifestHeader = "# graph:"

// AmendSpan is one manifest found in an amendment body.
type AmendSpan struct {
	Line int
	Text string // the manifest after the header
}

// AmendManifests finds the manifests of one SPEC-*.md amendment. Outside
// a fence a manifest is an inline code span opening with the header whose
// first word is a key=value pair with a non-empty value; a span whose
// first word is a bare key or prose is a mention and is not read. Inside a
// fence a manifest is a line beginning with the header; a proto fence is
// never read.
func AmendManifests(data []byte) []AmendSpan {
	var out []AmendSpan
	fence, fenceProto := "", false
	for i, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimSuffix(raw, "\r")
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.TrimSpace(strings.TrimLeft(trimmed, fence[:1])) == "" {
				fence = ""
				continue
			}
			if !fenceProto && strings.HasPrefix(trimmed, ManifestHeader) {
				out = append(out, AmendSpan{Line: i + 1, Text: strings.TrimSpace(trimmed[len(ManifestHeader):])})
			}
			continue
		}
		if f := fenceOpen(trimmed); f != "" {
			fence = f
			info := strings.TrimSpace(trimmed[len(f):])
			fenceProto = strings.Fields(info + " x")[0] == "proto"
			continue
		}
		for _, span := range codeSpans(line) {
			rest, ok := strings.CutPrefix(span, ManifestHeader)
			if !ok {
				continue
			}
			rest = strings.TrimSpace(rest)
			first := strings.Fields(rest + " ")
			if len(first) == 0 {
				continue
			}
			k, v, ok := strings.Cut(first[0], "=")
			if !ok || k == "" || v == "" {
				continue // a mention, never read
			}
			out = append(out, AmendSpan{Line: i + 1, Text: rest})
		}
	}
	return out
}

// fenceOpen answers the fence marker a line opens (three or more
// backticks or tildes), or "".
func fenceOpen(s string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(s) && s[n] == c {
			n++
		}
		if n >= 3 {
			return strings.Repeat(string(c), n)
		}
	}
	return ""
}

// codeSpans answers the inline code spans of one line, each read apart.
func codeSpans(line string) []string {
	var out []string
	for {
		i := strings.IndexByte(line, '`')
		if i < 0 {
			return out
		}
		n := 0
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		tick := strings.Repeat("`", n)
		rest := line[i+n:]
		j := strings.Index(rest, tick)
		if j < 0 {
			return out
		}
		out = append(out, strings.TrimSpace(rest[:j]))
		line = rest[j+n:]
	}
}

// KnobShape answers a knob row's shape by name; ok is false for a name no
// static kit declares.
type KnobShape func(name string) (shape registry.Shape, ok bool)

// CheckAmendment is assertion G over one amendment manifest: the glob
// grammar of every couples=/trigger= token, a repeated token, and the
// row-table tests of knob: tokens. Vocabulary and trigger parity are not
// asked; the gate it describes is unbuilt.
func CheckAmendment(path string, s AmendSpan, shape KnobShape) []Finding {
	var out []Finding
	bad := func(format string, args ...any) {
		// assertion G: an amendment manifest is held to the glob grammar.
		out = append(out, Finding{Assertion: "G", Path: path, Line: s.Line, Msg: fmt.Sprintf(format, args...)})
	}
	for _, w := range strings.Fields(s.Text) {
		key, val, ok := strings.Cut(w, "=")
		if !ok {
			continue
		}
		switch key {
		case "gen":
			bad("gen= is retired; a gate reading the staged set declares trigger=* instead")
		case "couples", "trigger":
			seen := map[string]bool{}
			for _, t := range strings.Split(val, ",") {
				if seen[t] {
					bad("%s= repeats token %q", key, t)
				}
				seen[t] = true
				if key == "trigger" && t == "*" {
					continue
				}
				if !registry.ValidGlobToken(t) {
					bad("%s= token %q is not a glob (letters, digits and ._*?/- after at most one of %s)", key, t, strings.Join(registry.CouplesPrefixes(), " "))
					continue
				}
				if rest, ok := strings.CutPrefix(t, registry.PrefixKnob); ok && shape != nil {
					if msg := knobTokenShape(rest, shape); msg != "" {
						bad("%s= token %q: %s", key, t, msg)
					}
				}
			}
		}
	}
	return out
}

func knobTokenShape(rest string, shape KnobShape) string {
	ref, msg := registry.ParseKnobRef(rest)
	if msg != "" {
		return msg
	}
	if ref.Name == "GATE_SDK_GATES_DIR" || ref.Name == "GATE_SDK_ROOT" {
		if ref.Rooted() {
			return ""
		}
	}
	sh, ok := shape(ref.Name)
	if !ok {
		return ref.Name + " is declared by no kit"
	}
	switch {
	case ref.Rooted() && (sh == registry.ShapeIndexed || sh == registry.ShapePacked):
		return ref.Name + " is a list, so it roots no glob; root at a directory knob"
	case !ref.Rooted() && ref.Field == "" && sh == registry.ShapeWords:
		return ref.Name + " is a word list, which a bare token cannot name; write knob:" + ref.Name + "/<glob>"
	}
	return ""
}
