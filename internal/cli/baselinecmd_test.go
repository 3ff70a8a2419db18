package cli

import (
	"testing"

	"github.com/gate-sdk/gates/internal/baseline"
	"github.com/gate-sdk/gates/internal/gate"
)

// What `gates baseline` records off a member's structured findings keys
// each finding as the rule's own report does, so an entry it writes is
// the one the report accepts.
func TestRecordedKeyIsTheReportsKey(t *testing.T) {
	for _, f := range []gate.Finding{
		{Class: "unpinned", Path: ".github/workflows/ci.yml", Line: 6, Msg: "uses: a@v4 is pinned to @v4"},
		{Class: "leak", Path: "README.md", Line: 1, Msg: "see a banned term", Text: "README.md:1:see a banned term"},
		{Class: "leak", Path: "bin.dat", Text: "bin.dat"},
		{Class: "arm", Text: "go vet failed:\nx.go:1: bad"},
		{Class: "k", Msg: "no path at all"},
		{Class: "k", Path: "a\"b", Line: 2, Column: 3, Msg: "quoted"},
		{Class: "unpinned", Path: "ci.yml", Line: 6, Msg: "uses: a@v4 is pinned", Identity: "action=a\x00job=b\x00step=id=x", About: "a in job b, step 1"},
		{Class: "leak", Path: "bin.dat", Text: "bin.dat", Identity: "binary\x00pattern=p\x01matched=q", About: "binary file"},
	} {
		back := gateFindings(structured([]gate.Finding{f}))
		if got, want := baseline.SeenOf("g", back[0]), baseline.SeenOf("g", f); got != want {
			t.Errorf("%q: recorded %v, the report keys %v", f.String(), got, want)
		}
	}
}
