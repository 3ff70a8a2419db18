package graph

import (
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/registry"
)

func enforcementReg() *registry.Registry {
	g := func(couples ...string) *registry.Manifest {
		return &registry.Manifest{Graph: &registry.Graph{Couples: couples, Dir: "one", Valve: "none", Tier: "precommit"}}
	}
	return &registry.Registry{Members: []registry.Member{
		{Name: "check-kit", Resolution: registry.Resolution{Name: "check-kit", Kind: registry.Descriptor, Dir: "kits/gate-sdk/checks"}, Manifest: g("kit:README.md", "internal/x/*.go", "*.sh")},
		{Name: "check-own", Resolution: registry.Resolution{Name: "check-own", Kind: registry.Descriptor, Dir: "scripts"}, Manifest: g("internal/y/*.go")},
	}}
}

func TestEnforcementListsAdoptedClassesWithResolvingPointers(t *testing.T) {
	spec := "# gate-sdk\n\n## The declaration header and the `# graph:` manifest\n\ntext\n\n## The enforcement map\n"
	files := map[string]string{"kits/gate-sdk/SPEC.md": spec, "kits/drift-kit/SPEC.md": "# drift-kit\n\n## Something else\n"}
	in := EnforcementInput{
		Registry: enforcementReg(),
		KitRoots: []string{"kits/gate-sdk", "kits/drift-kit"},
		Page:     "scripts/ENFORCEMENT.md",
		Tracked:  func(p string) bool { _, ok := files[p]; return ok },
		Read:     func(p string) ([]byte, error) { return mapFiles(files).ReadFile(p) },
		Present:  func(p string) bool { return p == "*.sh" },
	}
	page, err := EmitEnforcement(in)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, want := range []string{
		"- **Blocking gates** refuse the commit (tier=precommit, tier=commit-msg) or the merge (every tier, in the battery CI runs) ([kits/gate-sdk/SPEC.md](../kits/gate-sdk/SPEC.md) §The declaration header and the `# graph:` manifest).\n",
		"([kits/gate-sdk/SPEC.md](../kits/gate-sdk/SPEC.md) §The enforcement map).\n",
		// drift-kit is adopted, but its SPEC.md holds no §kpis.list: no pointer.
		"- **Advisory KPIs** report a trend and block nothing.\n",
		"| gate-sdk | `check-kit` | precommit | `kit:README.md, *.sh` |\n",
		"| (consumer) | `check-own` | precommit | `internal/y/*.go` |\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in:\n%s", want, s)
		}
	}
	for _, gone := range []string{"context-kit", "evidence-kit", "Session warnings", "Guards", "Validate suites", "Not adopted", "internal/x/"} {
		if strings.Contains(s, gone) {
			t.Errorf("the map names %q:\n%s", gone, s)
		}
	}
	// An untracked SPEC.md is cited nowhere.
	in.Tracked = func(string) bool { return false }
	page, err = EmitEnforcement(in)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), "SPEC.md") {
		t.Fatalf("a pointer to an untracked file:\n%s", page)
	}
}

func TestHasHeading(t *testing.T) {
	doc := []byte("# Top\n\n### A `b` c\r\nnot ## X\n####### Seven\n##NoSpace\n")
	for title, want := range map[string]bool{"Top": true, "A `b` c": true, "X": false, "Seven": false, "NoSpace": false, "A": false} {
		if HasHeading(doc, title) != want {
			t.Errorf("HasHeading(%q) = %v", title, !want)
		}
	}
}
