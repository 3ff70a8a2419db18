package consumersmoke

import "testing"

// The green token admits the battery's checked-nothing parenthetical, and
// nothing else after the count.
func TestGreenAdmitsTheCheckedNothingNote(t *testing.T) {
	for _, line := range []string{"All 7 gates passed (2 checked nothing: check-a, check-b).\n", "The 1 gate passed (1 checked nothing: check-a).\n"} {
		if !Green(0, []byte(line)) {
			t.Errorf("%q is not read as green", line)
		}
	}
	for _, line := range []string{"All 7 gates passed (but not really).\n", "All 7 gates passed (2 checked nothing: check-a) FAILED.\n"} {
		if Green(0, []byte(line)) {
			t.Errorf("%q is read as green", line)
		}
	}
}
