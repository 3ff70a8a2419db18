package mdlink

import (
	"path"
	"regexp"
	"strings"
)

// RewriteSpecLinks is the packer's README rewrite: in a kit README packed
// as <leaf>/README.md, a link to the kit's own SPEC.md, or to
// ../<other>/SPEC.md where <other> is a kit this pack packs, is pointed at
// the published copy <base>/<kit>/SPEC, its fragment carried unchanged.
// An empty base rewrites nothing: the document comes back byte for byte.
// A titled link, a ./ prefix, a longer path or a kit outside leaves is
// left as written.
func RewriteSpecLinks(doc []byte, base, leaf string, leaves []string) ([]byte, error) {
	if base == "" {
		return doc, nil
	}
	dests, err := Parse(doc)
	if err != nil {
		return nil, err
	}
	packed := map[string]bool{}
	for _, l := range leaves {
		packed[l] = true
	}
	base = strings.TrimRight(base, "/")
	out := []byte(nil)
	last := 0
	for _, d := range dests {
		if d.Titled {
			continue
		}
		p, frag, hasFrag := strings.Cut(d.Target, "#")
		kit := ""
		switch {
		case p == "SPEC.md":
			kit = leaf
		case siblingSpec.MatchString(p) && packed[strings.Split(p, "/")[1]]:
			kit = strings.Split(p, "/")[1]
		default:
			continue
		}
		to := base + "/" + kit + "/SPEC"
		if hasFrag {
			// The fragment travels as written, never re-encoded.
			if _, wf, ok := strings.Cut(d.Written, "#"); ok {
				frag = wf
			}
			to += "#" + frag
		}
		out = append(out, doc[last:d.Start]...)
		out = append(out, to...)
		last = d.End
	}
	if out == nil {
		return doc, nil
	}
	return append(out, doc[last:]...), nil
}

// Leaves answers the directory names kit roots are packed under: the set
// a README's ../<kit>/SPEC.md link is rewritten against.
func Leaves(roots []string) []string {
	var out []string
	for _, r := range roots {
		out = append(out, path.Base(strings.TrimRight(r, "/")))
	}
	return out
}

var siblingSpec = regexp.MustCompile(`^\.\./[^/]+/SPEC\.md$`)

var scheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// Lands answers where a destination lands in the payload when the README
// linking it sits in dir (payload-relative): the target with its fragment
// and query stripped, resolved lexically. ok is false for what is no
// payload path: a URL, a root-absolute or anchor-only target, or one
// escaping the payload root.
func Lands(dir, target string) (string, bool) {
	// path-dialect-exempt: a link target is a URL path, always '/'-spelled; a leading '/' is the site root, never a filesystem location
	if scheme.MatchString(target) || strings.HasPrefix(target, "/") {
		return "", false
	}
	if i := strings.IndexAny(target, "#?"); i >= 0 {
		target = target[:i]
	}
	if target == "" {
		return "", false
	}
	p := path.Clean(path.Join(dir, target))
	if p == ".." || strings.HasPrefix(p, "../") || p == "." {
		return "", false
	}
	return p, true
}
