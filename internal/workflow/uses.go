package workflow

import (
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// UsesLine is one uses: ref read by the pinning recogniser.
type UsesLine struct {
	Line      int
	Ref       string
	Commented bool // read from a commented-out line
}

// UsesRefs answers every uses: ref in a YAML file, in line order: each
// mapping entry keyed uses: in the parsed tree (block or flow, a quoted
// key, an alias as the value), and each full-line comment that spells a
// uses: key (a "# - uses: x@v1" seed is read like a step). A line inside
// a scalar's body is no comment. A file the parser rejected has none.
func UsesRefs(f *File) []UsesLine {
	if f.Rejected != nil {
		// A file the parser rejects has no structure, comments included:
		// a comment line is only known to be one in a parsed file.
		return nil
	}
	var out []UsesLine
	if f.root != nil {
		budget := aliasBudget
		var walk func(*yaml.Node)
		walk = func(n *yaml.Node) {
			if n == nil || n.Kind == yaml.AliasNode || budget <= 0 {
				return
			}
			budget--
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
					if k == nil || k.Kind != yaml.ScalarNode || k.Value != "uses" || v == nil || v.Kind != yaml.ScalarNode {
						continue
					}
					if ref := refOf(v, v.Value); ref != "" {
						out = append(out, UsesLine{Line: n.Content[i].Line, Ref: ref})
					}
				}
			}
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(f.root)
	}
	for l := 1; l <= f.Lines(); l++ {
		if !f.IsComment(l) {
			continue
		}
		t := strings.TrimLeft(f.Text(l), " \t")
		for strings.HasPrefix(t, "#") {
			t = strings.TrimLeft(t[1:], " \t#")
		}
		if ref, ok := commentedUses(t); ok && ref != "" {
			out = append(out, UsesLine{Line: l, Ref: ref, Commented: true})
		}
	}
	sort.SliceStable(out, func(i, k int) bool { return out[i].Line < out[k].Line })
	return out
}

// commentedUses reads a commented-out line's text as YAML: a step or a
// mapping whose uses: key it recognises.
func commentedUses(t string) (string, bool) {
	for t == "-" || strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "-\t") {
		t = strings.TrimLeft(t[1:], " \t")
	}
	if !strings.HasPrefix(t, "uses:") && !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, `"uses"`) && !strings.HasPrefix(t, `'uses'`) {
		return "", false
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(t), &n); err != nil || len(n.Content) == 0 {
		// A seed the parser cannot read is still a ref: the word after
		// the key.
		if rest, ok := strings.CutPrefix(t, "uses:"); ok {
			w := strings.Fields(rest)
			if len(w) > 0 && !strings.HasPrefix(w[0], "#") {
				return strings.Trim(w[0], `"'`), true
			}
		}
		return "", false
	}
	e := Child(n.Content[0], "uses")
	if e == nil || e.Value == nil || e.Value.Kind != yaml.ScalarNode {
		return "", false
	}
	return refOf(e.Value, e.Value.Value), true
}

// LocalRef spells a reference to this repository one way: ./path and
// GitHub's self-repository $/path (or $/./path) name the same action or
// reusable workflow, so either reads as ./path.
func LocalRef(ref string) string {
	if rest, ok := strings.CutPrefix(ref, "$/"); ok {
		return "./" + strings.TrimPrefix(rest, "./")
	}
	return ref
}

// Pinned reports whether a uses: ref is immutable: a ./ path inside the
// repository, a $/ self-repository reference, a docker:// image by sha256
// digest, or anything@<40 hex>. why says what is wrong when it is not.
func Pinned(ref string) (ok bool, why string) {
	switch {
	case strings.Contains(ref, "${{"):
		return false, "is a GitHub expression, not a pinned ref"
	case strings.HasPrefix(ref, "./"):
		return true, ""
	case strings.HasPrefix(ref, "$/"):
		// GitHub's self-repository reference: the action or reusable
		// workflow at the commit the workflow itself runs from, so it
		// cannot move apart from the code that calls it.
		return true, ""
	case strings.HasPrefix(ref, "docker://"):
		if i := strings.LastIndex(ref, "@sha256:"); i >= 0 && hexOf(ref[i+8:], 64) {
			return true, ""
		}
		return false, "is a docker image not pinned by @sha256: digest"
	}
	i := strings.LastIndexByte(ref, '@')
	if i < 0 {
		return false, "has no @<commit-sha>"
	}
	if hexOf(ref[i+1:], 40) {
		return true, ""
	}
	return false, "is pinned to " + quoteRef(ref[i+1:]) + ", not a 40-hex commit SHA"
}

func quoteRef(s string) string {
	if s == "" {
		return "nothing"
	}
	return "@" + s
}

func hexOf(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
