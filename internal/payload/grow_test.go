package payload

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestInitWroteReasonByTier(t *testing.T) {
	for reason, want := range map[string]bool{
		"zero-config: it judges gates, and scripts/ holds none":        true,
		"on-surface: cannot run on this tree yet: x":                   true,
		"on-surface: 3 of the 40 recent subjects by people would pass": true,
		"zero-config: 3 of 40 recent subjects would pass":              true,
		"zero-config: we do not want it":                               false,
		"it judges gates":                                              false,
		"other-tier: it judges gates":                                  false,
		"on-surface:  it judges gates":                                 false,
	} {
		if got := initWroteReason(reason); got != want {
			t.Errorf("initWroteReason(%q) = %v, want %v", reason, got, want)
		}
	}
}

func TestReasonKindReadsFiguresAsOne(t *testing.T) {
	a := reasonKind("zero-config: 3 of the 40 recent subjects by people would pass")
	b := reasonKind("zero-config: 12 of the 100 recent subjects by people would pass")
	c := reasonKind("zero-config: it judges gates, and x")
	if a != b || a != "# of the # recent " || c != "it judges gates" {
		t.Fatalf("kinds %q %q %q", a, b, c)
	}
}

func TestGrowCandidates(t *testing.T) {
	p := &Plan{
		zero:      []gateDecl{{name: "check-listed"}, {name: "check-init-left"}, {name: "check-user-left"}, {name: "check-dropped"}, {name: "check-new"}},
		onSurface: []gateDecl{{name: "check-surface"}},
	}
	cur := "check-listed\n" +
		"# unregistered: check-init-left \u2014 zero-config: it judges gates, and scripts/ holds none\n" +
		"# unregistered: check-user-left \u2014 zero-config: not for us\n" +
		"# unregistered: check-init-left \u2014 zero-config: a second line, not init's\n"
	prior := &Lock{Registered: []string{"check-listed", "check-dropped"}}
	got, err := growCandidates(p, []byte(cur), "scripts/gates.list", prior)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range got {
		names = append(names, fmt.Sprintf("%s/%s/%d", c.name, c.class, c.line))
	}
	want := []string{"check-init-left/zero-config/1", "check-new/zero-config/-1", "check-surface/on-surface/-1"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("candidates %q, want %q", names, want)
	}
	if got[0].reason != "zero-config: it judges gates, and scripts/ holds none" {
		t.Errorf("reason %q", got[0].reason)
	}
	// With no earlier lock, a gate missing from the file is new to it.
	got, err = growCandidates(p, []byte(cur), "scripts/gates.list", nil)
	if err != nil || len(got) != 4 || got[1].name != "check-dropped" {
		t.Fatalf("without a lock: %+v %v", got, err)
	}
	if _, err := growCandidates(p, []byte("not a gate name!\n"), "scripts/gates.list", nil); err == nil {
		t.Error("a registry that does not parse grew")
	}
}

