package gates

import (
	"slices"
	"sync"
	"testing"

	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// recordingKnobs answers every knob empty and notes each name asked.
type recordingKnobs struct {
	mu    sync.Mutex
	asked []string
}

func (r *recordingKnobs) note(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !slices.Contains(r.asked, name) {
		r.asked = append(r.asked, name)
	}
}

func (r *recordingKnobs) Scalar(name string) (string, error)  { r.note(name); return "", nil }
func (r *recordingKnobs) Words(name string) ([]string, error) { r.note(name); return nil, nil }
func (r *recordingKnobs) List(name string) ([]string, error)  { r.note(name); return nil, nil }

// TestEveryKnobReadIsDeclared runs each gate over a small tree and holds
// the knobs it asked for to the list its Def declares: the declared list
// is what derives the member's knob-file couples, so a read it misses is a
// knob edit that would not re-run the gate.
func TestEveryKnobReadIsDeclared(t *testing.T) {
	tree := &gatetest.Tree{Data: map[string]string{
		".github/workflows/ci.yml": "name: ci\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n",
		"README.md":                "see `a`\n",
	}}
	for _, def := range All() {
		rec := &recordingKnobs{}
		gatetest.Exec(def.Rule, def.Name, t.TempDir(), tree, rec, map[string]string{"PATH": "/usr/bin:/bin"})
		for _, name := range rec.asked {
			if !slices.Contains(def.Knobs, name) {
				t.Errorf("%s reads %s but does not declare it", def.Name, name)
			}
		}
	}
}
