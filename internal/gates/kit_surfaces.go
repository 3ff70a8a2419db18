package gates

// The kit's own surfaces, each held to the kit roots the tree vendors:
// check-smoke-entry-guard (smoke scripts abort when run bare),
// check-readme-roster (each kit README's register block names exactly the
// kit's shipped checks) and check-kit-registration (the human-facing docs
// link every kit root and name every fixture tree).

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"syscall"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
)

// kitSweep answers the kit roots a sweep reads, each joined under the
// optional root operand, refusing an empty roster and, with no operand, a
// run directory outside any repository.
func kitSweep(c *gate.Context, root string) ([]string, error) {
	if root == "" {
		if err := probeRepo(c); err != nil {
			return nil, err
		}
	}
	if len(c.KitRoots) == 0 {
		return nil, fmt.Errorf("no kit root is vendored here (GATE_SDK_KIT_DIRS), so there is nothing to sweep")
	}
	var out []string
	for _, r := range c.KitRoots {
		r = strings.TrimRight(r, "/")
		if root != "" {
			r = registry.Join(root, r)
		}
		out = append(out, r)
	}
	return out, nil
}

// rootSweep reads a sweep's optional [root] operand and its kit roots; ok
// is false when the gate refused, with the status to answer.
func rootSweep(c *gate.Context) ([]string, int, bool) {
	if len(c.Args) > 1 {
		return nil, c.Refuse("usage: %s [root]", c.Name), false
	}
	root := ""
	if len(c.Args) == 1 {
		root = c.Args[0]
	}
	roots, err := kitSweep(c, root)
	if err != nil {
		return nil, c.RefuseErr(err), false
	}
	return roots, 0, true
}

// smokeGuard is the entry-point guard every smoke script carries.
const smokeGuard = "${SMOKE_KIT_ROOT:?"

func checkSmokeEntryGuard(c *gate.Context) int {
	roots, code, ok := rootSweep(c)
	if !ok {
		return code
	}
	r := c.NewReport(map[string]string{
		"guard": "open the script with `: \"${SMOKE_KIT_ROOT:?run via --run-consumer-smoke}\"` so a bare run aborts before it writes into the caller's repository",
	})
	scripts, skipped := 0, 0
	for _, kit := range roots {
		if ok, err := isDirAt(c, registry.Join(kit, "smoke")); err != nil {
			return c.RefuseErr(err)
		} else if !ok {
			skipped++
			continue
		}
		for _, name := range []string{"install.sh", "violation.sh"} {
			p := registry.Join(kit, "smoke/"+name)
			data, present, err := readOptional(c, p)
			if err != nil {
				return c.RefuseErr(err)
			}
			if !present {
				continue
			}
			scripts++
			// assertion A: each present smoke script carries the guard expansion.
			if !strings.Contains(string(data), smokeGuard) {
				r.Add(gate.Finding{Class: "guard", Path: p, Msg: "no ${SMOKE_KIT_ROOT:? entry guard: run bare, the script would write into the caller's repository"})
			}
		}
	}
	return r.Done(fmt.Sprintf("%d smoke scripts guarded across %d kit roots, %d without smoke/", scripts, len(roots), skipped))
}

func isDirAt(c *gate.Context, p string) (bool, error) {
	st, err := runFS{c}.Stat(p)
	if err != nil {
		if registryAbsent(err) {
			return false, nil
		}
		return false, err
	}
	return st.IsDir(), nil
}

// Roster markers of a kit README's register block.
const (
	rosterBegin = "<!-- gates-roster:begin -->"
	rosterEnd   = "<!-- gates-roster:end -->"
)

