package cli

import (
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/treewatch"
)

// GATE_SDK_TREE_WATCH: unset or on asks the watcher where the platform has
// one; off, or any other value, never does.
func TestTreeWatchKnob(t *testing.T) {
	for _, tc := range []struct {
		set   bool
		value string
		want  bool
	}{
		{false, "", treewatch.Supported},
		{true, "", treewatch.Supported},
		{true, "on", treewatch.Supported},
		{true, "off", false},
		{true, "yes", false},
	} {
		s := newSession(IO{Env: func(k string) (string, bool) {
			if k == "GATE_SDK_TREE_WATCH" && tc.set {
				return tc.value, true
			}
			return "", false
		}})
		if got := treeWatchWanted(s); got != tc.want {
			t.Errorf("GATE_SDK_TREE_WATCH set %v to %q: wanted %v, got %v", tc.set, tc.value, tc.want, got)
		}
	}
	for v, want := range map[string]time.Duration{"": treewatch.DefaultIdle, "60": time.Minute, "0": treewatch.DefaultIdle, "x": treewatch.DefaultIdle} {
		if got := treeWatchIdle(v); got != want {
			t.Errorf("GATE_SDK_TREE_WATCH_IDLE=%q: %v, want %v", v, got, want)
		}
	}
}
