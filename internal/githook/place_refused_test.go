package githook

import (
	"errors"
	"testing"
)

// A refused copy is removed quietly: the report speaks only of a
// placement file that could not be removed.
func TestPlaceRemovesARefusedCopyQuietly(t *testing.T) {
	dir, src, p, report := setup(t)
	p.verify = func(string) error { return errors.New(`it answered ""`) }
	if err := p.Place(src, PreCommit); err == nil {
		t.Fatal("a copy that did not answer was placed")
	}
	if report.Len() != 0 {
		t.Fatalf("report %q", report.String())
	}
	if got := names(t, dir); got != "commit-msg pre-commit" {
		t.Fatalf("the refused copy was left: %q", got)
	}
}
