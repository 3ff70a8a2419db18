package cli

import (
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/portblock"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

const portBlockersUsage = "usage: gates --emit port-blockers [--gates-dir <dir>] [--group | --tree]"

func emitPortBlockers(s *Session, args []string) int {
	mode, gatesDir := "", ""
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "--group", "--tree":
			if mode != "" && mode != a {
				return s.fail(usageError{msg: fmt.Sprintf("%s: --emit port-blockers: %s and %s are exclusive\n%s", s.prog, mode, a, portBlockersUsage)})
			}
			mode = a
		case "--gates-dir":
			if i+1 >= len(args) || args[i+1] == "" {
				return s.fail(usageError{msg: fmt.Sprintf("%s: --emit port-blockers: --gates-dir needs a directory\n%s", s.prog, portBlockersUsage)})
			}
			i++
			gatesDir = args[i]
		default:
			return s.fail(usageError{msg: fmt.Sprintf("%s: --emit port-blockers: unknown argument %q\n%s", s.prog, a, portBlockersUsage)})
		}
	}
	if mode == "--tree" {
		return portBlockersTree(s)
	}
	in, err := s.portBlockInput(gatesDir)
	if err != nil {
		return s.fail(err)
	}
	if mode == "--group" {
		portblock.WriteGroups(s.Stdout, in)
	} else {
		portblock.WriteRequirements(s.Stdout, in)
	}
	return 0
}

// portBlockInput gathers every input the registry arms read.
func (s *Session) portBlockInput(gatesDir string) (portblock.Input, error) {
	var in portblock.Input
	set, err := s.Knobs()
	if err != nil {
		return in, err
	}
	if gatesDir == "" {
		if gatesDir, err = s.GatesDir(); err != nil {
			return in, err
		}
	}
	reg, err := s.loadRegistry(gatesDir)
	if err != nil {
		return in, err
	}
	if in.Floor, err = set.List("GATE_SDK_PROGRAM_FLOOR"); err != nil {
		return in, err
	}
	in.Knob = func(name string) ([]string, bool, error) {
		if !set.Declared(name) {
			return nil, false, nil
		}
		v, err := set.Resolve(name)
		if err != nil {
			return nil, true, err
		}
		if v.Shape == knob.Indexed {
			return v.Elems, true, nil
		}
		return strings.Fields(v.Scalar), true, nil
	}
	if in.Builtins, err = shellBuiltins(); err != nil {
		return in, err
	}
	roots, err := s.KitRoots()
	if err != nil {
		return in, err
	}
	fsys := s.regFS()
	in.LibFuncs = map[string]bool{}
	for _, r := range roots.Paths() {
		lib := registry.Join(r, "lib")
		ents, err := fsys.ReadDir(lib)
		if err != nil {
			continue // a kit root without lib/ defines no library function
		}
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".sh") {
				continue
			}
			data, err := fsys.ReadFile(registry.Join(lib, e.Name()))
			if err != nil {
				return in, fmt.Errorf("cannot read kit library %s: %w", registry.Join(lib, e.Name()), err)
			}
			for f := range portblock.Functions(data) {
				in.LibFuncs[f] = true
			}
		}
	}
	testsDir, err := set.Scalar("GATE_SDK_TESTS_DIR")
	if err != nil {
		return in, err
	}
	over, err := set.Words(registry.KitTestsKnob)
	if err != nil {
		return in, err
	}
	kitTests, err := registry.KitTestsDirs(roots.Paths(), over)
	if err != nil {
		return in, err
	}
	dirs := registry.FixtureDirs(testsDir, kitTests)
	for _, m := range reg.Distinct() {
		pm := portblock.Member{Name: m.Name, Kind: m.Kind, Path: m.Path, Manifest: m.Manifest, ManifestErr: m.ManifestErr}
		switch m.Kind {
		case registry.Descriptor:
			if def, ok := findGate(m.Name); ok {
				pm.Compiled, pm.Needs = true, def.Needs
			}
		case registry.Shell:
			if pm.Source, err = fsys.ReadFile(m.Path); err != nil {
				return in, fmt.Errorf("cannot read the declaration of %s: %w", m.Name, err)
			}
		}
		if m.Kind == registry.Shell || m.Kind == registry.Descriptor {
			if m.ManifestErr != nil {
				return in, fmt.Errorf("cannot read the declaration of registered member %s: %w", m.Name, m.ManifestErr)
			}
			if m.Manifest != nil && m.Manifest.Graph != nil {
				if pm.Couples, err = registry.Expand(m.Manifest.Graph.Couples, reg.env.KitRoots, reg.env.Knobs); err != nil {
					return in, err
				}
			}
			fx, err := registry.FindFixture(fsys, dirs, m.Name)
			if err != nil {
				return in, err
			}
			switch {
			case fx.Pair != "":
				pm.Fixture = "pair"
			case m.Manifest != nil && m.Manifest.NoFixture != nil:
				pm.Fixture = "no-fixture"
			default:
				pm.Fixture = "none"
			}
		}
		in.Members = append(in.Members, pm)
	}
	return in, nil
}

// shellBuiltins asks bash, once, for its keywords and builtins.
func shellBuiltins() (map[string]bool, error) {
	done, err := spawn.Run(spawn.Cmd{Program: spawn.Bash(), Args: []string{"-c", "compgen -k; compgen -b"}})
	if err != nil {
		return nil, fmt.Errorf("cannot ask bash for its keywords and builtins: %w", err)
	}
	out, ok := done.Stdout()
	if !ok || len(out) == 0 {
		rep, _ := done.FailureReport()
		return nil, fmt.Errorf("bash did not list its keywords and builtins: %s", rep)
	}
	set := map[string]bool{}
	for _, w := range strings.Fields(string(out)) {
		set[w] = true
	}
	return set, nil
}

// portBlockersTree prints every tracked non-test shell file of the tree
// the working directory is in, with its disposition.
func portBlockersTree(s *Session) int {
	cwd, err := s.Cwd()
	if err != nil {
		return s.fail(err)
	}
	// assertion I: the probe comes first; an empty corpus outside a
	// repository would read as "nothing owed".
	files, err := repo.Tracked(cwd)
	if err != nil {
		return s.fail(fmt.Errorf("%s: --emit port-blockers --tree reads the tracked tree, and git cannot list one here: %w", s.prog, err))
	}
	set, err := s.Knobs()
	if err != nil {
		return s.fail(err)
	}
	dirs, err := set.Scalar("GATE_SDK_PRUNE_DIRS")
	if err != nil {
		return s.fail(err)
	}
	extra, err := set.Scalar("GATE_SDK_PRUNE_EXTRA_DIRS")
	if err != nil {
		return s.fail(err)
	}
	prune := walk.NewPruneSet(dirs, extra)
	var corpus []portblock.TreeFile
	for _, f := range files {
		if !portblock.InTreeCorpus(f, prune.Match) {
			continue
		}
		data, err := os.ReadFile(walk.AbsAgainst(cwd, path.Clean(f)))
		if err != nil {
			return s.fail(fmt.Errorf("cannot read tracked shell file %s: %w", f, err))
		}
		corpus = append(corpus, portblock.TreeFile{Path: f, Source: data})
	}
	portblock.WriteTree(s.Stdout, corpus)
	return 0
}
