package registry

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// fakeReach maps knob names to the stem of the kit owning them, and answers
// reached stems in a fixed table order.
type fakeReach struct {
	owner map[string]string
	order []string
	asked *[][]string
}

func (f fakeReach) KitsReached(names []string) ([]string, error) {
	if f.asked != nil {
		*f.asked = append(*f.asked, slices.Clone(names))
	}
	hit := map[string]bool{}
	for _, n := range names {
		s, ok := f.owner[n]
		if !ok {
			return nil, errors.New(n + " is not a statically owned knob")
		}
		if s != "" {
			hit[s] = true
		}
	}
	var out []string
	for _, s := range f.order {
		if hit[s] {
			out = append(out, s)
		}
	}
	return out, nil
}

func mustManifest(t *testing.T, path, text string) *Manifest {
	t.Helper()
	m, err := ParseManifest(path, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func testEnv(declared map[string][]string, corpus []*Manifest) *Env {
	return &Env{
		KitRoots: []string{"gate-sdk", "canon-kit"},
		GatesDir: "scripts",
		Knobs:    testKnobs(),
		Reach: fakeReach{
			owner: map[string]string{"CANON_KIT_FILES": "canon", "GATE_SDK_X": "gate-sdk", "DELEGATION_KIT_Y": "delegation", "GATE_SDK_ROOT": ""},
			order: []string{"gate-sdk", "canon", "delegation"},
		},
		Declared: func(m string) []string { return declared[m] },
		ModuleFiles: func(m string) ([]string, error) {
			if m == "check-mod" {
				return []string{"internal/gates/mod.go"}, nil
			}
			return nil, nil
		},
		LoadCorpus: func() ([]*Manifest, error) { return corpus, nil },
	}
}

func TestKnobFiles(t *testing.T) {
	other := mustManifest(t, "o.gate", "# graph: couples=knob:CANON_KIT_FILES dir=one valve=none tier=precommit\n# projection: knob:DELEGATION_KIT_Y\n")
	env := testEnv(map[string][]string{
		"check-a":     {"DELEGATION_KIT_Y", "GATE_SDK_X"},
		"check-graph": {EveryCouplesKnob},
		"check-loc":   {"GATE_SDK_ROOT"},
		"check-st":    {"GATE_SDK_X"},
	}, []*Manifest{other})
	m := mustManifest(t, "a.gate", okGraph)
	cases := map[string][]string{
		"check-a":     {"scripts/gate-sdk-config.knobs", "scripts/delegation-config.knobs"},
		"check-graph": {"scripts/canon-config.knobs", "scripts/delegation-config.knobs"},
		"check-loc":   {},
		"check-none":  nil,
	}
	for name, want := range cases {
		got, err := env.KnobFiles(name, m)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
			t.Errorf("%s: knob files = %q, want %q", name, got, want)
		}
	}
	// A corpus that cannot be read refuses the sentinel's member, and is
	// asked for by it alone.
	asked := 0
	broken := *env
	broken.LoadCorpus = func() ([]*Manifest, error) { asked++; return nil, errors.New("unreadable") }
	if _, err := broken.KnobFiles("check-a", m); err != nil || asked != 0 {
		t.Errorf("a member without the sentinel: err %v, corpus asked %d times", err, asked)
	}
	if got, err := broken.KnobFiles("check-graph", m); err == nil || asked != 1 {
		t.Errorf("the sentinel over an unreadable corpus: %q, %v (asked %d)", got, err, asked)
	}
	staged := mustManifest(t, "s.gate", okGraph+" mode=staged")
	_, err := env.KnobFiles("check-st", staged)
	if p := Problems(err); len(p) != 1 || p[0].Kind != KindStagedStatic || p[0].File != "s.gate" || p[0].Line != 1 || !strings.Contains(p[0].Msg, "gate-sdk") {
		t.Errorf("staged member reaching a static kit: got %v", err)
	}
	// A staged member reaching nothing is fine.
	if _, err := env.KnobFiles("check-loc", staged); err != nil {
		t.Errorf("staged member reaching no kit: %v", err)
	}
	env.Reach = nil
	if _, err := env.KnobFiles("check-a", m); !IsKind(err, KindNoKitTable) {
		t.Errorf("no kit table: got %v", err)
	}
	env = testEnv(map[string][]string{"check-bad": {"NOBODY_X"}}, nil)
	if _, err := env.KnobFiles("check-bad", m); !IsKind(err, KindExpansion) || !strings.Contains(err.Error(), "NOBODY_X") {
		t.Errorf("unowned declared name: got %v", err)
	}
}

func TestTrigger(t *testing.T) {
	env := testEnv(map[string][]string{"check-knobbed": {"GATE_SDK_X"}, "check-mod": nil}, nil)
	cases := []struct {
		member, text string
		want         []string
	}{
		{"check-plain", "# graph: couples=scripts/*.sh,kit:*.sh dir=one valve=none tier=precommit",
			[]string{"scripts/*.sh", "gate-sdk/*.sh", "canon-kit/*.sh"}},
		// trigger= replaces couples=; derived couples follow it.
		{"check-knobbed", "# graph: couples=a.md dir=one valve=none tier=precommit trigger=b.md,knob:CANON_KIT_DOCS/*.md",
			[]string{"b.md", "*docs/*.md", "scripts/gate-sdk-config.knobs"}},
		{"check-mod", "# graph: couples=x.go dir=one valve=none tier=precommit", []string{"x.go", "internal/gates/mod.go"}},
		// A trigger=* member is left alone.
		{"check-knobbed", "# graph: couples=a.md dir=one valve=none tier=precommit trigger=*", []string{"*"}},
		// A staged member takes no module cut.
		{"check-mod", "# graph: couples=x.go dir=one valve=none tier=precommit mode=staged", []string{"x.go"}},
	}
	for _, c := range cases {
		tr, err := env.Trigger(c.member, mustManifest(t, c.member+".gate", c.text))
		if err != nil {
			t.Errorf("%s: %v", c.member, err)
			continue
		}
		if !reflect.DeepEqual(tr.Patterns, c.want) {
			t.Errorf("%s: patterns = %q, want %q", c.member, tr.Patterns, c.want)
		}
	}
	_, err := env.Trigger("check-x", mustManifest(t, "x.gate", "# graph: couples=knob:NOPE_X dir=one valve=none tier=precommit"))
	if p := Problems(err); len(p) != 1 || p[0].File != "x.gate" || p[0].Line != 1 {
		t.Errorf("expansion refusal should be placed at the manifest line: %v", err)
	}
	exp, err := env.ExpandCouples(mustManifest(t, "k.gate", "# graph: couples=kit:SPEC.md dir=one valve=none tier=precommit trigger=*"))
	if err != nil || !reflect.DeepEqual(exp, []string{"gate-sdk/SPEC.md", "canon-kit/SPEC.md"}) {
		t.Errorf("ExpandCouples = %q, %v", exp, err)
	}
}

func TestSelects(t *testing.T) {
	whole := &Trigger{Patterns: []string{"native/src/*.rs", "gate-sdk/*.sh"}}
	for path, want := range map[string]bool{
		"native/src/emit/mod.rs": true, "gate-sdk/checks/x.sh": true, "native/x.rs": false, "docs/a.md": false,
	} {
		if got := whole.Selects(path); got != want {
			t.Errorf("whole-tree Selects(%q) = %v, want %v", path, got, want)
		}
	}
	staged := &Trigger{Staged: true, Patterns: []string{"docs", "*.yml", "[ab].md"}}
	for path, want := range map[string]bool{
		"docs/x/y.md": true, ".github/workflows/ci.yml": true, "a.md": true, "c.md": false, "docsx/y": false,
	} {
		if got := staged.Selects(path); got != want {
			t.Errorf("staged Selects(%q) = %v, want %v", path, got, want)
		}
	}
	got := staged.Operands([]string{"c.md", "docs/a", "b.md", "z.yml"})
	if want := []string{"docs/a", "b.md", "z.yml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Operands = %q, want %q", got, want)
	}
	// The two readings part on an unclosed bracket: the shell reads '['
	// literally, git's wildmatch never matches (only the literal path).
	lit := &Trigger{Patterns: []string{"x[y*"}}
	st := &Trigger{Staged: true, Patterns: []string{"x[y*"}}
	if !lit.Selects("x[yz") || st.Selects("x[yz") || !st.Selects("x[y*") {
		t.Errorf("unclosed bracket: case %v, pathspec %v / %v", lit.Selects("x[yz"), st.Selects("x[yz"), st.Selects("x[y*"))
	}
}

// TestSelectorOverRegistry drives the whole path the hook and --for take:
// load the registry, derive every member's trigger, select for paths.
func TestSelectorOverRegistry(t *testing.T) {
	reg, err := Load(OS{}, resolveTree+"/scripts", []string{resolveTree + "/gate-sdk", resolveTree + "/other-kit"})
	if err != nil {
		t.Fatal(err)
	}
	env := testEnv(nil, nil)
	var selected []string
	for _, m := range reg.Distinct() {
		if m.Kind == Unresolved || m.ManifestErr != nil {
			continue
		}
		tr, err := env.Trigger(m.Name, m.Manifest)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Selects("scripts/deep/notes.md") {
			selected = append(selected, m.Name)
		}
	}
	if want := []string{"foo", "both", "kitonly", "second"}; !reflect.DeepEqual(selected, want) {
		t.Errorf("selected %v, want %v", selected, want)
	}
}
