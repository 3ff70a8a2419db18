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
	if root == "" && len(c.KitRoots) == 0 {
		if code, ok := nothingOwn(c, "no kit of this repository's own to sweep"); ok {
			return nil, code, false
		}
	}
	roots, err := kitSweep(c, root)
	if err != nil {
		return nil, c.RefuseErr(err), false
	}
	return roots, 0, true
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

func registryAbsent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// kitSurfaceGates answers the kit-surface family.
func kitSurfaceGates() []gate.Def {
	return []gate.Def{
		{Name: "check-smoke-entry-guard", OwnOnly: true, Listing: true, Rule: checkSmokeEntryGuard, Knobs: []string{"GATE_SDK_KIT_DIRS"}},
		{Name: "check-readme-roster", OwnOnly: true, Listing: true, Rule: checkReadmeRoster, Knobs: []string{"GATE_SDK_KIT_DIRS"}},
		{Name: "check-kit-registration", Listing: true, Rule: checkKitRegistration, Knobs: []string{"GATE_SDK_REGISTRY_DOC", "GATE_SDK_RUNNER_DOC", "GATE_SDK_KIT_DIRS", registry.KitTestsKnob}},
		{Name: "check-kit-roots-dialect", Listing: true, Rule: checkKitRootsDialect, Knobs: []string{"GATE_SDK_TESTS_DIR", "GATE_SDK_KIT_DIRS", "GATE_SDK_TMP_DIR"}, Needs: []string{"git"}},
		{Name: "check-packed-links", Rule: checkPackedLinks, Knobs: []string{"GATE_SDK_KIT_DIRS", "GATE_SDK_PAYLOAD_WITHHOLD", "GATE_SDK_SPEC_BASE_URL"}},
		{Name: "check-template-copy-parity", OwnOnly: true, Listing: true, Rule: checkTemplateCopyParity, Knobs: []string{"GATE_SDK_KIT_DIRS", registry.KitTemplatesKnob}},
		{Name: "check-template-registry-parity", OwnOnly: true, Listing: true, Rule: checkTemplateRegistryParity, Knobs: []string{"GATE_SDK_KIT_DIRS", registry.KitTemplatesKnob}},
	}
}
