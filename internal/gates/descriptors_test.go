package gates

import (
	"os"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/registry"
)

// descriptorDirs are where this repository declares its compiled gates:
// the kit's checks/ for shipped members, scripts/ for the publisher's own.
var descriptorDirs = map[string]string{
	"../../kits/gate-sdk/checks": kitOwner,
	"../../scripts":              "",
}

// TestDescriptorsAndRulesAreOneSet holds the dispatch relation both ways:
// every .gate descriptor names a compiled rule, every rule has exactly one
// descriptor, and the rule's owner is the kit whose dir carries it.
func TestDescriptorsAndRulesAreOneSet(t *testing.T) {
	owners := map[string]string{}
	for dir, owner := range descriptorDirs {
		decls, err := registry.Declarations(registry.OS{}, []string{dir})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range decls {
			if d.Kind != registry.Descriptor {
				continue
			}
			if prev, dup := owners[d.Name]; dup {
				t.Errorf("%s is declared twice (owners %q and %q)", d.Name, prev, owner)
			}
			owners[d.Name] = owner
			st, err := os.Stat(d.Path)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm()&0o111 != 0 {
				t.Errorf("%s is executable; a descriptor is data (mode 0644)", d.Path)
			}
			data, err := os.ReadFile(d.Path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := registry.ParseManifest(d.Path, data); err != nil {
				t.Errorf("%s: %v", d.Path, err)
			}
		}
	}
	defs := All()
	seen := map[string]bool{}
	for _, def := range defs {
		seen[def.Name] = true
		owner, ok := owners[def.Name]
		if !ok {
			t.Errorf("rule %s has no .gate descriptor", def.Name)
			continue
		}
		if owner != def.Owner {
			t.Errorf("rule %s: owner %q, but its descriptor sits with %q", def.Name, def.Owner, owner)
		}
		if def.Rule == nil {
			t.Errorf("rule %s has no function", def.Name)
		}
	}
	for name := range owners {
		if !seen[name] {
			t.Errorf("descriptor %s names no compiled rule", name)
		}
	}
}

// TestEveryRegisteredGateHasAFixturePair holds the fixture-pair discipline
// over this repository's registry: a good/ and bad/ pair beside the
// descriptor's owner, or a `# no-fixture:` reason on the descriptor.
func TestEveryRegisteredGateHasAFixturePair(t *testing.T) {
	data, err := os.ReadFile("../../scripts/gates.list")
	if err != nil {
		t.Fatal(err)
	}
	list, err := registry.ParseList("scripts/gates.list", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range list.Entries {
		res, err := registry.Resolve(registry.OS{}, e.Name, "../../scripts", []string{"../../kits/gate-sdk"})
		if err != nil || res.Kind == registry.Unresolved {
			t.Errorf("%s does not resolve: %v", e.Name, err)
			continue
		}
		m, err := os.ReadFile(res.Path)
		if err != nil {
			t.Fatal(err)
		}
		man, err := registry.ParseManifest(res.Path, m)
		if err != nil {
			t.Fatal(err)
		}
		if man.NoFixture != nil {
			continue
		}
		// A kit descriptor's pair is authored at the module's top-level
		// gate-tests/; a publisher member's sits in the gates dir's.
		base := strings.TrimSuffix(res.Dir, "/checks")
		if base == "../../kits/gate-sdk" {
			base = "../.."
		}
		tests := base + "/gate-tests/" + e.Name
		for _, c := range []string{"good", "bad"} {
			if st, err := os.Stat(tests + "/" + c); err != nil || !st.IsDir() {
				t.Errorf("%s has no %s/ case at %s", e.Name, c, tests)
			}
		}
	}
}
