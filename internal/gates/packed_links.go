package gates

// check-packed-links (publisher-only): the README the packer puts in the
// payload links nothing the payload withholds.

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/mdlink"
	"github.com/gate-sdk/gates/internal/registry"
)

// packedLinksProbeBase is the base the gate packs under when the tree
// configures none, so the rewrite is exercised on every tree. It reaches
// no output: findings print payload-relative paths.
const packedLinksProbeBase = "https://packed-links.invalid/probe"

func checkPackedLinks(c *gate.Context) int {
	roots, code, ok := rootSweep(c)
	if !ok {
		return code
	}
	withhold, err := c.Knobs.Words("GATE_SDK_PAYLOAD_WITHHOLD")
	if err != nil {
		return c.RefuseErr(err)
	}
	var members []string
	for _, m := range withhold {
		if m = strings.Trim(m, "/"); m != "" {
			members = append(members, m)
		}
	}
	if len(members) == 0 {
		return c.Refuse("GATE_SDK_PAYLOAD_WITHHOLD withholds nothing, so no packed link can reach a withheld path and the check asserts nothing; unregister the gate rather than run it empty")
	}
	base, err := c.Knobs.Scalar("GATE_SDK_SPEC_BASE_URL")
	if err != nil {
		return c.RefuseErr(err)
	}
	if base == "" {
		base = packedLinksProbeBase
	}
	leaves := mdlink.Leaves(roots)
	r := c.NewReport(map[string]string{
		"withheld":    "link the published copy instead (a SPEC.md link the packer rewrites has no title and no ./ prefix), or stop withholding the path in GATE_SDK_PAYLOAD_WITHHOLD",
		"conditional": "the packer's README rewrite changed bytes under an empty base; an unconfigured packer must ship the README as tracked",
	})
	readmes, links, skipped := 0, 0, 0
	for i, kit := range roots {
		leaf := leaves[i]
		readme := registry.Join(kit, kitReadme)
		doc, present, err := readOptional(c, readme)
		if err != nil {
			return c.RefuseErr(err)
		}
		if !present || withheldAt(leaf+"/"+kitReadme, leaves, members) != "" {
			skipped++
			continue
		}
		readmes++
		// assertion B: under an empty base the packed README is the tracked one.
		same, err := mdlink.RewriteSpecLinks(doc, "", leaf, leaves)
		if err != nil {
			return refuseMarkdown(c, readme, err)
		}
		if string(same) != string(doc) {
			r.Add(gate.Finding{Class: "conditional", Path: readme, Msg: fmt.Sprintf("kit %s: the README rewrite changed the README under an empty base", leaf)})
		}
		packed, err := mdlink.RewriteSpecLinks(doc, base, leaf, leaves)
		if err != nil {
			return refuseMarkdown(c, readme, err)
		}
		dests, err := mdlink.Parse(packed)
		if err != nil {
			return refuseMarkdown(c, readme, err)
		}
		for _, d := range dests {
			lands, ok := mdlink.Lands(leaf, d.Target)
			if !ok {
				continue
			}
			links++
			// assertion A: no packed link lands on a withheld path.
			if m := withheldAt(lands, leaves, members); m != "" {
				r.Add(gate.Finding{Class: "withheld", Path: readme, Line: d.Line, Msg: fmt.Sprintf("kit %s links %q, which lands on %s in the payload, withheld by GATE_SDK_PAYLOAD_WITHHOLD member %s", leaf, d.Written, lands, m)})
			}
		}
	}
	done := r.Done
	if links == 0 {
		done = r.Nothing
	}
	return done(fmt.Sprintf("%d packed READMEs across %d kit roots, %d payload links resolved, none withheld; %d without a packed README", readmes, len(roots), links, skipped))
}

// withheldAt answers the withhold member that keeps a payload path out of
// the payload, or "": a member withholds itself and everything under it,
// in every packed kit.
func withheldAt(p string, leaves, members []string) string {
	for _, leaf := range leaves {
		for _, m := range members {
			w := path.Clean(leaf + "/" + m)
			if p == w || strings.HasPrefix(p, w+"/") {
				return m
			}
		}
	}
	return ""
}

// refuseMarkdown refuses a document the link reader could not read,
// naming its file and line.
func refuseMarkdown(c *gate.Context, file string, err error) int {
	var e *mdlink.Error
	if errors.As(err, &e) {
		return c.Refuse("%s:%d: cannot read the document's links: %s", file, e.Line, e.Msg)
	}
	return c.Refuse("%s: %v", file, err)
}
