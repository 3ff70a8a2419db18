package gates

// check-kit-registration: the human-facing docs link every vendored kit
// root and name each kit's fixture tree.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
)

var mdLink = lazyre.New(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)

func checkKitRegistration(c *gate.Context) int {
	if len(c.Args) > 2 {
		return c.Refuse("usage: check-kit-registration [registry-doc [runner-doc]]")
	}
	if err := probeRepo(c); err != nil {
		return c.RefuseErr(err)
	}
	var docs [2]string
	for i, k := range []string{"GATE_SDK_REGISTRY_DOC", "GATE_SDK_RUNNER_DOC"} {
		if len(c.Args) > i {
			docs[i] = c.Args[i]
			continue
		}
		v, err := c.Knobs.Scalar(k)
		if err != nil {
			return c.RefuseErr(err)
		}
		docs[i] = v
	}
	roots, err := kitSweep(c, "")
	if err != nil {
		return c.RefuseErr(err)
	}
	trees, err := kitTestsDirs(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	var text [2]string
	for i, d := range docs {
		data, present, err := readOptional(c, d)
		if err != nil {
			return c.RefuseErr(err)
		}
		if !present {
			return c.Refuse("the configured doc %s does not exist", d)
		}
		text[i] = string(data)
	}
	r := c.NewReport(map[string]string{
		"row":    "link the kit root from the registry doc: a markdown link whose target is <kit>/ or a page beneath it",
		"runner": "name <kit>/gate-tests on a line of the runner doc (the fixture-runner invocation: gates --run-gate-tests <kit>/gate-tests)",
	})
	var targets []string
	for _, m := range mdLink.Get().FindAllStringSubmatch(text[0], -1) {
		targets = append(targets, strings.TrimPrefix(m[1], "./"))
	}
	runners := 0
	for i, kit := range roots {
		kp := treePath(c, kit)
		// assertion A: the registry doc links into the kit root.
		linked := false
		for _, t := range targets {
			t, _, _ = strings.Cut(t, "#")
			if strings.TrimRight(t, "/") == kp || strings.HasPrefix(t, kp+"/") {
				linked = true
			}
		}
		if !linked {
			r.Add(gate.Finding{Class: "row", Path: docs[0], Msg: fmt.Sprintf("no link into the kit root %s/", kp)})
		}
		// assertion B: a kit with tracked fixtures has a runner line.
		tp := treePath(c, trees[i])
		tests, err := trackedUnder(c, tp)
		if err != nil {
			return c.RefuseErr(err)
		}
		if len(tests) == 0 {
			continue
		}
		runners++
		if !lineContains(text[1], tp) {
			r.Add(gate.Finding{Class: "runner", Path: docs[1], Msg: fmt.Sprintf("no line names %s, though the kit tracks %d fixture files", tp, len(tests))})
		}
	}
	return r.Done(fmt.Sprintf("%d kit roots linked from %s, %d fixture trees named in %s", len(roots), docs[0], runners, docs[1]))
}

func lineContains(doc, s string) bool {
	for _, l := range strings.Split(doc, "\n") {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}
