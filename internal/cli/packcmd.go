package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/payload"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

// packKnobs are the knobs --pack-installer reads.
var packKnobs = []string{"GATE_SDK_KIT_DIRS", "GATE_SDK_NATIVE_TARGETS_FILE", "GATE_SDK_PAYLOAD_ARTIFACTS",
	"GATE_SDK_PAYLOAD_WITHHOLD", "GATE_SDK_PAYLOAD_LICENSE", "GATE_SDK_SPEC_BASE_URL", "GATE_SDK_KIT_TESTS_DIR", "GATE_SDK_KIT_TEMPLATES_DIR"}

// runPackInstaller is `--pack-installer <out>`: the payload assembled from
// the tracked kit roots at HEAD and the release's verified artifacts.
func runPackInstaller(s *Session, args []string) int {
	if len(args) != 1 || args[0] == "" || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(s.Stderr, payload.PackUsage)
		return 2
	}
	err := func() error {
		top, err := s.Top()
		if err != nil {
			return err
		}
		cwd, err := s.Cwd()
		if err != nil {
			return err
		}
		set, err := s.Knobs()
		if err != nil {
			return err
		}
		roots, err := s.KitRoots()
		if err != nil {
			return err
		}
		var rel []string
		for _, abs := range roots.Abs() {
			r, ok := walk.RelUnder(top, abs)
			if !ok {
				return fmt.Errorf("kit root %s lies outside the repository %s; the packer packs tracked roots only", abs, top)
			}
			rel = append(rel, r)
		}
		if len(rel) == 0 {
			return fmt.Errorf("no kit root to pack (GATE_SDK_KIT_DIRS)")
		}
		scalar := func(n string) string {
			if err != nil {
				return ""
			}
			var v string
			v, err = set.Scalar(n)
			return v
		}
		targets, arts, license, base := scalar("GATE_SDK_NATIVE_TARGETS_FILE"), scalar("GATE_SDK_PAYLOAD_ARTIFACTS"), scalar("GATE_SDK_PAYLOAD_LICENSE"), scalar("GATE_SDK_SPEC_BASE_URL")
		var withhold []string
		if err == nil {
			withhold, err = set.Words("GATE_SDK_PAYLOAD_WITHHOLD")
		}
		if err != nil {
			return err
		}
		in := payload.PackInput{
			Top: top, Roots: rel, Targets: walk.AbsAgainst(top, targets), Artifacts: walk.AbsAgainst(top, arts),
			Withhold: withhold, SpecBase: base, Stamp: sourceStamp, Out: walk.AbsAgainst(cwd, args[0]), Stdout: s.Stdout,
		}
		if license != "" {
			in.License = walk.AbsAgainst(top, license)
		}
		// The fixture pairs and templates travel with the kit from wherever
		// the tree keeps them: a relocated tree (the module's top-level
		// gate-tests/ or templates/) lands in the first root's own.
		for _, rel := range []struct {
			knob, what string
			dir        func(*knob.Set) (string, error)
			to         *string
		}{{registry.KitTestsKnob, "fixture pairs", kitTestsDir, &in.Fixtures}, {registry.KitTemplatesKnob, "templates", kitTemplatesDir, &in.Templates}} {
			tree, err := rel.dir(set)
			if err != nil {
				return err
			}
			if tree == "" {
				continue
			}
			r, ok := walk.RelUnder(top, walk.AbsAgainst(top, tree))
			if !ok {
				return fmt.Errorf("%s=%s lies outside the repository %s; the packer packs tracked trees only", rel.knob, tree, top)
			}
			if fi, err := os.Stat(walk.Child(top, r)); err != nil || !fi.IsDir() {
				return fmt.Errorf("%s=%s names no directory, so the kit's %s cannot be packed", rel.knob, tree, rel.what)
			}
			*rel.to = r
		}
		return payload.Pack(in)
	}()
	if err != nil {
		fmt.Fprintf(s.Stderr, "pack-installer: %v\n", strings.TrimRight(err.Error(), "\n"))
		return 2
	}
	return 0
}
