package battery

import "testing"

// assertion C: the green line counts and names the members that checked
// nothing; a red line is unchanged by them.
func TestSummaryNamesWhatCheckedNothing(t *testing.T) {
	v := func(name string, code int, nothing bool) Verdict {
		return Verdict{Member: Member{Name: name}, Outcome: Outcome{Code: code, Nothing: nothing}}
	}
	cases := []struct {
		verdicts []Verdict
		want     string
	}{
		{[]Verdict{v("check-a", 0, false), v("check-b", 0, false)}, "All 2 gates passed."},
		{[]Verdict{v("check-a", 0, true), v("check-b", 0, false), v("check-c", 0, true)}, "All 3 gates passed (2 checked nothing: check-a, check-c)."},
		{[]Verdict{v("check-a", 0, true)}, "The 1 gate passed (1 checked nothing: check-a)."},
		{[]Verdict{v("check-a", 0, true), v("check-b", 1, false)}, "1 of 2 gates FAILED: check-b"},
	}
	for _, c := range cases {
		if got := Summary(c.verdicts); got != c.want {
			t.Errorf("Summary = %q, want %q", got, c.want)
		}
	}
}
