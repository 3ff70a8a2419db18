package githook

import (
	"bytes"
	"testing"
)

// The hook's repository reader keeps the index verification it made only
// when stored state is on (unset or "on"); GATE_SDK_CACHE=off keeps none.
// GATE_SDK_VERBOSE routes its fallback notes to the hook's stderr.
func TestHookGitReaderFollowsTheKnobs(t *testing.T) {
	for v, want := range map[string]bool{"": true, "on": true, "off": false} {
		env := func(name string) (string, bool) {
			if name == "GATE_SDK_CACHE" && v != "" {
				return v, true
			}
			return "", false
		}
		if got := (World{Env: env}).git().RecordVerified; got != want {
			t.Errorf("GATE_SDK_CACHE=%q: RecordVerified %v, want %v", v, got, want)
		}
	}
	var errb bytes.Buffer
	verbose := func(name string) (string, bool) {
		return map[string]string{"GATE_SDK_VERBOSE": "1"}[name], name == "GATE_SDK_VERBOSE"
	}
	if g := (World{Env: verbose, Stderr: &errb}).git(); g.Debug != &errb {
		t.Error("GATE_SDK_VERBOSE=1 did not route the reader's notes to stderr")
	}
	if g := (World{Stderr: &errb}).git(); g.Debug != nil || !g.RecordVerified {
		t.Errorf("no knobs: Debug %v, RecordVerified %v", g.Debug, g.RecordVerified)
	}
}
