package registry

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

const okGraph = "# graph: couples=a.md dir=one valve=none tier=precommit"

func TestParseDescriptorFixture(t *testing.T) {
	path := "../../testdata/registry/manifest/check-foo.gate"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseManifest(path, data)
	if err != nil {
		t.Fatal(err)
	}
	g := m.Graph
	if !m.Descriptor || !reflect.DeepEqual(g.Couples, []string{"kit:checks/*.gate", "knob:CANON_KIT_FOO_FILES"}) ||
		g.Dir != DirOne || g.Valve != ValveNone || g.Tier != TierPrecommit || g.Mode != ModeWholeTree || g.Trigger != nil || g.Line != 1 {
		t.Errorf("graph = %+v", g)
	}
	if m.Spec.Location != "canon-kit/SPEC.md §check-foo" || m.Spec.Statement != "every foo names a live bar" || m.Spec.Line != 2 {
		t.Errorf("spec = %+v", m.Spec)
	}
	if m.Install.Text != InstallZero || m.ArmedBy.Content || !reflect.DeepEqual(m.ArmedBy.Knobs, []string{"CANON_KIT_FOO_FILES"}) {
		t.Errorf("install %+v armed-by %+v", m.Install, m.ArmedBy)
	}
	if !reflect.DeepEqual(m.Projection, []string{"docs/foo.md", "knob:GATE_SDK_GATES_DIR/FOO.html"}) || m.ProjectionLine != 5 {
		t.Errorf("projection = %v at %d", m.Projection, m.ProjectionLine)
	}
	if m.NoFixture == nil || m.NoFixture.Line != 6 {
		t.Errorf("no-fixture = %+v", m.NoFixture)
	}
	want := []LocalKnob{
		{Name: "GATE_LOCAL_FOO_HEADING", Value: "Open questions", File: path, Line: 7},
		{Name: "GATE_LOCAL_FOO_DIRS", Indexed: true, Value: "docs", File: path, Line: 8},
		{Name: "GATE_LOCAL_FOO_DIRS", Indexed: true, Value: "notes", File: path, Line: 9},
	}
	if !reflect.DeepEqual(m.Knobs, want) {
		t.Errorf("knobs = %+v", m.Knobs)
	}
}

func TestParseShellFixture(t *testing.T) {
	path := "../../testdata/registry/manifest/check-bar.sh"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseManifest(path, data)
	if err != nil {
		t.Fatal(err)
	}
	g := m.Graph
	if m.Descriptor || g.Dir != DirBi || g.Valve != ValveProposed || g.Tier != TierAlignOnly || !g.Staged() ||
		!reflect.DeepEqual(g.Trigger, []string{"*.sh"}) || g.Line != 2 {
		t.Errorf("graph = %+v", g)
	}
	if !m.ArmedBy.Content || len(m.ArmedBy.Knobs) != 2 || m.PortUntil.Text != "port-check-bar" || m.Install.Text != InstallSurface {
		t.Errorf("armed-by %+v port-until %+v", m.ArmedBy, m.PortUntil)
	}
	if len(m.Knobs) != 0 {
		t.Errorf("a shell header declares no knobs, got %+v", m.Knobs)
	}
}

