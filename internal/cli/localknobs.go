package cli

import (
	"fmt"
	"strings"
	"sync"

	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

// localPrefix marks a consumer-declared knob: a name a `# knob:` line on a
// descriptor in the gates dir declares, owned by no kit table.
const localPrefix = "GATE_LOCAL_"

// gateKnobs is the knob view a gate reads: static names from the kit
// tables, GATE_LOCAL_ names from the gates dir's descriptors (environment
// first, then the declaring line), read lazily on first use.
type gateKnobs struct {
	set    *knob.Set
	env    func(string) (string, bool)
	dir    string // absolute gates dir
	once   sync.Once
	decls  map[string]registry.LocalKnobDecl
	errDcl error
}

func (k *gateKnobs) load() {
	k.once.Do(func() {
		decls, err := registry.Declarations(registry.OS{}, []string{k.dir})
		if err != nil {
			k.errDcl = err
			return
		}
		var ms []*registry.Manifest
		for _, d := range decls {
			if d.Kind != registry.Descriptor {
				continue
			}
			data, err := walk.ReadConfig(d.Path)
			if err != nil {
				k.errDcl = err
				return
			}
			m, err := registry.ParseManifest(d.Path, data)
			if err != nil {
				k.errDcl = err
				return
			}
			ms = append(ms, m)
		}
		k.decls, k.errDcl = registry.LocalKnobs(ms)
	})
}

// local answers a GATE_LOCAL_ knob's elements (a scalar is one element).
func (k *gateKnobs) local(name string) (registry.LocalKnobDecl, []string, error) {
	k.load()
	if k.errDcl != nil {
		return registry.LocalKnobDecl{}, nil, k.errDcl
	}
	d, ok := k.decls[name]
	if !ok {
		return d, nil, fmt.Errorf("%s is not declared by a `# knob:` line on any descriptor in %s", name, k.dir)
	}
	if v, ok := k.env(name); ok {
		if !d.Indexed {
			return d, []string{v}, nil
		}
		if v == "" {
			return d, nil, nil
		}
		return d, strings.Split(v, "\t"), nil
	}
	return d, d.Elements, nil
}

func (k *gateKnobs) Scalar(name string) (string, error) {
	if !strings.HasPrefix(name, localPrefix) {
		return k.set.Scalar(name)
	}
	d, v, err := k.local(name)
	if err != nil {
		return "", err
	}
	if d.Indexed {
		return "", fmt.Errorf("%s is declared indexed (%s[] = ...) in %s, not a scalar", name, name, d.File)
	}
	return strings.Join(v, ""), nil
}

func (k *gateKnobs) Words(name string) ([]string, error) {
	if !strings.HasPrefix(name, localPrefix) {
		return k.set.Words(name)
	}
	v, err := k.Scalar(name)
	return strings.Fields(v), err
}

func (k *gateKnobs) List(name string) ([]string, error) {
	if !strings.HasPrefix(name, localPrefix) {
		return k.set.List(name)
	}
	d, v, err := k.local(name)
	if err != nil {
		return nil, err
	}
	if !d.Indexed {
		// `NAME =` with nothing after it is the empty list, as in a knob file.
		if len(v) == 1 && v[0] == "" {
			return nil, nil
		}
		return nil, fmt.Errorf("%s is declared scalar in %s, not indexed", name, d.File)
	}
	return v, nil
}

// GateKnobs answers the session's knob view for gates.
func (s *Session) GateKnobs() (*gateKnobs, error) {
	set, err := s.Knobs()
	if err != nil {
		return nil, err
	}
	gatesDir, err := s.GatesDir()
	if err != nil {
		return nil, err
	}
	cwd, err := s.Cwd()
	if err != nil {
		return nil, err
	}
	s.localOnce.Do(func() {
		s.local = &gateKnobs{set: set, env: s.Env, dir: walk.AbsAgainst(cwd, gatesDir)}
	})
	return s.local, nil
}

// CouplesKnobs answers the knob view couples= expansion reads, so a gate
// expanding manifests resolves knob: tokens exactly as the registry's own
// readers do.
func (k *gateKnobs) CouplesKnobs() registry.Knobs { return registryKnobs{k.set} }
