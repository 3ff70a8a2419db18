package gates

import (
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// TestTreeIgnores: the tracked .gitignore files, top down, decide; a
// directory rule hides what is below it; a negation re-includes only what
// no ignored directory holds; an untracked .gitignore says nothing.
func TestTreeIgnores(t *testing.T) {
	tree := &gatetest.Tree{Data: map[string]string{
		".gitignore":        "# built\n/dist/\n*.gen.sh\n!keep.gen.sh\n",
		"test/.gitignore":   "\ufefflib/framework/\nrunner.sh\r\n",
		"test/x.sh":         "",
		"vendor/.gitignore": "*",
		"linked/.gitignore": "*.sh\n",
		"sub/.gitignore":    "!dist/\n",
	}, Modes: map[string]uint32{"linked/.gitignore": 0o120000}}
	ig := newTreeIgnores(&gate.Context{Dir: t.TempDir(), Tree: tree})
	for _, tc := range []struct {
		p    string
		want bool
	}{
		{"dist/run.sh", true},
		{"sub/dist/run.sh", false}, // /dist/ is anchored at the top
		{"test/lib/framework/aggregate.sh", true},
		{"lib/framework/aggregate.sh", false}, // test/'s rule holds under test/ only
		{"test/runner.sh", true},
		{"test/deep/runner.sh", true}, // a name with no slash matches at any depth below
		{"tools/make.gen.sh", true},
		{"tools/keep.gen.sh", false},
		{"test/x.sh", false},
		{"vendor/anything.sh", true},
		{"linked/run.sh", false}, // a symlinked .gitignore is not read
		{"../up.sh", false},
		{"README.md", false},
	} {
		if got := ig.ignored(tc.p); got != tc.want {
			t.Errorf("ignored(%q) = %v, want %v", tc.p, got, tc.want)
		}
	}
}