// TestManifestRefusals holds each refusal to its kind and to naming the
// file and line.
func TestManifestRefusals(t *testing.T) {
	cases := []struct {
		name, path, text string
		kind             ErrKind
		line             int
		msg              string
	}{
		{"dir=two", "x.gate", "# graph: couples=a dir=two valve=none tier=precommit", KindBadValue, 1, "dir=two"},
		{"valve=maybe", "x.gate", "# graph: couples=a dir=one valve=maybe tier=precommit", KindBadValue, 1, "valve=maybe"},
		{"tier=push", "x.gate", "# graph: couples=a dir=one valve=none tier=push", KindBadValue, 1, "tier=push"},
		{"mode=partial", "x.gate", "# graph: couples=a dir=one valve=none tier=precommit mode=partial", KindBadValue, 1, "mode=partial"},
		{"gen=", "x.gate", "# graph: couples=a dir=one valve=none tier=precommit gen=x", KindRetiredGen, 1, "gen= is retired"},
		{"unknown key", "x.sh", "#!/bin/sh\n# graph: couples=a dir=one valve=none tier=precommit colour=red", KindUnknownField, 2, "colour="},
		{"bare word", "x.gate", "# graph: couples=a dir=one valve=none tier=precommit staged", KindUnknownField, 1, "\"staged\""},
		{"missing tier", "x.gate", "# graph: couples=a dir=one valve=none", KindMissingField, 1, "lacks tier="},
		{"missing couples", "x.gate", "# graph: dir=one valve=none tier=precommit", KindMissingField, 1, "lacks couples="},
		{"duplicate key", "x.gate", "# graph: couples=a dir=one dir=bi valve=none tier=precommit", KindDuplicate, 1, "dir= twice"},
		{"two graph lines", "x.gate", okGraph + "\n" + okGraph, KindDuplicate, 2, "first is line 1"},
		{"no graph", "x.gate", "# spec: a §b", KindNoManifest, 0, "no # graph:"},
		{"no graph in header", "x.sh", "#!/bin/sh\necho hi\n" + okGraph, KindNoManifest, 0, "no # graph:"},
		{"empty couples", "x.gate", "# graph: couples= dir=one valve=none tier=precommit", KindBadToken, 1, "couples= is empty"},
		{"doubled comma", "x.gate", "# graph: couples=a,,b dir=one valve=none tier=precommit", KindBadToken, 1, "empty token"},
		{"env prefix", "x.gate", "# graph: couples=env:FOO dir=one valve=none tier=precommit", KindBadToken, 1, "env: is refused"},
		{"unknown prefix", "x.gate", "# graph: couples=a,path:x dir=one valve=none tier=precommit", KindBadToken, 1, "unknown prefix \"path:\""},
		{"two prefixes", "x.gate", "# graph: couples=kit:knob:X dir=one valve=none tier=precommit", KindBadToken, 1, "one prefix"},
		{"unclosed bracket", "x.gate", "# graph: couples=[abc dir=one valve=none tier=precommit", KindBadToken, 1, "couples= token \"[abc\": not a well-formed glob"},
		{"unclosed bracket after kit:", "x.gate", "# graph: couples=kit:checks/[a-z dir=one valve=none tier=precommit", KindBadToken, 1, "not a well-formed glob"},
		{"unknown class in trigger", "x.gate", "# graph: couples=a trigger=[[:nope:]] dir=one valve=none tier=precommit", KindBadToken, 1, "not a character class"},
		{"kit: empty", "x.gate", "# graph: couples=kit: dir=one valve=none tier=precommit", KindBadToken, 1, "kit: names no glob"},
		{"bad knob ref", "x.gate", "# graph: couples=knob:lower dir=one valve=none tier=precommit", KindBadToken, 1, "knob name"},
		{"bad rooted glob", "x.gate", "# graph: couples=knob:X/[a] dir=one valve=none tier=precommit", KindBadToken, 1, "rooted glob"},
		{"repeated token", "x.gate", "# graph: couples=a,b,a dir=one valve=none tier=precommit", KindDuplicateToken, 1, "repeats token \"a\""},
		{"repeated trigger token", "x.gate", "# graph: couples=a dir=one valve=none tier=precommit trigger=*,*", KindDuplicateToken, 1, "trigger= repeats"},
		{"reads refused", "x.sh", "#!/bin/sh\n" + okGraph + "\n# reads: docs/", KindRefused, 3, "# reads: is refused"},
		{"needs refused", "x.gate", okGraph + "\n# needs: shellcheck", KindRefused, 2, "# needs: is refused"},
		{"no-port on descriptor", "x.gate", okGraph + "\n# no-port: ruling x", KindShellOnly, 2, "shell script"},
		{"port-until on descriptor", "x.gate", okGraph + "\n# port-until: slug", KindShellOnly, 2, "shell script"},
		{"no-port and port-until", "x.sh", okGraph + "\n# no-port: ruling\n# port-until: slug", KindDuplicate, 3, "cannot both"},
		{"port-until not a slug", "x.sh", okGraph + "\n# port-until: two words", KindBadValue, 2, "bare queue slug"},
		{"unknown descriptor field", "x.gate", okGraph + "\n# owner: me", KindUnknownField, 2, "# owner: is not a descriptor field"},
		{"descriptor code line", "x.gate", okGraph + "\necho hi", KindNotComment, 2, "comment lines only"},
		{"bad install", "x.gate", okGraph + "\n# install: sometimes", KindBadValue, 2, "\"sometimes\""},
		{"two installs", "x.gate", okGraph + "\n# install: never\n# install: never", KindDuplicate, 3, "second # install:"},
		{"empty spec", "x.gate", okGraph + "\n# spec:", KindBadValue, 2, "names no section"},
		{"empty no-fixture", "x.gate", okGraph + "\n# no-fixture:", KindBadValue, 2, "needs a reason"},
		{"armed-by two knobs", "x.gate", okGraph + "\n# armed-by: A_X B_Y", KindBadValue, 2, "one knob name"},
		{"armed-by content none", "x.gate", okGraph + "\n# armed-by: content", KindBadValue, 2, "at least one knob"},
		{"armed-by lower", "x.gate", okGraph + "\n# armed-by: foo", KindBadValue, 2, "not a knob name"},
		{"projection kit", "x.gate", okGraph + "\n# projection: kit:x.md", KindBadToken, 2, "kit: is not allowed"},
		{"projection empty", "x.gate", okGraph + "\n# projection:", KindBadValue, 2, "names no path"},
		{"knob static prefix", "x.gate", okGraph + "\n# knob: GATE_SDK_X = 1", KindKnobLine, 2, "lacks the GATE_LOCAL_ prefix"},
		{"knob no prefix", "x.gate", okGraph + "\n# knob: FOO = 1", KindKnobLine, 2, "lacks the GATE_LOCAL_ prefix"},
		{"knob bare prefix", "x.gate", okGraph + "\n# knob: GATE_LOCAL_ = 1", KindKnobLine, 2, "lacks the GATE_LOCAL_ prefix"},
		{"knob keyed", "x.gate", okGraph + "\n# knob: GATE_LOCAL_M[k] = 1", KindKnobLine, 2, "keyed"},
		{"knob reference", "x.gate", okGraph + "\n# knob: GATE_LOCAL_M[] <- GATE_LOCAL_N", KindKnobLine, 2, "reference"},
		{"knob malformed", "x.gate", okGraph + "\n# knob: GATE_LOCAL_M", KindKnobLine, 2, "expected NAME = value"},
		{"knob tab", "x.gate", okGraph + "\n# knob: GATE_LOCAL_M = a\tb", KindKnobLine, 2, "tab"},
		{"knob scalar twice", "x.gate", okGraph + "\n# knob: GATE_LOCAL_M = a\n# knob: GATE_LOCAL_M = b", KindKnobLine, 3, "given twice"},
		{"knob mixed shapes", "x.gate", okGraph + "\n# knob: GATE_LOCAL_M =\n# knob: GATE_LOCAL_M[] = b", KindKnobLine, 3, "both as a scalar and as elements"},
	}
	for _, c := range cases {
		_, err := ParseManifest(c.path, []byte(c.text+"\n"))
		ps := Problems(err)
		if len(ps) == 0 {
			t.Errorf("%s: parsed, want %s", c.name, c.kind)
			continue
		}
		var hit *Error
		for _, p := range ps {
			if p.Kind == c.kind {
				hit = p
				break
			}
		}
		if hit == nil {
			t.Errorf("%s: got %v, want kind %s", c.name, err, c.kind)
			continue
		}
		if hit.File != c.path || hit.Line != c.line || !strings.Contains(hit.Msg, c.msg) {
			t.Errorf("%s: got %q (line %d), want line %d and text %q", c.name, hit.Error(), hit.Line, c.line, c.msg)
		}
		var target *Error
		if !errors.As(err, &target) {
			t.Errorf("%s: errors.As finds no *Error in %v", c.name, err)
		}
	}
}

