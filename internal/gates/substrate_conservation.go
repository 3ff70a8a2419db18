package gates

import (
	"fmt"
	"path"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

// conservationHeading is the SPEC section recording each substrate-
// sensitive member's disposition.
const conservationHeading = "Meta-gate conservation for the binary substrate"

type conservation struct {
	present bool
	path    string
	body    []string
}

// loadConservation reads the conservation doc: the second operand, else
// <gate-sdk kit root>/SPEC.md. A named doc that is absent, a default doc
// absent in the publishing tree, and a doc with no conservation section
// refuse; elsewhere an absent default leaves C unasserted.
func loadConservation(c *gate.Context, pub bool) (*conservation, error) {
	var p string
	named := len(c.Args) > 1
	if named {
		p = c.Args[1]
	} else {
		for _, r := range c.KitRoots {
			if path.Base(strings.TrimRight(walk.CrossArg(r), "/")) == kitOwner {
				p = registry.Join(strings.TrimRight(r, "/"), "SPEC.md")
				break
			}
		}
	}
	if p == "" {
		if pub {
			return nil, fmt.Errorf("no %s kit root here, so the conservation doc cannot be read, and this tree authors the dispositions", kitOwner)
		}
		return &conservation{}, nil
	}
	data, present, err := readOptional(c, p)
	if err != nil {
		return nil, err
	}
	if !present {
		if named || pub {
			return nil, fmt.Errorf("conservation doc %s does not exist", p)
		}
		return &conservation{path: p}, nil
	}
	body, ok := markdownSection(string(data), conservationHeading)
	if !ok {
		return nil, fmt.Errorf("%s has no section %q", p, conservationHeading)
	}
	return &conservation{present: true, path: p, body: body}, nil
}

// mentions reports whether the section names the member (any mention counts).
func (cs *conservation) mentions(name string) bool {
	for _, l := range cs.body {
		if containsWord(l, name) {
			return true
		}
	}
	return false
}

// refOnly answers the members a section line dispositions reference-only.
func (cs *conservation) refOnly() map[string]bool {
	out := map[string]bool{}
	if cs == nil {
		return out
	}
	for _, l := range cs.body {
		if !strings.Contains(l, "reference-only") {
			continue
		}
		for _, w := range strings.FieldsFunc(l, func(r rune) bool { return !(r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
			if strings.HasPrefix(w, "check-") {
				out[w] = true
			}
		}
	}
	return out
}

// containsWord reports whether name occurs in line not flanked by a
// name character, so check-foo does not match check-foo-bar.
func containsWord(line, name string) bool {
	for i := 0; ; {
		k := strings.Index(line[i:], name)
		if k < 0 {
			return false
		}
		start, end := i+k, i+k+len(name)
		before := start == 0 || !nameByte(line[start-1])
		after := end == len(line) || !nameByte(line[end])
		if before && after {
			return true
		}
		i = start + 1
	}
}

func nameByte(b byte) bool {
	return b == '-' || b == '_' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9'
}

// markdownSection answers the lines under the ATX heading whose text is
// title, up to the next heading at the same or a shallower level.
func markdownSection(doc, title string) ([]string, bool) {
	lines := strings.Split(doc, "\n")
	level := 0
	var body []string
	fence := false
	for _, raw := range lines {
		l := strings.TrimSuffix(raw, "\r")
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		lv, text := headingOf(l)
		if !fence && lv > 0 {
			if level > 0 && lv <= level {
				break
			}
			if level == 0 && text == title {
				level = lv
				continue
			}
		}
		if level > 0 {
			body = append(body, l)
		}
	}
	return body, level > 0
}

// substrateSensitive answers the registered members whose expanded
// couples= reach the declaration path of some registered member.
func substrateSensitive(c *gate.Context, s *seam) ([]registry.Member, error) {
	var paths []string
	for _, m := range s.reg.Distinct() {
		if m.Kind == registry.Shell || m.Kind == registry.Descriptor {
			paths = append(paths, m.Path)
		}
	}
	knobs := couplesKnobs(c)
	var out []registry.Member
	for _, m := range s.reg.Distinct() {
		if m.Manifest == nil || m.Manifest.Graph == nil {
			continue
		}
		pats, err := registry.Expand(m.Manifest.Graph.Couples, allKitRoots(c), knobs)
		if err != nil {
			return nil, fmt.Errorf("%s: couples=: %w", m.Path, err)
		}
		for _, p := range paths {
			if registry.MatchesAny(pats, p) {
				out = append(out, m)
				break
			}
		}
	}
	return out, nil
}

// CouplesKnobSource is a gate.Knobs that can also answer knob values in the
// shapes couples= expansion reads; the command line's knob view is one.
type CouplesKnobSource interface {
	CouplesKnobs() registry.Knobs
}

// couplesKnobs answers the expansion view of the gate's knobs. A knob view
// that offers none expands only scalar and indexed knobs.
func couplesKnobs(c *gate.Context) registry.Knobs {
	if src, ok := c.Knobs.(CouplesKnobSource); ok {
		return src.CouplesKnobs()
	}
	return plainCouplesKnobs{c}
}

type plainCouplesKnobs struct{ c *gate.Context }

func (k plainCouplesKnobs) Knob(name string) (registry.KnobValue, error) {
	if name == "GATE_SDK_GATES_DIR" {
		return registry.KnobValue{Shape: registry.ShapeLocator, Value: k.c.GatesDir}, nil
	}
	if elems, err := k.c.Knobs.List(name); err == nil {
		return registry.KnobValue{Shape: registry.ShapeIndexed, Elems: elems}, nil
	}
	v, err := k.c.Knobs.Scalar(name)
	return registry.KnobValue{Shape: registry.ShapeScalar, Value: v}, err
}

func (k plainCouplesKnobs) Field(name, field string) ([]string, error) {
	return nil, fmt.Errorf("knob %s: packed fields are not readable through this knob view", name)
}
