package gate

import (
	"reflect"
	"testing"

	"github.com/gate-sdk/gates/internal/cache"
)

func TestFindingsRoundTrip(t *testing.T) {
	for _, fs := range [][]Finding{
		nil,
		{{Class: "leak", Path: "a.md", Line: 3, Msg: "x", Text: "a.md:3:x"}},
		{{Class: "c", Path: "p", Column: 9}, {Class: "d", Text: "whole\x00line"}},
	} {
		got, err := DecodeFindings(EncodeFindings(fs))
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) == 0 && len(got) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, fs) {
			t.Errorf("round trip %+v -> %+v", fs, got)
		}
	}
	// Truncated and trailing bytes are refused, never half-decoded.
	enc := EncodeFindings([]Finding{{Class: "leak", Path: "a.md", Msg: "long message"}})
	for _, bad := range [][]byte{enc[:len(enc)-3], append(append([]byte{}, enc...), 1), {0x7f}} {
		if _, err := DecodeFindings(bad); err == nil {
			t.Errorf("%x decoded", bad)
		}
	}
}

func FuzzDecodeFindings(f *testing.F) {
	f.Add(EncodeFindings([]Finding{{Class: "leak", Path: "a", Line: 1, Text: "a:1:x"}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		fs, err := DecodeFindings(data)
		if err == nil {
			if again, err := DecodeFindings(EncodeFindings(fs)); err != nil || len(again) != len(fs) {
				t.Fatalf("re-encode of a decoded value failed: %v", err)
			}
		}
	})
}

// setTree is a tree whose ids and whole-listing digest a test sets.
type setTree struct {
	ids    map[string]string
	digest string
}

func (t setTree) Files() ([]string, error)       { return nil, nil }
func (t setTree) Read(string) ([]byte, error)    { return nil, nil }
func (t setTree) Mode(string) (uint32, bool)     { return 0o100644, true }
func (t setTree) BlobID(p string) (string, bool) { id, ok := t.ids[p]; return id, ok }
func (t setTree) TreeDigest() (string, bool)     { return t.digest, t.digest != "" }

// assertion J: over a tree offering a whole-listing digest a set's key is
// that digest with the selection: the same digest and selection key alike
// whatever the paths, either one changed keys otherwise; without a digest
// the key is the per-path one, never the whole-listing one.
func TestKeyOfTheWholeListing(t *testing.T) {
	sel := func(root string) *cache.Config {
		var c cache.Config
		c.AddString("root", root)
		return &c
	}
	ids := map[string]string{"a": "1", "b": "2"}
	key := func(digest, root string, paths ...string) string {
		t.Helper()
		s := &SetResults{tree: setTree{ids, digest}, blobs: setTree{ids, digest}}
		k, ok := s.KeyOf(sel(root), paths)
		if !ok {
			t.Fatal("no key")
		}
		return k
	}
	base := key("index 1", "docs", "a")
	if key("index 1", "docs", "a", "b") != base {
		t.Error("the whole-listing key depended on the paths visited")
	}
	if key("index 2", "docs", "a") == base {
		t.Error("another listing keyed alike")
	}
	if key("index 1", "src", "a") == base {
		t.Error("another selection keyed alike")
	}
	perPath := &SetResults{tree: setTree{ids, ""}, blobs: setTree{ids, ""}}
	k, ok := perPath.KeyOf(sel("docs"), []string{"a"})
	want, _ := perPath.Key([]string{"a"})
	if !ok || k != want || k == base {
		t.Errorf("without a digest KeyOf = %q, Key = %q", k, want)
	}
	if (&Context{Tree: setTree{ids, ""}}).WholeListing() || !(&Context{Tree: setTree{ids, "d"}}).WholeListing() {
		t.Error("WholeListing misreports the tree's digest")
	}
}
