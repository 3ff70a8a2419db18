package cli

import (
	"fmt"
	"strings"
	"sync"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/walk"
)

// registryKnobs adapts the knob set to what couples= expansion reads.
type registryKnobs struct{ set *knob.Set }

func (k registryKnobs) Knob(name string) (registry.KnobValue, error) {
	if name == "GATE_SDK_GATES_DIR" || name == "GATE_SDK_ROOT" {
		v, err := k.set.Scalar(name)
		return registry.KnobValue{Shape: registry.ShapeLocator, Value: v}, err
	}
	v, err := k.set.Resolve(name)
	if err != nil {
		return registry.KnobValue{}, err
	}
	switch v.Shape {
	case knob.Indexed:
		return registry.KnobValue{Shape: registry.ShapeIndexed, Elems: v.Elems}, nil
	case knob.Keyed:
		return registry.KnobValue{Shape: registry.ShapePacked, Elems: strings.Split(v.Wire(), "\t")}, nil
	}
	if k.isWords(name) {
		return registry.KnobValue{Shape: registry.ShapeWords, Elems: strings.Fields(v.Scalar)}, nil
	}
	return registry.KnobValue{Shape: registry.ShapeScalar, Value: v.Scalar}, nil
}

func (k registryKnobs) isWords(name string) bool {
	for _, t := range k.set.Tables() {
		if r := t.Row(name); r != nil {
			return r.Words
		}
	}
	return false
}

// Field answers one field of a keyed knob's pairs: "key" or "value".
func (k registryKnobs) Field(name, field string) ([]string, error) {
	pairs, err := k.set.Keyed(name)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range pairs {
		switch field {
		case "key":
			out = append(out, p.Key)
		case "value":
			out = append(out, p.Value)
		default:
			return nil, fmt.Errorf("knob %s has no field %q (keyed knobs carry key and value)", name, field)
		}
	}
	return out, nil
}

// kitReach answers the static kits a set of knob names reaches: the kit
// whose prefix owns each name, by stem, in table order.
type kitReach struct{ set *knob.Set }

func (r kitReach) KitsReached(names []string) ([]string, error) {
	var out []string
	for _, t := range r.set.Tables() {
		for _, n := range names {
			if strings.HasPrefix(n, t.Prefix+"_") && n != "GATE_SDK_GATES_DIR" && n != "GATE_SDK_ROOT" {
				out = append(out, t.Stem)
				break
			}
		}
	}
	return out, nil
}

// loadedRegistry is the registry with everything its readers derive from.
type loadedRegistry struct {
	*registry.Registry
	env *registry.Env
}

// registryLoad is one gates dir's registry, read once per session.
type registryLoad struct {
	once sync.Once
	reg  *loadedRegistry
	err  error
}

// loadRegistry reads <gatesDir>/gates.list and prepares trigger
// derivation, once per gates dir in a session: a run reads no file twice
// and every member sees the registry the hook planned from. Readers treat
// the answer as shared and copy before they change it (hookReg.Select).
func (s *Session) loadRegistry(gatesDir string) (*loadedRegistry, error) {
	s.regMu.Lock()
	if s.registries == nil {
		s.registries = map[string]*registryLoad{}
	}
	l, ok := s.registries[gatesDir]
	if !ok {
		l = &registryLoad{}
		s.registries[gatesDir] = l
	}
	s.regMu.Unlock()
	l.once.Do(func() { l.reg, l.err = s.readRegistry(gatesDir) })
	return l.reg, l.err
}

