package repo

import (
	"strings"
	"testing"
)

// The cache tree's root id must be there whole: one byte short is none.
// Every digit counts as decimal, the bytes beside '0' and '9' do not.
func TestCacheTreeRootWholeAndDigits(t *testing.T) {
	id := strings.Repeat("cd", 20)
	full := string([]byte{0}) + "0 1\n" + string(mustHex(t, id))
	if got := cacheTreeRoot([]byte(full), 20); got != id {
		t.Errorf("a whole id: %q", got)
	}
	if got := cacheTreeRoot([]byte(full[:len(full)-1]), 20); got != "" {
		t.Errorf("an id one byte short: %q", got)
	}
	for s, want := range map[string]bool{"0": true, "9": true, "10": true, "09": true, "/": false, ":": false, "1/": false, "": false} {
		if got := allDecimal(s); got != want {
			t.Errorf("allDecimal(%q) = %v, want %v", s, got, want)
		}
	}
}
