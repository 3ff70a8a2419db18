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

type digestListTree struct {
	listTree
	digest string
}

func (d digestListTree) TreeDigest() (string, bool) { return d.digest, d.digest != "" }

// The filtered listing is named when the inner one is and the shipped
// rule has a key: by neither the inner digest nor another key's or root's
// digest. A prior inner tree stands for a prior filtered one only while
// no changed path lies in a vendored root, whose bytes decide whether the
// file is listed.
func TestOwnTreeDigestAndPrior(t *testing.T) {
	inner := digestListTree{listTree{"gate-sdk/a.sh", "docs/a.md"}, "d1"}
	digest := func(tr Tree) string {
		d, ok := tr.(TreeDigests)
		if !ok {
			return ""
		}
		s, _ := d.TreeDigest()
		return s
	}
	own := digest(OwnTreeKeyed(inner, []string{"gate-sdk"}, nil, "k1"))
	if own == "" || own == "d1" || own != OwnDigest("d1", []string{"gate-sdk"}, "k1") {
		t.Fatalf("the filtered listing's digest is %q", own)
	}
	for _, other := range []string{
		digest(OwnTreeKeyed(inner, []string{"gate-sdk"}, nil, "k2")),
		digest(OwnTreeKeyed(inner, []string{"kit"}, nil, "k1")),
		digest(OwnTreeKeyed(digestListTree{inner.listTree, "d2"}, []string{"gate-sdk"}, nil, "k1")),
	} {
		if other == own {
			t.Fatalf("another lock, root or listing names the same digest %q", own)
		}
	}
	if digest(OwnTree(inner, []string{"gate-sdk"}, nil)) != "" || digest(OwnTreeKeyed(digestListTree{inner.listTree, ""}, []string{"gate-sdk"}, nil, "k1")) != "" {
		t.Fatal("a digest named without a key or an inner digest")
	}
	p := OwnPrior(&Prior{Digest: "d0", Changed: []string{"docs/a.md"}}, []string{"gate-sdk"}, "k1")
	if p == nil || p.Digest != OwnDigest("d0", []string{"gate-sdk"}, "k1") || !p.IsChanged("docs/a.md") {
		t.Fatalf("prior %+v", p)
	}
	if OwnPrior(&Prior{Digest: "d0", Changed: []string{"gate-sdk/a.sh"}}, []string{"gate-sdk"}, "k1") != nil {
		t.Fatal("a prior whose change lies in the vendored root was kept")
	}
	if q := (&Prior{Digest: "d0"}); OwnPrior(q, nil, "") != q {
		t.Fatal("with no vendored root the prior is the inner one")
	}
}

// The listing's filter answers UnderAny's answer for every path, the
// roots spelled with a "./" lead, a trailing '/', or as "." or "".
func TestOwnTreeFilterIsUnderAny(t *testing.T) {
	paths := listTree{"gate-sdk", "gate-sdk/a", "gate-sdk-x/b", "gate-sdkx", "./gate-sdk/c", "kit/sub/d", "kit/subx", "kit", "x/gate-sdk/e", "."}
	for _, roots := range [][]string{{"gate-sdk/"}, {"./gate-sdk"}, {"kit/sub", "gate-sdk"}, {".", "", "kit"}} {
		files, _ := OwnTree(paths, roots, nil).Files()
		var want []string
		for _, p := range paths {
			if !UnderAny(p, roots) {
				want = append(want, p)
			}
		}
		if !slices.Equal(files, want) {
			t.Errorf("roots %q: %v, want %v", roots, files, want)
		}
	}
}

type failTree struct{ listTree }

func (failTree) Files() ([]string, error) { return nil, errors.New("not inside a git repository") }

// ListingErr answers what Files answers, through an OwnTree too, without
// asking the OwnTree's filter.
func TestListingErrAnswersAsFiles(t *testing.T) {
	asked := 0
	shipped := func(string) bool { asked++; return true }
	for _, inner := range []Tree{listTree{"gate-sdk/a", "b"}, failTree{}} {
		_, want := inner.Files()
		for _, tree := range []Tree{inner, OwnTree(inner, []string{"gate-sdk"}, shipped)} {
			got := ListingErr(tree)
			if (got == nil) != (want == nil) || (want != nil && got.Error() != want.Error()) {
				t.Fatalf("ListingErr = %v, Files answers %v", got, want)
			}
		}
	}
	if asked != 0 {
		t.Fatalf("the probe asked the filter %d times", asked)
	}
}
