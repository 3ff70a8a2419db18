package memlimit

import "testing"

// withSet swaps the runtime setter for a recorder for one test and
// restores the package's state after it.
func withSet(t *testing.T) *[]int64 {
	t.Helper()
	var got []int64
	old, oldArmed, oldLimit := set, armed, limit
	set = func(n int64) int64 { got = append(got, n); return 0 }
	armed, limit = false, 0
	t.Cleanup(func() { set, armed, limit = old, oldArmed, oldLimit })
	return &got
}

func TestForScalesWithTheListing(t *testing.T) {
	for _, c := range []struct {
		files int
		want  int64
	}{
		{0, Floor}, {20000, Floor}, {100000, Floor},
		{300000, 300000 * PerFile}, {1000000, 1000000 * PerFile},
	} {
		if got := For(c.files); got != c.want {
			t.Errorf("For(%d) = %d, want %d", c.files, got, c.want)
		}
	}
	// The limit grows in proportion past the floor: linear, never capped
	// below the live heap a listing costs.
	if For(2000000) != 2*For(1000000) {
		t.Errorf("For is not linear past the floor: %d, %d", For(1000000), For(2000000))
	}
}

func TestFitOnlyRaisesAnArmedLimit(t *testing.T) {
	got := withSet(t)
	Fit(1000000)
	if len(*got) != 0 {
		t.Fatalf("unarmed Fit set the limit: %v", *got)
	}
	Arm()
	Fit(1000)   // under the floor: no change
	Fit(500000) // raised
	Fit(300000) // smaller: kept
	want := []int64{Floor, 500000 * PerFile}
	if len(*got) != len(want) || (*got)[0] != want[0] || (*got)[1] != want[1] {
		t.Fatalf("limits set %v, want %v", *got, want)
	}
}
