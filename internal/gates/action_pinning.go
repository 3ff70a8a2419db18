package gates

// check-action-pinning: every uses: ref in a scanned YAML file is
// immutable. See gate-sdk/SPEC.md §check-action-pinning.

import (
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/workflow"
)

var pinningHelps = map[string]string{
	"unpinned": "pin each listed uses: to the full 40-hex commit SHA its tag resolves to, keeping the tag as a trailing comment (uses: owner/repo@<sha> # vX.Y.Z); a step inside this repository can use a ./ path instead",
}

func checkActionPinning(c *gate.Context) int {
	scan, err := scanActions(c, yamlExts...)
	if err != nil {
		return c.RefuseErr(err)
	}
	// Counted inertness: a tree with no YAML pays nothing.
	if len(scan.files) == 0 {
		return c.NewReport(nil).Nothing("no YAML file under " + scan.root + ": nothing to check")
	}
	// assertion B: a file's verdict (its findings and its count of refs)
	// is its own; a warm run reads it from the result cache.
	memos := openMemos(c, scan, 1, nil)
	var found []gate.Finding
	refs := 0
	var n shapes
	for _, p := range scan.files {
		m, err := scan.memo(c, memos, p, func() (fileMemo, error) {
			// A file the parser rejects is a finding when GitHub loads
			// it, and skipped and counted otherwise.
			f, parsed, err := scan.readParsed(c, p)
			if err != nil {
				return fileMemo{}, err
			}
			if !parsed {
				return fileMemo{kind: memoUnparsable, found: unparseable(p, f)}, nil
			}
			// assertion A: a key-position uses: ref, live or commented
			// out, is a 40-hex SHA or a ./ path (a docker:// image needs a
			// digest). Job-level reusable-workflow calls are uses: keys
			// like any other.
			var here []gate.Finding
			uses := workflow.UsesRefs(f)
			for _, u := range uses {
				if ok, why := workflow.Pinned(u.Ref); !ok {
					msg := "uses: " + u.Ref + " " + why
					if u.Commented {
						msg += " (a commented-out step is read like a live one)"
					}
					here = append(here, gate.Finding{Class: "unpinned", Path: p, Line: u.Line, Msg: msg})
				}
			}
			return fileMemo{kind: memoOther, n: []int{len(uses)}, found: here}, nil
		})
		if err != nil {
			return c.RefuseErr(err)
		}
		if m.kind == memoUnparsable {
			before := len(n.broken)
			n.reject(c, scan, p, m.found)
			found = append(found, n.broken[before:]...)
			continue
		}
		refs += m.n[0]
		found = append(found, m.found...)
	}
	r := c.NewReport(withUnparseable(pinningHelps))
	for _, f := range found {
		r.Add(f)
	}
	return r.Done(plural(refs, "uses: ref", "uses: refs") + " pinned across " + plural(len(scan.files)-n.unparsable-len(n.broken), "YAML file", "YAML files") + n.unparsed() + scan.fromIndexNote())
}
