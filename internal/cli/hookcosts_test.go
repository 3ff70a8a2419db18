package cli

import (
	"reflect"
	"testing"
	"time"
)

// The hook's kept member times round-trip, and a damaged entry is no
// times at all (the next run then starts in plan order).
func TestHookCostsRoundTrip(t *testing.T) {
	took := map[string]time.Duration{"check-graph": 8700 * time.Microsecond, "check-tree-terms": 4 * time.Millisecond}
	if got := parseCosts(formatCosts(took)); !reflect.DeepEqual(got, took) {
		t.Fatalf("round trip %v -> %v", took, got)
	}
	for _, bad := range []string{"check-a\n", "check-a\tx\n", "\t5\n", "check-a\t-3\n"} {
		if got := parseCosts([]byte(bad)); got != nil {
			t.Errorf("%q parsed as %v", bad, got)
		}
	}
}

func FuzzParseCosts(f *testing.F) {
	f.Add(formatCosts(map[string]time.Duration{"a": time.Millisecond}))
	f.Fuzz(func(t *testing.T, data []byte) {
		got := parseCosts(data)
		if got == nil {
			return
		}
		if again := parseCosts(formatCosts(got)); !reflect.DeepEqual(again, got) {
			t.Fatalf("re-parse of %v gave %v", got, again)
		}
	})
}