func TestManifestAccepts(t *testing.T) {
	for name, text := range map[string]string{
		"any field order":         "# graph: tier=commit-msg valve=none dir=bi couples=scripts/msg-patterns.list",
		"crlf":                    okGraph + "\r\n# spec: a §b\r\n",
		"prose in descriptor":     okGraph + "\n# This checks that: things hold\n#\n# assertion A: prose too",
		"shell keys ignored":      "#!/bin/bash\n" + okGraph + "\n# usage: x\n# shellcheck disable=SC2016\n# fail-closed-exempt: y",
		"later shell lines":       "#!/bin/bash\n" + okGraph + "\nset -e\n# reads: below the header\n# graph: nope",
		"trigger star":            okGraph + " trigger=*",
		"knob token forms":        "# graph: couples=knob:A_B,knob:A_C.path,knob:GATE_SDK_GATES_DIR/x/*.md dir=one valve=none tier=precommit",
		"field-looking path":      "# graph: couples=docs/a:b.md dir=one valve=none tier=precommit",
		"knob indexed repeated":   okGraph + "\n# knob: GATE_LOCAL_L[] = a\n# knob: GATE_LOCAL_L[] = a",
		"indented shell comments": "#!/bin/sh\n  # graph: couples=a dir=one valve=none tier=precommit\n\n  # spec: x §y",
	} {
		path := "x.gate"
		if strings.HasPrefix(text, "#!") {
			path = "x.sh"
		}
		if _, err := ParseManifest(path, []byte(text)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestParseManifestReportsEveryProblem(t *testing.T) {
	_, err := ParseManifest("x.gate", []byte("# graph: couples=a dir=two valve=maybe tier=push\n# reads: x\n"))
	ps := Problems(err)
	if len(ps) != 4 {
		t.Fatalf("want 4 problems, got %d: %v", len(ps), err)
	}
}

func TestParseHeaderWithoutGraph(t *testing.T) {
	m, err := ParseHeader("tool.sh", []byte("#!/bin/sh\n# no-port: the front end locates the binary\nexec x\n"))
	if err != nil || m.Graph != nil || m.NoPort == nil {
		t.Fatalf("ParseHeader: %+v %v", m, err)
	}
}

func TestLocalKnobs(t *testing.T) {
	a, _ := ParseManifest("a.gate", []byte(okGraph+"\n# knob: GATE_LOCAL_X[] = 1\n# knob: GATE_LOCAL_X[] = 2\n# knob: GATE_LOCAL_Y = v\n"))
	b, _ := ParseManifest("b.gate", []byte(okGraph+"\n# knob: GATE_LOCAL_Z = z\n"))
	got, err := LocalKnobs([]*Manifest{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if d := got["GATE_LOCAL_X"]; !d.Indexed || !reflect.DeepEqual(d.Elements, []string{"1", "2"}) || d.File != "a.gate" {
		t.Errorf("X = %+v", d)
	}
	if len(got) != 3 {
		t.Errorf("got %d names", len(got))
	}
	c, _ := ParseManifest("c.gate", []byte(okGraph+"\n# knob: GATE_LOCAL_Y = w\n"))
	_, err = LocalKnobs([]*Manifest{a, c})
	if !IsKind(err, KindKnobConflict) || !strings.Contains(err.Error(), "a.gate") || !strings.Contains(err.Error(), "c.gate") {
		t.Errorf("conflict should name both files: %v", err)
	}
}

func TestValidGlobToken(t *testing.T) {
	for tok, want := range map[string]bool{
		"scripts/*.sh": true, "kit:*.sh": true, "knob:A_B": true, "*": true, "knob:A/x.md": true,
		"env:X": false, "kit:knob:X": false, "a b": false, "": false, "kit:": false, "x[ab]": false,
	} {
		if got := ValidGlobToken(tok); got != want {
			t.Errorf("ValidGlobToken(%q) = %v, want %v", tok, got, want)
		}
	}
}

// FuzzParseManifest holds the parser to never panicking and to either a
// manifest or typed refusals naming the file.
func FuzzParseManifest(f *testing.F) {
	for _, p := range []string{"../../testdata/registry/manifest/check-foo.gate", "../../testdata/registry/manifest/check-bar.sh"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, strings.HasSuffix(p, ".gate"))
	}
	f.Add([]byte(okGraph+" gen=x trigger=,, mode=\n# knob: GATE_LOCAL_A[] <- B\n"), true)
	f.Add([]byte("#!/bin/sh\n#graph:couples=a\n# armed-by: content\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, descriptor bool) {
		path := "fz.sh"
		if descriptor {
			path = "fz.gate"
		}
		m, err := ParseManifest(path, data)
		if err == nil {
			if m == nil || m.Graph == nil {
				t.Fatal("no error and no manifest")
			}
			for _, tok := range append(append([]string{}, m.Graph.Couples...), m.Graph.Trigger...) {
				if tokenProblem(tok, true) != "" {
					t.Fatalf("accepted bad token %q", tok)
				}
			}
			return
		}
		ps := Problems(err)
		if len(ps) == 0 {
			t.Fatalf("untyped error %v", err)
		}
		for _, p := range ps {
			if p.File != path || p.Kind == "" || p.Msg == "" {
				t.Fatalf("refusal without place or kind: %#v", p)
			}
		}
	})
}

// A descriptor saved with a UTF-8 byte-order mark reads as the same
// descriptor: only the binary reads a .gate file, and the mark is its
// encoding signature. A shell declaration opening with one is refused by
// name: the mark hides its #! line from the kernel, so the script would
// not run as written either.
func TestManifestByteOrderMark(t *testing.T) {
	m, err := ParseManifest("x.gate", []byte("\ufeff"+okGraph+"\n# spec: a §b\n"))
	if err != nil || m.Graph == nil {
		t.Errorf("a marked descriptor: %+v %v", m, err)
	}
	_, err = ParseManifest("x.sh", []byte("\ufeff#!/bin/sh\n"+okGraph+"\n"))
	if err == nil || !strings.Contains(err.Error(), "byte-order mark") || !strings.Contains(err.Error(), "x.sh:1") {
		t.Errorf("a marked shell declaration: %v, want a refusal naming the mark at line 1", err)
	}
}