func TestGrowRegistry(t *testing.T) {
	codes := map[string]int{"check-now-green": 0, "check-still-broken": 2, "check-new-green": 0, "check-new-broken": 2}
	w := &InitWorld{Probe: func(g string) (int, []byte, error) { return codes[g], []byte("fails here\n"), nil }}
	own := repoShape{ownGates: []string{"scripts/check-mine.sh"}}
	p := &Plan{GatesDir: "scripts", shape: own}
	cur := "check-a\n" +
		"# unregistered: check-now-green \u2014 zero-config: cannot run on this tree yet: x\n" +
		"# unregistered: check-still-broken \u2014 zero-config: cannot run on this tree yet: fails here\n" +
		"# unregistered: check-gate-output \u2014 zero-config: it judges gates, and scripts/ holds none\n"
	cands := []candidate{
		{gateDecl{name: "check-now-green"}, "zero-config", 1, "zero-config: cannot run on this tree yet: x"},
		{gateDecl{name: "check-still-broken"}, "zero-config", 2, "zero-config: cannot run on this tree yet: fails here"},
		{gateDecl{name: "check-gate-output"}, "zero-config", 3, "zero-config: it judges gates, and scripts/ holds none"},
		{gateDecl{name: "check-new-green"}, "on-surface", -1, ""},
		{gateDecl{name: "check-new-broken"}, "on-surface", -1, ""},
	}
	// check-gate-output is considered now (a gate of its own) and probes
	// green (code 0 for a name not in the map).
	body, changed, added := growRegistry(w, p, []byte(cur), cands, true)
	want := "check-a\n" +
		"check-now-green\n" +
		"# unregistered: check-still-broken \u2014 zero-config: cannot run on this tree yet: fails here\n" +
		"check-gate-output\n" +
		"# Added by a later `gates init`: what applies to the repository as it now is.\n" +
		"check-new-green\n" +
		"# unregistered: check-new-broken \u2014 on-surface: cannot run on this tree yet: fails here\n"
	if string(body) != want {
		t.Errorf("body\n%s\nwant\n%s", body, want)
	}
	if !reflect.DeepEqual(added, []string{"check-now-green", "check-gate-output", "check-new-green"}) {
		t.Errorf("added %q", added)
	}
	if len(changed) != 4 || changed[3].Gate != "check-new-broken" || changed[3].Registered {
		t.Errorf("changed %+v", changed)
	}
	// A reason of another kind is rewritten in place; a moved figure is not.
	cur2 := "# unregistered: check-still-broken \u2014 zero-config: it judges gates, and scripts/ holds none\n" +
		"# unregistered: check-commit-msg \u2014 zero-config: 3 of the 10 recent commit messages by people would pass; to adopt: x\n"
	p2 := &Plan{GatesDir: "scripts", history: &history{messages: messages(10, 4)}}
	w.Judge = func(_, m string, _ []string) (bool, error) { return strings.HasPrefix(m, "ok"), nil }
	cands2 := []candidate{
		{gateDecl{name: "check-still-broken"}, "zero-config", 0, "zero-config: it judges gates, and scripts/ holds none"},
		{gateDecl{name: "check-commit-msg"}, "zero-config", 1, "zero-config: 3 of the 10 recent commit messages by people would pass; to adopt: x"},
	}
	body, changed, added = growRegistry(w, p2, []byte(cur2), cands2, true)
	want2 := "# unregistered: check-still-broken \u2014 zero-config: cannot run on this tree yet: fails here\n" +
		"# unregistered: check-commit-msg \u2014 zero-config: 3 of the 10 recent commit messages by people would pass; to adopt: x\n"
	if string(body) != want2 || len(changed) != 1 || added != nil {
		t.Errorf("body\n%s\nchanged %+v added %q", body, changed, added)
	}
	// Nothing to add to an empty registry leaves it empty.
	if body, changed, _ := growRegistry(w, p, nil, nil, true); len(body) != 0 || changed != nil {
		t.Errorf("an empty registry grew to %q", body)
	}
}

func TestPrintGrowth(t *testing.T) {
	for _, tc := range []struct {
		changed []Verdict
		want    string
	}{
		{nil, ""},
		{[]Verdict{{Gate: "check-a", Registered: true}, {Gate: "check-b"}, {Gate: "check-c", Registered: true}},
			"init: added 2 gates to scripts/gates.list: check-a, check-c; every line you wrote is kept\n"},
		{[]Verdict{{Gate: "check-a", Registered: true}}, "init: added 1 gate to scripts/gates.list: check-a; every line you wrote is kept\n"},
		{[]Verdict{{Gate: "check-b"}}, "init: added no gate to scripts/gates.list (each left out is named there with its reason); every line you wrote is kept\n"},
	} {
		var b strings.Builder
		printGrowth(&InitWorld{Stdout: &b}, "scripts/gates.list", tc.changed)
		if b.String() != tc.want {
			t.Errorf("printGrowth(%+v) = %q, want %q", tc.changed, b.String(), tc.want)
		}
	}
}

// init's line on the registry's first line turns into the member line in
// place once the gate applies.
func TestGrowRegistryFirstLine(t *testing.T) {
	w := &InitWorld{Probe: func(string) (int, []byte, error) { return 0, nil, nil }}
	cur := "# unregistered: check-x \u2014 zero-config: cannot run on this tree yet: x\ncheck-a\n"
	body, _, added := growRegistry(w, &Plan{GatesDir: "scripts"}, []byte(cur),
		[]candidate{{gateDecl{name: "check-x"}, "zero-config", 0, "zero-config: cannot run on this tree yet: x"}}, true)
	if string(body) != "check-x\ncheck-a\n" || len(added) != 1 {
		t.Fatalf("body %q added %q", body, added)
	}
}
