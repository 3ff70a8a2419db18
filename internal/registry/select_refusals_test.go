package registry

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// TestSelectRefusesWhatItCannotJudge: the selection the pre-commit hook
// reads fails when a member is unresolved or its header unreadable; it
// never silently leaves that member out.
func TestSelectRefusesWhatItCannotJudge(t *testing.T) {
	good := mustManifest(t, "scripts/check-a.gate", "# graph: couples=docs/*.md dir=one valve=none tier=precommit\n")
	member := func(name string, kind DeclKind, m *Manifest, merr error) Member {
		return Member{Name: name, Line: 3, Resolution: Resolution{Name: name, Kind: kind, Path: "scripts/" + name + ".gate"}, Manifest: m, ManifestErr: merr}
	}
	env := testEnv(nil, nil)
	ok := &Registry{List: &List{}, Members: []Member{member("check-a", Descriptor, good, nil)}}
	sel, err := ok.Select(env, []string{"docs/x.md"})
	if err != nil || len(sel) != 1 || sel[0].Member.Name != "check-a" {
		t.Fatalf("select: %+v %v", sel, err)
	}
	if sel, err := ok.Select(env, []string{"src/x.go"}); err != nil || len(sel) != 0 {
		t.Fatalf("an edit it does not couple: %+v %v", sel, err)
	}
	unresolved := &Registry{List: &List{Path: "scripts/gates.list"}, Members: []Member{member("check-a", Descriptor, good, nil), member("check-gone", Unresolved, nil, nil)}}
	if _, err := unresolved.Select(env, []string{"docs/x.md"}); err == nil || !strings.Contains(err.Error(), "scripts/gates.list:3:") || !strings.Contains(err.Error(), "check-gone") {
		t.Errorf("unresolved member: %v, want the registry line named", err)
	}
	nope := mustManifest(t, "scripts/check-n.gate", "# graph: couples=knob:CANON_KIT_NOPE dir=one valve=none tier=precommit\n")
	untriggered := &Registry{List: &List{}, Members: []Member{member("check-n", Descriptor, nope, nil), member("check-a", Descriptor, good, nil)}}
	if _, err := untriggered.Select(env, []string{"docs/x.md"}); err == nil || !strings.Contains(err.Error(), "CANON_KIT_NOPE") {
		t.Errorf("a trigger that cannot expand: %v, want its refusal", err)
	}
	bad := errors.New("x.gate:1: no # graph: line")
	unreadable := &Registry{List: &List{}, Members: []Member{member("check-a", Descriptor, good, nil), member("check-b", Descriptor, nil, bad)}}
	if _, err := unreadable.Select(env, []string{"docs/x.md"}); !errors.Is(err, bad) {
		t.Errorf("unreadable header: %v, want its refusal", err)
	}
}

// TestFindFixturePairs: the first complete pair answers; a case missing
// anywhere is named as a half pair.
func TestFindFixturePairs(t *testing.T) {
	fsys := rootFS{fstest.MapFS{
		"a/check-x/good/f": {}, "a/check-x/bad/f": {},
		"b/check-x/good/f": {}, "b/check-x/bad/f": {},
		"a/check-h/good/f": {},
		"b/check-k/bad/f":  {},
	}}
	if f, err := FindFixture(fsys, []string{"a", "b"}, "check-x"); err != nil || f.Pair != "a/check-x" || f.Half != "" {
		t.Errorf("two pairs: %+v %v, want the first", f, err)
	}
	if f, err := FindFixture(fsys, []string{"b", "a"}, "check-x"); err != nil || f.Pair != "b/check-x" {
		t.Errorf("two pairs, other order: %+v %v", f, err)
	}
	if f, err := FindFixture(fsys, []string{"a", "b"}, "check-h"); err != nil || f.Pair != "" || f.Half != "a/check-h" || f.Missing != "bad" {
		t.Errorf("half pair lacking bad: %+v %v", f, err)
	}
	if f, err := FindFixture(fsys, []string{"a", "b"}, "check-k"); err != nil || f.Half != "b/check-k" || f.Missing != "good" {
		t.Errorf("half pair lacking good: %+v %v", f, err)
	}
	if f, err := FindFixture(fsys, []string{"a", "b"}, "check-none"); err != nil || f != (Fixture{}) {
		t.Errorf("no pair: %+v %v", f, err)
	}
}

// TestExpandRefusesAShapelessKnob: a knob table answering a value with no
// shape is refused for every token form; a rooted token never expands to
// nothing over it.
func TestExpandRefusesAShapelessKnob(t *testing.T) {
	k := testKnobs()
	k.vals["CANON_KIT_ZERO"] = KnobValue{}
	for _, tok := range []string{"knob:CANON_KIT_ZERO", "knob:CANON_KIT_ZERO/x", "knob:CANON_KIT_ZERO.path"} {
		if got, err := Expand([]string{tok}, []string{"k"}, k); !IsKind(err, KindExpansion) {
			t.Errorf("%s: got %q, %v; want an expansion refusal", tok, got, err)
		}
	}
}
