package harness

import (
	"reflect"
	"testing"
)

// git commit's -u and -S take an optional value stuck to them, which runs
// to the end of the cluster: `-uno` is --untracked-files=no, not -u and
// -n, and `-Sme@x` names a key, not a message. Decision (issue 41
// acceptance, branch work56): `git commit -uno -am "docs: …"` was refused
// before it ran as a --no-verify.
func TestInspectCommitOptionalArgCluster(t *testing.T) {
	for _, c := range []string{
		`git commit -uno -am "docs: x"`,
		`git commit -qauno -m "docs: x"`,
		`git commit -a -unormal -m "docs: x"`,
		`git commit -Snina@example.invalid -m "docs: x"`,
	} {
		v, err := Inspect(c)
		if err != nil {
			t.Fatalf("%q: %v", c, err)
		}
		if len(v.Bypass) != 0 {
			t.Errorf("%q: read as a bypass: %v", c, v.Bypass)
		}
		if want := []string{"docs: x\n"}; !reflect.DeepEqual(v.Messages, want) {
			t.Errorf("%q: messages %q, want %q", c, v.Messages, want)
		}
	}
	// A -n before the -u is still the bypass.
	for _, c := range []string{`git commit -nuno -m "docs: x"`, `git commit -uno -n -m "docs: x"`} {
		v, err := Inspect(c)
		if err != nil {
			t.Fatalf("%q: %v", c, err)
		}
		if len(v.Bypass) == 0 {
			t.Errorf("%q: no bypass found", c)
		}
	}
}
