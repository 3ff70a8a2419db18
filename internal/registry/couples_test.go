package registry

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// fakeKnobs is a knob table for tests: values by name, packed fields by
// "NAME.field".
type fakeKnobs struct {
	vals   map[string]KnobValue
	fields map[string][]string
}

func (f fakeKnobs) Knob(name string) (KnobValue, error) {
	v, ok := f.vals[name]
	if !ok {
		return KnobValue{}, fmt.Errorf("%s is not a statically owned knob", name)
	}
	return v, nil
}

func (f fakeKnobs) Field(name, field string) ([]string, error) {
	v, ok := f.fields[name+"."+field]
	if !ok {
		return nil, fmt.Errorf("%s declares no field %s", name, field)
	}
	return v, nil
}

func testKnobs() fakeKnobs {
	return fakeKnobs{
		vals: map[string]KnobValue{
			"CANON_KIT_FILES":    {Shape: ShapeIndexed, Elems: []string{"docs/**/*.md", "README.md", "*.txt", "kit:SPEC.md", ""}},
			"CANON_KIT_EMPTY":    {Shape: ShapeIndexed},
			"CANON_KIT_SCALAR":   {Shape: ShapeScalar, Value: "./NOTES.md"},
			"CANON_KIT_UNSET":    {Shape: ShapeScalar},
			"CANON_KIT_DOCS":     {Shape: ShapeScalar, Value: "./docs/"},
			"CANON_KIT_DOT":      {Shape: ShapeScalar, Value: "."},
			"CANON_KIT_SLASH":    {Shape: ShapeScalar, Value: "/"},
			"CANON_KIT_WORDS":    {Shape: ShapeWords, Elems: []string{"a", "b/"}},
			"CANON_KIT_NOWORDS":  {Shape: ShapeWords},
			"CANON_KIT_PACKED":   {Shape: ShapePacked},
			"CANON_KIT_COMMA":    {Shape: ShapeIndexed, Elems: []string{"a,b"}},
			"CANON_KIT_SPACE":    {Shape: ShapeScalar, Value: "a b"},
			"CANON_KIT_NESTED":   {Shape: ShapeIndexed, Elems: []string{"knob:CANON_KIT_FILES"}},
			"GATE_SDK_GATES_DIR": {Shape: ShapeLocator, Value: "scripts"},
		},
		fields: map[string][]string{"CANON_KIT_PACKED.path": {"ops/*.yml", "**/deploy.yml"}},
	}
}

