package gates

// The dispatch seam's shared reads, used by check-gate-binary-fresh and
// check-gate-substrate-parity: the registry and the descriptor set under
// the gate's run directory, the dispatch predicate, and the publishing
// predicate.

import (
	"io/fs"
	"os"
	"slices"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

// runFS is the registry's file access rooted at the gate's run directory,
// so a relative gates dir or kit root is read there and never against the
// process's working directory.
type runFS struct{ c *gate.Context }

func (f runFS) ReadFile(name string) ([]byte, error)       { return walk.ReadConfig(runPath(f.c, name)) }
func (f runFS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(runPath(f.c, name)) }
func (f runFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(runPath(f.c, name)) }

// seam is what both seam gates read: the loaded registry, every
// declaration across the resolve dirs, and the members that dispatch.
type seam struct {
	gatesDir    string
	reg         *registry.Registry
	decls       []registry.Declaration // every .sh and .gate across the resolve dirs
	descriptors []registry.Declaration // the .gate subset
	dispatching []registry.Member      // registered members resolving to a descriptor
}

// loadSeam reads the registry of gatesDir and the resolve dirs' declarations.
// An absent registry is an error: the live member set decides the verdict.
func loadSeam(c *gate.Context, gatesDir string) (*seam, error) {
	fsys := runFS{c}
	reg, err := registryAt(c, gatesDir)
	if err != nil {
		return nil, err
	}
	decls, err := registry.Declarations(fsys, registry.SearchDirs(gatesDir, c.KitRoots))
	if err != nil {
		return nil, err
	}
	s := &seam{gatesDir: gatesDir, reg: reg, decls: decls}
	for _, d := range decls {
		if d.Kind == registry.Descriptor {
			s.descriptors = append(s.descriptors, d)
		}
	}
	// The dispatch predicate: a registered member resolving to a .gate.
	for _, m := range reg.Distinct() {
		if m.Kind == registry.Descriptor {
			s.dispatching = append(s.dispatching, m)
		}
	}
	return s, nil
}

// seamOperands reads a seam gate's leading [gates-dir] operand (at most
// max operands in all) and loads the seam; ok is false when the gate
// refused, with the status to answer. An absent registry refuses.
func seamOperands(c *gate.Context, max int, usage string) (*seam, int, bool) {
	if len(c.Args) > max {
		return nil, c.Refuse("usage: %s %s", c.Name, usage), false
	}
	gatesDir := c.GatesDir
	if len(c.Args) > 0 {
		gatesDir = c.Args[0]
	}
	s, err := loadSeam(c, gatesDir)
	if err != nil {
		return nil, c.RefuseErr(err), false
	}
	return s, 0, true
}

// dispatchNames answers the dispatching members' names.
func (s *seam) dispatchNames() []string {
	var out []string
	for _, m := range s.dispatching {
		out = append(out, m.Name)
	}
	return out
}

// goModFile is the module file the Go toolchain looks for at a module's
// root; GATE_SDK_NATIVE_CRATE says where the module is, never its name.
const goModFile = "go.mod" // consumer-value-exempt: the Go toolchain fixes this file name; no consumer can rename it

// crateDir answers GATE_SDK_NATIVE_CRATE as the process can open it.
func crateDir(c *gate.Context) (string, string, error) {
	crate, err := c.Knobs.Scalar("GATE_SDK_NATIVE_CRATE")
	if err != nil {
		return "", "", err
	}
	return crate, runPath(c, crate), nil
}

// publishing reports whether this tree is the one the binary is built
// from: the crate's module file, <crate>/go.mod, is tracked here. It is
// the tracked source, never a directory or a placed artifact, so a build
// output or a copied binary cannot make a consumer read as the publisher.
func publishing(c *gate.Context) (bool, error) {
	crate, _, err := crateDir(c)
	if err != nil {
		return false, err
	}
	if walk.PathRoot(walk.CrossArg(crate)) {
		// A crate outside the run directory is tracked nowhere the
		// snapshot can see.
		return false, nil
	}
	_, tracked := c.Tree.Mode(treePath(c, registry.Join(crate, goModFile)))
	return tracked, nil
}

// hasName reports whether names holds n.
func hasName(names []string, n string) bool { return slices.Contains(names, n) }

// seamGates answers the dispatch seam's auditors.
func seamGates() []gate.Def {
	return []gate.Def{
		{Name: "check-crate-arms", Listing: true, Rule: checkCrateArms, Knobs: []string{"GATE_SDK_NATIVE_CRATE", "GATE_SDK_CRATE_TARGET_LINT_CMD",
			"GATE_SDK_TMP_DIR", "GATE_SDK_NATIVE_BIN", "GATE_SDK_KIT_DIRS", registry.KitTestsKnob}, Needs: []string{"go", "git", "?\tGATE_SDK_CRATE_TARGET_LINT_CMD"}},
		{Name: "check-consumer-value-literal", Listing: true, Operands: "-", Rule: checkConsumerValueLiteral, Knobs: []string{"GATE_SDK_NATIVE_CRATE",
			"GATE_SDK_NATIVE_SRC", "GATE_SDK_PRUNE_DIRS", "GATE_SDK_PRUNE_EXTRA_DIRS", "GATE_SDK_KIT_DIRS"}},
		{Name: "check-gate-binary-fresh", Listing: true, Rule: checkGateBinaryFresh, Knobs: []string{"GATE_SDK_NATIVE_BIN", "GATE_SDK_NATIVE_CRATE"}},
		{Name: "check-gate-substrate-parity", OwnOnly: true, Listing: true, Rule: checkGateSubstrateParity, Knobs: []string{"GATE_SDK_NATIVE_CRATE",
			"GATE_SDK_NATIVE_SRC", "GATE_SDK_NATIVE_TARGETS_FILE", "GATE_SDK_NATIVE_PUBLISH_WORKFLOW", "GATE_SDK_KIT_DIRS", "GATE_SDK_PRUNE_DIRS", "GATE_SDK_PRUNE_EXTRA_DIRS", registry.EveryCouplesKnob}},
	}
}