// readRegistry is loadRegistry's one read.
func (s *Session) readRegistry(gatesDir string) (*loadedRegistry, error) {
	set, err := s.Knobs()
	if err != nil {
		return nil, err
	}
	roots, err := s.KitRoots()
	if err != nil {
		return nil, err
	}
	cwd, cwdErr := s.Cwd()
	fsys := s.regFS()
	if s.indexFirst {
		fsys = indexFirstFS{FS: fsys, list: registry.ListPath(gatesDir), read: s.readIndexFirst}
	}
	// The repository both memos live in, located once for the two.
	locate := sync.OnceValues(func() (repo.IndexSource, error) { return repo.Git{}.LocateIndex(cwd) })
	load := registry.Load
	if wd, err := walk.Cwd(); err == nil && cwdErr == nil && !s.indexFirst && s.landed == nil && wd == cwd && cacheWanted(s) && !cache.Disabled(sourceStamp) {
		if src, err := locate(); err == nil && src.CommonDir != "" {
			// assertion J (edit-gates): the registry is read again only
			// when the list, a search dir or a resolved declaration is
			// not the one the registry memo recorded.
			load = func(fsys registry.FS, gatesDir string, roots []string) (*registry.Registry, error) {
				return loadRegistryMemo(fsys, corpusMemoDir(src.CommonDir), sourceStamp, cwd, gatesDir, roots)
			}
		}
	}
	reg, err := load(fsys, gatesDir, roots.Paths())
	if err != nil {
		return nil, err
	}
	env := s.triggerEnv(set, gatesDir, roots.Paths())
	corpus := reg.Corpus
	if wd, err := walk.Cwd(); err == nil && cwdErr == nil && !s.indexFirst && s.landed == nil && wd == cwd {
		// Load read the work tree's declarations through the same
		// directory the corpus reads: their manifests stand.
		corpus = reg.CorpusReusing
	}
	env.LoadCorpus = sync.OnceValues(func() ([]*registry.Manifest, error) { return corpus(registry.OS{}) })
	if wd, err := walk.Cwd(); err == nil && cwdErr == nil && !s.indexFirst && s.landed == nil && wd == cwd && cacheWanted(s) && !cache.Disabled(sourceStamp) {
		// assertion I (edit-gates): the work tree's declarations, each
		// registered nowhere read only when its file is not the one the
		// corpus memo recorded.
		env.CorpusKnobNames = sync.OnceValues(func() ([]string, error) {
			src, err := locate()
			if err != nil || src.CommonDir == "" {
				corpus, err := env.LoadCorpus()
				if err != nil {
					return nil, err
				}
				return registry.CouplesKnobNames(corpus), nil
			}
			memo := openCorpusMemo(corpusMemoDir(src.CommonDir), sourceStamp, cwd)
			names, err := reg.CorpusKnobNames(registry.OS{}, memo)
			if err == nil {
				memo.flush()
			}
			return names, err
		})
	}
	return &loadedRegistry{Registry: reg, env: env}, nil
}

func (s *Session) triggerEnv(set *knob.Set, gatesDir string, roots []string) *registry.Env {
	return &registry.Env{
		KitRoots: roots,
		GatesDir: gatesDir,
		Knobs:    registryKnobs{set},
		Reach:    kitReach{set},
		Declared: declaredKnobs,
	}
}

// coupling answers the registry loader a rule's context carries.
func (s *Session) coupling(gatesDir string) func() (*registry.Registry, *registry.Env, error) {
	return func() (*registry.Registry, *registry.Env, error) {
		reg, err := s.loadRegistry(gatesDir)
		if err != nil {
			return nil, nil, err
		}
		return reg.Registry, reg.env, nil
	}
}

// declaredKnobs answers the knob names a compiled member declares.
func declaredKnobs(member string) []string {
	if d, ok := findGate(member); ok {
		return d.Knobs
	}
	return nil
}

// couplesKnobs answers knob: token values over the session's knob set,
// loading it on first use.
type couplesKnobs struct{ s *Session }

func (k couplesKnobs) Knob(name string) (registry.KnobValue, error) {
	set, err := k.s.Knobs()
	if err != nil {
		return registry.KnobValue{}, err
	}
	return registryKnobs{set}.Knob(name)
}

func (k couplesKnobs) Field(name, field string) ([]string, error) {
	set, err := k.s.Knobs()
	if err != nil {
		return nil, err
	}
	return registryKnobs{set}.Field(name, field)
}
