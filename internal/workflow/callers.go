package workflow

import (
	"encoding/json"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gate-sdk/gates/internal/lazyre"
)

// This file reads a reusable workflow's runner from the workflows of the
// same repository that call it: runs-on: ${{ inputs.NAME }} runs where its
// callers' with: values (or the input's default) say.

// Calls are the with: values the local calls of each reusable workflow
// pass, keyed by the called file's path as a scan spells it.
type Calls map[string][]map[string]string

// CallsOf answers the job-level calls (uses: ./<path>, or $/<path>) files make of
// workflows of their own repository, with each call's with: values; a
// value that is not a plain scalar reads as an expression (unknown).
func CallsOf(files []*File) Calls {
	out := Calls{}
	for _, f := range files {
		if f == nil || f.Rejected != nil {
			continue
		}
		for _, j := range f.Jobs {
			rel, ok := strings.CutPrefix(LocalRef(UsesRef(j.Uses)), "./")
			if !ok {
				continue
			}
			with := map[string]string{}
			if w := Child(j.Node, "with"); w != nil {
				for _, e := range entries(resolve(w.Value)) {
					if v := resolve(e.Value); v != nil && v.Kind == yaml.ScalarNode {
						with[e.Key] = v.Value
					} else {
						with[e.Key] = "${{ not a scalar }}"
					}
				}
			}
			out[path.Clean(rel)] = append(out[path.Clean(rel)], with)
		}
	}
	return out
}

// InputValues answers, for f at path p, every value each workflow_call
// input takes from calls: a call's own value, or the input's default where
// the call passes none ("" with no default). Nil where no call of f is
// known: a caller in another repository may pass anything.
func (calls Calls) InputValues(p string, f *File) map[string][]string {
	cs := calls[path.Clean(p)]
	if len(cs) == 0 || f == nil || f.root == nil {
		return nil
	}
	on := Child(f.root, "on")
	if on == nil {
		return nil
	}
	wc := Child(resolve(on.Value), "workflow_call")
	if wc == nil {
		return nil
	}
	in := Child(resolve(wc.Value), "inputs")
	if in == nil {
		return nil
	}
	values := map[string][]string{}
	for _, e := range entries(resolve(in.Value)) {
		def := ""
		if d := Child(resolve(e.Value), "default"); d != nil {
			if v := resolve(d.Value); v != nil && v.Kind == yaml.ScalarNode {
				def = v.Value
			} else {
				def = "${{ not a scalar }}"
			}
		}
		for _, c := range cs {
			v, ok := c[e.Key]
			if !ok {
				v = def
			}
			values[e.Key] = append(values[e.Key], v)
		}
	}
	return values
}

// inputRunsOn matches a runs-on that is one input, as is or through
// fromJSON.
var inputRunsOn = lazyre.New(`^\$\{\{\s*(?:(fromJson|fromJSON)\(\s*)?inputs\.([A-Za-z0-9_-]+)\s*\)?\s*\}\}$`)

// inputRunner classifies the runner of a job whose runs-on is one of its
// workflow's inputs, from the values its callers give it (inputs); ok is
// false when the shape is another or a value cannot be read; values that
// name Windows and another system both answer Unreadable with why.
func inputRunner(j *Job, inputs map[string][]string) (Runner, string, bool) {
	if inputs == nil || j.RunsOn == nil {
		return Unreadable, "", false
	}
	n := resolve(j.RunsOn.Value)
	if n == nil || n.Kind != yaml.ScalarNode {
		return Unreadable, "", false
	}
	m := inputRunsOn.Get().FindStringSubmatch(strings.TrimSpace(n.Value))
	if m == nil {
		return Unreadable, "", false
	}
	values := inputs[m[2]]
	if len(values) == 0 {
		return Unreadable, "", false
	}
	win, other := false, false
	for _, v := range values {
		if strings.Contains(v, "${{") || strings.TrimSpace(v) == "" {
			return Unreadable, "", false
		}
		labels := []string{strings.TrimSpace(v)}
		if m[1] != "" {
			var one string
			var many []string
			text := strings.ReplaceAll(v, "'", `"`)
			switch {
			case json.Unmarshal([]byte(text), &many) == nil && len(many) > 0:
				labels = many
			case json.Unmarshal([]byte(text), &one) == nil:
				labels = []string{one}
			default:
				return Unreadable, "", false
			}
		}
		w := classOf(labels) == Windows
		win, other = win || w, other || !w
	}
	switch {
	case win && other:
		return Unreadable, callersMixed, true
	case win:
		return Windows, "", true
	}
	return NonWindows, "", true
}