func TestExpand(t *testing.T) {
	roots := []string{"gate-sdk", "tools/canon-kit/"}
	cases := []struct {
		tokens []string
		want   []string
	}{
		{[]string{"scripts/*.sh", "kit:*.sh"}, []string{"scripts/*.sh", "gate-sdk/*.sh", "tools/canon-kit/*.sh"}},
		// knob: first, covering conversion per member, kit: members composed.
		{[]string{"knob:CANON_KIT_FILES"}, []string{"*docs/**.md", "*README.md", "*.txt", "gate-sdk/SPEC.md", "tools/canon-kit/SPEC.md"}},
		{[]string{"knob:CANON_KIT_EMPTY", "a"}, []string{"a"}},
		{[]string{"knob:CANON_KIT_UNSET"}, nil},
		{[]string{"knob:CANON_KIT_SCALAR"}, []string{"*NOTES.md"}},
		// Rooted tokens.
		{[]string{"knob:CANON_KIT_DOCS/*.md"}, []string{"*docs/*.md"}},
		{[]string{"knob:CANON_KIT_DOT/*.md"}, []string{"*.md"}},
		{[]string{"knob:CANON_KIT_WORDS/x"}, []string{"*a/x", "*b/x"}},
		{[]string{"knob:CANON_KIT_NOWORDS/x"}, nil},
		{[]string{"knob:GATE_SDK_GATES_DIR/gates.list"}, []string{"*scripts/gates.list"}},
		// Packed field.
		{[]string{"knob:CANON_KIT_PACKED.path"}, []string{"*ops/*.yml", "*deploy.yml"}},
	}
	for _, c := range cases {
		got, err := Expand(c.tokens, roots, testKnobs())
		if err != nil {
			t.Errorf("%v: %v", c.tokens, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Expand(%v) = %q, want %q", c.tokens, got, c.want)
		}
	}
}

func TestExpandRefusals(t *testing.T) {
	cases := map[string]string{
		"knob:CANON_KIT_NOPE":         "not a statically owned knob",
		"knob:CANON_KIT_UNSET/x":      "resolves empty",
		"knob:CANON_KIT_SLASH/x":      "names no directory",
		"knob:CANON_KIT_FILES/x":      "indexed or packed",
		"knob:CANON_KIT_PACKED/x":     "indexed or packed",
		"knob:CANON_KIT_PACKED":       "packs several fields",
		"knob:CANON_KIT_WORDS":        "word list",
		"knob:CANON_KIT_FILES.path":   "not one",
		"knob:CANON_KIT_PACKED.other": "declares no field",
		"knob:CANON_KIT_COMMA":        "comma or a blank",
		"knob:CANON_KIT_SPACE":        "comma or a blank",
		"knob:CANON_KIT_NESTED":       "one pass",
	}
	for tok, want := range cases {
		_, err := Expand([]string{tok}, []string{"k"}, testKnobs())
		if !IsKind(err, KindExpansion) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an expansion refusal saying %q", tok, err, want)
		}
	}
	if _, err := Expand([]string{"knob:A_B"}, nil, nil); !IsKind(err, KindExpansion) {
		t.Errorf("no knob table: got %v", err)
	}
}

func TestCover(t *testing.T) {
	for in, want := range map[string]string{
		"docs/**/*.md": "*docs/**.md", "README.md": "*README.md", "*.md": "*.md", "./a/**/b/**/c": "*a/*b/*c", "**/x": "*x",
	} {
		if got := Cover(in); got != want {
			t.Errorf("Cover(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestResolveProjection(t *testing.T) {
	m, err := ParseManifest("p.gate", []byte(okGraph+"\n# projection: docs/page.md,knob:CANON_KIT_DOCS/out.md,knob:CANON_KIT_SCALAR,knob:CANON_KIT_PACKED.path\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ResolveProjection(m, testKnobs())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"docs/page.md", "docs/out.md", "./NOTES.md", "ops/*.yml", "**/deploy.yml"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("projection = %q, want %q", got, want)
	}
	m, _ = ParseManifest("p.gate", []byte(okGraph+"\n# projection: knob:CANON_KIT_UNSET/x.md\n"))
	_, err = ResolveProjection(m, testKnobs())
	if p := Problems(err); len(p) != 1 || p[0].File != "p.gate" || p[0].Line != 2 {
		t.Errorf("empty rooted projection: want a refusal at p.gate:2, got %v", err)
	}
	m, _ = ParseManifest("p.gate", []byte(okGraph+"\n# projection: knob:CANON_KIT_FILES\n"))
	if _, err := ResolveProjection(m, testKnobs()); !IsKind(err, KindExpansion) {
		t.Errorf("kit: member in a projection: got %v", err)
	}
}

func TestCouplesKnobNames(t *testing.T) {
	a, _ := ParseManifest("a.gate", []byte("# graph: couples=x,knob:B_X,knob:A_X/y dir=one valve=none tier=precommit trigger=knob:C_X.f\n# projection: knob:B_X\n"))
	b, _ := ParseManifest("b.gate", []byte("# graph: couples=knob:D_X dir=one valve=none tier=precommit\n"))
	got := CouplesKnobNames([]*Manifest{a, nil, b})
	if want := []string{"A_X", "B_X", "C_X", "D_X"}; !reflect.DeepEqual(got, want) {
		t.Errorf("CouplesKnobNames = %v, want %v", got, want)
	}
}
