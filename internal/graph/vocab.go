// Package graph is the coupling graph: the model every registry member's
// expanded # graph: manifest projects to, the vocabulary document and the
// theme parts that steer it, the self-contained HTML page drawn from it,
// and the checks check-graph asserts over both (well-formedness, coverage,
// the cycle valve, freshness, hrefs, amendment manifests, external
// references, the render cap).
//
// check-graph and the --emit graph arm call the same functions here, so
// the page a consumer commits and the page the gate compares are one
// emission. The package reads files only through the Files interface its
// caller hands in; it never walks a tree, reads the working directory or
// starts a process.
package graph

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/gate-sdk/gates/internal/knob"
)

// Files is the file access the graph needs: whole-file reads of paths
// spelled as the caller spells them. A missing file answers an error
// satisfying errors.Is(err, fs.ErrNotExist).
type Files interface {
	ReadFile(name string) ([]byte, error)
}

// Vocab is the graph vocabulary document's six names.
type Vocab struct {
	Path         string
	Present      bool
	Vocab        []string // legal surface tokens; empty turns the check off
	Leading      []string // assertion C's leading surfaces
	Lagging      []string // assertion C's lagging surfaces
	Layers       []Layer  // subgraph grouping; empty draws one layer
	LayerRules   []LayerRule
	LayerDefault string
}

// Layer is one GRAPH_LAYERS element, <id>:<label>.
type Layer struct{ ID, Label string }

// LayerRule is one GRAPH_LAYER_RULES element, <path-prefix>:<layer-id>.
type LayerRule struct{ Prefix, Layer string }

// DefaultLayer is GRAPH_LAYER_DEFAULT's value when the document leaves it
// unset.
const DefaultLayer = "surfaces"

// vocabNames is the document's closed roster: true for the indexed names.
var vocabNames = map[string]bool{
	"GRAPH_VOCAB":         true,
	"GRAPH_LEADING":       true,
	"GRAPH_LAGGING":       true,
	"GRAPH_LAYERS":        true,
	"GRAPH_LAYER_RULES":   true,
	"GRAPH_LAYER_DEFAULT": false,
}

// LegacyVocab is the retired shell vocabulary's name in the gates dir.
const LegacyVocab = "graph-vocab.sh"

// ReadVocab reads the vocabulary document at path. An absent file leaves
// every indexed name empty. The file takes the knob-file grammar; a line
// naming a name off the roster, or spelling a name in the other shape, is
// refused naming file and line. A legacy graph-vocab.sh in gatesDir is
// refused whatever the document says.
func ReadVocab(files Files, path, gatesDir string) (*Vocab, error) {
	legacy := strings.TrimSuffix(gatesDir, "/") + "/" + LegacyVocab
	if _, err := files.ReadFile(legacy); err == nil {
		return nil, fmt.Errorf("%s: the shell vocabulary is retired; move its lists into %s (knob-file lines GRAPH_VOCAB[] = <surface>, ...) and delete it", legacy, path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: cannot examine: %w", legacy, err)
	}
	v := &Vocab{Path: path, LayerDefault: DefaultLayer}
	data, err := files.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return v, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read: %w", path, err)
	}
	v.Present = true
	return v, v.parse(data)
}

func (v *Vocab) parse(data []byte) error {
	lines, findings := knob.ParseFile(v.Path, data)
	var errs []error
	for _, f := range findings {
		errs = append(errs, f)
	}
	bad := func(n int, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s:%d: %s", v.Path, n, fmt.Sprintf(format, args...)))
	}
	scalarSet := false
	for _, l := range lines {
		indexed, known := vocabNames[l.Name]
		if !known {
			// assertion K: the document names six things and nothing else.
			bad(l.Num, "%s is not a graph vocabulary name (GRAPH_VOCAB, GRAPH_LEADING, GRAPH_LAGGING, GRAPH_LAYERS, GRAPH_LAYER_RULES, GRAPH_LAYER_DEFAULT)", l.Name)
			continue
		}
		switch {
		case indexed && l.Kind == knob.KindScalar && l.Value == "":
			continue // NAME = declares an empty list
		case indexed && l.Kind != knob.KindElement:
			bad(l.Num, "%s is a list: write %s[] = <element>", l.Name, l.Name)
			continue
		case !indexed && l.Kind != knob.KindScalar:
			bad(l.Num, "%s is a scalar: write %s = <value>", l.Name, l.Name)
			continue
		}
		switch l.Name {
		case "GRAPH_VOCAB":
			v.Vocab = append(v.Vocab, l.Value)
		case "GRAPH_LEADING":
			v.Leading = append(v.Leading, l.Value)
		case "GRAPH_LAGGING":
			v.Lagging = append(v.Lagging, l.Value)
		case "GRAPH_LAYERS":
			id, label, ok := strings.Cut(l.Value, ":")
			if !ok || !layerID(id) || label == "" {
				bad(l.Num, "GRAPH_LAYERS element %q is not <id>:<label> with an id of letters, digits and _", l.Value)
				continue
			}
			v.Layers = append(v.Layers, Layer{ID: id, Label: label})
		case "GRAPH_LAYER_RULES":
			// The rule splits at its last ':', so a prefix may hold one.
			i := strings.LastIndexByte(l.Value, ':')
			if i < 0 || !layerID(l.Value[i+1:]) {
				bad(l.Num, "GRAPH_LAYER_RULES element %q is not <path-prefix>:<layer-id>", l.Value)
				continue
			}
			v.LayerRules = append(v.LayerRules, LayerRule{Prefix: l.Value[:i], Layer: l.Value[i+1:]})
		case "GRAPH_LAYER_DEFAULT":
			if scalarSet {
				bad(l.Num, "GRAPH_LAYER_DEFAULT is set twice")
				continue
			}
			scalarSet = true
			if !layerID(l.Value) {
				bad(l.Num, "GRAPH_LAYER_DEFAULT %q is not a layer id (letters, digits and _)", l.Value)
				continue
			}
			v.LayerDefault = l.Value
		}
	}
	return errors.Join(errs...)
}

func layerID(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') && c != '_' {
			return false
		}
	}
	return true
}

// LayerOf answers a surface's layer: the first rule whose prefix the
// surface starts with (a plain string prefix, never a glob; an empty
// prefix matches nothing), else the default.
func (v *Vocab) LayerOf(surface string) string {
	for _, r := range v.LayerRules {
		if r.Prefix != "" && strings.HasPrefix(surface, r.Prefix) {
			return r.Layer
		}
	}
	return v.LayerDefault
}

// LayerLabel answers a layer id's display label, the id itself when
// GRAPH_LAYERS does not name it.
func (v *Vocab) LayerLabel(id string) string {
	for _, l := range v.Layers {
		if l.ID == id {
			return l.Label
		}
	}
	return id
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
