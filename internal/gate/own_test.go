package gate

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

type listTree []string

func (l listTree) Files() ([]string, error)    { return l, nil }
func (l listTree) Read(string) ([]byte, error) { return nil, errors.New("unread") }
func (l listTree) Mode(string) (uint32, bool)  { return 0o100644, true }

// The listing leaves out the vendored root and nothing that merely
// shares its prefix; a report names the skipped root clean or red.
func TestOwnTreeAndTheVendoredNote(t *testing.T) {
	tree := OwnTree(listTree{"gate-sdk/lib/a.sh", "gate-sdk", "gate-sdk-extra/b.sh", "scripts/check-x.sh"}, []string{"gate-sdk/"}, nil)
	files, _ := tree.Files()
	if want := []string{"gate-sdk-extra/b.sh", "scripts/check-x.sh"}; !slices.Equal(files, want) {
		t.Fatalf("files %v, want %v", files, want)
	}
	if got := OwnTree(listTree{"a"}, nil, nil); got.(listTree) == nil {
		t.Fatal("no vendored root: the tree itself")
	}
	var out strings.Builder
	c := &Context{Name: "check-x", VendoredRoots: []string{"gate-sdk"}, Out: &out}
	c.NewReport(nil).Done("2 files")
	if want := "X: clean (2 files; vendored kit at gate-sdk/ not judged: proven by its release)\n"; out.String() != want {
		t.Fatalf("clean line %q, want %q", out.String(), want)
	}
	out.Reset()
	r := c.NewReport(map[string]string{"A": "fix it"})
	r.Add(Finding{Class: "A", Path: "scripts/check-x.sh", Msg: "bad"})
	if code := r.Done(""); code != Failed || !strings.HasSuffix(out.String(), "help: fix it\nnote: vendored kit at gate-sdk/ not judged: proven by its release\n") {
		t.Fatalf("exit %d\n%s", code, out.String())
	}
}

// A file under the vendored root that the release did not ship as it is
// (Shipped says no) stays in the listing and is judged; Vendored agrees.
func TestOwnTreeKeepsWhatTheReleaseDidNotShip(t *testing.T) {
	shipped := func(p string) bool { return p == "gate-sdk/checks/check-a.gate" }
	tree := OwnTree(listTree{"gate-sdk/checks/check-a.gate", "gate-sdk/checks/check-dropped.sh", "scripts/check-x.sh"}, []string{"gate-sdk"}, shipped)
	files, _ := tree.Files()
	if want := []string{"gate-sdk/checks/check-dropped.sh", "scripts/check-x.sh"}; !slices.Equal(files, want) {
		t.Fatalf("files %v, want %v", files, want)
	}
	c := &Context{VendoredRoots: []string{"gate-sdk"}, Shipped: shipped}
	if !c.Vendored("gate-sdk/checks/check-a.gate") || c.Vendored("./gate-sdk/checks/check-dropped.sh") || c.Vendored("scripts/check-x.sh") {
		t.Fatal("Vendored does not follow Shipped")
	}
	if !c.VendoredRoot("gate-sdk/checks/check-dropped.sh") {
		t.Fatal("VendoredRoot asks only the root")
	}
}
