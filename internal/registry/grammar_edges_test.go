package registry

import (
	"strings"
	"testing"
)

// The grammars of the header (directive keys, prefixes, knob names, glob
// tokens, port-until slugs) are byte ranges; each case below stands on a
// range's end (a, z, A, Z, 0, 9) or just outside it, where an off-by-one
// would move a token from refused to accepted or back.

// TestDescriptorKeyGrammarEdges: a descriptor line "# key: …" whose key is
// lower-case letters and digits in '-'-joined words is a field, and an
// unknown field is refused; anything else is prose and accepted.
func TestDescriptorKeyGrammarEdges(t *testing.T) {
	fields := []string{"a", "z", "az", "a0", "a9", "z-a", "a-0", "a-9", "a-z09", "q:"}
	for _, key := range fields {
		text := okGraph + "\n# " + key + ": x\n"
		if strings.HasSuffix(key, ":") {
			text = okGraph + "\n# " + key + "\n" // "# q::" reads key q
		}
		_, err := ParseManifest("x.gate", []byte(text))
		if !hasKind(err, KindUnknownField) {
			t.Errorf("# %s: got %v, want it refused as an unknown descriptor field", key, err)
		}
	}
	prose := []string{"0a", "9a", "A", "Z", "`a", "{a", "a`", "a{", "a/", "a;", "a@", "a[", "-a", "a-", "a--b", ""}
	for _, key := range prose {
		text := okGraph + "\n# " + key + ": x\n"
		if _, err := ParseManifest("x.gate", []byte(text)); err != nil {
			t.Errorf("# %s: x: got %v, want prose (accepted)", key, err)
		}
	}
	// A colon glued to the text is prose; a bare trailing colon is a field.
	if _, err := ParseManifest("x.gate", []byte(okGraph+"\n# note:glued\n")); err != nil {
		t.Errorf("glued colon: %v, want prose", err)
	}
	if _, err := ParseManifest("x.gate", []byte(okGraph+"\n# note:\n")); !hasKind(err, KindUnknownField) {
		t.Errorf("bare trailing colon: %v, want an unknown field", err)
	}
}

// TestPrefixGrammarEdges: a token led by "word:" (a letter, then letters,
// digits, '_' and '-') names a prefix, and one outside the closed set is
// refused; a token whose colon follows anything else is a glob.
func TestPrefixGrammarEdges(t *testing.T) {
	for _, p := range []string{"a", "z", "A", "Z", "a0", "a9", "aa", "az", "aA", "aZ", "a_", "a-", "z0_-Z9"} {
		tok := p + ":x"
		_, err := ParseManifest("x.gate", []byte("# graph: couples="+tok+" dir=one valve=none tier=precommit\n"))
		if !hasKind(err, KindBadToken) || !strings.Contains(err.Error(), "unknown prefix \""+p+":\"") {
			t.Errorf("%s: got %v, want the unknown prefix %q refused", tok, err, p+":")
		}
	}
	for _, tok := range []string{":x", "0a:x", "9a:x", "_a:x", "`a:x", "{a:x", "@a:x", "a`:x", "a{:x", "a@:x", "a/:x", "a;:x", "a.:x"} {
		if _, err := ParseManifest("x.gate", []byte("# graph: couples="+tok+" dir=one valve=none tier=precommit\n")); err != nil {
			t.Errorf("%s: got %v, want a plain glob token", tok, err)
		}
	}
}

// TestKnobNameGrammarEdges: a knob name is an upper-case letter, then
// letters, digits and '_'; knob:<NAME> reads the longest such run and
// the rest must be empty, .field or /glob.
func TestKnobNameGrammarEdges(t *testing.T) {
	for _, name := range []string{"A", "Z", "AZ", "Aa", "Az", "A0", "A9", "A_", "Zz09_AZ"} {
		if !IsKnobName(name) {
			t.Errorf("IsKnobName(%q) = false, want true", name)
		}
		ref, msg := ParseKnobRef(name)
		if msg != "" || ref.Name != name {
			t.Errorf("knob:%s: got %+v %q, want the whole name read", name, ref, msg)
		}
		tok := "knob:GATE_LOCAL_" + name
		if _, err := ParseManifest("x.gate", []byte("# graph: couples="+tok+" dir=one valve=none tier=precommit\n")); err != nil {
			t.Errorf("%s: %v, want accepted", tok, err)
		}
		if _, err := ParseManifest("x.gate", []byte(okGraph+"\n# knob: GATE_LOCAL_"+name+" = v\n")); err != nil {
			t.Errorf("# knob: GATE_LOCAL_%s: %v, want accepted", name, err)
		}
	}
	for _, name := range []string{"", "a", "z", "0", "9", "_", "@", "[", "`", "{", "A@", "A[", "A`", "A{", "A/", "A:", "A-"} {
		if IsKnobName(name) {
			t.Errorf("IsKnobName(%q) = true, want false", name)
		}
	}
	for _, tail := range []string{"@", "[", "`", "{", ":", "-"} {
		tok := "knob:GATE_LOCAL_X" + tail + "y"
		_, err := ParseManifest("x.gate", []byte("# graph: couples="+tok+" dir=one valve=none tier=precommit\n"))
		if !hasKind(err, KindBadToken) {
			t.Errorf("%s: got %v, want a bad token", tok, err)
		}
		if _, err := ParseManifest("x.gate", []byte(okGraph+"\n# knob: GATE_LOCAL_X"+tail+" = v\n")); !hasKind(err, KindKnobLine) {
			t.Errorf("# knob: GATE_LOCAL_X%s: got %v, want a bad knob line", tail, err)
		}
	}
	// A field or rooted glob takes letters, digits and ._*?/- only.
	for _, tok := range []string{"knob:A_B.az09AZ", "knob:A_B/az09AZ._*?/-"} {
		if _, err := ParseManifest("x.gate", []byte("# graph: couples="+tok+" dir=one valve=none tier=precommit\n")); err != nil {
			t.Errorf("%s: %v, want accepted", tok, err)
		}
	}
	for _, c := range []string{"@", "[", "`", "{", ":", "\\"} {
		tok := "knob:A_B/x" + c
		if _, err := ParseManifest("x.gate", []byte("# graph: couples="+tok+" dir=one valve=none tier=precommit\n")); !hasKind(err, KindBadToken) {
			t.Errorf("%s: got %v, want a bad token", tok, err)
		}
	}
}

