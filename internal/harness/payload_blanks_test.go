package harness

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// A blank stdin is no payload; one cut short after any non-blank byte is
// a truncated payload, however much white space comes before it.
func TestPayloadCutShortAfterLeadingBlanks(t *testing.T) {
	for _, c := range []struct {
		in   string
		none bool
	}{
		{"", true},
		{strings.Repeat(" \n", 100), true},
		{"{", false},
		{strings.Repeat(" ", 64) + "{", false},
		{strings.Repeat(" \t\n", 100) + `{"session_id": "s`, false},
	} {
		_, err := readPayload(strings.NewReader(c.in), 10*time.Second, MaxPayload)
		if err == nil || errors.Is(err, ErrNoPayload) != c.none {
			t.Errorf("%d bytes ending %q: %v, want no payload %v", len(c.in), c.in[max(0, len(c.in)-3):], err, c.none)
		}
	}
}
