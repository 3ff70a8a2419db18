package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/consumersmoke"
	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

func (s *Session) smokeWorld() (consumersmoke.World, error) {
	cwd, err := s.Cwd()
	if err != nil {
		return consumersmoke.World{}, err
	}
	return consumersmoke.World{
		Dir:     cwd,
		Env:     s.Env,
		Environ: os.Environ,
		Stdout:  s.Stdout,
		Stderr:  s.Stderr,
		KitRoots: func() ([]string, error) {
			roots, err := s.KitRoots()
			if err != nil {
				return nil, err
			}
			return roots.Paths(), nil
		},
		NativeBin: func() (string, error) {
			set, err := s.Knobs()
			if err != nil {
				return "", err
			}
			return set.Scalar("GATE_SDK_NATIVE_BIN")
		},
		KitTests: func() (string, error) {
			set, err := s.Knobs()
			if err != nil {
				return "", err
			}
			return kitTestsDir(set)
		},
		KitTemplates: func() (string, error) {
			set, err := s.Knobs()
			if err != nil {
				return "", err
			}
			return kitTemplatesDir(set)
		},
	}, nil
}

// kitTestsDir answers GATE_SDK_KIT_TESTS_DIR's one word, "" when empty.
func kitTestsDir(set *knob.Set) (string, error) {
	return relocatedKitDir(set, registry.KitTestsKnob, registry.KitTestsDirs)
}

// relocatedKitDir answers the one word of a knob that relocates a tree of
// the gate-sdk kit, checked by that knob's resolver; "" when empty.
func relocatedKitDir(set *knob.Set, name string, resolve func(roots, override []string) ([]string, error)) (string, error) {
	words, err := set.Words(name)
	if err != nil {
		return "", err
	}
	dirs, err := resolve([]string{""}, words)
	if err != nil || len(words) == 0 {
		return "", err
	}
	return dirs[0], nil
}

func runConsumerSmoke(s *Session, args []string) int {
	w, err := s.smokeWorld()
	if err != nil {
		fmt.Fprintf(s.Stderr, "run-consumer-smoke: %v\n", err)
		return 2
	}
	return consumersmoke.RunSmoke(args, w)
}

func runDemo(s *Session, args []string) int {
	w, err := s.smokeWorld()
	if err != nil {
		fmt.Fprintf(s.Stderr, "DEMO: FAIL(env) \u2014 %v\n", err)
		return 2
	}
	return consumersmoke.RunDemo(args, w)
}

// runUpgradeSmoke resolves the arm's knobs once and runs it.
func runUpgradeSmoke(s *Session, args []string) int {
	fail := func(err error) int {
		fmt.Fprintf(s.Stderr, "UPGRADE-SMOKE: FAIL(env) \u2014 %v\n", err)
		return 2
	}
	cwd, err := s.Cwd()
	if err != nil {
		return fail(err)
	}
	set, err := s.Knobs()
	if err != nil {
		return fail(err)
	}
	w := consumersmoke.UpgradeWorld{Dir: cwd, Environ: os.Environ, Stdout: s.Stdout, Stderr: s.Stderr, KitRootsAt: kitRootsAt, KitTestsAt: kitTestsAt, KitTemplatesAt: kitTemplatesAt}
	// Every knob the arm reads is read once, here (§--upgrade-smoke, A).
	for name, dst := range map[string]*string{"GATE_SDK_UPGRADE_REPO": &w.Repo, "GATE_SDK_UPGRADE_FROM": &w.From,
		"GATE_SDK_UPGRADE_TO": &w.To, "GATE_SDK_TMP_DIR": &w.TmpDir, "GATE_SDK_WORKFLOW_DIR": &w.WorkflowDir} {
		if *dst, err = set.Scalar(name); err != nil {
			return fail(err)
		}
	}
	for name, dst := range map[string]*[]string{"GATE_SDK_RELEASE_SECTIONS": &w.Sections, "GATE_SDK_RELEASE_SECTION_ALIASES": &w.Aliases} {
		v, err := set.Resolve(name)
		if err != nil {
			return fail(err)
		}
		*dst = v.Elems
	}
	return consumersmoke.RunUpgrade(args, w)
}

// knobsAt loads a checkout's own knob files, with no GATE_SDK_ value of
// this process's environment reaching them.
func knobsAt(dir string) (*knob.Set, error) {
	lookup := func(name string) (string, bool) {
		if strings.HasPrefix(name, "GATE_SDK_") {
			return "", false
		}
		return os.LookupEnv(name)
	}
	return knob.Load(knob.Options{Dir: dir, Lookup: lookup, AbsAgainst: walk.AbsAgainst})
}

// kitTemplatesDir answers GATE_SDK_KIT_TEMPLATES_DIR's one word, "" when
// empty.
func kitTemplatesDir(set *knob.Set) (string, error) {
	return relocatedKitDir(set, registry.KitTemplatesKnob, registry.KitTemplatesDirs)
}

// kitTestsAt answers a checkout's GATE_SDK_KIT_TESTS_DIR from its own
// knob files.
func kitTestsAt(dir string) (string, error) {
	set, err := knobsAt(dir)
	if err != nil {
		return "", err
	}
	return kitTestsDir(set)
}

// kitTemplatesAt answers a checkout's GATE_SDK_KIT_TEMPLATES_DIR from its
// own knob files.
func kitTemplatesAt(dir string) (string, error) {
	set, err := knobsAt(dir)
	if err != nil {
		return "", err
	}
	return kitTemplatesDir(set)
}

// kitRootsAt answers a checkout's kit roots from its own knob files, with
// no GATE_SDK_ value of this process's environment reaching them.
func kitRootsAt(dir string) ([]string, error) {
	set, err := knobsAt(dir)
	if err != nil {
		return nil, err
	}
	dirs, err := set.Scalar("GATE_SDK_KIT_DIRS")
	if err != nil {
		return nil, err
	}
	if dirs == "" && !isDir(walk.AbsAgainst(dir, walk.DefaultSdkRoot)) {
		return nil, nil
	}
	roots, err := walk.KitRoots(walk.KitRootsInput{Cwd: dir, KitDirs: dirs})
	if err != nil {
		return nil, err
	}
	return roots.Abs(), nil
}
