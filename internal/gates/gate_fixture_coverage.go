package gates

// check-gate-fixture-coverage: every member of the registry proves itself
// on a good/ and bad/ fixture pair, or says in its header why it cannot
// (# no-fixture: <reason>). A half-built pair is a defect either way.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
)

func checkGateFixtureCoverage(c *gate.Context) int {
	// No operand: a gates-dir operand would move the registry while the
	// tests dir stayed where its knob put it.
	if len(c.Args) > 0 {
		return c.Refuse("usage: check-gate-fixture-coverage (no operands: the registry and GATE_SDK_TESTS_DIR say what to read)")
	}
	reg, err := loadRegistry(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	dirs, err := fixtureDirs(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	r := c.NewReport(map[string]string{
		"A": "add <tests-dir>/<gate>/good/ and bad/ (bad/expect.txt naming the finding it must fire), or, where no fixture can hold the gate's input, a # no-fixture: <reason> line in its header",
		"B": "finish the pair: a fixture dir holds both good/ and bad/, whatever the header says",
	})
	pairs, valved := 0, 0
	for _, m := range reg.Distinct() {
		if m.Kind == registry.Unresolved {
			continue
		}
		// assertion C: a member with no # graph: line is still judged.
		hdr, err := memberHeader(c, m)
		if err != nil {
			return c.Refuse("cannot read the header of %s: %v", m.Path, err)
		}
		fx, err := registry.FindFixture(dirFS{c}, dirs, m.Name)
		if err != nil {
			return c.RefuseErr(err)
		}
		if fx.Half != "" {
			// assertion B: a half pair is a defect even beside # no-fixture:.
			r.Add(gate.Finding{Class: "B", Path: fx.Half, Msg: fmt.Sprintf("%s has a half fixture pair: %s/ is missing", m.Name, fx.Missing)})
			continue
		}
		if fx.Pair != "" {
			pairs++
			continue
		}
		if hdr != nil && hdr.NoFixture != nil {
			valved++
			continue
		}
		// assertion A: a member with neither a pair nor # no-fixture:.
		r.Add(gate.Finding{Class: "A", Path: m.Path, Msg: fmt.Sprintf("%s is registered (%s:%d) with no fixture pair in %s and no # no-fixture: reason", m.Name, reg.Path, m.Line, strings.Join(dirs, ", "))})
	}
	return r.Done(fmt.Sprintf("%s with a fixture pair, %d with # no-fixture:, %d unresolved left out",
		plural(pairs, "member", "members"), valved, len(reg.Skipped())))
}

// fixtureDirs answers the tests dirs a member's pair may live in (the
// registry's one resolution, which port-blockers' c2= column reads too).
func fixtureDirs(c *gate.Context) ([]string, error) {
	td, err := c.Knobs.Scalar("GATE_SDK_TESTS_DIR")
	if err != nil {
		return nil, err
	}
	kitTests, err := kitTestsDirs(c)
	if err != nil {
		return nil, err
	}
	return registry.FixtureDirs(td, kitTests), nil
}
