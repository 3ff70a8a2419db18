package cli

import (
	"fmt"
	"path"
	"strings"

	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/payload"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/spawn"
)

// doctorKnobs are the knobs doctor reads beyond the arming knobs the
// registered gates declare.
var doctorKnobs = []string{"GATE_SDK_GATES_DIR", "GATE_SDK_KIT_DIRS", "GATE_SDK_NATIVE_BIN"}

// runDoctor is `gates doctor`.
func runDoctor(s *Session, args []string) int {
	return readableCommand(s, args, payload.DoctorUsage, func() int {
		w, err := s.doctorWorld()
		if err != nil {
			fmt.Fprintf(s.Stderr, "doctor: %v\n", err)
			return 2
		}
		return payload.RunDoctor(args, w)
	})
}

func (s *Session) doctorWorld() (*payload.DoctorWorld, error) {
	top, set, err := s.repoKnobs()
	if err != nil {
		return nil, err
	}
	gatesDir, err := s.GatesDir()
	if err != nil {
		return nil, err
	}
	bin, err := set.Scalar("GATE_SDK_NATIVE_BIN")
	if err != nil {
		return nil, err
	}
	return &payload.DoctorWorld{
		Top: top, Stdout: s.Stdout, Stderr: s.Stderr, Stamp: sourceStamp, Bin: bin,
		LockPath: path.Join(gatesDir, payload.LockName),
		Knob: func(name string) (string, error) {
			// A consumer-declared knob (a `# knob:` line on a descriptor
			// in the gates dir) reads as the gate reads it: environment
			// first, then the declaring line.
			if strings.HasPrefix(name, localPrefix) {
				gk, err := s.GateKnobs()
				if err != nil {
					return "", err
				}
				_, elems, err := gk.local(name)
				return strings.Join(elems, " "), err
			}
			// Every shape reads as text here: doctor asks only whether
			// the value is empty, or which files it names.
			v, err := set.Resolve(name)
			if err != nil {
				return "", err
			}
			switch v.Shape {
			case knob.Indexed:
				return strings.Join(v.Elems, " "), nil
			case knob.Keyed:
				return v.Wire(), nil
			}
			return v.Scalar, nil
		},
		OnPath:   func(p string) bool { return spawn.OnPath(p, s.Env) },
		Baseline: s.baselineDoctor,
		Wiring:   func() ([]string, error) { return harnessWiring(top) },
		Unjudged: s.doctorUnjudged,
		Hooks:    cloneHooks{top: top},
		Tracked: func(rel string) (bool, error) {
			r, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"ls-files", "--error-unmatch", "--", rel}, Dir: top})
			if err != nil {
				return false, err
			}
			return r.Succeeded(), nil
		},
		Members: func() ([]payload.DoctorMember, []payload.DoctorLeftOut, error) {
			reg, err := s.loadRegistry(gatesDir)
			if err != nil {
				return nil, nil, err
			}
			var out []payload.DoctorMember
			for _, m := range reg.Members {
				if m.Kind == registry.Unresolved {
					return nil, nil, fmt.Errorf("%s:%d: %s resolves to no declaration; the battery refuses it too", registry.ListPath(gatesDir), m.Line, m.Name)
				}
				if m.ManifestErr != nil {
					return nil, nil, m.ManifestErr
				}
				d := payload.DoctorMember{Name: m.Name}
				if m.Manifest != nil && m.Manifest.ArmedBy != nil {
					d.ArmedBy, d.Content = m.Manifest.ArmedBy.Knobs, m.Manifest.ArmedBy.Content
				}
				if def, ok := findGate(m.Name); ok {
					for _, n := range def.Needs {
						// A "?\t<KNOB>" program is the knob's value,
						// which the gate itself refuses when absent.
						if !strings.HasPrefix(n, "?") {
							d.Programs = append(d.Programs, n)
						}
					}
				}
				out = append(out, d)
			}
			var left []payload.DoctorLeftOut
			for _, u := range reg.Unregistered {
				left = append(left, payload.DoctorLeftOut{Name: u.Name, Reason: u.Reason})
			}
			return out, left, nil
		},
	}, nil
}
