package gates

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
)

// check-kit-enum builds the own listing (a filter over every path) only
// when a hand list asks it; the verdicts are the ones the listing gives:
// clean with no hand list, a finding for a hand list omitting a kit root
// with matching files, clean when it names them all, and a refusal
// outside a repository.
func TestKitEnumListsOnlyForAHandList(t *testing.T) {
	run := func(tree gate.Tree, couples ...string) (int, string) {
		t.Helper()
		reg := &registry.Registry{Members: []registry.Member{{Name: "check-x",
			Resolution: registry.Resolution{Name: "check-x", Kind: registry.Descriptor, Path: "scripts/check-x.gate"},
			Manifest:   &registry.Manifest{Graph: &registry.Graph{Couples: couples, Line: 3}}}}}
		var out, errb bytes.Buffer
		c := &gate.Context{Name: "check-kit-enum", Tree: tree, Out: &out, Err: &errb,
			KitRoots: []string{"kits/a", "kits/b", "kits/c"},
			Coupling: func() (*registry.Registry, *registry.Env, error) { return reg, nil, nil }}
		code := checkKitEnum(c)
		return code, out.String() + errb.String()
	}
	asked := 0
	files := ownListing{"kits/a/SPEC.md", "kits/b/SPEC.md", "kits/c/SPEC.md", "vendor/k/SPEC.md", "x.go"}
	own := func(inner gate.Tree) gate.Tree {
		return gate.OwnTree(inner, []string{"vendor/k"}, func(string) bool { asked++; return true })
	}
	if code, out := run(own(files), "*.go", "kits/a/README.md"); code != gate.Clean || asked != 0 {
		t.Fatalf("no hand list: exit %d, the filter asked %d times\n%s", code, asked, out)
	}
	if code, out := run(own(files), "kits/a/SPEC.md", "kits/b/SPEC.md"); code != gate.Failed || asked == 0 || !strings.Contains(out, "omits kits/c") {
		t.Fatalf("a hand list omitting kits/c: exit %d, the filter asked %d times\n%s", code, asked, out)
	}
	if code, out := run(own(files), "kits/a/SPEC.md", "kits/b/SPEC.md", "kits/c/SPEC.md"); code != gate.Clean {
		t.Fatalf("a whole hand list: exit %d\n%s", code, out)
	}
	if code, out := run(own(enumNoRepo{})); code != gate.Refused || !strings.Contains(out, "not inside a git repository") {
		t.Fatalf("outside a repository: exit %d\n%s", code, out)
	}
}

type ownListing []string

func (l ownListing) Files() ([]string, error)    { return l, nil }
func (l ownListing) Read(string) ([]byte, error) { return nil, nil }
func (l ownListing) Mode(string) (uint32, bool)  { return 0o100644, true }

type enumNoRepo struct{ ownListing }

func (enumNoRepo) Files() ([]string, error) { return nil, errEnumNoRepo }

var errEnumNoRepo = enumErr("not inside a git repository")

type enumErr string

func (e enumErr) Error() string { return string(e) }
