package gates

// check-gate-fixture-coverage: every member of the registry proves itself
// on a good/ and bad/ fixture pair, or says in its header why it cannot
// (# no-fixture: <reason>). A half-built pair is a defect either way.

import (
	"fmt"
	"os"
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
		if m.ManifestErr != nil {
			return c.Refuse("cannot read the header of %s: %v", m.Path, m.ManifestErr)
		}
		fx, err := findFixture(c, dirs, m.Name)
		if err != nil {
			return c.RefuseErr(err)
		}
		if fx.half != "" {
			// assertion B: a half pair is a defect even beside # no-fixture:.
			r.Add(gate.Finding{Class: "B", Path: fx.half, Msg: fmt.Sprintf("%s has a half fixture pair: %s/ is missing", m.Name, fx.missing)})
			continue
		}
		if fx.pair != "" {
			pairs++
			continue
		}
		if m.Manifest != nil && m.Manifest.NoFixture != nil {
			valved++
			continue
		}
		// assertion A: a member with neither a pair nor # no-fixture:.
		r.Add(gate.Finding{Class: "A", Path: m.Path, Msg: fmt.Sprintf("%s is registered (%s:%d) with no fixture pair in %s and no # no-fixture: reason", m.Name, reg.Path, m.Line, strings.Join(dirs, ", "))})
	}
	return r.Done(fmt.Sprintf("%s with a fixture pair, %d with # no-fixture:, %d unresolved left out",
		plural(pairs, "member", "members"), valved, len(reg.Skipped())))
}

// fixtureDirs answers the tests dirs a member's pair may live in: the
// consumer's GATE_SDK_TESTS_DIR, then each kit root's fixture tree.
func fixtureDirs(c *gate.Context) ([]string, error) {
	td, err := c.Knobs.Scalar("GATE_SDK_TESTS_DIR")
	if err != nil {
		return nil, err
	}
	kitTests, err := kitTestsDirs(c)
	if err != nil {
		return nil, err
	}
	dirs := []string{strings.TrimRight(td, "/")}
	for _, d := range kitTests {
		if d != dirs[0] {
			dirs = append(dirs, d)
		}
	}
	return dirs, nil
}

type fixtureFind struct {
	pair    string // the pair's dir when complete
	half    string // the dir of a half pair
	missing string // which case the half pair lacks
}

// findFixture looks for <dir>/<name>/{good,bad} in each tests dir. The
// first complete pair answers; a <name>/ dir lacking a case anywhere is a
// half pair.
func findFixture(c *gate.Context, dirs []string, name string) (fixtureFind, error) {
	var out fixtureFind
	for _, d := range dirs {
		base := registry.Join(d, name)
		has := map[string]bool{}
		for _, k := range []string{"good", "bad"} {
			st, err := os.Stat(runPath(c, registry.Join(base, k)))
			switch {
			case err == nil:
				has[k] = st.IsDir()
			case os.IsNotExist(err) || isNotDir(err):
			default:
				return out, fmt.Errorf("cannot stat %s: %v", registry.Join(base, k), unwrapPath(err))
			}
		}
		switch {
		case has["good"] && has["bad"]:
			if out.pair == "" {
				out.pair = base
			}
		case has["good"] || has["bad"]:
			out.half = base
			out.missing = "good"
			if has["good"] {
				out.missing = "bad"
			}
			return out, nil
		}
	}
	return out, nil
}
