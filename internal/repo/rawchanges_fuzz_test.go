package repo

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzParseRawChanges: any record list is answered or refused, never a
// panic; an answer holds one change per head and path pair, and a
// well-formed record list printed back parses to the same changes.
func FuzzParseRawChanges(f *testing.F) {
	f.Add(":100644 100755 aaaa bbbb M\x00docs/a.md\x00:000000 100644 0000 cccc A\x00new file\x00")
	f.Add(":100644 000000 aaaa 0000 D\x00gone\x00")
	f.Add(":120000 100644 a b T\x00link")
	f.Add("garbage")
	f.Fuzz(func(t *testing.T, raw string) {
		recs := strings.Split(strings.TrimSuffix(raw, "\x00"), "\x00")
		changes, err := parseRawChanges(recs)
		if err != nil {
			return
		}
		if len(changes)*2 != len(recs) {
			t.Fatalf("%d changes from %d records", len(changes), len(recs))
		}
		var back []string
		for _, c := range changes {
			back = append(back, fmt.Sprintf(":%06o %06o x y %c", c.OldMode, c.NewMode, c.Status), c.Path)
		}
		again, err := parseRawChanges(back)
		if err != nil || len(again) != len(changes) {
			t.Fatalf("printed back: %v %v", again, err)
		}
		for i := range again {
			if again[i] != changes[i] {
				t.Fatalf("change %d: %+v then %+v", i, changes[i], again[i])
			}
		}
	})
}