// TestValidGlobTokenEdges: an amendment token is letters, digits and
// "._*?/-" after at most one prefix.
func TestValidGlobTokenEdges(t *testing.T) {
	for _, tok := range []string{"a", "z", "A", "Z", "0", "9", "az09AZ._*?/-", "kit:a", "knob:Z9"} {
		if !ValidGlobToken(tok) {
			t.Errorf("ValidGlobToken(%q) = false, want true", tok)
		}
	}
	for _, tok := range []string{"", "kit:", "`", "{", "@", "[", ":", " ", "a b", "x\\y", "kit:knob:", "a,b"} {
		if ValidGlobToken(tok) {
			t.Errorf("ValidGlobToken(%q) = true, want false", tok)
		}
	}
}

// TestReadDisposition: a shell header's port disposition, and the faults
// that read owed.
func TestReadDisposition(t *testing.T) {
	cases := map[string]Disposition{
		"#!/bin/sh\n# no-port: a ruling\n":               {State: "no-port"},
		"#!/bin/sh\n\n  # no-port: indented\necho\n":     {State: "no-port"},
		"#!/bin/sh\n# port-until: a\n":                   {State: "port-until:a"},
		"# port-until: z\n":                              {State: "port-until:z"},
		"# port-until: 0\n":                              {State: "port-until:0"},
		"# port-until: 9\n":                              {State: "port-until:9"},
		"# port-until: -\n":                              {State: "port-until:-"},
		"# port-until: az09-x rest\n":                    {State: "port-until:az09-x"},
		"# port-until: a`\n":                             {State: "port-until:a"},
		"# port-until: z{\n":                             {State: "port-until:z"},
		"# port-until: 0/\n":                             {State: "port-until:0"},
		"# port-until: 9:\n":                             {State: "port-until:9"},
		"# port-until: aA\n":                             {State: "port-until:a"},
		"#!/bin/sh\necho hi\n# no-port: after code\n":    {State: "owed"},
		"#!/bin/sh\n":                                    {State: "owed"},
		"# no-port:\n":                                   {State: "owed", Fault: "# no-port: with an empty cause"},
		"# no-port: x\n# port-until: y\n":                {State: "owed", Fault: "both # no-port: and # port-until:"},
		"# no-port: x\n# no-port: y\n":                   {State: "owed", Fault: "a doubled field"},
		"# port-until: x\n# port-until: y\n":             {State: "owed", Fault: "a doubled field"},
		"# port-until: `a\n":                             {State: "owed", Fault: "# port-until: naming no slug"},
		"# port-until: {a\n":                             {State: "owed", Fault: "# port-until: naming no slug"},
		"# port-until: /a\n":                             {State: "owed", Fault: "# port-until: naming no slug"},
		"# port-until: :a\n":                             {State: "owed", Fault: "# port-until: naming no slug"},
		"# port-until: Ab\n":                             {State: "owed", Fault: "# port-until: naming no slug"},
		"# port-until:\n":                                {State: "owed", Fault: "# port-until: naming no slug"},
		"#!/bin/sh\r\n# no-port: crlf\r\n":               {State: "no-port"},
		"#!/bin/sh\n#!/bin/sh\n# no-port: second bang\n": {State: "no-port"},
	}
	for in, want := range cases {
		if got := ReadDisposition([]byte(in)); got != want {
			t.Errorf("ReadDisposition(%q) = %+v, want %+v", in, got, want)
		}
	}
}

func hasKind(err error, k ErrKind) bool {
	for _, p := range Problems(err) {
		if p.Kind == k {
			return true
		}
	}
	return false
}
