package knob

import (
	"strings"
	"testing"
)

// The name grammar admits exactly its ranges: an uppercase first letter
// A to Z, then A-Z, a-z, 0-9 and _; the byte on either side of each range
// ('@' '[' '`' '{' '/' ':') is refused as no knob name.
func TestKnobNameGrammarEdges(t *testing.T) {
	for _, name := range []string{"A", "Z", "AZ", "Aaz", "A09", "A_", "Z_a_z_0_9"} {
		lines, findings := ParseFile("f.knobs", []byte(name+" = v\n"+name+"[] = e\n"+name+"[k] = p\n"))
		if len(findings) != 0 || len(lines) != 3 || lines[0].Name != name || lines[1].Name != name || lines[2].Name != name {
			t.Errorf("%s: lines %+v findings %v", name, lines, findings)
		}
	}
	for _, name := range []string{"@", "[A", "a", "z", "0A", "9A", "_A", "A@", "A[", "A`", "A{", "A/", "A:", "A-"} {
		lines := []string{name + " = v\n", name + "[] = e\n"}
		if name == "A[" {
			lines = lines[:1] // "A[[] = e" is a pair keyed "["
		}
		for _, line := range lines {
			_, findings := ParseFile("f.knobs", []byte(line))
			if len(findings) != 1 || !strings.Contains(findings[0].Msg, "not a knob name") {
				t.Errorf("%q: findings %v, want a refused name", line, findings)
			}
		}
	}
}

// A reference's names are SCREAMING_SNAKE: A-Z first, then A-Z, 0-9 and
// _; a lowercase letter or a byte next to a range is refused on either
// side of the arrow.
func TestReferenceNameGrammarEdges(t *testing.T) {
	for _, name := range []string{"A", "Z", "AZ09_", "Z9"} {
		lines, findings := ParseFile("f.knobs", []byte(name+"[] <- "+name+"\n"))
		if len(findings) != 0 || len(lines) != 1 || lines[0].Kind != KindRef || lines[0].Name != name || lines[0].Other != name {
			t.Errorf("%s: lines %+v findings %v", name, lines, findings)
		}
	}
	for _, name := range []string{"@", "[", "Aa", "Az", "A@", "A[", "A/", "A:", "0A", "9A", "_A"} {
		for _, line := range []string{name + "[] <- OK\n", "OK[] <- " + name + "\n"} {
			_, findings := ParseFile("f.knobs", []byte(line))
			if len(findings) != 1 || !strings.Contains(findings[0].Msg, "SCREAMING_SNAKE") {
				t.Errorf("%q: findings %v, want a refused reference name", line, findings)
			}
		}
	}
}

// A whole-number knob admits the digits 0 to 9 and nothing beside them;
// a slug key admits a-z and 0-9 (a hyphen after the first) and refuses
// the bytes next to those ranges.
func TestValueRuleEdges(t *testing.T) {
	var cases []resolveCase
	for _, v := range []string{"0", "9", "09", "90", "1234567890"} {
		cases = append(cases, resolveCase{name: "uint " + v, files: map[string]string{tracked: "GATE_SDK_UPDATE_TIMEOUT = " + v + "\n"},
			knob: "GATE_SDK_UPDATE_TIMEOUT", want: v})
	}
	for _, v := range []string{"/", ":", "0/", "9:", "-1", "1.5"} {
		cases = append(cases, resolveCase{name: "uint refuses " + v, files: map[string]string{tracked: "GATE_SDK_UPDATE_TIMEOUT = " + v + "\n"},
			knob: "GATE_SDK_UPDATE_TIMEOUT", refuse: "must be a whole number (digits only)", at: tracked + ":1: "})
	}
	for _, k := range []string{"a", "z", "0", "9", "az09", "a-z", "0-9"} {
		cases = append(cases, resolveCase{name: "slug " + k, files: map[string]string{tracked: "GATE_SDK_PAYLOAD_RECIPES[" + k + "] = docs\n"},
			knob: "GATE_SDK_PAYLOAD_RECIPES", want: k + "=docs"})
	}
	for _, k := range []string{"`", "{", "/", ":", "A", "Z", "-a", "a_b", "a:b", "a{"} {
		cases = append(cases, resolveCase{name: "slug refuses " + k, files: map[string]string{tracked: "GATE_SDK_PAYLOAD_RECIPES[" + k + "] = docs\n"},
			knob: "GATE_SDK_PAYLOAD_RECIPES", refuse: "keys must be [a-z0-9][a-z0-9-]*; refused: \"" + k + "\"", at: tracked + ":1: "})
	}
	runResolveCases(t, cases)
}

// A refusal names what it refuses: the knob whose value carries a tab
// (its bare name, whatever the line's form), the head a reference lacks,
// and a long spelling quoted up to 60 bytes, longer ones cut with "...".
func TestRefusalsNameTheirSubject(t *testing.T) {
	long60, long61 := "X"+strings.Repeat("-", 59), "X"+strings.Repeat("-", 60)
	for _, c := range []struct{ line, msg string }{
		{"KNOB = a\tb\n", "value of KNOB contains a tab"},
		{"KNOB[] = a\tb\n", "value of KNOB contains a tab"},
		{"KNOB[k] = a\tb\n", "value of KNOB contains a tab"},
		{"[] = a\tb\n", `value of "" contains a tab`},
		{"<- OTHER\n", `its head is NAME[]; got ""`},
		{"[A[] = e\n", `"" is not a knob name`},
		{long60 + " = v\n", `"` + long60 + `" is not a knob name`},
		{long61 + " = v\n", `"` + long61[:60] + `..." is not a knob name`},
	} {
		_, findings := ParseFile("f.knobs", []byte(c.line))
		if len(findings) != 1 || !strings.Contains(findings[0].Msg, c.msg) {
			t.Errorf("%q: %v, want a finding saying %q", c.line, findings, c.msg)
		}
	}
}

// A release-section clash found in a table default says so rather than
// pointing at a file line the user never wrote.
func TestReleaseSectionClashInADefault(t *testing.T) {
	runResolveCases(t, []resolveCase{
		{name: "roster heading taken by a default alias", files: map[string]string{tracked: "GATE_SDK_RELEASE_SECTIONS[] = gates: Tightened gates\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: `GATE_SDK_RELEASE_SECTION_ALIASES: alias heading "Tightened gates" is also a roster heading (table default)`},
		{name: "overlay roster located in the overlay", files: map[string]string{overlay: "GATE_SDK_RELEASE_SECTIONS[] = gates: A\nGATE_SDK_RELEASE_SECTIONS[] = gates: B\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "role gates is given twice", at: overlay + ":2: "},
	})
}
