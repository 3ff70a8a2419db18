package graph

import (
	"math/rand"
	"slices"
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

// A title is one of Headings' answers exactly when HasHeading finds it,
// over random documents of heading-like lines (levels 0 to 8, missing
// spaces, CRs, blank and space-only texts, no final newline).
func TestHeadingsAnswerAsHasHeading(t *testing.T) {
	rng := rand.New(rand.NewSource(48))
	pieces := []string{"#", "##", "######", "#######", "", " ", "  ", "A", "A b", " A ", "\r", "\t", "x#", "`c`"}
	for round := 0; round < 2000; round++ {
		var b strings.Builder
		var titles []string
		for k := rng.Intn(6); k >= 0; k-- {
			line := ""
			for j := rng.Intn(4); j >= 0; j-- {
				line += pieces[rng.Intn(len(pieces))]
			}
			b.WriteString(line)
			if rng.Intn(5) > 0 {
				b.WriteByte('\n')
			}
			titles = append(titles, strings.TrimSpace(strings.TrimLeft(strings.TrimSuffix(line, "\r"), "#")), line)
		}
		doc := []byte(b.String())
		hs := Headings(doc)
		for _, title := range append(titles, "", "A", "A b") {
			if got, want := slices.Contains(hs, title), HasHeading(doc, title); got != want {
				t.Fatalf("%q: Headings %q holds %q: %v, HasHeading %v", doc, hs, title, got, want)
			}
		}
	}
}

// The page asks Headings when it is set, and prints what Read would have
// given it.
func TestSpecPointerAsksHeadings(t *testing.T) {
	doc := []byte("# gate-sdk\n\n## The declaration header and the `# graph:` manifest\n\ntext\n\n## The enforcement map\n")
	asked := 0
	in := EnforcementInput{Registry: enforcementReg(), KitRoots: []string{"kits/gate-sdk"}, Page: "scripts/ENFORCEMENT.md",
		Tracked: func(p string) bool { return p == "kits/gate-sdk/SPEC.md" },
		Read:    func(string) ([]byte, error) { return doc, nil }}
	want, err := EmitEnforcement(in)
	if err != nil {
		t.Fatal(err)
	}
	in.Read = func(string) ([]byte, error) { t.Fatal("read with Headings set"); return nil, nil }
	in.Headings = func(string) ([]string, error) { asked++; return Headings(doc), nil }
	got, err := EmitEnforcement(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) || asked == 0 || !strings.Contains(string(got), "§The enforcement map") {
		t.Fatalf("with Headings (asked %d):\n%s\nwithout:\n%s", asked, got, want)
	}
}
