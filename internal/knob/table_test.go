package knob

import (
	"strings"
	"testing"
)

const kitHead = "[kit]\nname = \"x-kit\"\nprefix = \"X_KIT\"\n"

func knobRow(fields string) string {
	return "[[knob]]\n" + fields + "\ndescription = \"d\"\n"
}

func TestParseTableRefusals(t *testing.T) {
	tests := []struct {
		name, toml, msg string
	}{
		{"no kit name", "[kit]\nprefix = \"X_KIT\"\n", "name is missing"},
		{"bad prefix", "[kit]\nname = \"x\"\nprefix = \"x-kit\"\n", "not SCREAMING_SNAKE"},
		{"unknown key", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\ndefalt = \"x\""), "unknown keys knob.defalt"},
		{"bad toml", kitHead + "[[knob]\n", "knob table t"},
		{"bad shape", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"list\""), "not scalar, indexed or keyed"},
		{"name outside the prefix", kitHead + knobRow("name = \"Y_KIT_A\"\nshape = \"scalar\""), "not a SCREAMING_SNAKE name under X_KIT_"},
		{"lowercase name", kitHead + knobRow("name = \"X_KIT_a\"\nshape = \"scalar\""), "not a SCREAMING_SNAKE name"},
		{"engine var as a row", kitHead + knobRow("name = \"X_KIT_KNOB_FILE\"\nshape = \"scalar\""), "engine-owned"},
		{"row twice", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"") + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\""), "already declared"},
		{"row and env-only", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"") + "[[env_only]]\nname = \"X_KIT_A\"\n", "already declared"},
		{"scalar default not a string", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\ndefault = 3"), "scalar default is a string"},
		{"indexed default not a list", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"indexed\"\ndefault = \"a\""), "array of strings"},
		{"indexed default with an empty element", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"indexed\"\ndefault = [\"a\", \"\"]"), "non-empty string"},
		{"keyed default not a table", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"keyed\"\ndefault = [\"a\"]"), "table of strings"},
		{"keyed default key with =", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"keyed\"\ndefault = { \"a=b\" = \"c\" }"), "not expressible"},
		{"scalar default with a tab", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\ndefault = \"a\\tb\""), "tab or newline"},
		{"derive on an indexed row", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"indexed\"\nderive = \"x\""), "scalars only"},
		{"derive and default", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\nderive = \"x\"\ndefault = \"y\""), "exclusive"},
		{"derive reads undeclared", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\nderive = \"{GATE_SDK_GATES_DIR}/x\""), "does not match"},
		{"declared read not asked", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\nderive = \"x\"\nreads = [\"GATE_SDK_ROOT\"]"), "does not match"},
		{"reads without derive", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\nreads = [\"GATE_SDK_ROOT\"]"), "reads without derive"},
		{"derive with a line break", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\nderive = \"a\\nb\""), "line break"},
		{"unclosed brace", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\nderive = \"{GATE_SDK_ROOT\""), "'{' without '}'"},
		{"stray close brace", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\nderive = \"a}\""), "'}' without '{'"},
		{"bad placeholder", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\nderive = \"{home}\""), "neither a knob name"},
		{"words on indexed", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"indexed\"\nwords = true"), "scalars only"},
		{"unknown check", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\ncheck = \"int\""), "unknown check"},
		{"uint on keyed", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"keyed\"\ncheck = \"uint\""), "scalars only"},
		{"slug-keys on scalar", kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\ncheck = \"slug-keys\""), "keyed knobs only"},
		{"no description", kitHead + "[[knob]]\nname = \"X_KIT_A\"\nshape = \"scalar\"\n", "description is missing"},
		{"retired without a note", kitHead + "[[retired]]\nname = \"X_KIT_OLD\"\n", "note is missing"},
		{"family outside the prefix", kitHead + "[[family]]\nprefix = \"Y_KIT_RUN_\"\n", "family prefix"},
		{"family without trailing _", kitHead + "[[family]]\nprefix = \"X_KIT_RUN\"\n", "family prefix"},
		{"unknown kit rule", kitHead + "[[check]]\nrule = \"nope\"\n", "unknown check rule"},
		{"release check on a missing row", kitHead + "[[check]]\nrule = \"release-sections\"\nroster = \"X_KIT_R\"\naliases = \"X_KIT_A\"\nroles = [\"a\"]\n", "not an indexed row"},
		{"release check without roles", kitHead + knobRow("name = \"X_KIT_R\"\nshape = \"indexed\"") + knobRow("name = \"X_KIT_A\"\nshape = \"indexed\"") +
			"[[check]]\nrule = \"release-sections\"\nroster = \"X_KIT_R\"\naliases = \"X_KIT_A\"\n", "roles is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTable("t", []byte(tc.toml))
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want %q", err, tc.msg)
			}
		})
	}
}

func TestCheckTablesRefusals(t *testing.T) {
	core := testTables(t)[0]
	parse := func(src string) *Table {
		t.Helper()
		tb, err := ParseTable("t", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	tests := []struct {
		name   string
		tables []*Table
		msg    string
	}{
		{"read of an undeclared row", []*Table{core, parse(kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\nderive = \"{Y_KIT_B}\"\nreads = [\"Y_KIT_B\"]"))},
			"no table declares as a row"},
		{"read of an indexed row", []*Table{core, parse(kitHead + knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\nderive = \"{GATE_SDK_PROGRAM_FLOOR}\"\nreads = [\"GATE_SDK_PROGRAM_FLOOR\"]"))},
			"not scalar"},
		{"derivation cycle", []*Table{core, parse(kitHead +
			knobRow("name = \"X_KIT_A\"\nshape = \"scalar\"\nderive = \"{X_KIT_B}\"\nreads = [\"X_KIT_B\"]") +
			knobRow("name = \"X_KIT_B\"\nshape = \"scalar\"\nderive = \"{X_KIT_A}\"\nreads = [\"X_KIT_A\"]"))},
			"derivation cycle"},
		{"overlapping prefixes", []*Table{core, parse("[kit]\nname = \"g\"\nprefix = \"GATE_SDK_X\"\n")}, "overlaps"},
		{"one kit twice", []*Table{core, core}, "declared twice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckTables(tc.tables)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want %q", err, tc.msg)
			}
		})
	}
	if _, err := Load(Options{Dir: "/x", Lookup: env{}.lookup, AbsAgainst: absAgainst,
		Tables: []*Table{core, parse(kitHead + "[[env_only]]\nname = \"X_KIT_DIR\"\nlocator = true\n")}}); err == nil ||
		!strings.Contains(err.Error(), "marked locator") {
		t.Fatalf("a locator that is not one of the two: %v", err)
	}
}

func TestTemplateJoin(t *testing.T) {
	vals := map[string]string{"A": "", "B": ".", "C": "c/", "D": "d", "E": "./e"}
	for src, want := range map[string]string{
		"{A}/x":         "x",
		"{B}/x":         "x",
		"{C}/x":         "c/x",
		"{D}/x":         "d/x",
		"{E}/x":         "./e/x",
		"{D}x":          "dx",
		"{B}":           ".",
		"p {B}/a {D}/b": "p a d/b",
		"{D}{D}/x":      "dd/x",
		"lit/{D}":       "lit/d",
	} {
		tpl, err := compileTemplate(src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tpl.eval(func(n string) (string, error) { return vals[n], nil })
		if err != nil || got != want {
			t.Errorf("%q -> %q, %v; want %q", src, got, err, want)
		}
	}
}