func checkReadmeRoster(c *gate.Context) int {
	roots, code, ok := rootSweep(c)
	if !ok {
		return code
	}
	r := c.NewReport(map[string]string{
		"block":    "wrap the kit README's register block in " + rosterBegin + " and " + rosterEnd + ", one check-* name per line",
		"missing":  "add the shipped check to the kit README's register block",
		"stranded": "drop the name from the register block, or ship the check it names in checks/",
	})
	names, skipped := 0, 0
	for _, kit := range roots {
		decls, err := registry.Declarations(runFS{c}, []string{registry.Join(kit, "checks")})
		if err != nil {
			return c.RefuseErr(err)
		}
		if ok, err := isDirAt(c, registry.Join(kit, "checks")); err != nil {
			return c.RefuseErr(err)
		} else if !ok {
			skipped++
			continue
		}
		readme := registry.Join(kit, "README.md")
		data, present, err := readOptional(c, readme)
		if err != nil {
			return c.RefuseErr(err)
		}
		roster, line, ok := rosterBlock(string(data))
		if !present || !ok {
			r.Add(gate.Finding{Class: "block", Path: readme, Msg: fmt.Sprintf("kit %s ships checks/ and its README has no register block", path.Base(kit))})
			continue
		}
		shipped := map[string]bool{}
		for _, d := range decls {
			shipped[d.Name] = true
		}
		listed := map[string]bool{}
		for _, n := range roster {
			listed[n] = true
		}
		// assertion A: every shipped check is in the roster.
		for _, n := range sortedNames(shipped) {
			if !listed[n] {
				r.Add(gate.Finding{Class: "missing", Path: readme, Line: line, Msg: fmt.Sprintf("kit %s ships %s, which its register block does not name", path.Base(kit), n)})
			}
		}
		// assertion B: every roster name is a shipped check.
		for _, n := range roster {
			if !shipped[n] {
				r.Add(gate.Finding{Class: "stranded", Path: readme, Line: line, Msg: fmt.Sprintf("the register block names %s, which kit %s does not ship", n, path.Base(kit))})
			}
		}
		names += len(roster)
	}
	return r.Done(fmt.Sprintf("%d roster names across %d kit roots match their checks/, %d without checks/", names, len(roots), skipped))
}

// rosterBlock answers the first check- token of each line between the
// markers (indentation trimmed), and the begin marker's line.
func rosterBlock(doc string) ([]string, int, bool) {
	var names []string
	begin := 0
	for i, raw := range strings.Split(doc, "\n") {
		l := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		switch {
		case begin == 0 && l == rosterBegin:
			begin = i + 1
		case begin > 0 && l == rosterEnd:
			return names, begin, true
		case begin > 0:
			for _, w := range strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == '\t' || r == '`' || r == '|' || r == ',' }) {
				if strings.HasPrefix(w, "check-") {
					names = append(names, strings.TrimRight(w, ".:;"))
					break
				}
			}
		}
	}
	return nil, 0, false
}

func sortedNames(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var mdLink = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)

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
	for _, m := range mdLink.FindAllStringSubmatch(text[0], -1) {
		targets = append(targets, strings.TrimPrefix(m[1], "./"))
	}
	runners := 0
	for _, kit := range roots {
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
		tests, err := trackedUnder(c, kp+"/gate-tests")
		if err != nil {
			return c.RefuseErr(err)
		}
		if len(tests) == 0 {
			continue
		}
		runners++
		if !lineContains(text[1], kp+"/gate-tests") {
			r.Add(gate.Finding{Class: "runner", Path: docs[1], Msg: fmt.Sprintf("no line names %s/gate-tests, though the kit tracks %d fixture files", kp, len(tests))})
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

func registryAbsent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// kitSurfaceGates answers the kit-surface family.
func kitSurfaceGates() []gate.Def {
	return []gate.Def{
		{Name: "check-smoke-entry-guard", Rule: checkSmokeEntryGuard, Knobs: []string{"GATE_SDK_KIT_DIRS"}},
		{Name: "check-readme-roster", Rule: checkReadmeRoster, Knobs: []string{"GATE_SDK_KIT_DIRS"}},
		{Name: "check-kit-registration", Rule: checkKitRegistration, Knobs: []string{"GATE_SDK_REGISTRY_DOC", "GATE_SDK_RUNNER_DOC", "GATE_SDK_KIT_DIRS"}},
	}
}
