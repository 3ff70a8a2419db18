package gates

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/workflow"
	"go.yaml.in/yaml/v3"
)

var targetLine = lazyre.New(`^[a-z0-9]+/[a-z0-9]+$`)

// targetRoster holds the roster's form, its presence in a publishing tree
// that dispatches, and the publish workflows' matrix values.
func targetRoster(c *gate.Context, pub, dispatches bool, found func(p string, line int, msg string)) (string, error) {
	file, err := c.Knobs.Scalar("GATE_SDK_NATIVE_TARGETS_FILE")
	if err != nil {
		return "", err
	}
	data, present, err := readOptional(c, file)
	if err != nil {
		return "", err
	}
	var note []string
	switch {
	case present:
		live := 0
		for i, raw := range strings.Split(string(data), "\n") {
			l := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			live++
			if !targetLine.Get().MatchString(l) {
				found(file, i+1, fmt.Sprintf("target %q is not <os>/<arch>", l))
			}
		}
		if live == 0 {
			found(file, 0, "the target roster names no target, so it asserts no platform support")
		}
		note = append(note, fmt.Sprintf("%d targets", live))
	case pub && dispatches:
		found(file, 0, "no target roster (GATE_SDK_NATIVE_TARGETS_FILE) in the tree that builds and dispatches to the binary")
	default:
		note = append(note, "no roster, not owed here")
	}
	wfs, err := c.Knobs.Words("GATE_SDK_NATIVE_PUBLISH_WORKFLOW")
	if err != nil {
		return "", err
	}
	var absent []string
	read := 0
	for _, wf := range wfs {
		data, ok, err := readOptional(c, wf)
		if err != nil {
			return "", err
		}
		if !ok {
			absent = append(absent, wf)
			continue
		}
		read++
		lits, err := matrixLiterals(wf, data)
		if err != nil {
			return "", err
		}
		for _, l := range lits {
			found(wf, l.line, fmt.Sprintf("matrix value %q is a literal; derive the build matrix from the target roster with a GitHub expression", l.text))
		}
	}
	note = append(note, fmt.Sprintf("%d publish workflows read", read))
	if len(absent) > 0 {
		note = append(note, "absent: "+strings.Join(absent, " "))
	}
	return strings.Join(note, ", "), nil
}

type lineText struct {
	line int
	text string
}

// matrixLiterals answers each scalar value under a job's strategy.matrix
// that is not a GitHub expression (mapping keys are names, not values). A
// file the YAML reader rejects is refused: its matrix cannot be seen.
func matrixLiterals(file string, data []byte) ([]lineText, error) {
	f := workflow.Read(file, data)
	if f.Rejected != nil {
		return nil, f.Rejected
	}
	var out []lineText
	var visit func(n *yaml.Node)
	visit = func(n *yaml.Node) {
		if n == nil {
			return
		}
		switch n.Kind {
		case yaml.ScalarNode:
			if v := strings.TrimSpace(n.Value); v != "" && !strings.HasPrefix(v, "${{") {
				out = append(out, lineText{n.Line, v})
			}
		case yaml.MappingNode:
			for k := 1; k < len(n.Content); k += 2 {
				visit(n.Content[k])
			}
		case yaml.SequenceNode, yaml.DocumentNode:
			for _, c := range n.Content {
				visit(c)
			}
		}
	}
	for _, j := range f.Jobs {
		if m := mappingValue(mappingValue(j.Node, "strategy"), "matrix"); m != nil {
			visit(m)
		}
	}
	return out, nil
}

// mappingValue answers the value under key in a YAML mapping, nil otherwise.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for k := 0; k+1 < len(n.Content); k += 2 {
		if n.Content[k].Value == key {
			return n.Content[k+1]
		}
	}
	return nil
}
